"""Opening phases: the one place a Phase row is created."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Session, col, func, select

from gm.db.models import EventLog, Game, Phase
from gm.games.base import GameModule, PhaseInfo, State
from gm.service.context import ServiceContext


def deadline_for(game: Game, kind: str, opens_at: datetime) -> datetime | None:
    """The deadline of a phase of ``kind`` opening at ``opens_at`` (docs/scheduling.md).

    ``None`` when the game's settings give that kind no deadline (the
    moderator closes it).
    """
    from gm.service.deadlines import deadline_for as policy_deadline

    return policy_deadline(game.settings or {}, kind, opens_at)


def _deadline(game: Game, info: PhaseInfo, now: datetime) -> datetime | None:
    """A phase that owes nobody's orders (a die roll) is due at once."""
    return now if not info.owing else deadline_for(game, info.kind, now)


def info_json(info: PhaseInfo) -> dict[str, Any]:
    return {"owing": list(info.owing), "may_order": list(info.allowed()),
            "simultaneous": info.simultaneous, "ended": info.ended}


def open_phase(
    ctx: ServiceContext,
    session: Session,
    game: Game,
    module: GameModule,
    state: State,
    *,
    seq: int,
    dice_branch: int = 0,
    deadline: datetime | None = None,
) -> Phase:
    """Record ``state`` as the start of a new phase (or the end of the game)."""
    info = module.phase(state)
    now = ctx.clock.now()
    if info.ended:
        game.status = "ended"
        session.add(game)
    phase = Phase(
        game_id=game.id, seq=seq, phase_id=info.id, kind=info.kind,
        state="ended" if info.ended else "open", opens_at=now,
        deadline=None if info.ended else (deadline or _deadline(game, info, now)),
        game_state=state, info=info_json(info), dice_branch=dice_branch, reminders_sent=[],
    )
    session.add(phase)
    session.flush()
    log_event(ctx, session, game.id, seq, dice_branch, "phase.opened",
              {"phase_id": info.id, "kind": info.kind, "owing": list(info.owing),
               "deadline": phase.deadline.isoformat() if phase.deadline else None})
    return phase


def log_event(ctx: ServiceContext, session: Session, game_id: str, phase_seq: int, branch: int,
              type_: str, data: dict[str, Any], visible_to: list[str] | None = None) -> EventLog:
    """Append one event to the game's log (the log is never edited).

    The last sequence number is read once per transaction and counted on
    from there (an adjudication writes hundreds of events). The row is not flushed
    here: the session's next query or its commit writes the transaction's events
    together, in the order they were added (issue 21: one INSERT each was a sixth of
    the statements of a close).
    """
    counters: dict[str, int] = session.info.setdefault("gm_event_seq", {})
    if game_id not in counters:
        last = session.exec(select(func.max(EventLog.seq)).where(EventLog.game_id == game_id)).one()
        counters[game_id] = last or 0
    counters[game_id] += 1
    row = EventLog(game_id=game_id, phase_seq=phase_seq, branch=branch, seq=counters[game_id],
                   at=ctx.clock.now(), type=type_, data=data, visible_to=visible_to)
    session.add(row)
    return row


def events_of(session: Session, game_id: str, phase_seq: int, branch: int | None = None) -> list[EventLog]:
    q = select(EventLog).where(EventLog.game_id == game_id, EventLog.phase_seq == phase_seq)
    if branch is not None:
        q = q.where(EventLog.branch == branch)
    return list(session.exec(q.order_by(col(EventLog.seq))))
