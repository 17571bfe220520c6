"""Replacement points spent on on-map blocks (8.2, 8.3) when an event or National
Politics gives RPs to spend at once (12.2 #6, 12.4 #4 and #5).

Replacement by action (8.4) is :func:`gm.games.baltica.rules.actions.replace`; it
checks :func:`replacement_problem` too.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from gm.games.baltica.board import BlockKind
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World


def line_of_communications(world: World, block: str) -> bool:
    """8.5: the block's territory is its nation's, with the garrison controlled; or a line
    can be traced "through adjacent friendly (1.2) or transit (1.5) territories back to
    any controlled national territory", never into or through enemy blocks; and "across
    a sea zone if the line is traced from or through a territory with a friendly port,
    through a sea zone occupied by fleets of the same nationality, to a friendly national
    territory with a port".
    3CG 7.1 (reading "unbesieged" of ``supply_home``): "An un-besieged national territory
    where the player control the garrison": a home territory under an enemy siege
    declared this turn is no source of supply.
    """
    power = world.power_of(block)
    nation = world.spec(block).nation
    start = world.state.blocks[block].location
    besieged = ({s.territory for s in world.state.turn.sieges if s.power != power}
                if world.reading("supply_home") == "unbesieged" else set())

    def home(t: str) -> bool:
        return (world.board.territories[t].nation == nation
                and world.controller(t) == nation and t not in besieged)

    if start not in world.board.territories:
        return False
    seas = {bs.location for b, bs in world.state.blocks.items()
            if bs.location in world.board.seas and bs.aboard is None
            and world.spec(b).nation == nation and not world.ground(b)}
    seen, queue = {start}, deque([start])
    while queue:
        here = queue.popleft()
        if home(here):
            return True
        for there in world.board.neighbours(here):
            if there in seen or world.enemy_blocks(power, there):
                continue
            if world.friendly_or_transit(there, power):
                seen.add(there)
                queue.append(there)
        t = world.board.territories[here]
        if t.port and t.sea in seas and world.controlled_by(here, power):
            for there in world.board.ports_on(t.sea):
                if home(there) and not world.enemy_blocks(power, there):
                    return True
    return False


def base_cost(world: World, block: str) -> int:
    """8.2: "Army block: 2 RPs per step; Regiment block: 1 RP per step; Fleet block: 2 RPs
    per step" (tables.toml ``limits``)."""
    limits = world.board.tables["limits"]
    kind = world.spec(block).kind
    return int({BlockKind.ARMY: limits["rp_army_step"],
                BlockKind.REGIMENT: limits["rp_regiment_step"],
                BlockKind.FLEET: limits["rp_fleet_step"]}[kind])


def step_cost(world: World, block: str) -> int:
    """8.2 (:func:`base_cost`); 8.3: "Replacement steps may be added to blocks in
    territories without a friendly garrison. However, the RP cost is doubled in this
    case." 3CG 5.6: "replacements may be deployed on blocks in enemy controlled
    territories ... as long as the block is in SUPPLY", at the usual cost. The factor is
    data (tables.toml ``limits.rp_outside_garrison_factor``)."""
    cost = base_cost(world, block)
    where = world.state.blocks[block].location
    if not world.controlled_by(where, world.power_of(block)):
        cost *= int(world.board.tables["limits"].get("rp_outside_garrison_factor", 2))
    return cost


def replacement_problem(world: World, block: str) -> Why | None:
    """8.3: who may receive a step: on the map, below full strength, not in a battle
    territory, with a line of communications (8.5); fleets only anchored in a harbor."""
    bs = world.state.blocks[block]
    if not world.state.on_map(block):
        return Why.NOT_ON_MAP
    if bs.strength >= world.spec(block).max_strength:
        return Why.FULL_STRENGTH
    if bs.location not in world.board.territories:
        return Why.AT_SEA
    if world.occupied_by_both(bs.location):
        return Why.IN_BATTLE
    if not world.ground(block):
        return None if world.harbor(bs.location) else Why.AT_SEA
    if not line_of_communications(world, block):
        return Why.NO_LINE
    return None


def default_rank(world: World, block: str) -> tuple[int, int, int, str]:
    """Which blocks receive steps first when the owner named none (docs/baltica.md): royal
    blocks, then armies, then the block missing the most steps, then by id."""
    spec = world.spec(block)
    missing = spec.max_strength - world.state.blocks[block].strength
    return (0 if spec.royal else 1, 0 if spec.kind is BlockKind.ARMY else 1, -missing, block)


def spend_on_map(world: World, power: str, blocks: Sequence[str], rp: int,
                 prefer: Sequence[str] = ()) -> int:
    """8.3: add steps to ``blocks`` (the player's ``reinforce`` list first, then the
    default rank) while ``rp`` lasts; return the RPs left over.

    Each block takes as many steps as can be paid; a block too dear for what is left is
    passed over for a cheaper one.
    """
    able = [b for b in blocks if replacement_problem(world, b) is None]
    order = [b for b in prefer if b in able]
    order += sorted((b for b in able if b not in order), key=lambda b: default_rank(world, b))
    for b in order:
        rp, _ = add_steps(world, power, b, rp)
    return rp


def add_steps(world: World, power: str, block: str, rp: int,
              top: int | None = None) -> tuple[int, int]:
    """8.2, 8.3: add steps to ``block`` up to ``top`` (default full strength) while ``rp``
    pays for them; return (RPs left, steps added). The owner learns the new strength, the
    other player where a step was added."""
    bs = world.state.blocks[block]
    top = world.spec(block).max_strength if top is None else min(top, world.spec(block).max_strength)
    cost = step_cost(world, block)
    steps = 0
    while rp >= cost and bs.strength < top:
        bs.strength += 1
        rp -= cost
        steps += 1
    if steps:
        world.emit("replaced", [power], block=world.name(block), strength=bs.strength)
        world.emit("replacement_made", None, power=power, territory=world.tname(bs.location))
    return rp, steps
