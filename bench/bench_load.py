"""Load: 5,000 order mails over one (simulated) hour across 500 games while deadlines fall.

    .venv/bin/python bench/bench_load.py [--db URL] [--games 500] [--mails 5000] [--seed 1]

The hour is simulated with a fake clock and compressed: events (a mail
arriving, a deadline falling) are taken in time order and each is handled at
once by the real pipeline (store_inbound + handle_inbound, as the daemon
does; the scheduler's sweep for deadlines), on a real database. Reported:

* arrival -> reply queued: wall time from a mail's arrival (its turn in the
  event order) to its reply being committed to the outbox;
* deadline -> reports queued: wall time from the sweep that a deadline wakes
  to that phase's reports being committed.

Both are service times of one instance with no backlog (the hour holds far
less work than an hour of CPU), so they are the latencies a player and a
deadline would see. The games are the test module "race" (tests/support):
the figures measure the service, not a game engine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import uuid
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, text  # noqa: E402
from sqlmodel import col, select, update  # noqa: E402

import tests.support.toygame  # noqa: E402,F401  (registers "race")
from gm.clock import FakeClock  # noqa: E402
from gm.db.engine import make_engine, session_scope, sqlite_url  # noqa: E402
from gm.db.migrate import upgrade  # noqa: E402
from gm.db.models import OutboundMail, Phase  # noqa: E402
from gm.mail.types import FetchedMail  # noqa: E402
from gm.pipeline.handle import handle_inbound  # noqa: E402
from gm.pipeline.ingest import store_inbound  # noqa: E402
from gm.schedule.sweep import sweep  # noqa: E402
from gm.service.context import ServiceContext  # noqa: E402
from gm.service.games import SeatSpec, create_game  # noqa: E402


def order_mail(game: str, power: str, steps: int, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"{power}@{game}.example", "gm@example.org", "orders"
    msg["Message-ID"] = f"<load-{n}@player.example>"
    msg.set_content(f"GAME {game}\nPOWER {power} pw-{power}\nadvance {steps}\n")
    return bytes(msg)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def run(url: str, games: int, mails: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    engine = make_engine(url)
    upgrade(engine)
    clock = FakeClock()
    ctx = ServiceContext(engine=engine, clock=clock, instance="bench",
                         settings={"address": "gm@example.org", "moderator_address": "mod@example.org"})
    start = clock.now()
    ids = [f"g{i:04d}" for i in range(games)]
    with session_scope(engine) as s:
        for g in ids:
            create_game(ctx, s, game_id=g, module_name="race", scenario="duel",
                        seats=[SeatSpec("north", f"north@{g}.example", password="pw-north"),
                               SeatSpec("south", f"south@{g}.example", password="pw-south")],
                        moderator_address="mod@example.org", seed=rng.randbytes(32))
    events: list[tuple[float, str, object]] = []
    for g in ids:  # each game's deadline falls somewhere in the second half of the hour
        due = start + timedelta(seconds=rng.uniform(1800, 3600))
        with session_scope(engine) as s:
            s.execute(update(Phase).where(col(Phase.game_id) == g, col(Phase.state) == "open")
                      .values(deadline=due))
        events.append(((due - start).total_seconds(), "deadline", g))
    for n in range(mails):
        g = rng.choice(ids)
        events.append((rng.uniform(0, 3600), "mail", order_mail(g, rng.choice(["north", "south"]),
                                                                rng.randint(1, 3), n)))
    events.sort(key=lambda e: e[0])
    with session_scope(engine) as s:  # the set-up's welcome mails are not the measurement's
        s.execute(update(OutboundMail).values(status="sent"))
    reply_ms, report_ms = [], []
    wall = time.perf_counter()
    for at, kind, payload in events:
        clock.set(start + timedelta(seconds=at)) if hasattr(clock, "set") else clock.advance(
            start + timedelta(seconds=at) - clock.now())
        t0 = time.perf_counter()
        if kind == "mail":
            stored = store_inbound(ctx, FetchedMail(payload, "bench", None, None))  # type: ignore[arg-type]
            handle_inbound(ctx, stored.inbound_id)
            reply_ms.append((time.perf_counter() - t0) * 1000)
        else:
            result = sweep(ctx)
            closed = len(getattr(result, "closed", []) or [])
            report_ms.extend([(time.perf_counter() - t0) * 1000] * max(closed, 0))
    elapsed = time.perf_counter() - wall
    with session_scope(engine) as s:
        reports = len(s.exec(select(OutboundMail.id).where(OutboundMail.kind == "report")).all())
        replies = len(s.exec(select(OutboundMail.id).where(OutboundMail.kind == "reply")).all())
    engine.dispose()
    assert replies == mails, (replies, mails)
    return {"mails": mails, "games": games, "phases_closed": len(report_ms), "reports": reports,
            "wall_s": elapsed, "reply_p50_ms": statistics.median(reply_ms),
            "reply_p99_ms": percentile(reply_ms, 99),
            "report_p50_ms": statistics.median(report_ms) if report_ms else float("nan"),
            "report_p99_ms": percentile(report_ms, 99) if report_ms else float("nan")}


def fresh_postgres(admin_url: str) -> str:
    name = f"gm_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return admin_url.rsplit("/", 1)[0] + "/" + name


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default="", help="sqlite (default, a fresh file) or a PostgreSQL URL "
                    "of a server where a fresh database is created")
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--mails", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.db.startswith("postgresql"):
        url = fresh_postgres(args.db)
    else:
        path = Path(f"/tmp/gm-bench-{uuid.uuid4().hex[:8]}.db")
        url = sqlite_url(path)
    r = run(url, args.games, args.mails, args.seed)
    print(f"{url.split('://')[0]}: {r['mails']} mails, {r['games']} games, {r['phases_closed']} "
          f"deadlines closed, {r['reports']} reports, {r['wall_s']:.0f} s wall for the hour")
    print(f"  arrival -> reply queued:    p50 {r['reply_p50_ms']:.1f} ms  p99 {r['reply_p99_ms']:.1f} ms")
    print(f"  deadline -> reports queued: p50 {r['report_p50_ms']:.1f} ms  p99 {r['report_p99_ms']:.1f} ms")


if __name__ == "__main__":
    main()
