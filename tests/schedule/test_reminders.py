"""Reminders before the deadline: only to powers that owe orders, each once."""

from __future__ import annotations

import email
from datetime import timedelta
from email.policy import default

import pytest

from gm.db.engine import session_scope
from gm.schedule.sweep import sweep
from gm.service.games import create_game
from tests.schedule.support import SEATS, body, flags, new_game, order, outbox, phase
from tests.support.moderator_notice import assert_in, moderator_speaks

H = timedelta(hours=1)


def test_reminders_go_to_missing_powers_only_once_each_with_a_summary(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="72h", reminders=["24h", "2h"])
    deadline = phase(ctx).deadline
    order(ctx, "north")
    ctx.clock.set(deadline - 25 * H)
    assert sweep(ctx).reminders == []
    ctx.clock.set(deadline - 24 * H)
    sent = sweep(ctx).reminders
    assert [(r.label, r.powers) for r in sent] == [("1d", ("south",))]
    assert sweep(ctx).reminders == []  # once
    mails = outbox(ctx, "reminder")
    assert [m.recipients for m in mails] == [["s@example.org"]]
    text = body(mails[0])
    assert text.startswith("==== gm reminder race1 turn-1 ====")
    assert "south n'a pas d'ordres pour turn-1" in text  # the seat's language
    assert mails[0].subject == "[race1] rappel : turn-1 se termine dans 1 jour"
    html = email.message_from_bytes(mails[0].raw, policy=default).get_body(("html",))
    assert html is not None, "a reminder carries an HTML part like every other mail"
    page = html.get_content()  # type: ignore[attr-defined]
    assert "Rappel : south n&#39;a pas d&#39;ordres pour turn-1" in page or \
        "Rappel : south n'a pas d'ordres pour turn-1" in page
    assert "<script" not in page
    summary = [m for m in outbox(ctx, "notice") if "missing" in m.subject]
    assert len(summary) == 1 and summary[0].recipients == ["mod@example.org"]
    assert "- south: no orders (s@example.org)" in body(summary[0])
    ctx.clock.set(deadline - 2 * H)
    assert [r.label for r in sweep(ctx).reminders] == ["2h"]
    assert len(outbox(ctx, "reminder")) == 2


def test_nobody_missing_means_no_reminder_mail(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, reminders=["24h"])
    order(ctx, "north")
    order(ctx, "south")
    ctx.clock.set(phase(ctx).deadline - 2 * H)
    assert [r.powers for r in sweep(ctx).reminders] == [()]
    assert outbox(ctx, "reminder") == []
    assert not [m for m in outbox(ctx, "notice") if "missing" in m.subject]  # nor a summary
    assert sweep(ctx).reminders == []


def test_after_a_gap_only_the_latest_due_reminder_goes_out(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="72h", reminders=["24h", "2h"])
    ctx.clock.set(phase(ctx).deadline - H)
    assert [r.label for r in sweep(ctx).reminders] == ["2h"]
    assert sorted(m.recipients[0] for m in outbox(ctx, "reminder")) == [  # type: ignore[index]
        "n@example.org", "s@example.org"]
    assert sweep(ctx).reminders == []


def test_not_ready_policy_also_reminds_powers_whose_orders_are_not_ready(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, reminders=["2h"], remind="not_ready")
    order(ctx, "north")
    order(ctx, "south")
    flags(ctx, "south", ready=True)
    ctx.clock.set(phase(ctx).deadline - H)
    assert [r.powers for r in sweep(ctx).reminders] == [("north",)]
    assert "orders not marked READY" in body(outbox(ctx, "reminder")[0])


def test_a_moved_deadline_gets_fresh_reminders(ctx) -> None:  # type: ignore[no-untyped-def]
    """A deadline moved 48 h (by any means: the row itself is changed here) gets its reminders
    again: the reminders already sent are marked with the deadline they were for."""
    from gm.db.engine import session_scope
    from gm.service.games import current_phase

    new_game(ctx, reminders=["2h"])
    deadline = phase(ctx).deadline
    ctx.clock.set(deadline - H)
    assert len(sweep(ctx).reminders) == 1
    with session_scope(ctx.engine) as s:  # the deadline moved, not through EXTEND
        current_phase(s, "race1").deadline = deadline + 48 * H
    ctx.clock.set(deadline + 47 * H)
    assert len(sweep(ctx).reminders) == 1
    assert len(outbox(ctx, "reminder")) == 4


def test_reminders_are_on_by_default_24h_and_2h_before_to_owing_powers_only(ctx) -> None:  # type: ignore[no-untyped-def]
    """Issue 19: reminders on by default (24 h and 2 h before, to owing powers only)."""
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="race1", module_name="race", scenario="duel", seats=SEATS,
                    moderator_address="mod@example.org", seed=b"\x02" * 32,
                    settings={"deadlines": {"default": "72h"}})
    order(ctx, "north")
    deadline = phase(ctx).deadline
    ctx.clock.set(deadline - 24 * H)
    assert [(r.label, r.powers) for r in sweep(ctx).reminders] == [("1d", ("south",))]
    ctx.clock.set(deadline - 2 * H)
    assert [(r.label, r.powers) for r in sweep(ctx).reminders] == [("2h", ("south",))]
    assert [m.recipients for m in outbox(ctx, "reminder")] == [["s@example.org"]] * 2


def test_an_empty_reminder_list_turns_them_off(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="72h", reminders=[])
    ctx.clock.set(phase(ctx).deadline - H)
    assert sweep(ctx).reminders == [] and outbox(ctx, "reminder") == []


@pytest.mark.parametrize(("language", "subject", "line"), [
    ("en", "[race1] 1 missing for turn-1 (1 day left)", "- south: no orders (s@example.org)"),
    ("fr", "[race1] 1 manquant pour turn-1 (encore 1 jour)", "- south : aucun ordre (s@example.org)")])
def test_the_summary_and_its_subject_are_in_the_moderator_s_language(  # type: ignore[no-untyped-def]
        ctx, language: str, subject: str, line: str) -> None:
    new_game(ctx, default="72h", reminders=["24h"])
    moderator_speaks(ctx, "race1", language)
    order(ctx, "north")
    ctx.clock.set(phase(ctx).deadline - 24 * H)
    sweep(ctx)
    [summary] = outbox(ctx, "notice")
    assert summary.subject == subject
    assert line in body(summary)
    assert_in(language, body(summary))


def test_a_late_reminder_states_the_time_really_left(ctx) -> None:  # type: ignore[no-untyped-def]
    """After a pause the 2 h reminder goes out with 40 minutes left: it says 40 minutes."""
    new_game(ctx, default="72h", reminders=["24h", "2h"])
    ctx.clock.set(phase(ctx).deadline - timedelta(minutes=40))
    assert [r.label for r in sweep(ctx).reminders] == ["2h"]
    mails = outbox(ctx, "reminder")
    assert mails and all(m.subject.endswith("dans 40 minutes") or m.subject.endswith("in 40 minutes")
                         for m in mails), [m.subject for m in mails]
    assert all("40 minutes" in body(m) and " 2 hours" not in body(m) for m in mails)
    summary = [m for m in outbox(ctx, "notice") if "missing" in m.subject]
    assert summary and summary[0].subject.endswith("(40 minutes left)")


def test_a_reminder_gives_the_deadline_in_the_seats_own_time_zone(ctx) -> None:  # type: ignore[no-untyped-def]
    """South plays from Paris (seat time zone Europe/Paris, French): its reminder names the
    deadline's local time there, 13:00 CET, beside the UTC time."""
    from gm.l10n import moment

    new_game(ctx, default="48h", reminders=["2h"])
    deadline = phase(ctx).deadline
    ctx.clock.set(deadline - H)
    sweep(ctx)
    [to_south] = [m for m in outbox(ctx, "reminder") if m.recipients == ["s@example.org"]]
    paris = moment(deadline, "Europe/Paris", "fr")
    assert "13:00" in paris and "CET" in paris  # what the assertion below looks for
    assert paris in body(to_south)


def test_no_reminder_goes_out_once_the_deadline_has_passed_even_within_grace(ctx) -> None:  # type: ignore[no-untyped-def]
    """Reminders fall before the deadline. A first sweep in the grace period (the service was
    paused over both reminder times) sends none: no "closes in 1 minute" after it closed."""
    new_game(ctx, default="48h", grace="1h", reminders=["24h", "2h"])
    ctx.clock.set(phase(ctx).deadline + timedelta(minutes=30))
    assert sweep(ctx).reminders == []
    assert outbox(ctx, "reminder") == []
    assert not [m for m in outbox(ctx, "notice") if "missing" in m.subject]


def test_a_reminder_still_queued_when_its_phase_closes_is_withdrawn_not_sent_after_the_report(
        ctx, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Seen with the SMTP server down for a while: the reminder "[vik1] reminder:
    round-1-red closes in 1 hour", queued before the deadline, went out once the server
    was back, after the report of the phase that followed. It is withdrawn instead; the
    report goes. A real Pax Viking solo game."""
    import asyncio

    from gm.mail.file_sink import FileSink
    from gm.pipeline.dispatch import drain
    from gm.service.games import SeatSpec
    from tests.schedule.support import QUIET

    ctx.settings["draw_workers"] = 0
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="vik1", module_name="viking", scenario="1p",
                    seats=[SeatSpec("red", "red@example.org", password="r-secret")],
                    moderator_address="mod@example.org", play_out=True,
                    settings={"deadlines": {**QUIET, "default": "48h", "reminders": ["1h"]}})
    first = phase(ctx, "vik1")
    ctx.clock.set(first.deadline - timedelta(minutes=30))
    assert [r.powers for r in sweep(ctx).reminders] == [("red",)]  # queued; the server is down
    ctx.clock.set(first.deadline + timedelta(minutes=1))
    assert [c.phase_id for c in sweep(ctx).closed] == [first.phase_id]

    asyncio.run(drain(ctx, FileSink(tmp_path / "out")))  # the server is back
    subjects = [m.subject for m in outbox(ctx) if m.status == "sent"
                and m.recipients == ["red@example.org"]]
    assert f"[vik1] {phase(ctx, 'vik1').phase_id}: report for red" in subjects
    assert not any("reminder" in subject for subject in subjects), subjects
    assert [m.status for m in outbox(ctx, "reminder")] == ["withdrawn"]


def test_the_missing_orders_notice_queued_while_smtp_refuses_is_withdrawn_once_its_phase_closed(
        ctx) -> None:  # type: ignore[no-untyped-def]
    """Seen with the SMTP server down: the moderator's "[race1] 1 missing for turn-1 (1
    hour left)" went out once the server was back, after the phase it spoke of had
    closed, while the reminder beside it was withdrawn. Every mail only true while its
    phase is open is withdrawn alike; the report of the close goes. A real SMTP server
    (aiosmtpd), first not listening (connection refused), then accepting."""
    import asyncio

    from gm.mail.config import SmtpSettings, TlsMode
    from gm.mail.smtp_sink import SmtpSink
    from gm.pipeline.dispatch import drain
    from tests.support.servers import SmtpTestServer

    ctx.settings["draw_workers"] = 0
    server = SmtpTestServer()
    sink = SmtpSink(SmtpSettings(port=server.port, tls=TlsMode.NONE, timeout=5.0))
    new_game(ctx, default="48h", reminders=["1h"])
    first = phase(ctx)
    order(ctx, "north")
    ctx.clock.set(first.deadline - 30 * timedelta(minutes=1))
    assert [r.powers for r in sweep(ctx).reminders] == [("south",)]
    assert asyncio.run(drain(ctx, sink)) == 0  # nothing listens: refused, all wait
    ctx.clock.set(first.deadline + timedelta(minutes=1))
    assert [c.phase_id for c in sweep(ctx).closed] == [first.phase_id]

    server.start()
    try:
        ctx.clock.set(first.deadline + 3 * H)  # past every backoff
        asyncio.run(drain(ctx, sink))
    finally:
        server.stop()
    got = [email.message_from_bytes(m.raw, policy=default)["Subject"] for m in server.received]
    assert any("turn-1: report" in s or "turn-1 :" in s for s in got), got
    assert not any("missing" in s for s in got), got
    assert not any("rappel" in s for s in got), got
    missing = [m for m in outbox(ctx, "notice") if "missing" in m.subject]
    assert [m.status for m in missing] == ["withdrawn"]
    assert [m.status for m in outbox(ctx, "reminder")] == ["withdrawn"]
    assert not [m for m in outbox(ctx) if m.status == "queued"]
