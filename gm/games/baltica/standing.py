"""Standing battle decisions given in advance (orders.md §5, rules 5.1, 5.5-5.7, 7.3).

The decisions the table makes in the middle of a season (the First Player's battle
order, 5.1; which block takes a tied hit, 5.5/7.3; conditional retreats, 5.6; regroups,
5.7) may be sent with a player's actions, by either player in either action phase of
the season. When an action phase or the battles phase is adjudicated they are kept in the game turn
(``Turn.standing``: power -> the orders' JSON) and used by the battles and the forage of
that season, unless the player gives orders of the same kind in the phase itself: a
kind given later replaces that kind given earlier (docs/orders.md, "Standing orders").

A battles or forage phase owes orders only from a power that still has a decision to
make there (:func:`deciding_powers`); when none has, the phase closes at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.games.baltica import parsing
from gm.games.baltica.conditions import unwrap
from gm.games.baltica.orders import (
    BattleOrder,
    HitsPrefer,
    OrderType,
    Regroup,
    Retreat,
    order_from_json,
    order_to_json,
)
from gm.games.baltica.rules.battle import battle_territories
from gm.games.baltica.rules.fleet_battle import fleet_battle_zones
from gm.games.baltica.rules.forage import short_of_forage
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POWERS
from gm.orders.conditions import Conditional

STANDING_TYPES: tuple[OrderType, ...] = (BattleOrder, HitsPrefer, Retreat, Regroup)
"""The battle decisions a player may give in advance (orders.md §5)."""


def is_standing(order: Any) -> bool:
    """A battle decision (possibly conditional) that may be given in advance."""
    return isinstance(unwrap(order)[0], STANDING_TYPES)


def _to_json(order: Any) -> dict[str, Any]:
    if isinstance(order, Conditional):
        return {"type": "conditional", "text": order.echo()}
    return order_to_json(order)


def _from_json(data: Mapping[str, Any]) -> Any:
    if data.get("type") == "conditional":
        return parsing.reparse(str(data["text"]))
    return order_from_json(data)


def _kinds(orders: Sequence[Any]) -> set[type]:
    return {type(unwrap(o)[0]) for o in orders if is_standing(o)}


def record(world: World, orders: Mapping[str, Sequence[Any]]) -> None:
    """Keep each power's battle decisions of this phase in the game turn; a kind given
    now replaces the same kind given in an earlier phase of the season."""
    for power, os in orders.items():
        given = [o for o in os if is_standing(o)]
        if not given:
            continue
        kinds = _kinds(given)
        kept = [d for d in world.state.turn.standing.get(power, [])
                if type(unwrap(_from_json(d))[0]) not in kinds]
        world.state.turn.standing[power] = kept + [_to_json(o) for o in given]


def given_earlier(world: World, power: str, orders: Sequence[Any]) -> dict[type, list[Any]]:
    """The standing decisions ``power`` gave in an earlier phase of the season that
    ``orders`` replace, by kind (a kind given later replaces that kind given earlier), so
    the reply can say which (orders.md §2: "each order as understood")."""
    kinds = _kinds(orders)
    out: dict[type, list[Any]] = {}
    for d in world.state.turn.standing.get(power, []):
        o = _from_json(d)
        kind = type(unwrap(o)[0])
        if kind in kinds:
            out.setdefault(kind, []).append(o)
    return out


def with_standing(world: World, orders: Mapping[str, Sequence[Any]]) -> dict[str, list[Any]]:
    """The orders of this phase with each power's standing decisions before them, minus
    the kinds the power gave anew in this phase (the phase's own orders replace them)."""
    out: dict[str, list[Any]] = {p: list(os) for p, os in orders.items()}
    for power, stored in world.state.turn.standing.items():
        now = out.get(power, [])
        kinds = _kinds(now)
        earlier = [o for o in (_from_json(d) for d in stored) if type(unwrap(o)[0]) not in kinds]
        out[power] = earlier + now
    return out


def battle_powers(world: World) -> set[str]:
    """The powers with blocks in a land or fleet battle to come (5.0, 9.3)."""
    places = battle_territories(world) + fleet_battle_zones(world)
    return {p for p in POWERS for t in places
            if world.blocks_of(p, t, ground_only=False)}


def forage_powers(world: World) -> set[str]:
    """The powers that will lose steps to forage somewhere (7.1), where a tie for the
    loss is the owner's choice (7.3)."""
    return {p for p in POWERS if short_of_forage(world, p)}


def deciding_powers(world: World, step: str) -> tuple[str, ...]:
    """Who still has a decision to make in a battles or forage phase (orders.md §5):
    a power concerned by a battle (or a forage loss) that gave no standing decision this
    season. Any standing decision counts as the player's choice: the documented
    defaults stand for the rest."""
    concerned = battle_powers(world) if step == "battles" else forage_powers(world)
    decided = {p for p, os in world.state.turn.standing.items() if os}
    return tuple(p for p in POWERS if p in concerned and p not in decided)
