"""How many SQL statements closing one phase costs (issue 21: a deadline storm closes a
thousand), and that the fewer statements change nothing anyone receives. Not timed: counted."""

from __future__ import annotations

from sqlmodel import col, select

from gm.db.engine import session_scope
from gm.db.models import EventLog, Report
from gm.service.adjudicate import close_phase
from tests.pipeline.test_statements_per_mail import counted
from tests.schedule.support import body, new_game, order, outbox, phase, phases

MAX_STATEMENTS = 11
"""A close's statements, its events' INSERTs aside: the claim (which closes the row and reads the
game's last phase and event numbers), the game and its seats (one statement), orders (south
sent none: its versions read, its default orders stored, its missed count written), the next
phase, the closed phase's events, what is there already (the stored reports, the queued mails,
waiting rulings and held press: one statement), the mails of the two seats and the moderator in
one INSERT, the three report rows in one. There were 31 (a look-up of each report and, twice,
of each mail; the seats twice), then 23 (a report row's INSERT each on SQLite), then 21 (the
phase read again after its claim, the last phase and event numbers read, the phase closed, each
a statement), then 17 (an INSERT for each mail), then 15 (the rulings, the stored reports, the
queued mails and the held press, a look-up each), then 12 (the game and its seats read apart)."""

EVENT_INSERTS = 1
"""The close's events in one INSERT of many rows (gm.service.phases.write_events), on both
databases: each event was an ORM object flushed alone (one INSERT each on SQLite, where the
ORM's RETURNING of each id allows no batch), then the adjudication's and the next phase's
opening in one each."""

REPORT_INSERTS = 1
"""The close's three report rows in one INSERT, after the mails (on SQLite: one each before)."""

MAIL_INSERTS = 1
"""The close's three report mails in one INSERT (gm.service.outbox.insert_rows; was one each)."""


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
    assert len([s for s in others if "INSERT INTO OUTBOUNDMAIL" in s.upper()]) <= MAIL_INSERTS
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
    """PostgreSQL: the probe (SKIP LOCKED) is inside the claim, the close's first statement (it
    was a transaction of its own: three round trips a phase; then a statement of its own).
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
    if ctx.engine.dialect.name == "postgresql":
        assert probe == claim, seen[probe]
    else:
        between = seen[probe + 1:claim]
        assert between == ["COMMIT"], between


def test_a_phase_whose_row_another_instance_holds_is_passed_over_at_once(ctx) -> None:  # type: ignore[no-untyped-def]
    """PostgreSQL: while another transaction holds the phase row (another instance closing it),
    the sweep's claim skips it (counted as lost, nothing closed, no waiting behind the lock);
    once that transaction ends, the next sweep closes it. SQLite has no row locks."""
    from dataclasses import replace
    from datetime import timedelta

    import pytest
    from sqlalchemy import text

    from gm.db.engine import make_engine
    from gm.schedule.sweep import sweep

    if ctx.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has no row locks: one daemon per file (test_two_daemons.py)")
    new_game(ctx, default="72h")
    first = phase(ctx)
    assert first.deadline is not None
    ctx.clock.set(first.deadline + timedelta(days=1))
    # the sweep's own connections give up after 5 s behind a lock: a claim that waited for
    # the row, instead of passing it over, fails here instead of hanging the test
    waiting = replace(ctx, engine=make_engine(
        ctx.engine.url.update_query_dict({"options": "-c lock_timeout=5000"})
        .render_as_string(hide_password=False)))
    with ctx.engine.connect() as other:
        other.execute(text("SELECT id FROM phase WHERE id = :pk FOR UPDATE"), {"pk": first.id})
        held = sweep(waiting)
        assert (held.closed, held.lost) == ([], 1)
        other.rollback()
    assert [c.game_id for c in sweep(waiting).closed] == ["race1"]
    waiting.engine.dispose()


def test_the_claim_reads_the_last_phase_and_event_numbers_of_its_own_game(ctx) -> None:  # type: ignore[no-untyped-def]
    """The claim returns the game's last phase and event numbers (issue 21: they were two
    queries of their own): another game's, further on, must not leak into them."""
    new_game(ctx, "race1", default="72h")
    new_game(ctx, "race2", default="72h")
    for _ in range(2):  # race1 two phases ahead of race2, with more events
        assert close_phase(ctx, "race1", phase(ctx, "race1").seq, by="test").closed
    assert close_phase(ctx, "race2", phase(ctx, "race2").seq, by="test").closed
    assert [p.seq for p in phases(ctx, "race2")] == [0, 1]
    with session_scope(ctx.engine) as s:
        numbers = list(s.exec(select(EventLog.seq).where(EventLog.game_id == "race2")
                              .order_by(col(EventLog.id))))
    assert numbers == list(range(1, len(numbers) + 1))


def test_a_claim_in_turn_takes_the_first_phase_open_and_free(ctx) -> None:  # type: ignore[no-untyped-def]
    """PostgreSQL, the sweep's claim (gm.service.adjudicate.close_first_free): of the phases
    given, in their order, it passes over one another transaction holds and one already
    closed, in one statement, and closes the first open and free one; then finds none."""
    import pytest
    from sqlalchemy import text

    from gm.service.adjudicate import close_first_free

    if ctx.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has no row locks: its sweep probes each phase (test_two_daemons.py)")
    for game in ("race1", "race2", "race3", "race4"):
        new_game(ctx, game, default="72h")
    pks = [phase(ctx, g).id for g in ("race1", "race2", "race3", "race4")]
    assert close_phase(ctx, "race2", 0, by="other").closed  # closed by another instance
    with ctx.engine.connect() as other:
        other.execute(text("SELECT id FROM phase WHERE id = :pk FOR UPDATE"), {"pk": pks[0]})
        taken: list[int] = []
        with counted(ctx) as statements:
            first = close_first_free(ctx, pks, by="test", reason="deadline", taken=taken)
        assert first is not None and first.closed and first.game_id == "race3"
        assert taken == [pks[2]]
        claims = [s for s in statements if s.lstrip().upper().startswith("UPDATE PHASE")]
        assert len(claims) == 1 and "SKIP LOCKED" in claims[0].upper()
        again: list[int] = []
        assert close_first_free(ctx, pks[:3], by="test", reason="deadline", taken=again) is None
        assert again == []
        other.rollback()
    assert [p.state for p in phases(ctx, "race1")] == ["open"]
    assert [p.state for p in phases(ctx, "race4")] == ["open"]
