"""Two service instances race: for 200 games whose deadlines fall together, and for mail.

Every game must be adjudicated exactly once: one closed phase, one
``phase.adjudicated`` event, one set of rolls and one set of reports each,
whichever instance won which game (two processes). And each inbound mail is stored
once, handled once, each outgoing mail claimed by one sender, and a power never has two
current order sets, however many instances (threads here, on SQLite and PostgreSQL;
real ``gm serve`` processes in tests/e2e/test_two_daemons.py) do it at the same moment.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError
from sqlmodel import func, select

from gm.clock import FakeClock
from gm.daemon import Daemon
from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.migrate import upgrade
from gm.db.models import EventLog, InboundMail, OrderSet, OutboundMail, Phase
from gm.mail.file_sink import FileSink
from gm.mail.types import FetchedMail, SendResult
from gm.pipeline.dispatch import SEND_LEASE_SECONDS, claim, due, record, release_dead_claims
from gm.pipeline.handle import handle_inbound
from gm.pipeline.ingest import still_new, store_inbound
from gm.service.context import ServiceContext
from tests.pipeline.conftest import deliver, mail, outbox
from tests.schedule.support import clone_games, new_game
from tests.support.doubles import together

GAMES = 200
ROOT = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("GM_TEST_DATABASE_URL", "")


@pytest.fixture(params=["sqlite", "postgres"])
def race_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of its own: a SQLite file, or a fresh database in the PostgreSQL server."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "race.db")
        return
    if not PG_URL:
        pytest.skip("GM_TEST_DATABASE_URL is not set: the PostgreSQL race needs a server")
    name = f"gm_sched_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{PG_URL.rsplit('/', 1)[0]}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.mark.parametrize("mode", ["sweep", "direct"])
def test_two_instances_adjudicate_each_of_200_games_exactly_once(race_url: str, tmp_path: Path,
                                                                 mode: str) -> None:
    """``sweep``: the daemon's path. ``direct``: both call close_phase on every game in the
    same order at the same moment, so only the row claim stands between them."""
    engine = make_engine(race_url)
    upgrade(engine)
    ctx = ServiceContext(engine=engine, clock=FakeClock(), settings={"address": "gm@example.org"},
                         instance="setup")
    new_game(ctx, "g000", default="48h")
    clone_games(ctx, "g000", [f"g{i:03d}" for i in range(1, GAMES)])
    with session_scope(engine) as s:
        deadlines = set(s.exec(select(Phase.deadline)))
    assert len(deadlines) == 1  # they all fall together
    reports_before = _reports(engine)
    now = (ctx.clock.now() + timedelta(hours=48, minutes=1)).isoformat()
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-m", "tests.schedule.race_worker", race_url, name,
                               now, str(go), mode], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
             for name in ("alpha", "beta")]
    for p in procs:  # both are connected and waiting
        assert p.stdout is not None and "ready" in p.stdout.readline()
    go.touch()
    results = []
    for p in procs:
        out, _ = p.communicate(timeout=600)
        assert p.returncode == 0
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert [r["problems"] for r in results] == [[], []]
    assert sum(r["closed"] for r in results) == GAMES
    with session_scope(engine) as s:
        done = Counter(s.exec(select(Phase.game_id).where(Phase.state == "done")))
        opened = Counter(s.exec(select(Phase.game_id).where(Phase.state == "open")))
        adjudicated = Counter(s.exec(select(EventLog.game_id)
                                     .where(EventLog.type == "phase.adjudicated")))
        rolls = s.exec(select(func.count()).select_from(EventLog).where(EventLog.type == "roll")).one()
        claimed = Counter(s.exec(select(Phase.claimed_by).where(Phase.state == "done")))
    assert len(done) == GAMES and set(done.values()) == {1}
    assert len(opened) == GAMES and set(opened.values()) == {1}
    assert len(adjudicated) == GAMES and set(adjudicated.values()) == {1}
    assert rolls == 2 * GAMES  # one die per power per game, never rolled twice
    assert _reports(engine) - reports_before == 3 * GAMES  # north, south, moderator: once each
    assert sum(claimed.values()) == GAMES and set(claimed) <= {"alpha", "beta"}
    print(f"\nclaims per instance: {dict(claimed)}; workers: {results}")
    engine.dispose()


def _reports(engine) -> int:  # type: ignore[no-untyped-def]
    with session_scope(engine) as s:
        return int(s.exec(select(func.count()).select_from(OutboundMail)
                          .where(OutboundMail.kind == "report")).one())


# -- mail: stored once, handled once, sent once, one current order set (issue 22) --------
#
# Several threads stand for several instances: each works in its own transactions on
# the same database, released together by a barrier, as two processes would.


def test_one_mailbox_message_fetched_by_six_instances_is_stored_once(race) -> None:  # type: ignore[no-untyped-def]
    fetched = FetchedMail(mail("GAME race1\nPOWER north n-secret\nadvance 1\n"), "imap:INBOX", 7, 42,
                          "42")
    results = together(6, lambda _: store_inbound(race, fetched))
    assert sum(r.new for r in results) == 1
    assert len({r.inbound_id for r in results}) == 1
    with session_scope(race.engine) as s:
        [row] = s.exec(select(InboundMail)).all()
    assert row.mailbox_key == "imap:INBOX:7:42"


def test_a_message_stored_before_mailbox_keys_existed_is_found_by_its_uid_not_stored_again(race) -> None:  # type: ignore[no-untyped-def]
    """Rows stored before migration 0003 have no mailbox key: the same IMAP message (same
    UIDVALIDITY and UID), fetched again, is that row, even under another Message-ID (the
    look-up reads only the rows without a key, through the key's index: issue 21)."""
    old = mail("GAME race1\nPOWER north n-secret\nadvance 1\n")
    legacy = store_inbound(race, FetchedMail(old, "imap:INBOX", 7, 44, "44"))
    with session_scope(race.engine) as s:
        row = s.get(InboundMail, legacy.inbound_id)
        assert row is not None
        row.mailbox_key, row.message_id = None, "<stored-before-keys@example.org>"
        s.add(row)
    again = store_inbound(race, FetchedMail(old, "imap:INBOX", 7, 44, "44"))
    assert (again.inbound_id, again.new) == (legacy.inbound_id, False)
    other = store_inbound(race, FetchedMail(mail("GAME race1\nPOWER north n-secret\nadvance 3\n"),
                                            "imap:INBOX", 7, 45, "45"))
    assert other.new and other.inbound_id != legacy.inbound_id


def test_a_mail_held_by_another_instance_is_skipped_not_flagged_then_handled_once(race) -> None:  # type: ignore[no-untyped-def]
    if race.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has no row locks: one daemon per file (test_two_daemons.py)")
    stored = store_inbound(race, FetchedMail(mail("GAME race1\nPOWER north n-secret\nadvance 2\n"),
                                             "imap:INBOX", 7, 43, "43"))
    with session_scope(race.engine) as other:  # another instance is handling it
        other.exec(select(InboundMail).where(InboundMail.id == stored.inbound_id).with_for_update()).one()
        handle_inbound(race, stored.inbound_id)
        assert still_new(race, stored.inbound_id)  # so the daemon does not flag it
    assert outbox(race, kind="reply") == []
    handle_inbound(race, stored.inbound_id)  # the holder died without committing
    assert not still_new(race, stored.inbound_id)
    handle_inbound(race, stored.inbound_id)
    assert len(outbox(race, kind="reply")) == 1


def test_six_instances_handling_one_mail_answer_it_once(race) -> None:  # type: ignore[no-untyped-def]
    stored = store_inbound(race, FetchedMail(mail("GAME race1\nPOWER north n-secret\nadvance 3\n"),
                                             "imap:INBOX", 7, 44, "44"))
    queued = len(outbox(race))
    together(6, lambda _: handle_inbound(race, stored.inbound_id))
    assert len(outbox(race, kind="reply")) == 1
    assert len(outbox(race)) == queued + 1  # handled once: no warning from a second handling
    with session_scope(race.engine) as s:
        assert len(s.exec(select(OrderSet).where(OrderSet.power == "north")).all()) == 1


def test_orders_for_one_power_from_six_instances_at_once_leave_one_current_set(race) -> None:  # type: ignore[no-untyped-def]
    mails = [mail(f"GAME race1\nPOWER north n-secret\nadvance {i % 3 + 1}\n") for i in range(6)]
    together(6, lambda i: deliver(race, mails[i]))
    with session_scope(race.engine) as s:
        rows = s.exec(select(OrderSet).where(OrderSet.power == "north")).all()
    assert sorted(r.version for r in rows) == [1, 2, 3, 4, 5, 6]
    assert sum(r.current for r in rows) == 1
    assert max(rows, key=lambda r: r.version).current  # the last one stored is in force
    assert len(outbox(race, kind="reply")) == 6


def test_the_database_refuses_a_second_current_order_set(race) -> None:  # type: ignore[no-untyped-def]
    with session_scope(race.engine) as s:
        s.add(OrderSet(game_id="race1", phase_seq=0, power="north", version=1, current=True,
                       created_at=race.clock.now()))
    with pytest.raises(IntegrityError), session_scope(race.engine) as s:
        s.add(OrderSet(game_id="race1", phase_seq=0, power="north", version=2, current=True,
                       created_at=race.clock.now()))


def test_an_outgoing_mail_is_claimed_by_one_sender_until_its_lease_runs_out(race) -> None:  # type: ignore[no-untyped-def]
    for earlier in due(race):  # the game's start, sent: the reply is its next mail
        assert claim(race, earlier)
        record(race, earlier, SendResult.sent())
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 1\n"))
    [(row, _)] = outbox(race, kind="reply")
    others = [replace(race, instance=f"instance{i}") for i in range(6)]
    assert sum(together(6, lambda i: claim(others[i], int(row.id or 0)))) == 1
    assert row.id not in due(race)  # nobody else sends it meanwhile
    race.clock.advance(timedelta(seconds=SEND_LEASE_SECONDS + 1))  # its sender died
    assert row.id in due(race)
    assert claim(race, int(row.id or 0))
    record(race, int(row.id or 0), SendResult.sent())
    assert not claim(race, int(row.id or 0))  # sent: nobody claims it again
    with session_scope(race.engine) as s:
        sent = s.get(OutboundMail, row.id)
        assert sent is not None and (sent.status, sent.claimed_by, sent.attempts) == ("sent", "", 1)


def test_a_restarted_instance_frees_the_claims_of_its_dead_processes_only(race) -> None:  # type: ignore[no-untyped-def]
    for n in range(4):
        deliver(race, mail(f"GAME race1\nPOWER north n-secret\nadvance {n % 3 + 1}\n"))
    rows = [r for r, _ in outbox(race, kind="reply")]
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    holders = [f"{race.instance}:{dead.pid}", f"{race.instance}:{os.getpid()}",
               f"other:{dead.pid}", ""]
    until = race.clock.now() + timedelta(minutes=2)
    with session_scope(race.engine) as s:
        for row, who in zip(rows, holders, strict=True):
            row.claimed_by, row.claimed_until = who, (until if who else None)
            s.add(row)
    assert release_dead_claims(race) == 1
    # Ours from the dead process, and the unclaimed one; the live one and the other
    # instance's (left to its lease) are not.
    ids = {r.id for r in rows}
    assert [i for i in due(race) if i in ids] == [rows[0].id, rows[3].id]


class ListSource:
    """A mailbox in memory: what a daemon fetched and flagged, in order."""

    def __init__(self, mails: list[FetchedMail]) -> None:
        self.mails = mails
        self.flagged: list[str] = []

    def fetch_new(self) -> list[FetchedMail]:
        return [m for m in self.mails if m.key not in self.flagged]

    def mark_handled(self, items: list[FetchedMail]) -> None:
        self.flagged += [m.key for m in items]

    def wait(self, timeout: float) -> bool:
        return False

    def close(self) -> None:
        pass


def test_mail_after_one_held_by_another_transaction_waits_so_the_order_is_kept(race, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """An instance that dies while handling mail 1 holds its row until PostgreSQL ends its
    transaction; a restarted one must not handle mail 2 (say, the READY that closes the
    phase) before mail 1 (the orders)."""
    if race.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has no row locks: one daemon per file (test_two_daemons.py)")
    first, second = (FetchedMail(mail(f"GAME race1\nPOWER north n-secret\nadvance {n}\n"),
                                 "imap:INBOX", 7, 60 + n, str(60 + n)) for n in (1, 2))
    source = ListSource([first, second])
    daemon = Daemon(race, source, FileSink(tmp_path / "out"), sweep_seconds=3600,
                    held_game_seconds=0)  # race1 taken again as soon as the dead one's lock ends
    held = store_inbound(race, first)
    with session_scope(race.engine) as dying:  # the dead instance's transaction, not yet ended
        dying.exec(select(InboundMail).where(InboundMail.id == held.inbound_id).with_for_update()).one()
        asyncio.run(daemon.step())
        assert source.flagged == []
        with session_scope(race.engine) as s:
            assert s.exec(select(OrderSet)).all() == []  # mail 2 was not handled before mail 1
    asyncio.run(daemon.step())
    assert source.flagged == ["61", "62"]
    with session_scope(race.engine) as s:
        rows = s.exec(select(OrderSet).where(OrderSet.power == "north")).all()
    assert [(r.version, r.text, r.current) for r in sorted(rows, key=lambda r: r.version)] == \
        [(1, "advance 1", False), (2, "advance 2", True)]
