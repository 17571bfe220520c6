"""One player's Action Phase (0.3, 3.3): actions in rulebook order, counted, then
force-march losses (4.4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gm.games.baltica.conditions import applies, unwrap
from gm.games.baltica.orders import (
    ACTION_TYPES,
    NOT_YET_IMPLEMENTED,
    MainAttack,
    Move,
    Recon,
    Replace,
    Siege,
    action_rank,
)
from gm.games.baltica.rules import actions, movement
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World


def sequence_actions(orders: Sequence[Any]) -> list[Any]:
    """3.3: "Actions must be performed in the order given, i.e., Reconnaissance before
    Movement before Siege Declarations" (then politics, then replacements). Orders keep
    the player's order within each kind."""
    return sorted(orders, key=lambda o: action_rank(unwrap(o)[0]))


def record_main_attacks(world: World, orders: Sequence[Any]) -> None:
    """5.3: "The attacking player declares one border as the main attack" (a standing
    order of the attacker's action phase; default: the border first used to attack)."""
    for o in orders:
        inner, _ = unwrap(o)
        if isinstance(inner, MainAttack):
            t = world.bid_territory(inner.territory)
            world.state.turn.main_attacks[t] = world.bid_territory(inner.origin)


def run_action_phase(world: World, power: str, orders: Sequence[Any]) -> None:
    """Carry out ``power``'s actions top to bottom in 3.3 order; skip what cannot be done.

    An action that achieves nothing (every group refused) costs no action. When the
    actions run out, the remaining orders are skipped and the report says so (orders.md §4).
    """
    left = world.state.turn.actions.get(power, 0)
    acts = [o for o in orders if isinstance(unwrap(o)[0], ACTION_TYPES)]
    for o in sequence_actions(acts):
        inner, cond = unwrap(o)
        if isinstance(inner, NOT_YET_IMPLEMENTED):
            _skip(world, power, inner, Why.NOT_YET_IMPLEMENTED)
            continue
        free_siege = isinstance(inner, Siege) and _would_be_free(world, power, inner)
        if left <= 0 and not free_siege:
            _skip(world, power, inner, Why.NO_ACTIONS_LEFT)
            continue
        if not applies(world, power, cond):
            _skip(world, power, inner, Why.CONDITION_FALSE)
            continue
        spent = _carry_out(world, power, inner)
        left -= spent
    world.state.turn.actions[power] = max(left, 0)
    record_main_attacks(world, orders)
    movement.force_march_losses(world, power)


def _would_be_free(world: World, power: str, order: Siege) -> bool:
    t = world.bid_territory(order.territory)
    blocks = [world.bid_block(n) for n in order.blocks]
    if any(b not in world.state.blocks for b in blocks):
        return False
    return actions.siege_is_free(world, power, t, blocks)


def _carry_out(world: World, power: str, order: Any) -> int:
    """Carry out one action; return the actions it cost (0 or 1)."""
    if isinstance(order, Recon):
        why = actions.recon(world, power, order)
    elif isinstance(order, Move):
        results = movement.carry_out_move(world, power, order)
        for group, w in results:
            if w is not None:
                world.emit("order_failed", [power], order=f"{order.origin}: {group.echo()}",
                           why=w.value)
        return 1 if any(w is None for _, w in results) else 0
    elif isinstance(order, Siege):
        why, free = actions.declare_siege(world, power, order)
        if why is None:
            return 0 if free else 1
    elif isinstance(order, Replace):
        why = actions.replace(world, power, order)
    else:
        why = Why.NOT_YET_IMPLEMENTED
    if why is not None:
        _skip(world, power, order, why)
        return 0
    return 1


def _skip(world: World, power: str, order: Any, why: Why) -> None:
    world.emit("order_failed", [power], order=order.echo(), why=why.value)
