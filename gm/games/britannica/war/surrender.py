"""Supply Determination and Surrendered Units (seed, Supply; Surrendered Units)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from gm.games.base import Event
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.war import geography as geo
from gm.games.britannica.war.manoeuvre import adjacent, controlled_by
from gm.games.britannica.war.sides import GM_POWERS, State, War, _home_area, _units, side_of


def _surrender(state: State, war: War, units: Sequence[dict[str, Any]], at: str, why: str
               ) -> list[Event]:
    """Surrendered units leave the map; they come home when the war ends (seed, Surrendered
    Units). Chinese and Ottoman units that cannot retreat are eliminated."""
    ids = {u["id"] for u in units}
    state["units"] = [u for u in state["units"] if u["id"] not in ids]
    events = []
    for u in units:
        if u["power"] not in GM_POWERS:
            war["surrendered"].append(dict(u))
        events.append(Event("war_surrender", {"power": u["power"], "unit": u["type"],
                                              "strength": u["strength"], "at": at, "why": why}))
    return events


def _sea_surrender(d: BritanniaData, state: State, war: War) -> list[Event]:
    """Armies alone with enemy naval units in a sea zone surrender (seed, Surrendered Units)."""
    events: list[Event] = []
    for sea in sorted(geo.seas(d)):
        for s in (0, 1):
            armies = _units(state, war["sides"][s], sea, "army")
            if armies and _units(state, war["sides"][1 - s], sea, "fleet") and not _units(
                    state, war["sides"][s], sea, "fleet"):
                events += _surrender(state, war, armies, sea, "alone with enemy naval units")
    return events


def _supplied_nodes(d: BritanniaData, state: State, war: War, power: str) -> set[str]:
    s = side_of(war, power) or 0
    enemy = war["sides"][1 - s]
    sources = {h for p in war["sides"][s] if (h := _home_area(d, p))}
    sources |= {a for a, ms in state["markers"].items()
                if any(m["power"] in war["sides"][s] and m["kind"] == "dominion" for m in ms)}
    merchants = set(state["merchants"].get(power, []))
    homes = {a.id for a in d.areas.values() if a.type == "home"}
    links = geo.links(d, state)
    seen = set(sources)
    queue = deque(sources)
    while queue:
        x = queue.popleft()
        if x in geo.seas(d):
            nbrs = set(links[x]) | {a.id for a in d.areas.values() if x in a.seas}
        else:
            nbrs = d.neighbours(x) | set(d.areas[x].seas)
        for y in nbrs:
            if y in seen:
                continue
            blockade = ((x not in geo.seas(d) and y in geo.seas(d) and x not in homes and _units(state, enemy, x, "fleet"))
                        or (x in geo.seas(d) and y not in geo.seas(d) and y not in homes
                            and _units(state, enemy, y, "fleet")))
            if blockade:
                continue
            ok = bool(set(geo.capes(d).get(y, (y,))) & merchants) if y in geo.seas(d) else (
                y not in homes and controlled_by(state, war, y, s))
            if ok:
                seen.add(y)
                queue.append(y)
    return seen


def in_supply(d: BritanniaData, state: State, war: War, power: str, at: str, nodes: set[str]) -> bool:
    """A Line of Supply: ``at`` is a supplied node or next to one (not across a blockade)."""
    if at in nodes:
        return True
    s = side_of(war, power) or 0
    near = adjacent(d, state, power, at) - {"home"}
    blockaded = at not in geo.seas(d) and bool(_units(state, war["sides"][1 - s], at, "fleet"))
    return any(n in nodes and not (blockaded and n in geo.seas(d)) for n in near)


def supply(d: BritanniaData, state: State, war: War, s: int) -> list[Event]:
    """Supply Determination: armies with no Line of Supply surrender."""
    events: list[Event] = []
    for power in war["sides"][s]:
        if power in GM_POWERS:
            continue
        armies = [u for u in state["units"] if u["power"] == power and u["type"] == "army"
                  and u["at"] != "home"]
        if not armies:
            continue
        nodes = _supplied_nodes(d, state, war, power)
        for u in armies:
            if not in_supply(d, state, war, power, u["at"], nodes):
                events += _surrender(state, war, [u], u["at"], "out of supply")
    return events

