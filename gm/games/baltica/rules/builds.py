"""Building new blocks from a replacement pool (8.6) and deploying them (8.7, 11.x).

Where a nation's new blocks may deploy is data: nations.toml ``deploy`` (and
``deploy_fleets``), blocks.toml ``deploy``/``deploy_adjacent``/``deploy_else`` for the
red-dot blocks (2.1, 11.x). A place name there is a territory, a region (map.toml
``regions``) or a nation (its territories).
"""

from __future__ import annotations

from collections.abc import Sequence

from gm.games.baltica.board import BlockKind
from gm.games.baltica.rules.draws import draw
from gm.games.baltica.rules.event_effects import pool_of
from gm.games.baltica.rules.replacements import base_cost
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POOL
from gm.i18n import msg


def places(world: World, names: Sequence[str]) -> list[str]:
    """The territories a list of deployment place names stands for, in map order."""
    out: list[str] = []
    for name in names:
        if name in world.board.territories:
            found: Sequence[str] = (name,)
        elif name in world.board.nations:
            found = world.board.nation_territories(name)
        else:
            found = world.board.region(name)
        out += [t for t in found if t not in out]
    return out


def blocked(world: World, block: str, territory: str) -> bool:
    """8.7: "New blocks cannot be deployed into enemy-occupied or enemy-garrisoned
    territories." 3CG 10.7 (the blocks of tables.toml ``limits.deploy_among_enemies``):
    "An allied block in the territory does not prohibit Mazepa from entering however. The
    territory has to be owned by the allied player" (only an enemy garrison bars him)."""
    power = world.power_of(block)
    limits = world.board.tables["limits"]
    if world.enemy_controlled(territory, power) or world.controller(territory) in limits.get(
            "deploy_barred_by_garrison", {}).get(block, ()):  # 3CG 10.7: "or the Turks"
        return True
    among = block in limits.get("deploy_among_enemies", ())
    return bool(world.enemy_blocks(power, territory)) and not among


def deploy_places(world: World, block: str) -> list[str]:
    """8.7 and section 11: where ``block`` may be deployed now, in map order.

    The red-dot blocks' own places first (``deploy``, with ``deploy_adjacent`` for the
    Polish blocks "in or adjacent to"), else their fallback (``deploy_else``: Sweden
    proper for Estländska if Estland is enemy-occupied, Norway for Bergenhus); fleets in a
    friendly harbor within the nation's places (``deploy_fleets`` for Russia's
    Sankt-Peterburg).
    """
    spec = world.spec(block)
    nation = world.board.nations[spec.nation]
    power = world.power_of(block)
    if spec.kind is BlockKind.FLEET:
        names = nation.deploy_fleets or nation.deploy
        return [t for t in places(world, names)
                if world.harbor(t) and world.controlled_by(t, power)
                and not blocked(world, block, t)]
    if spec.deploy:
        own = places(world, spec.deploy)
        if spec.deploy_adjacent:
            own += [n for t in list(own) for n in world.board.neighbours(t) if n not in own]
        free = [t for t in own if not blocked(world, block, t)]
        if free or not spec.deploy_else:
            return free
        return [t for t in places(world, spec.deploy_else) if not blocked(world, block, t)]
    return [t for t in places(world, nation.deploy) if not blocked(world, block, t)]


def choose_place(world: World, block: str, wanted: Sequence[str]) -> str | None:
    """The first of the player's ``deploy`` territories open to ``block``; default (none
    listed fits): the nation's capital if open, else the first open place in map order."""
    open_ = deploy_places(world, block)
    for t in wanted:
        if t in open_:
            return t
    capital = world.board.nations[world.spec(block).nation].capital
    if capital in open_:
        return capital
    return open_[0] if open_ else None


def first_step_cost(world: World, block: str) -> int:
    """8.6: "The first step of any block built from the replacement pool costs double
    RPs; i.e., the first step of an army or fleet costs 4 RPs, and the first step of a
    regiment costs 2 RPs." 3CG 5.2: "Army and Warship blocks cost 2 extra RP to rebuild
    from the replacement pool" (a regiment's first step costs 1). The extra of each kind
    is data (tables.toml ``limits.first_step_extra_*``)."""
    limits = world.board.tables["limits"]
    kind = world.spec(block).kind.value
    return base_cost(world, block) + int(limits.get(f"first_step_extra_{kind}",
                                                    base_cost(world, block)))


def build_one(world: World, nation: str, rp: int, strength: int | None,
              wanted: Sequence[str]) -> int | None:
    """8.6: draw one block at random from ``nation``'s pool, pay its doubled first step
    and further steps up to ``strength`` (default full) while ``rp`` lasts, deploy it
    (8.7); return the RPs left, or None when the pool is empty.

    "If you draw a block you cannot afford, your RPs are spent and you do not deploy the
    block (it is returned to the pool)"; a block with nowhere to deploy goes back too and
    "any RPs spent on it are lost" (8.7). The draw and the block are the owner's secret;
    the other player learns that a block of the nation was deployed, and where.
    """
    pool = [b for b in pool_of(world, nation) if buildable(world, b)]
    if not pool:
        return None
    power = world.power_of_nation(nation)
    block = draw(world, pool, msg("build {nation}: block drawn", nation=world.said(nation)), visible_to=[power])
    first = first_step_cost(world, block)
    if rp < first:
        world.emit("build_unaffordable", [power], nation=nation, block=world.name(block),
                   cost=first, lost=rp)
        return 0
    rp -= first
    where = choose_place(world, block, wanted)
    if where is None:
        world.emit("build_undeployable", [power], nation=nation, block=world.name(block),
                   lost=first)
        return rp
    top = world.spec(block).max_strength if strength is None else min(
        max(strength, 1), world.spec(block).max_strength)
    level, step = 1, base_cost(world, block)
    while level < top and rp >= step:
        level += 1
        rp -= step
    bs = world.state.blocks[block]
    bs.location, bs.strength = where, level
    bs.moved = bs.pinned = bs.reserve = False
    bs.aboard = None
    world.emit("built", [power], nation=nation, block=world.name(block),
               territory=world.tname(where), strength=level,
               cost=first + (level - 1) * step)
    world.emit("block_built", None, power=power, nation=world.spec(block).nation,
               territory=world.tname(where))
    return rp


def buildable(world: World, block: str) -> bool:
    """Blocks of nations at war only (10.1: "An inactive nation ... cannot spend RPs to
    build blocks"; Polish blocks while Saxony is at war, 11.5)."""
    return world.spec(block).nation in world.state.active and world.state.blocks[
        block].location == POOL


def open_to_builds(world: World, nation: str) -> list[str]:
    """8.7 and section 11: the territories where some block that ``nation``'s pool may
    build now could deploy (:func:`deploy_places`), in map order: what a ``build``'s
    ``deploy`` list may usefully name."""
    out: set[str] = set()
    for b in pool_of(world, nation):
        if buildable(world, b):
            out.update(deploy_places(world, b))
    return [t for t in world.board.territories if t in out]
