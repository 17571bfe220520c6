"""While mail keeps coming, the daemon looks for the next one without waiting on IMAP IDLE
(issue 21: Dovecot holds an IDLE notice 0.5 s; a NOOP finds the mail at once). Counted,
not timed: which wait the loop chose."""

from __future__ import annotations

import asyncio
from pathlib import Path

from gm.daemon import Daemon
from gm.mail.file_sink import FileSink
from gm.mail.types import FetchedMail
from gm.pipeline.handle import handle_inbound
from gm.pipeline.ingest import store_inbound
from gm.service.context import ServiceContext
from tests.pipeline.conftest import mail
from tests.schedule.support import new_game


class Source:
    """Hands out ``mails`` one a round; records the loop's calls."""

    def __init__(self, mails: list[bytes], daemon_rounds: int) -> None:
        self.mails = list(mails)
        self.calls: list[str] = []
        self.rounds_left = daemon_rounds
        self.daemon: Daemon | None = None

    def fetch_new(self) -> list[FetchedMail]:
        self.calls.append("fetch")
        self.rounds_left -= 1
        if self.rounds_left <= 0 and self.daemon is not None:
            self.daemon.stop()
        if not self.mails:
            return []
        uid = len(self.calls)
        return [FetchedMail(self.mails.pop(0), "imap:INBOX", 1, uid, str(uid))]

    def mark_handled(self, items: list[FetchedMail]) -> None:
        self.calls.append("flag")

    def wait(self, timeout: float) -> bool:
        self.calls.append("idle")
        return False

    def close(self) -> None:
        return None


def run(ctx: ServiceContext, tmp_path: Path, source: Source, busy_seconds: float) -> None:
    daemon = Daemon(ctx, source, FileSink(tmp_path / "out"), sweep_seconds=3600, wait_seconds=0.01,
                    busy_seconds=busy_seconds, busy_poll_seconds=0.0)
    source.daemon = daemon
    asyncio.run(daemon.run())


class Pausing(Daemon):
    """Records each pause of the busy poll in its source's calls."""

    async def _sleep(self, seconds: float) -> None:
        assert isinstance(self.source, Source)
        self.source.calls.append("pause")


def test_after_a_round_with_mail_the_loop_polls_instead_of_waiting_on_idle(
        ctx: ServiceContext, tmp_path: Path) -> None:
    new_game(ctx)
    source = Source([mail("GAME race1\nPOWER north n-secret\nadvance 3\n", sender="n@example.org"),
                     mail("GAME race1\nPOWER south s-secret\nadvance 1\n", sender="s@example.org")],
                    daemon_rounds=4)
    run(ctx, tmp_path, source, busy_seconds=3600)
    assert source.calls == ["fetch", "flag", "fetch", "flag", "fetch", "fetch"], source.calls


def test_right_after_a_round_that_handled_mail_the_loop_looks_again_without_a_pause(
        ctx: ServiceContext, tmp_path: Path) -> None:
    """Mail that came while a round worked is waiting: the busy poll's pause is only taken
    after a round that found none."""
    new_game(ctx)
    source = Source([mail("GAME race1\nPOWER north n-secret\nadvance 3\n", sender="n@example.org"),
                     mail("GAME race1\nPOWER south s-secret\nadvance 1\n", sender="s@example.org")],
                    daemon_rounds=4)
    daemon = Pausing(ctx, source, FileSink(tmp_path / "out"), sweep_seconds=3600, wait_seconds=0.01,
                     busy_seconds=3600, busy_poll_seconds=0.05)
    source.daemon = daemon
    asyncio.run(daemon.run())
    assert source.calls == ["fetch", "flag", "fetch", "flag", "fetch", "pause", "fetch"], source.calls


def test_after_a_round_whose_mail_another_instance_had_handled_the_loop_pauses(
        ctx: ServiceContext, tmp_path: Path) -> None:
    """Two instances, the last game of a backlog being the other's: finding its mails
    handled (flagged now) or held is no work done, so the loop takes the busy poll's pause
    instead of fetching again at once, again and again."""
    new_game(ctx)
    raw = mail("GAME race1\nPOWER north n-secret\nadvance 3\n", sender="n@example.org")
    handle_inbound(ctx, store_inbound(ctx, FetchedMail(raw, "imap:INBOX", 1, 1, "1")).inbound_id)
    source = Source([raw], daemon_rounds=3)
    daemon = Pausing(ctx, source, FileSink(tmp_path / "out"), sweep_seconds=3600, wait_seconds=0.01,
                     busy_seconds=3600, busy_poll_seconds=0.05)
    source.daemon = daemon
    asyncio.run(daemon.run())
    assert source.calls == ["fetch", "flag", "pause", "fetch", "pause", "fetch"], source.calls


def test_without_mail_the_loop_waits_on_idle(ctx: ServiceContext, tmp_path: Path) -> None:
    new_game(ctx)
    source = Source([], daemon_rounds=3)
    run(ctx, tmp_path, source, busy_seconds=3600)
    assert source.calls == ["fetch", "idle", "fetch", "idle", "fetch"], source.calls


def test_once_mail_has_stopped_the_loop_goes_back_to_idle(ctx: ServiceContext, tmp_path: Path) -> None:
    new_game(ctx)
    source = Source([mail("GAME race1\nPOWER north n-secret\nadvance 3\n", sender="n@example.org")],
                    daemon_rounds=3)
    run(ctx, tmp_path, source, busy_seconds=0)  # the busy window is over at once
    assert source.calls == ["fetch", "flag", "idle", "fetch", "idle", "fetch"], source.calls


def test_the_busy_poll_is_set_in_the_scheduler_table_and_zero_means_idle_only(tmp_path: Path) -> None:
    """A host whose provider limits commands slows the busy poll or turns it off
    (deploy/gm.example.toml, docs/mailbox.md)."""
    from gm.config import load

    default = tmp_path / "default.toml"
    default.write_text('[mail]\naddress = "gm@example.org"\n')
    assert load(default).service_settings()["busy_poll_seconds"] == 0.05
    assert load(default).service_settings()["busy_seconds"] == 2
    config = tmp_path / "gm.toml"
    config.write_text('[mail]\naddress = "gm@example.org"\n\n'
                      '[scheduler]\nbusy_seconds = 0\nbusy_poll_seconds = 0.5\n')
    settings = load(config).service_settings()
    assert (settings["busy_seconds"], settings["busy_poll_seconds"]) == (0, 0.5)
    daemon = Daemon(ServiceContext(engine=None, settings=settings),  # type: ignore[arg-type]
                    source=None, sink=None,  # type: ignore[arg-type]
                    busy_seconds=settings["busy_seconds"])
    daemon._last_mail = __import__("time").monotonic()
    assert not daemon.busy()  # busy_seconds = 0: the loop waits on IDLE after every round
