"""How many SQL statements one order mail costs the daemon (issue 21), and that the fewer
statements change nothing a player or the moderator can see. Not timed: counted."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event
from sqlalchemy.orm import ORMExecuteState, Session
from sqlmodel import col, select

from gm.daemon import process_one
from gm.db.engine import session_scope
from gm.db.models import InboundMail, OrderSet, OutboundMail
from gm.mail.types import FetchedMail
from gm.service.context import ServiceContext
from tests.pipeline.conftest import mail, outbox
from tests.support.doubles import FlagRecorder

MAX_STATEMENTS = 15
"""An order mail's statements: stored (look-up, insert), the due-phase check, the row's claim
(on SQLite one UPDATE ... RETURNING, gm.pipeline.claim), the loop check, game, phase, seats,
failures, the phase's lock (update, read), the orders (the current version retired by an
UPDATE returning its flags, the new one inserted numbered by its INSERT), the reply queued
(an insert: its key is the mail's, so nothing can be queued under it yet), the row marked
handled. There were 25 (two reads of the phase, the seats, the order versions; the stored
mail three times, the queued reply again, the mail's status after the commit), then 19 (a
look-up before the reply's insert), then 18 (the claim's update and read), then 16 (the
power's order versions read before its orders were stored)."""


@contextmanager
def counted(ctx: ServiceContext) -> Iterator[list[str]]:
    statements: list[str] = []

    def count(_conn, _cursor, statement: str, *_args) -> None:  # type: ignore[no-untyped-def]
        statements.append(statement)

    event.listen(ctx.engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(ctx.engine, "before_cursor_execute", count)


def test_an_order_mail_costs_a_bounded_number_of_statements_and_is_flagged_after_its_commit(
        race) -> None:  # type: ignore[no-untyped-def]
    box = FlagRecorder()
    bodies = ["GAME race1\nPOWER north n-secret\nadvance 1\n",
              "GAME race1\nPOWER south s-secret\nadvance 2\n",
              "GAME race1\nPOWER north n-secret\nadvance 3\n",  # replaces north's first orders
              "GAME race1\nPOWER south s-secret\nSET LANGUAGE en\nadvance 1\n"]
    fetched = [FetchedMail(mail(b, sender=f"{b.split()[3]}@example.org"), "imap:INBOX", 7, uid, str(uid))
               for uid, b in enumerate(bodies, start=1)]
    process_one(race, box, fetched[0])  # the first mail also reads what is then cached
    per_mail = []
    for f in fetched[1:]:
        with counted(race) as statements:
            assert process_one(race, box, f)
        per_mail.append(len(statements))
    assert max(per_mail) <= MAX_STATEMENTS, per_mail
    assert box.flagged == [1, 2, 3, 4]
    with session_scope(race.engine) as s:
        assert [r.status for r in s.exec(select(InboundMail).order_by(col(InboundMail.id)))] == \
            ["handled"] * 4
        versions = s.exec(select(OrderSet).where(OrderSet.power == "north")
                          .order_by(col(OrderSet.version))).all()
        assert [(v.version, v.current, v.text) for v in versions] == \
            [(1, False, "advance 1"), (2, True, "advance 3")]
        replies = s.exec(select(OutboundMail).where(OutboundMail.kind == "reply")).all()
        assert len(replies) == 4
    south = [text for _, text in outbox(race, kind="reply", to="south@example.org")]
    # south's seat is French until its LANGUAGE line: the reply reads the seat as it was left
    assert "puissance south" in south[0] and "power south" in south[1], south[1]


def test_a_mail_stored_again_is_neither_handled_nor_answered_twice(race) -> None:  # type: ignore[no-untyped-def]
    box = FlagRecorder()
    raw = mail("GAME race1\nPOWER north n-secret\nadvance 1\n")
    process_one(race, box, FetchedMail(raw, "imap:INBOX", 7, 1, "1"))
    process_one(race, box, FetchedMail(raw, "imap:INBOX", 7, 1, "1"))  # the same message again
    process_one(race, box, FetchedMail(raw, "imap:INBOX", 8, 5, "5"))  # after a UIDVALIDITY change
    assert box.flagged == [1, 1, 5]
    with session_scope(race.engine) as s:  # the same message once; under its new name, a copy
        assert [(r.mailbox_key, r.status, r.note) for r in
                s.exec(select(InboundMail).order_by(col(InboundMail.id)))] == [
            ("imap:INBOX:7:1", "handled", ""),
            ("imap:INBOX:8:5", "ignored", "duplicate of mail 1 (same Message-ID)")]
    assert len(outbox(race, kind="reply")) == 1


MAX_ORM_STATEMENTS = 4
"""Of those, the ORM statements: the rows the mail's code uses as objects (the game, its
seats, its phase, and the due-phase check's phases; on PostgreSQL also the phase read again
with its row locked); the mail's row is claimed and marked as plain columns (gm.pipeline.claim). The others (the look-ups, counts, claims and writes
every mail makes) are Core statements (gm.db.core): an ORM statement costs twice a Core
one for the same columns (issue 21). There were 12, then 5."""


def test_an_order_mails_look_ups_and_writes_are_core_statements(race) -> None:  # type: ignore[no-untyped-def]
    box = FlagRecorder()
    bodies = ["GAME race1\nPOWER north n-secret\nadvance 1\n",
              "GAME race1\nPOWER north n-secret\nadvance 3\n"]
    fetched = [FetchedMail(mail(b), "imap:INBOX", 7, uid, str(uid)) for uid, b in enumerate(bodies, 1)]
    process_one(race, box, fetched[0])
    orm: list[str] = []

    def seen(state: ORMExecuteState) -> None:
        if state.is_orm_statement:
            orm.append(str(state.statement).split("\n")[0])

    event.listen(Session, "do_orm_execute", seen)
    try:
        with counted(race) as statements:
            assert process_one(race, box, fetched[1])
    finally:
        event.remove(Session, "do_orm_execute", seen)
    locked_read = race.engine.dialect.name == "postgresql"
    assert len(orm) <= MAX_ORM_STATEMENTS + locked_read, "\n".join(orm)
    assert len(statements) > len(orm)
    with session_scope(race.engine) as s:
        versions = s.exec(select(OrderSet).where(OrderSet.power == "north")
                          .order_by(col(OrderSet.version))).all()
        assert [(v.version, v.current, v.text) for v in versions] == \
            [(1, False, "advance 1"), (2, True, "advance 3")]


def test_an_order_mail_is_stored_and_answered_without_building_their_rows_as_objects(
        race) -> None:  # type: ignore[no-untyped-def]
    """The stored mail and the queued reply are inserted from their column values (issue 21:
    building a row's object cost as much as its INSERT); the columns not given take the
    defaults the object would have had."""
    box = FlagRecorder()
    built: list[str] = []

    def init(target, _args, _kwargs) -> None:  # type: ignore[no-untyped-def]
        built.append(type(target).__name__)

    for model in (InboundMail, OutboundMail):
        event.listen(model, "init", init)
    try:
        assert process_one(race, box, FetchedMail(mail("GAME race1\nPOWER north n-secret\nadvance 1\n"),
                                                  "imap:INBOX", 7, 1, "1"))
    finally:
        for model in (InboundMail, OutboundMail):
            event.remove(model, "init", init)
    assert built == []
    with session_scope(race.engine) as s:
        stored = s.exec(select(InboundMail)).one()
        assert (stored.status, stored.mailbox_key, stored.game_id) == ("handled", "imap:INBOX:7:1", "race1")
        reply = s.exec(select(OutboundMail).where(OutboundMail.kind == "reply")).one()
        assert (reply.status, reply.attempts, reply.last_error, reply.claimed_by, reply.sent_at,
                reply.recipients) == ("queued", 0, "", "", None, ["north@example.org"])
