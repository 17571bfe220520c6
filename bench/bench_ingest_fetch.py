"""The bare-fetch side of the ingest benchmark: how fast can mail come off Dovecot at all?

The lead's ingest benchmark (mail in -> parsed, stored, acknowledged) reports
its rate as a ratio to this limit, measured on the same server in the same run::

    from bench.bench_ingest_fetch import prepare_mailbox, bare_fetch

    server, user, password = prepare_mailbox(n=2000)     # starts a private Dovecot
    limit = bare_fetch(server.host, server.port, user, password)
    ... run the ingest pipeline on the same mailbox, then ratio = rate / limit.per_second
    server.cleanup()

Run alone: ``.venv/bin/python -m bench.bench_ingest_fetch --n 2000``; it prints
the bare imapclient batched fetch rate and the rate of ``ImapSource.fetch_new``
(BODY.PEEK[] in batches, plus the SEARCH for unhandled mail) on the same mails.
"""

from __future__ import annotations

import argparse
import itertools
import time
from dataclasses import dataclass
from pathlib import Path

from imapclient import IMAPClient

from gm.mail.config import ImapSettings, TlsMode
from gm.mail.imap_source import ImapSource
from tests.support.servers import DovecotServer

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "mail"


@dataclass(frozen=True)
class FetchRate:
    count: int
    seconds: float
    total_bytes: int

    @property
    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds else float("inf")


def sample_mails(n: int) -> list[bytes]:
    """``n`` distinct mails cycled from the corpus (distinct Message-IDs)."""
    raws = [p.read_bytes() for p in sorted(CORPUS.glob("*.eml"))]
    out = []
    for i, raw in zip(range(n), itertools.cycle(raws), strict=False):
        out.append(b"Message-ID: <bench-%d@bench.example>\r\n" % i + raw)
    return out


def prepare_mailbox(
    n: int, user: str = "bench", password: str = "bench"
) -> tuple[DovecotServer, str, str]:
    """Start a private Dovecot and APPEND ``n`` mails to the user's INBOX."""
    server = DovecotServer()
    server.start()
    server.add_user(user, password)
    client = server.client(user, password)
    try:
        for raw in sample_mails(n):
            client.append("INBOX", raw)
    finally:
        client.logout()
    return server, user, password


def bare_fetch(
    host: str, port: int, user: str, password: str, folder: str = "INBOX", batch: int = 200
) -> FetchRate:
    """Time a bare imapclient fetch of every mail in ``folder`` (login to logout): the limit."""
    start = time.perf_counter()
    client = IMAPClient(host, port=port, ssl=False)
    client.login(user, password)
    client.select_folder(folder, readonly=True)
    uids = client.search("ALL")
    total = 0
    for i in range(0, len(uids), batch):
        for data in client.fetch(uids[i : i + batch], ["BODY.PEEK[]"]).values():
            total += len(data[b"BODY[]"])
    client.logout()
    return FetchRate(len(uids), time.perf_counter() - start, total)


def source_fetch(host: str, port: int, user: str, password: str) -> FetchRate:
    """Time ``ImapSource.fetch_new`` on the same mailbox (connect, SEARCH, batched PEEK)."""
    settings = ImapSettings(host=host, port=port, user=user, password=password, tls=TlsMode.NONE)
    start = time.perf_counter()
    source = ImapSource(settings)
    mails = source.fetch_new()
    source.close()
    return FetchRate(len(mails), time.perf_counter() - start, sum(len(m.raw) for m in mails))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    t0 = time.perf_counter()
    server, user, password = prepare_mailbox(args.n)
    append_s = time.perf_counter() - t0
    try:
        print(
            f"appended {args.n} mails in {append_s:.2f}s ({args.n / append_s:,.0f}/s, incl. server start)"
        )
        for _ in range(args.repeat):
            bare = bare_fetch(server.host, server.port, user, password)
            ours = source_fetch(server.host, server.port, user, password)
            print(
                f"bare imapclient fetch: {bare.per_second:9,.0f} mails/s "
                f"({bare.total_bytes / bare.seconds / 1e6:.1f} MB/s) | "
                f"ImapSource.fetch_new: {ours.per_second:9,.0f} mails/s | ratio {ours.per_second / bare.per_second:.2f}"
            )
    finally:
        server.cleanup()


if __name__ == "__main__":
    main()
