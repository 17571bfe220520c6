"""Great Britain in the 3CG ruleset (3CG 9.10, 10.8), in place of the GMT 11.11 British
fleet (:mod:`.nations`): checked at the end of every phase.

3CG 10.8: "The British warship block never joins the Swedish replacement pool but
activates if: Hanover occupies Bremen-Verden. The allied player has more warship blocks
at sea than Sweden. The allied player invades the Swedish homeland. The British warship
deactivates if: The Swedish player has more warship blocks at sea than the Allies. Count
the British block when determining total strength of the Swedish warship blocks if in
play. Sweden captures Nyen/S:t Peterburg." 9.10: "The British Warship block always
starts in Portsmouth when activated. When deactivated, remove the block from map."
10.8: "any combat losses are permanent and can't be replaced": a withdrawn block keeps
its strength for its next activation (``losses_permanent``). "If the British warship
block is lost in combat, Great Britain is forced to a TRUCE (See 6.9). After a truce,
the British warship is available for activation as mentioned below": by the triggers,
once the truce's years are over, never by a roll (``no_roll``); lost in combat, it comes
back at full strength (interpretation: a new squadron).

The triggers and the withdrawals are the nation's ``triggers`` and ``deactivates`` (ids
below); their order in the data is the order they are checked in.
"""

from __future__ import annotations

from collections.abc import Callable

from gm.games.baltica.rules import activation, nations
from gm.games.baltica.rules.truce import may_reactivate
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POOL

BRITAIN = "britain"
BREMEN_VERDEN, NYEN = "bremen-verden", "nyen"


def hanover_occupies_bremen_verden(world: World) -> bool:
    """A Hanoverian ground block in Bremen-Verden, or its garrison taken by Hanover
    (not given by a cession, 10.1)."""
    gs = world.state
    return (any(world.spec(b).nation == "hannover" and world.ground(b)
                for b in gs.at(BREMEN_VERDEN))
            or (gs.control.get(BREMEN_VERDEN) == "hannover" and BREMEN_VERDEN not in gs.ceded))


def sweden_captures_nyen(world: World) -> bool:
    """A Swedish siege took Nyen (S:t Petersburg) in this phase."""
    name = world.board.territories[NYEN].name
    return any(e.type == "captured" and e.data.get("territory") == name
               and world.power_of_nation(str(e.data.get("by"))) == "sweden"
               for e in world.events)


CONDITIONS: dict[str, Callable[[World], bool]] = {
    "hanover-occupies-bremen-verden": hanover_occupies_bremen_verden,
    "coalition-more-fleets-at-sea": lambda w: (nations.fleets_at_sea(w, "coalition")
                                               > nations.fleets_at_sea(w, "sweden")),
    "coalition-invades-sweden-proper": lambda w: nations.invaded(
        w, w.board.nations["sweden"].proper),
    "sweden-more-fleets-at-sea": lambda w: (nations.fleets_at_sea(w, "sweden")
                                            > nations.fleets_at_sea(w, "coalition")),
    "sweden-captures-nyen": sweden_captures_nyen,
}
"""Each trigger or withdrawal id of the data and when it holds (fleets at sea count the
British block for Sweden when it is at sea: :func:`.nations.fleets_at_sea`)."""


def in_force(world: World) -> bool:
    """The 3CG rules for Britain apply: its data lists when it ``deactivates``."""
    return BRITAIN in world.board.nations and bool(
        world.board.nations[BRITAIN].activation.get("deactivates"))


def first_holding(world: World, ids: list[str]) -> str | None:
    """The first of ``ids`` whose condition holds now."""
    return next((i for i in ids if i in CONDITIONS and CONDITIONS[i](world)), None)


def british_warship(world: World) -> None:
    """10.8 at the end of every phase: an active Britain withdraws on a ``deactivates``
    condition; an inactive one (not under truce, or its truce over) enters on a
    ``triggers`` one."""
    gs = world.state
    act = world.board.nations[BRITAIN].activation
    fleet = gs.blocks.get(nations.BRITISH_FLEET)
    if BRITAIN in gs.active:
        why = first_holding(world, list(act.get("deactivates", ())))
        if why is None:
            return
        gs.active.remove(BRITAIN)
        if fleet is not None:  # 9.10: "remove the block from map"; 10.8: losses stay
            fleet.location, fleet.aboard = POOL, None
            if not act.get("losses_permanent"):
                fleet.strength = 0
        world.emit("british_warship", change="withdrawn", condition=why)
        return
    if BRITAIN in gs.permanently_inactive or (BRITAIN in gs.truces
                                              and not may_reactivate(world, BRITAIN)):
        return
    why = first_holding(world, list(act.get("triggers", ())))
    if why is None:
        return
    world.emit("british_warship", change="activated", condition=why)
    activation.activate(world, BRITAIN, "3CG 10.8")
    if fleet is not None:  # 9.10: "always starts in Portsmouth when activated"
        full = world.spec(nations.BRITISH_FLEET).max_strength
        fleet.location, fleet.aboard = nations.PORTSMOUTH, None
        fleet.strength = fleet.strength or full
        world.emit("british_warship_placed", territory=world.tname(nations.PORTSMOUTH),
                   strength=fleet.strength, full=full)
