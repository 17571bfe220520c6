"""Read-only questions about a Pax Britannica state: markers, links, paths.

The state is a JSON tree (see docs/britannica.md); these helpers never write it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

from gm.games.britannica.data import BritanniaData
from gm.games.britannica.orders import CONTROL_KINDS, MARKER_KINDS

State = dict[str, Any]


def markers(state: State, area: str) -> list[dict[str, Any]]:
    return list(state["markers"].get(area, []))


def marker_of(state: State, area: str, power: str) -> dict[str, Any] | None:
    for m in state["markers"].get(area, []):
        if m["power"] == power:
            return m
    return None


def rank(kind: str) -> int:
    return MARKER_KINDS.index(kind)


def area_type(d: BritanniaData, state: State, area: str) -> str:
    """The area's type on the map, except that an area the Ottomans annexed is an Ottoman
    Empire area ("purple") until lost or excluded (seed, Unrest: Ottoman annexation)."""
    return "ottoman" if area in state.get("annexed", ()) else d.areas[area].type


def controls(state: State, area: str, power: str, established: bool = True) -> bool:
    """True if ``power`` has a control marker in ``area`` (seed, Game Terms: Control)."""
    m = marker_of(state, area, power)
    return bool(m and m["kind"] in CONTROL_KINDS and (m["established"] or not established))


def controlled_areas(state: State, power: str) -> list[str]:
    """The areas where :func:`controls` is true, in one pass over the markers (issue 21)."""
    out = []
    for area, ms in state["markers"].items():
        for m in ms:
            if m["power"] == power:  # marker_of's: the power's first marker there
                if m["kind"] in CONTROL_KINDS and m["established"]:
                    out.append(area)
                break
    out.sort()
    return out


def others_established(state: State, area: str, power: str) -> list[dict[str, Any]]:
    return [m for m in state["markers"].get(area, []) if m["power"] != power and m["established"]]


def _sea_links(d: BritanniaData, state: State) -> dict[str, set[str]]:
    links = {s: set(z.adjacent) for s, z in d.seas.items()}
    for pid in state.get("canals", []):
        a, b = d.passages[pid].seas
        links[a].add(b)
        links[b].add(a)
    return links


def traversable(d: BritanniaData, state: State, power: str, merchants: Iterable[str]) -> set[str]:
    """Nodes a communication link may pass through (seed, Game Terms: Communication Link)."""
    nodes = {d.home(power), *merchants}
    nodes |= {a for a in controlled_areas(state, power) if a not in state.get("unrest", [])}
    return nodes


def _neighbours(d: BritanniaData, sea_links: Mapping[str, set[str]], node: str) -> set[str]:
    if node in d.seas:
        return set(sea_links[node]) | d.areas_on(node)
    return d.neighbours(node) | set(d.areas[node].seas)


def linked(d: BritanniaData, state: State, power: str, merchants: Iterable[str] | None = None
           ) -> set[str]:
    """Areas ``power`` has a communication link to: adjacent to a node reached from home."""
    ms = list(merchants if merchants is not None else state["merchants"].get(power, []))
    through = traversable(d, state, power, ms)
    sea_links = _sea_links(d, state)
    home = d.home(power)
    seen, queue, out = {home}, deque([home]), {home}
    while queue:
        node = queue.popleft()
        for nb in _neighbours(d, sea_links, node):
            if nb in d.areas:
                out.add(nb)
            if nb in through and nb not in seen:
                seen.add(nb)
                queue.append(nb)
    return out


def retreat_reach(d: BritanniaData, state: State, power: str, area: str) -> set[str]:
    """Where ``power``'s armies retreating from ``area`` may go (seed, Colonial Combat
    Resolutions, AR): "If the Area is adjacent to another Area that is Controlled by the
    player, he can retreat to that Area. If the Area is connected to a Sea Zone containing one
    of the player's Merchant Fleets, he can retreat by sea through connected Sea Zones
    (Communication Link) to any Area he Controls or to his Home Area." The path is a
    Communication Link from ``area``: through the power's merchant seas, its calm Control areas
    and its home; it ends in an area it Controls or at home (the home node, when reached)."""
    through = traversable(d, state, power, state["merchants"].get(power, []))
    home = d.home(power)
    sea_links = _sea_links(d, state)
    seen, queue, out = {area}, deque([area]), set()
    while queue:
        node = queue.popleft()
        for nb in _neighbours(d, sea_links, node):
            if nb in seen:
                continue
            if nb == home or (nb in d.areas and controls(state, nb, power)):
                out.add(nb)
            if nb in through:
                seen.add(nb)
                queue.append(nb)
    return out


def army_path(d: BritanniaData, state: State, power: str, origin: str, dest: str,
              merchants: Iterable[str], via: tuple[str, ...] = ()) -> list[str] | None:
    """A legal army path (seed, Movement: Army Units), or None.

    Through: own merchant seas, own established control areas not in unrest,
    home. End: home, own control area (established or not), or an area in
    unrest with no control marker of another power.
    """
    home = d.home(power)
    start = home if origin == "home" else origin
    end = home if dest == "home" else dest
    through = traversable(d, state, power, merchants)
    if not may_end(d, state, power, end):
        return None
    sea_links = _sea_links(d, state)
    waypoints = [start, *via, end]
    path = [start]
    for a, b in zip(waypoints, waypoints[1:], strict=False):
        leg = _bfs(d, sea_links, a, b, through)
        if leg is None:
            return None
        path += leg[1:]
    return path


def may_end(d: BritanniaData, state: State, power: str, area: str) -> bool:
    """Whether an army may end its move in ``area`` (seed, Movement: Army Units): home, an
    area with the power's Control marker (established or not), or one in unrest with no
    other power's Control marker."""
    if area == d.home(power):
        return True
    if area not in d.areas or d.areas[area].type == "home":
        return False
    if controls(state, area, power, established=False):
        return True
    if area in state.get("unrest", []):
        return not any(m["kind"] in CONTROL_KINDS and m["power"] != power
                       for m in state["markers"].get(area, []))
    return False


def _bfs(d: BritanniaData, sea_links: Mapping[str, set[str]], a: str, b: str,
         through: set[str]) -> list[str] | None:
    prev: dict[str, str | None] = {a: None}
    queue = deque([a])
    while queue:
        node = queue.popleft()
        if node == b:
            out = [b]
            step = prev[b]
            while step is not None:
                out.append(step)
                step = prev[step]
            return out[::-1]
        if node != a and node not in through:
            continue
        for nb in sorted(_neighbours(d, sea_links, node)):
            if nb not in prev and (nb in through or nb == b):
                prev[nb] = node
                queue.append(nb)
    return None


def fleet_may_reach(d: BritanniaData, state: State, power: str, dest: str) -> bool:
    """Naval units move to home or a coastal area with an own established control marker."""
    if dest in ("home", d.home(power)):
        return True
    return bool(d.areas.get(dest) and d.areas[dest].seas and controls(state, dest, power))


def units_at(state: State, power: str, where: str) -> list[dict[str, Any]]:
    return [u for u in state["units"] if u["power"] == power and u["at"] == where]
