"""The due-phase check before a mail, asked once per batch (gm.daemon.DueCheck, issue 21), is
asked again as soon as its answer may have changed: a deadline passed, a mail changed phases,
or a second went by (a phase another instance opened). Counted by what the mails find, not
timed: the second's recheck is set to never or always, so only the cause a test names can
make it ask again (a slow machine took the second between two mails of a test)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from sqlalchemy import event

import gm.daemon
import gm.schedule.sweep
from gm.daemon import DueCheck, process_one
from gm.db.engine import session_scope
from gm.mail.types import FetchedMail
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game, current_phase
from tests.pipeline.conftest import mail, outbox

MOD = "mod@example.org"
MOD_PASSWORD = "mod-secret"


@pytest.fixture(autouse=True)
def no_second_recheck(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recheck after DUE_RECHECK_SECONDS of real time never comes (a test that wants it
    sets the constant again)."""
    monkeypatch.setattr(gm.daemon, "DUE_RECHECK_SECONDS", float("inf"))


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the due-phase checks DueCheck asks (each closes what fell due)."""
    asked: list[int] = []
    real: Callable[..., object] = gm.schedule.sweep.close_due_without_orders

    def counting(ctx: ServiceContext) -> object:
        asked.append(1)
        return real(ctx)

    monkeypatch.setattr(gm.schedule.sweep, "close_due_without_orders", counting)
    return asked


class Box:
    def mark_handled(self, items: list[FetchedMail]) -> None:
        return None


def baltica(ctx: ServiceContext, **deadlines: str) -> None:
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pb1", module_name="baltica", scenario="12.1",
                    seats=[SeatSpec("sweden", "sw@example.org", password="sw-secret"),
                           SeatSpec("coalition", "co@example.org", password="co-secret")],
                    moderator_address=MOD, moderator_password=MOD_PASSWORD,
                    seed=bytes([1]) * 32,  # Sweden acts first
                    settings={"deadlines": {"outage_threshold": "365d", **deadlines}})
        assert current_phase(s, "pb1").phase_id == "1700-autumn-action-roll"


def fetched(uid: int, body: str, sender: str) -> FetchedMail:
    return FetchedMail(mail(body, sender=sender, message_id=f"<m{uid}@player.example>"),
                       "imap:INBOX", 1, uid, str(uid))


def test_a_die_roll_falling_due_between_two_mails_of_a_batch_is_closed_before_the_second(
        ctx: ServiceContext) -> None:
    baltica(ctx)
    with session_scope(ctx.engine) as s:
        roll = current_phase(s, "pb1")
    assert roll.deadline is not None
    ctx.clock.set(roll.deadline - timedelta(minutes=1))  # the roll is not due yet
    due = DueCheck(ctx)
    process_one(ctx, Box(), fetched(1, "GAME pb1\nPOWER coalition co-secret\nLIST pb1\n",
                                    "co@example.org"), due)
    with session_scope(ctx.engine) as s:
        assert current_phase(s, "pb1").phase_id == "1700-autumn-action-roll"
    ctx.clock.set(roll.deadline + timedelta(minutes=1))  # within the same batch, the roll falls due
    process_one(ctx, Box(), fetched(2, "GAME pb1\nPOWER sweden sw-secret\nrecon Livland\n",
                                    "sw@example.org"), due)
    [(_, text)] = outbox(ctx, kind="reply", to="sw@example.org")
    assert "too late" not in text and "OK  recon Livland" in text, text


def test_grace_does_not_delay_a_die_roll_so_mail_for_the_next_phase_is_not_refused(
        ctx: ServiceContext) -> None:
    """Grace is for late orders; nobody orders in a die-rolling step (gm/service/phases.py:
    "due at once"). In a game with an hour's grace, Sweden's orders a minute after the action
    roll opened are for the action phase after it: the roll is closed before the mail, and the
    mail is carried out, not answered "sweden has no orders to give in ...-action-roll"."""
    baltica(ctx, grace="1h")
    with session_scope(ctx.engine) as s:
        roll = current_phase(s, "pb1")
    assert roll.deadline is not None
    ctx.clock.set(roll.deadline + timedelta(minutes=1))
    process_one(ctx, Box(), fetched(1, "GAME pb1\nPOWER sweden sw-secret\nrecon Livland\n",
                                    "sw@example.org"), DueCheck(ctx))
    [(_, text)] = outbox(ctx, kind="reply", to="sw@example.org")
    assert "OK  recon Livland" in text and "no orders to give" not in text, text


def test_grace_does_not_delay_a_die_roll_in_the_sweep(ctx: ServiceContext) -> None:
    from gm.schedule.sweep import sweep

    baltica(ctx, grace="1h")
    with session_scope(ctx.engine) as s:
        roll = current_phase(s, "pb1")
    assert roll.deadline is not None
    ctx.clock.set(roll.deadline)
    assert [c.phase_id for c in sweep(ctx).closed] == ["1700-autumn-action-roll"]


def test_within_a_batch_the_check_is_not_asked_again_before_each_mail(ctx: ServiceContext) -> None:
    baltica(ctx)
    due = DueCheck(ctx)
    statements: list[str] = []

    def count(_conn, _cursor, statement: str, *_args) -> None:  # type: ignore[no-untyped-def]
        statements.append(statement)

    process_one(ctx, Box(), fetched(1, "GAME pb1\nPOWER coalition co-secret\nLIST pb1\n",
                                    "co@example.org"), due)
    event.listen(ctx.engine, "before_cursor_execute", count)
    try:
        process_one(ctx, Box(), fetched(2, "GAME pb1\nPOWER coalition co-secret\nLIST pb1\n",
                                        "co@example.org"), due)
        with_check = len(statements)
        statements.clear()
        due.reset()  # as after a sweep: asked again
        process_one(ctx, Box(), fetched(3, "GAME pb1\nPOWER coalition co-secret\nLIST pb1\n",
                                        "co@example.org"), due)
    finally:
        event.remove(ctx.engine, "before_cursor_execute", count)
    assert len(statements) > with_check, (with_check, len(statements))


def test_a_mail_that_changes_phases_has_the_next_mail_checked_again(
        ctx: ServiceContext, checks: list[int]) -> None:
    baltica(ctx)
    due = DueCheck(ctx)
    listing = "GAME pb1\nPOWER coalition co-secret\nLIST pb1\n"
    process_one(ctx, Box(), fetched(1, listing, "co@example.org"), due)
    process_one(ctx, Box(), fetched(2, listing, "co@example.org"), due)
    assert len(checks) == 1  # once for the batch: nothing changed between the two
    process_one(ctx, Box(), fetched(3, f"GAME pb1\nMODERATOR {MOD_PASSWORD}\nADJUDICATE NOW\n",
                                    MOD), due)
    with session_scope(ctx.engine) as s:
        assert current_phase(s, "pb1").phase_id != "1700-autumn-action-roll"  # it closed
    process_one(ctx, Box(), fetched(4, listing, "co@example.org"), due)
    assert len(checks) == 2, "the mail after ADJUDICATE NOW was not checked again"


def test_after_a_second_the_check_is_asked_again_for_phases_another_instance_opened(
        ctx: ServiceContext, checks: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    baltica(ctx)
    due = DueCheck(ctx)
    listing = "GAME pb1\nPOWER coalition co-secret\nLIST pb1\n"
    process_one(ctx, Box(), fetched(1, listing, "co@example.org"), due)
    process_one(ctx, Box(), fetched(2, listing, "co@example.org"), due)
    assert len(checks) == 1
    monkeypatch.setattr(gm.daemon, "DUE_RECHECK_SECONDS", 0.0)  # as if the second had passed
    process_one(ctx, Box(), fetched(3, listing, "co@example.org"), due)
    assert len(checks) == 2
