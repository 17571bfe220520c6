"""Two copies of one mail in the mailbox (orders.md §2: "duplicates (same Message-ID) ...
are stored and never answered").

A mail can reach the mailbox twice, as two mailbox messages: a player's mail delivered
through two aliases, a client that sends it again. Each copy is stored (its own row, under
its own mailbox key); the first to be handled is answered, and every other copy is ignored
as its duplicate when claimed (gm.pipeline.claim), whichever instance takes which copy
when. On PostgreSQL a second real connection stands for the other instance: it holds a
copy's row lock in an open transaction, as an instance handling that copy does."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import event, text
from sqlmodel import col, select

import gm.pipeline.claim
import gm.pipeline.handle
from gm.daemon import process_round
from gm.db.engine import session_scope
from gm.db.models import InboundMail, OrderSet
from gm.mail.types import FetchedMail
from gm.pipeline.claim import claim
from gm.pipeline.handle import handle_inbound
from gm.pipeline.ingest import still_new, store_inbound
from gm.service.context import ServiceContext
from tests.pipeline.conftest import mail, outbox
from tests.support.doubles import FlagRecorder, together

NORTH = "GAME race1\nPOWER north n-secret\n"


def copies(body: str, message_id: str, first_uid: int = 1) -> tuple[FetchedMail, FetchedMail]:
    """Two copies of one mail, as two aliases deliver it: two mailbox messages (two UIDs)
    whose bytes differ in their Delivered-To and whose Message-ID is the same."""
    raw = mail(body, message_id=message_id)
    return (FetchedMail(b"Delivered-To: gm@example.org\n" + raw, "imap:INBOX", 7, first_uid,
                        str(first_uid)),
            FetchedMail(b"Delivered-To: gm-orders@example.org\n" + raw, "imap:INBOX", 7,
                        first_uid + 1, str(first_uid + 1)))


def rows(ctx: ServiceContext) -> list[tuple[int, str, str]]:
    """The stored mails: (id, status, note), in the order stored."""
    with session_scope(ctx.engine) as s:
        return [(int(r.id or 0), r.status, r.note)
                for r in s.exec(select(InboundMail).order_by(col(InboundMail.id)))]


def raws_with_the_password(ctx: ServiceContext) -> list[int]:
    """The stored mails whose raw still holds north's password (issue 22: none at rest once
    handled, ignored or a duplicate)."""
    with session_scope(ctx.engine) as s:
        return [int(r.id or 0) for r in s.exec(select(InboundMail)) if b"n-secret" in r.raw]


def duplicate_of(mail_id: int) -> str:
    return f"duplicate of mail {mail_id} (same Message-ID)"


def north_orders(ctx: ServiceContext) -> list[str]:
    with session_scope(ctx.engine) as s:
        return [o.text for o in s.exec(select(OrderSet).where(OrderSet.power == "north")
                                        .order_by(col(OrderSet.version)))]


def postgres_only(ctx: ServiceContext) -> None:
    if ctx.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has no row locks: one daemon per file (test_two_daemons.py)")


def lock_row(other: Any, mail_id: int) -> None:
    """In the transaction of ``other`` (another instance's), take mail ``mail_id``'s row lock,
    as an instance claiming it does."""
    other.execute(text("SELECT id FROM inboundmail WHERE id = :id FOR UPDATE"), {"id": mail_id})


# -- the rule, on both databases ------------------------------------------------------


def test_a_duplicate_same_message_id_is_stored_and_never_answered(race: ServiceContext) -> None:
    """orders.md §2: "Every mail gets one reply, also a rejected one, except: duplicates
    (same Message-ID) ... those are stored and never answered." The second copy, fetched
    after the first was handled, is stored under its own mailbox key and ignored as the
    first's duplicate: not answered, its orders not stored again, flagged."""
    first, second = copies(NORTH + "advance 2\n", "<twice@player.example>")
    box = FlagRecorder()
    process_round(race, box, [first])
    process_round(race, box, [second])
    [(one, handled, _), (two, ignored, note)] = rows(race)
    assert (handled, ignored, note) == ("handled", "ignored", duplicate_of(one))
    assert len(outbox(race, kind="reply")) == 1
    assert north_orders(race) == ["advance 2"]
    assert box.flagged == [1, 2]
    with session_scope(race.engine) as s:
        keys = [r.mailbox_key for r in s.exec(select(InboundMail).order_by(col(InboundMail.id)))]
    assert keys == ["imap:INBOX:7:1", "imap:INBOX:7:2"]
    assert raws_with_the_password(race) == []


def test_both_copies_in_one_round_are_stored_and_the_second_is_its_duplicate(
        race: ServiceContext) -> None:
    """The two copies fetched together, stored in one transaction: both stored, the first
    answered, the second ignored as its duplicate (marked by the first one's commit, its
    password masked as the first one's); both flagged."""
    box = FlagRecorder()
    process_round(race, box, list(copies(NORTH + "advance 2\n", "<twice@player.example>")))
    [(one, handled, _), (_, ignored, note)] = rows(race)
    assert (handled, ignored, note) == ("handled", "ignored", duplicate_of(one))
    assert len(outbox(race, kind="reply")) == 1 and north_orders(race) == ["advance 2"]
    assert box.flagged == [1, 2]
    assert raws_with_the_password(race) == []


def test_a_mail_without_a_copy_is_claimed_in_one_statement(race: ServiceContext) -> None:
    """Issue 21 counts a mail's statements: whether a mail has a copy is a column of its
    claim, so a mail without one (nearly every mail) is claimed in one statement, as before;
    only a mail with a copy reads it (and on PostgreSQL locks it) in one or two more."""
    first, second = copies(NORTH + "advance 2\n", "<twice@player.example>")
    alone = store_inbound(race, FetchedMail(mail(NORTH + "advance 1\n"), "imap:INBOX", 7, 9, "9"))
    x, y = store_inbound(race, first).inbound_id, store_inbound(race, second).inbound_id
    counts = []
    for mail_id in (alone.inbound_id, x):
        statements: list[str] = []

        def count(_conn, _cursor, statement: str, *_args) -> None:  # type: ignore[no-untyped-def]
            statements.append(statement)  # noqa: B023 (removed before the next)

        with session_scope(race.engine) as s:
            event.listen(race.engine, "before_cursor_execute", count)
            try:
                claimed = claim(s, mail_id)
            finally:
                event.remove(race.engine, "before_cursor_execute", count)
            assert claimed is not None
        counts.append(len(statements))
    assert counts == [1, 3 if race.engine.dialect.name == "postgresql" else 2]
    assert claimed.twins.keys() == {y}


def test_mails_without_a_message_id_are_not_duplicates_of_one_another(race: ServiceContext) -> None:
    """A mail without a Message-ID is known by one made from its bytes: two different mails
    without one are both answered."""
    box = FlagRecorder()
    for uid, body in enumerate((NORTH + "advance 1\n", NORTH + "advance 2\n"), start=1):
        raw = mail(body).replace(b"Message-ID:", b"X-Not-Message-ID:")
        process_round(race, box, [FetchedMail(raw, "imap:INBOX", 7, uid, str(uid))])
    assert [status for _, status, _ in rows(race)] == ["handled", "handled"]
    assert len(outbox(race, kind="reply")) == 2


def test_a_copy_whose_handling_fails_after_the_other_was_handled_is_a_duplicate_not_failed(
        race: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first copy's handling raises; before it is recorded as failed (answered "not
    processed", the moderator told), the second copy is handled: the first is then only its
    duplicate, nobody told twice."""
    first, second = copies(NORTH + "advance 2\n", "<twice@player.example>")
    x, y = store_inbound(race, first).inbound_id, store_inbound(race, second).inbound_id
    real_build, real_shunt = gm.pipeline.handle.build_reply, gm.pipeline.handle.shunt

    def build(ctx, session, decoded, row, after):  # type: ignore[no-untyped-def]
        if row.id == x:
            raise RuntimeError("a bug met by the first copy only")
        return real_build(ctx, session, decoded, row, after)

    def shunt(ctx, inbound_id, exc):  # type: ignore[no-untyped-def]
        monkeypatch.setattr(gm.pipeline.handle, "shunt", real_shunt)
        handle_inbound(ctx, y)  # the other instance, between the rollback and the shunt
        real_shunt(ctx, inbound_id, exc)

    monkeypatch.setattr(gm.pipeline.handle, "build_reply", build)
    monkeypatch.setattr(gm.pipeline.handle, "shunt", shunt)
    queued = len(outbox(race))
    handle_inbound(race, x)
    assert rows(race) == [(x, "ignored", duplicate_of(y)), (y, "handled", "")]
    assert len(outbox(race)) == queued + 1  # the second copy's reply: no "not processed", no notice
    assert len(outbox(race, kind="reply")) == 1
    assert north_orders(race) == ["advance 2"]


def test_a_copy_found_settled_only_when_its_failure_is_recorded_is_only_its_duplicate(
        race: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first copy's handling raises; when its failure is to be recorded, the other copy
    is found settled without the first having been marked its duplicate (an instance still
    running the version before copies were stored, which knew nothing of twins, during an
    upgrade): the first is only marked a duplicate, and nobody is told it failed."""
    first, second = copies(NORTH + "advance 2\n", "<twice@player.example>")
    x, y = store_inbound(race, first).inbound_id, store_inbound(race, second).inbound_id
    real_shunt = gm.pipeline.handle.shunt

    def build(*args):  # type: ignore[no-untyped-def]
        raise RuntimeError("a bug met by the first copy")

    def shunt(ctx, inbound_id, exc):  # type: ignore[no-untyped-def]
        with race.engine.begin() as other:  # the other instance answered the second copy
            other.execute(text("UPDATE inboundmail SET status = 'handled' WHERE id = :id"), {"id": y})
        real_shunt(ctx, inbound_id, exc)

    monkeypatch.setattr(gm.pipeline.handle, "build_reply", build)
    monkeypatch.setattr(gm.pipeline.handle, "shunt", shunt)
    queued = len(outbox(race))
    handle_inbound(race, x)
    assert rows(race) == [(x, "ignored", duplicate_of(y)), (y, "handled", "")]
    assert len(outbox(race)) == queued  # no "not processed", no notice to the moderator
    assert raws_with_the_password(race) == [y]  # the other version's row, as it left it


def test_a_failed_mail_retried_is_handled_though_its_copy_was_ignored_as_its_duplicate(
        race: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first copy failed (answered "not processed"); the second, later, is its
    duplicate; ``gm mod retry`` of the first handles it: the failed copy is the one the
    Message-ID belongs to, not a duplicate of its own duplicate."""
    first, second = copies(NORTH + "advance 2\n", "<twice@player.example>")
    x = store_inbound(race, first).inbound_id
    real_build = gm.pipeline.handle.build_reply

    def build(*args):  # type: ignore[no-untyped-def]
        raise RuntimeError("a bug, fixed before the retry")

    monkeypatch.setattr(gm.pipeline.handle, "build_reply", build)
    handle_inbound(race, x)
    monkeypatch.setattr(gm.pipeline.handle, "build_reply", real_build)
    y = store_inbound(race, second).inbound_id
    handle_inbound(race, y)
    assert [(i, s) for i, s, _ in rows(race)] == [(x, "failed"), (y, "ignored")]
    handle_inbound(race, x, retry=True)
    assert [(i, s) for i, s, _ in rows(race)] == [(x, "handled"), (y, "ignored")]
    assert north_orders(race) == ["advance 2"]
    assert len(outbox(race, kind="reply")) == 2  # "not processed", then the reply


def test_a_mail_recorded_as_failed_marks_its_other_copy_its_duplicate(
        race: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first copy's handling raises while the second waits, stored: the first is
    recorded as failed (its sender told once, the moderator too) and the second marked its
    duplicate in the same commit, its password masked; handled later, it is not told again."""
    first, second = copies(NORTH + "advance 2\n", "<twice@player.example>")
    x, y = store_inbound(race, first).inbound_id, store_inbound(race, second).inbound_id

    def build(*args):  # type: ignore[no-untyped-def]
        raise RuntimeError("a bug")

    monkeypatch.setattr(gm.pipeline.handle, "build_reply", build)
    queued = len(outbox(race))
    handle_inbound(race, x)
    assert [(i, s) for i, s, _ in rows(race)] == [(x, "failed"), (y, "ignored")]
    assert rows(race)[1][2] == duplicate_of(x)
    assert raws_with_the_password(race) == [x]  # the failed one is kept whole, for a retry
    handle_inbound(race, y)
    assert sorted(r.kind for r, _ in outbox(race)[queued:]) == ["notice", "reply"]


def test_a_later_copy_is_named_the_duplicate_of_the_answered_one(race: ServiceContext) -> None:
    """A third copy, when the first is the second's duplicate: its note names the second, the
    one answered, rather than another duplicate."""
    first, second = copies(NORTH + "advance 2\n", "<thrice@player.example>")
    x, y = store_inbound(race, first).inbound_id, store_inbound(race, second).inbound_id
    handle_inbound(race, y)
    third = FetchedMail(b"Delivered-To: gm-other@example.org\n" + first.raw.split(b"\n", 1)[1],
                        "imap:INBOX", 7, 3, "3")
    z = store_inbound(race, third).inbound_id
    handle_inbound(race, z)
    assert rows(race) == [(x, "ignored", duplicate_of(y)), (y, "handled", ""),
                          (z, "ignored", duplicate_of(y))]
    assert len(outbox(race, kind="reply")) == 1


# -- each interleaving of two instances, on PostgreSQL ---------------------------------


def test_a_copy_whose_twin_was_handled_is_its_duplicate_even_while_another_holds_the_twin(
        race: ServiceContext) -> None:
    """The twin is handled (committed); another transaction holds its row lock (an instance
    that fetched it again): the copy is its duplicate at once, not left for later."""
    postgres_only(race)
    first, second = copies(NORTH + "advance 2\n", "<twice@player.example>")
    y = store_inbound(race, second).inbound_id
    handle_inbound(race, y)
    x = store_inbound(race, first).inbound_id
    with session_scope(race.engine) as other:
        lock_row(other, y)
        handle_inbound(race, x)
        assert not still_new(race, x)
    assert rows(race) == [(y, "handled", ""), (x, "ignored", duplicate_of(y))]
    assert len(outbox(race, kind="reply")) == 1


def test_a_copy_whose_twin_is_being_handled_is_left_new_unflagged_then_its_duplicate(
        race: ServiceContext) -> None:
    """Another instance holds the twin (handling it, its transaction open): the copy is left
    new, not answered and not flagged (held, as a mail another instance holds), and taken
    again by the next round: once the other committed the twin handled, the copy is its
    duplicate."""
    postgres_only(race)
    first, second = copies(NORTH + "advance 2\n", "<twice@player.example>")
    y = store_inbound(race, second).inbound_id
    box = FlagRecorder()
    with session_scope(race.engine) as other:
        lock_row(other, y)
        done = process_round(race, box, [first])
        assert [f.uid for f in done.held] == [1] and box.flagged == []
        [x] = [i for i, _, _ in rows(race) if i != y]
        assert still_new(race, x) and outbox(race, kind="reply") == []
        other.execute(text("UPDATE inboundmail SET status = 'handled' WHERE id = :id"), {"id": y})
    done = process_round(race, box, [first])  # the next round fetches it again
    assert not done.held and box.flagged == [1]
    assert rows(race) == [(y, "handled", ""), (x, "ignored", duplicate_of(y))]
    assert outbox(race, kind="reply") == []  # the other instance's handling answered it


def test_a_copy_whose_twins_holder_died_is_handled_once_the_lock_is_gone(
        race: ServiceContext) -> None:
    """The instance holding the twin dies (its transaction rolls back, the twin still new):
    the copy is handled the next time, and the twin is then its duplicate."""
    postgres_only(race)
    first, second = copies(NORTH + "advance 2\n", "<twice@player.example>")
    y, x = store_inbound(race, second).inbound_id, store_inbound(race, first).inbound_id
    other = race.engine.connect()
    other.begin()
    lock_row(other, y)
    handle_inbound(race, x)
    assert still_new(race, x) and still_new(race, y)
    other.rollback()
    other.close()
    handle_inbound(race, x)
    handle_inbound(race, y)
    assert rows(race) == [(y, "ignored", duplicate_of(x)), (x, "handled", "")]
    assert len(outbox(race, kind="reply")) == 1 and north_orders(race) == ["advance 2"]


def test_a_copy_whose_twin_is_new_and_free_is_handled_holding_the_twin_and_marks_it_its_duplicate(
        race: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody holds the twin: the copy is handled, and while it is, its transaction holds the
    twin's row lock too (another instance claiming the twin skips it); its commit marks the
    twin its duplicate, and the twin's own claim then finds nothing to do."""
    postgres_only(race)
    first, second = copies(NORTH + "advance 2\n", "<twice@player.example>")
    x, y = store_inbound(race, first).inbound_id, store_inbound(race, second).inbound_id
    seen: list[list[int]] = []
    real_build = gm.pipeline.handle.build_reply

    def build(ctx, session, decoded, row, after):  # type: ignore[no-untyped-def]
        with race.engine.connect() as other:  # another instance, claiming the twin meanwhile
            seen.append(list(other.execute(text(
                "SELECT id FROM inboundmail WHERE id = :id FOR UPDATE SKIP LOCKED"),
                {"id": y}).scalars()))
            other.rollback()
        return real_build(ctx, session, decoded, row, after)

    monkeypatch.setattr(gm.pipeline.handle, "build_reply", build)
    handle_inbound(race, x)
    assert seen == [[]]  # the twin was held while the copy was handled
    assert rows(race) == [(x, "handled", ""), (y, "ignored", duplicate_of(x))]
    handle_inbound(race, y)
    assert rows(race) == [(x, "handled", ""), (y, "ignored", duplicate_of(x))]
    assert len(outbox(race, kind="reply")) == 1


def test_a_copy_whose_twin_is_settled_between_the_read_and_the_lock_is_its_duplicate(
        race: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """The twin was new when read, and another instance committed it handled before this
    one's lock on it: the status the lock returns, the newest, decides: a duplicate."""
    postgres_only(race)
    first, second = copies(NORTH + "advance 2\n", "<twice@player.example>")
    x, y = store_inbound(race, first).inbound_id, store_inbound(race, second).inbound_id
    real_run = gm.pipeline.claim.run

    def run(session, statement, params=None):  # type: ignore[no-untyped-def]
        if statement is gm.pipeline.claim._twins_lock():
            with race.engine.begin() as other:  # the other instance commits the twin handled
                other.execute(text("UPDATE inboundmail SET status = 'handled' WHERE id = :id"),
                              {"id": y})
        return real_run(session, statement, params)

    monkeypatch.setattr(gm.pipeline.claim, "run", run)
    handle_inbound(race, x)
    assert rows(race) == [(x, "ignored", duplicate_of(y)), (y, "handled", "")]
    assert outbox(race, kind="reply") == []


RACES = 20
"""Times two instances race on the two copies of a mail (a new mail each time)."""


def test_two_instances_storing_and_handling_the_two_copies_at_once_answer_the_mail_once(
        race: ServiceContext) -> None:
    """Each instance (a thread with its own transactions) fetched one copy: both store and
    handle their copy at the same moment, and take it again while it is left new (held),
    as the daemon's next round does. Each time: both copies stored, one answered, the other
    its duplicate, the orders stored once."""
    postgres_only(race)

    def instance(fetched: FetchedMail) -> None:
        stored = store_inbound(race, fetched)
        for _ in range(1000):  # rounds; each held only while the other holds the mail's twin
            handle_inbound(race, stored.inbound_id)
            if not still_new(race, stored.inbound_id):
                return
        raise AssertionError(f"mail {stored.inbound_id} still new after 1000 rounds")

    for n in range(RACES):
        pair = copies(NORTH + f"advance {n % 3 + 1}\n", f"<race-{n}@player.example>", 2 * n + 1)
        together(2, lambda i: instance(pair[i]))  # noqa: B023 (run before the next pair)
    assert len(outbox(race, kind="reply")) == RACES
    assert len(north_orders(race)) == RACES
    statuses = [status for _, status, _ in rows(race)]
    assert len(statuses) == 2 * RACES
    assert statuses.count("handled") == statuses.count("ignored") == RACES
