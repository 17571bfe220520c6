"""What the scheduler reads: the open phases and who still owes orders."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from sqlalchemy import select
from sqlmodel import Session, col

from gm.clock import utc
from gm.db.claims import marker
from gm.db.models import Game, OrderSet, Phase
from gm.service.deadlines import DeadlinePolicy, policy
from gm.service.games import current_orders


@dataclass(frozen=True)
class OpenPhase:
    """A snapshot of one open, released phase of a running game that has a deadline."""

    pk: int
    game_id: str
    seq: int
    phase_id: str
    kind: str
    deadline: datetime
    marks: frozenset[str]
    settings: dict[str, Any] = field(hash=False, compare=False)
    owes: bool = True  # someone owes orders (False: a die-rolling step)
    ended: bool = False  # the game's last phase (gm.games.base.PhaseInfo.ended)

    @cached_property
    def policy(self) -> DeadlinePolicy:
        return policy(self.settings)

    def due_at(self) -> datetime:
        """Deadline plus grace; no grace once every power said READY (early adjudication), nor
        for a phase nobody owes orders in (grace is for late orders: a die roll is due at once)."""
        if not self.owes or marker("early", self.deadline) in self.marks:
            return self.deadline
        return self.deadline + self.policy.grace

    def due(self, now: datetime) -> bool:
        return self.due_at() <= utc(now)


def open_phases(session: Session, game_id: str | None = None, *,
                deadline_from: datetime | None = None,
                deadline_to: datetime | None = None) -> list[OpenPhase]:
    """Every open, released phase with a deadline, of a running game not held (optionally filtered)."""
    # sqlalchemy's select: sqlmodel's is typed for at most four columns
    q = (select(col(Phase.id), col(Phase.game_id), col(Phase.seq), col(Phase.phase_id),
               col(Phase.kind), col(Phase.deadline), col(Phase.reminders_sent),
               col(Game.settings), col(Phase.info))
         .join(Game, col(Game.id) == col(Phase.game_id))
         .where(col(Phase.state) == "open", col(Phase.released).is_(True),
                col(Phase.deadline).is_not(None), col(Game.status) == "running",
                col(Game.hold_reason) == ""))
    if game_id is not None:
        q = q.where(col(Phase.game_id) == game_id)
    if deadline_from is not None:
        q = q.where(col(Phase.deadline) > deadline_from)
    if deadline_to is not None:
        q = q.where(col(Phase.deadline) <= deadline_to)
    return [OpenPhase(pk, g, seq, pid, kind, utc(deadline), frozenset(marks or ()), settings or {},
                      bool((info or {}).get("owing")), bool((info or {}).get("ended")))
            for pk, g, seq, pid, kind, deadline, marks, settings, info in session.execute(q)]


def has_orders(row: OrderSet | None) -> bool:
    """A set that holds only READY/WAIT flags is no orders (as close_phase counts it)."""
    return row is not None and (bool(row.orders) or row.source != "flags")


@dataclass(frozen=True)
class Owed:
    """One power that owes orders for a phase, and where it stands."""

    power: str
    has_orders: bool
    ready: bool
    wait: bool


def owed(session: Session, phase: Phase) -> list[Owed]:
    """Every power that owes orders for ``phase``, with its current orders' flags."""
    current = current_orders(session, phase.game_id, phase.seq)
    out = []
    for power in (phase.info or {}).get("owing", []):
        row = current.get(power)
        out.append(Owed(power, has_orders(row), bool(row and row.ready), bool(row and row.wait)))
    return out
