"""Colonial combat (seed, Colonial Combat and Colonial Combat Resolutions)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gm.dice import Dice
from gm.games.britannica.data import BritanniaData
from gm.i18n import msg


def ratio_column(d: BritanniaData, attack: int, defence: int) -> str:
    """The CRT column: the ratio rounded off in favour of the defender.

    Seed example (Manchuria): 13 against 5 is rounded to 2-to-1; 15 would be 3-to-1.
    """
    cols = d.charts["crt"]["columns"]
    value = Fraction(attack, defence)
    best = cols[0]
    for col in cols:
        a, b = col.split(":")
        if value >= Fraction(int(a), int(b)):
            best = col
    return best


def table_for(d: BritanniaData, attack: int, defence: int) -> str:
    """Table 1 when the smaller force is under 5, else table 2."""
    return "table1" if min(attack, defence) < d.charts["crt"]["table2_threshold"] else "table2"


def resolve(d: BritanniaData, attack: int, defence: int, roll: int) -> tuple[str, str, str]:
    """(table, column, result) for one combat roll."""
    table = table_for(d, attack, defence)
    col = ratio_column(d, attack, defence)
    return table, col, d.charts["crt"][table][col][roll - 1]


def _lose_at_least(units: list[dict[str, Any]], need: float) -> list[dict[str, Any]]:
    """The cheapest set of armies whose strength is at least ``need`` (smallest first)."""
    chosen: list[dict[str, Any]] = []
    total = 0
    for u in sorted(units, key=lambda u: (u["strength"], u["id"])):
        if total >= need:
            break
        chosen.append(u)
        total += u["strength"]
    if total < need:
        return list(units)
    # drop small units made redundant by a large one
    for u in sorted(chosen, key=lambda u: u["strength"]):
        if total - u["strength"] >= need:
            chosen.remove(u)
            total -= u["strength"]
    return chosen


def colonial_combat(d: BritanniaData, area: str, armies: list[dict[str, Any]], dice: Dice
                    ) -> dict[str, Any]:
    """One power's colonial combat in ``area``: returns result, losses and whether it won.

    An area of strength zero is defeated automatically when an army is present.
    """
    strength = d.areas[area].strength
    attack = sum(u["strength"] for u in armies)
    if strength == 0:
        return {"area": area, "attack": attack, "defence": 0, "result": "automatic",
                "won": True, "lost": [], "retreat": False}
    roll = dice.d6(msg("colonial combat {area}", area=d.said(area)))
    table, col, res = resolve(d, attack, strength, roll)
    lost: list[dict[str, Any]] = []
    won = res in ("DR", "DE")
    retreat = res == "AR"
    if res == "AE" or (res == "EX" and strength >= attack) or (res == "HEX" and strength > attack):
        lost = list(armies)
    elif res == "EX":
        lost = _lose_at_least(armies, strength)
        won = len(lost) < len(armies)
    elif res == "HEX":
        lost = _lose_at_least(armies, strength / 2)
        won = len(lost) < len(armies)
    return {"area": area, "attack": attack, "defence": strength, "table": table,
            "ratio": col, "roll": roll, "result": res, "won": won,
            "lost": [u["id"] for u in lost], "retreat": retreat}
