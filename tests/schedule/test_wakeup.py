"""The daemon's own clock (gm.schedule.wakeup): what wakes it, and what no longer does."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from gm.daemon import Daemon
from gm.db.engine import session_scope
from gm.mail.config import MaildirSettings
from gm.mail.file_sink import FileSink
from gm.mail.maildir_source import MaildirSource
from gm.mail.types import FetchedMail
from gm.schedule.wakeup import WakeClock
from gm.service.context import ServiceContext
from tests.pipeline.conftest import mail
from tests.schedule.support import answered, new_game, order, outbox, phase, running

H = timedelta(hours=1)


def test_the_deadline_plus_grace_and_each_unsent_reminder_wake_the_loop(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, reminders=["2h"], grace="30m")
    deadline = phase(ctx).deadline
    wake = WakeClock()
    with session_scope(ctx.engine) as s:
        wake.refresh(s)
    assert sorted((label, at) for _, label, at in wake.pending) == [
        ("2h", deadline - 2 * H), ("due", deadline + timedelta(minutes=30))]
    assert wake.seconds_until_next(ctx.clock.now()) == (deadline - 2 * H - ctx.clock.now()).total_seconds()
    assert not wake.due(ctx.clock.now())
    assert wake.due(deadline - 2 * H)


def test_a_moment_a_sweep_tried_and_left_is_parked_until_the_periodic_sweep(ctx) -> None:  # type: ignore[no-untyped-def]
    """A due phase still open after a sweep (another instance closing it, say) must not make the
    loop sweep again at once, round after round: it waits for the periodic sweep."""
    new_game(ctx)
    ctx.clock.set(phase(ctx).deadline + H)
    wake = WakeClock()
    with session_scope(ctx.engine) as s:
        wake.refresh(s)
        assert wake.due(ctx.clock.now())
        wake.swept(s, ctx.clock.now(), periodic=False)  # as if the sweep had lost it
        assert not wake.due(ctx.clock.now()) and wake.seconds_until_next(ctx.clock.now()) is None
        wake.refresh(s)  # a round of mail re-reads the table: still parked
        assert not wake.due(ctx.clock.now())
        wake.swept(s, ctx.clock.now(), periodic=True)  # the periodic sweep tried it again
        assert not wake.due(ctx.clock.now())


def test_a_mail_that_opens_a_phase_gives_the_loop_its_next_wake_up(ctx, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Both powers READY with early adjudication: turn-2 opens during the round; the loop's
    wake-ups are turn-2's at once, without waiting for the periodic sweep."""
    new_game(ctx, early=True)
    order(ctx, "north")
    inbox = tmp_path / "inbox"
    daemon = Daemon(ctx, MaildirSource(MaildirSettings(inbox=str(inbox))), FileSink(tmp_path / "out"),
                    sweep_seconds=3600)
    asyncio.run(daemon.step())
    for n, (power, pw) in enumerate((("north", "n-secret"), ("south", "s-secret"))):
        (inbox / "new" / f"{n}.eml").write_bytes(mail(f"GAME race1\nPOWER {power} {pw}\nadvance 2\nREADY\n",
                                                      sender=f"{power[0]}@example.org"))
    asyncio.run(daemon.step())
    nxt = phase(ctx)
    assert nxt.phase_id == "turn-2"
    assert (nxt.id, "due", nxt.deadline) in daemon.wake.pending
    assert not any(pk != nxt.id for pk, _, _ in daemon.wake.pending)  # turn-1's moments are gone


class FlakySource(MaildirSource):
    """A Maildir whose first fetch raises something no one expected."""

    raised = False

    def fetch_new(self) -> list[FetchedMail]:
        if not self.raised:
            self.raised = True
            raise RuntimeError("a bug outside any one mail")
        return super().fetch_new()


def test_a_round_that_raises_does_not_stop_the_daemon(ctx: ServiceContext, tmp_path: Path) -> None:
    new_game(ctx)
    inbox = tmp_path / "inbox"
    source = FlakySource(MaildirSettings(inbox=str(inbox), poll_interval=0.05))
    (inbox / "new" / "1.eml").write_bytes(mail("GAME race1\nPOWER north n-secret\nadvance 3\n",
                                               sender="n@example.org"))
    daemon = Daemon(ctx, source, FileSink(tmp_path / "out"), sweep_seconds=3600, wait_seconds=0.1)
    with running(daemon) as thread:
        answered(tmp_path / "out", thread)
    assert source.raised and not thread.is_alive()
    assert answered(tmp_path / "out")  # the round after the one that raised fetched and answered the mail


def test_a_deadline_or_reminder_falling_due_is_swept_at_the_next_round_not_the_periodic_sweep(
        ctx: ServiceContext, tmp_path: Path) -> None:
    """docs/scheduling.md: the loop sweeps when a moment has fallen due *or* the periodic
    sweep is due. With the periodic sweep an hour away (of real time), the round after the 2 h
    reminder time sends the reminder, and the round after the deadline closes the phase."""
    new_game(ctx, reminders=["2h"])
    deadline = phase(ctx).deadline
    daemon = Daemon(ctx, MaildirSource(MaildirSettings(inbox=str(tmp_path / "inbox"))),
                    FileSink(tmp_path / "out"), sweep_seconds=3600)
    asyncio.run(daemon.step())  # the first round's periodic sweep: nothing is due yet
    assert outbox(ctx, "reminder") == []
    ctx.clock.set(deadline - 2 * H)
    asyncio.run(daemon.step())
    assert sorted(m.recipients[0] for m in outbox(ctx, "reminder")) == [  # type: ignore[index]
        "n@example.org", "s@example.org"]
    ctx.clock.set(deadline)
    asyncio.run(daemon.step())
    assert phase(ctx).phase_id == "turn-2"
