"""One gm instance of the several-instances ingest benchmark (bench/bench_ingest.py).

``python -m bench.ingest_worker URL INSTANCE IMAP_PORT USER GO_FILE`` waits for GO_FILE (so
that every instance starts together), then does the daemon's inbound duty on the shared
mailbox (gm.daemon.process_one for every mail fetched: stored, handled by whichever instance
holds its row, flagged) until a fetch finds nothing left. Prints one JSON line.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from gm.clock import FakeClock
from gm.daemon import DueCheck, process_one
from gm.db.engine import make_engine
from gm.mail.config import ImapSettings, TlsMode
from gm.mail.imap_source import ImapSource
from gm.service.context import ServiceContext


def main(url: str, instance: str, port: str, user: str, go_file: str) -> None:
    ctx = ServiceContext(engine=make_engine(url), clock=FakeClock(), instance=instance,
                         settings={"address": "gm@example.org"})
    source = ImapSource(ImapSettings(host="127.0.0.1", port=int(port), user=user, password=user,
                                     tls=TlsMode.NONE))
    print(json.dumps({"ready": instance}), flush=True)
    while not Path(go_file).exists():
        time.sleep(0.005)
    seen = 0
    due = DueCheck(ctx)  # as the daemon: the due-phase check once per batch, not per mail
    while True:
        mails = source.fetch_new()
        if not mails:
            break
        for fetched in mails:
            process_one(ctx, source, fetched, due)
            seen += 1
    source.close()
    print(json.dumps({"instance": instance, "seen": seen, "done_at": time.time()}), flush=True)
    ctx.engine.dispose()


if __name__ == "__main__":
    main(*sys.argv[1:6])
