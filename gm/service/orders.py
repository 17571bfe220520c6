"""Receiving a power's orders: parse, validate, store a new version (orders.md §1-2).

The same path serves mail, ``gm orders submit`` and the moderator acting for
a power. A mail with orders replaces every earlier order of that power for the
phase (the last mail received wins) unless it says ``ADD``; ``CHECK`` parses
and validates but stores nothing. Every version is kept.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Insert, Update, bindparam, func, insert, true, update
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select, SelectOfScalar

from gm.db.core import run, table
from gm.db.engine import holds_write_lock
from gm.db.models import Game, OrderSet, Phase
from gm.games.base import GameModule, State, Validation, Verdict
from gm.i18n import msg, when
from gm.orders.model import (
    ErrorKind,
    Ignored,
    LineError,
    ParsedOrder,
    ParseResult,
    ProseLine,
    SourceLine,
)
from gm.service.context import ServiceContext
from gm.service.deadlines import due_at
from gm.service.errors import Conflict
from gm.service.games import current_orders, current_phase, module_of, phase_info

MAX_ORDER_LINE = 500
"""The longest order line given to a game's grammar, in characters.

The longest real orders (a conditional with several clauses) are well under
200 characters; parsing and "did you mean" grow faster than linearly with the
length, so a megabyte line (a pasted file, a runaway signature) would stall
the service for minutes. Longer lines are answered "too long" unread.
"""
MAX_ORDER_LINES = 200
"""Order lines read per power per mail; the rest is answered "too many lines" unread.

No phase of any game takes two hundred orders, and each line not understood
costs a "did you mean" search, so a pasted log would otherwise stall the service.
"""


@dataclass
class Judged:
    """One parsed order and what validation said of it."""

    parsed: ParsedOrder
    validation: Validation


@dataclass
class Submission:
    """What happened to one section's orders; the reply is rendered from it."""

    game_id: str
    power: str
    phase: Phase
    parse: ParseResult
    judged: list[Judged] = field(default_factory=list)
    stored: OrderSet | None = None
    checked_only: bool = False
    added: bool = False

    @property
    def refused(self) -> list[Judged]:
        return [j for j in self.judged if not j.validation.stored]

    @property
    def accepted(self) -> list[Judged]:
        return [j for j in self.judged if j.validation.stored]


def ensure_may_order(game: Game, phase: Phase, power: str) -> None:
    """Orders for a phase that is not open for ``power`` are refused, never queued."""
    info = phase_info(phase)
    if game.status == "ended" or info.ended:
        raise Conflict(msg("game {game} has ended; no more orders are taken", game=game.id))
    if phase.state != "open":
        raise Conflict(msg("phase {phase} is being adjudicated; too late for it", phase=phase.phase_id))
    if power not in info.allowed():
        module = module_of(game)
        waiting = module.power_list(info.allowed()) or msg("nobody")
        nxt = module.next_phase_for(phase.game_state or {}, power)
        before = module.turns_before(phase.game_state or {}, power)
        # it closes at its deadline plus grace (gm.schedule.phases.OpenPhase.due_at), a step
        # nobody orders in at its deadline
        closes = (None if phase.deadline is None else due_at(game.settings, phase.deadline)
                  if info.owing else phase.deadline)
        by = (msg("at the latest {deadline}", deadline=when(closes))
              if closes else msg("when the moderator closes it"))
        if len(before) > 1:  # sequential turns: others' come before this power's
            raise Conflict(msg("{power} has no orders to give in phase {phase} (waiting for: "
                               "{waiting}), which closes {when}; your turn opens after the "
                               "turns of {players}: send your orders when its report comes",
                               power=module.power_name(power), phase=phase.phase_id,
                               waiting=waiting, when=by, players=module.power_list(before)))
        raise Conflict(msg("{power} has no orders to give in phase {phase} (waiting for: {waiting}); "
                           "{next} opens when it closes, {when}", power=module.power_name(power),
                           phase=phase.phase_id, waiting=waiting,
                           next=nxt or msg("your next phase"), when=by))


def lock_phase(session: Session, phase: Phase) -> Phase:
    """``phase`` read again with its row locked until the transaction ends.

    Whoever stores orders holds the phase row, as ``close_phase`` does while it claims and
    adjudicates the phase (docs/architecture.md, "Exactly once"): two instances storing
    orders for one power take turns, so each sees the other's current version and the
    power never has two current ones (the partial unique index ``uq_orderset_current``
    would refuse it anyway); and orders stored while the phase is being closed wait for
    the close and are then refused, never stored for a phase already adjudicated.
    On SQLite, which has no row locks, a write to the row takes the database's write
    lock, which gives the same."""
    if session.get_bind().dialect.name != "postgresql":
        session.execute(update(Phase).where(col(Phase.id) == phase.id).values(state=Phase.state)
                        .execution_options(synchronize_session=False))
    q = (select(Phase).where(Phase.id == phase.id).with_for_update()
         .execution_options(populate_existing=True))
    return session.exec(q).one()


def lock_current_phase(session: Session, game_id: str) -> Phase:
    """``lock_phase(session, current_phase(session, game_id))`` in fewer statements (issue 21).

    On SQLite, two, not three: the write to the current phase's row takes the write lock
    first, then the phase is read once; none at all when the transaction already holds the
    write lock (:func:`_current_under_write_lock`). On PostgreSQL, one, not two: the
    current phase read with its row locked (``ORDER BY seq DESC LIMIT 1 FOR UPDATE``). A
    row that a close holds is waited for and then read as that close left it (closed:
    the orders are refused, as when it was read first and locked after); if it no longer
    matches (undone meanwhile) and no other row is returned, as :func:`lock_phase`."""
    if session.get_bind().dialect.name == "postgresql":
        phase = session.exec(_lock_current_row(), params={"of_game": game_id}).first()
        return phase if phase is not None else lock_phase(session, current_phase(session, game_id))
    if holds_write_lock(session):
        return _current_under_write_lock(session, game_id)
    write, read = _lock_current_statements()
    run(session, write, {"of_game": game_id})
    phase = session.exec(read, params={"of_game": game_id}).first()
    return phase if phase is not None else current_phase(session, game_id)  # which raises


def _current_under_write_lock(session: Session, game_id: str) -> Phase:
    """The current phase, in a SQLite transaction that holds the write lock since its first
    statement (gm.db.engine.holds_write_lock: a mail's, gm.pipeline.handle): no write is
    needed to lock it, and a phase this transaction read is the latest, so it is taken
    from the session rather than read and decoded again (issue 21: on the ingest harness,
    the lock's write and read were 2 of 15.7 statements a mail, and the read decoded the
    game state a second time). Only its id is read, to know which phase is current."""
    phase_id = run(session, _current_id_query(), {"of_game": game_id}).scalar()
    phase = session.get(Phase, phase_id) if phase_id is not None else None
    return phase if phase is not None else current_phase(session, game_id)  # which raises


@functools.cache
def _current_id_query() -> SelectOfScalar[int | None]:
    """The current phase's id, the game bound, built once (issue 21); Core (gm.db.core)."""
    t = table(Phase).c
    return (select(t.id).where(t.game_id == bindparam("of_game"), t.state != "undone")
            .order_by(t.seq.desc()).limit(1))


@functools.cache
def _lock_current_row() -> SelectOfScalar[Phase]:
    """:func:`lock_current_phase`'s one statement on PostgreSQL, built once (issue 21)."""
    return _lock_current_statements()[1].with_for_update()


@functools.cache
def _lock_current_statements() -> tuple[Update, SelectOfScalar[Phase]]:
    """:func:`lock_current_phase`'s two statements on SQLite, built once (issue 21), the
    game bound; the write is Core (gm.db.core)."""
    t = table(Phase).c
    current = (select(t.id).where(t.game_id == bindparam("of_game"), t.state != "undone")
               .order_by(t.seq.desc()).limit(1).scalar_subquery())
    write = update(table(Phase)).where(t.id == current).values(state=t.state)
    live = (col(Phase.game_id) == bindparam("of_game"), col(Phase.state) != "undone")
    read = (select(Phase).where(*live).order_by(col(Phase.seq).desc()).limit(1)
            .execution_options(populate_existing=True))
    return write, read


def submit_orders(
    ctx: ServiceContext,
    session: Session,
    game: Game,
    power: str,
    lines: Sequence[SourceLine],
    *,
    add: bool = False,
    check: bool = False,
    source: str = "mail",
    inbound_id: int | None = None,
) -> Submission:
    """Parse and validate ``lines`` as ``power``'s orders and store them unless ``check``."""
    phase = current_phase(session, game.id) if check else lock_current_phase(session, game.id)
    ensure_may_order(game, phase, power)
    module = module_of(game)
    # only ADD reads the current version (its orders); a mail replacing them has it retired
    # when its own are stored (issue 21)
    previous = _current_version(session, game.id, phase.seq, power) if add else None
    earlier = [module.order_from_json(o) for o in previous.orders] if previous else []
    parse, judged = judge_orders(module, phase.game_state or {}, power, lines, earlier)
    sub = Submission(game.id, power, phase, parse, judged, checked_only=check, added=add)
    keep = [j.parsed for j in judged if j.validation.stored]
    if check or not keep:
        return sub  # a mail whose every order failed leaves the earlier orders standing
    base_orders = list(previous.orders) if previous else []
    base_text = previous.text.splitlines() if previous else []
    orders_json = base_orders + [module.order_to_json(p.order) for p in keep]
    text = "\n".join(base_text + [p.echo for p in keep])
    sub.stored = store_orders(ctx, session, game, phase, power, orders=orders_json, text=text,
                              source=source, inbound_id=inbound_id)
    return sub


def judge_orders(module: GameModule, state: State, power: str, lines: Sequence[SourceLine],
                 earlier: Sequence[Any] = ()) -> tuple[ParseResult, list[Judged]]:
    """``lines`` parsed as ``power``'s orders and each order validated against ``state``:
    the work every order mail costs whatever is stored (bench/bench_ingest.py times it
    alone as the ingest's floor). ``earlier``: orders already stored that the new ones
    come after (ADD: actions counted and money spent from the top of the whole list);
    only the new orders' verdicts are returned."""
    parse = _parse(module, state, power, lines)
    orders = [p.order for p in parse.orders]
    validations = module.validate(state, power, [*earlier, *orders])[len(earlier):] if orders else []
    return parse, [Judged(p, v) for p, v in zip(parse.orders, validations, strict=True)]


def _parse(module: GameModule, state: State, power: str,
           lines: Sequence[SourceLine]) -> ParseResult:
    """The module's parse of the lines; overlong lines, and lines past ``MAX_ORDER_LINES``, unread."""
    read, unread = list(lines[:MAX_ORDER_LINES]), list(lines[MAX_ORDER_LINES:])
    prose = [line for line in read if isinstance(line, ProseLine)]
    read = [line for line in read if not isinstance(line, ProseLine)]
    short = [line for line in read if len(line.text) <= MAX_ORDER_LINE]
    parse = module.parse_orders(state, power, short) if short else ParseResult()
    if prose:  # the envelope read these as prose (issue 17): listed as ignored
        parse.lines.extend(Ignored(line) for line in prose)
        parse.lines.sort(key=lambda r: r.line.number)
    refused = [LineError(SourceLine(line.number, line.text[:60] + " ..."), ErrorKind.INVALID,
                         msg("the line is too long ({length} characters; an order has at most {limit})",
                             length=len(line.text), limit=MAX_ORDER_LINE))
               for line in read if len(line.text) > MAX_ORDER_LINE]
    if unread:
        refused.append(LineError(unread[0], ErrorKind.INVALID,
                                 msg("too many lines: only the first {limit} were read, {more} more "
                                     "were not", limit=MAX_ORDER_LINES, more=len(unread))))
    if refused:
        parse.lines.extend(refused)
        parse.lines.sort(key=lambda r: r.line.number)
    return parse


@dataclass(frozen=True)
class Version:
    """What ADD reads of a power's current orders for a phase: their orders and text, as
    plain columns (issue 21: every version was read and built for each mail)."""

    orders: list[Any]
    text: str


def _current_version(session: Session, game_id: str, seq: int, power: str) -> Version | None:
    """``power``'s current orders for phase ``seq``, if any, in one statement."""
    row = run(session, _current_version_query(),
              {"game_id": game_id, "seq": seq, "power": power}).first()
    return None if row is None else Version(list(row.orders or []), row.text or "")


@functools.cache
def _current_version_query() -> Select[list[Any] | None, str]:
    """:func:`_current_version`'s statement, built once, its values bound; Core (gm.db.core)."""
    t = table(OrderSet).c
    return select(t.orders, t.text).where(
        t.game_id == bindparam("game_id"), t.phase_seq == bindparam("seq"),
        t.power == bindparam("power"), t.current == true())


def store_orders(ctx: ServiceContext, session: Session, game: Game, phase: Phase, power: str, *,
                 orders: list, text: str, source: str, inbound_id: int | None = None) -> OrderSet:
    """Store a new current version of ``power``'s orders for ``phase``, in two statements
    (issue 21): the current version, if any, retired by an UPDATE that returns its flags
    (READY and WAIT carry over to the new one), and the new one inserted with its number
    counted by the INSERT itself (the versions stored before it + 1; a version retired
    without a successor still counts). The caller holds the phase's lock
    (:func:`lock_current_phase`, :func:`lock_phase`): nobody else stores orders for it
    between the two. The new version joins the session as if read back."""
    retired = run(session, _retire_current(), {"of_game": game.id, "of_seq": phase.seq,
                                                "of_power": power}).first()
    if retired is not None:
        _retired_in_session(session, int(retired.id))
    new = OrderSet(game_id=game.id, phase_seq=phase.seq, power=power, version=0, current=True,
                   created_at=ctx.clock.now(), source=source, inbound_id=inbound_id, text=text,
                   orders=orders, ready=bool(retired.ready) if retired is not None else False,
                   wait=bool(retired.wait) if retired is not None else False)
    stmt, names = _numbered_insert()
    row = run(session, stmt, {name: getattr(new, name) for name in names}).one()
    new.id, new.version = int(row.id), int(row.version)
    make_transient_to_detached(new)  # joins the session as if read back (gm.db.core)
    session.add(new)
    return new


def _retired_in_session(session: Session, row_id: int) -> None:
    """The session's copy of version ``row_id``, if it holds one (READY in the same mail, a
    close storing a default over a "flags" row), told it is no longer current."""
    held = session.identity_map.get(Session.identity_key(OrderSet, row_id))
    if held is not None:
        set_committed_value(held, "current", False)


@functools.cache
def _retire_current() -> Update:
    """:func:`store_orders`' retirement of the current version, returning its id and flags
    (built once; Core, gm.db.core)."""
    t = table(OrderSet).c
    return (update(table(OrderSet))
            .where(t.game_id == bindparam("of_game"), t.phase_seq == bindparam("of_seq"),
                   t.power == bindparam("of_power"), t.current == true())
            .values(current=False).returning(t.id, t.ready, t.wait))


@functools.cache
def _numbered_insert() -> tuple[Insert, tuple[str, ...]]:
    """:func:`store_orders`' INSERT of a version numbered by the versions stored before it,
    returning its id and number (built once); and the columns it binds."""
    t = table(OrderSet)
    names = tuple(c.name for c in t.columns if c.name not in ("id", "version"))
    count = (select(func.count() + 1).select_from(t)
             .where(t.c.game_id == bindparam("game_id"), t.c.phase_seq == bindparam("phase_seq"),
                    t.c.power == bindparam("power")).scalar_subquery())
    values: dict[str, Any] = {n: bindparam(n, type_=t.c[n].type) for n in names}
    return insert(t).values({**values, "version": count}).returning(t.c.id, t.c.version), names


def set_flags(ctx: ServiceContext, session: Session, game: Game, power: str, *,
              ready: bool | None = None, wait: bool | None = None) -> Phase:
    """READY / NOT READY / WAIT / NO WAIT for ``power`` in the current phase."""
    phase = lock_phase(session, current_phase(session, game.id))
    ensure_may_order(game, phase, power)
    row = current_orders(session, game.id, phase.seq).get(power)
    if row is None:
        row = store_orders(ctx, session, game, phase, power, orders=[], text="", source="flags")
    if ready is not None:
        row.ready = ready
    if wait is not None:
        row.wait = wait
    session.add(row)
    session.flush()
    return phase


def verdict_counts(sub: Submission) -> dict[Verdict, int]:
    counts: dict[Verdict, int] = {}
    for j in sub.judged:
        counts[j.validation.verdict] = counts.get(j.validation.verdict, 0) + 1
    return counts
