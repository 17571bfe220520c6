"""When the daemon must next sweep: read from the phases table, no second thread.

The daemon has one loop and no scheduler thread (docs/scheduling.md, "Why no
scheduler thread"). After each round it asks :func:`wakeups` for every
moment something falls due (each open phase's deadline plus grace, each
reminder not yet sent) and waits for mail at most until the earliest of them.
A moment that a sweep has already tried and that is still there (the phase
was lost to another instance, or could not be closed) is *parked*: it no
longer wakes the loop, so a phase that keeps failing costs one try per
periodic sweep, never a tight loop.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session

from gm.clock import utc
from gm.db.claims import marker
from gm.schedule.phases import OpenPhase, open_phases
from gm.service.deadlines import format_duration

Wakeup = tuple[int, str, datetime]  # (phase row id, "due" or a reminder label, when)


def wakeups(rows: list[OpenPhase]) -> set[Wakeup]:
    """Every moment at which a sweep has something to do for ``rows``."""
    out: set[Wakeup] = set()
    for row in rows:
        out.add((row.pk, "due", row.due_at()))
        for off in row.policy.reminders:
            label = format_duration(off)
            at = row.deadline - off
            if at < row.deadline and marker(label, row.deadline) not in row.marks:
                out.add((row.pk, label, at))
    return out


@dataclass
class WakeClock:
    """The loop's alarm: what is due now, and how long it may sleep."""

    parked: set[Wakeup] = field(default_factory=set)
    pending: set[Wakeup] = field(default_factory=set)

    def refresh(self, session: Session) -> None:
        """Re-read the moments from the database (after a sweep or a round of mail)."""
        self.pending = wakeups(open_phases(session)) - self.parked

    def due(self, now: datetime) -> bool:
        """Is any moment not yet tried at or before ``now``?"""
        return any(at <= utc(now) for _, _, at in self.pending)

    def swept(self, session: Session, now: datetime, *, periodic: bool) -> None:
        """After a sweep: park what it tried and left (a periodic sweep first frees the parked)."""
        if periodic:
            self.parked.clear()
        self.refresh(session)
        self.parked |= {w for w in self.pending if w[2] <= utc(now)}
        self.pending -= self.parked

    def seconds_until_next(self, now: datetime) -> float | None:
        """Seconds (by the context's clock) until the earliest pending moment; None if none."""
        if not self.pending:
            return None
        return max(0.0, (min(at for _, _, at in self.pending) - utc(now)).total_seconds())
