"""One gm instance of the several-instances ingest benchmark (bench/bench_ingest.py).

``python -m bench.ingest_worker URL INSTANCE IMAP_PORT USER GO_FILE [warm|cold]`` builds its
parsers as the daemon's start does (``warm``: and signs on every seat, as a daemon that has
run a while), waits for GO_FILE (so that every instance starts together), then does the
daemon's inbound duty on the shared mailbox until a fetch finds nothing left:
gm.daemon.process_round on each fetch, as the daemon's rounds (stored, handled by whichever
instance holds its row, flagged), in the order the daemon keeps (gm.pipeline.order: a mail
held by the other instance holds back the later mails of its game; with the other's
heartbeat, or after such a mail, rounds go game by game). Prints one JSON line: mails seen
(settled or held), held, when it stopped (the mailbox empty) and when its last round that
handled mail ended, CPU seconds, rounds, wall seconds fetching and pausing between rounds.
With GM_BENCH_PROFILE=DIR each instance's run is profiled (cProfile, CPU time) into
DIR/INSTANCE.prof; with GM_BENCH_TRACE=DIR the time each mail was taken (and found held)
goes to DIR/INSTANCE.trace.json.
"""

from __future__ import annotations

import cProfile
import json
import os
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

from sqlmodel import select

from bench import realgames as rg
from gm.clock import FakeClock
from gm.daemon import FRESH_SECONDS, Daemon, DueCheck, process_round, settle_heap
from gm.db.engine import make_engine, session_scope
from gm.db.models import Game, Seat
from gm.mail.config import ImapSettings, TlsMode
from gm.mail.imap_source import ImapSource
from gm.mail.types import FetchedMail
from gm.pipeline import parsewarm
from gm.pipeline.order import OthersGames, Round, games_of, others_alive
from gm.schedule.outage import beat_and_handle
from gm.service.context import ServiceContext
from gm.service.passwords import check_password

BUSY_POLL = Daemon.busy_poll_seconds


def warm_up(ctx: ServiceContext, signed_on: bool) -> None:
    """What a daemon holds once it has started: the envelope's and each running game
    module's order parsers built (gm.pipeline.parsewarm, the daemon's own warm-up). The run
    then times handling mail, not the start of a process. With ``signed_on``, also what it
    holds once it has served a while: every seat's password verified (scrypt once per seat
    and process); without, that scrypt is in the figure, on each seat's first mail this
    instance handles."""
    parsewarm.warm_up(ctx)
    settle_heap()  # what the daemon does next (the sign-ons below stand for later mail)
    if not signed_on:
        return
    with session_scope(ctx.engine) as session:
        for game in session.exec(select(Game).where(Game.status == "running")).all():
            for seat in session.exec(select(Seat).where(Seat.game_id == game.id)).all():
                assert check_password(rg.password(game.module, seat.power),
                                      seat.password_hash), (game.id, seat.power)


class TracedRound(Round):
    """A :class:`Round` that notes when it hands each mail out and which it found held
    (GM_BENCH_TRACE): the time between two mails is the first one's handling."""

    trace: list[tuple[float, str, str, str]] = []  # (time.time(), event, mail's key, its games)

    def __iter__(self) -> Iterator[FetchedMail]:
        for fetched in super().__iter__():
            self.trace.append((time.time(), "take", fetched.key, self._games_now(fetched)))
            yield fetched
        self.trace.append((time.time(), "end", "", ""))

    def held(self, fetched: FetchedMail) -> None:
        self.trace.append((time.time(), "held", fetched.key, self._games_now(fetched)))
        super().held(fetched)

    def _games_now(self, fetched: FetchedMail) -> str:
        return ",".join(sorted(games_of(fetched, self.service_address) or ["?"]))


def main(url: str, instance: str, port: str, user: str, go_file: str, mode: str = "cold") -> None:
    ctx = ServiceContext(engine=make_engine(url), clock=FakeClock(), instance=instance,
                         settings={"address": "gm@example.org"})
    source = ImapSource(ImapSettings(host="127.0.0.1", port=int(port), user=user, password=user,
                                     tls=TlsMode.NONE))
    warm_up(ctx, signed_on=mode == "warm")
    beat_and_handle(ctx)  # as the daemon's first sweep: the other instance sees this one
    print(json.dumps({"ready": instance}), flush=True)
    while not Path(go_file).exists():
        time.sleep(0.005)
    seen = held = rounds = 0
    worked_until = time.time()  # the end of the last round that handled a mail itself
    fetch_wall = sleep_wall = 0.0
    profile = os.environ.get("GM_BENCH_PROFILE")  # a directory: cProfile each instance there
    profiler = cProfile.Profile(time.process_time) if profile else None  # CPU, not waits
    trace = os.environ.get("GM_BENCH_TRACE")  # a directory: each mail taken, each held, by time
    if profiler is not None:
        profiler.enable()
    cpu_at_start = time.process_time()
    due = DueCheck(ctx)  # as the daemon: the due-phase check once per batch, not per mail
    # as Daemon._round: game by game from the start when another instance's heartbeat is there
    peers = others_alive(ctx, timedelta(seconds=3 * Daemon.sweep_seconds))
    by_game = bool(peers)
    others_games = OthersGames()  # as Daemon._round: games found held are left a while
    while True:
        at = time.perf_counter()
        fetched_now = source.fetch_new()
        fetch_wall += time.perf_counter() - at
        if not fetched_now:
            break
        rounds += 1
        # as Daemon.step: a mail held by the other instance leaves its game's later mails for
        # the next round; after one, rounds are taken game by game (gm.pipeline.order)
        mails = (TracedRound if trace else Round)(
            fetched_now, ctx.service_address, instance, by_game=by_game,
            fresh_seconds=FRESH_SECONDS, peers=peers, avoid=others_games.now())
        done = process_round(ctx, source, mails, due)  # as Daemon.step
        if done.here:
            worked_until = time.time()
        seen += len(done.settled) + len(done.held)
        held += len(done.held)
        by_game = by_game or mails.met_other
        others_games.note(mails)
        if mails.left and not done.here:  # as the daemon: at once after a round that
            time.sleep(BUSY_POLL)  # handled mail, else a pause while mail comes
            sleep_wall += BUSY_POLL
    cpu = time.process_time() - cpu_at_start
    done_at = time.time()
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(str(Path(profile or ".") / f"{instance}.prof"))
    if trace:
        Path(trace, f"{instance}.trace.json").write_text(json.dumps(TracedRound.trace))
    source.close()
    print(json.dumps({"instance": instance, "seen": seen, "held": held, "done_at": done_at,
                      "worked_until": worked_until,
                      "cpu": cpu, "rounds": rounds, "fetch_wall": fetch_wall,
                      "sleep_wall": sleep_wall}), flush=True)
    ctx.engine.dispose()


if __name__ == "__main__":
    main(*sys.argv[1:7])
