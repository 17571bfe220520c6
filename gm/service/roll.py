"""The roll call of a phase: who owes orders, who has orders in, who is READY, who is late.

Read by ``LIST`` (answered to anyone, so it names powers only, never an order or an
address: orders.md §1) and by the moderator's ``gm game show``. A power is *late*
when it owes orders, has none on file, has not said READY (which accepts the
defaults), and the deadline has passed or a reminder for the current deadline has
gone out (gm.schedule.reminders).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from gm.clock import utc
from gm.db.claims import stamp
from gm.db.models import Game, Phase
from gm.service.games import current_orders, current_phase, phase_info


@dataclass(frozen=True)
class PowerRoll:
    power: str
    submitted: bool  # orders on file for the phase (an empty set stored by READY is not)
    ready: bool
    late: bool
    owes: bool  # the phase waits for this power (it may order without owing otherwise)

    @property
    def waiting(self) -> bool:
        """Owes orders and is not READY: the phase may still wait for it."""
        return self.owes and not self.ready


@dataclass(frozen=True)
class Roll:
    game_id: str
    phase: str
    deadline: datetime | None
    state: str  # the phase's state (open, adjudicating, ...)
    held: bool  # a preview the moderator reviews: its id and deadline are not public yet
    powers: tuple[PowerRoll, ...]  # the powers that owe or may order, in the phase's order

    def names(self, which: str) -> list[str]:
        """The powers with ``which`` (submitted, ready, late, waiting) true."""
        return [p.power for p in self.powers if getattr(p, which)]


def _reminded(phase: Phase) -> bool:
    """Whether a reminder for the phase's current deadline has gone out."""
    if phase.deadline is None:
        return False
    tail = "@" + stamp(phase.deadline)
    return any(m.endswith(tail) and not m.startswith(("early", "before-early"))
               for m in phase.reminders_sent or [])


def roll_call(session: Session, game: Game, now: datetime) -> Roll:
    """The roll call of ``game``'s current phase at ``now``."""
    phase = current_phase(session, game.id)
    info = phase_info(phase)
    on_file = current_orders(session, game.id, phase.seq)
    past = phase.deadline is not None and utc(phase.deadline) <= utc(now)
    reminded = _reminded(phase)
    rows = []
    for power in dict.fromkeys(info.owing + info.may_order):
        row = on_file.get(power)
        submitted = bool(row and (row.text.strip() or row.orders))
        owes = power in info.owing
        rows.append(PowerRoll(power, submitted, bool(row and row.ready),
                              owes and phase.state == "open" and not submitted
                              and not (row and row.ready) and (past or reminded), owes))
    held = phase.state == "open" and not phase.released
    return Roll(game.id, phase.phase_id, phase.deadline, phase.state, held, tuple(rows))


@dataclass(frozen=True)
class GameLine:
    game_id: str
    module: str
    scenario: str
    status: str
    phase: str
    deadline: datetime | None


def game_lines(session: Session) -> list[GameLine]:
    """Every game of this instance that has not ended, by id, with its phase and deadline."""
    out = []
    from gm.service.forming import open_seats

    for game in session.exec(select(Game).where(Game.status != "ended").order_by(col(Game.id))):
        if game.status == "forming":  # no phase yet: its open seats instead
            out.append(GameLine(game.id, game.module, game.scenario, "forming",
                                "open: " + ", ".join(open_seats(session, game)), None))
            continue
        phase = current_phase(session, game.id)
        held = phase.state == "open" and not phase.released  # its id would tell a result
        out.append(GameLine(game.id, game.module, game.scenario,
                            "held" if game.hold_reason else game.status,
                            "" if held else phase.phase_id, None if held else phase.deadline))
    return out
