"""One player's Action Phase (0.3, 3.3): actions in rulebook order, counted, then
force-march losses (4.4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace as with_
from typing import Any

from gm.games.baltica.conditions import applies, unwrap
from gm.games.baltica.orders import (
    ACTION_TYPES,
    NOT_YET_IMPLEMENTED,
    Discontent,
    Embark,
    Land,
    MainAttack,
    Move,
    Pin,
    Politics,
    Recon,
    Reinforce,
    Replace,
    Sail,
    Siege,
    action_rank,
)
from gm.games.baltica.rules import actions, fleets, movement, politics
from gm.games.baltica.rules.event_effects import Choices
from gm.games.baltica.rules.events import resolve_event
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.i18n import msg


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


def choices_from(world: World, orders: Sequence[Any], opponent: Sequence[Any]) -> Choices:
    """The standing choices events and politics read (docs/baltica.md): the player's
    first ``politics`` order (nation and targets), last ``reinforce`` list, and the
    opponent's last ``discontent`` list."""
    out = Choices()
    for o in orders:
        inner, _ = unwrap(o)
        if isinstance(inner, Politics) and out.nation is None:
            out = with_(out, nation=world.bid_nation(inner.nation),
                        targets=tuple(t for t in map(world.bid_nation, inner.targets) if t))
        elif isinstance(inner, Reinforce):
            out = with_(out, reinforce=tuple(world.bid_block(b) for b in inner.blocks))
    for o in opponent:
        inner, _ = unwrap(o)
        if isinstance(inner, Discontent):
            out = with_(out, discontent=tuple(world.bid_territory(t) for t in inner.territories))
    return out


def record_pins(world: World, opponent: Sequence[Any]) -> None:
    """4.3: "The enemy player chooses which blocks are pinned": the defender's ``pin``
    orders, by territory, in the order given (the default fills the rest)."""
    for o in opponent:
        inner, _ = unwrap(o)
        if isinstance(inner, Pin):
            t = world.bid_territory(inner.territory)
            world.pins.setdefault(t, []).extend(world.bid_block(b) for b in inner.blocks)


def run_action_phase(world: World, power: str, orders: Sequence[Any],
                     opponent: Sequence[Any] = ()) -> None:
    """Carry out ``power``'s actions top to bottom in 3.3 order; skip what cannot be done.

    A rolled event (3.1) is resolved first. An action that achieves nothing (every group
    refused) costs no action. When the actions run out, the remaining orders are skipped
    and the report says so (orders.md §4). ``opponent``: the other player's standing
    orders for this phase (``pin``, ``discontent``).
    """
    choices = choices_from(world, orders, opponent)
    record_pins(world, opponent)
    start = len(world.events)
    event = power in world.state.turn.events_due
    if event:
        world.state.turn.events_due.remove(power)
        resolve_event(world, power, choices)
    left = world.state.turn.actions.get(power, 0)
    origins: set[str] = set()
    acts = [o for o in orders if isinstance(unwrap(o)[0], ACTION_TYPES)]
    for o in sequence_actions(acts):
        inner, cond = unwrap(o)
        if event and isinstance(inner, Politics) and left <= 0:
            continue  # it named the nation for the event's National Politics roll (12.1 #6)
        if isinstance(inner, NOT_YET_IMPLEMENTED):
            _skip(world, power, inner, Why.NOT_YET_IMPLEMENTED)
            continue
        free_siege = isinstance(inner, Siege) and _would_be_free(world, power, inner)
        origin = _movement_origin(world, inner)
        if left <= 0 and not free_siege and origin not in origins:
            _skip(world, power, inner, Why.NO_ACTIONS_LEFT)
            continue
        if not applies(world, power, cond):
            _skip(world, power, inner, Why.CONDITION_FALSE)
            continue
        spent = _carry_out(world, power, inner, choices)
        if origin is not None and spent:
            if origin in origins:
                spent = 0
            origins.add(origin)
        left -= spent
    world.state.turn.actions[power] = max(left, 0)
    record_main_attacks(world, orders)
    movement.force_march_losses(world, power)
    tell_unused(world, power, orders, opponent, start)


def tell_unused(world: World, power: str, orders: Sequence[Any], opponent: Sequence[Any],
                start: int) -> None:
    """A line for each standing order of the phase that was not carried out (issue 18:
    "the player never has to guess"): the opponent's ``pin`` (4.3) where fewer or no
    blocks moved in, its ``discontent`` (12.4 #2) with no Discontent result, the acting
    player's ``reinforce`` with no steps to place and ``main attack`` (5.3) where it did
    not attack across that border. ``start``: the first event of this phase's actions."""
    other = [p for p in world.state.powers if p != power][0]
    entered = {t for t, es in world.state.turn.entries.items()
               if any(e[0] == power for e in es)}
    results = [e for e in world.events[start:] if e.type == "event_rolled"
               and e.data.get("power") == power]
    placed = any(e.type in ("rp_spent", "steps_gained") for e in world.events[start:])

    def told(who: str, order: Any, why: Why) -> None:
        world.emit("order_failed", [who], order=order.echo(),
                   why=why.value, code=why.name)

    for o in opponent:
        inner, _ = unwrap(o)
        if isinstance(inner, Pin):
            t = world.bid_territory(inner.territory)
            listed = [world.bid_block(b) for b in inner.blocks]
            if t not in entered:
                told(other, inner, Why.NO_ATTACK_THERE)
            elif any(b not in world.state.blocks or world.state.blocks[b].location != t
                     for b in listed):
                told(other, inner, Why.NOT_THERE)
            elif not all(world.state.blocks[b].pinned for b in listed):
                told(other, inner, Why.FEWER_ATTACKERS)
        elif isinstance(inner, Discontent) and not any(
                e.data.get("result") == "discontent" for e in results):
            told(other, inner, Why.NO_DISCONTENT)
    for o in orders:
        inner, _ = unwrap(o)
        if isinstance(inner, Reinforce) and not placed:
            told(power, inner, Why.NO_STEPS_TO_PLACE)
        elif isinstance(inner, MainAttack):
            t = world.bid_territory(inner.territory)
            used = {e[1] for e in world.state.turn.entries.get(t, []) if e[0] == power}
            if world.state.turn.defenders.get(t) != other:
                told(power, inner, Why.NO_ATTACK_THERE)
            elif world.bid_territory(inner.origin) not in used:
                told(power, inner, Why.NOT_ATTACK_BORDER)


def _movement_origin(world: World, order: Any) -> str | None:
    """3.3.2: "As an action, a player can move any number of blocks in one territory (or sea
    zone)": movement orders (move, embark, sail, land) from one place share one action
    within an action phase (9.2: a group "may split between transport and land movement")."""
    if isinstance(order, (Move, Embark, Sail, Land)):
        return world.bid_territory(order.origin)
    return None


def _would_be_free(world: World, power: str, order: Siege) -> bool:
    t = world.bid_territory(order.territory)
    blocks = [world.bid_block(n) for n in order.blocks]
    if any(b not in world.state.blocks for b in blocks):
        return False
    return actions.siege_is_free(world, power, t, blocks)


def _carry_out(world: World, power: str, order: Any, choices: Choices) -> int:
    """Carry out one action; return the actions it cost (0 or 1)."""
    if isinstance(order, Recon):
        why = actions.recon(world, power, order)
    elif isinstance(order, Move):
        results = movement.carry_out_move(world, power, order)
        for group, w in results:
            if w is not None:
                world.emit("order_failed", [power], order=msg("{origin}: {group}", origin=order.origin,
                                                                group=group.text()),
                           why=w.value, code=w.name)
        return 1 if any(w is None for _, w in results) else 0
    elif isinstance(order, Siege):
        why, free = actions.declare_siege(world, power, order)
        if why is None:
            return 0 if free else 1
    elif isinstance(order, Replace):
        why = actions.replace(world, power, order)
    elif isinstance(order, Embark):
        why = fleets.embark(world, power, order)
    elif isinstance(order, Sail):
        why = fleets.sail(world, power, order)
    elif isinstance(order, Land):
        why = fleets.land(world, power, order)
    elif isinstance(order, Politics):
        targets = tuple(t for t in map(world.bid_nation, order.targets) if t)
        why = politics.politics_action(world, power, world.bid_nation(order.nation),
                                       with_(choices, targets=targets))
    else:
        why = Why.NOT_YET_IMPLEMENTED
    if why is not None:
        _skip(world, power, order, why)
        return 0
    return 1


def _skip(world: World, power: str, order: Any, why: Why) -> None:
    world.emit("order_failed", [power], order=order.echo(), why=why.value, code=why.name)
