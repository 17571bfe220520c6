"""A daemon round's mails (issue 21): stored in one transaction, each handled and committed
on its own, then flagged in one go (one IMAP STORE), each only after its own commit; a
crash between the commits and the flag handles nothing twice. Counted, not timed."""

from __future__ import annotations

import pytest
from sqlalchemy import event
from sqlmodel import col, select

import gm.daemon
import gm.mail.mime
import gm.pipeline.ingest
from gm.daemon import process_round
from gm.db.engine import session_scope
from gm.db.models import InboundMail, OrderSet
from gm.mail.types import FetchedMail
from gm.service.context import ServiceContext
from tests.pipeline.conftest import mail, outbox

BODIES = ["GAME race1\nPOWER north n-secret\nadvance 1\n",
          "GAME race1\nPOWER south s-secret\nadvance 2\n",
          "GAME race1\nPOWER north n-secret\nadvance 3\n"]


def fetched(bodies: list[str] = BODIES) -> list[FetchedMail]:
    return [FetchedMail(mail(b, sender=f"{b.split()[3]}@example.org", message_id=f"<m{uid}@player.example>"),
                        "imap:INBOX", 7, uid, str(uid)) for uid, b in enumerate(bodies, start=1)]


class Killed(BaseException):
    """The process dying at the flag (SIGKILL: nothing after it runs)."""


class Mailbox:
    """Records each flag call, and the status each flagged mail had in the database then."""

    def __init__(self, ctx: ServiceContext, die: bool = False) -> None:
        self.ctx = ctx
        self.die = die
        self.calls: list[list[int | None]] = []
        self.status_when_flagged: list[str] = []

    def fetch_new(self) -> list[FetchedMail]:
        return []

    def mark_handled(self, items: list[FetchedMail]) -> None:
        if self.die:
            raise Killed
        self.calls.append([f.uid for f in items])
        with session_scope(self.ctx.engine) as s:  # another connection: only what committed
            for f in items:
                row = s.exec(select(InboundMail).where(InboundMail.uid == f.uid)).one()
                self.status_when_flagged.append(row.status)

    def wait(self, timeout: float) -> bool:
        return False

    def close(self) -> None:
        return None


def stores_recorded(monkeypatch: pytest.MonkeyPatch) -> list[list[int | None]]:
    """The UIDs of each call the daemon makes to store a chunk of mails (gm.pipeline.ingest
    store_all), recorded from now on."""
    calls: list[list[int | None]] = []
    real = gm.daemon.store_all

    def recording(ctx, mails):  # type: ignore[no-untyped-def]
        calls.append([m.uid for m in mails])
        return real(ctx, mails)

    monkeypatch.setattr(gm.daemon, "store_all", recording)
    return calls


def replies_and_orders(ctx: ServiceContext) -> tuple[int, list[tuple[str, int, str]]]:
    with session_scope(ctx.engine) as s:
        orders = [(o.power, o.version, o.text) for o in
                  s.exec(select(OrderSet).order_by(col(OrderSet.power), col(OrderSet.version)))]
    return len(outbox(ctx, kind="reply")), orders


def test_a_rounds_mails_are_flagged_in_one_call_each_after_its_commit(race) -> None:  # type: ignore[no-untyped-def]
    box = Mailbox(race)
    done = process_round(race, box, fetched())
    assert box.calls == [[1, 2, 3]]  # one STORE for the round, not one a mail
    assert box.status_when_flagged == ["handled"] * 3  # each committed before the flag
    assert [f.uid for f in done.settled] == [1, 2, 3] and not done.held and not done.broken
    assert replies_and_orders(race) == (3, [("north", 1, "advance 1"), ("north", 2, "advance 3"),
                                            ("south", 1, "advance 2")])


def test_a_rounds_mails_are_stored_in_one_transaction(race) -> None:  # type: ignore[no-untyped-def]
    commits: list[str] = []
    inserts: list[int] = []

    def on_commit(_conn) -> None:  # type: ignore[no-untyped-def]
        commits.append(f"commit after {len(inserts)} stored")

    def on_execute(_conn, _cursor, statement: str, *_args) -> None:  # type: ignore[no-untyped-def]
        if statement.startswith("INSERT INTO inboundmail"):
            inserts.append(1)

    event.listen(race.engine, "commit", on_commit)
    event.listen(race.engine, "before_cursor_execute", on_execute)
    try:
        process_round(race, Mailbox(race), fetched())
    finally:
        event.remove(race.engine, "commit", on_commit)
        event.remove(race.engine, "before_cursor_execute", on_execute)
    assert len(inserts) == 3
    assert commits[0] == "commit after 3 stored", commits  # not one commit a stored mail


def test_killed_between_the_commits_and_the_flag_then_fetched_again_handles_nothing_twice(
        race) -> None:  # type: ignore[no-untyped-def]
    mails = fetched()
    with pytest.raises(Killed):
        process_round(race, Mailbox(race, die=True), mails)
    before = replies_and_orders(race)
    assert before[0] == 3  # each committed, none flagged
    box = Mailbox(race)
    done = process_round(race, box, mails)  # the next start fetches them all again
    assert box.calls == [[1, 2, 3]] and [f.uid for f in done.settled] == [1, 2, 3]
    assert replies_and_orders(race) == before  # found settled: flagged, nothing done twice
    with session_scope(race.engine) as s:
        assert len(s.exec(select(InboundMail)).all()) == 3


def test_a_mail_that_cannot_be_stored_is_left_alone_and_the_others_are_handled(
        race, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    mails = fetched()
    real = gm.pipeline.ingest.decode

    def decode(raw: bytes):  # type: ignore[no-untyped-def]
        if raw == mails[1].raw:
            raise ValueError("unreadable")
        return real(raw)

    monkeypatch.setattr(gm.pipeline.ingest, "decode", decode)
    box = Mailbox(race)
    done = process_round(race, box, mails)
    assert [f.uid for f, _ in done.broken] == [2]
    assert box.calls == [[1, 3]]
    assert replies_and_orders(race) == (2, [("north", 1, "advance 1"), ("north", 2, "advance 3")])


def test_a_mail_that_cannot_be_flagged_is_left_alone_and_the_others_are_flagged(
        race) -> None:  # type: ignore[no-untyped-def]
    class Refusing(Mailbox):
        def mark_handled(self, items: list[FetchedMail]) -> None:
            if any(f.uid == 2 for f in items):
                raise RuntimeError("the server refused the STORE")
            super().mark_handled(items)

    box = Refusing(race)
    done = process_round(race, box, fetched())
    assert [f.uid for f, _ in done.broken] == [2]
    assert box.calls == [[1], [3]]
    assert [f.uid for f in done.settled] == [1, 3]


def test_a_stop_asked_for_mid_round_flags_what_was_handled(race) -> None:  # type: ignore[no-untyped-def]
    box = Mailbox(race)
    asked = iter([False, True])
    done = process_round(race, box, fetched(), stopping=lambda: next(asked))
    assert box.calls == [[1]] and box.status_when_flagged == ["handled"]
    with session_scope(race.engine) as s:
        assert [r.status for r in s.exec(select(InboundMail).order_by(col(InboundMail.uid)))] == \
            ["handled", "new", "new"]  # stored, handled at the next start
    assert len(done.settled) == 1


def test_a_long_round_is_stored_and_flagged_a_chunk_at_a_time(race, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(gm.daemon, "ROUND_CHUNK", 2)
    box = Mailbox(race)
    done = process_round(race, box, fetched())
    assert box.calls == [[1, 2], [3]] and box.status_when_flagged == ["handled"] * 3
    assert [f.uid for f in done.settled] == [1, 2, 3]


def test_each_mail_of_a_full_chunk_is_decoded_once(race, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Stored (decoded for its Message-ID and sender), then handled (decoded again from the
    stored bytes): the second is the first's, remembered, for every mail of a chunk."""
    decoded: list[bytes] = []
    real = gm.mail.mime._decode

    def counting(raw: bytes, max_bytes: int):  # type: ignore[no-untyped-def]
        decoded.append(raw)
        return real(raw, max_bytes)

    monkeypatch.setattr(gm.mail.mime, "_decode", counting)
    gm.mail.mime._RECENT.clear()
    mails = fetched([BODIES[n % 2] for n in range(gm.daemon.ROUND_CHUNK)])
    done = process_round(race, Mailbox(race), mails)
    assert len(done.settled) == len(mails)
    assert sorted(decoded) == sorted(m.raw for m in mails)


def test_a_remembered_decode_is_that_mail_s_own(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A hit on the decoded mails remembered gives back the mail's own, not another's."""
    monkeypatch.setattr(gm.mail.mime, "_RECENT", {})
    mails = fetched()  # three mails of the same length
    first = [gm.mail.mime.decode(m.raw) for m in mails]
    again = [gm.mail.mime.decode(m.raw) for m in mails]
    assert len({id(d) for d in first}) == len(mails)  # different mails, different objects
    assert all(a is b for a, b in zip(again, first, strict=True))  # remembered
    assert [d.message_id for d in again] == [f"<m{m.uid}@player.example>" for m in mails]


def test_a_chunk_is_stored_in_the_mailbox_order_whatever_the_order_of_handling(
        race, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Two instances storing in one order never wait for each other in a cycle on the
    mailbox key's unique index (PostgreSQL), even when each handles game by game."""
    from gm.pipeline.order import Round

    class Backwards(Round):
        def __iter__(self):  # type: ignore[no-untyped-def]
            yield from reversed(self.mails)

    calls = stores_recorded(monkeypatch)
    box = Mailbox(race)
    done = process_round(race, box, Backwards(fetched(), race.service_address, race.instance))
    assert calls == [[1, 2, 3]]
    assert [f.uid for f in done.settled] == [3, 2, 1] and box.calls == [[3, 2, 1]]


def test_game_by_game_an_instance_stores_first_the_mails_of_its_own_games(
        race, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """With another instance alive, this one stores the mails it will hand out next (its own
    game's), not the next in the mailbox (the other's game, which that one stores itself);
    then the other's, since nobody took them: every mail answered once."""
    from gm.pipeline.order import Round, owner

    assert owner("race9", (race.instance, "other")) == race.instance != owner("race1", (race.instance, "other"))
    calls = stores_recorded(monkeypatch)
    monkeypatch.setattr(gm.daemon, "ROUND_CHUNK", 2)
    mails = fetched([f"GAME {g}\nPOWER north n-secret\nadvance {n}\n"
                     for n in (1, 2, 3) for g in ("race1", "race9")])
    box = Mailbox(race)
    done = process_round(race, box, Round(mails, race.service_address, race.instance, by_game=True,
                                          peers=("other",)))
    assert calls[0] == [2, 4]  # race9's, this instance's own game
    assert [f.uid for f in done.settled] == [2, 4, 6, 1, 3, 5]
    assert sorted(u for call in calls for u in call) == [1, 2, 3, 4, 5, 6]  # each stored once
    assert len(outbox(race, kind="reply")) == 6


def test_a_mail_another_instance_handled_since_the_fetch_is_only_flagged(
        race, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Its row is found settled when the round stores it: flagged, not taken up again (no
    second transaction to lock it, nothing answered twice); the others are handled."""
    from gm.pipeline.handle import handle_inbound
    from gm.pipeline.ingest import store_inbound

    mails = fetched()
    handle_inbound(race, store_inbound(race, mails[1]).inbound_id)  # "another instance"
    handled: list[int] = []
    real = gm.daemon.handle_inbound

    def recording(ctx, inbound_id, **kw):  # type: ignore[no-untyped-def]
        handled.append(inbound_id)
        return real(ctx, inbound_id, **kw)

    monkeypatch.setattr(gm.daemon, "handle_inbound", recording)
    box = Mailbox(race)
    done = process_round(race, box, mails)
    assert [f.uid for f in done.settled] == [1, 2, 3] and done.here == 2
    assert box.calls == [[1, 2, 3]] and box.status_when_flagged == ["handled"] * 3
    assert len(handled) == 2
    assert replies_and_orders(race)[0] == 3  # one reply a mail
