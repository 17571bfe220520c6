"""The first mails of a game: each player's password, then their first report."""

from __future__ import annotations

from sqlmodel import Session

from gm.service.context import ServiceContext
from gm.service.games import NewGame, current_phase, get_seat, module_of, phase_info
from gm.service.notify import moderator_address
from gm.service.outbox import queue_mail
from gm.service.render import render, render_html
from gm.service.reports import deadline_calendar, queue_current_report


def queue_welcomes(ctx: ServiceContext, session: Session, made: NewGame) -> None:
    """Mail every seat its sign-on (password) and, separately, its first report.

    The password travels only in the welcome, never in a report. The welcome names the
    game, the scenario, the other seats and the moderator (issue 19). When the first
    phase owes nobody's orders (Pax Baltica's first action roll, played out as the game
    starts), the welcome says so and carries no calendar file: the report of the phase
    the players order in carries its deadline and its .ics.
    """
    game = made.game
    phase = current_phase(session, game.id)
    module = module_of(game)
    title = next((sc.title for sc in module.scenarios() if sc.id == game.scenario), game.scenario)
    scenario = title if game.scenario in title else f"{title} ({game.scenario})"
    no_orders = not phase_info(phase).owing  # a die roll played out when the game starts
    for power, password in made.passwords.items():
        seat = get_seat(session, game.id, power)
        if not seat.address:
            continue
        ics = None if no_orders else deadline_calendar(
            ctx, game, power=power, language=seat.language, phase_id=phase.phase_id, seq=phase.seq,
            opened_at=phase.opens_at, deadline=phase.deadline)
        words = dict(game_id=game.id, power=power, password=password,
                     address=ctx.service_address, phase=phase.phase_id, deadline=phase.deadline,
                     timezone=seat.timezone, commitment=game.commitment,
                     calendar="deadline.ics" if ics else None, game_title=module.title,
                     scenario=scenario, moderator=moderator_address(ctx, game),
                     others=", ".join(p for p in made.passwords if p != power),
                     no_orders=no_orders)
        queue_mail(ctx, session, game_id=game.id, kind="welcome", to=[seat.address],
                   subject=f"[{game.id}] welcome: you play {power}",
                   text=render("welcome", seat.language, game.module, **words),
                   html=render_html("welcome", seat.language, game.module, **words),
                   attachments=[ics] if ics else [], key=f"welcome:{game.id}:{power}")
        queue_current_report(ctx, session, game, phase, power, seat, to=[seat.address],
                             subject=f"[{game.id}] {phase.phase_id}: report for {power}",
                             key=f"report:{game.id}:start:{power}")
