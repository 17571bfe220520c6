"""Seed 003, Colonial Combat Resolutions and Combat during a War: ratio rounding."""

from __future__ import annotations

from britannica_helpers import of_type, play, set_up

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


def test_rule_colonial_combat_resolutions_half_exchange_loses_half_the_area_strength() -> None:
    """"½EX: Half exchange. If the Area's Combat Strength is less than or equal to the player's
    total Army Unit strength in the Area, the player must eliminate one or more Armies whose
    combined Combat Strength is at least equal to one-half the Combat Strength of the Area.
    If, after he has made his elimination, he has Army Units remaining in the Area, the Area is
    defeated. If the Area's Combat Strength is greater then the player's, treat this as an
    'AE'." The Manchuria example's Army(10) and Army(3) (2-to-1) lose the Army(3), 3 being at
    least half of 5; an attack of exactly 5 (1-to-1) keeps some units and wins."""
    d = load()
    roll = d.charts["crt"]["table2"]["2:1"].index("HEX") + 1
    res = colonial_combat(d, "manchuria", [{"id": 1, "strength": 10}, {"id": 2, "strength": 3}],
                          Dice.scripted([roll]))
    assert res["result"] == "HEX" and res["lost"] == [2] and res["won"]
    # Strength 5 against Manchuria's 5: "less than or equal", not an 'AE'.
    roll = d.charts["crt"]["table2"]["1:1"].index("HEX") + 1
    armies = [{"id": 1, "strength": 3}, {"id": 2, "strength": 1}, {"id": 3, "strength": 1}]
    res = colonial_combat(d, "manchuria", armies, Dice.scripted([roll]))
    assert res["result"] == "HEX" and res["lost"] == [1] and res["won"]


def _burma_in_unrest(britain: str, roll_result: str) -> tuple[dict, list]:
    """Burma (strength 3, next to Britain's Bengal) in unrest; Britain's Army(3) from home
    attacks it at 1-to-1 (table 1) with the die that gives ``roll_result``."""
    d = load()
    s = set_up()
    s["unrest"] = ["burma"]
    assert d.areas["burma"].strength == 3 and "bengal" in d.neighbours("burma")
    roll = d.charts["crt"]["table1"]["1:1"].index(roll_result) + 1
    return play(s, {"britain": britain}, lead=[roll], tag="burma")


def test_rule_colonial_combat_resolutions_attacker_retreat_all_armies_leave_the_area() -> None:
    """"AR: Attacker retreat. All of the colonial Power's Army Units in the Area must retreat.
    If the Area is adjacent to another Area that is Controlled by the player, he can retreat to
    that Area." Britain only tries to suppress the unrest in Burma (no marker of its own there):
    after an AR its Army(3) is no longer in Burma but in Bengal."""
    s, events = _burma_in_unrest("move army 3 from home to Burma", "AR")
    [c] = of_type(events, "colonial_combat")
    assert (c["area"], c["result"], c["won"]) == ("burma", "AR", False)
    assert [u["at"] for u in s["units"] if u["power"] == "britain" and u["strength"] == 3
            and u["type"] == "army"] == ["bengal"]


def test_rule_colonial_combat_resolutions_default_retreat_adjacent_controlled_area_first() -> None:
    """"The default retreat orders, should a player not specify are… 1. An adjacent area
    controlled by that player 2. Back to the home country". Britain's failed Protectorate in
    Burma: its Army(3) retreats to Bengal, next door and British, not home."""
    s, events = _burma_in_unrest("place protectorate in Burma\nmove army 3 from home to Burma", "AR")
    assert of_type(events, "colonial_combat")[0]["result"] == "AR"
    assert not any(m["power"] == "britain" for m in s["markers"].get("burma", []))
    assert [u["at"] for u in s["units"] if u["power"] == "britain" and u["strength"] == 3
            and u["type"] == "army"] == ["bengal"]


def test_rule_unrest_in_an_influence_area_left_unsuppressed_removes_all_status_markers() -> None:
    """Unrest in an Influence Area: "If the Unrest remains in the Area during the Marker
    Adjustment Phase, all Status markers are removed from the Area." Madagascar, France's
    Influence with a British Interest beside it, stays in unrest: both markers go."""
    s = set_up()
    s["unrest"] = ["madagascar"]
    s["markers"]["madagascar"].append({"power": "britain", "kind": "interest", "established": True})
    new, events = play(s, {}, tag="madagascar")
    assert "madagascar" not in new["markers"]
    assert sorted((r["power"], r["kind"]) for r in of_type(events, "marker_removed")
                  if r["area"] == "madagascar") == [("britain", "interest"), ("france", "influence")]
