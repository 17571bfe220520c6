"""An abandoned power at war (seed, Rules to cover for drop-outs, rules 9-11).

Rule 9: the power is moved by the GM like a minor power: units out of supply move
towards supply (9a), combat only at 3:2 or better (9b, in ``attack``), Controlled areas
keep their garrisons (9c: one army stays, only the surplus moves). Rule 10: in a Chinese
rebellion, units at sea or within two areas of China march on the nearest Chinese
territory (not Formosa) where the power has the highest status, then the higher
economic value, then the lowest combat strength. Rule 11: the same in a war with the
Ottoman Empire or an unallied minor power, naval units too when both sides have them.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from gm.games.base import Event
from gm.games.britannica import board as b
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.war import geography as geo
from gm.games.britannica.war.manoeuvre import adjacent, may_move
from gm.games.britannica.war.sides import CHINESE, GM_POWERS, State, War, _units, _where
from gm.games.britannica.war.surrender import _supplied_nodes, in_supply

NOT_MARCHED_ON = ("formosa",)


def _path_step(d: BritanniaData, state: State, war: War, power: str, unit: dict[str, Any],
               targets: set[str], rank: Any) -> str | None:
    """The first step of a shortest route to the best of ``targets`` (legal moves only)."""
    start = unit["at"]
    prev: dict[str, str] = {start: start}
    dist = {start: 0}
    queue = deque([start])
    while queue:
        x = queue.popleft()
        if dist[x] >= 12:
            continue
        for y in sorted(adjacent(d, state, power, x)):
            if y not in dist and may_move(d, state, war, power, unit["type"], x, y) is None:
                dist[y], prev[y] = dist[x] + 1, x
                queue.append(y)
    reached = [t for t in targets if t in dist and t != start]
    if not reached:
        return None
    best = min(reached, key=lambda t: (dist[t], rank(t), t))
    while prev[best] != start:
        best = prev[best]
    return best


def _enemy_lands(d: BritanniaData, state: State, war: War, s: int) -> tuple[set[str], bool]:
    """Rules 10-11: the territory marched on, and whether naval units go too."""
    enemy = war["sides"][1 - s]
    if war["kind"] == "china":
        return {a.id for a in d.areas.values() if a.type in CHINESE and a.id not in NOT_MARCHED_ON}, False
    if any(p in d.great_powers for p in enemy):
        return set(), False
    if "ottoman" in enemy:
        lands = {a for a in d.areas if b.area_type(d, state, a) == "ottoman"}
    else:
        lands = {a for a, ms in state["markers"].items() if any(m["power"] in enemy for m in ms)}
        lands |= {d.home(p) for p in enemy if p in d.minor_powers}
    naval = bool([u for u in state["units"] if u["power"] in enemy and u["type"] == "fleet"]) and bool(
        [u for u in state["units"] if u["power"] in war["sides"][s] and u["type"] == "fleet"])
    return lands, naval


def _near(d: BritanniaData, at: str, lands: set[str], reach: int = 2) -> bool:
    if at in geo.seas(d):
        return True
    if at not in d.areas:
        return False
    seen, frontier = {at}, {at}
    for _ in range(reach):
        frontier = {y for x in frontier for y in d.neighbours(x)} - seen
        seen |= frontier
    return bool(seen & lands)


def _landing(d: BritanniaData, state: State, power: str) -> Any:
    """Rule 10's choice among equally near areas: highest status, value, lowest strength."""
    def rank(t: str) -> tuple[int, int, int]:
        m = b.marker_of(state, t, power)
        status = b.rank(m["kind"]) if m else -1
        return (-status, -d.areas[t].value, d.areas[t].strength) if t in d.areas else (0, 0, 0)
    return rank


def abandoned_moves(d: BritanniaData, state: State, war: War, s: int) -> list[Event]:
    """The GM's moves for the alliance's abandoned powers (rules 9a, 9c, 10, 11)."""
    events: list[Event] = []
    lands, naval = _enemy_lands(d, state, war, s)
    for power in [p for p in war["sides"][s] if p in war.get("abandoned", []) and p not in GM_POWERS]:
        supplied = _supplied_nodes(d, state, war, power)
        for unit in sorted((u for u in state["units"] if u["power"] == power),
                           key=lambda u: (u["at"], u["type"], u["strength"], u["id"])):
            at = unit["at"]
            if at != "home" and b.controls(state, at, power):
                garrison = max(_units(state, [power], at, "army"), key=lambda u: (u["strength"], -u["id"]))
                if unit is garrison:
                    continue  # 9c: the garrison stays
            step = None
            if unit["type"] == "army" and at != "home" and not in_supply(d, state, war, power, at, supplied):
                step = _path_step(d, state, war, power, unit, supplied, lambda t: 0)  # 9a
            if step is None and lands and (unit["type"] == "army" or naval) and at not in lands and (
                    at == "home" and unit["type"] == "fleet" or at != "home" and _near(d, _where(d, power, at), lands)):
                step = _path_step(d, state, war, power, unit, lands, _landing(d, state, power))  # 10-11
            if step is None:
                continue
            events.append(Event("war_move", {"power": power, "unit": unit["type"],
                                             "strength": unit["strength"], "from": at, "to": step}))
            unit["at"] = step
    return events
