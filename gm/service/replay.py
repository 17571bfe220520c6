"""Replaying a game from its log: the same states and the same rolls, or a list of differences.

Each done phase is adjudicated again from the state it opened with, the
orders that were adjudicated (defaults included) and the same dice (seed,
branch, supplied rolls). The result must equal the state the next phase
opened with, and the rolls must equal the logged ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, col, select

from gm.db.models import Game, Phase
from gm.service.adjudicate import dice_for
from gm.service.games import current_orders, module_of
from gm.service.phases import events_of


@dataclass
class PhaseReplay:
    seq: int
    phase_id: str
    state_matches: bool
    rolls_match: bool
    rolls: int
    differences: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.state_matches and self.rolls_match


def next_state(session: Session, phase: Phase) -> dict[str, Any] | None:
    """The state the phase after ``phase`` opened with (the stored outcome)."""
    row = session.exec(select(Phase).where(
        Phase.game_id == phase.game_id, Phase.seq > phase.seq).order_by(col(Phase.seq))).first()
    return row.game_state if row is not None else None


def replay_game(session: Session, game: Game) -> list[PhaseReplay]:
    """Re-adjudicate every phase that was adjudicated (rolled-back ones included)."""
    module = module_of(game)
    results = []
    phases = session.exec(select(Phase).where(
        Phase.game_id == game.id, col(Phase.state).in_(["done", "undone"]),
        Phase.adjudicated_at != None).order_by(col(Phase.seq)))  # noqa: E711
    for phase in phases:
        rows = current_orders(session, game.id, phase.seq)
        orders = {p: [module.order_from_json(o) for o in r.orders or []] for p, r in rows.items()
                  if r.orders or r.source != "flags"}
        dice = dice_for(game, phase)
        outcome = module.adjudicate(phase.game_state or {}, orders, dice)
        logged = [e.data for e in events_of(session, game.id, phase.seq, phase.dice_branch)
                  if e.type == "roll"]
        replayed = [{**r.to_json(), "phase_id": phase.phase_id} for r in dice.rolls]
        stored = next_state(session, phase)
        rp = PhaseReplay(phase.seq, phase.phase_id, stored == outcome.state, logged == replayed,
                         len(replayed))
        if not rp.state_matches:
            rp.differences.append(f"{phase.phase_id}: the replayed state differs from the stored one")
        if not rp.rolls_match:
            rp.differences.append(f"{phase.phase_id}: {len(replayed)} rolls replayed, "
                                  f"{len(logged)} logged, and they differ")
        results.append(rp)
    return results
