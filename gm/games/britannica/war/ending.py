"""War End Determination and the Resolution Phase (seed, Ending a War; Resolution Phase)."""

from __future__ import annotations

from typing import Any

from gm.games.base import Event
from gm.games.britannica import board as b
from gm.games.britannica import orders as o
from gm.games.britannica.annexation import severed_annexations
from gm.games.britannica.congress import downgrade
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.war.empires import cut_off_by_egypt, end_chinese, end_ottoman_by_demand
from gm.games.britannica.war.sides import CHINESE, GM_POWERS, State, War, _units, combatants


def ended(d: BritanniaData, state: State, war: War) -> Any:
    """War End Determination: the side index that won, "stalemate", or None (fight on)."""
    if war["kind"] in ("china", "ottoman") and all(p in GM_POWERS for p in war["sides"][0]):
        types = CHINESE if war["kind"] == "china" else ("ottoman",)
        empire = [u for u in state["units"] if u["power"] in GM_POWERS]
        inside = [u for u in state["units"] if u["power"] in war["sides"][1]
                  and u["at"] in d.areas and b.area_type(d, state, u["at"]) in types
                  and (u["type"] == "army" or war["kind"] == "ottoman")]
        if not inside:
            return 0
        if not empire:
            return 1
    else:
        for s in (0, 1):
            abroad = [u for u in state["units"] if u["power"] in war["sides"][s]
                      and u["type"] == "army" and u["at"] != "home"]
            if not abroad:
                return 1 - s
            owned = [a for a in state["markers"] if any(b.controls(state, a, p) for p in war["sides"][s])]
            if owned and all(_units(state, war["sides"][1 - s], a, "army")
                             and not _units(state, war["sides"][s], a, "army") for a in owned):
                return 1 - s
    if war["quiet"] >= d.charts["war"]["stalemate_rounds"] or war["round"] >= d.charts["war"]["max_rounds"]:
        return "stalemate"
    return None


def resolution(d: BritanniaData, state: State, war: War, outcome: Any) -> list[Event]:
    """Markers follow the outcome, surrendered units come home, units abroad without a
    Controlled area to stand in go home."""
    events = [Event("war_ended", {"war": war["id"], "kind": war["kind"], "outcome": outcome,
                                  "winners": war["sides"][outcome] if isinstance(outcome, int) else []})]
    if war["kind"] == "china" and isinstance(outcome, int):
        events += end_chinese(d, state, outcome, war["defeated"], war)
    elif war["kind"] == "ottoman" and outcome == "demand":
        events += end_ottoman_by_demand(d, state, war, cut_off_by_egypt(d, state, war))
    elif war["kind"] == "ottoman" and isinstance(outcome, int) and outcome == 0:
        for a in [a for a in state["markers"] if b.area_type(d, state, a) == "ottoman"]:
            state["markers"][a] = [m for m in state["markers"][a] if m["power"] not in war["sides"][1]]
    else:
        events += _spoils(d, state, war, outcome)
    events += _influence_beside_control(d, state, war)
    for i, side in enumerate(war["sides"]):
        if "ottoman" in side:
            events += severed_annexations(d, state, war["sides"][1 - i])
    state["units"] = [u for u in state["units"] if u["power"] not in GM_POWERS]
    for u in war["surrendered"]:
        state["units"].append({**u, "at": "home"})
    for u in state["units"]:
        if u["power"] in combatants(war) and u["at"] != "home" and not b.controls(state, u["at"], u["power"]):
            u["at"] = "home"
    for a in [a for a, ms in state["markers"].items() if not ms]:
        del state["markers"][a]
    return events


def _influence_beside_control(d: BritanniaData, state: State, war: War) -> list[Event]:
    """Influence markers cannot remain where a Control marker is established (seed,
    Negotiation 2): when the war leaves a combatant's Influence beside an established Control
    marker (a stalemate, peace, or a victory that did not take the area), the GM reduces it
    until it can coexist, as for a dispute left unresolved (seed, Congress of Europe: "reduce
    his marker down to a level that will co-exist"): Interest beside Protectorates, removed
    beside a Possession or higher."""
    events: list[Event] = []
    for area, ms in sorted(state["markers"].items()):
        control = [m for m in ms if m["kind"] in o.CONTROL_KINDS and m["established"]]
        if not control:
            continue
        to = "interest" if all(m["kind"] == "protectorate" for m in control) else "none"
        for m in [m for m in ms if m["kind"] == "influence" and m["power"] in combatants(war)]:
            got = downgrade(d, state, m["power"], area, to)
            events += [] if isinstance(got, str) else got
    return events


def _spoils(d: BritanniaData, state: State, war: War, outcome: Any) -> list[Event]:
    """Conquered areas go to the conquering alliance (all of them after a stalemate): its Great
    Power (else minor) with the most army strength there takes the loser's Control marker,
    free; an area only Chinese or Ottoman armies took loses the loser's marker."""
    events: list[Event] = []
    for area, s in sorted(war["conquered"].items()):
        if isinstance(outcome, int) and s != outcome:
            continue
        losers = [m for m in state["markers"].get(area, []) if m["power"] in war["sides"][1 - s]
                  and m["kind"] in o.CONTROL_KINDS]
        strength: dict[str, int] = {}
        for u in _units(state, war["sides"][s], area, "army"):
            strength[u["power"]] = strength.get(u["power"], 0) + u["strength"]
        great = [p for p in strength if p in d.great_powers] or [
            p for p in strength if p not in GM_POWERS]
        if losers and not great and strength:
            state["markers"][area] = [m for m in state["markers"][area] if m not in losers]
            events.append(Event("area_liberated", {"area": area, "from": sorted(m["power"] for m in losers)}))
            continue
        if not losers or not great:
            continue
        taker = min(great, key=lambda p: (-strength[p], p))
        kind = "possession" if any(m["kind"] != "protectorate" for m in losers) else "protectorate"
        ms = [m for m in state["markers"][area] if m not in losers and m["power"] != taker]
        ms.append({"power": taker, "kind": kind, "established": True})
        state["markers"][area] = sorted(ms, key=lambda m: m["power"])
        events.append(Event("area_conquered", {"area": area, "by": taker, "kind": kind,
                                               "from": sorted(m["power"] for m in losers)}))
    return events

