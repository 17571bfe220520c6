"""Absences: ``ABSENT 2026-12-20 TO 2027-01-03`` and the game's policy for them.

The mail pipeline records a declaration with :func:`record_absence`. The
sweep applies the game's ``deadlines.absence`` policy to an absent power that
owes orders and has sent none, for a deadline that falls on a day of its
absence (dates are inclusive, read in the game's deadline time zone):

* ``extend``: when the phase falls due, its deadline moves so that the power
  gets the phase's full length after its return (the next allowed slot of
  ``deadline_for(kind, return day 00:00)``); the moderator is told.
  (Pax Britannica PBEM rules, "Deadlines and Adjudication reports": "The GM
  should endeavour to extend deadlines where it is impossible to obtain
  orders from a player e.g. holidays, illness, etc.")
* ``default``: nothing changes; the power gets its default orders.
* ``ask``: the moderator is told once, at the first reminder time (or a day
  before the deadline), and decides (EXTEND, or let the defaults stand).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from sqlmodel import Session, col, select

from gm.clock import utc
from gm.db.claims import lock_open_phase, marker, stamp
from gm.db.engine import session_scope
from gm.db.models import Phase
from gm.db.schedule_tables import Absence
from gm.i18n import msg, translate, when
from gm.schedule.phases import OpenPhase, owed
from gm.service.context import ServiceContext
from gm.service.deadlines import AbsencePolicy, deadline_for
from gm.service.games import get_game
from gm.service.notify import moderator_language, notify_moderator
from gm.service.reports import queue_deadline_moved

ASK_BEFORE = timedelta(hours=24)  # when no reminders are set


class AbsenceError(ValueError):
    """An ABSENT declaration that cannot be recorded (end before start)."""


@dataclass(frozen=True)
class AbsenceAct:
    game_id: str
    seq: int
    policy: AbsencePolicy
    powers: tuple[str, ...]
    new_deadline: datetime | None


def record_absence(session: Session, game_id: str, power: str, start: date, end: date, *,
                   at: datetime, inbound_id: int | None = None) -> Absence:
    """Store ``ABSENT start TO end`` for ``power`` (in the caller's transaction)."""
    if end < start:
        raise AbsenceError(f"ABSENT {start} TO {end}: the end is before the start")
    row = Absence(game_id=game_id, power=power, start=start, end=end, declared_at=at,
                  inbound_id=inbound_id)
    session.add(row)
    session.flush()
    return row


def games_with_absences(session: Session, on_or_after: date) -> set[str]:
    """Games with an absence not yet over (so the sweep looks only at those)."""
    q = select(Absence.game_id).where(col(Absence.end) >= on_or_after,
                                      col(Absence.cancelled).is_(False)).distinct()
    return set(session.exec(q))


def absent_on(session: Session, game_id: str, day: date) -> dict[str, date]:
    """Powers absent on ``day`` and the last day of their absence."""
    q = select(Absence).where(Absence.game_id == game_id, col(Absence.start) <= day,
                              col(Absence.end) >= day, col(Absence.cancelled).is_(False))
    out: dict[str, date] = {}
    for row in session.exec(q):
        out[row.power] = max(out.get(row.power, row.end), row.end)
    return out


def apply_absence(ctx: ServiceContext, row: OpenPhase) -> AbsenceAct | None:
    """Apply the game's absence policy to ``row`` if it is time to (once per deadline)."""
    pol = row.policy
    now = ctx.clock.now()
    if pol.absence is AbsencePolicy.DEFAULT:
        return None
    if pol.absence is AbsencePolicy.EXTEND and not row.due(now):
        return None
    ask_at = row.deadline - (pol.reminders[0] if pol.reminders else ASK_BEFORE)
    if pol.absence is AbsencePolicy.ASK and not ask_at <= utc(now) < row.due_at():
        return None
    tag = marker(f"absence-{pol.absence.value}", row.deadline)
    if tag in row.marks:
        return None
    with session_scope(ctx.engine) as session:
        phase = lock_open_phase(session, row.pk)
        if phase is None or tag in (phase.reminders_sent or []):
            return None
        day = row.deadline.astimezone(pol.timezone).date()
        away = absent_on(session, row.game_id, day)
        missing = {o.power: away[o.power] for o in owed(session, phase)
                   if o.power in away and not o.has_orders}
        if not missing:
            return None
        new = _extended(row, max(missing.values())) if pol.absence is AbsencePolicy.EXTEND else None
        if new is not None:
            phase.deadline = new
        phase.reminders_sent = [*(phase.reminders_sent or []), tag]
        session.add(phase)
        _tell(ctx, session, row, phase, missing, pol.absence, new)
        if new is not None:
            queue_deadline_moved(ctx, session, get_game(session, row.game_id), phase,
                                 msg("a player is away; the game's absence policy extends the deadline"))
        return AbsenceAct(row.game_id, row.seq, pol.absence, tuple(sorted(missing)), new)


def _extended(row: OpenPhase, last_day: date) -> datetime | None:
    back = datetime.combine(last_day + timedelta(days=1), time(0, 0), tzinfo=row.policy.timezone)
    new = deadline_for(row.settings, row.kind, back)
    return new if new is not None and new > row.deadline else None


def _tell(ctx: ServiceContext, session: Session, row: OpenPhase, phase: Phase,
          missing: dict[str, date], pol: AbsencePolicy, new: datetime | None) -> None:
    game = get_game(session, row.game_id)
    language = moderator_language(game)
    names = ", ".join(translate(msg("{power} (away until {day})", power=p, day=d.isoformat()),
                                language) for p, d in sorted(missing.items()))
    if pol is AbsencePolicy.EXTEND and new is not None:
        what = msg("By the game's absence policy the deadline moves to {deadline}.",
                   deadline=when(utc(new)))
    elif pol is AbsencePolicy.EXTEND:
        what = msg("The deadline cannot move later; the defaults apply.")
    else:
        what = msg("Decide: EXTEND the deadline, or do nothing and they get their default orders "
                   "at {deadline}.", deadline=when(utc(row.deadline)))
    notify_moderator(ctx, session, game,
                     msg("absent without orders for {phase}", phase=row.phase_id), [
                         msg("No orders for {phase} (deadline {deadline}) from: {names}.",
                             phase=row.phase_id, deadline=when(utc(row.deadline)), names=names),
                         what], key=f"absence:{row.game_id}:{row.seq}:{stamp(row.deadline)}",
                     phase_bound=True)
