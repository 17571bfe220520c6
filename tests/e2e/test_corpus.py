"""Every mail of the awkward-mail corpus through store_inbound + handle_inbound (issue 11).

tests/data/mail/*.eml with their .expect.json (see the README there): mail
that must never be answered (auto-replies, bounces, lists, loops) is stored
and marked ignored with no reply queued; every ordinary mail gets exactly one
reply, to its sender, threaded under it; no mail raises. The corpus writes to
``gm@pbem.example`` about game ``baltica42``; here that game is the toy race
game (the baltica orders in the mails are rejected, which still earns one reply).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import select

from gm.clock import FakeClock
from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.migrate import upgrade
from gm.db.models import InboundMail, OutboundMail
from gm.mail.mime import decode
from gm.mail.types import FetchedMail
from gm.pipeline.handle import handle_inbound
from gm.pipeline.ingest import store_inbound
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game
from tests.support import toygame  # noqa: F401  (registers "race")

CORPUS = Path(__file__).resolve().parents[1] / "data" / "mail"
CASES = sorted(CORPUS.glob("*.eml"))
NEVER_ANSWERED = {"auto_reply", "bounce", "list", "loop"}


@pytest.fixture
def corpus_ctx(tmp_path: Path) -> Iterator[ServiceContext]:
    """A SQLite file with game baltica42 (the race module) seating the corpus's senders."""
    engine = make_engine(sqlite_url(tmp_path / "gm.db"))
    upgrade(engine)
    ctx = ServiceContext(engine=engine, clock=FakeClock(), instance="test",
                         settings={"address": "gm@pbem.example",
                                   "moderator_address": "mod@pbem.example"})
    with session_scope(engine) as s:
        create_game(ctx, s, game_id="baltica42", module_name="race", scenario="duel",
                    seats=[SeatSpec("north", "anna@example.se", password="hunter2"),
                           SeatSpec("south", "boris@example.ru", password="s-secret")],
                    moderator_address="mod@pbem.example", moderator_password="mod-secret")
    yield ctx
    engine.dispose()


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_corpus_mail_is_answered_exactly_when_it_should_be(
    corpus_ctx: ServiceContext, path: Path
) -> None:
    """Ignored kinds: stored, status ignored, no reply. Ordinary: handled, one reply to the sender."""
    expect = json.loads(path.with_name(path.stem + ".expect.json").read_text(encoding="utf-8"))
    raw = path.read_bytes()
    stored = store_inbound(corpus_ctx, FetchedMail(raw, "test:corpus", None, None))
    handle_inbound(corpus_ctx, stored.inbound_id)
    handle_inbound(corpus_ctx, stored.inbound_id)  # handling again changes nothing

    with session_scope(corpus_ctx.engine) as s:
        row = s.get(InboundMail, stored.inbound_id)
        assert row is not None and row.raw == raw
        replies = s.exec(select(OutboundMail).where(OutboundMail.kind == "reply")).all()
    if expect["class"] in NEVER_ANSWERED:
        assert row.status == "ignored", row.note
        assert replies == []
    else:
        assert row.status == "handled"
        [reply] = replies
        decoded = decode(raw)
        assert reply.in_reply_to == decoded.message_id
        assert reply.recipients == [decoded.reply_address or decoded.from_addr]
