"""Fleets (9.0-9.4): fleet movement, sea transport (embark and land), anchored fleets.

A fleet at sea stands in a sea zone; a fleet in harbor ("anchored", 9.4) stands in the
harbor's territory but takes no part in anything there but replacements. Army and
regiment blocks aboard a fleet stand in its sea zone with ``aboard`` naming the fleet.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from gm.games.baltica.board import BlockKind
from gm.games.baltica.orders import Embark, Land, Sail
from gm.games.baltica.rules.losses import take_step
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import other_power

BRITISH_FLEET_NATION = "britain"


def fleets_at(world: World, power: str, sea: str) -> list[str]:
    """``power``'s fleets at sea in ``sea`` (not anchored)."""
    return [b for b in world.state.at(sea) if world.power_of(b) == power and not world.ground(b)]


def cargo_of(world: World, fleet: str) -> list[str]:
    """The blocks aboard ``fleet`` (9.2)."""
    return sorted(b for b, bs in world.state.blocks.items() if bs.aboard == fleet)


def enemy_fleets(world: World, power: str, sea: str) -> list[str]:
    return fleets_at(world, other_power(power), sea)


def _sea_step_problem(world: World, power: str, fleets: Sequence[str], sea: str) -> Why | None:
    """9.1 and 11.11: "Russian fleets may not enter or move through the sea zone occupied
    by the British fleet." """
    if any(world.spec(f).nation == "russia" for f in fleets) and any(
            world.spec(b).nation == BRITISH_FLEET_NATION for b in world.state.at(sea)):
        return Why.BRITISH_FLEET
    return None


def sea_path(world: World, power: str, fleets: Sequence[str], origin: str,
             to: str) -> tuple[str, ...] | Why:
    """9.1: the shortest sea path from ``origin`` (a sea zone) to ``to`` (a sea zone, or a
    harbor: "Entering a harbor counts as moving one sea zone"); fleets "must stop if they
    enter a sea zone occupied by one or more enemy fleet blocks"."""
    target_sea = to
    if to in world.board.territories:
        t = world.board.territories[to]
        if not world.harbor(to) or t.sea is None:
            return Why.NOT_A_HARBOR
        if t.box and any(world.spec(f).nation != t.nation for f in fleets):
            return Why.NOT_A_HARBOR
        if world.enemy_controlled(to, power):
            return Why.ENEMY_HARBOR
        target_sea = t.sea
    elif to not in world.board.seas:
        return Why.NOT_A_SEA
    seen: dict[str, tuple[str, ...]] = {origin: ()}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        if here == target_sea:
            break
        if here != origin and enemy_fleets(world, power, here):
            continue  # must stop here
        for there in sorted(world.board.seas[here].adjacent):
            if there in seen or _sea_step_problem(world, power, fleets, there):
                continue
            seen[there] = seen[here] + (there,)
            queue.append(there)
    if target_sea not in seen:
        return Why.NO_PATH
    path = seen[target_sea]
    if to != target_sea:
        if enemy_fleets(world, power, target_sea):
            return Why.MUST_STOP_ENEMY_FLEET
        path += (to,)
    return path


def sail(world: World, power: str, order: Sail) -> Why | None:
    """3.3.2/9.1: "Fleet blocks may move up to six sea zones as an action (Exception: the
    Russian galley fleet may move up to only three sea zones) ... leaving a harbor counts
    as an entire action and no further movement is allowed ... Fleets may not enter
    non-harbor land territories, nor may they enter enemy-controlled harbors." Cargo
    sails with its fleet; a fleet with cargo does not enter a harbor (land it first).
    3CG 8.1 (reading "whole-action" of ``harbor_entry``): "Leaving or entering a harbour
    also cost 1 AP": a fleet enters a harbor only from the harbor's own sea zone, as its
    whole move."""
    origin = world.bid_territory(order.origin)
    to = world.bid_territory(order.to)
    fleets = [world.bid_block(n) for n in order.fleets]
    for f in fleets:
        bs = world.state.blocks[f]
        if world.power_of(f) != power:
            return Why.NOT_YOURS
        if world.ground(f):
            return Why.NOT_A_FLEET
        if bs.location != origin:
            return Why.NOT_THERE
        if bs.moved:
            return Why.ALREADY_MOVED
    if origin in world.board.territories:
        if to != world.board.territories[origin].sea:
            return Why.HARBOR_EXIT
        why = _sea_step_problem(world, power, fleets, to)
        if why is not None:
            return why
        path: tuple[str, ...] | Why = (to,)
    else:
        path = sea_path(world, power, fleets, origin, to)
        if (to in world.board.territories and world.reading("harbor_entry") == "whole-action"
                and origin != world.board.territories[to].sea):
            return Why.HARBOR_ENTRY  # 3CG 8.1: "Leaving or entering a harbour also cost 1 AP."
    if isinstance(path, Why):
        return path
    if len(path) > min(world.spec(f).movement for f in fleets):
        return Why.TOO_FAR_AT_SEA
    cargo = [c for f in fleets for c in cargo_of(world, f)]
    if to in world.board.territories and cargo:
        return Why.CARGO_IN_HARBOR
    dest = path[-1]
    sole_enemy = dest in world.board.seas and enemy_fleets(world, power, dest) and not \
        fleets_at(world, power, dest)
    tick = world.tick()
    for b in fleets + cargo:
        bs = world.state.blocks[b]
        bs.location, bs.arrived = dest, tick
        if b in fleets:
            bs.moved = True
    if sole_enemy:
        world.state.turn.defenders[dest] = other_power(power)
    world.emit("sailed", [power], origin=world.tname(origin), path=[world.tname(p) for p in path],
               fleets=[world.name(f) for f in fleets], cargo=[world.name(c) for c in cargo])
    world.emit("fleets_sailed", None, power=power, origin=world.tname(origin),
               to=world.tname(dest), count=len(fleets), cargo=len(cargo))
    return None


def embark(world: World, power: str, order: Embark) -> Why | None:
    """9.2: "Loading blocks counts as those blocks' entire movement, and can only be done
    from a territory with a friendly port into the sea zone the port lies on ... Fleets
    may not load or unload army or regiment blocks if enemy fleets are present in the
    same sea zone." Blocks fill the named fleets in order; all or none embark."""
    origin = world.bid_territory(order.origin)
    t = world.board.territories.get(origin)
    if t is None or not t.port or t.sea is None or not world.controlled_by(origin, power):
        return Why.NOT_FRIENDLY_PORT
    sea = t.sea
    if enemy_fleets(world, power, sea):
        return Why.ENEMY_FLEET_PRESENT
    blocks = [world.bid_block(n) for n in order.blocks]
    fleets = [world.bid_block(n) for n in order.fleets]
    for b in blocks:
        bs = world.state.blocks[b]
        if world.power_of(b) != power:
            return Why.NOT_YOURS
        if not world.ground(b) or bs.location != origin:
            return Why.NOT_THERE
        if bs.moved:
            return Why.ALREADY_MOVED
        if bs.pinned:
            return Why.PINNED
    if any(f not in fleets_at(world, power, sea) for f in fleets):
        return Why.NO_FLEET_THERE
    plan: dict[str, str] = {}
    for b in blocks:
        for f in fleets:
            held = [c for c, on in plan.items() if on == f]
            if _room_with(world, f, b, held):
                plan[b] = f
                break
        else:
            return Why.NO_ROOM
    for b, f in plan.items():
        bs = world.state.blocks[b]
        bs.location, bs.aboard, bs.moved = sea, f, True
    world.emit("embarked", [power], territory=world.tname(origin), sea=world.tname(sea),
               blocks=[world.name(b) for b in blocks], fleets=[world.name(f) for f in fleets])
    world.emit("blocks_embarked", None, power=power, territory=world.tname(origin),
               sea=world.tname(sea), count=len(blocks))
    return None


def sea_retreat_fleet(world: World, block: str, territory: str, sea: str) -> str | None:
    """9.5: "Army or regiment blocks may retreat to sea onto fleets, under the same
    restrictions as sea transport (9.2). Sea retreats can only be conducted from a
    territory with a friendly port. Blocks may not sea retreat onto anchored fleets."
    The first own fleet at sea in ``sea`` (by id) with room for ``block``, or None."""
    power = world.power_of(block)
    t = world.board.territories.get(territory)
    if (t is None or not t.port or t.sea != sea or not world.controlled_by(territory, power)
            or not world.ground(block) or enemy_fleets(world, power, sea)):
        return None
    return next((f for f in sorted(fleets_at(world, power, sea))
                 if _room_with(world, f, block, [])), None)


def _room_with(world: World, fleet: str, block: str, planned: list[str]) -> bool:
    """9.2: "Each fleet block can transport one army block or two regiment blocks at a
    time" (tables.toml ``limits.fleet_capacity_armies``, ``fleet_capacity_regiments``):
    armies and regiments do not share a fleet."""
    aboard = cargo_of(world, fleet) + planned
    kind = world.spec(block).kind
    room = (world.board.limits.fleet_capacity_armies if kind is BlockKind.ARMY
            else world.board.limits.fleet_capacity_regiments)
    return all(world.spec(b).kind is kind for b in aboard) and len(aboard) < room


def land(world: World, power: str, order: Land) -> Why | None:
    """9.2: "You may unload blocks at sea into a territory through a bordering port
    regardless of who controls the port." A block "may not be both loaded and unloaded
    during the same game turn"; not with enemy fleets in the zone. Landing on enemy
    blocks stops there, pins and makes a battle (4.1, 4.3) like a land move."""
    from gm.games.baltica.rules.limits import move_problem
    from gm.games.baltica.rules.movement import pin

    sea = world.bid_territory(order.origin)
    to = world.bid_territory(order.to)
    t = world.board.territories.get(to)
    if sea not in world.board.seas:
        return Why.NOT_A_SEA
    if t is None or not t.port or t.sea != sea:
        return Why.NO_PORT_ON_SEA
    if enemy_fleets(world, power, sea):
        return Why.ENEMY_FLEET_PRESENT
    if world.prohibited(to):
        return Why.PROHIBITED
    blocks = [world.bid_block(n) for n in order.blocks]
    for b in blocks:
        bs = world.state.blocks[b]
        if world.power_of(b) != power:
            return Why.NOT_YOURS
        if bs.location != sea or bs.aboard is None:
            return Why.NOT_ABOARD
        if bs.moved:  # aboard and moved: loaded (or retreated to sea, 9.5) this turn
            return Why.LOADED_THIS_TURN
    limit = move_problem(world, power, blocks, (to,))  # 11.3-11.10
    if limit is not None:
        return limit
    enemy_there = world.enemy_blocks(power, to)
    sole_enemy = bool(enemy_there) and not world.blocks_of(power, to)
    tick = world.tick()
    for b in blocks:
        bs = world.state.blocks[b]
        bs.location, bs.aboard, bs.moved = to, None, True
        bs.entered_from, bs.arrived = sea, tick
    world.state.turn.entries.setdefault(to, []).append([power, sea, tick])
    if sole_enemy:
        world.state.turn.defenders[to] = other_power(power)
        world.state.turn.main_attacks.setdefault(to, sea)
    world.emit("landed", [power], sea=world.tname(sea), territory=world.tname(to),
               blocks=[world.name(b) for b in blocks])
    world.emit("blocks_landed", None, power=power, sea=world.tname(sea),
               territory=world.tname(to), count=len(blocks))
    if enemy_there:
        pin(world, power, to, len(blocks))
    return None


def harbor_captured(world: World, territory: str, loser: str) -> None:
    """9.4: "If a harbor is captured by siege, any fleets anchored there are moved into
    the adjacent sea zone, each fleet losing one strength step in the process." """
    t = world.board.territories[territory]
    if t.sea is None:
        return
    for f in [b for b in world.state.at(territory)
              if not world.ground(b) and world.power_of(b) == loser]:
        world.state.blocks[f].location = t.sea
        world.emit("fleet_expelled", territory=t.name, sea=world.tname(t.sea),
                   nation=world.spec(f).nation)
        take_step(world, f)


@dataclass(frozen=True)
class SeaRoute:
    """How a group goes by sea (9.2): embark at ``port`` (the group's own territory) onto
    ``fleets`` at sea in its sea zone, sail them along ``path`` (no sail when the
    destination's port lies on the same zone) and land in ``to`` from ``sea``."""

    port: str
    fleets: tuple[str, ...]
    sea: str
    path: tuple[str, ...]
    to: str

    @property
    def landing_sea(self) -> str:
        return self.path[-1] if self.path else self.sea


def landing_problem(world: World, power: str, blocks: Sequence[str], to: str) -> Why | None:
    """Why ``blocks`` may never land in ``to`` as the board stands, whatever fleet carries
    them (9.2: "You may unload blocks at sea into a territory through a bordering port";
    4.5: an inactive nation's territory is prohibited; 11.x: limited interests); None when
    they may, or when ``to`` has no port (an off-map box, 11.11, is no landing place)."""
    from gm.games.baltica.rules.limits import move_problem

    t = world.board.territories.get(to)
    if t is None or not t.port or t.sea is None or t.box:
        return None
    if world.prohibited(to):
        return Why.PROHIBITED
    return move_problem(world, power, blocks, (to,))


def sea_route(world: World, power: str, origin: str, blocks: Sequence[str],
              to: str) -> SeaRoute | None:
    """The sea transport a player can order now for ``blocks`` in ``origin`` to reach
    ``to`` (9.2), or None. 9.2: "Loading blocks counts as those blocks' entire movement,
    and can only be done from a territory with a friendly port into the sea zone the port
    lies on. You may unload blocks at sea into a territory through a bordering port
    regardless of who controls the port. Each fleet block can transport one army block or
    two regiment blocks at a time"; "Fleets may not load or unload army or regiment blocks
    if enemy fleets are present in the same sea zone". The fleets are the power's at sea
    off the port, filled in id order as ``embark`` fills them; their sail (9.1) is the
    shortest within the slowest fleet's movement."""
    here, there = world.board.territories.get(origin), world.board.territories.get(to)
    if (here is None or there is None or not here.port or here.sea is None
            or not there.port or there.sea is None or there.box
            or not world.controlled_by(origin, power)
            or landing_problem(world, power, blocks, to) is not None):
        return None
    sea = here.sea
    if enemy_fleets(world, power, sea) or enemy_fleets(world, power, there.sea):
        return None
    plan: dict[str, str] = {}
    for b in blocks:
        fleet = next((f for f in sorted(fleets_at(world, power, sea))
                      if _room_with(world, f, b, [c for c, on in plan.items() if on == f])),
                     None)
        if fleet is None:
            return None
        plan[b] = fleet
    fleets = tuple(sorted(set(plan.values())))
    if there.sea == sea:
        return SeaRoute(origin, fleets, sea, (), to)
    path = sea_path(world, power, fleets, sea, there.sea)
    if isinstance(path, Why) or len(path) > min(world.spec(f).movement for f in fleets):
        return None
    return SeaRoute(origin, fleets, sea, path, to)
