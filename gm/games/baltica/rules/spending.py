"""Replacement Points in the Interphase (8.1-8.8, 11.x): what each nation receives and
how it is spent: on-map replacements first (8.3), then new blocks from the pool (8.6);
and the self-sufficient blocks that use no RPs (11.7, 11.8, 11.9).

Spending orders (``replace``, ``build``) are carried out in the order given; a nation
for which its player gave none spends by the documented default (docs/baltica.md):
every block it pays for is reinforced in the default rank (royal blocks, then armies,
then the block missing most steps), then blocks are drawn from its pool and built to
full strength while the RPs can pay a first step. Unspent RPs are lost (8.2).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gm.games.baltica.orders import Build, Replace
from gm.games.baltica.rules import attrition, builds
from gm.games.baltica.rules.event_effects import pool_of
from gm.games.baltica.rules.replacements import (
    add_steps,
    line_of_communications,
    replacement_problem,
    spend_on_map,
)
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POOL, YEAR_TRACK

RP_ITEMS = ("rp_half", "rp_bonus", "build")
"""The ``interphase_due`` items that change a nation's RPs for one Interphase (8.8)."""

OrdersOf = Callable[[World, Mapping[str, Sequence[Any]], str, type], list[Any]]


def paying_nations(world: World, power: str) -> list[str]:
    """The nations of ``power`` with an RP level (8.1), in data order."""
    return [n for n in world.board.nations
            if n in world.state.rp and world.power_of_nation(n) == power]


def pays_for(world: World, nation: str, block: str) -> bool:
    """Whose RPs pay for ``block``: its nation's pool owner (Polish blocks: Saxony, 11.5;
    Holstein-Gottorp: Sweden, 11.10)."""
    return world.board.nations[world.spec(block).nation].pool == nation


def year_track_armies(world: World) -> int:
    """11.2: the Russian army blocks on the Year Track."""
    return sum(1 for b in world.state.year_track
               if world.spec(b).nation == "russia" and world.spec(b).kind.value == "army"
               and world.state.blocks[b].location == YEAR_TRACK)


def interphase_rp(world: World, nation: str) -> tuple[int, int]:
    """8.2: "RPs are received at the start of every Interphase": the RP level (8.1), halved
    by Extravagance (12.4 #1, rounded down), plus event bonuses (12.3 #4, #5), less 4 per
    Russian army on the Year Track (11.2: "do not adjust the Russian RP level"), with the
    RP changes of the Swedish Attrition Track's boxes in force (11.1); 8.8: these
    changes last this Interphase only. Returns (RPs, RPs for building only), the latter
    left by Emergency Recruitment (12.4 #5) for the pool."""
    items = [d for d in world.state.interphase_due
             if d.get("nation") == nation and d["what"] in RP_ITEMS]
    for d in items:
        world.state.interphase_due.remove(d)
    level = world.state.rp.get(nation, 0)
    half = any(d["what"] == "rp_half" for d in items)
    rp = level // 2 if half else level
    bonus = sum(int(d.get("rp", 0)) for d in items if d["what"] == "rp_bonus")
    track = 0
    if nation == "russia":
        track = int(world.board.tables["limits"]["rp_per_year_track_army"]) * year_track_armies(
            world)
    worn = attrition.rp_change(world, nation)  # 11.1: the track's boxes in force
    rp = max(0, rp + bonus - track + worn)
    build = sum(int(d.get("rp", 0)) for d in items if d["what"] == "build")
    worn_data: dict[str, Any] = {"attrition": worn} if worn else {}  # event data
    world.emit("interphase_rp", nation=nation, level=level, rp=rp, half=half, bonus=bonus,
               year_track=track, build=build, **worn_data)
    return rp, build


def spend_power(world: World, power: str, orders: Mapping[str, Sequence[Any]],
                orders_of: OrdersOf) -> None:
    """0.3, 8.2: each of ``power``'s nations at war receives its RPs and spends them:
    on-map replacements first, then builds; what is left is lost."""
    replaces = orders_of(world, orders, power, Replace)
    to_build = orders_of(world, orders, power, Build)
    for o in to_build:
        nation = _build_nation(world, o)
        if nation is None or nation not in paying_nations(world, power):
            _failed(world, power, o, Why.NO_POOL)
        elif nation not in world.state.active:
            _failed(world, power, o, Why.NOT_ACTIVE)
    for o in replaces:
        block = world.bid_block(o.block)
        if block not in world.state.blocks or world.power_of(block) != power:
            _failed(world, power, o, Why.NOT_YOURS)
        elif world.board.nations[world.spec(block).nation].pool not in world.state.active:
            _failed(world, power, o, Why.NO_POOL)
    for nation in paying_nations(world, power):
        if nation not in world.state.active:  # 10.1: an inactive nation spends nothing
            for d in [d for d in world.state.interphase_due
                      if d.get("nation") == nation and d["what"] in RP_ITEMS]:
                world.state.interphase_due.remove(d)
            continue
        rp, build_rp = interphase_rp(world, nation)
        mine_r = [o for o in replaces if world.bid_block(o.block) in world.state.blocks
                  and pays_for(world, nation, world.bid_block(o.block))]
        mine_b = [o for o in to_build if _build_nation(world, o) == nation]
        if mine_r or mine_b:
            rp = ordered_replacements(world, power, mine_r, rp) + build_rp
            for o in mine_b:
                rp = ordered_builds(world, power, nation, o, rp)
        else:
            blocks = [b for b in world.state.blocks if pays_for(world, nation, b)]
            rp = spend_on_map(world, power, blocks, rp) + build_rp
            rp = default_builds(world, nation, rp)
        if rp > 0:
            world.emit("rp_lost", [power], nation=nation, rp=rp)


def ordered_replacements(world: World, power: str, orders: Sequence[Replace], rp: int) -> int:
    """8.3: each ``replace B [to N]`` adds steps to B (up to N, default full strength) while
    the RPs last; 2 per army or fleet step, 1 per regiment step, doubled without a friendly
    garrison; never in a battle territory, without a line of communications (8.5), at sea
    or, for a fleet, outside a harbor."""
    for o in orders:
        block = world.bid_block(o.block)
        why = replacement_problem(world, block)
        if why is not None:
            _failed(world, power, o, why)
            continue
        rp, steps = add_steps(world, power, block, rp, o.strength)
        top = world.spec(block).max_strength if o.strength is None else o.strength
        if not steps and world.state.blocks[block].strength < top:
            _failed(world, power, o, Why.NO_RP)
    return rp


def ordered_builds(world: World, power: str, nation: str, order: Build, rp: int) -> int:
    """8.6: ``build N: draw K [strength S]; deploy T1, T2``: K blocks drawn one at a time,
    each paid up to S steps (default full) and deployed in the first listed territory open
    to it (8.7), else the default place."""
    wanted = [world.bid_territory(t) for t in order.deploy]
    for _ in range(order.draw):
        if rp <= 0:
            break
        left = builds.build_one(world, nation, rp, order.strength, wanted)
        if left is None:
            _failed(world, power, order, Why.EMPTY_POOL)
            break
        rp = left
    return rp


def default_builds(world: World, nation: str, rp: int) -> int:
    """The default (docs/baltica.md): draw and build at full strength while the RPs can
    pay the cheapest first step in the pool (8.6)."""
    while True:
        pool = [b for b in pool_of(world, nation) if builds.buildable(world, b)]
        if not pool or rp < min(builds.first_step_cost(world, b) for b in pool):
            return rp
        left = builds.build_one(world, nation, rp, None, ())
        if left is None:
            return rp
        rp = left


def self_sufficient(world: World) -> None:
    """11.7 Prussia: "restored to full strength during the Interphase if it has a line of
    communication to any friendly territory in Prussia"; 11.9 Hannover likewise to
    Hannover; 11.8 Mazepa: "restored to full strength during the Interphase if it is in
    Ukraine" (nations.toml ``self_sufficient``: ``line`` or ``inside``). A block of such a
    nation at war but off the map is deployed at full strength (11.7, 11.9; 11.8: Mazepa
    "deploys during the first Interphase when this is no longer the case")."""
    for power in world.state.powers:
        for b in sorted(world.state.blocks):
            n = world.board.nations[world.spec(b).nation]
            if not n.self_sufficient or n.id not in world.state.active or world.power_of(
                    b) != power:
                continue
            bs = world.state.blocks[b]
            if bs.location == POOL:
                deploy_self_sufficient(world, b)
                continue
            if not world.state.on_map(b) or bs.strength >= world.spec(b).max_strength:
                continue
            if n.self_sufficient == "line":
                ok = line_of_communications(world, b)
            else:
                ok = world.board.territories.get(bs.location) is not None and \
                    world.board.territories[bs.location].nation == n.id
            if ok:
                bs.strength = world.spec(b).max_strength
                world.emit("restored", [power], block=world.name(b), strength=bs.strength)
                world.emit("replacement_made", None, power=power,
                           territory=world.tname(bs.location))


def deploy_self_sufficient(world: World, block: str) -> bool:
    """Deploy a self-sufficient block at full strength where 8.7 and section 11 allow
    (capital first); False when every place is closed to it (it waits)."""
    where = builds.choose_place(world, block, ())
    if where is None:
        return False
    bs = world.state.blocks[block]
    bs.location, bs.strength = where, world.spec(block).max_strength
    power = world.power_of(block)
    world.emit("built", [power], nation=world.spec(block).nation, block=world.name(block),
               territory=world.tname(where), strength=bs.strength, cost=0)
    world.emit("block_built", None, power=power, nation=world.spec(block).nation,
               territory=world.tname(where))
    return True


def _build_nation(world: World, order: Build) -> str | None:
    nation = world.bid_nation(order.nation)
    if nation is None:
        return None
    return world.board.nations[nation].pool


def _failed(world: World, power: str, order: Any, why: Why) -> None:
    world.emit("order_failed", [power], order=order.echo(), why=why.value, code=why.name)
