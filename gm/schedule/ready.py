"""Early adjudication: every power that owes orders said READY and nobody said WAIT.

orders.md §1: "``READY`` / ``NOT READY``: my orders are final; when every
power due has said READY, nobody said WAIT and the game allows it,
adjudicate before the deadline". Game settings: ``deadlines.early`` (default
false) and ``deadlines.early_delay`` (default 0: at once). With a delay, the
deadline becomes now + delay (never later than it was) and the marker
``early@<new>`` removes the grace period; the old deadline is kept as
``before-early@<old>`` so that a ``NOT READY`` or ``WAIT`` before the early
deadline puts it back (:func:`recheck_early`, run by the sweep).
``deadlines.early_alone`` (default true, issue 19): a sequential phase that waits
for one power only closes at once on its READY, even without ``early``.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from gm.clock import utc
from gm.db.claims import lock_open_phase, marker
from gm.db.engine import session_scope
from gm.db.models import Game, Phase
from gm.schedule.phases import OpenPhase
from gm.service.adjudicate import close_phase
from gm.service.context import ServiceContext
from gm.service.deadlines import policy
from gm.service.games import current_orders, current_phase, get_game

_BEFORE = "before-early"


def all_ready(session: Session, phase: Phase) -> bool:
    """Every owing power READY (orders or not: READY accepts the defaults), nobody WAIT."""
    owing = (phase.info or {}).get("owing", [])
    current = current_orders(session, phase.game_id, phase.seq)
    if not owing or any(row.wait for row in current.values()):
        return False
    return all(p in current and current[p].ready for p in owing)


def _eligible(game: Game, phase: Phase) -> bool:
    if not (phase.state == "open" and phase.released and game.status == "running"):
        return False
    rules = policy(game.settings)
    return rules.early or (rules.early_alone and alone(phase))


def alone(phase: Phase) -> bool:
    """A sequential phase that waits for one power only: its READY closes the phase at
    once, whatever ``deadlines.early`` says, unless ``deadlines.early_alone = false``
    (issue 19: the judges' habit; nobody else has anything to wait for)."""
    info = phase.info or {}
    return not info.get("simultaneous", True) and len(info.get("owing", [])) == 1


def maybe_adjudicate_early(ctx: ServiceContext, game_id: str) -> bool:
    """Adjudicate now (or set the deadline to now + delay) if everyone owing is READY.

    Call it after storing a READY. Returns True when the phase was closed or
    its deadline brought forward; False when the game does not allow it, a
    power is not READY, someone said WAIT, or another caller got there first.
    """
    with session_scope(ctx.engine) as session:
        game = get_game(session, game_id)
        phase = current_phase(session, game_id)
        if not _eligible(game, phase) or not all_ready(session, phase):
            return False
        rules = policy(game.settings)
        seq, pk, delay = phase.seq, phase.id, rules.early_delay if rules.early else None
    if not delay:
        return close_phase(ctx, game_id, seq, by=ctx.instance, reason="every power READY").closed
    assert pk is not None
    return _bring_forward(ctx, pk, utc(ctx.clock.now()) + delay)


def _bring_forward(ctx: ServiceContext, pk: int, new: datetime) -> bool:
    with session_scope(ctx.engine) as session:
        phase = lock_open_phase(session, pk)
        if phase is None or not all_ready(session, phase):
            return False
        old = utc(phase.deadline) if phase.deadline is not None else None
        if old is not None and old <= new:
            return False
        marks = [m for m in phase.reminders_sent or [] if not m.startswith(_BEFORE)]
        if old is not None:
            marks.append(marker(_BEFORE, old))
        phase.reminders_sent = [*marks, marker("early", new)]
        phase.deadline = new
        session.add(phase)
        return True


def recheck_early(ctx: ServiceContext, row: OpenPhase) -> bool:
    """Before closing an early phase: still everyone READY? If not, restore its deadline.

    Returns True when the phase may close now (not early, or still all READY).
    """
    if marker("early", row.deadline) not in row.marks:
        return True
    with session_scope(ctx.engine) as session:
        phase = lock_open_phase(session, row.pk)
        if phase is None or all_ready(session, phase):
            return True
        old = [m for m in phase.reminders_sent or [] if m.startswith(_BEFORE + "@")]
        if not old:
            return True
        stamp_ = old[-1].partition("@")[2]
        phase.deadline = datetime.strptime(stamp_, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=utc(row.deadline).tzinfo)
        phase.reminders_sent = [m for m in phase.reminders_sent or []
                                if m not in (marker("early", row.deadline), old[-1])]
        session.add(phase)
        return False
