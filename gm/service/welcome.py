"""The first mails of a game: each player's password, then their first report."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Session

from gm.db.models import Game, Phase, Seat
from gm.i18n import msg, translate
from gm.mail.compose import Attachment
from gm.service.context import ServiceContext
from gm.service.games import NewGame, current_phase, get_seat, module_of, phase_info, seats
from gm.service.notify import moderator_address
from gm.service.outbox import queue_mail
from gm.service.render import render, render_html
from gm.service.reports import deadline_calendar, queue_current_report


def queue_start_reports(ctx: ServiceContext, session: Session, game: Game) -> None:
    """Each seat's first report: the position the game opens with."""
    phase = current_phase(session, game.id)
    for seat in seats(session, game.id):
        if not seat.address:
            continue
        queue_current_report(ctx, session, game, phase, seat.power, seat, to=[seat.address],
                             subject=f"[{game.id}] {phase.phase_id}: report for {seat.power}",
                             key=f"report:{game.id}:start:{seat.power}")


def other_seats(game: Game, all_seats: list[Seat], power: str, language: str = "en") -> str:
    """The other seats as the welcome names them: their powers' names in ``language``
    (GameModule.power_name: "Grande-Bretagne", not "britain"); with their addresses only
    when the game's setting ``show_addresses`` is true and press is not anonymous (grey
    press would be pointless if the welcome said who plays what)."""
    settings = game.settings or {}
    grey = str(settings.get("press", "")).strip().lower() in ("anonymous", "grey", "gray")
    addresses = bool(settings.get("show_addresses")) and not grey  # gm.pipeline.press's names
    said = module_of(game).power_said
    return ", ".join(f"{said(s.power, language)} ({s.address})" if addresses and s.address
                     else said(s.power, language) for s in all_seats if s.power != power)


def queue_welcomes(ctx: ServiceContext, session: Session, made: NewGame) -> None:
    """Mail every seat its sign-on (password) and the first phase it orders in.

    The password travels only in the welcome, never in a report. The welcome names the
    game, the scenario, the other seats and the moderator, and gives a ready-to-copy
    sign-on block (issue 19). The phase it names is the one now open: when the game was
    started with its opening die rolls played out (gm.service.adjudicate.play_out_opening),
    that is the first phase someone orders in, and a seat that may order in it gets its
    deadline and its .ics. A seat whose turn comes later (a sequential game) is told who
    orders first and that the report opening its own phase brings its deadline and .ics.
    When the phase still owes nobody's orders (a game created by code without playing the
    opening out), the welcome says so and carries no calendar file. When what was played
    out is held for the moderator's review (preview), the welcome names no phase: the one
    now open would tell what the opening rolls gave before RELEASE.
    """
    game = made.game
    phase = current_phase(session, game.id)
    module = module_of(game)
    title = next((sc.title for sc in module.scenarios() if sc.id == game.scenario), game.scenario)
    scenario = title if game.scenario in title else f"{title} ({game.scenario})"
    info = phase_info(phase)
    under_review = not phase.released  # preview: the phase's id would tell what was rolled
    no_orders = not info.owing or under_review
    everyone = seats(session, game.id)
    for power, password in made.passwords.items():
        seat = get_seat(session, game.id, power)
        if not seat.address:
            continue
        mine = power in info.owing
        later, latest = ("", None) if no_orders or mine else _later_turn(game, phase, power)
        ics = (None if no_orders else _calendar(ctx, game, seat, phase) if mine
               else _calendar(ctx, game, seat, phase, later, latest) if latest else None)
        words: dict[str, Any] = dict(game_id=game.id, power=power, password=password,
                     address=ctx.service_address, phase=phase.phase_id, deadline=phase.deadline,
                     timezone=seat.timezone, commitment=game.commitment,
                     calendar="deadline.ics" if ics else None, game_title=module.title,
                     scenario=scenario, moderator=moderator_address(ctx, game),
                     others=other_seats(game, everyone, power, seat.language),
                     no_orders=no_orders, game_module=game.module,
                     turn_of="" if no_orders or mine else ", ".join(
                         module.power_said(p, seat.language, "the") for p in info.owing),
                     next_phase=later, latest=latest, under_review=under_review)
        queue_mail(ctx, session, game_id=game.id, kind="welcome", to=[seat.address],
                   subject=f"[{game.id}] " + translate(msg(
                       "welcome: you play {power}", power=module.power_name(power, "the")),
                       seat.language),
                   text=render("welcome", seat.language, game.module, **words),
                   html=render_html("welcome", seat.language, game.module, **words),
                   attachments=[ics] if ics else [], key=f"welcome:{game.id}:{power}")


def _later_turn(game: Game, phase: Phase, power: str) -> tuple[str, datetime | None]:
    """The phase ``power`` first orders in when it follows the open one (the game tells it:
    GameModule.next_phase_for, the Pax Baltica Second Player) and that phase's latest
    deadline: it opens when the open phase closes (its deadline plus grace at the latest)
    and, being the next turn of a sequential phase, has the same kind and length. ("", None)
    when the game cannot tell; the report that opens the phase gives its deadline then."""
    from gm.service.deadlines import due_at
    from gm.service.phases import deadline_for

    later = module_of(game).next_phase_for(phase.game_state or {}, power)
    if not later or phase.deadline is None:
        return "", None
    return later, deadline_for(game, phase.kind, due_at(game.settings, phase.deadline))


def _calendar(ctx: ServiceContext, game: Game, seat: Seat, phase: Phase, later: str = "",
              latest: datetime | None = None) -> Attachment | None:
    """The .ics of the open phase's deadline; or, with ``later``, of the latest deadline of
    the phase after it, under that phase's UID (its report's .ics moves the same event)."""
    if later:
        return deadline_calendar(ctx, game, power=seat.power, language=seat.language,
                                 phase_id=later, seq=phase.seq + 1, opened_at=None,
                                 deadline=latest)
    return deadline_calendar(ctx, game, power=seat.power, language=seat.language,
                             phase_id=phase.phase_id, seq=phase.seq, opened_at=phase.opens_at,
                             deadline=phase.deadline)
