"""What the Pax Baltica by-mail tests do to a game between mails: read its phase, close it
as its deadline would (then settle what follows), mail as a player and read the reply."""

from __future__ import annotations

from gm.db.engine import session_scope
from gm.service.adjudicate import close_phase, settle
from gm.service.context import ServiceContext
from gm.service.games import current_phase
from tests.pipeline.conftest import deliver, mail, outbox


def phase_of(ctx: ServiceContext, game: str) -> tuple[str, int]:
    """The game's open phase: its id and sequence number."""
    with session_scope(ctx.engine) as s:
        p = current_phase(s, game)
        return p.phase_id, p.seq


def close_and_settle(ctx: ServiceContext, game: str) -> None:
    """Close the open phase as its deadline would, then the die rolls and steps after it."""
    assert close_phase(ctx, game, phase_of(ctx, game)[1], by="test").closed
    settle(ctx, game, by="test")


def reply_to(ctx: ServiceContext, sender: str, body: str) -> str:
    """Mail ``body`` from ``sender``; the text of the reply gm sends back."""
    deliver(ctx, mail(body, sender=sender))
    return outbox(ctx, kind="reply", to=sender)[-1][1]
