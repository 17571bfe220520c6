"""Reports: rendered from a power's view and the events it may see, never the full state.

Each seat gets its report after every adjudication; the moderator gets the
full one. With the game setting ``preview = true`` the players' reports are
held until the moderator releases them (``gm mod release``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jinja2 import TemplateNotFound
from sqlmodel import Session, select

from gm.db.models import EventLog, Game, ModeratorAct, Phase, Report, Seat
from gm.dice import group_rolls
from gm.games.base import GameModule
from gm.service.context import ServiceContext
from gm.service.games import module_of, seats
from gm.service.notify import moderator_address
from gm.service.outbox import queue_mail
from gm.service.phases import events_of
from gm.service.render import render


@dataclass
class ReportContext:
    """Everything a report template may use: only what ``power`` may know."""

    game_id: str
    game_title: str
    power: str | None  # None: the moderator
    language: str
    timezone: str
    closed_phase: str
    phase: str
    deadline: Any
    view: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    rolls: list[Any] = field(default_factory=list)  # gm.dice.RollGroup
    rulings: list[str] = field(default_factory=list)
    defaulted: list[str] = field(default_factory=list)
    commitment: str = ""
    ended: bool = False

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def visible(row: EventLog, power: str | None) -> bool:
    return power is None or row.visible_to is None or power in row.visible_to


def build_context(game: Game, module: GameModule, closed: Phase | None, current: Phase,
                  power: str | None, seat: Seat | None, rows: list[EventLog],
                  rulings: list[str], defaulted: list[str]) -> ReportContext:
    shown = [r for r in rows if visible(r, power)]
    return ReportContext(
        game_id=game.id, game_title=module.title, power=power,
        language=seat.language if seat else "en", timezone=seat.timezone if seat else "UTC",
        closed_phase=closed.phase_id if closed else "", phase=current.phase_id,
        deadline=current.deadline, view=module.view(current.game_state or {}, power),
        events=[{"type": r.type, "data": r.data or {}} for r in shown if r.type != "roll"
                and not r.type.startswith(("phase.", "adjudication.", "moderator."))],
        rolls=group_rolls(r.data or {} for r in shown if r.type == "roll"),
        rulings=rulings, defaulted=defaulted, commitment=game.commitment,
        ended=current.state == "ended",
    )


def render_report(game: Game, ctx: ReportContext) -> str:
    """The mail's frame (marker, deadline, rulings, dice) around the game's own body.

    The body is ``templates/<game>/report.<lang>.txt.j2`` when the game has
    one (given only ``view``, ``events`` and ``power``), else a generic listing.
    """
    try:
        body = render("report", ctx.language, game.module, game_only=True, view=ctx.view,
                      events=ctx.events, power=ctx.power)
    except TemplateNotFound:
        body = None
    return render("report", ctx.language, None, body=body, **ctx.as_dict())


def pending_rulings(session: Session, game_id: str) -> list[ModeratorAct]:
    return list(session.exec(select(ModeratorAct).where(
        ModeratorAct.game_id == game_id, ModeratorAct.command == "ruling",
        ModeratorAct.published == False, ModeratorAct.private == False)))  # noqa: E712


def queue_phase_reports(ctx: ServiceContext, session: Session, game: Game, closed: Phase | None,
                        current: Phase, *, defaulted: list[str]) -> None:
    """Render, store and queue every seat's report and the moderator's."""
    module = module_of(game)
    rows = events_of(session, game.id, closed.seq, closed.dice_branch) if closed else []
    rulings_rows = pending_rulings(session, game.id)
    rulings = [str((r.args or {}).get("text", r.reason)) for r in rulings_rows]
    held = bool((game.settings or {}).get("preview")) and closed is not None
    seq = closed.seq if closed else current.seq
    branch = closed.dice_branch if closed else 0
    for seat in seats(session, game.id):
        if not seat.active:
            continue
        rc = build_context(game, module, closed, current, seat.power, seat, rows, rulings, defaulted)
        text = render_report(game, rc)
        _store_and_queue(ctx, session, game, seq, branch, seat.power, current.phase_id, text,
                         [seat.address], held)
    mod = moderator_address(ctx, game)
    rc = build_context(game, module, closed, current, None, None, rows, rulings, defaulted)
    _store_and_queue(ctx, session, game, seq, branch, "", current.phase_id, render_report(game, rc),
                     [mod] if mod else [], False)
    for r in rulings_rows:
        r.published = True
        session.add(r)
    if held:
        current.released = False
        session.add(current)


def _store_and_queue(ctx: ServiceContext, session: Session, game: Game, seq: int, branch: int,
                     power: str, phase_id: str, text: str, to: list[str], held: bool) -> None:
    existing = session.exec(select(Report).where(
        Report.game_id == game.id, Report.phase_seq == seq, Report.power == power,
        Report.branch == branch)).first()
    if existing is None:
        session.add(Report(game_id=game.id, phase_seq=seq, branch=branch, power=power,
                           phase_id=phase_id, text=text, created_at=ctx.clock.now()))
    if not to:
        return
    who = power or "moderator"
    queue_mail(ctx, session, game_id=game.id, kind="report", to=to,
               subject=f"[{game.id}] {phase_id}: report for {who}", text=text,
               key=f"report:{game.id}:{seq}:{branch}:{who}", held=held)


def current_report(ctx: ServiceContext, session: Session, game: Game, current: Phase,
                   power: str | None, seat: Seat | None) -> str:
    """A fresh report of the current position (STATUS, a new player)."""
    module = module_of(game)
    rc = build_context(game, module, None, current, power, seat, [], [], [])
    return render_report(game, rc)
