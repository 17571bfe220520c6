"""The 3CG entry dates (3CG 9.4-9.10, 10.2, 10.5 and the DATES AND EVENTS SUMMARY) that the
GMT activation rules (10.1, :mod:`.activation`) do not cover, read from the nations'
``activation`` fields of the 3cg-1.1 overlay; checked at the start of the Interphase,
before the activation rolls. Under the GMT data none of these fields is set.

- ``removed_from_year`` / ``rolls_again_from_year`` (10.5): "Remove all Turks from spring
  turn 1716. From spring turn 1718, roll for activation as per (9.6). Turkey counts as a
  prohibited territory (4.8) during this period." (Inactive nations' lands are
  prohibited, 4.5; the rolls are barred by :func:`.activation.may_roll`.)
- ``defects_from_year`` / ``defects_to`` (9.9): "From spring turn 1711 Hanover is out of
  the game, but the allied player may start rolling for the Hanoverians."
- ``automatic_from_year`` (9.7, 9.9): "From 1715 the Prussians [Hanoverians] starts
  automatically."

Poland (:func:`nations_join`, at the end of every phase with the section 11 triggers):

- ``triggers`` "WHO-enters-NATION" with ``joins`` (9.5): "The Polish blocks automatically
  join the allies as soon as the Sweden or Turkey enters Poland": a ground block of WHO
  in a territory of the inactive nation brings it into the war on the ``joins`` side. Its
  lands are not prohibited meanwhile (4.8, :meth:`.World.prohibited`).
- ``allies_with_capturer_of_both_capitals`` (10.4): "Poland automatically allies itself
  with any nation that has besieged both Warszawa and Krakow": when garrison markers of
  one player's nations stand on all its capitals, the nation fights for that player
  (state ``defected`` when that is not its usual side), entering the war if it was out.

A nation entering so deploys the blocks of its pool at full strength (9.5: "Polish blocks
may deploy anywhere in Poland. Exception is the Lubomirski Army block that has to start
in either Mazowsze or Krakow"; the places are the blocks' ``deploy`` data). No player
orders it; the default (docs/baltica.md): the first block with its own places (the army)
takes the first of them open (8.7: free of enemy blocks and enemy garrisons), Mazowsze
before Krakow, and the others join it there, else the first open territory of the nation
in map order. A block with no open place stays in the pool.
"""

from __future__ import annotations

from gm.games.baltica.rules import activation
from gm.games.baltica.rules.builds import choose_place
from gm.games.baltica.rules.event_effects import to_pool
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POOL

ENTERS = "-enters-"


def withdraw(world: World, nation: str, why: str) -> None:
    """The nation leaves the war: its blocks on the map go to its pool, it turns inactive."""
    to_pool(world, [b for b in world.state.blocks if world.spec(b).nation == nation
                    and world.state.on_map(b)], why)
    if nation in world.state.active:
        world.state.active.remove(nation)
    world.emit("nation_deactivated", nation=nation, cause=why)


def removed_period(world: World, nation: str) -> bool:
    """10.5: the years a nation is out of the game (``removed_from_year`` up to, not
    including, ``rolls_again_from_year``)."""
    act = world.board.nations[nation].activation
    start = act.get("removed_from_year")
    if start is None:
        return False
    again = act.get("rolls_again_from_year")
    return int(start) <= world.state.year and (again is None or world.state.year < int(again))


def entry_dates(world: World) -> None:
    """The 3CG dates, in data order (see the module docstring)."""
    gs = world.state
    for nation, n in world.board.nations.items():
        act = n.activation
        if removed_period(world, nation) and nation in gs.active:
            withdraw(world, nation, "removed_10_5")
        since = act.get("defects_from_year")
        if (since is not None and gs.year >= int(since) and nation not in gs.defected
                and world.power_of_nation(nation) != act.get("defects_to")):
            if nation in gs.active:
                withdraw(world, nation, "out_9_9")
            gs.defected.append(nation)
            world.emit("nation_changes_side", nation=nation, side=world.power_of_nation(nation))
        auto = act.get("automatic_from_year")
        if (auto is not None and gs.year >= int(auto) and nation not in gs.active
                and nation not in gs.permanently_inactive and nation not in gs.truces):
            activation.activate(world, nation, "3CG 9.7/9.9")


def entered_by(world: World, nation: str) -> str | None:
    """9.5: the first of the nation's "WHO-enters-NATION" triggers that holds now (a ground
    block of the nation WHO in one of its territories), or None."""
    lands = set(world.board.nation_territories(nation))
    for trigger in world.board.nations[nation].activation.get("triggers", ()):
        who, sep, where = str(trigger).partition(ENTERS)
        if not sep or where != nation:
            continue
        if any(world.spec(b).nation == who and world.ground(b) and bs.location in lands
               for b, bs in world.state.blocks.items()):
            return who
    return None


def capitals_besieged_by(world: World, nation: str) -> str | None:
    """10.4: the player whose nations' garrison markers stand on all of ``nation``'s
    capitals ("has besieged both Warszawa and Krakow"), or None."""
    caps = [t for t in world.board.nation_territories(nation)
            if world.board.territories[t].capital]
    holders = {world.state.control.get(t) for t in caps}
    if not caps or None in holders:
        return None
    sides = {world.power_of_nation(str(h)) for h in holders}
    return sides.pop() if len(sides) == 1 else None


def nations_join(world: World) -> None:
    """9.5 and 10.4 (see the module docstring), at the end of every phase."""
    gs = world.state
    for nation, n in world.board.nations.items():
        act = n.activation
        if nation in gs.permanently_inactive or nation in gs.truces:
            continue
        if act.get("allies_with_capturer_of_both_capitals"):
            side = capitals_besieged_by(world, nation)
            if side in ("sweden", "coalition") and (
                    nation not in gs.active or side != world.power_of_nation(nation)):
                join_war(world, nation, side, "3CG 10.4")
                continue
        joins = act.get("joins")
        if joins is not None and nation not in gs.active:
            who = entered_by(world, nation)
            if who is not None:
                world.emit("nation_entered", nation=nation, by=who)
                join_war(world, nation, str(joins), "3CG 9.5")


def join_war(world: World, nation: str, side: str, why: str) -> None:
    """The nation fights for ``side`` (changing side if need be: its blocks on the map
    join their new allies, 14.2 Saxony #3) and, if it was out of the war, enters it and
    deploys its pool (:func:`deploy_entering`)."""
    gs = world.state
    if world.power_of_nation(nation) != side:
        if nation in gs.defected:
            gs.defected.remove(nation)
        else:
            gs.defected.append(nation)
        world.emit("nation_changes_side", nation=nation, side=world.power_of_nation(nation))
    if nation not in gs.active:
        activation.activate(world, nation, why)
        deploy_entering(world, nation)


def deploy_entering(world: World, nation: str) -> None:
    """9.5: the nation's blocks in its pool deploy at full strength. The owner learns which
    block went where; the other player that a block of the nation was deployed, and where
    (as for a build, 8.7). Default places: see the module docstring."""
    gs = world.state
    power = world.power_of_nation(nation)
    blocks = sorted((b for b, bs in gs.blocks.items()
                     if world.spec(b).nation == nation and bs.location == POOL),
                    key=lambda b: (tuple(world.spec(b).deploy) in ((), (nation,)), b))
    wanted: list[str] = []
    for b in blocks:
        where = choose_place(world, b, wanted)
        if where is None:
            continue
        bs = gs.blocks[b]
        bs.location, bs.strength = where, world.spec(b).max_strength
        bs.moved = bs.pinned = bs.reserve = False
        bs.aboard = None
        wanted = wanted or [where]
        world.emit("placed", [power], block=world.name(b), territory=world.tname(where))
        world.emit("block_built", None, power=power, nation=nation, territory=world.tname(where))
