"""The corpus's Pax Baltica game (tests/e2e/corpus_game.py), one fresh copy per test."""

from __future__ import annotations

from gm.mail.mime import decode
from gm.service.context import ServiceContext
from tests.data.mail.generate import plain
from tests.e2e.corpus_game import deliver, outbound_rows

ANNA, BORIS, MOD = "anna@example.se", "boris@example.ru", "mod@pbem.example"
SWEDEN = "GAME baltica42\nPOWER sweden hunter2\n"
COALITION = "GAME baltica42\nPOWER coalition s-secret\n"



_counter = iter(range(10_000, 99_999))


def send(ctx: ServiceContext, body: str, sender: str = ANNA, **kw: str) -> str:
    """Deliver one mail; return the text of its reply ('' if none)."""
    n = next(_counter)
    before = len(outbound_rows(ctx))
    deliver(ctx, plain(n, body, sender=sender, **kw))
    replies = [m for m in outbound_rows(ctx)[before:] if m.kind == "reply"]
    return decode(replies[0].raw).text if replies else ""


def mails_to(ctx: ServiceContext, address: str, kind: str | None = None) -> list[tuple[str, str]]:
    """(subject, text) of every mail queued to ``address``."""
    return [(m.subject, decode(m.raw).text) for m in outbound_rows(ctx)
            if address in (m.recipients or []) and (kind is None or m.kind == kind)]
