"""Closing a phase exactly once (design.md §1, §6).

``close_phase`` claims the open phase row with a conditional UPDATE in the
transaction that writes the outcome (:func:`_claim`); whoever changes the row
from ``open`` to ``done`` does the work, everyone else (a second instance, a
repeated deadline job, a second ``ADJUDICATE NOW``) finds nothing to do. The claim, the defaults for
missing orders, the engine's outcome, the event log with every roll, the next
phase and the queued reports commit together, or not at all.

A close that raises (a bug in an engine or a template) rolls all of that back
and *holds* the game, like DPjudge's AWAIT: the hold and its reason are
recorded on the game, the moderator is told once, and no phase of that game
is claimed again until the moderator lifts the hold (:func:`unhold`,
``gm mod unhold``). Every other game goes on. A database that is gone is not
a hold: that error is raised to the caller, which retries.
"""

from __future__ import annotations

import functools
import logging
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from sqlalchemy import Integer, any_, bindparam, exists, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, func, select
from sqlmodel.sql.expression import SelectOfScalar

from gm.checkpoint import checkpoint
from gm.db.engine import session_scope
from gm.db.models import EventLog, Game, Phase, Seat
from gm.dice import Dice, DiceExhausted
from gm.games.base import GameModule, Outcome
from gm.i18n import msg, plural
from gm.service.context import ServiceContext
from gm.service.games import current_orders, get_game, module_of, phase_info, seats
from gm.service.orders import store_orders
from gm.service.phases import known_last_event, log_event, open_phase

log = logging.getLogger(__name__)
HOLD_REASON_MAX = 2000


@dataclass(frozen=True)
class CloseResult:
    closed: bool
    game_id: str
    phase_id: str = ""
    next_phase_id: str = ""
    defaulted: tuple[str, ...] = ()
    problem: str = ""  # why it could not be closed (e.g. supplied dice ran out)
    next_seq: int | None = None
    next_owes_nothing: bool = False  # e.g. an action-roll phase: close it at once


def close_phase(ctx: ServiceContext, game_id: str, seq: int, *, by: str, reason: str = "") -> CloseResult:
    """Adjudicate phase ``seq`` of ``game_id`` if it is still open; else do nothing.

    A phase that follows and owes nobody's orders (a die-rolling step such as
    Pax Baltica's action roll) is closed straight after, each in its own
    transaction; the returned result is the last one. Such a chain of closes mails one
    report a reader, queued by its last close: every closed phase's events, then the phase
    ordered now and its deadline (gm.service.reports ``queue_phase_reports``; a close that
    opens a phase nobody orders in queues none). Each close stays a transaction of its own,
    so that a later step that raises (held) or runs out of supplied dice stops the chain
    without undoing the phases closed before it; those are then reported at once
    (gm.service.reports ``report_stopped_chain``). A crash between two closes leaves the
    next phase open and due at once: whoever closes it (the next sweep) reports the whole
    chain, read from the database (gm.service.reports ``unreported_before``).
    """
    return _follow_on(ctx, _close_once(ctx, game_id, seq, by=by, reason=reason), by=by)


def close_first_free(ctx: ServiceContext, phases: Sequence[int], *, by: str, reason: str,
                     taken: list[int]) -> CloseResult | None:
    """PostgreSQL: close, as :func:`close_phase` does, the first of ``phases`` (phase row ids,
    in that order) that is still open, its game not held, and whose row no other instance
    holds right now; None when there is none. The id of the phase claimed is appended to
    ``taken`` (so that the caller knows which game a close that raised was closing).

    The sweep's (issue 21): with two instances each walking every due phase, half the
    phases one came to the other had closed, and a claim and a read of its own found that
    out each time (1,000 games: ~500 an instance, its CPU a game 15% above one instance's);
    here the claim itself passes over them. Each close stays a transaction of its own and
    holds one phase only.
    """
    where: list[tuple[str, int]] = []

    def work(session: Session) -> CloseResult | None:
        phase = _claim_first(ctx, session, phases)
        if phase is None:
            return None
        assert phase.id is not None
        taken.append(phase.id)
        where.append((phase.game_id, phase.seq))
        return _adjudicate(ctx, session, phase, by=by, reason=reason)

    first = _guarded(ctx, work, where)
    return None if first is None else _follow_on(ctx, first, by=by)


def _follow_on(ctx: ServiceContext, first: CloseResult, *, by: str) -> CloseResult:
    """Close the phases after ``first`` that owe nobody's orders; the result of them all."""
    last = first
    while last.closed and last.next_owes_nothing and last.next_seq is not None:
        step = _close_once(ctx, first.game_id, last.next_seq, by=by, reason="owes no orders")
        if not step.closed:
            break
        last = step
    if last is first:
        return first
    return replace(first, next_phase_id=last.next_phase_id, next_seq=last.next_seq,
                   next_owes_nothing=False)


def settle(ctx: ServiceContext, game_id: str, *, by: str) -> CloseResult | None:
    """Close the current phase at once if it owes nobody's orders (a new game's die roll)."""
    from gm.service.games import current_phase

    with session_scope(ctx.engine) as session:
        phase = current_phase(session, game_id)
        owes = phase_info(phase).owing
        if phase.state != "open" or owes:
            return None
    return close_phase(ctx, game_id, phase.seq, by=by, reason="owes no orders")


def play_out_opening(ctx: ServiceContext, session: Session, game_id: str) -> None:
    """Adjudicate, in the caller's transaction, the phases at the start of a game that owe
    nobody's orders (Pax Baltica's action roll, Pax Viking's setup), so the game starts at
    the first phase someone orders in. A phase held for the moderator's review (preview)
    stops it. Used when a game starts (gm game new, a forming game's last seat filled):
    the welcome then gives the deadline players order to (issue 19)."""
    from gm.service.games import current_phase

    for _ in range(100):  # a bound: an engine that never asks for orders is a bug, not a loop
        phase = current_phase(session, game_id)
        info = phase_info(phase)
        if phase.state != "open" or not phase.released or info.owing or info.ended:
            return
        if not _close(ctx, session, game_id, phase.seq, by="gm", reason="owes no orders").closed:
            return


def _close_once(ctx: ServiceContext, game_id: str, seq: int, *, by: str, reason: str) -> CloseResult:
    result = _guarded(ctx, lambda session: _close(ctx, session, game_id, seq, by=by, reason=reason),
                      [(game_id, seq)])
    assert result is not None
    return result


def _guarded(ctx: ServiceContext, work: Callable[[Session], CloseResult | None],
             where: list[tuple[str, int]]) -> CloseResult | None:
    """``work`` in a transaction of its own; when it raises, the game and phase ``where``
    names (filled in by the claim) are held, or told to the moderator when dice ran out."""
    try:
        with session_scope(ctx.engine) as session:
            return work(session)
    except DiceExhausted as exc:
        return _dice_ran_out(ctx, *where[0], exc)
    except (OperationalError, InterfaceError):
        raise  # the database is gone: the caller waits and retries, nothing is held
    except Exception as exc:  # a bug: hold this game, keep every other one going
        if not where:
            raise  # nothing was claimed: not a game's fault
        game_id, seq = where[0]
        log.exception("closing %s phase %s raised; the game is held", game_id, seq)
        return hold(ctx, game_id, seq, exc)


def _claim(ctx: ServiceContext, session: Session, game_id: str, seq: int) -> Phase | None:
    """Claim the phase if it is open and its game is not held: one conditional UPDATE that
    closes the row (``done``) and returns it, with the game's last phase and event numbers.

    The row goes from ``open`` to ``done`` in the claim itself: the transaction that claims
    it also writes the outcome, the next phase and the reports, or none of them, so nobody
    ever saw the ``adjudicating`` the row went through between. Issue 21: the probe, the
    claim, the phase read again, the next phase number, the last event number and the phase
    closed were six round trips of a close's 21, one here (on SQLite the probe is a read
    of its own: gm.schedule.sweep).
    """
    return _claimed(session, session.execute(_claim_statement(), {
        "of_game": game_id, "of_seq": seq, "by": ctx.instance, "now": ctx.clock.now()}
    ).one_or_none())


def _claim_first(ctx: ServiceContext, session: Session, phases: Sequence[int]) -> Phase | None:
    """PostgreSQL: :func:`_claim` of the first of ``phases`` that is open, its game not held,
    and its row free (``FOR UPDATE SKIP LOCKED``: another instance is not closing it)."""
    return _claimed(session, session.execute(_claim_first_statement(), {
        "ids": list(phases), "by": ctx.instance, "now": ctx.clock.now()}).one_or_none())


def _claimed(session: Session, row: Any) -> Phase | None:
    """The phase a claim returned (``one_or_none``: a claim that changed two rows raises, and
    its transaction is rolled back), its game's next phase number and last event number
    noted for :func:`_adjudicate` and gm.service.phases.log_event."""
    if row is None:
        return None
    phase, last_seq, last_event = row
    session.info[_NEXT_SEQ] = int(last_seq or 0) + 1
    known_last_event(session, phase.game_id, int(last_event or 0))
    return cast(Phase, phase)


_NEXT_SEQ = "gm_next_phase_seq"


@functools.cache
def _claim_statement() -> Any:
    """The claim, built once (issue 21: building a statement cost more than running it)."""
    not_held = exists().where(col(Game.id) == bindparam("of_game"), col(Game.hold_reason) == "")
    # the game bound, not correlated: SQLite's RETURNING names the columns unqualified
    return _closing(update(Phase).where(
        col(Phase.game_id) == bindparam("of_game"), col(Phase.seq) == bindparam("of_seq"),
        col(Phase.state) == "open", not_held), bindparam("of_game"))


@functools.cache
def _claim_first_statement() -> Any:
    """:func:`_claim_first`'s claim (PostgreSQL), built once: the UPDATE of the row the
    queue-like ``SELECT ... ORDER BY the ids' order LIMIT 1 FOR UPDATE SKIP LOCKED`` finds."""
    ids = bindparam("ids", type_=ARRAY(Integer))
    other = aliased(Phase)
    # the game's hold as a scalar subquery, not EXISTS: a semi-join let the planner scan
    # every game not held and then the phases of each, instead of the few phases given
    not_held = select(Game.hold_reason).where(col(Game.id) == other.game_id).scalar_subquery() == ""
    first = (select(other.id).where(other.id == any_(ids), other.state == "open", not_held)
             .order_by(func.array_position(ids, other.id)).limit(1)
             .with_for_update(skip_locked=True, of=other))
    # "= (scalar subquery)", run once; "IN (subquery)" may be run again for each row the
    # UPDATE scans, each time locking and returning another phase
    return _closing(update(Phase).where(col(Phase.id) == first.scalar_subquery(),
                                        col(Phase.state) == "open"), col(Phase.game_id))


def _closing(claim: Any, game: Any) -> Any:
    """``claim`` (an UPDATE of the phase) closing the row, returning it and the last phase
    and event numbers of ``game`` (a bound value or the row's own column)."""
    others = aliased(Phase)
    last_seq = select(func.max(others.seq)).where(others.game_id == game).scalar_subquery()
    last_event = (select(func.max(EventLog.seq)).where(col(EventLog.game_id) == game)
                  .scalar_subquery())
    return (claim.values(state="done", adjudicated_at=bindparam("now"), claimed_by=bindparam("by"))
            .returning(Phase, last_seq, last_event)
            .execution_options(synchronize_session=False, populate_existing=True))


def _close(ctx: ServiceContext, session: Session, game_id: str, seq: int, *, by: str,
           reason: str) -> CloseResult:
    phase = _claim(ctx, session, game_id, seq)
    if phase is None:
        held = get_game(session, game_id).hold_reason
        return CloseResult(False, game_id, problem=f"the game is held: {held}" if held else "")
    return _adjudicate(ctx, session, phase, by=by, reason=reason)


def _adjudicate(ctx: ServiceContext, session: Session, phase: Phase, *, by: str,
                reason: str) -> CloseResult:
    """Adjudicate the claimed ``phase``; open the next phase and queue the reports."""
    game, seat_rows = game_and_seats(session, phase.game_id)
    module = module_of(game)
    orders, defaulted = gather_orders(ctx, session, game, phase, module, seat_rows)
    dice = dice_for(game, phase)
    outcome = module.adjudicate(phase.game_state or {}, orders, dice)
    checkpoint("adjudicate")
    record_outcome(ctx, session, game, phase, outcome, dice, by=by, reason=reason, defaulted=defaulted)
    nxt = open_phase(ctx, session, game, module, outcome.state, seq=session.info.pop(_NEXT_SEQ),
                     dice_branch=0)
    from gm.service.reports import queue_phase_reports

    queue_phase_reports(ctx, session, game, phase, nxt, defaulted=defaulted, seat_rows=seat_rows)
    checkpoint("render")
    info = phase_info(nxt)
    return CloseResult(True, game.id, phase.phase_id, nxt.phase_id, tuple(defaulted),
                       next_seq=nxt.seq, next_owes_nothing=not info.owing and not info.ended)


def game_and_seats(session: Session, game_id: str) -> tuple[Game, list[Seat]]:
    """The game and its seats (gm.service.games.get_game, seats) in one statement (issue 21:
    a round trip less for each close of a storm)."""
    rows = session.execute(_game_and_seats_query(), {"of_game": game_id}).all()
    if not rows:
        return get_game(session, game_id), []  # which raises NotFound
    return rows[0][0], [seat for _, seat in rows if seat is not None]


@functools.cache
def _game_and_seats_query() -> Any:
    return (select(Game, Seat).outerjoin(Seat, col(Seat.game_id) == col(Game.id))
            .where(col(Game.id) == bindparam("of_game")).order_by(col(Seat.id)))


def phase_row(session: Session, game_id: str, seq: int) -> Phase:
    """Phase ``seq`` as the database has it now (not a stale cached copy)."""
    return session.exec(_phase_row_query(), params={"of_game": game_id, "of_seq": seq}).one()


@functools.cache
def _phase_row_query() -> SelectOfScalar[Phase]:
    return (select(Phase).where(col(Phase.game_id) == bindparam("of_game"),
                                col(Phase.seq) == bindparam("of_seq"))
            .execution_options(populate_existing=True))


def dice_for(game: Game, phase: Phase) -> Dice:
    return Dice(seed=game.seed, game_id=game.id, phase_id=phase.phase_id, branch=phase.dice_branch,
                supplied=tuple(phase.supplied_dice or ()), then_seed=phase.supplied_then_seed)


def gather_orders(ctx: ServiceContext, session: Session, game: Game, phase: Phase,
                  module: GameModule, seat_rows: list[Seat] | None = None,
                  ) -> tuple[dict[str, list[Any]], list[str]]:
    """Every owing power's current orders; the module's defaults for those who sent none.

    Defaults are stored as an order set with source ``default`` so a replay
    sees exactly what was adjudicated. A set that holds only READY/WAIT flags
    counts as no orders.
    """
    info = phase_info(phase)
    current = current_orders(session, game.id, phase.seq)
    state = phase.game_state or {}
    orders: dict[str, list[Any]] = {}
    defaulted: list[str] = []
    by_power: dict[str, Seat] = {s.power: s for s in (seats(session, game.id) if seat_rows is None
                                                      else seat_rows)}
    for power in dict.fromkeys(list(info.owing) + list(current)):
        row = current.get(power)
        if row is not None and (row.orders or row.source != "flags"):
            orders[power] = [module.order_from_json(o) for o in row.orders or []]
            _missed(session, by_power.get(power), reset=True)
            continue
        if power not in info.owing:
            continue
        default = module.default_orders(state, power)
        store_orders(ctx, session, game, phase, power, source="default",
                     orders=[module.order_to_json(o) for o in default],
                     text="\n".join(_echo(o) for o in default))
        orders[power] = default
        defaulted.append(power)
        _missed(session, by_power.get(power), reset=False)
    return orders, defaulted


def _echo(order: Any) -> str:
    echo = getattr(order, "echo", None)
    return echo() if callable(echo) else str(order)


def _missed(session: Session, seat: Seat | None, *, reset: bool) -> None:
    if seat is None:
        return
    seat.missed_in_row = 0 if reset else seat.missed_in_row + 1
    session.add(seat)


def record_outcome(ctx: ServiceContext, session: Session, game: Game, phase: Phase, outcome: Outcome,
                   dice: Dice, *, by: str, reason: str, defaulted: list[str]) -> None:
    """Write every roll and event of the adjudication to the log (the claim closed the phase
    row: :func:`_claim`)."""
    branch = phase.dice_branch
    log_event(ctx, session, game.id, phase.seq, branch, "phase.adjudicated",
              {"phase_id": phase.phase_id, "by": by, "reason": reason, "defaulted": defaulted})
    for roll in dice.rolls:
        data = {**roll.to_json(), "phase_id": phase.phase_id}
        log_event(ctx, session, game.id, phase.seq, branch, "roll", data,
                  sorted(roll.visible_to) if roll.visible_to is not None else None)
    for event in outcome.events:
        ev = event.to_json()
        log_event(ctx, session, game.id, phase.seq, branch, ev["type"], ev["data"], ev["visible_to"])


def _dice_ran_out(ctx: ServiceContext, game_id: str, seq: int, exc: DiceExhausted) -> CloseResult:
    """Supplied dice ran out: the phase stays open without a deadline; the moderator is told."""
    from gm.service.notify import notify_moderator
    from gm.service.reports import report_stopped_chain

    with session_scope(ctx.engine) as session:
        game = get_game(session, game_id)
        row = phase_row(session, game_id, seq)
        row.deadline = None
        session.add(row)
        log_event(ctx, session, game_id, seq, row.dice_branch, "adjudication.stopped",
                  {"phase_id": row.phase_id, "reason": str(exc)}, visible_to=[])
        report_stopped_chain(ctx, session, game, row)
        notify_moderator(ctx, session, game, msg("adjudication of {phase} stopped", phase=row.phase_id), [
            plural("The supplied rolls ({n} used) ran out at '{purpose}'; supply more dice or add "
                   "THEN SEED to let the seed take over.",
                   "The supplied rolls ({n} used) ran out at '{purpose}'; supply more dice or add "
                   "THEN SEED to let the seed take over.", exc.used, purpose=exc.purpose),
            msg("The phase stays open without a deadline until you act (DICE ... or EXTEND).")],
            key=f"dice-out:{game_id}:{seq}:{len(exc.purpose)}")
        return CloseResult(False, game_id, row.phase_id, problem=str(exc))


def hold(ctx: ServiceContext, game_id: str, seq: int, exc: BaseException) -> CloseResult:
    """Hold ``game_id`` after closing phase ``seq`` raised ``exc``; tell its moderator once.

    The close's transaction was rolled back, so the phase is still open with
    its orders; the hold is recorded in a transaction of its own.
    """
    from gm.service.notify import notify_moderator, tell_players
    from gm.service.reports import report_stopped_chain

    error = f"{type(exc).__name__}: {exc}"
    with session_scope(ctx.engine) as session:
        game = get_game(session, game_id)
        row = phase_row(session, game_id, seq)
        if game.hold_reason:  # held meanwhile (another caller): one notice is enough
            return CloseResult(False, game_id, row.phase_id, problem=f"the game is held: {game.hold_reason}")
        game.hold_reason = f"closing {row.phase_id} raised {error}"[:HOLD_REASON_MAX]
        game.held_at = ctx.clock.now()
        session.add(game)
        n = session.exec(select(func.count()).select_from(EventLog).where(
            EventLog.game_id == game_id, EventLog.type == "game.held")).one()
        log_event(ctx, session, game_id, seq, row.dice_branch, "game.held",
                  {"phase_id": row.phase_id, "error": error}, visible_to=[])
        report_stopped_chain(ctx, session, game, row)
        trace = "".join(traceback.format_exception(exc)[-12:])
        notify_moderator(
            ctx, session, game, msg("held: {phase} could not be closed", phase=row.phase_id), [
                msg("Closing {phase} raised an error, so nothing of it was applied: the phase is "
                    "still open with every order sent for it. The game is held: no phase of it is "
                    "closed until you lift the hold. Every other game goes on.", phase=row.phase_id),
                "", msg("Error: {error}", error=error), "", trace,
                msg("When the cause is fixed (or to try again): gm mod unhold {game}, or by mail "
                    "UNHOLD after the lines GAME {game} and MODERATOR <password> (it lifts the "
                    "hold and closes {phase} again).", game=game_id, phase=row.phase_id)],
            key=f"held:{game_id}:{seq}:{n}")
        # The players see the deadline pass without a report: told why, once a phase (a
        # hold again after `gm mod unhold` queues the same keys), never the error, which
        # may name what they may not know.
        tell_players(ctx, session, game, what="held", key=f"{game_id}:{seq}",
                     subject=msg("results of {phase} delayed", phase=row.phase_id),
                     text=msg("The results of {phase} in game {game} are delayed: the moderator "
                              "is looking into a problem found while adjudicating it. Every order "
                              "sent for {phase} stands, and its report follows as soon as the "
                              "moderator has dealt with it.", phase=row.phase_id, game=game_id))
        return CloseResult(False, game_id, row.phase_id, problem=game.hold_reason)


def unhold(ctx: ServiceContext, game_id: str, *, actor: str, reason: str = "",
           close: bool = True) -> CloseResult | None:
    """Lift a hold (recorded as a moderator act) and, with ``close``, close the open phase again.

    If the close raises again, the game is held again and the moderator told again.
    """
    with session_scope(ctx.engine) as session:
        seq = lift_hold(ctx, session, get_game(session, game_id), actor=actor, reason=reason)
    if not close or seq is None:
        return None
    return close_phase(ctx, game_id, seq, by=actor, reason=reason or "hold lifted")


def lift_hold(ctx: ServiceContext, session: Session, game: Game, *, actor: str,
              reason: str = "") -> int | None:
    """Lift the hold of ``game`` in the caller's transaction, recorded as a private moderator
    act (``gm mod unhold``, ``UNHOLD``). Return the seq of the phase to close again, or None
    when no phase is open. A game not held is refused, and nothing changes."""
    from gm.service.errors import Conflict
    from gm.service.games import current_phase
    from gm.service.moderator import record_act

    if not game.hold_reason:
        raise Conflict(msg("game {game} is not held (only a game whose adjudication raised "
                           "is); nothing changed", game=game.id))
    record_act(ctx, session, game, actor=actor, command="unhold",
               args={"hold": game.hold_reason}, reason=reason, private=True)
    game.hold_reason, game.held_at = "", None
    session.add(game)
    phase = current_phase(session, game.id)
    return phase.seq if phase.state == "open" and not phase_info(phase).ended else None
