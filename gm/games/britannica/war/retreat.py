"""The Retreat Procedure: ordered, standing and default retreats (seed, Retreat Procedure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.games.base import Event
from gm.games.britannica import board as b
from gm.games.britannica import orders as o
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.war import geography as geo
from gm.games.britannica.war.empires import ottoman_may_enter
from gm.games.britannica.war.manoeuvre import _sea_distance, adjacent, controlled_by, may_move
from gm.games.britannica.war.sides import (
    CHINESE,
    GM_POWERS,
    State,
    War,
    _enemy,
    _friends,
    _units,
    _value,
    side_of,
)
from gm.games.britannica.war.surrender import _surrender
from gm.i18n import as_data, msg


def default_retreat(d: BritanniaData, state: State, war: War, power: str, unit: str,
                    at: str) -> str | None:
    """The first destination on the seed's default list (None: the units surrender)."""
    enemy, friends = _enemy(war, power), _friends(war, power)
    s = side_of(war, power) or 0
    legal = [x for x in adjacent(d, state, power, at)
             if may_move(d, state, war, power, unit, at, x) is None
             and not (unit == "army" and x not in geo.seas(d) and _units(state, enemy, x, "army"))]
    areas = sorted((x for x in legal if x not in geo.seas(d)), key=lambda x: (-_value(d, x), x))
    seas = sorted((x for x in legal if x in geo.seas(d)),
                  key=lambda x: (_sea_distance(d, state, power, x), x))

    def own(x: str) -> bool:
        return x == "home" or b.controls(state, x, power)

    def ally(x: str) -> bool:
        return controlled_by(state, war, x, s)

    if unit == "army":
        lists = [[x for x in areas if own(x)], [x for x in areas if ally(x)],
                 [x for x in areas if controlled_by(state, war, x, 1 - s) and not _units(state, enemy, x)],
                 [x for x in seas if _units(state, [power], x, "fleet")],
                 [x for x in seas if not _units(state, enemy + friends, x, "fleet")]]
    else:
        lists = [[x for x in seas if not _units(state, enemy, x)],
                 [x for x in seas if _units(state, enemy, x)],
                 [x for x in areas if own(x)], [x for x in areas if ally(x)],
                 [x for x in areas if not _units(state, enemy, x)
                  or _units(state, friends, x, "army")]]
    for choices in lists:
        if choices:
            return choices[0]
    return None


def _gm_retreat(d: BritanniaData, state: State, war: War, power: str, at: str) -> str | None:
    """Chinese (and unallied Ottoman) retreat preferences (seed, Determining Chinese Army
    Movement): an area free of enemy units and markers, then one with a Control marker;
    Ottoman armies stay in the Empire or Egypt (seed, War with the Ottomans)."""
    enemy = _enemy(war, power)
    types = CHINESE
    cands = [x for x in d.neighbours(at) if (d.areas[x].type in types if power == "china"
                                             else ottoman_may_enter(d, state, war, x))
             and not _units(state, enemy, x)]
    free = [x for x in cands if not state["markers"].get(x)]
    ctrl = [x for x in cands if any(m["kind"] in o.CONTROL_KINDS for m in state["markers"].get(x, []))]
    for choices in (free, ctrl):
        if choices:
            return min(choices, key=lambda x: (-d.areas[x].strength, x))
    return None


def retreat(d: BritanniaData, state: State, war: War, units: Sequence[dict[str, Any]],
            at: str) -> list[Event]:
    """Retreat ``units`` from ``at``: ordered destination if legal, else the default list."""
    events: list[Event] = []
    by_power: dict[tuple[str, str, str | None], list[dict[str, Any]]] = {}
    orders = war["retreat_orders"]
    for u in units:
        own = f"{u['power']}|{u['type']}|{at}|{u['strength']}"
        by_power.setdefault((u["power"], u["type"], own if own in orders else None), []).append(u)
    for (power, kind, key), us in sorted(by_power.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] or "")):
        if power in GM_POWERS:
            dest = _gm_retreat(d, state, war, power, at)
        else:
            dest = ordered = orders.get(key or f"{power}|{kind}|{at}")
            enemy = _enemy(war, power)
            why = None if dest is None else may_move(d, state, war, power, kind, at, dest)
            if dest is not None and why is None and kind == "army" and dest not in geo.seas(d) \
                    and _units(state, enemy, dest, "army"):
                why = msg("enemy armies are there")
            if why is not None:
                dest = None
            if dest is None:
                dest = default_retreat(d, state, war, power, kind, at)
            if ordered is not None and why is not None:
                events.append(Event("retreat_order_replaced", {
                    "power": power, "unit": kind, "from": at, "ordered": ordered, "to": dest,
                    "why": as_data(why)}, frozenset({d.seat_of(power)})))
        if dest is None:
            events += _surrender(state, war, us, at, "cannot retreat")
            continue
        for u in us:
            u["at"] = dest
        events.append(Event("war_retreat", {"power": power, "unit": kind, "from": at, "to": dest,
                                            "strength": sum(u["strength"] for u in us)}))
    return events


def _store_retreats(war: War, orders: Mapping[str, Sequence[o.AnyOrder]]) -> None:
    for actor, own in orders.items():
        for x in own:
            if isinstance(x, o.Retreat) and side_of(war, actor) is not None:
                size = f"|{x.strength}" if x.strength else ""
                war["retreat_orders"][f"{actor}|{x.unit}|{x.origin}{size}"] = x.dest


def _pending_retreats(d: BritanniaData, state: State, war: War) -> list[Event]:
    events: list[Event] = []
    for p in war["pending"]:
        units = [u for u in state["units"] if u["id"] in p["ids"] and u["at"] == p["at"]]
        if units:
            events += retreat(d, state, war, units, p["at"])
    war["pending"] = []
    return events

