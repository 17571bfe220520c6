"""How many SQL statements closing one phase costs (issue 21: a deadline storm closes a
thousand), and that the fewer statements change nothing anyone receives. Not timed: counted."""

from __future__ import annotations

from sqlmodel import col, select

from gm.db.engine import session_scope
from gm.db.models import EventLog, Report
from gm.service.adjudicate import close_phase
from tests.pipeline.test_statements_per_mail import counted
from tests.schedule.support import body, new_game, order, outbox, phase

MAX_STATEMENTS = 21
"""A close's statements, its events' INSERTs aside: the claim, game, phase, seats, orders (south
sent none: its versions read, its default orders stored, its missed count written),
the events' last number, the phase closed, the next number, the next phase, the closed
phase's events, the rulings, the stored reports, the queued mails (one look-up for all), a
mail for each of the two seats and the moderator, the three report rows in one INSERT, the
held press. There were 31 (a look-up of each report and, twice, of each mail; the seats
twice), then 23 (a report row's INSERT each on SQLite)."""

EVENT_INSERTS = 2
"""The adjudication's events in one INSERT of many rows, the next phase's opening in one
(gm.service.phases.write_events), on both databases: each event was an ORM object flushed
alone (one INSERT each on SQLite, where the ORM's RETURNING of each id allows no batch)."""

REPORT_INSERTS = 1
"""The close's three report rows in one INSERT, after the mails (on SQLite: one each before)."""


def test_a_close_costs_a_bounded_number_of_statements_and_queues_each_report_once(ctx) -> None:  # type: ignore[no-untyped-def]
    new_game(ctx, default="72h")
    order(ctx, "north", 3)
    first = phase(ctx)
    with counted(ctx) as statements:
        assert close_phase(ctx, "race1", first.seq, by="test", reason="deadline").closed
    events = [s for s in statements if s.lstrip().upper().startswith("INSERT INTO EVENTLOG")]
    others = [s for s in statements if s not in events]
    assert len(others) <= MAX_STATEMENTS, "\n".join(" ".join(s.split())[:100] for s in others)
    with session_scope(ctx.engine) as s:
        logged = s.exec(select(EventLog).where(EventLog.phase_seq == first.seq)
                        .order_by(col(EventLog.id))).all()
        reports = s.exec(select(Report.power).where(Report.phase_seq == first.seq)).all()
    assert len(events) <= EVENT_INSERTS, len(events)
    assert len([s for s in others if "INSERT INTO REPORT" in s.upper()]) <= REPORT_INSERTS
    # the log's order is the order the events were added, with no gap in their numbers
    numbers = [e.seq for e in logged]
    assert numbers == sorted(numbers) and numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    assert [e.type for e in logged][:2] == ["phase.opened", "phase.adjudicated"]
    assert sorted(reports) == ["", "north", "south"]
    # closing it again does nothing: each report stored and mailed once
    assert not close_phase(ctx, "race1", first.seq, by="test", reason="deadline").closed
    mails = [m for m in outbox(ctx, "report") if m.subject.startswith("[race1] turn-2: report for")]
    assert sorted(tuple(m.recipients or []) for m in mails) == [
        ("mod@example.org",), ("n@example.org",), ("s@example.org",)]
    assert len({m.message_id for m in mails}) == 3
    north = next(m for m in mails if m.recipients == ["n@example.org"])
    assert "turn-1" in body(north) and "north" in body(north)


def test_the_sweep_probes_a_phase_in_the_closes_own_transaction_on_postgresql(ctx) -> None:  # type: ignore[no-untyped-def]
    """PostgreSQL: the probe (SKIP LOCKED) is the close's first statement, the claim follows in
    the same transaction (it was a transaction of its own: three round trips a phase).
    SQLite: the probe is a read of its own, committed before the claim, whose UPDATE must be
    the first statement of its transaction there."""
    from datetime import timedelta

    from sqlalchemy import event

    from gm.schedule.sweep import sweep

    new_game(ctx, default="72h")
    order(ctx, "north", 3)
    first = phase(ctx)
    assert first.deadline is not None
    ctx.clock.set(first.deadline + timedelta(days=1))
    seen: list[str] = []

    def statement(_conn, _cursor, sql: str, *_args) -> None:  # type: ignore[no-untyped-def]
        seen.append(" ".join(sql.split()).upper())

    def commit(_conn) -> None:  # type: ignore[no-untyped-def]
        seen.append("COMMIT")

    event.listen(ctx.engine, "before_cursor_execute", statement)
    event.listen(ctx.engine, "commit", commit)
    try:
        report = sweep(ctx)
    finally:
        event.remove(ctx.engine, "before_cursor_execute", statement)
        event.remove(ctx.engine, "commit", commit)
    assert [c.game_id for c in report.closed] == ["race1"]
    probe = next(i for i, s in enumerate(seen) if "SKIP LOCKED" in s or
                 (s.startswith("SELECT PHASE.ID FROM PHASE WHERE PHASE.ID =") and "STATE" in s))
    claim = next(i for i, s in enumerate(seen) if s.startswith("UPDATE PHASE SET STATE="))
    between = seen[probe + 1:claim]
    if ctx.engine.dialect.name == "postgresql":
        assert between == [], between
    else:
        assert between == ["COMMIT"], between
