"""Movement during an Alliance Manoeuvre Phase: adjacency in war, Coaling Rights, the
restrictions on naval and army movement (seed, The War Sequence; Coaling Rights)."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence

from gm.games.base import Event
from gm.games.britannica import board as b
from gm.games.britannica import orders as o
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.refusals import refusal
from gm.games.britannica.war import geography as geo
from gm.games.britannica.war.empires import ottoman_may_enter
from gm.games.britannica.war.sides import (
    CHINESE,
    GM_POWERS,
    State,
    War,
    _enemy,
    _friends,
    _home_area,
    _units,
    _where,
    side_of,
)
from gm.i18n import msg


def adjacent(d: BritanniaData, state: State, power: str, at: str) -> set[str]:
    """Locations one step from ``at``; the own home country is ``home``, others' are closed."""
    node = _where(d, power, at)
    links = geo.links(d, state)
    if node in geo.seas(d):
        out = set(links[node]) | {a.id for a in d.areas.values() if node in a.seas}
    else:
        out = d.neighbours(node) | set(d.areas[node].seas)
    home = _home_area(d, power)
    return {"home" if x == home else x for x in out
            if x == home or x in geo.seas(d) or d.areas[x].type != "home"}


def controlled_by(state: State, war: War, area: str, s: int) -> bool:
    """Controlled by a member of alliance ``s``, or conquered by it (seed, Conquered Areas)."""
    if area in war["conquered"]:
        return bool(war["conquered"][area] == s)
    return any(b.controls(state, area, p) for p in war["sides"][s])


def _any_control(state: State, war: War, area: str) -> bool:
    return controlled_by(state, war, area, 0) or controlled_by(state, war, area, 1)


def coaling(d: BritanniaData, state: State, war: War, power: str, sea: str) -> bool:
    """Coaling Rights: next to the home country, an own or allied Influence/Control marker,
    a neutral's Control marker volunteered to the power, or an area the alliance conquered
    (seed, Coaling Rights); in a Cape zone, Coaling Rights in either sea beside it (seed,
    Cape Zones)."""
    if sea in geo.capes(d):
        return any(coaling(d, state, war, power, x) for x in geo.capes(d)[sea])
    home = _home_area(d, power)
    s = side_of(war, power)
    offered = geo.volunteered(state, power)
    for a in d.areas.values():
        if sea not in a.seas:
            continue
        if a.id == home or (s is not None and war["conquered"].get(a.id) == s):
            return True
        if any(m["power"] in war["sides"][s or 0] and m["established"]
               and m["kind"] != "interest" for m in state["markers"].get(a.id, [])):
            return True
        if a.id in offered and any(b.controls(state, a.id, m["power"]) for m in b.markers(state, a.id)):
            return True
    return False


def may_move(d: BritanniaData, state: State, war: War, power: str, unit: str, at: str,
             dest: str) -> str | None:
    """Why a one-step war move is illegal (None: legal). Seed, Movement during an Alliance
    Manoeuvre Phase: naval units, army units and the restrictions on army movement."""
    if dest not in adjacent(d, state, power, at):
        return msg("not adjacent")
    enemy = _enemy(war, power)
    friends = _friends(war, power)
    here = _where(d, power, at)
    if here in geo.seas(d) and dest in geo.seas(d) and geo.passage_closed(d, state, power, here, dest):
        return msg("that strait or canal is denied to you")
    if unit == "fleet":
        if dest == "home":
            return None if here in geo.seas(d) else "naval units reach home only from a sea zone"
        if dest in geo.seas(d):
            return None if coaling(d, state, war, power, dest) else "no coaling rights there"
        if not d.areas[dest].seas or not _any_control(state, war, dest):
            return msg("naval units enter only coastal areas with a Control marker of either alliance")
        return None
    if dest in geo.seas(d):
        beside = geo.capes(d).get(dest, (dest,))
        if not set(beside) & set(state["merchants"].get(power, [])):
            return msg("armies enter only sea zones holding one of your merchant fleets (a Cape zone: beside one)")
        if _units(state, enemy, dest, "fleet") and not _units(state, friends, dest, "fleet"):
            return msg("enemy naval units hold that sea zone")
        if here not in geo.seas(d) and _units(state, enemy, at, "fleet"):
            return msg("enemy naval units blockade the area")
        return None
    if dest != "home" and not _any_control(state, war, dest):
        return msg("armies enter only areas with a Control marker of either alliance")
    if here in geo.seas(d) and dest != "home" and _units(state, enemy, dest, "fleet"):
        return msg("enemy naval units hold the coast")
    if (here not in geo.seas(d) and _units(state, enemy, at, "army")
            and dest != "home" and _units(state, enemy, dest, "army")):
        return msg("no move from one area with enemy armies to another")
    return None


def _sea_distance(d: BritanniaData, state: State, power: str, sea: str) -> int:
    home = _home_area(d, power)
    if home is None:
        return 0
    links = geo.links(d, state)
    start = set(d.areas[home].seas)
    seen, queue = dict.fromkeys(start, 0), deque(start)
    while queue:
        x = queue.popleft()
        for y in links[x]:
            if y not in seen:
                seen[y] = seen[x] + 1
                queue.append(y)
    return seen.get(sea, 99)


def _moves(d: BritanniaData, state: State, war: War, s: int,
           orders: Mapping[str, Sequence[o.AnyOrder]]) -> list[Event]:
    """Alliance Manoeuvre: ordered one-step moves, GM units by their rules."""
    events: list[Event] = []
    moved: set[int] = set()
    for actor, own in sorted(orders.items()):
        if side_of(war, actor) != s:
            continue
        for i, x in enumerate(own, 1):
            if not isinstance(x, o.Move):
                continue
            unit = next((u for u in _units(state, [actor], x.origin, x.unit)
                         if u["strength"] == x.strength and u["id"] not in moved), None)
            why = msg("no such unit there") if unit is None else (
                msg("one step only") if x.via else may_move(d, state, war, actor, x.unit, x.origin, x.dest))
            if why or unit is None:
                events.append(refusal(d, actor, i, x, why or msg("no such unit there")))
                continue
            unit["at"] = x.dest
            moved.add(unit["id"])
            if x.dest in d.areas:
                events += geo.codominion_entry(d, state, war, actor, x.dest)
            events.append(Event("war_move", {"power": actor, "unit": x.unit, "strength": x.strength,
                                             "from": x.origin, "to": x.dest}))
    for p in war["sides"][s]:
        if p in GM_POWERS:
            events += _gm_empire_moves(d, state, war, p)
    return events


def _gm_empire_moves(d: BritanniaData, state: State, war: War, power: str) -> list[Event]:
    """Chinese/Ottoman armies march on the nearest area holding enemy armies (ties: highest
    combat factor, highest value, fewest enemy units, alphabetical); Ottoman armies also
    through Egypt when they may enter it (seed, War with the Ottomans)."""
    types = CHINESE if power == "china" else ("ottoman",)
    enemy = _enemy(war, power)
    events = []
    for u in [u for u in state["units"] if u["power"] == power]:
        if _units(state, enemy, u["at"], "army"):
            continue
        dist = {u["at"]: 0}
        prev: dict[str, str] = {}
        queue = deque([u["at"]])
        while queue:
            x = queue.popleft()
            for y in sorted(d.neighbours(x)):
                if y not in dist and (d.areas[y].type in types if power == "china"
                                      else ottoman_may_enter(d, state, war, y)):
                    dist[y] = dist[x] + 1
                    prev[y] = x
                    queue.append(y)
        targets = [a for a in dist if a != u["at"] and _units(state, enemy, a, "army")]
        if not targets:
            continue
        best = min(targets, key=lambda a: (dist[a], -d.areas[a].strength, -d.areas[a].value,
                                           len(_units(state, enemy, a)), a))
        step = best
        while prev[step] != u["at"]:
            step = prev[step]
        events.append(Event("war_move", {"power": power, "unit": "army", "strength": u["strength"],
                                         "from": u["at"], "to": step}))
        u["at"] = step
    return events

