"""Alliance Attack Phase: who attacks where, the CRT, losses and conquered areas (seed,
Combat during a War; Conquered Areas)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.dice import Dice
from gm.games.base import Event
from gm.games.britannica import board as b
from gm.games.britannica import orders as o
from gm.games.britannica.combat import _lose_at_least, resolve
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.refusals import refusal
from gm.games.britannica.war.retreat import retreat
from gm.games.britannica.war.sides import (
    CHINESE,
    GM_POWERS,
    State,
    War,
    _units,
    gm_controlled,
    side_of,
)
from gm.games.britannica.war.surrender import _sea_surrender
from gm.i18n import msg


def _area_bonus(d: BritanniaData, state: State, war: War, where: str, unit: str) -> int:
    """Undefeated Chinese/Ottoman areas add their Combat Strength to the empire's armies."""
    if unit != "army" or war["kind"] not in ("china", "ottoman") or where not in d.areas:
        return 0
    types = CHINESE if war["kind"] == "china" else ("ottoman",)
    if b.area_type(d, state, where) not in types or where in war["defeated"]:
        return 0
    if any(m["kind"] in o.CONTROL_KINDS for m in state["markers"].get(where, [])):
        return 0
    return d.areas[where].strength


def _attackers(d: BritanniaData, state: State, war: War, s: int,
               orders: Mapping[str, Sequence[o.AnyOrder]]) -> dict[tuple[str, str], list[str]]:
    """Who attacks where: ordered Great Powers and minors (all their units there), the GM
    empires everywhere they meet enemy units, minors with an attacking Great Power ally, or,
    when their controlling ally sent them no orders, alone at 3:2."""
    out: dict[tuple[str, str], set[str]] = {}
    for actor, own in orders.items():
        if side_of(war, actor) != s:
            continue
        for x in own:
            if isinstance(x, o.Attack) and _units(state, [actor], x.where, x.unit):
                out.setdefault((x.where, x.unit), set()).add(actor)
    enemy = war["sides"][1 - s]
    friends = war["sides"][s]
    for p in war["sides"][s]:
        if p in war.get("abandoned", []):
            # Drop-out rule 9b: combat only at 3:2 or better (with the allies there).
            for u in [u for u in state["units"] if u["power"] == p]:
                att = sum(x["strength"] for x in _units(state, friends, u["at"], u["type"]))
                dfc = sum(x["strength"] for x in _units(state, enemy, u["at"], u["type"]))
                if dfc and 2 * att >= 3 * dfc:
                    out.setdefault((u["at"], u["type"]), set()).add(p)
            continue
        if not gm_controlled(d, p) or (p in d.minor_powers and p in orders):
            continue  # a minor its controlling ally gave orders for attacks as ordered
        for u in [u for u in state["units"] if u["power"] == p]:
            key = (u["at"], u["type"])
            if not _units(state, enemy, u["at"], u["type"]):
                continue
            if p in GM_POWERS or key in out:
                out.setdefault(key, set()).add(p)
                continue
            att = sum(x["strength"] for x in _units(state, [p], u["at"], u["type"]))
            dfc = sum(x["strength"] for x in _units(state, enemy, u["at"], u["type"]))
            if 2 * att >= 3 * dfc:
                out.setdefault(key, set()).add(p)
    for key, ps in out.items():
        if any(p in d.great_powers for p in ps):
            ps |= {p for p in war["sides"][s] if p in d.minor_powers and _units(state, [p], *key)}
    return {k: sorted(v) for k, v in sorted(out.items())}


def _lose(d: BritanniaData, units: list[dict[str, Any]], need: float) -> list[dict[str, Any]]:
    """Units removed by an exchange: Great Power units before minor power units (seed, EX)."""
    great = [u for u in units if u["power"] in d.great_powers]
    minor = [u for u in units if u["power"] not in d.great_powers]
    if sum(u["strength"] for u in great) >= need:
        return _lose_at_least(great, need)
    return great + _lose_at_least(minor, need - sum(u["strength"] for u in great))


def _attacks(d: BritanniaData, state: State, war: War, s: int,
             orders: Mapping[str, Sequence[o.AnyOrder]], dice: Dice, defer_defender: bool
             ) -> list[Event]:
    """Alliance Attack: areas and zones in alphabetical order (seed, Combat during a War)."""
    events: list[Event] = []
    gm_side = next((i for i, side in enumerate(war["sides"]) if set(side) & set(GM_POWERS)), None)
    ordered = _ordered_attacks(war, s, orders)
    for (actor, where, unit), (i, x) in ordered.items():
        if not _units(state, [actor], where, unit):
            events.append(refusal(d, actor, i, x, msg("no such unit there")))
    for (where, unit), powers in _attackers(d, state, war, s, orders).items():
        att_units = _units(state, powers, where, unit)
        def_units = _units(state, war["sides"][1 - s], where, unit)
        if not att_units or not def_units:
            events += [refusal(d, actor, i, x, msg("no enemy unit there to attack"))
                       for (actor, w, k), (i, x) in ordered.items()
                       if (w, k) == (where, unit) and actor in powers and att_units]
            continue
        bonus = _area_bonus(d, state, war, where, unit)
        att = sum(u["strength"] for u in att_units) + (bonus if gm_side == s else 0)
        dfc = sum(u["strength"] for u in def_units) + (bonus if gm_side == 1 - s else 0)
        roll = dice.d6(msg("war attack {area}", area=d.said(where)))
        table, col, res = resolve(d, att, dfc, roll)
        war["attacked"] = True
        lost: list[dict[str, Any]] = []
        if res == "AE":
            lost = att_units
        elif res == "DE":
            lost = def_units
        elif res in ("EX", "HEX"):
            small = min(att, dfc)
            need = small if res == "EX" else -(-small // 2)
            if att < dfc:
                lost = att_units + _lose(d, def_units, need)
            elif dfc < att:
                lost = def_units + _lose(d, att_units, need)
            else:
                lost = att_units + def_units
        ids = {u["id"] for u in lost}
        state["units"] = [u for u in state["units"] if u["id"] not in ids]
        if bonus and ((gm_side == s and res in ("AE", "AR"))
                      or (gm_side == 1 - s and (res in ("DR", "DE") or (res in ("EX", "HEX") and dfc < att)))):
            war["defeated"].append(where)
        events.append(Event("war_combat", {
            "war": war["id"], "where": where, "unit": unit, "attackers": powers,
            "defenders": sorted({u["power"] for u in def_units}), "attack": att, "defence": dfc,
            "table": table, "ratio": col, "roll": roll, "result": res,
            "lost": [{"power": u["power"], "unit": u["type"], "strength": u["strength"]} for u in lost]}))
        if res == "AR":
            events += retreat(d, state, war, [u for u in att_units if u["id"] not in ids], where)
        elif res == "DR":
            left = [u for u in def_units if u["id"] not in ids]
            if defer_defender:
                war["pending"].append({"at": where, "ids": [u["id"] for u in left]})
            else:
                events += retreat(d, state, war, left, where)
    events += _sea_surrender(d, state, war)
    _conquests(d, state, war)
    return events


def _ordered_attacks(war: War, s: int, orders: Mapping[str, Sequence[o.AnyOrder]]
                     ) -> dict[tuple[str, str, str], tuple[int, o.AnyOrder]]:
    """Side ``s``'s attack orders by (actor, where, unit), with their number in the mail."""
    out: dict[tuple[str, str, str], tuple[int, o.AnyOrder]] = {}
    for actor, own in orders.items():
        if side_of(war, actor) != s:
            continue
        for i, x in enumerate(own, 1):
            if isinstance(x, o.Attack):
                out.setdefault((actor, x.where, x.unit), (i, x))
    return out


def _conquests(d: BritanniaData, state: State, war: War) -> None:
    """An enemy-controlled area holding only one alliance's armies is conquered by it."""
    for area in sorted(set(state["markers"]) | set(war["conquered"])):
        if area not in d.areas:
            continue
        present = [s for s in (0, 1) if _units(state, war["sides"][s], area, "army")]
        if len(present) != 1:
            continue
        s = present[0]
        owned_by_enemy = any(b.controls(state, area, p) for p in war["sides"][1 - s])
        if war["conquered"].get(area) is not None and war["conquered"][area] != s:
            war["conquered"].pop(area)
            owned_by_enemy = any(b.controls(state, area, p) for p in war["sides"][1 - s])
        if owned_by_enemy:
            war["conquered"][area] = s

