"""Swedish Winter Campaigns, "Never Mind The Weather" (3.4).

3.4: "When a Year ends, just after the normal Winter turn is concluded, the Swedish player
may go on a special Winter Campaign. The Swedish player may move Karl XII, along with any
or all other Swedish blocks in the same territory; the move may cause a battle as
normal. Karl and any blocks with him may declare a siege attempt, if otherwise
eligible. Each Swedish block participating in a Winter Campaign action immediately
loses one step at the start of the action. After this extra winter action, the next
Year begins as normal with the Interphase."

By mail: ``winter campaign: move from T: Karl XII, ... to U`` and/or ``siege U with Karl
XII, ...``; default (no order): no campaign. The campaign is one action (3.3): the move
with its free siege (6.1), or a siege declared where Karl XII stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gm.games.baltica.conditions import unwrap
from gm.games.baltica.orders import Move, MoveGroup, Siege, WinterCampaign
from gm.games.baltica.rules.action_phase import run_action_phase
from gm.games.baltica.rules.losses import KARL_XII, take_step
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.i18n import msg

SWEDEN = "sweden"


def campaign_orders(world: World, orders: Sequence[Any]) -> tuple[Move | None, list[Siege]]:
    """The last ``winter campaign`` move given, and the ``siege`` orders."""
    move: Move | None = None
    sieges: list[Siege] = []
    for o in orders:
        inner, _ = unwrap(o)
        if isinstance(inner, WinterCampaign):
            move = inner.move
        elif isinstance(inner, Siege):
            sieges.append(inner)
    return move, sieges


def campaign_problem(world: World, move: Move | None, sieges: Sequence[Siege]) -> Why | None:
    """3.4: the move starts where Karl XII stands and takes him along; a siege is
    declared by Karl XII and blocks with him."""
    karl = world.state.blocks[KARL_XII]
    if not world.state.on_map(KARL_XII):
        return Why.NOT_ON_MAP
    with_karl = {b for b in world.state.at(karl.location) if world.power_of(b) == SWEDEN}
    if move is not None:
        if world.bid_territory(move.origin) != karl.location:
            return Why.WINTER_WITH_KARL
        if KARL_XII not in {world.bid_block(b) for b in move.blocks()}:
            return Why.WINTER_WITH_KARL
    for s in sieges:
        blocks = {world.bid_block(b) for b in s.blocks}
        if KARL_XII not in blocks or not blocks <= with_karl:
            return Why.WINTER_WITH_KARL
    return None


def winter_roll(world: World) -> bool:
    """3CG special end year turn: "the Swedish player rolls 1D6 for a special Winter Turn.
    On a roll of 5 or 6 the Swedish player may perform one group move containing Karl
    XII" (tables.toml ``limits.winter_campaign_needs``; 0, the GMT 3.4 rule: no roll).
    Rolled when Sweden orders a campaign (docs/baltica.md)."""
    needs = int(world.board.tables["limits"].get("winter_campaign_needs", 0))
    if needs <= 0:
        return True
    roll = world.dice.d6(msg("special Winter Turn (needs 5 or 6)"))
    world.emit("winter_roll", None, roll=roll, needs=needs, success=roll >= needs)
    return roll >= needs


def winter_campaign(world: World, sweden: Sequence[Any], coalition: Sequence[Any]) -> bool:
    """Carry out Sweden's winter campaign, if ordered; True when blocks took part (the
    battles and sieges it causes follow, as in a battle phase)."""
    move, sieges = campaign_orders(world, sweden)
    if move is None and not sieges:
        world.emit("no_winter_campaign")
        return False
    why = campaign_problem(world, move, sieges)
    if why is None and not winter_roll(world):
        why = Why.WINTER_ROLL_FAILED
    if why is not None:
        order = (WinterCampaign(move).echo() if move is not None else sieges[0].echo())
        world.emit("order_failed", [SWEDEN], order=order, why=why.value, code=why.name)
        world.emit("no_winter_campaign")
        return False
    taking_part = sorted({world.bid_block(b) for b in (move.blocks() if move else ())}
                         | {world.bid_block(b) for s in sieges for b in s.blocks})
    where = world.state.blocks[KARL_XII].location
    world.emit("winter_campaign", territory=world.tname(where), count=len(taking_part))
    losses = []
    for b in taking_part:  # "immediately loses one step at the start of the action"
        eliminated = take_step(world, b, hidden=True)
        losses.append({"block": world.name(b), "strength": world.state.blocks[b].strength,
                       "eliminated": eliminated})
    world.emit("winter_losses", [SWEDEN], blocks=losses)
    world.emit("winter_losses_count", territory=world.tname(where), steps=len(losses))
    world.state.turn.actions[SWEDEN] = 1  # "this extra winter action"
    orders: list[Any] = []
    if move is not None:
        groups = tuple(MoveGroup(tuple(n for n in g.blocks if world.state.blocks[
            world.bid_block(n)].location == where), g.to, g.via, g.force) for g in move.groups)
        groups = tuple(g for g in groups if g.blocks)
        if groups:
            orders.append(Move(move.origin, groups))
    for s in sieges:
        left = tuple(n for n in s.blocks if world.state.on_map(world.bid_block(n)))
        if left:
            orders.append(Siege(s.territory, left))
    run_action_phase(world, SWEDEN, orders, coalition)
    return True
