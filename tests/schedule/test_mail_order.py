"""Mail order is kept per game, not per mailbox, when instances share one (issue 21).

A mail held by another instance (its row locked by a transaction not yet ended, as
PostgreSQL shows it) holds back the later mails of its own game only: the daemon goes on
with the mails of other games in the same round (gm.pipeline.order). A held mail whose
game cannot be told without the database, or such a mail behind a held one, ends the
round as before. And two daemons working one mailbox together answer every mail once
and store each power's orders in the order they were sent. The order itself, without a
database: tests/pipeline/test_order.py.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest
from sqlmodel import Session, col, func, select

from gm.daemon import Daemon
from gm.db.engine import make_engine, session_scope
from gm.db.models import InboundMail, OrderSet, OutboundMail
from gm.db.schedule_tables import Heartbeat
from gm.mail.file_sink import FileSink
from gm.mail.types import FetchedMail
from gm.pipeline.ingest import store_inbound
from gm.pipeline.order import owner
from gm.service.context import ServiceContext
from gm.service.games import create_game
from tests.pipeline.conftest import SEATS, mail


def orders(game: str, power: str, steps: int, uid: int) -> FetchedMail:
    secret = {"north": "n-secret", "south": "s-secret"}[power]
    return FetchedMail(mail(f"GAME {game}\nPOWER {power} {secret}\nadvance {steps}\n",
                            sender=f"{power}@example.org"), "imap:INBOX", 7, uid, str(uid))


class Mailbox:
    """One mailbox in memory shared by several daemons: flagged by whoever flags first."""

    def __init__(self, mails: list[FetchedMail]) -> None:
        self.mails = mails
        self.flagged: list[str] = []  # keys, in the order they were flagged (again: kept once)
        self._lock = threading.Lock()

    def fetch_new(self) -> list[FetchedMail]:
        with self._lock:
            return [m for m in self.mails if m.key not in self.flagged]

    def mark_handled(self, items: list[FetchedMail]) -> None:
        with self._lock:
            self.flagged += [m.key for m in items if m.key not in self.flagged]

    def wait(self, timeout: float) -> bool:
        return False

    def close(self) -> None:
        pass


@pytest.fixture
def two_games(race: ServiceContext) -> ServiceContext:
    with session_scope(race.engine) as s:
        create_game(race, s, game_id="race2", module_name="race", scenario="duel", seats=SEATS,
                    moderator_address="mod@example.org", moderator_password="mod-secret",
                    seed=b"\x03" * 32)
    return race


@pytest.fixture
def pg(two_games: ServiceContext) -> ServiceContext:
    if two_games.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has no row locks: one daemon per file (test_two_daemons.py)")
    return two_games


@contextmanager
def held_by_another(ctx: ServiceContext, fetched: FetchedMail) -> Iterator[None]:
    """Mail ``fetched`` stored, and its row held by another instance's open transaction."""
    stored = store_inbound(ctx, fetched)
    with session_scope(ctx.engine) as other:
        other.exec(select(InboundMail).where(InboundMail.id == stored.inbound_id)
                   .with_for_update()).one()
        yield


def steps(session: Session, game: str, power: str = "north") -> list[str]:
    """The orders stored for ``power`` in ``game``, oldest version first."""
    rows = session.exec(select(OrderSet).where(OrderSet.game_id == game, OrderSet.power == power)
                        .order_by(col(OrderSet.version))).all()
    return [r.text for r in rows]


def test_a_mail_of_another_game_behind_a_held_one_is_handled_in_the_same_round(pg, tmp_path) -> None:  # type: ignore[no-untyped-def]
    a1, b1, a2, b2 = (orders("race1", "north", 1, 1), orders("race2", "north", 1, 2),
                      orders("race1", "north", 2, 3), orders("race2", "north", 2, 4))
    box = Mailbox([a1, b1, a2, b2])
    daemon = Daemon(pg, box, FileSink(tmp_path / "out"), sweep_seconds=3600,
                    held_game_seconds=0)  # the held game taken again at once once free
    with held_by_another(pg, a1):
        asyncio.run(daemon.step())
        assert box.flagged == ["2", "4"]  # race2's mails went on; race1's second waits
        with session_scope(pg.engine) as s:
            assert steps(s, "race1") == []  # not a2 before a1
            assert steps(s, "race2") == ["advance 1", "advance 2"]
    asyncio.run(daemon.step())  # the holder ended without committing: a1 is still new
    assert box.flagged == ["2", "4", "1", "3"]
    with session_scope(pg.engine) as s:
        assert steps(s, "race1") == ["advance 1", "advance 2"]


def test_a_held_mail_whose_game_cannot_be_told_ends_the_round(pg, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """North holds seats in two games: its mail without a GAME line may be for either."""
    unknown = FetchedMail(mail("POWER north n-secret\nadvance 3\n"), "imap:INBOX", 7, 1, "1")
    box = Mailbox([unknown, orders("race2", "south", 1, 2)])
    daemon = Daemon(pg, box, FileSink(tmp_path / "out"), sweep_seconds=3600,
                    held_game_seconds=0)  # the held game taken again at once once free
    with held_by_another(pg, unknown):
        asyncio.run(daemon.step())
        assert box.flagged == []
    asyncio.run(daemon.step())
    assert box.flagged == ["1", "2"]


def test_a_mail_whose_game_cannot_be_told_behind_a_held_one_ends_the_round_there(pg, tmp_path) -> None:  # type: ignore[no-untyped-def]
    a1, b1, b2 = (orders("race1", "north", 1, 1), orders("race2", "south", 1, 2),
                  orders("race2", "south", 2, 4))
    unknown = FetchedMail(mail("POWER north n-secret\nadvance 3\n"), "imap:INBOX", 7, 3, "3")
    box = Mailbox([a1, b1, unknown, b2])
    daemon = Daemon(pg, box, FileSink(tmp_path / "out"), sweep_seconds=3600,
                    held_game_seconds=0)  # the held game taken again at once once free
    with held_by_another(pg, a1):
        asyncio.run(daemon.step())
        assert box.flagged == ["2"]
    asyncio.run(daemon.step())
    assert box.flagged == ["2", "1", "3", "4"]


def test_two_daemons_on_one_mailbox_answer_each_mail_once_each_power_s_orders_in_order(two_games, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Forty mails of two games and two powers, worked by two daemons at once (threads,
    each with its own connections): one reply a mail, and every power's order versions
    in the order of the mailbox (by UID), whoever handled which."""
    ctx = two_games
    # runs of one power's mails: a daemon that went past a held mail would store the next
    # of the same power at the same moment as the holder
    sent = [(game, power, n % 3 + 1) for half in (0, 5) for game in ("race1", "race2")
            for power in ("north", "south") for n in range(half, half + 5)]
    mails = [orders(game, power, n, uid) for uid, (game, power, n) in enumerate(sent, start=1)]
    box = Mailbox(mails)
    url = ctx.engine.url.render_as_string(hide_password=False)
    engines = [make_engine(url) for _ in range(2)]
    daemons = [Daemon(replace(ctx, engine=engine, instance=name), box,
                      FileSink(tmp_path / name), sweep_seconds=3600)
               for engine, name in zip(engines, ("alpha", "beta"), strict=True)]
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def work(daemon: Daemon) -> None:
        try:
            barrier.wait()
            for _ in range(200):  # rounds: each handles some mail, or finds it held
                if not box.fetch_new():
                    return
                asyncio.run(daemon.step())
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(d,)) for d in daemons]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for engine in engines:
        engine.dispose()
    assert errors == []
    assert sorted(box.flagged, key=int) == [m.key for m in mails]
    with session_scope(ctx.engine) as s:
        stored = s.exec(select(func.count()).select_from(InboundMail)
                        .where(InboundMail.status == "handled")).one()
        replies = s.exec(select(OutboundMail.in_reply_to).where(OutboundMail.kind == "reply")).all()
        for game in ("race1", "race2"):
            for power in ("north", "south"):
                uids = s.exec(select(InboundMail.uid).join(
                    OrderSet, col(OrderSet.inbound_id) == col(InboundMail.id)).where(
                    OrderSet.game_id == game, OrderSet.power == power)
                    .order_by(col(OrderSet.version))).all()
                assert len(uids) == 10 and uids == sorted(uids), (game, power, uids)
    assert stored == len(mails)
    assert len(replies) == len(set(replies)) == len(mails)


def test_with_another_instance_s_heartbeat_a_daemon_takes_its_own_games_first_game_by_game(two_games, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Alone, the mailbox's order; with another instance alive (its heartbeat recent), each
    game's mails in a row, each in mailbox order, the game that is this instance's own
    (gm.pipeline.order.owner) before the one that is the other's."""
    ctx = two_games
    mails = [orders(game, "north", n, uid) for uid, (n, game) in enumerate(
        [(1, "race1"), (1, "race2"), (2, "race1"), (2, "race2")], start=1)]
    alone = Mailbox(mails[:2])
    asyncio.run(Daemon(ctx, alone, FileSink(tmp_path / "a"), sweep_seconds=3600).step())
    assert alone.flagged == ["1", "2"]
    other = "second"  # with this name, race2 is this instance's game, race1 the other's
    assert owner("race2", (ctx.instance, other)) == ctx.instance != owner("race1", (ctx.instance, other))
    with session_scope(ctx.engine) as s:
        s.add(Heartbeat(instance=other, started_at=ctx.clock.now(), alive_at=ctx.clock.now()))
    box = Mailbox(mails[2:] + [orders(g, "north", 3, uid) for uid, g in ((5, "race1"), (6, "race2"))])
    daemon = Daemon(ctx, box, FileSink(tmp_path / "b"), sweep_seconds=3600)
    asyncio.run(daemon.step())
    assert box.flagged == ["4", "6", "3", "5"]
    with session_scope(ctx.engine) as s:
        assert steps(s, "race1") == steps(s, "race2") == ["advance 1", "advance 2", "advance 3"]


def test_a_game_found_held_is_left_to_its_holder_a_while_then_taken_again(pg, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Another instance is working on race1 (its mail held): the next rounds leave race1's
    mails to it, even once its mail is free again, for ``held_game_seconds``; then they are
    taken, in order."""
    a1, b1, a2 = (orders("race1", "north", 1, 1), orders("race2", "north", 1, 2),
                  orders("race1", "north", 2, 3))
    box = Mailbox([a1, b1, a2])
    daemon = Daemon(pg, box, FileSink(tmp_path / "out"), sweep_seconds=3600, held_game_seconds=3600)
    now = [0.0]
    daemon._others_games.clock = lambda: now[0]
    with held_by_another(pg, a1):
        asyncio.run(daemon.step())
    assert box.flagged == ["2"]
    asyncio.run(daemon.step())  # a1 is free, but race1 is left to the other a while yet
    assert box.flagged == ["2"]
    now[0] = 3600.0
    asyncio.run(daemon.step())
    assert box.flagged == ["2", "1", "3"]
    with session_scope(pg.engine) as s:
        assert steps(s, "race1") == ["advance 1", "advance 2"]
