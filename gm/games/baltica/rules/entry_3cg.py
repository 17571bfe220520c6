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
"""

from __future__ import annotations

from gm.games.baltica.rules import activation
from gm.games.baltica.rules.event_effects import to_pool
from gm.games.baltica.rules.world import World


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
