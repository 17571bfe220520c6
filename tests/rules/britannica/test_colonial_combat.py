"""Seed 003, Colonial Combat Resolutions and Combat during a War: ratio rounding."""

from __future__ import annotations

from gm.dice import Dice
from gm.games.britannica.combat import colonial_combat, ratio_column, table_for
from gm.games.britannica.data import load


def test_rule_colonial_combat_resolutions_manchuria_13_to_5_is_2_to_1() -> None:
    """"The Combat Strength of Manchuria is 5. The Strength Point ratio is 13-to-5, which is
    rounded to 2-to-1. To have a ratio of 3-to-1, the Russian player would need two more Army (1)
    Units to bring his Combat Strength to 15."""
    d = load()
    assert d.areas["manchuria"].strength == 5
    assert ratio_column(d, 13, 5) == "2:1"
    assert ratio_column(d, 14, 5) == "2:1"
    assert ratio_column(d, 15, 5) == "3:1"
    assert table_for(d, 13, 5) == "table2"


def test_rule_combat_during_a_war_japan_7_to_5_is_1_to_1_and_8_to_5_is_3_to_2() -> None:
    """"The Strength ratio is 7-to-5, which is rounded off to 1-to-1 ... If Britain ... joins the
    Japanese attack ... the ratio would be increased to 8-to-5, rounded to 3-to-2"."""
    d = load()
    assert ratio_column(d, 7, 5) == "1:1"
    assert ratio_column(d, 8, 5) == "3:2"


def test_rule_colonial_combat_zero_strength_area_is_automatic() -> None:
    """"Colonial Combat in an Area with a Combat Strength of zero is automatically successful,
    provided a Power has an Army Unit present in the Area." No die is rolled."""
    d = load()
    dice = Dice.scripted([])
    res = colonial_combat(d, "aden", [{"id": 1, "strength": 1}], dice)
    assert res["won"] and dice.rolls == []


def test_rule_colonial_combat_exchange_loses_at_least_the_area_strength() -> None:
    """"EX: ... the player must eliminate one or more Armies whose combined Strength is equal to
    the Combat Strength of the Area. If after he has made his elimination, he has any Army Units
    remaining in the Area, the Area is defeated."""
    d = load()
    col = ratio_column(d, 13, 5)
    roll = d.charts["crt"]["table2"][col].index("EX") + 1
    armies = [{"id": 1, "strength": 10}, {"id": 2, "strength": 3}]
    res = colonial_combat(d, "manchuria", armies, Dice.scripted([roll]))
    assert res["result"] == "EX"
    assert res["lost"] == [1] and res["won"]
