"""Administration, victory points and the random and minor-power phases the GM carries out."""

from __future__ import annotations

from typing import Any

from gm.dice import Dice
from gm.games.base import Event
from gm.games.britannica import board as b
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.orders import CONTROL_KINDS

State = dict[str, Any]


def marker_income(d: BritanniaData, state: State, power: str, linked_only: bool = True) -> int:
    """Income from status markers (seed, Status Record and Income Record).

    Value x5 for Dominion/State/Possession, x4 Protectorate, x2 Influence, x1
    Interest; a co-dominion pays 1 less per other control marker in the area;
    areas without a communication link pay nothing.
    """
    mult = d.rules["income_multiplier"]
    reach = b.linked(d, state, power) if linked_only else None
    total = 0
    for area, ms in state["markers"].items():
        for m in ms:
            if m["power"] != power or not m["established"]:
                continue
            if reach is not None and area not in reach:
                continue
            value = d.areas[area].value
            if m["kind"] in CONTROL_KINDS:
                others = sum(1 for x in ms if x is not m and x["kind"] in CONTROL_KINDS)
                value -= others * mult["codominion_penalty"]
            total += max(value, 0) * mult[m["kind"]]
    return total


def maintenance(d: BritanniaData, state: State, power: str) -> int:
    """Maintenance (seed, Maintenance Record): markers by kind, units by strength abroad.

    Britain and the USA pay nothing for units in their own Dominions/States.
    """
    mt = d.rules["maintenance"]
    total = sum(mt[m["kind"]] for ms in state["markers"].values() for m in ms
                if m["power"] == power)
    for u in state["units"]:
        if u["power"] != power or u["at"] == "home":
            continue
        m = b.marker_of(state, u["at"], power)
        if m and m["kind"] in mt["free_units_in"]:
            continue
        total += u["strength"] * mt["unit_per_strength"]
    return total


def colonial_office(d: BritanniaData, state: State, power: str, dice: Dice) -> tuple[int, int | None]:
    """(income, roll): no roll for a power without control markers, except Austria-Hungary."""
    table = d.rules["colonial_office"][power]["income"]
    always = d.rules["powers"][power].get("always_roll_colonial_office", False)
    if not b.controlled_areas(state, power) and not always:
        return int(table[5]), None
    roll = dice.d6(f"colonial office {power}")
    return int(table[roll - 1]), roll


def administration(d: BritanniaData, state: State, dice: Dice) -> list[Event]:
    """Administration phase: treasury += colonial office + markers - maintenance."""
    events = []
    for p in d.great_powers:
        co, roll = colonial_office(d, state, p, dice)
        inc = marker_income(d, state, p)
        mnt = maintenance(d, state, p)
        state["treasury"][p] += co + inc - mnt
        data = {"power": p, "colonial_office": co, "roll": roll, "markers": inc,
                "maintenance": mnt, "treasury": state["treasury"][p]}
        seat = d.seat_of(p)
        events.append(Event("administration", data, frozenset({seat})))
        if state["treasury"][p] < 0:
            events += _cut_negative(d, state, p)
    return events


def _cut_negative(d: BritanniaData, state: State, p: str) -> list[Event]:
    """A negative treasury: eliminate units abroad, smallest first, until back to 0 or more."""
    events = []
    abroad = sorted((u for u in state["units"] if u["power"] == p and u["at"] != "home"),
                    key=lambda u: (u["strength"], u["id"]))
    for u in abroad:
        if state["treasury"][p] >= 0:
            break
        state["units"].remove(u)
        state["treasury"][p] += u["strength"]
        events.append(Event("unit_disbanded", {"power": p, "unit": u}))
    state["treasury"][p] = max(state["treasury"][p], 0)
    return events


def victory_points(d: BritanniaData, state: State) -> list[Event]:
    """VP record: £ left are bought as VP at the power's divisor (Germany adds A-H's £)."""
    events = []
    for p in d.great_powers:
        if p == "austria-hungary":
            continue
        div = d.rules["colonial_office"][p]["vp_divisor"]
        money = state["treasury"][p]
        if p == "germany":
            money += state["treasury"]["austria-hungary"]
        gained = money // div
        state["vp"][p] += gained
        events.append(Event("victory_points", {"power": p, "gained": gained, "total": state["vp"][p]}))
    return events


def final_record(d: BritanniaData, state: State) -> list[Event]:
    """Final record: double the income of the final map (no maintenance) / divisor."""
    events = []
    for p in d.great_powers:
        if p == "austria-hungary":
            continue
        income = 2 * marker_income(d, state, p, linked_only=False)
        if p == "germany":
            income += 2 * marker_income(d, state, "austria-hungary", linked_only=False)
        gained = income // d.rules["colonial_office"][p]["vp_divisor"]
        state["vp"][p] += gained
        events.append(Event("final_victory_points", {"power": p, "gained": gained,
                                                     "total": state["vp"][p]}))
    return events


def random_events(d: BritanniaData, state: State, dice: Dice) -> list[Event]:
    """Random Events phase: one die for the number, two dice read in turn for each.

    A headline event recurring in the same phase is re-rolled; so is an area put
    into unrest twice (seed, Random Events and Unrest).
    """
    events: list[Event] = []
    table = d.charts["random_events"]["table"]
    seen: set[str] = set()
    count = dice.d6("number of random events")
    for _ in range(count):
        for _attempt in range(50):
            key = f"{dice.d6('random event, first die')}-{dice.d6('random event, second die')}"
            entry = table[key]
            if entry["headline"] and key in seen:
                continue
            seen.add(key)
            break
        effect = entry["effect"]
        if "unrest" in effect:
            area = _unrest_area(d, state, effect["unrest"], dice)
            if area:
                state["unrest"].append(area)
                events.append(Event("unrest", {"event": key, "table": effect["unrest"], "area": area}))
            continue
        state["eti"] += effect.get("eti", 0)
        state["cri"] += effect.get("cri", 0)
        if effect.get("balkan_war"):
            state["balkan_wars"] = state.get("balkan_wars", 0) + 1
        if "forced_expenditure" in effect:
            state.setdefault("forced", []).append(effect["forced_expenditure"])
        events.append(Event("headline", {"event": key, "name": entry["name"], "effect": effect}))
    return events


def _unrest_area(d: BritanniaData, state: State, letter: str, dice: Dice) -> str | None:
    t = d.charts["unrest_tables"][letter]
    for _ in range(50):
        if t["dice"] == 1:
            area = t["areas"][dice.d6(f"unrest table {letter}") - 1]
        else:
            area = t["areas"][dice.d6_sum(2, f"unrest table {letter}") - 2]
        if area not in state["unrest"]:
            return str(area)
    return None


def minor_powers(d: BritanniaData, state: State, dice: Dice) -> list[Event]:
    """Minor Powers phase: activity die, area roll, and the placement schedule.

    Possession needs an own Protectorate and army there; Protectorate needs an
    army from home and an eligible area; otherwise Influence, then Interest.
    Minor powers pay nothing and need not defeat the area (seed, Minor Powers).
    """
    events = []
    for mp in d.minor_powers:
        chart = d.charts["minor_activity"][mp]
        roll = dice.d6(f"minor power activity {mp}")
        if roll not in chart["active_on"]:
            continue
        area = None
        for _ in range(20):
            r = dice.d6_sum(2, f"minor power area {mp}")
            area = chart["areas"][r - 2]
            if area == "adjacent":
                area = _adjacent_choice(d, state, mp)
            if area and _minor_place(d, state, mp, area, events):
                break
    return events


def _adjacent_choice(d: BritanniaData, state: State, mp: str) -> str | None:
    """Roll 2: the highest-value free area adjacent by land to the minor's control markers."""
    own = b.controlled_areas(state, mp)
    cands = {n for a in own for n in d.neighbours(a)
             if d.areas[n].type != "home" and not any(
                 m["kind"] in CONTROL_KINDS for m in state["markers"].get(n, []))}
    if not cands:
        return None
    return min(cands, key=lambda a: (-d.areas[a].value, d.areas[a].strength, a))


def _minor_place(d: BritanniaData, state: State, mp: str, area: str, events: list[Event]) -> bool:
    ms = state["markers"].setdefault(area, [])
    mine = b.marker_of(state, area, mp)
    others_control = any(m["kind"] in CONTROL_KINDS and m["power"] != mp for m in ms)
    army_home = [u for u in state["units"] if u["power"] == mp and u["type"] == "army"
                 and u["at"] == "home"]
    eligible = d.areas[area].type in ("unorganized", "chinese_vassal") or area in state["unrest"]
    kind = None
    if mine and mine["kind"] == "protectorate" and b.units_at(state, mp, area):
        kind = "possession"
    elif not others_control and army_home and eligible and not (mine and mine["kind"] in CONTROL_KINDS):
        kind = "protectorate"
        min(army_home, key=lambda u: u["strength"])["at"] = area
    elif not others_control and not (mine and b.rank(mine["kind"]) >= 1):
        kind = "influence"
    elif not any(m["kind"] == "possession" and m["power"] != mp for m in ms) and not mine:
        kind = "interest"
    if kind is None:
        if not ms:
            state["markers"].pop(area, None)
        return False
    if mine:
        mine.update(kind=kind, established=True)
    else:
        ms.append({"power": mp, "kind": kind, "established": True})
        ms.sort(key=lambda m: m["power"])
    events.append(Event("minor_power_placement", {"power": mp, "area": area, "kind": kind}))
    return True
