"""Creating games and finding their parts: seats, phases, orders."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from gm.db.models import Game, OrderSet, Phase, Seat
from gm.dice import commitment, new_seed
from gm.games import registry
from gm.games.base import GameModule, PhaseInfo
from gm.service.context import ServiceContext
from gm.service.errors import Conflict, NotFound
from gm.service.passwords import hash_password, new_password

GAME_ID = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")


@dataclass(frozen=True)
class SeatSpec:
    power: str
    address: str
    password: str | None = None  # None: a new one is made and returned once
    language: str = "en"
    timezone: str = "UTC"
    controls: tuple[str, ...] = ()


@dataclass
class NewGame:
    game: Game
    passwords: dict[str, str] = field(default_factory=dict)  # power -> clear password, shown once
    moderator_password: str = ""


def create_game(
    ctx: ServiceContext,
    session: Session,
    *,
    game_id: str,
    module_name: str,
    scenario: str,
    seats: Sequence[SeatSpec],
    moderator_address: str = "",
    moderator_password: str | None = None,
    settings: Mapping[str, Any] | None = None,
    seed: bytes | None = None,
    forming: bool = False,
    play_out: bool = False,
) -> NewGame:
    """Set a game up from a scenario, open its first phase, mail each player their sign-on.

    ``forming``: the scenario's powers without a seat in ``seats`` are open seats that
    players take by mail (JOIN, gm.service.forming); nothing is opened or mailed until the
    last seat is filled, and the seats' passwords are made then. ``play_out``: phases that
    owe nobody's orders (Pax Baltica's opening action roll) are played out in this same
    transaction, so the welcome names the first phase the players order in (issue 19).
    """
    from gm.service.forming import FORMING, forming_settings

    if not GAME_ID.match(game_id):
        raise Conflict(f"'{game_id}' is not a valid game id: use lowercase letters, digits, - and _")
    if session.get(Game, game_id) is not None:
        raise Conflict(f"there is already a game '{game_id}'")
    module = registry.get(module_name)
    scenario_powers = _scenario_powers(module, scenario)
    unknown = [s.power for s in seats if s.power not in scenario_powers]
    if unknown:
        raise NotFound(f"{module_name} {scenario} has no power {', '.join(unknown)} "
                       f"(powers: {', '.join(scenario_powers)})")
    options = dict(settings or {})
    if forming:
        if any(s.password for s in seats):
            raise Conflict("a forming game makes its passwords when it starts: give --seat "
                           "POWER=ADDRESS without a password")
        if {s.power for s in seats} >= set(scenario_powers):  # no seat to JOIN: never starts
            raise Conflict("every power has a --seat, so a forming game would have no open "
                           "seat and never start: leave out --forming to start it now")
        options["forming"] = forming_settings(options)
    state = module.setup(scenario, options)  # checks the settings now, not when it starts
    seed = seed or new_seed()
    mod_pw = moderator_password or new_password()
    game = Game(
        id=game_id, module=module_name, ruleset=str(options.get("ruleset", "")),
        scenario=scenario, seed=seed, commitment=commitment(seed, game_id),
        settings=options, moderator_address=moderator_address,
        moderator_password_hash=hash_password(mod_pw), created_at=ctx.clock.now(),
        status=FORMING if forming else "running",
    )
    session.add(game)
    result = NewGame(game=game, moderator_password=mod_pw)
    controlled = module.controlled_powers(scenario)
    given = {spec.power: spec for spec in seats}
    for power in scenario_powers if forming else [spec.power for spec in seats]:
        spec = given.get(power) or SeatSpec(power, "")  # an open seat of a forming game
        password = "" if forming else (spec.password or new_password())
        if password:
            result.passwords[spec.power] = password
        session.add(Seat(game_id=game_id, power=spec.power, address=spec.address,
                         password_hash=hash_password(password) if password else "",
                         language=spec.language, timezone=spec.timezone,
                         controls=list(dict.fromkeys([*spec.controls,
                                                      *controlled.get(spec.power, ())]))))
    session.flush()
    if not forming:
        begin_play(ctx, session, result, play_out=play_out, state=state)
    return result


def begin_play(ctx: ServiceContext, session: Session, made: NewGame, *, play_out: bool,
               state: dict[str, Any] | None = None) -> None:
    """Open the game's first phase now and mail each seat its welcome and first report.

    The first deadline is counted from now (for a forming game: when its last seat was
    filled, not when it was created). With ``play_out``, phases nobody orders in are
    adjudicated first, in this transaction (gm.service.adjudicate.play_out_opening); then
    the first report is the one of the first phase played out (its results, such as Pax
    Britannica's 1880 Random Events, Administration and Minor Powers, with the position
    after them), and no report of the position before it goes out (one report, not two)."""
    from gm.service.adjudicate import play_out_opening
    from gm.service.phases import open_phase
    from gm.service.welcome import queue_start_reports, queue_welcomes

    game = made.game
    module = module_of(game)
    if state is None:
        state = module.setup(game.scenario, dict(game.settings or {}))
    opening = open_phase(ctx, session, game, module, state, seq=0)
    if play_out:
        play_out_opening(ctx, session, game.id)
    if current_phase(session, game.id).seq == opening.seq:  # nothing was played out
        queue_start_reports(ctx, session, game)
    queue_welcomes(ctx, session, made)


def _scenario_powers(module: GameModule, scenario: str) -> tuple[str, ...]:
    for s in module.scenarios():
        if s.id == scenario:
            return s.powers
    ids = ", ".join(s.id for s in module.scenarios())
    raise NotFound(f"{module.name} has no scenario '{scenario}' (scenarios: {ids})")


def get_game(session: Session, game_id: str) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise NotFound(f"there is no game '{game_id}'")
    return game


def module_of(game: Game) -> GameModule:
    return registry.get(game.module)


def seats(session: Session, game_id: str) -> list[Seat]:
    return list(session.exec(_seats_query(), params={"of_game": game_id}))


@functools.cache
def _seats_query() -> SelectOfScalar[Seat]:
    """Built once (issue 21: building a statement cost three times its execution)."""
    return select(Seat).where(col(Seat.game_id) == bindparam("of_game")).order_by(col(Seat.id))


@functools.cache
def _current_phase_query() -> SelectOfScalar[Phase]:
    """Built once (issue 21), the game bound; ``LIMIT 1`` because an ORM read fetches and
    builds every row it selects, ``.first()`` or not (issue 21: each mail decoded the game
    state of every phase of its game, the whole history, to use the latest)."""
    return (select(Phase).where(col(Phase.game_id) == bindparam("of_game"), col(Phase.state) != "undone")
            .order_by(col(Phase.seq).desc()).limit(1))


def get_seat(session: Session, game_id: str, power: str) -> Seat:
    seat = session.exec(select(Seat).where(Seat.game_id == game_id, Seat.power == power)).first()
    if seat is None:
        raise NotFound(f"game '{game_id}' has no power '{power}'")
    return seat


def seat_for_power(session: Session, game_id: str, power: str) -> Seat | None:
    """The seat that orders for ``power``: its own, or one that controls it (FOR)."""
    own = session.exec(select(Seat).where(Seat.game_id == game_id, Seat.power == power)).first()
    if own is not None:
        return own
    for seat in seats(session, game_id):
        if power in (seat.controls or []):
            return seat
    return None


def current_phase(session: Session, game_id: str) -> Phase:
    """The game's live phase: the latest one that was not rolled back."""
    phase = session.exec(_current_phase_query(), params={"of_game": game_id}).first()
    if phase is None:
        game = session.get(Game, game_id)
        if game is not None and game.status == "forming":
            raise Conflict(f"game '{game_id}' has not started: it is forming and starts when "
                           f"its last seat is filled (gm game show {game_id})")
        raise NotFound(f"game '{game_id}' has no phase")
    return phase


def phase_info(phase: Phase) -> PhaseInfo:
    info = phase.info or {}
    return PhaseInfo(
        id=phase.phase_id, kind=phase.kind, owing=tuple(info.get("owing", ())),
        may_order=tuple(info.get("may_order", ())), simultaneous=bool(info.get("simultaneous", True)),
        ended=bool(info.get("ended", False)),
    )


def current_orders(session: Session, game_id: str, seq: int) -> dict[str, OrderSet]:
    rows = session.exec(_current_orders_query(), params={"of_game": game_id, "of_seq": seq})
    return {row.power: row for row in rows}


@functools.cache
def _current_orders_query() -> SelectOfScalar[OrderSet]:
    """Built once (issue 21), the game and phase bound."""
    return select(OrderSet).where(col(OrderSet.game_id) == bindparam("of_game"),
                                  col(OrderSet.phase_seq) == bindparam("of_seq"),
                                  col(OrderSet.current) == True)  # noqa: E712


def done_phases(session: Session, game_id: str) -> list[Phase]:
    return list(session.exec(select(Phase).where(
        Phase.game_id == game_id, Phase.state == "done").order_by(col(Phase.seq))))
