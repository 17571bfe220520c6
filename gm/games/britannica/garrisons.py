"""The special garrison rules (seed, Special British and Special Russian Garrison Rule).

Britain keeps an Indian Army of three Army(10) within two areas of India;
Russia a Western Garrison of three Army(10) at home or in its western areas.
Lost units are rebuilt as soon as money allows: when the player's orders make
no provision (no ``buy army 10`` and no Army(10) moved into the zone), the GM
rebuilds them as the power's first action of the Movement phase, Britain's in
the highest-value Indian area, Russia's at home.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gm.games.base import Event
from gm.games.britannica import orders as o
from gm.games.britannica.data import BritanniaData

State = dict[str, Any]


def garrison_order(d: BritanniaData, areas: Iterable[str]) -> list[str]:
    """Ungarrisoned Control areas in the order the GM garrisons them (seed, Garrisons):
    "Default is lowest economic areas are lost, if equal, alphabetically". The highest value
    first and, among equal values, the last name first, so that what money and armies cannot
    cover is the tail: the lowest values and, among them, the first names alphabetically."""
    return sorted(areas, key=lambda a: (d.areas[a].value, a), reverse=True)


def india_zone(d: BritanniaData) -> set[str]:
    """India and every area within the rule's land distance of it."""
    sg = d.charts["special_garrisons"]
    zone = set(sg["india"])
    frontier = set(zone)
    for _ in range(int(sg["indian_army"]["within"])):
        frontier = {n for a in frontier for n in d.neighbours(a)} - zone
        zone |= {a for a in frontier if d.areas[a].type != "home"}
    return zone


def western_zone(d: BritanniaData) -> set[str]:
    """Russia's western garrison areas ("home" stands for Russia itself)."""
    return {"home", *d.charts["special_garrisons"]["western"]} - {"russia"}


def zone_of(d: BritanniaData, power: str) -> set[str] | None:
    if power == d.charts["special_garrisons"]["indian_army"]["power"]:
        return india_zone(d)
    if power == d.charts["special_garrisons"]["western_garrison"]["power"]:
        return western_zone(d)
    return None


def _rule(d: BritanniaData, power: str) -> dict[str, Any]:
    sg = d.charts["special_garrisons"]
    return dict(sg["indian_army"] if power == sg["indian_army"]["power"] else sg["western_garrison"])


def garrison_units(d: BritanniaData, state: State, power: str) -> list[dict[str, Any]]:
    """The power's Army(10) units inside its special zone."""
    zone = zone_of(d, power) or set()
    strength = _rule(d, power)["strength"]
    return [u for u in state["units"] if u["power"] == power and u["type"] == "army"
            and u["strength"] == strength and u["at"] in zone]


def _provision(d: BritanniaData, power: str, own: Sequence[o.AnyOrder]) -> bool:
    zone = zone_of(d, power) or set()
    strength = _rule(d, power)["strength"]
    for order in own:
        b = o.base(order)
        if isinstance(b, o.Buy) and b.unit == "army" and b.strength == strength:
            return True
        if isinstance(b, o.Move) and b.unit == "army" and b.strength == strength and b.dest in zone:
            return True
    return False


def rebuilt(d: BritanniaData, state: State, submitted: dict[str, list[o.AnyOrder]],
            abandoned: Sequence[str] = ()) -> State:
    """``state`` after :func:`rebuild`, ``state`` itself unchanged: only what
    :func:`rebuild` writes is copied (the treasury, the list of units, which it appends
    to, and ``next_unit``), the rest is shared (issue 21: a Movement mail's validation
    copied the whole state for this). Read the result; change only a copy of it."""
    board = {**state, "treasury": dict(state["treasury"]), "units": list(state["units"])}
    rebuild(d, board, submitted, abandoned)
    return board


def rebuild(d: BritanniaData, state: State, submitted: dict[str, list[o.AnyOrder]],
            abandoned: Sequence[str] = ()) -> list[Event]:
    """The GM's rebuild of the Indian Army and the Western Garrison (first action). An
    abandoned Britain places it by drop-out rule 6 (dropout.indian_army_site). It writes
    the treasury, ``next_unit`` and appends to the units, nothing else (:func:`rebuilt`
    copies just these)."""
    events = []
    for key in ("indian_army", "western_garrison"):
        rule = d.charts["special_garrisons"][key]
        power = rule["power"]
        missing = int(rule["count"]) - len(garrison_units(d, state, power))
        if missing <= 0 or _provision(d, power, submitted.get(power, [])):
            continue
        if key == "indian_army":
            india = d.charts["special_garrisons"]["india"]
            where = min(india, key=lambda a: (-d.areas[a].value, a))
            if power in abandoned:
                from gm.games.britannica.dropout import indian_army_site

                where = indian_army_site(d, state)
        else:
            where = "home"
        cost = int(d.rules["costs"]["army"][str(rule["strength"])])
        built = 0
        while built < missing and state["treasury"][power] >= cost:
            state["treasury"][power] -= cost
            state["next_unit"] += 1
            state["units"].append({"id": state["next_unit"], "power": power, "type": "army",
                                   "strength": rule["strength"], "at": where})
            built += 1
        events.append(Event("special_garrison_rebuilt", {"power": power, "rule": key, "at": where,
                                                         "built": built, "missing": missing}))
    return events


def may_leave(d: BritanniaData, state: State, power: str, unit: dict[str, Any], dest: str) -> bool:
    """Whether moving ``unit`` to ``dest`` keeps the special garrison rule.

    The Indian Army must end within two areas of India (three Army(10) there);
    with fewer than four Army(10), no Russian Army(10) may leave the western zone.
    """
    zone = zone_of(d, power)
    if zone is None or unit["type"] != "army" or unit["strength"] != _rule(d, power)["strength"]:
        return True
    if dest in zone or unit["at"] not in zone:
        return True
    rule = _rule(d, power)
    if power == d.charts["special_garrisons"]["indian_army"]["power"]:
        return len(garrison_units(d, state, power)) - 1 >= int(rule["count"])
    total = sum(1 for u in state["units"] if u["power"] == power and u["type"] == "army"
                and u["strength"] == rule["strength"])
    return total > int(rule["count"])
