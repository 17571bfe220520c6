"""Administration, victory points and the random and minor-power phases the GM carries out."""

from __future__ import annotations

from typing import Any

from gm.dice import Dice
from gm.games.base import Event
from gm.games.britannica import board as b
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.orders import CONTROL_KINDS
from gm.i18n import msg

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
    return total + unit_maintenance(d, state, power)


def unit_maintenance(d: BritanniaData, state: State, power: str) -> int:
    """The Military Units part of the maintenance: by strength, for units abroad."""
    mt = d.rules["maintenance"]
    total = 0
    for u in state["units"]:
        if u["power"] != power or u["at"] == "home":
            continue
        m = b.marker_of(state, u["at"], power)
        if m and m["kind"] in mt["free_units_in"]:
            continue
        total += u["strength"] * mt["unit_per_strength"]
    return total


def forced_expenditure(d: BritanniaData, start: State, new: State) -> list[Event]:
    """Forced Expenditure (seed, Forced Expenditure and Tensions Increases): a random event
    requires a power to spend a minimum on constructing and/or maintaining Military Units.
    What counts: this turn's maintenance of its units abroad, then the units it bought in
    this Movement phase; for the shortfall the GM builds Army units at home (the smallest
    one covering it, else the largest it can afford, again) as far as its money and counter
    mix allow. It suffers nothing for what it cannot meet."""
    events: list[Event] = []
    costs = d.rules["costs"]["army"]
    for f in new.pop("forced", []):
        p, amount = f["power"], int(f["amount"])
        old = {u["id"] for u in start["units"]}
        bought = sum(int(d.rules["costs"][u["type"]][str(u["strength"])]) for u in new["units"]
                     if u["power"] == p and u["id"] not in old)
        spent = unit_maintenance(d, start, p) + bought
        short, built = amount - spent, []
        while short > 0:
            have = {s: sum(1 for u in new["units"] if u["power"] == p and u["type"] == "army"
                           and u["strength"] == int(s)) for s in costs}
            can = sorted((int(c), int(s)) for s, c in costs.items() if int(c) <= new["treasury"][p]
                         and have[s] < d.rules["counter_mix"][p]["army"][s])
            if not can:
                break
            cost, strength = next((x for x in can if x[0] >= short), can[-1])
            new["treasury"][p] -= cost
            new["next_unit"] += 1
            new["units"].append({"id": new["next_unit"], "power": p, "type": "army",
                                 "strength": strength, "at": "home"})
            built.append(strength)
            short -= cost
        events.append(Event("forced_expenditure", {"power": p, "required": amount, "spent": spent,
                                                   "built": built, "short": max(short, 0)}))
    return events


def colonial_office(d: BritanniaData, state: State, power: str, dice: Dice) -> tuple[int, int | None]:
    """(income, roll): no roll for a power without control markers, except Austria-Hungary."""
    table = d.rules["colonial_office"][power]["income"]
    always = d.rules["powers"][power].get("always_roll_colonial_office", False)
    if not b.controlled_areas(state, power) and not always:
        return int(table[5]), None
    roll = dice.d6(msg("colonial office {power}", power=d.said(power)), visible_to=[d.seat_of(power)])
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
    """A negative treasury (seed, Net Income): eliminate units abroad, smallest first, then
    status markers, lowest value first (their maintenance is saved), until back to 0 or more."""
    events = []
    abroad = sorted((u for u in state["units"] if u["power"] == p and u["at"] != "home"),
                    key=lambda u: (u["strength"], u["id"]))
    for u in abroad:
        if state["treasury"][p] >= 0:
            break
        state["units"].remove(u)
        state["treasury"][p] += u["strength"]
        events.append(Event("unit_disbanded", {"power": p, "unit": u}))
    mt = d.rules["maintenance"]
    held = sorted(((a, m) for a, ms in state["markers"].items() for m in ms
                   if m["power"] == p and mt[m["kind"]] > 0 and m["kind"] != "dominion"),
                  key=lambda am: (d.areas[am[0]].value, am[0]))
    for area, m in held:
        if state["treasury"][p] >= 0:
            break
        state["markers"][area].remove(m)
        state["treasury"][p] += mt[m["kind"]]
        events.append(Event("marker_removed", {"area": area, "power": p, "kind": m["kind"],
                                               "cause": "negative_treasury"}))
    for a in [a for a, ms in state["markers"].items() if not ms]:
        del state["markers"][a]
    state["treasury"][p] = max(state["treasury"][p], 0)
    return events


def africa_path(d: BritanniaData, state: State, power: str, ends: tuple[str, str]) -> bool:
    """A Control marker at each end and a link by Overland Routes only, through the power's
    own Controlled areas (seed, Paths across Africa)."""
    own = {a for a in b.controlled_areas(state, power) if a not in state.get("unrest", [])}
    groups = d.charts["bonus_vp"]["africa"]
    start, goal = own & set(groups[ends[0]]), own & set(groups[ends[1]])
    seen, todo = set(start), list(start)
    while todo:
        a = todo.pop()
        if a in goal:
            return True
        for n in d.neighbours(a):
            if n in own and n not in seen:
                seen.add(n)
                todo.append(n)
    return False


AFRICA_PATHS = {"africa_east_west": ("north_west", "north_east"),
                "africa_north_south": ("mediterranean", "tip")}


def africa_bonus(d: BritanniaData, state: State) -> list[Event]:
    """10 VP for an east-west path, 15 for a north-south one, each once per power."""
    events = []
    got = state.setdefault("bonuses", {})
    for p in d.great_powers:
        for bonus, ends in AFRICA_PATHS.items():
            if bonus in got.get(p, []) or not africa_path(d, state, p, ends):
                continue
            who = "germany" if p == "austria-hungary" else p
            state["vp"][who] += d.charts["bonus_vp"][bonus]
            got.setdefault(p, []).append(bonus)
            events.append(Event("bonus_vp", {"power": who, "bonus": bonus,
                                             "vp": d.charts["bonus_vp"][bonus], "total": state["vp"][who]}))
    return events


def victory_points(d: BritanniaData, state: State) -> list[Event]:
    """Victory Point Record (seed, Victory Points): "Purchasing victory points with any £'s
    remaining in your treasury", at the power's divisor ("France has 37 £'s left ... divided
    by the VPD of 7 for a total of 5 victory points ... (fractions are dropped)"). The £ used
    to buy them are spent: the treasury keeps only the fraction left over (so a turn's money
    is this turn's net income plus that remainder, as in the Japan example "So Japan has £64
    to spend during this turn"). Germany adds Austria-Hungary's £, spent from
    Austria-Hungary's treasury first."""
    events = []
    for p in d.great_powers:
        if p == "austria-hungary":
            continue
        div = d.rules["colonial_office"][p]["vp_divisor"]
        purses = ["austria-hungary", p] if p == "germany" else [p]
        money = sum(state["treasury"][x] for x in purses)
        gained = money // div
        spent = left = gained * div
        for x in purses:
            take = min(left, state["treasury"][x])
            state["treasury"][x] -= take
            left -= take
        state["vp"][p] += gained
        events.append(Event("victory_points", {"power": p, "gained": gained, "spent": spent,
                                               "total": state["vp"][p]}))
    return events + africa_bonus(d, state)


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
    """Random Events phase: one die for the number (reported), two dice read in turn
    for each.

    A headline event recurring in the same phase is re-rolled; so is an area put
    into unrest twice (seed, Random Events and Unrest).
    """
    events: list[Event] = []
    table = d.charts["random_events"]["table"]
    seen: set[str] = set()
    count = dice.d6(msg("number of random events"))
    events.append(Event("random_events", {"count": count}))
    for _ in range(count):
        for _attempt in range(50):
            # two rolls, first then second (msg() outside the f-string: pybabel finds it)
            first = dice.d6(msg("random event, first die"))
            second = dice.d6(msg("random event, second die"))
            key = f"{first}-{second}"
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
        from gm.games.britannica.tensions import change_cri, raise_eti

        events_eti = raise_eti(d, state, effect.get("eti", 0), f"random event {key}")
        events_eti += change_cri(state, effect.get("cri", 0), f"random event {key}")
        if effect.get("balkan_war"):
            state["balkan_wars"] = state.get("balkan_wars", 0) + 1
        if "forced_expenditure" in effect:
            state.setdefault("forced", []).append(effect["forced_expenditure"])
        events.append(Event("headline", {"event": key, "name": entry["name"], "effect": effect}))
        events += events_eti
    return events


def _unrest_area(d: BritanniaData, state: State, letter: str, dice: Dice) -> str | None:
    t = d.charts["unrest_tables"][letter]
    for _ in range(50):
        if t["dice"] == 1:
            area = t["areas"][dice.d6(msg("unrest table {letter}", letter=letter)) - 1]
        else:
            area = t["areas"][dice.d6_sum(2, msg("unrest table {letter}", letter=letter)) - 2]
        if area not in state["unrest"]:
            return str(area)
    return None


def minor_powers(d: BritanniaData, state: State, dice: Dice) -> list[Event]:
    """Minor Powers phase: activity die, area roll, and the placement schedule. The
    report says which minor powers were active and which were not (one line), then
    what the active ones placed.

    Possession needs an own Protectorate and army there; Protectorate needs an
    army from home and an eligible area; otherwise Influence, then Interest; every one
    a Communication Link (:func:`_minor_place`). Minor powers pay nothing and need not
    defeat the area (seed, Minor Powers).
    """
    events: list[Event] = []
    active: list[str] = []
    for mp in d.minor_powers:
        chart = d.charts["minor_activity"][mp]
        roll = dice.d6(msg("minor power activity {power}", power=d.said(mp)))
        if roll not in chart["active_on"]:
            continue
        active.append(mp)
        area = None
        for _ in range(20):
            r = dice.d6_sum(2, msg("minor power area {power}", power=d.said(mp)))
            area = chart["areas"][r - 2]
            if area == "adjacent":
                area = _adjacent_choice(d, state, mp)
            if area and _minor_place(d, state, mp, area, events):
                break
    idle = [mp for mp in d.minor_powers if mp not in active]
    return [Event("minor_powers", {"active": active, "idle": idle}), *events]


def _adjacent_choice(d: BritanniaData, state: State, mp: str) -> str | None:
    """Roll 2: the highest-value free area adjacent by land to the minor's control markers
    that its Communication Link reaches (seed, Determining Minor Power Activity)."""
    own = b.controlled_areas(state, mp)
    reach = b.linked(d, state, mp)
    cands = {n for a in own for n in d.neighbours(a)
             if n in reach and d.areas[n].type != "home" and not any(
                 m["kind"] in CONTROL_KINDS for m in state["markers"].get(n, []))}
    if not cands:
        return None
    return min(cands, key=lambda a: (-d.areas[a].value, d.areas[a].strength, a))


def _minor_place(d: BritanniaData, state: State, mp: str, area: str, events: list[Event]) -> bool:
    """The placement schedule in ``area`` (seed, Determining Minor Power Activity); False
    when nothing can be placed there and the GM rolls again. Each step says "The Minor Power
    must have a Communication Link" (Game Terms: one "must exist between an Area and the
    players Home Country in order to place a Status marker in the Area")."""
    if area not in b.linked(d, state, mp):
        return False
    ms = state["markers"].setdefault(area, [])
    mine = b.marker_of(state, area, mp)
    others_control = any(m["kind"] in CONTROL_KINDS and m["power"] != mp for m in ms)
    army_home = [u for u in state["units"] if u["power"] == mp and u["type"] == "army"
                 and u["at"] == "home"]
    eligible = b.area_type(d, state, area) in ("unorganized", "chinese_vassal") or area in state["unrest"]
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
    if kind == "protectorate" and area in state["unrest"]:
        state.setdefault("suppressing", []).append(area)  # an attempt to suppress (seed, Unrest)
    if kind == "protectorate":
        for m in ms:
            if m["kind"] == "influence" and m["power"] in d.great_powers:
                cb = {"holder": m["power"], "against": mp, "area": area, "cause": "minor_protectorate"}
                state["casus_belli"].append(cb)
                events.append(Event("casus_belli", cb))
    return True
