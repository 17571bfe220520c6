"""What the daemon's start loaded is kept out of the collector's sight (issue 21).

A full collection scans every object the process holds; in a daemon that has loaded its
code, templates, catalogues and the games' caches, one during a burst of mail held the
replies ~100 ms (the latency's p99 in bench/README.md). After its warm-up the daemon
freezes what it holds (``gc.freeze``), so a later collection scans only what came after;
the order parsers among it, built by the warm-up rather than by the first mail.
"""

from __future__ import annotations

import gc
from pathlib import Path

from gm.daemon import Daemon
from gm.mail.config import MaildirSettings
from gm.mail.file_sink import FileSink
from gm.mail.maildir_source import MaildirSource
from gm.orders.envelope import envelope_parser
from gm.service.context import ServiceContext
from tests.pipeline.conftest import mail
from tests.schedule.support import answered, new_game, running


def test_a_started_daemon_leaves_what_its_start_loaded_to_no_collection(
        ctx: ServiceContext, tmp_path: Path) -> None:
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    envelope_parser.cache_clear()  # built again by this daemon: by its warm-up, before freezing
    new_game(ctx)
    inbox = tmp_path / "inbox"
    (inbox / "new").mkdir(parents=True)
    (inbox / "cur").mkdir()
    (inbox / "tmp").mkdir()
    (inbox / "new" / "1.eml").write_bytes(mail("GAME race1\nPOWER north n-secret\nadvance 3\n",
                                               sender="n@example.org"))
    daemon = Daemon(ctx, MaildirSource(MaildirSettings(inbox=str(inbox), poll_interval=0.05)),
                    FileSink(tmp_path / "out"), sweep_seconds=3600, wait_seconds=0.1)
    try:
        with running(daemon) as thread:
            assert answered(tmp_path / "out", thread), "the daemon started and answered its first mail"
            assert gc.get_freeze_count() > 10_000, "what the start loaded is frozen"
            assert not any(o is daemon for o in gc.get_objects()), \
                "the daemon itself, made before its start, is out of the collector's sight"
            parser = envelope_parser()
            assert not any(o is parser for o in gc.get_objects()), \
                "the envelope's parser, built by the warm-up (gm.pipeline.parsewarm), too"
    finally:
        gc.unfreeze()
    assert not thread.is_alive()
