"""Fleet battles (9.3): fought like land battles (5.x) between the fleets at sea in one
zone, with retreats into a friendly harbor."""

from __future__ import annotations

from collections import deque

from gm.games.baltica.rules.battle import Battle, RetreatWish, fire, turn_order
from gm.games.baltica.rules.fleets import cargo_of, fleets_at
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import ASIDE, POWERS, other_power

NO_HARBOR = "controls-harbor"
"""The return condition of fleets lost for want of a friendly harbor (9.3)."""


def fleet_battle_zones(world: World) -> list[str]:
    """9.3: "If both players have fleets in the same sea zone, they engage in battle." """
    return [s for s in sorted(world.board.seas) if all(fleets_at(world, p, s) for p in POWERS)]


def sea_defender(world: World, sea: str) -> str:
    """5.1 at sea: the last side to be alone in the zone; else the side there longest."""
    known = world.state.turn.defenders.get(sea)
    if known is not None:
        return known
    return min(POWERS, key=lambda p: min((world.state.blocks[f].arrived
                                          for f in fleets_at(world, p, sea)), default=10**9))


def friendly_harbors(world: World, power: str, fleet: str | None = None) -> list[str]:
    """Harbors whose garrison ``power`` controls (1.2, 1.6); an off-map box (Portsmouth)
    only for its own nation's fleet (11.11)."""
    nation = world.spec(fleet).nation if fleet else None
    return [t for t, v in sorted(world.board.territories.items())
            if world.harbor(t) and world.controlled_by(t, power) and (not v.box or v.nation == nation)]


def nearest_harbor(world: World, fleet: str, sea: str) -> str | None:
    """The default harbor of a retreating fleet: the fewest sea zones away, then by id."""
    harbors = friendly_harbors(world, world.power_of(fleet), fleet)
    dist = {sea: 0}
    queue = deque([sea])
    while queue:
        here = queue.popleft()
        for there in world.board.seas[here].adjacent:
            if there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    steps = {h: dist[on] for h in harbors
             if (on := world.board.territories[h].sea) is not None and on in dist}
    if not steps:
        return None
    return min(steps, key=lambda h: (steps[h], h))


def retreat_fleet(world: World, fleet: str, sea: str, to: str | None, round_: int) -> None:
    """9.3: "Any fleet block that retreats from combat is immediately placed in any friendly
    harbor. If a player has no friendly harbors left, retreating fleets are instead lost;
    set them aside ... Army or regiment blocks aboard retreating fleets are unloaded into
    the same harbor territory the fleet retreats to." ``to``: the owner's ``retreat``
    order (a friendly harbor), else the nearest."""
    power = world.power_of(fleet)
    if to is None or to not in friendly_harbors(world, power, fleet):
        if to is not None:
            world.emit("order_failed", [power], order=f"retreat {world.name(fleet)}",
                       why=Why.NOT_FRIENDLY_HARBOR.value, code=Why.NOT_FRIENDLY_HARBOR.name)
        to = nearest_harbor(world, fleet, sea)
    cargo = cargo_of(world, fleet)
    if to is None:
        from gm.games.baltica.rules.losses import eliminate

        bs = world.state.blocks[fleet]
        bs.location, bs.strength = ASIDE, 0
        world.state.aside[fleet] = f"{NO_HARBOR}:{power}"
        world.emit("fleet_lost", territory=world.tname(sea), nation=world.spec(fleet).nation)
        for c in cargo:
            eliminate(world, c)
        return
    for b in [fleet, *cargo]:
        bs = world.state.blocks[b]
        bs.location, bs.aboard = to, None
    world.emit("retreated", None, block=world.name(fleet), territory=world.tname(sea),
               to=world.tname(to), round=round_, forced=False)


def fight_at_sea(world: World, sea: str, wish: RetreatWish) -> str | None:
    """9.3/5.4: up to three rounds, A before B, defender first within a letter; each fleet
    fires or (standing order) retreats; after round 3 the attacker's fleets retreat."""
    defender = sea_defender(world, sea)
    battle = Battle(sea, defender, other_power(defender))
    battle.fighting = {f for p in POWERS for f in fleets_at(world, p, sea)}
    world.emit("battle", None, territory=world.tname(sea), defender=battle.defender,
               attacker=battle.attacker,
               blocks={p: [{"block": world.name(f), "nation": world.spec(f).nation,
                            "strength": world.state.blocks[f].strength,
                            "rating": str(world.spec(f).rating)}
                           for f in battle.side(world, p)] for p in POWERS},
               reserves={p: 0 for p in POWERS})
    round_ = 0
    for round_ in range(1, world.board.limits.battle_rounds + 1):  # 5.4 (limits.battle_rounds)
        for f in turn_order(world, battle, round_):
            if world.state.blocks[f].location != sea:
                continue
            to = wish(f, round_)
            if to is not None:
                retreat_fleet(world, f, sea, to, round_)
            else:
                fire(world, battle, f, round_)
            if not all(battle.side(world, p) for p in POWERS):
                break
        world.emit("round_end", None, territory=world.tname(sea), round=round_)
        if not all(battle.side(world, p) for p in POWERS):
            break
    if all(battle.side(world, p) for p in POWERS):
        for f in battle.side(world, battle.attacker):
            retreat_fleet(world, f, sea, None, round_)
    left = [p for p in POWERS if battle.side(world, p)]
    winner = left[0] if len(left) == 1 else None
    world.emit("battle_end", None, territory=world.tname(sea), winner=winner, rounds=round_)
    return winner
