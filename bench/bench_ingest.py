"""Ingest benchmark (issue 11): order mail off Dovecot -> stored, handled, flagged, in mails/s.

N order mails for a toy race game are APPENDed to a private Dovecot; then, on
the same mailbox in the same run:

* the bare imapclient batched fetch (``bench_ingest_fetch.bare_fetch``): the limit;
* gm's ingest: ``ImapSource.fetch_new`` + ``store_inbound`` + ``handle_inbound``
  + ``mark_handled`` per mail, on a SQLite file (or ``--db URL``).

Run: ``.venv/bin/python -m bench.bench_ingest --n 500``. Prints both rates and the ratio.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench.bench_ingest_fetch import bare_fetch
from gm.clock import FakeClock
from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.migrate import upgrade
from gm.mail.config import ImapSettings, TlsMode
from gm.mail.imap_source import ImapSource
from gm.pipeline.handle import handle_inbound
from gm.pipeline.ingest import store_inbound
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game
from tests.pipeline.conftest import mail
from tests.support import toygame  # noqa: F401  (registers "race")
from tests.support.servers import DovecotServer


def order_mails(n: int) -> list[bytes]:
    """``n`` valid order mails, alternating north and south, distinct Message-IDs."""
    out = []
    for i in range(n):
        power = ("north", "south")[i % 2]
        out.append(mail(f"Hi,\n\nGAME race1\nPOWER {power} {power[0]}-secret\nadvance {i % 3 + 1}\n"
                        f"thanks\n-- \n{power}\n", sender=f"{power}@example.org",
                        message_id=f"<bench-{i}@player.example>"))
    return out


def service(url: str) -> ServiceContext:
    engine = make_engine(url)
    upgrade(engine)
    ctx = ServiceContext(engine=engine, clock=FakeClock(), instance="bench",
                         settings={"address": "gm@example.org"})
    with session_scope(engine) as s:
        create_game(ctx, s, game_id="race1", module_name="race", scenario="duel",
                    seats=[SeatSpec("north", "north@example.org", password="n-secret"),
                           SeatSpec("south", "south@example.org", password="s-secret")])
    return ctx


def ingest(ctx: ServiceContext, settings: ImapSettings) -> tuple[int, float, dict[str, float]]:
    """Fetch, store, handle and flag every new mail as the daemon does; (count, seconds, split)."""
    split = {"fetch": 0.0, "store": 0.0, "handle": 0.0, "flag": 0.0}
    start = time.perf_counter()
    source = ImapSource(settings)
    t = time.perf_counter()
    mails = source.fetch_new()
    split["fetch"] += time.perf_counter() - t
    for fetched in mails:
        t0 = time.perf_counter()
        stored = store_inbound(ctx, fetched)
        t1 = time.perf_counter()
        handle_inbound(ctx, stored.inbound_id)
        t2 = time.perf_counter()
        source.mark_handled([fetched])
        t3 = time.perf_counter()
        split["store"] += t1 - t0
        split["handle"] += t2 - t1
        split["flag"] += t3 - t2
    source.close()
    return len(mails), time.perf_counter() - start, split


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--db", default="", help="URL of an empty database it may fill (default: a fresh SQLite file)")
    args = parser.parse_args()
    server = DovecotServer()
    server.start()
    try:
        server.add_user("bench", "bench")
        server.append("bench", "bench", order_mails(args.n))
        bare = bare_fetch(server.host, server.port, "bench", "bench")
        with tempfile.TemporaryDirectory() as tmp:
            ctx = service(args.db or sqlite_url(Path(tmp) / "gm.db"))
            settings = ImapSettings(host=server.host, port=server.port, user="bench",
                                    password="bench", tls=TlsMode.NONE)
            count, seconds, split = ingest(ctx, settings)
            ctx.engine.dispose()
        rate = count / seconds
        print(f"{args.n} order mails, database {args.db or 'SQLite file'}")
        print(f"bare imapclient fetch: {bare.per_second:9,.0f} mails/s ({bare.seconds:.2f}s)")
        print(f"gm ingest (fetch+store+handle+flag): {rate:9,.1f} mails/s ({seconds:.2f}s)")
        print("  split: " + ", ".join(f"{k} {v / count * 1000:.2f} ms/mail" for k, v in split.items()))
        print(f"ratio ingest/bare: {rate / bare.per_second:.3f}")
    finally:
        server.cleanup()


if __name__ == "__main__":
    main()
