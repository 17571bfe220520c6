"""The due-phase check before a mail, asked once per batch (gm.daemon.DueCheck, issue 21), is
asked again as soon as its answer may have changed: a deadline passed, or a mail changed phases.
Counted by what the mails find, not timed."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import event

from gm.daemon import DueCheck, process_one
from gm.db.engine import session_scope
from gm.mail.types import FetchedMail
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game, current_phase
from tests.pipeline.conftest import mail, outbox

MOD = "mod@example.org"


class Box:
    def mark_handled(self, items: list[FetchedMail]) -> None:
        return None


def baltica(ctx: ServiceContext) -> None:
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pb1", module_name="baltica", scenario="12.1",
                    seats=[SeatSpec("sweden", "sw@example.org", password="sw-secret"),
                           SeatSpec("coalition", "co@example.org", password="co-secret")],
                    moderator_address=MOD, seed=bytes([1]) * 32,  # Sweden acts first
                    settings={"deadlines": {"outage_threshold": "365d"}})
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
