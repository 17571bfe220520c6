"""Creating games and finding their parts: seats, phases, orders."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, col, select

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
) -> NewGame:
    """Set a game up from a scenario, open its first phase, mail each player their sign-on."""
    from gm.service.phases import open_phase
    from gm.service.welcome import queue_welcomes

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
    state = module.setup(scenario, options)
    seed = seed or new_seed()
    mod_pw = moderator_password or new_password()
    game = Game(
        id=game_id, module=module_name, ruleset=str(options.get("ruleset", "")),
        scenario=scenario, seed=seed, commitment=commitment(seed, game_id),
        settings=options, moderator_address=moderator_address,
        moderator_password_hash=hash_password(mod_pw), created_at=ctx.clock.now(),
    )
    session.add(game)
    result = NewGame(game=game, moderator_password=mod_pw)
    controlled = module.controlled_powers(scenario)
    for spec in seats:
        password = spec.password or new_password()
        result.passwords[spec.power] = password
        session.add(Seat(game_id=game_id, power=spec.power, address=spec.address,
                         password_hash=hash_password(password), language=spec.language,
                         timezone=spec.timezone,
                         controls=list(dict.fromkeys([*spec.controls,
                                                      *controlled.get(spec.power, ())]))))
    session.flush()
    open_phase(ctx, session, game, module, state, seq=0)
    queue_welcomes(ctx, session, result)
    return result


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
    return list(session.exec(select(Seat).where(Seat.game_id == game_id).order_by(col(Seat.id))))


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
    phase = session.exec(
        select(Phase).where(Phase.game_id == game_id, Phase.state != "undone")
        .order_by(col(Phase.seq).desc())
    ).first()
    if phase is None:
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
    rows = session.exec(select(OrderSet).where(
        OrderSet.game_id == game_id, OrderSet.phase_seq == seq, OrderSet.current == True  # noqa: E712
    ))
    return {row.power: row for row in rows}


def done_phases(session: Session, game_id: str) -> list[Phase]:
    return list(session.exec(select(Phase).where(
        Phase.game_id == game_id, Phase.state == "done").order_by(col(Phase.seq))))
