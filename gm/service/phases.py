"""Opening phases: the one place a Phase row is created."""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, event, insert
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import ORMExecuteState
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Session, col, func, select
from sqlmodel.sql.expression import SelectOfScalar

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


def under_review(phase: Phase) -> bool:
    """The phase's reports are held for the moderator's review (game setting ``preview``):
    until RELEASE no player may learn its id, deadline or what led to it."""
    return phase.state == "open" and not phase.released


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
              type_: str, data: dict[str, Any], visible_to: list[str] | None = None) -> None:
    """Append one event to the game's log (the log is never edited).

    The last sequence number is read once per transaction and counted on
    from there (an adjudication writes hundreds of events). The event is not written
    here: the transaction's next statement through the session, or its commit, first
    writes the events logged so far, together and in the order they were logged, in one
    INSERT of many rows (:func:`write_events`; issue 21: one ORM object and one INSERT
    each were a sixth of the statements of a close and a tenth of its time).
    """
    counters: dict[str, int] = session.info.setdefault("gm_event_seq", {})
    if game_id not in counters:
        last = session.exec(_last_event_query(), params={"of_game": game_id}).one()
        counters[game_id] = last or 0
    counters[game_id] += 1
    pending: list[dict[str, Any]] | None = session.info.get(_PENDING)
    if pending is None:
        pending = session.info[_PENDING] = []
        event.listen(session, "do_orm_execute", _before_statement)
        event.listen(session, "before_commit", write_events)
        event.listen(session, "after_rollback", _forget_events)
    pending.append({"game_id": game_id, "phase_seq": phase_seq, "branch": branch,
                    "seq": counters[game_id], "at": ctx.clock.now(), "type": type_, "data": data,
                    "visible_to": visible_to})


def known_last_event(session: Session, game_id: str, last: int) -> None:
    """Tell :func:`log_event` the game's last event number, read by a statement the caller
    ran anyway (the close's claim, issue 21: a query of its own each close)."""
    session.info.setdefault("gm_event_seq", {}).setdefault(game_id, last)


_PENDING = "gm_events"
_EVENT_TABLE = cast(Table, sa_inspect(EventLog).local_table)


def write_events(session: OrmSession) -> None:
    """Write the events logged in ``session`` and not written yet, in one statement; the
    session's own changes first (an event's game may be new in this transaction)."""
    pending: list[dict[str, Any]] | None = session.info.get(_PENDING)
    if not pending:
        return
    rows = list(pending)
    pending.clear()  # before the statements below, which come back here
    if session.autoflush:
        session.flush()
    session.execute(insert(_EVENT_TABLE), rows)  # Core, not the ORM's bulk insert: a third less


def _before_statement(state: ORMExecuteState) -> None:
    """Any statement of the session sees the events logged before it (as autoflush would)."""
    if state.session.info.get(_PENDING):
        write_events(state.session)


def _forget_events(session: OrmSession) -> None:
    """A rolled-back transaction's events were never written and never will be; its
    numbering is read again. (The listeners stay: they do nothing without events.)"""
    pending = session.info.get(_PENDING)
    if pending:
        pending.clear()
    session.info.pop("gm_event_seq", None)


def events_of(session: Session, game_id: str, phase_seq: int, branch: int | None = None) -> list[EventLog]:
    params: dict[str, Any] = {"of_game": game_id, "of_seq": phase_seq}
    if branch is not None:
        params["of_branch"] = branch
    return list(session.exec(_events_query(branch is not None), params=params))


@functools.cache
def _events_query(by_branch: bool) -> SelectOfScalar[EventLog]:
    """Built once (issue 21), the game, phase and branch bound."""
    q = select(EventLog).where(col(EventLog.game_id) == bindparam("of_game"),
                               col(EventLog.phase_seq) == bindparam("of_seq"))
    if by_branch:
        q = q.where(col(EventLog.branch) == bindparam("of_branch"))
    return q.order_by(col(EventLog.seq))


@functools.cache
def _last_event_query() -> SelectOfScalar[int]:
    return select(func.max(EventLog.seq)).where(col(EventLog.game_id) == bindparam("of_game"))
