"""Wars against the GM's empires: the Chinese Rebellion and the Ottoman war (seed, Chinese
Rebellion; The Ottoman Empire)."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from gm.dice import Dice
from gm.games.base import Event
from gm.games.britannica import board as b
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.tensions import change_cri, raise_eti
from gm.games.britannica.war.sides import (
    CHINESE,
    GM_POWERS,
    State,
    War,
    _new_war,
    _place_gm_army,
    _units,
    combatants,
)
from gm.i18n import msg


def chinese_rebellion(d: BritanniaData, state: State, dice: Dice) -> tuple[War | None, list[Event]]:
    """The rebellion's armies: one die for how many, the placement table for each; never in a
    Possession; no rebellion when every Chinese area is a Possession (seed, Chinese Rebellion)."""
    chinese = [a for a in d.areas.values() if a.type in CHINESE]
    if all(any(m["kind"] == "possession" for m in state["markers"].get(a.id, [])) for a in chinese):
        return None, [Event("rebellion_impossible", {"cri": state["cri"]})]
    colonial = sorted({m["power"] for a in chinese for m in state["markers"].get(a.id, [])
                       if m["kind"] != "interest"})
    t = d.charts["chinese_army_placement"]
    count = dice.d6(msg("number of Chinese armies"))
    placed = []
    for _ in range(count):
        for _try in range(30):
            area = t["areas"][dice.d6(msg("Chinese army placement")) - 1]
            if not any(m["kind"] == "possession" for m in state["markers"].get(area, [])):
                _place_gm_army(state, "china", int(t["strength"]), area)
                placed.append(area)
                break
    events = [Event("chinese_rebellion", {"armies": placed, "against": colonial})]
    if not colonial:
        return None, events + end_chinese(d, state, 0, [])
    return _new_war(state, "china", [["china"], colonial], []), events


def _raise_ottoman_armies(d: BritanniaData, state: State) -> Mapping[str, Any]:
    """3 Ottoman Armies (value 5) are placed in Anatolia (seed, War with the Ottomans)."""
    t = d.charts["ottoman_war"]
    for _ in range(int(t["armies"])):
        _place_gm_army(state, "ottoman", int(t["strength"]), t["area"])
    return t


def ottoman_war(d: BritanniaData, state: State, targets: Sequence[str]) -> tuple[War, list[Event]]:
    """The Ottoman Empire declares war on powers that established Control in its areas."""
    _raise_ottoman_armies(d, state)
    war = _new_war(state, "ottoman", [["ottoman"], sorted(set(targets))], ["ottoman"])
    events = [Event("war_declared", {"by": "ottoman", "on": sorted(set(targets)), "war": war["id"]})]
    events += raise_eti(d, state, d.charts["eti"]["declaration_of_war"], "Ottoman declaration of war")
    return war, events


def _chinese_sweep(d: BritanniaData, state: State, war: War) -> list[Event]:
    """A Chinese army alone in an area with status markers removes them (seed, Chinese
    Rebellion); removing a Control marker restores the area's Combat Strength."""
    events = []
    for area in sorted({u["at"] for u in state["units"] if u["power"] == "china"}):
        if _units(state, war["sides"][1], area) or not state["markers"].get(area):
            continue
        for m in state["markers"].pop(area):
            events.append(Event("marker_removed", {"area": area, "power": m["power"],
                                                   "kind": m["kind"], "cause": "rebellion"}))
        if area in war["defeated"]:
            war["defeated"].remove(area)
    return events


def end_chinese(d: BritanniaData, state: State, outcome: int, defeated: Sequence[str],
                war: War | None = None) -> list[Event]:
    """Ending a Chinese Rebellion: China's victory clears every Chinese area; the colonial
    victory cedes one defeated area to each power with units in China (Great Powers first,
    then by strength there), a free Protectorate. The index returns to zero, plus the
    placement increases for ceded areas (seed, Readjusting the Chinese Resentment Index)."""
    events: list[Event] = change_cri(state, -state["cri"], "rebellion ended")
    chinese = [a.id for a in d.areas.values() if a.type in CHINESE]
    if outcome == 0:
        for a in chinese:
            state["markers"].pop(a, None)
        events.append(Event("rebellion_succeeded", {}))
        return events
    strength: dict[str, int] = {}
    for u in state["units"]:
        if u["at"] in chinese and u["power"] not in GM_POWERS:
            strength[u["power"]] = strength.get(u["power"], 0) + u["strength"]
    order = sorted(strength, key=lambda p: (p not in d.great_powers, -strength[p], p))
    free = sorted(set(defeated), key=lambda a: (-d.areas[a].value, a))
    for p in order:
        if not free:
            break
        area = free.pop(0)
        ms = [m for m in state["markers"].get(area, []) if m["power"] != p]
        ms.append({"power": p, "kind": "protectorate", "established": True})
        state["markers"][area] = sorted(ms, key=lambda m: m["power"])
        events.append(Event("area_ceded", {"area": area, "to": p}))
        events += change_cri(state, d.charts["cri"]["placed"]["protectorate"], "marker placed", [p], area)
    events.append(Event("rebellion_crushed", {"cri": state["cri"]}))
    return events



def ottoman_war_declared(d: BritanniaData, state: State, power: str) -> tuple[War, list[Event]]:
    """A Great Power with a Casus Belli from an Ottoman annexation declares war on the Empire
    (seed, The Ottomans and Casus Belli): it is fought as an Ottoman war, the Empire's 3
    armies placed in Anatolia (seed, War with the Ottomans); other powers may support either
    side. The declarer's own declaration raises tensions (not a second, Ottoman one)."""
    t = _raise_ottoman_armies(d, state)
    war = _new_war(state, "ottoman", [["ottoman"], []], [])
    return war, [Event("ottoman_armies_raised", {"armies": int(t["armies"]), "area": t["area"]})]


# -- Egypt in an Ottoman war (seed, War with the Ottomans) ----------------------------
def ottoman_may_enter(d: BritanniaData, state: State, war: War, area: str) -> bool:
    """Ottoman units stay inside the Empire, except Egypt: they may enter it when no power
    controls it, or when it is controlled by an Ottoman ally or enemy; never when a neutral
    controls it (seed, War with the Ottomans)."""
    if b.area_type(d, state, area) == "ottoman":
        return True
    if area != d.charts["ottoman_war"]["gateway"]:
        return False
    owners = [m["power"] for m in state["markers"].get(area, []) if b.controls(state, area, m["power"])]
    return not owners or any(p in combatants(war) for p in owners)


def ottoman_reach(d: BritanniaData, state: State, war: War) -> set[str]:
    """Ottoman areas Ottoman armies can reach overland from Anatolia (through Egypt when they
    may enter it)."""
    start = d.charts["ottoman_war"]["area"]
    seen = {start}
    queue = deque([start])
    while queue:
        x = queue.popleft()
        for y in d.neighbours(x):
            if y not in seen and ottoman_may_enter(d, state, war, y):
                seen.add(y)
                queue.append(y)
    return {a for a in seen if b.area_type(d, state, a) == "ottoman"}


def cut_off_by_egypt(d: BritanniaData, state: State, war: War) -> list[str]:
    """Ottoman areas held by the Empire's enemies that its armies cannot reach because a
    neutral controls Egypt (Tripoli on the reconstructed map); empty when there are none or
    no Ottoman army remains (seed, War with the Ottomans)."""
    if not any(u["power"] == "ottoman" for u in state["units"]):
        return []
    reach = ottoman_reach(d, state, war)
    return sorted({u["at"] for u in state["units"] if u["power"] in war["sides"][1]
                   and u["at"] in d.areas and b.area_type(d, state, u["at"]) == "ottoman"
                   and u["at"] not in reach})


def end_ottoman_by_demand(d: BritanniaData, state: State, war: War, kept: Sequence[str]) -> list[Event]:
    """The Ottomans' enemies end the war on demand while a neutral Egypt keeps the armies
    apart: they keep their markers in the cut-off areas, lose those in every other Ottoman
    area (seed, War with the Ottomans)."""
    events = []
    for a in sorted(a for a in state["markers"] if b.area_type(d, state, a) == "ottoman" and a not in kept):
        for m in [m for m in state["markers"][a] if m["power"] in war["sides"][1]]:
            state["markers"][a].remove(m)
            events.append(Event("marker_removed", {"area": a, "power": m["power"], "kind": m["kind"],
                                                   "cause": "ottoman_war"}))
    events.append(Event("ottoman_war_ended_on_demand", {"kept": list(kept), "by": war["sides"][1]}))
    return events
