"""Orders count from when they reached the mailbox, not from when gm read them.

A player who mails his orders a minute before the deadline has sent them in time, whatever
gm was doing then: answering a burst of other mail, closing a thousand other games, or
waiting for an IMAP server that refused its login. Before this, the daemon closed a due
phase before it read the mail waiting for it, judged each mail by the clock at handling,
and kept closing deadlines while it could not read its mailbox: those orders were answered
"too late" and the power was treated as having sent none (gm.pipeline.arrival).

A real Pax Baltica game (12.1, Sweden's first action phase), the real Dovecot (the mail's
INTERNALDATE set by its APPEND, as delivery sets it) and the real daemon round.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from gm.clock import FakeClock, utc
from gm.daemon import Daemon
from gm.db.engine import session_scope
from gm.mail.config import ImapSettings
from gm.mail.file_sink import FileSink
from gm.mail.imap_source import ImapLoginError, ImapSource, ImapUnreachable
from gm.mail.types import FetchedMail
from gm.pipeline.handle import handle_inbound
from gm.pipeline.ingest import store_inbound
from gm.pipeline.order import HELD_GAME_SECONDS
from gm.schedule.sweep import sweep
from gm.service.adjudicate import settle
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game, current_phase
from tests.pipeline.conftest import deliver, mail, outbox
from tests.support.servers import DovecotServer

SWEDEN, COALITION, MOD = "karl@example.org", "pyotr@example.org", "mod@example.org"
SWEDEN_ORDERS = "GAME pb1\nPOWER sweden sw-secret\nrecon Ingermanland\n"
SEATS = [SeatSpec("sweden", SWEDEN, password="sw-secret"),
         SeatSpec("coalition", COALITION, password="co-secret", language="fr",
                  timezone="Europe/Paris")]


@pytest.fixture
def pb(ctx: ServiceContext) -> tuple[ServiceContext, datetime]:
    """Pax Baltica 12.1 in Sweden's first action phase; the phase's deadline."""
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pb1", module_name="baltica", scenario="12.1", seats=SEATS,
                    moderator_address=MOD, moderator_password="mod-secret", seed=b"\x03" * 32)
    deliver(ctx, mail("GAME pb1\nMODERATOR mod-secret\nDICE 5 2\n", sender=MOD))
    settle(ctx, "pb1", by="test")
    with session_scope(ctx.engine) as s:
        phase = current_phase(s, "pb1")
        assert phase.phase_id == "1700-autumn-actions-sweden" and phase.deadline is not None
        return ctx, utc(phase.deadline)


def open_phase(ctx: ServiceContext) -> str:
    with session_scope(ctx.engine) as s:
        return current_phase(s, "pb1").phase_id


def sweden_reply(ctx: ServiceContext) -> str:
    return outbox(ctx, kind="reply", to=SWEDEN)[-1][1]


def actions_report(ctx: ServiceContext) -> str:
    """What Sweden's report of the close of its action phase says happened in it."""
    [text] = [t for _, t in outbox(ctx, kind="report", to=SWEDEN)
              if "Adjudicated: 1700-autumn-actions-sweden" in t]
    return text.split("--- 1700-autumn-actions-sweden ---", 1)[1].split("\n\n", 1)[0]


def carried_out_and_closed(ctx: ServiceContext) -> None:
    """Sweden's orders were carried out (not "too late"), and its phase closed with them."""
    reply = sweden_reply(ctx)
    assert "too late" not in reply and "recon Ingermanland" in reply
    assert open_phase(ctx) != "1700-autumn-actions-sweden"
    assert "Ingermanland" in actions_report(ctx)


def read_late(pb: tuple[ServiceContext, datetime], dovecot: DovecotServer,
              imap_user: tuple[str, str], settings: ImapSettings, tmp_path: Path, *,
              arrived: timedelta, read: timedelta, sweep_seconds: float = 3600) -> Daemon:
    """Sweden's orders APPENDed ``arrived`` after the deadline (negative: before it), the
    clock ``read`` after it, and a daemon reading the mailbox with ``settings``."""
    ctx, deadline = pb
    user, password = imap_user
    dovecot.append(user, password, [mail(SWEDEN_ORDERS, sender=SWEDEN)], arrived=deadline + arrived)
    assert isinstance(ctx.clock, FakeClock)
    ctx.clock.set(deadline + read)
    return Daemon(ctx, ImapSource(settings), FileSink(str(tmp_path / "out")),
                  sweep_seconds=sweep_seconds)


def run_steps(daemon: Daemon, n: int = 1) -> None:
    async def steps() -> None:
        for _ in range(n):
            await daemon.step()

    asyncio.run(steps())


def test_orders_that_reached_the_mailbox_before_the_deadline_count_when_read_after_it(
        pb: tuple[ServiceContext, datetime], dovecot: DovecotServer, imap_user: tuple[str, str],
        imap_settings: ImapSettings, tmp_path: Path) -> None:
    """Sweden's mail came 30 s before the deadline; gm reads it two minutes after it (it was
    busy): the orders are carried out, then the phase closes with them."""
    ctx = pb[0]
    daemon = read_late(pb, dovecot, imap_user, imap_settings, tmp_path,
                       arrived=-timedelta(seconds=30), read=timedelta(minutes=2))

    run_steps(daemon)

    reply = sweden_reply(ctx)
    assert "too late" not in reply
    assert "recon Ingermanland" in reply and "OK" in reply
    assert open_phase(ctx) != "1700-autumn-actions-sweden"  # closed in the same round
    assert "Ingermanland" in actions_report(ctx)


def test_orders_that_reached_the_mailbox_after_the_deadline_are_too_late(
        pb: tuple[ServiceContext, datetime], dovecot: DovecotServer, imap_user: tuple[str, str],
        imap_settings: ImapSettings, tmp_path: Path) -> None:
    """The same mail 30 s after the deadline, read while the phase is still open: "too late
    for 1700-autumn-actions-sweden", nothing carried out, and the phase closes without it."""
    ctx = pb[0]
    daemon = read_late(pb, dovecot, imap_user, imap_settings, tmp_path,
                       arrived=timedelta(seconds=30), read=timedelta(minutes=2))

    run_steps(daemon)

    assert "too late for 1700-autumn-actions-sweden" in sweden_reply(ctx)
    assert open_phase(ctx) != "1700-autumn-actions-sweden"
    assert "Ingermanland" not in actions_report(ctx)


def test_a_deadline_waits_while_the_mailbox_refuses_gms_login(
        pb: tuple[ServiceContext, datetime], dovecot: DovecotServer, imap_user: tuple[str, str],
        imap_settings: ImapSettings, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The IMAP server refuses gm's login (the host changed the password) from before the
    deadline until 40 minutes after it. Sweden's orders came ten minutes before the
    deadline. The phase is not closed while gm cannot read them; once the login works, they
    are carried out and the phase closes with them."""
    caplog.set_level(logging.INFO, logger="gm.daemon")
    ctx = pb[0]
    daemon = read_late(pb, dovecot, imap_user, replace(imap_settings, password="changed"),
                       tmp_path, arrived=-timedelta(minutes=10), read=timedelta(minutes=5),
                       sweep_seconds=0)
    assert isinstance(ctx.clock, FakeClock)
    for _ in range(3):
        with pytest.raises(ImapLoginError):
            run_steps(daemon)
        assert open_phase(ctx) == "1700-autumn-actions-sweden"
        ctx.clock.advance(timedelta(minutes=10))

    waiting = [r.getMessage() for r in caplog.records if "wait until" in r.getMessage()]
    assert waiting == [f"1 due phase(s) wait until the IMAP server {imap_settings.host}:"
                       f"{imap_settings.port} (user {imap_settings.user}) is read as it stood "
                       "when they fell due (it was never read)"]  # the host's log, once
    daemon.source = ImapSource(imap_settings)  # the host mends the password
    run_steps(daemon)

    carried_out_and_closed(ctx)


def test_a_die_roll_closes_while_the_mailbox_cannot_be_read(
        ctx: ServiceContext, dovecot: DovecotServer, imap_settings: ImapSettings,
        tmp_path: Path) -> None:
    """A step nobody orders in waits for no mail: Pax Baltica's opening action roll (3.1)
    is rolled at its deadline though the mailbox refuses gm's login."""
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pb1", module_name="baltica", scenario="12.1", seats=SEATS,
                    moderator_address=MOD, moderator_password="mod-secret", seed=b"\x03" * 32)
        roll = current_phase(s, "pb1")
        assert roll.phase_id.endswith("action-roll") and roll.deadline is not None
        due = utc(roll.deadline)
    assert isinstance(ctx.clock, FakeClock)
    ctx.clock.set(due + timedelta(seconds=1))
    daemon = Daemon(ctx, ImapSource(replace(imap_settings, password="changed")),
                    FileSink(str(tmp_path / "out")), sweep_seconds=0)

    with pytest.raises(ImapLoginError):
        run_steps(daemon)

    assert open_phase(ctx).startswith("1700-autumn-actions-")  # rolled; whoever rolled higher


def deliver_arrived(ctx: ServiceContext, raw: bytes, arrived: datetime) -> None:
    """What the daemon does with a mail that reached the mailbox at ``arrived``."""
    stored = store_inbound(ctx, FetchedMail(raw, "test:inbox", None, None, "", arrived))
    handle_inbound(ctx, stored.inbound_id)


def test_a_late_mail_read_after_the_close_is_too_late_not_orders_for_the_next_phase(
        pb: tuple[ServiceContext, datetime]) -> None:
    """Sweden's mail came 30 s after its deadline; another instance closed the phase a
    minute after it, before this one read the mail. Sweden's orders are answered "too
    late" for the phase they were written for, never read as orders for the phase open
    now (which Sweden had not seen: the Coalition's actions)."""
    ctx, deadline = pb
    assert isinstance(ctx.clock, FakeClock)
    ctx.clock.set(deadline + timedelta(minutes=1))
    sweep(ctx)
    assert open_phase(ctx) == "1700-autumn-actions-coalition"

    deliver_arrived(ctx, mail(SWEDEN_ORDERS, sender=SWEDEN), deadline + timedelta(seconds=30))

    reply = sweden_reply(ctx)
    assert "too late for 1700-autumn-actions-sweden: its deadline has passed" in reply
    assert "may not" not in reply


def test_a_mail_that_came_during_a_die_roll_is_for_the_phase_after_it(
        ctx: ServiceContext) -> None:
    """Pax Baltica's action roll (3.1) takes no orders: Sweden, who read the season's
    report, writes while it is open; gm reads the mail after the roll, and Sweden's
    orders are carried out in Sweden's action phase."""
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pb1", module_name="baltica", scenario="12.1", seats=SEATS,
                    moderator_address=MOD, moderator_password="mod-secret", seed=b"\x03" * 32)
    deliver(ctx, mail("GAME pb1\nMODERATOR mod-secret\nDICE 5 2\n", sender=MOD))
    written = ctx.clock.now() + timedelta(minutes=1)
    assert isinstance(ctx.clock, FakeClock)
    ctx.clock.advance(timedelta(minutes=2))
    settle(ctx, "pb1", by="test")
    assert open_phase(ctx) == "1700-autumn-actions-sweden"

    deliver_arrived(ctx, mail(SWEDEN_ORDERS, sender=SWEDEN), written)

    reply = sweden_reply(ctx)
    assert "too late" not in reply and "recon Ingermanland" in reply and "OK" in reply


def test_a_mail_another_instance_holds_keeps_the_deadline_until_it_is_handled(
        pb: tuple[ServiceContext, datetime], dovecot: DovecotServer, imap_user: tuple[str, str],
        imap_settings: ImapSettings, tmp_path: Path) -> None:
    """Two instances on one PostgreSQL: the other one is handling Sweden's mail (it holds its
    row) when this one finds the deadline due. The phase is left open while the mail is
    held; the other instance dies before its commit, this one handles the mail in its next
    round, and only then closes the phase, with Sweden's orders."""
    ctx = pb[0]
    if ctx.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has no row locks: one daemon per file (test_two_daemons.py)")
    daemon = read_late(pb, dovecot, imap_user, imap_settings, tmp_path,
                       arrived=-timedelta(seconds=30), read=timedelta(minutes=2))
    other_source = ImapSource(imap_settings)
    [fetched] = other_source.fetch_new()
    other_source.close()
    held = store_inbound(ctx, fetched).inbound_id
    other = ctx.engine.connect()
    other.begin()
    other.execute(text("SELECT id FROM inboundmail WHERE id = :id FOR UPDATE"), {"id": held})
    try:
        run_steps(daemon)
        assert open_phase(ctx) == "1700-autumn-actions-sweden"  # the held mail came in time
        assert outbox(ctx, kind="reply", to=SWEDEN) == []
    finally:
        other.rollback()  # the other instance dies before its commit
        other.close()
    time.sleep(HELD_GAME_SECONDS + 0.1)  # a game found held is left to the other a moment

    run_steps(daemon)

    carried_out_and_closed(ctx)


def test_while_the_imap_server_is_down_the_deadline_waits_and_the_rest_goes_on(
        ctx: ServiceContext, dovecot: DovecotServer, imap_user: tuple[str, str],
        imap_settings: ImapSettings, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The IMAP server does not answer at all (down for maintenance) across Sweden's
    deadline. The round gives up on it after its patience: the opening action roll is still
    rolled at its deadline (3.1) and the reports it queues still go out, while Sweden's
    action phase waits for the mailbox; once the server is back, Sweden's orders that came
    before the deadline are carried out and the phase closes with them."""
    caplog.set_level(logging.WARNING, logger="gm.daemon")
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pb1", module_name="baltica", scenario="12.1", seats=SEATS,
                    moderator_address=MOD, moderator_password="mod-secret", seed=b"\x03" * 32)
    deliver(ctx, mail("GAME pb1\nMODERATOR mod-secret\nDICE 5 2\n", sender=MOD))
    with session_scope(ctx.engine) as s:
        roll = current_phase(s, "pb1")
        assert roll.deadline is not None
        roll_due = utc(roll.deadline)
    assert isinstance(ctx.clock, FakeClock)
    ctx.clock.set(roll_due + timedelta(seconds=1))
    out = tmp_path / "out"
    daemon = Daemon(ctx, ImapSource(imap_settings, give_up_after=2.0), FileSink(str(out)),
                    sweep_seconds=0)
    dovecot.stop()
    try:
        with pytest.raises(ImapUnreachable):
            run_steps(daemon)
        assert open_phase(ctx) == "1700-autumn-actions-sweden"  # rolled: Sweden 5, Coalition 2
        sent = [p.read_bytes() for p in (out / "new").iterdir()]
        assert any(b"Action rolls: Sweden 5, Coalition 2" in raw for raw in sent)  # reports out
        with session_scope(ctx.engine) as s:
            deadline = utc(current_phase(s, "pb1").deadline or roll_due)
        ctx.clock.set(deadline + timedelta(minutes=30))
        with pytest.raises(ImapUnreachable):
            run_steps(daemon)
        assert open_phase(ctx) == "1700-autumn-actions-sweden"  # waits for the mailbox
    finally:
        dovecot.start()
    user, password = imap_user
    dovecot.append(user, password, [mail(SWEDEN_ORDERS, sender=SWEDEN)],
                   arrived=deadline - timedelta(minutes=5))  # delivered before the outage

    run_steps(daemon)

    carried_out_and_closed(ctx)


class FailingWait(ImapSource):
    """The real source whose first IDLE wait fails as one cut off by a server that then
    stays away longer than gm's patience (made to raise on purpose)."""

    failed = False

    def wait(self, timeout: float) -> bool:
        if not self.failed:
            self.failed = True
            raise ImapUnreachable("127.0.0.1:143 has not answered for 60 s: EOF")
        return super().wait(timeout)


def test_the_daemon_outlives_a_mailbox_that_fails_while_it_waits_for_mail(
        pb: tuple[ServiceContext, datetime], dovecot: DovecotServer, imap_user: tuple[str, str],
        imap_settings: ImapSettings, tmp_path: Path) -> None:
    """gm waits for mail on IDLE and the wait fails (the server went away under it and
    stayed away). The daemon's loop goes on (the wait's error ended it, and the process,
    before); the next mail is answered."""
    ctx = pb[0]
    user, password = imap_user
    daemon = Daemon(ctx, FailingWait(imap_settings), FileSink(str(tmp_path / "out")),
                    sweep_seconds=3600)

    async def scenario() -> None:
        loop = asyncio.create_task(daemon.run())
        try:
            for _ in range(100):  # its first round done, its first wait failed
                if daemon.source.failed:  # type: ignore[attr-defined]
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)
            assert not loop.done(), loop.exception() if loop.done() else None
            await asyncio.to_thread(dovecot.append, user, password,
                                    [mail(SWEDEN_ORDERS, sender=SWEDEN)])
            for _ in range(300):
                if outbox(ctx, kind="reply", to=SWEDEN):
                    break
                await asyncio.sleep(0.1)
        finally:
            daemon.stop()
            await asyncio.wait_for(loop, 30)

    asyncio.run(scenario())
    assert "recon Ingermanland" in sweden_reply(ctx)
