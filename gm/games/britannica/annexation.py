"""Ottoman annexation (seed, Unrest; The Ottomans and Casus Belli; War with the Ottomans).

An area next to the Ottoman Empire whose unrest no power tries to suppress joins the Empire.
The annexed areas are kept in ``state["annexed"]`` (in annexation order); while listed, an
area counts as an Ottoman Empire area everywhere (:func:`board.area_type`). An annexed area
leaves the Empire when it is cut off from Anatolia (:func:`severed_annexations`) or when a
Congress of Europe gives a Great Power Control of it (:func:`excluded_by_congress`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

from gm.games.base import Event
from gm.games.britannica import board as b
from gm.games.britannica import orders as o
from gm.games.britannica.data import BritanniaData

State = dict[str, Any]
OTTOMAN = "ottoman"


def ottoman_annexation(d: BritanniaData, state: State, attempted: Iterable[str]) -> list[Event]:
    """Seed, Unrest: "If any area adjacent to the Ottoman Empire enters unrest and no power
    attempts to suppress the unrest, the area becomes part of the Ottoman Empire." Decided as
    the unrest ends, at the start of the Marker Adjustment phase: every area still in unrest
    (alphabetical order) that no power fought in Colonial Combat this turn (``attempted``, a
    Minor Power's Protectorate placed in the unrest included) and that borders an Ottoman area
    overland (earlier annexations count) is annexed. "The expansion is treated as placing a
    Possession marker": each Great Power whose marker there gives a Casus Belli against a new
    Possession (the Status Marker Placement Effects Summary, charts ``placement_effects``) has
    one against the Ottoman Empire (seed, The Ottomans and Casus Belli). The unrest itself
    still removes markers in the Marker Adjustment phase that follows."""
    tried = set(attempted)
    placed = d.charts["ottoman_annexation"]["placed_as"]
    group = "control" if placed in o.CONTROL_KINDS else placed
    rules = [r for r in d.charts["placement_effects"]
             if r["placed"] == group and r["effect"] == "casus_belli"]
    events: list[Event] = []
    for area in sorted(state["unrest"]):
        if area in tried or b.area_type(d, state, area) in (OTTOMAN, "home"):
            continue
        if not any(b.area_type(d, state, n) == OTTOMAN for n in d.neighbours(area)):
            continue
        state.setdefault("annexed", []).append(area)
        events.append(Event("ottoman_annexation", {"area": area}))
        for m in b.markers(state, area):
            key = f"{m['kind']}_established" if m["established"] else m["kind"]
            if m["power"] in d.great_powers and any(key in r["existing"] for r in rules):
                cb = {"holder": m["power"], "against": OTTOMAN, "area": area,
                      "cause": "ottoman_annexation"}
                if cb not in state["casus_belli"]:
                    state["casus_belli"].append(cb)
                    events.append(Event("casus_belli", cb))
    return events


def ottoman_enemies(state: State) -> set[str]:
    """Powers on the other side of a war the Ottoman Empire fights."""
    out: set[str] = set()
    for w in state.get("wars") or []:
        for i, side in enumerate(w["sides"]):
            if OTTOMAN in side:
                out |= set(w["sides"][1 - i])
    return out


def _sea_joined(d: BritanniaData, a: str, c: str, zones: int) -> bool:
    """``a`` and ``c`` are joined by a path of at most ``zones`` sea zones."""
    seen = set(d.areas[a].seas)
    frontier = set(seen)
    for _ in range(zones - 1):
        frontier = {n for s in frontier for n in d.seas[s].adjacent} - seen
        seen |= frontier
    return bool(seen & set(d.areas[c].seas))


def ottoman_link(d: BritanniaData, state: State) -> set[str]:
    """Ottoman areas with a Communication Link to Anatolia: through Ottoman areas no other
    power Controls, overland or across one sea zone ("A Communication Link via one Sea Zone is
    still allowed despite the fact that the Ottomans have no fleet representation in the
    game", seed, War with the Ottomans)."""
    t = d.charts["ottoman_annexation"]
    own = {a for a in d.areas if b.area_type(d, state, a) == OTTOMAN
           and not any(b.controls(state, a, m["power"]) for m in b.markers(state, a))}
    start = t["link_from"]
    if start not in own:
        return set()
    seen = {start}
    queue = deque([start])
    while queue:
        x = queue.popleft()
        for y in sorted(own - seen):
            if y in d.neighbours(x) or _sea_joined(d, x, y, int(t["sea_zones_per_link"])):
                seen.add(y)
                queue.append(y)
    return seen


def severed_annexations(d: BritanniaData, state: State, enemies: Iterable[str]) -> list[Event]:
    """Seed, War with the Ottomans: "If any annexed Areas have no enemy units in them, but are
    severed from Anatolia i.e. have no Communication Link, they are lost by the Ottoman Empire
    and return to an Unorganized or Independent Area free from any Control markers." Checked
    in every Marker Adjustment phase and when an Ottoman war ends (``enemies``: the powers at
    war with the Ottomans)."""
    foes = set(enemies)
    linked = ottoman_link(d, state)
    events: list[Event] = []
    for area in list(state.get("annexed", [])):
        if area in linked or any(u["power"] in foes and u["at"] == area for u in state["units"]):
            continue
        state["annexed"].remove(area)
        for m in [m for m in b.markers(state, area) if m["kind"] in o.CONTROL_KINDS]:
            state["markers"][area].remove(m)
            events.append(Event("marker_removed", {"area": area, "power": m["power"],
                                                   "kind": m["kind"], "cause": "annexation_lost"}))
        if area in state["markers"] and not state["markers"][area]:
            del state["markers"][area]
        events.append(Event("annexation_lost", {"area": area, "type": d.areas[area].type}))
    return events


def excluded_by_congress(state: State, kinds_by_area: Mapping[str, Mapping[str, str]],
                         great_powers: Iterable[str]) -> list[Event]:
    """Seed, The Ottomans and Casus Belli: "If a Congress of Europe agrees then the power with
    the Casus Belli may place a Protectorate or Possession in the area and the Ottomans are
    excluded from that Area" (the Ottomans and a Great Power never share an area)."""
    greats = set(great_powers)
    events: list[Event] = []
    for area, kinds in sorted(kinds_by_area.items()):
        if area not in state.get("annexed", []):
            continue
        holders = sorted(p for p, k in kinds.items() if p in greats and k in o.CONTROL_KINDS)
        if holders:
            state["annexed"].remove(area)
            events.append(Event("ottomans_excluded", {"area": area, "by": holders}))
    return events
