"""Fixtures for the mail pipeline: a toy game, mails to feed, replies to read."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from sqlmodel import col, select

from gm.db.engine import session_scope
from gm.db.models import OutboundMail
from gm.mail.mime import decode
from gm.mail.types import FetchedMail
from gm.pipeline.handle import handle_inbound
from gm.pipeline.ingest import store_inbound
from gm.service.games import SeatSpec, create_game
from tests.support import toygame  # noqa: F401  (registers "race")

SEATS = [SeatSpec("north", "north@example.org", password="n-secret"),
         SeatSpec("south", "south@example.org", password="s-secret", language="fr",
                  timezone="Europe/Paris")]


def mail(body: str, *, sender: str = "north@example.org", to: str = "gm@example.org",
         subject: str = "orders", message_id: str | None = None, **headers: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Message-ID"] = message_id or make_msgid(domain="player.example")
    for k, v in headers.items():
        msg[k.replace("_", "-")] = v
    msg.set_content(body)
    return bytes(msg)


def deliver(ctx, raw: bytes) -> int:  # type: ignore[no-untyped-def]
    """What the daemon does with one mail: store it, then handle it."""
    stored = store_inbound(ctx, FetchedMail(raw, "test:inbox", None, None))
    handle_inbound(ctx, stored.inbound_id)
    return stored.inbound_id


def outbox(ctx, kind: str | None = None, to: str | None = None) -> list[tuple[OutboundMail, str]]:  # type: ignore[no-untyped-def]
    """Queued mails with their decoded text, oldest first."""
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(OutboundMail).order_by(col(OutboundMail.id))).all()
    out = []
    for r in rows:
        if kind and r.kind != kind:
            continue
        if to and to not in (r.recipients or []):
            continue
        out.append((r, decode(r.raw).text))
    return out


@pytest.fixture
def race(ctx):  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="race1", module_name="race", scenario="duel", seats=SEATS,
                    moderator_address="mod@example.org", moderator_password="mod-secret",
                    seed=b"\x02" * 32)
    return ctx


BALTICA_SEATS = [SeatSpec("sweden", "karl@example.se", password="sw-pw"),
                 SeatSpec("coalition", "pyotr@example.ru", password="co-pw", language="fr")]
"""Pax Baltica's seats: Sweden in English, the Coalition in French."""


def baltica(ctx, game_id: str, seed: bytes = b"\x42" * 32) -> None:  # type: ignore[no-untyped-def]
    """A game of Pax Baltica, scenario 12.1, moderated by mod@example.org (password mod-pw)."""
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id=game_id, module_name="baltica", scenario="12.1",
                    seats=BALTICA_SEATS, moderator_address="mod@example.org",
                    moderator_password="mod-pw", seed=seed)


@pytest.fixture
def b1(ctx):  # type: ignore[no-untyped-def]
    """Pax Baltica's game b1 (:func:`baltica`)."""
    baltica(ctx, "b1")
    return ctx
