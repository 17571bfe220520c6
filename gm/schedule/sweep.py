"""The sweep: everything that is due, done once, whichever instance runs it.

``sweep(ctx)`` is what the daemon runs when a deadline falls due and
periodically (gm.daemon, gm.schedule.wakeup). It is safe to run
from any number of instances at once, as often as one likes:

1. heartbeat and outage policy (:mod:`gm.schedule.outage`);
2. absences (:mod:`gm.schedule.absences`) and reminders (:mod:`gm.schedule.reminders`),
   each once per deadline, under the phase row's lock;
3. every due phase (open, released, game running, deadline + grace passed) is
   handed to ``close_phase``, whose conditional UPDATE decides who adjudicates.
   Each instance walks the due phases in its own order (a hash of its name), passing
   over phases another instance is adjudicating right now instead of queueing behind
   them: on PostgreSQL each claim takes the first of the next few due phases that is
   open and free (``FOR UPDATE SKIP LOCKED`` inside the claim's UPDATE); on SQLite a
   read of its own probes each row before its claim (whose UPDATE must be the first
   statement of its transaction there);
4. NMR warnings for the powers that just defaulted (:mod:`gm.schedule.nmr`).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy.exc import InterfaceError, OperationalError

from gm.db.claims import probe_free
from gm.db.engine import session_scope
from gm.schedule.absences import AbsenceAct, apply_absence, games_with_absences
from gm.schedule.nmr import warn_missed
from gm.schedule.outage import Outage, OutageAct, beat_and_handle
from gm.schedule.phases import OpenPhase, open_phases
from gm.schedule.ready import recheck_early
from gm.schedule.reminders import ReminderSent, pending, send_reminders
from gm.service.adjudicate import CloseResult, close_first_free, close_phase
from gm.service.context import ServiceContext

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Closed:
    game_id: str
    seq: int
    phase_id: str
    next_phase_id: str
    defaulted: tuple[str, ...]


@dataclass(frozen=True)
class Problem:
    """A due phase this sweep could not close (it stays open; the next sweep retries)."""

    game_id: str
    seq: int
    reason: str


@dataclass
class SweepReport:
    """What one sweep of one instance did."""

    instance: str
    closed: list[Closed] = field(default_factory=list)
    lost: int = 0  # due phases another instance was closing or had closed
    reminders: list[ReminderSent] = field(default_factory=list)
    outage: Outage | None = None
    outage_acts: list[OutageAct] = field(default_factory=list)
    absence_acts: list[AbsenceAct] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    nmr_warned: list[tuple[str, str]] = field(default_factory=list)
    waiting: int = 0  # due phases left open until the mailbox is read as it stood then

    def closed_lines(self) -> list[str]:
        """The log's line for each phase this sweep closed, in words a host reads in
        journald (deploy/README.md, "Logs")."""
        return [f"{c.game_id}: {c.phase_id} closed at its deadline"
                + (f" (defaults for {', '.join(c.defaulted)})" if c.defaulted else "")
                + (f"; {c.next_phase_id} opens" if c.next_phase_id else "")
                for c in self.closed]

    def problem_lines(self) -> list[str]:
        """The log's line for each due phase this sweep could not close."""
        return [f"{p.game_id}: phase {p.seq} is due but was not closed ({p.reason}); the next "
                "sweep tries again" for p in self.problems]


def sweep(ctx: ServiceContext, *, game_id: str | None = None,
          read: datetime | None = None) -> SweepReport:
    """Do everything that is due now (all games, or one); idempotent and concurrency-safe.

    ``read``: every mail that reached the mailbox before this time is handled
    (gm.pipeline.arrival.MailboxReads; None: no mailbox to wait for). A phase whose players
    owe orders and that fell due after it is left open for now: orders that arrived in time
    may still be in the mailbox (the daemon reads it and sweeps again at once)."""
    report = SweepReport(ctx.instance)
    report.outage, report.outage_acts = beat_and_handle(ctx)
    rows = _rows(ctx, game_id)
    if _absences(ctx, rows, report):
        rows = _rows(ctx, game_id)
    now = ctx.clock.now()
    for row in rows:
        if not row.due(now) and pending(row, now):
            try:
                sent = send_reminders(ctx, row)
            except (OperationalError, InterfaceError):
                raise
            except Exception as exc:  # one game's broken reminder must not stop the others
                log.exception("reminders of %s phase %s failed", row.game_id, row.seq)
                report.problems.append(Problem(row.game_id, row.seq, f"reminder: {exc!r}"))
                continue
            if sent is not None:
                report.reminders.append(sent)
    due = [r for r in rows if r.due(now)]
    ready = [r for r in due if read_through(r, read)]
    report.waiting = len(due) - len(ready)
    _close_all(ctx, order_for(ctx.instance, ready), report)
    return report


def read_through(row: OpenPhase, read: datetime | None) -> bool:
    """Whether the mailbox was read far enough to close ``row`` once due: every mail that
    reached it by the phase's due time is handled (a die-rolling step waits for no mail)."""
    return read is None or not row.owes or row.due_at() <= read


def close_due_without_orders(ctx: ServiceContext) -> list[Closed]:
    """Close every due phase that nobody owes orders in (a die-rolling step), before mail.

    Mail is meant for the phase that follows such a step (Pax Baltica's action
    roll): it must find that phase open, never be refused as too late for a
    phase nobody orders in. The mail pipeline calls this before each mail; it
    costs one indexed query when nothing is due.
    """
    now = ctx.clock.now()
    with session_scope(ctx.engine) as session:
        rows = open_phases(session, deadline_to=now)
    report = SweepReport(ctx.instance)
    _close_all(ctx, order_for(ctx.instance, [r for r in rows
                                             if not r.owes and not r.ended and r.due(now)]),
               report)
    return report.closed


def _rows(ctx: ServiceContext, game_id: str | None) -> list[OpenPhase]:
    with session_scope(ctx.engine) as session:
        return open_phases(session, game_id)


def _absences(ctx: ServiceContext, rows: list[OpenPhase], report: SweepReport) -> bool:
    with session_scope(ctx.engine) as session:
        games = games_with_absences(session, (ctx.clock.now() - timedelta(days=1)).date())
    for row in rows:
        if row.game_id in games and (act := apply_absence(ctx, row)) is not None:
            report.absence_acts.append(act)
    return bool(report.absence_acts)


def order_for(instance: str, rows: list[OpenPhase]) -> list[OpenPhase]:
    """``rows`` in this instance's own order, so two instances start at different games."""
    def key(row: OpenPhase) -> bytes:
        return hashlib.blake2b(f"{instance}|{row.pk}".encode(), digest_size=8).digest()

    return sorted(rows, key=key)


def _close_all(ctx: ServiceContext, rows: list[OpenPhase], report: SweepReport) -> None:
    """Close the due ``rows``, in their order: on PostgreSQL in turn (:func:`_close_in_turn`),
    on SQLite one by one after a probe each."""
    if ctx.engine.dialect.name == "postgresql":
        _close_in_turn(ctx, rows, report)
        return
    for row in rows:
        _close(ctx, row, report)


WINDOW = 16
"""On PostgreSQL, how many of the due phases next in an instance's order one claim looks among."""


def _close_in_turn(ctx: ServiceContext, rows: list[OpenPhase], report: SweepReport) -> None:
    """PostgreSQL: each close claims the first of the next :data:`WINDOW` due phases that is
    still open and that no other instance is closing right now (gm.service.adjudicate.
    close_first_free); a window where none is left was closed by others (lost).

    Issue 21: walking the due phases one by one, each instance of two came to half of them
    after the other had closed them, and found that out with a claim and a read each (~500 an
    instance in a storm of 1,000 games, its CPU a game 15% above one instance's)."""
    by_pk = {r.pk: r for r in rows}
    todo = [r.pk for r in rows if recheck_early(ctx, r)]
    while todo:
        window, taken = todo[:WINDOW], list[int]()
        try:
            result = close_first_free(ctx, window, by=ctx.instance, reason="deadline", taken=taken)
        except (OperationalError, InterfaceError):
            raise  # the database is gone: the daemon waits and sweeps again
        except Exception as exc:  # one broken game must not stop the others
            if not taken:
                raise
            todo.remove(taken[0])
            _failed(by_pk[taken[0]], exc, report)
            continue
        if result is None:
            report.lost += len(window)
            del todo[:len(window)]
            continue
        todo.remove(taken[0])
        _record(ctx, by_pk[taken[0]], result, report)


def _close(ctx: ServiceContext, row: OpenPhase, report: SweepReport) -> None:
    """SQLite: probe the row in a read of its own (a transaction that reads first cannot take
    the write lock safely later), then close it."""
    if not recheck_early(ctx, row):
        return
    with session_scope(ctx.engine) as session:
        if not probe_free(session, row.pk):
            report.lost += 1
            return
    try:
        result = close_phase(ctx, row.game_id, row.seq, by=ctx.instance, reason="deadline")
    except (OperationalError, InterfaceError):
        raise  # the database is gone: the daemon waits and sweeps again
    except Exception as exc:  # one broken game must not stop the others
        _failed(row, exc, report)
        return
    _record(ctx, row, result, report)


def _failed(row: OpenPhase, exc: Exception, report: SweepReport) -> None:
    log.exception("closing %s phase %s failed", row.game_id, row.seq, exc_info=exc)
    report.problems.append(Problem(row.game_id, row.seq, f"{type(exc).__name__}: {exc}"))


def _record(ctx: ServiceContext, row: OpenPhase, result: CloseResult, report: SweepReport) -> None:
    """What closing ``row`` came to, in the report; the moderator told of NMRs."""
    if result.problem:
        report.problems.append(Problem(row.game_id, row.seq, result.problem))
    elif not result.closed:
        report.lost += 1
        return
    if result.closed:
        report.closed.append(Closed(row.game_id, row.seq, result.phase_id, result.next_phase_id,
                                    result.defaulted))
        for power in warn_missed(ctx, row.game_id, row.seq, result.phase_id, result.defaulted):
            report.nmr_warned.append((row.game_id, power))
