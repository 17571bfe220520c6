"""Ingest of real order mails off Dovecot (issue 21), against bare Lark and the bare IMAP fetch.

Real games (Pax Baltica 12.1 in Sweden's action phase, Pax Britannica 1880 in its Movement
phase, ``--games`` of each) and real order mails of 10-20 lines (bench/realgames.py), half
of each game. Every run APPENDs the mails to a fresh mailbox of a private Dovecot and starts
from a copy of the same database (and an empty password cache), then times, on those mails:

* bare IMAP: imapclient's batched ``BODY.PEEK[]`` fetch of the mailbox (login to logout);
* bare Lark: Lark LALR on gm's own grammar files (envelope.lark for the sign-on lines, the
  game's for the order lines), ``parse`` of exactly the lines gm reads, nothing else;
* the floor (printed): what no ingest can skip, alone: each mail decoded, its envelope read,
  its orders parsed and validated by the game's module; no database, no reply;
* gm: what the daemon does with a round's mails (gm.daemon.process_round): fetched, stored
  raw, each parsed, validated, orders stored, reply queued, marked handled and committed,
  then flagged in the mailbox (the round's mails in one STORE).

Each run is done twice, each time on a fresh mailbox and database copy: **warm**, every seat
of the mails signed on before (its password verified with scrypt once, as a daemon that has
run a while has done on each seat's first mail: the figure judged), and **cold**, an empty
password cache (a scrypt, ~50 ms, on each seat's first mail inside the timed run: printed).

Ratios: gm / bare Lark (target >= 0.25) and gm / bare IMAP, median [min-max] of ``--runs``.

``--rate 50`` adds the latency run: a feeder APPENDs the mails at 50 a second while the real
daemon loop (gm.daemon.Daemon, IMAP IDLE, the wall clock) serves them; the figure is the
time from a mail's APPEND to its reply committed to the outbox (target p99 <= 200 ms).

Run: ``.venv/bin/python -m bench.bench_ingest [--mails 300] [--games 5] [--runs 3] [--rate 50]``
``--instances 1 2``: the same mails ingested by 1, then 2 instances (bench/ingest_worker.py,
one process each) on one PostgreSQL database (``--pg`` server URL, else GM_BENCH_DATABASE_URL,
else GM_TEST_DATABASE_URL, else postgres@127.0.0.1/test) and one mailbox; the ratio of their
rates (target >= 1.6 for 2). ``--only instances`` runs that part alone (no SQLite run, no
latency run).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from datetime import UTC
from pathlib import Path

from sqlalchemy import text, update
from sqlmodel import col, func, select

from bench import realgames as rg
from bench.bench_ingest_fetch import bare_fetch
from gm.clock import FakeClock, SystemClock
from gm.daemon import Daemon, DueCheck, process_round
from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.migrate import upgrade
from gm.db.models import Game, InboundMail, OutboundMail, Seat
from gm.mail.config import ImapSettings, TlsMode
from gm.mail.imap_source import ImapSource
from gm.mail.mime import decode
from gm.mail.types import SendResult
from gm.orders.commands import PowerSignOn
from gm.orders.envelope import parse_envelope
from gm.orders.text import clean_body
from gm.service.context import ServiceContext
from gm.service.games import current_phase, module_of
from gm.service.orders import judge_orders
from gm.service.passwords import check_password, forget_verified
from tests.support.servers import DovecotServer


def build_games(url: str, games: int, clock: FakeClock | SystemClock, mails: int) -> list[bytes]:
    """Create the games in the empty database at ``url``; ``mails`` order mails for them."""
    engine = make_engine(url)
    upgrade(engine)
    ctx = ServiceContext(engine=engine, clock=clock, instance="bench-setup",
                         settings={"address": "gm@example.org"})
    baltica = [f"pb{i}" for i in range(games)]
    britannica = [f"pax{i}" for i in range(games)]
    for g in baltica:
        rg.new_baltica(ctx, g)
    for g in britannica:
        rg.new_britannica(ctx, g)
    half = (mails + 1) // 2
    out = [m for pair in zip(rg.baltica_mails(ctx, baltica, half),
                             rg.britannica_mails(ctx, britannica, half), strict=True) for m in pair]
    engine.dispose()
    return out


def imap(server: DovecotServer, user: str) -> ImapSettings:
    return ImapSettings(host=server.host, port=server.port, user=user, password=user, tls=TlsMode.NONE)


def gm_ingest(ctx: ServiceContext, settings: ImapSettings) -> tuple[int, float]:
    """The daemon's inbound duty on every new mail; (mails, seconds)."""
    start = time.perf_counter()
    source = ImapSource(settings)
    due = DueCheck(ctx)  # as the daemon: the due-phase check once per batch, not per mail
    count = len(process_round(ctx, source, source.fetch_new(), due).settled)
    source.close()
    return count, time.perf_counter() - start


def handled_and_replied(ctx: ServiceContext) -> tuple[int, int]:
    with session_scope(ctx.engine) as s:
        handled = s.exec(select(func.count()).select_from(InboundMail)
                         .where(InboundMail.status == "handled")).one()
        replies = s.exec(select(func.count()).select_from(OutboundMail)
                         .where(OutboundMail.kind == "reply")).one()
    return int(handled), int(replies)


def bare_lark(raws: Sequence[bytes]) -> tuple[int, float]:
    """Bare Lark on the lines gm reads of ``raws`` (split beforehand, not timed); (lines, s)."""
    split = [rg.split_lines(r) for r in raws]
    envelope = rg.bare_parser("envelope")
    parsers = {g: rg.bare_parser(g) for g in ("baltica", "britannica")}
    start = time.perf_counter()
    lines = 0
    for raw, lines_of in zip(raws, split, strict=True):
        game = "baltica" if b"GAME pb" in raw else "britannica"
        lines += rg.bare_parse(parsers[game], envelope, [lines_of])
    return lines, time.perf_counter() - start


def contract_work(url: str, raws: Sequence[bytes]) -> tuple[int, float]:
    """What no ingest can skip, alone, on ``raws``: each mail decoded and cleaned, its
    envelope read, each section's order lines parsed and validated against the game's
    position by gm.service.orders.judge_orders, as submit_orders does; no database, no
    sign-on, no reply, nothing stored (the positions are read beforehand, not timed).
    The whole ingest cannot be faster than this; (mails, seconds)."""
    engine = make_engine(url)
    with session_scope(engine) as s:
        games = {g.id: (module_of(g), current_phase(s, g.id).game_state or {})
                 for g in s.exec(select(Game)).all()}
    engine.dispose()
    start = time.perf_counter()
    judged = 0
    for raw in raws:
        for section in parse_envelope(clean_body(decode(raw).text)).sections:
            module, state = games[str(section.game)]
            assert isinstance(section.signon, PowerSignOn)
            power = section.signon.power
            lines = [o.line for o in section.orders if (o.power or power) == power]
            judged += len(judge_orders(module, state, power, lines)[1])
    spent = time.perf_counter() - start
    assert judged >= len(raws), judged  # every mail holds orders: none was left unread
    return len(raws), spent


def sign_on_seats(ctx: ServiceContext, raws: Sequence[bytes]) -> int:
    """Verify the password of every seat that sends one of ``raws`` (scrypt once each), as a
    running daemon has done on each seat's first mail since it started; how many seats."""
    seats = {(m.group(1), m.group(2), m.group(3)) for raw in raws
             for m in [re.search(rb"^GAME (\S+)\s*\n(?:.*\n)*?POWER (\S+) (\S+)", raw, re.M)] if m}
    with session_scope(ctx.engine) as s:
        for game, power, password in seats:
            seat = s.exec(select(Seat).where(Seat.game_id == game.decode(),
                                             Seat.power == power.decode())).one()
            assert check_password(password.decode(), seat.password_hash), (game, power)
    return len(seats)


def throughput(args: argparse.Namespace, server: DovecotServer, template: Path,
               raws: list[bytes]) -> None:
    """Each run twice, on a fresh mailbox and database: cold (no seat signed on yet in this
    process: a scrypt per seat on its first mail) and warm (every seat signed on before, as
    in a daemon that has run a while: the figure judged)."""
    bare_imap: list[float] = []
    bare: list[float] = []
    cold: list[float] = []
    warm: list[float] = []
    floor: list[float] = []
    seats = 0
    for run in range(args.runs):
        fetched_rates: list[float] = []
        for signed_on in (False, True):
            user = f"run{run}{'w' if signed_on else 'c'}"
            server.add_user(user, user)
            server.append(user, user, raws)
            fetched = bare_fetch(server.host, server.port, user, user)
            assert fetched.count == len(raws)
            fetched_rates.append(fetched.per_second)
            with tempfile.TemporaryDirectory() as tmp:
                shutil.copy(template, Path(tmp) / "gm.db")
                engine = make_engine(sqlite_url(Path(tmp) / "gm.db"))
                ctx = ServiceContext(engine=engine, clock=FakeClock(), instance="bench",
                                     settings={"address": "gm@example.org"})
                forget_verified()
                if signed_on:
                    seats = sign_on_seats(ctx, raws)
                before = handled_and_replied(ctx)
                count, spent = gm_ingest(ctx, imap(server, user))
                after = handled_and_replied(ctx)
                engine.dispose()
            assert count == after[0] - before[0] == after[1] - before[1] == len(raws), (count, before, after)
            (warm if signed_on else cold).append(count / spent)
        bare_imap.append(statistics.median(fetched_rates))
        lines, seconds = bare_lark(raws)
        bare.append(len(raws) / seconds)
        count, seconds = contract_work(sqlite_url(template), raws)
        floor.append(count / seconds)
    print(f"ingest: {len(raws)} real order mails ({lines} lines read) of {args.games} Pax Baltica "
          f"and {args.games} Pax Britannica games, SQLite file; warm: each of the {seats} seats "
          "signed on before (scrypt once per seat per process, as a running daemon)")
    rg.report("ingest", "mails/s", bare, warm, ">= 0.25", bare_name="bare Lark LALR")
    rg.report("ingest", "mails/s", bare_imap, warm, "print only", bare_name="bare imapclient fetch",
              fmt="{:,.1f}")
    rg.report("ingest floor", "mails/s", bare, floor, "print only: the contract's own work alone, "
              "decoded, envelope read, orders parsed and validated; no database, no reply",
              bare_name="bare Lark LALR")
    rg.report("ingest cold", "mails/s", bare, cold, "print only: a scrypt per seat inside the run",
              bare_name="bare Lark LALR")


class NullSink:
    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> SendResult:
        return SendResult.sent()

    async def close(self) -> None:
        return None


def latency(args: argparse.Namespace, server: DovecotServer, url: str, raws: list[bytes]) -> None:
    """Mails APPENDed at ``args.rate`` a second to a mailbox the real daemon loop serves."""
    user = "live"
    server.add_user(user, user)
    engine = make_engine(url)
    ctx = ServiceContext(engine=engine, clock=SystemClock(), instance="bench",
                         settings={"address": "gm@example.org", "sweep_seconds": 3600})
    with session_scope(engine) as s:
        first_reply = int(s.exec(select(func.coalesce(func.max(OutboundMail.id), 0))).one())
        # The games' set-up mails (reports with maps) are not this benchmark's work: taken as sent.
        s.execute(update(OutboundMail).where(OutboundMail.status == "queued").values(status="sent"))
    forget_verified()
    daemon = Daemon(ctx, ImapSource(imap(server, user)), NullSink(), sweep_seconds=3600,
                    wait_seconds=1.0)
    arrived: dict[str, float] = {}
    senders: dict[bytes, bytes] = {}
    for raw in raws:  # one mail of every seat first: a running daemon has seen its players
        senders.setdefault(raw.split(b"From: ", 1)[1].split(b"\n", 1)[0], raw)
    warm = list(senders.values())
    mails = [r for r in raws if r not in warm][: args.latency_mails]

    def replies() -> int:
        with session_scope(engine) as s:
            return int(s.exec(select(func.count()).select_from(OutboundMail).where(
                col(OutboundMail.id) > first_reply, OutboundMail.kind == "reply")).one())

    def feed() -> None:
        client = server.client(user, user)
        for raw in warm:
            client.append("INBOX", raw)
        while replies() < len(warm):
            time.sleep(0.2)
        start = time.time()
        for i, raw in enumerate(mails):
            time.sleep(max(0.0, start + i / args.rate - time.time()))
            message_id = raw.split(b"Message-ID: ", 1)[1].split(b"\n", 1)[0].strip().decode()
            arrived[message_id] = time.time()
            client.append("INBOX", raw)
        client.logout()

    def watch() -> None:
        while replies() < len(warm) + len(mails):
            time.sleep(0.2)
        daemon.stop()

    feeder = threading.Thread(target=feed)
    watcher = threading.Thread(target=watch)
    feeder.start()
    watcher.start()
    asyncio.run(daemon.run())
    feeder.join()
    watcher.join()
    with session_scope(engine) as s:
        rows = s.exec(select(InboundMail.message_id, OutboundMail.created_at)
                      .join(OutboundMail, text("outboundmail.in_reply_to = inboundmail.message_id"))
                      .where(col(OutboundMail.id) > first_reply, OutboundMail.kind == "reply")).all()
    engine.dispose()
    waits = sorted((created.replace(tzinfo=created.tzinfo or UTC).timestamp() - arrived[mid]) * 1000
                   for mid, created in rows if mid in arrived)
    assert len(waits) == len(mails), (len(waits), len(mails))
    p99 = waits[min(len(waits) - 1, int(0.99 * len(waits)))]
    print(f"ingest latency: {len(mails)} mails at {args.rate:g}/s into the daemon (IMAP IDLE; after "
          f"one mail of each of its {len(warm)} seats): arrival -> reply queued median "
          f"{statistics.median(waits):.0f} ms, p99 {p99:.0f} ms, max {waits[-1]:.0f} ms (target p99 <= 200 ms)")


def instances(args: argparse.Namespace, server: DovecotServer, raws: list[bytes]) -> None:
    """1, then 2 (``--instances``) gm instances on one PostgreSQL database and one mailbox,
    alternately run after run (a machine whose load changes weighs on both alike), each
    twice as in :func:`throughput`: **warm**, every seat signed on in each instance before
    (as daemons that have run a while: the figure judged), and **cold** (each instance's
    scrypt on each seat's first mail it handles inside the run: printed)."""
    modes = ("warm", "cold")
    rates: dict[tuple[str, int], list[float]] = {(m, k): [] for m in modes for k in args.instances}
    cpus: dict[tuple[str, int], list[float]] = {key: [] for key in rates}  # ms a mail, all instances
    tails: dict[tuple[str, int], list[float]] = {key: [] for key in rates}  # s: the last one alone
    with rg.pg_databases(args.pg) as new:
        template = new(None)
        build_games(template, args.games, FakeClock(), 0)
        for run in range(args.runs):
            for mode in modes:
                for k in args.instances:
                    rate, cpu, tail = instances_run(args, server, new(template), raws, k, mode, run)
                    rates[mode, k].append(rate)
                    cpus[mode, k].append(cpu)
                    tails[mode, k].append(tail)
    print(f"ingest on PostgreSQL: {len(raws)} mails, one mailbox, 1 to {max(args.instances)} instances "
          "(one process each); every mail answered once; warm: every seat signed on in each "
          "instance before (as daemons that have run a while), cold: not (printed)")
    for mode in modes:
        name = "ingest" if mode == "warm" else "ingest cold"
        for k in args.instances:
            print(f"{name} x{k}: {rg.spread(rates[mode, k])} mails/s; CPU a mail, the instances' "
                  f"together {rg.spread(cpus[mode, k])} ms"
                  + (f"; the last instance working alone at the end "
                     f"{rg.spread(tails[mode, k], '{:.2f}')} s" if k > 1 else ""))
            if k > 1 and 1 in args.instances:
                ratios = [b / a for a, b in zip(rates[mode, 1], rates[mode, k], strict=True)]
                print(f"{name} x{k}: ratio to x1: {rg.spread(ratios, '{:.2f}')} "
                      + ("(target >= 1.6 for 2)" if mode == "warm" else "(print only)"))


def instances_run(args: argparse.Namespace, server: DovecotServer, url: str, raws: list[bytes],
                  k: int, mode: str, run: int) -> tuple[float, float, float]:
    """``k`` instances (bench/ingest_worker.py, ``mode`` warm or cold) released together on
    the database at ``url`` and a fresh mailbox of ``raws``; every mail answered once
    (checked). (mails/s, the instances' CPU ms a mail together, s the last worked alone)."""
    user = f"multi{k}{mode}{run}"
    server.add_user(user, user)
    server.append(user, user, raws)
    engine = make_engine(url)
    ctx = ServiceContext(engine=engine, clock=FakeClock(), instance="check",
                         settings={"address": "gm@example.org"})
    before = handled_and_replied(ctx)
    with tempfile.TemporaryDirectory() as tmp:
        go = Path(tmp) / "go"
        env = {**os.environ, "PYTHONPATH": str(rg.ROOT)}
        procs = [subprocess.Popen([sys.executable, "-m", "bench.ingest_worker", url, f"i{n}",
                                   str(server.port), user, str(go), mode], cwd=rg.ROOT, env=env,
                                  stdout=subprocess.PIPE, text=True) for n in range(k)]
        for p in procs:
            assert p.stdout is not None and "ready" in p.stdout.readline()
        start = time.time()
        go.touch()
        outs = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
    after = handled_and_replied(ctx)
    engine.dispose()
    assert after[0] - before[0] == after[1] - before[1] == len(raws), (before, after)
    rate = len(raws) / (max(o["done_at"] for o in outs) - start)
    worked = sorted(o["worked_until"] for o in outs)
    if args.details:
        print(f"ingest {mode} x{k} run {run}: {rate:.1f} mails/s; "
              + "; ".join(json.dumps({key: round(v, 3) if isinstance(v, float) else v
                                      for key, v in o.items() if key not in ("done_at", "worked_until")})
                          for o in outs), flush=True)
    return rate, 1000 * sum(o["cpu"] for o in outs) / len(raws), worked[-1] - worked[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=300)
    parser.add_argument("--games", type=int, default=5, help="games of each of the two")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rate", type=float, default=0.0, help="mails/s for the latency run (0: none)")
    parser.add_argument("--latency-mails", type=int, default=500)
    parser.add_argument("--instances", type=int, nargs="*", default=[],
                        help="also ingest with these numbers of instances on PostgreSQL (e.g. 1 2)")
    parser.add_argument("--only", choices=["instances"],
                        help="run only this part (the several-instances run needs --instances)")
    parser.add_argument("--details", action="store_true",
                        help="print each instance's figures of each run (several-instances part)")
    parser.add_argument("--pg", default=os.environ.get("GM_BENCH_DATABASE_URL")
                        or os.environ.get("GM_TEST_DATABASE_URL") or rg.DEFAULT_PG)
    args = parser.parse_args()
    server = DovecotServer()
    server.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            template = Path(tmp) / "template.db"
            wanted = max(args.mails, args.latency_mails + 8 * args.games if args.rate else 0)
            raws = build_games(sqlite_url(template), args.games, FakeClock(), wanted)
            if args.only is None:
                throughput(args, server, template, raws[: args.mails])
            if args.rate and args.only is None:
                live = Path(tmp) / "live.db"
                build_games(sqlite_url(live), args.games, SystemClock(), 0)
                latency(args, server, sqlite_url(live), raws)
            if args.instances:
                instances(args, server, raws[: args.mails])
    finally:
        server.cleanup()


if __name__ == "__main__":
    main()
