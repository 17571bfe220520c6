"""The Game Turn Sequence as a table of steps (seed, Game Turn Sequence).

Phases that take orders: ``movement`` (Movement / Status Change, followed by
the GM's Colonial Combat and Marker Adjustment) and ``negotiation``
(Negotiation, then the GM's Chinese Resentment, War and Victory Point Record
phases, then the next turn's Random Events, Administration and Minor Powers).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from gm.dice import Dice
from gm.games.base import Event
from gm.games.britannica import board as b
from gm.games.britannica import economy
from gm.games.britannica import orders as o
from gm.games.britannica.combat import colonial_combat
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.movement import Refusal, merge, renumber_new_units, run_power

State = dict[str, Any]


def by_actor(orders: Mapping[str, Sequence[o.AnyOrder]]) -> dict[str, list[o.AnyOrder]]:
    """Every submitted order keyed by the power that acts (FOR lines already applied)."""
    out: dict[str, list[o.AnyOrder]] = {}
    for seat_orders in orders.values():
        for order in seat_orders:
            out.setdefault(order.actor, []).append(order)
    return out


# -- Movement / Status Change ---------------------------------------------------
def movement_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]],
                   dice: Dice) -> tuple[State, list[Event]]:
    """Movement/Status Change, then Colonial Combat and Marker Adjustment."""
    start = copy.deepcopy(state)
    new = copy.deepcopy(state)
    submitted = by_actor(orders)
    events: list[Event] = []
    built: dict[str, list[str]] = {}
    for actor in sorted(d.great_powers):
        own = submitted.get(actor, [])
        ctx, evs = run_power(d, start, actor, d.seat_of(actor), own, submitted)
        merge(d, new, ctx)
        for pid in ctx.canal_built or []:
            built.setdefault(pid, []).append(actor)
        events += evs
    renumber_new_units(new, start["next_unit"])
    events += _canals(d, new, built)
    events += _placement_effects(d, start, new)
    events += _default_garrisons(d, new)
    events += _colonial_combat(d, new, dice)
    events += _marker_adjustment(d, new)
    new["step"] = "negotiation"
    return new, events


def _canals(d: BritanniaData, new: State, built: Mapping[str, list[str]]) -> list[Event]:
    """First canal: 15 VP, shared equally by same-turn builders (seed, Canals)."""
    events = []
    first = not new.get("canals")
    for pid in sorted(built):
        new.setdefault("canals", []).append(pid)
        builders = sorted(built[pid])
        share = round(d.charts["bonus_vp"]["first_canal"] / len(builders)) if first else 0
        for p in builders:
            new["vp"][p] += share
        events.append(Event("canal_built", {"canal": pid, "builders": builders, "vp_each": share}))
        first = False
    return events


def _placement_effects(d: BritanniaData, start: State, new: State) -> list[Event]:
    """Casus belli from the Status Marker Placement Effects Summary; Chinese resentment."""
    events = []
    cri = d.charts["cri"]["placed"]
    for area in sorted(new["markers"]):
        for m in new["markers"][area]:
            if not m.get("new"):
                continue
            if d.areas[area].type in ("chinese_empire", "chinese_vassal"):
                new["cri"] += cri[m["kind"]]
            if m["kind"] not in o.CONTROL_KINDS:
                continue
            for other in b.markers(start, area):
                if other["power"] != m["power"] and other["kind"] == "influence" and other["established"]:
                    cb = {"holder": other["power"], "against": m["power"], "area": area,
                          "cause": "control_over_influence"}
                    new["casus_belli"].append(cb)
                    events.append(Event("casus_belli", cb))
    return events


def _needs_garrison(d: BritanniaData, state: State, power: str) -> list[str]:
    areas = [a for a, ms in state["markers"].items()
             if any(m["power"] == power and m["kind"] in o.CONTROL_KINDS for m in ms)
             and not [u for u in b.units_at(state, power, a) if u["type"] == "army"]]
    return sorted(areas, key=lambda a: (-d.areas[a].value, a))


def _default_garrisons(d: BritanniaData, new: State) -> list[Event]:
    """Garrisons (seed): the GM moves the lowest-value army from home, or builds one."""
    events = []
    for p in sorted(d.great_powers):
        for area in _needs_garrison(d, new, p):
            home = sorted((u for u in b.units_at(new, p, "home") if u["type"] == "army"),
                          key=lambda u: (u["strength"], u["id"]))
            if home:
                home[0]["at"] = area
                events.append(Event("default_garrison", {"power": p, "area": area,
                                                         "strength": home[0]["strength"]}))
            elif new["treasury"][p] >= d.rules["costs"]["army"]["1"]:
                new["treasury"][p] -= d.rules["costs"]["army"]["1"]
                new["next_unit"] += 1
                new["units"].append({"id": new["next_unit"], "power": p, "type": "army",
                                     "strength": 1, "at": area})
                events.append(Event("default_garrison", {"power": p, "area": area,
                                                         "strength": 1, "built": True}))
    return events


def _colonial_combat(d: BritanniaData, new: State, dice: Dice) -> list[Event]:
    """Colonial Combat phase: areas in alphabetical order, powers in alphabetical order."""
    events = []
    for area in sorted(set(new["markers"]) | set(new["unrest"])):
        for p in sorted(d.great_powers):
            m = b.marker_of(new, area, p)
            armies = [u for u in b.units_at(new, p, area) if u["type"] == "army"]
            wants_control = m is not None and m["kind"] in o.CONTROL_KINDS and not m["established"]
            suppress = area in new["unrest"] and bool(armies)
            if not armies or not (wants_control or suppress):
                continue
            res = colonial_combat(d, area, armies, dice)
            res["power"] = p
            new["units"] = [u for u in new["units"] if u["id"] not in res["lost"]]
            if res["won"]:
                if wants_control and m is not None:
                    m["established"] = True
                if area in new["unrest"]:
                    new["unrest"].remove(area)
            elif res["retreat"]:
                _retreat(d, new, p, area)
            events.append(Event("colonial_combat", res))
    return events


def _retreat(d: BritanniaData, state: State, power: str, area: str) -> None:
    """Default retreat: an adjacent area the power controls (highest value), else home."""
    cands = sorted((a for a in d.neighbours(area) if b.controls(state, a, power)),
                   key=lambda a: (-d.areas[a].value, a))
    dest = cands[0] if cands else "home"
    for u in b.units_at(state, power, area):
        u["at"] = dest


def _marker_adjustment(d: BritanniaData, new: State) -> list[Event]:
    """Marker Adjustment phase (seed, Game Turn Sequence and Garrisons)."""
    events: list[Event] = []
    for area in sorted(new["unrest"]):
        ms = new["markers"].get(area, [])
        control = [m for m in ms if m["kind"] in o.CONTROL_KINDS and m["established"]]
        influence = [m for m in ms if m["kind"] == "influence"]
        gone = control or (ms if influence else [m for m in ms if m["kind"] == "interest"])
        for m in list(gone):
            ms.remove(m)
            _retreat(d, new, m["power"], area)
            events.append(Event("marker_removed", {"area": area, "power": m["power"],
                                                   "kind": m["kind"], "cause": "unrest"}))
    new["unrest"] = []
    for area in sorted(new["markers"]):
        ms = new["markers"][area]
        for m in list(ms):
            if not m["established"]:
                if m["kind"] in o.CONTROL_KINDS:
                    ms.remove(m)
                    if m.get("was"):
                        ms.append({"power": m["power"], "kind": m["was"], "established": True})
                    _retreat(d, new, m["power"], area)
                    events.append(Event("marker_removed", {"area": area, "power": m["power"],
                                                           "kind": m["kind"], "cause": "not_established"}))
                    continue
                m["established"] = True
                events.append(Event("marker_established", {"area": area, "power": m["power"],
                                                           "kind": m["kind"]}))
            m.pop("new", None)
            m.pop("was", None)
        ms.sort(key=lambda m: m["power"])
    for p in sorted(d.great_powers):
        for area in _needs_garrison(d, new, p):
            ms = new["markers"][area]
            m = b.marker_of(new, area, p)
            assert m is not None
            codominion = sum(1 for x in ms if x["kind"] in o.CONTROL_KINDS) > 1
            if codominion:
                ms.remove(m)
                if not any(x["kind"] == "possession" for x in ms):
                    ms.append({"power": p, "kind": "interest", "established": True})
            else:
                m["kind"] = "influence"
            events.append(Event("garrison_rule", {"area": area, "power": p,
                                                  "codominion": codominion}))
    for area in [a for a, ms in new["markers"].items() if not ms]:
        del new["markers"][area]
    return events


# -- Negotiation and the rest of the turn -----------------------------------------
def negotiation_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]],
                      dice: Dice) -> tuple[State, list[Event]]:
    """Negotiation (treaties registered and signed), then the GM's end-of-turn phases."""
    new = copy.deepcopy(state)
    events: list[Event] = []
    for actor, own in sorted(by_actor(orders).items()):
        seat = d.seat_of(actor)
        for i, order in enumerate(own, 1):
            events += _negotiate(new, actor, seat, i, order)
    events += chinese_resentment(d, new, dice)
    events += economy.victory_points(d, new)
    new["casus_belli"] = []
    if new["year"] == d.turn_years()[-1]:
        events += economy.final_record(d, new)
        new["step"] = "ended"
        events.append(Event("game_over", {"vp": dict(new["vp"])}))
        return new, events
    new["year"] += 4
    events += start_of_turn(d, new, dice)
    return new, events


def _negotiate(new: State, actor: str, seat: str, i: int, order: o.AnyOrder) -> list[Event]:
    from gm.games.britannica.parser import echo

    base = o.base(order)
    if isinstance(base, o.TreatyText) and not isinstance(order, o.Conditional):
        new["treaties"].append({"name": base.name, "public": base.public,
                                "parties": sorted(set(base.parties) | {actor}),
                                "text": base.text, "signed": [actor], "ratified": False})
        return [Event("treaty_drafted", {"name": base.name}, frozenset({seat, *base.parties}))]
    if isinstance(base, o.Sign) and not isinstance(order, o.Conditional):
        for t in new["treaties"]:
            if t["name"] == base.name and actor in t["parties"]:
                if actor not in t["signed"]:
                    t["signed"].append(actor)
                t["ratified"] = set(t["signed"]) >= set(t["parties"])
                vis = None if t["public"] else frozenset(t["parties"])
                kind = "treaty_ratified" if t["ratified"] else "treaty_signed"
                return [Event(kind, {"name": t["name"], "by": actor, "parties": t["parties"],
                                     "text": t["text"] if t["ratified"] else ""}, vis)]
    if isinstance(base, o.SwitchPower):
        return []
    why = Refusal.NOT_IMPLEMENTED if isinstance(base, o.NotYet) else Refusal.WRONG_PHASE
    return [Event("order_not_carried_out", {"power": actor, "number": i, "order": echo(order),
                                            "reason": why.name, "why": why.value},
                  frozenset({seat}))]


def chinese_resentment(d: BritanniaData, new: State, dice: Dice) -> list[Event]:
    """Chinese Resentment phase: adjust the index, roll 3 dice; under the tens -> rebellion.

    Seed example: at CRI 124 a roll of 11 or less activates a rebellion.
    """
    c = d.charts["cri"]
    for area, ms in new["markers"].items():
        if d.areas[area].type in ("chinese_empire", "chinese_vassal"):
            for m in ms:
                if m["kind"] in o.CONTROL_KINDS:
                    new["cri"] += c["per_phase_control_marker"]
                elif m["kind"] == "influence":
                    new["cri"] += c["per_phase_influence_marker"]
    roll = dice.d6_sum(c["rebellion_dice"], "Chinese rebellion")
    rebellion = rebellion_occurs(new["cri"], roll)
    return [Event("chinese_resentment", {"cri": new["cri"], "roll": roll, "rebellion": rebellion,
                                         "war": "not yet implemented" if rebellion else ""})]


def rebellion_occurs(cri: int, roll: int) -> bool:
    """A rebellion occurs if the 3-dice total is less than the tens of the index."""
    return roll < cri // 10


def start_of_turn(d: BritanniaData, new: State, dice: Dice) -> list[Event]:
    """Random Events, Administration and Minor Powers, then open Movement."""
    events = [Event("turn_begins", {"year": new["year"]})]
    events += economy.random_events(d, new, dice)
    events += economy.administration(d, new, dice)
    events += economy.minor_powers(d, new, dice)
    new["merchants_due"] = {p: d.turn(new["year"])["merchants"].count(p) for p in d.great_powers}
    new["step"] = "movement"
    return events
