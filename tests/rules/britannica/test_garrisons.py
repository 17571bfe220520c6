"""Seed 003, Garrisons: the areas lost when armies and money cannot garrison them all."""

from __future__ import annotations

from britannica_helpers import of_type, play

from gm.games.britannica import module


def _france_short_of_armies(*ungarrisoned: str) -> dict:
    """France with one Army(1) at home, no money, and ``ungarrisoned`` left without an army."""
    s = module.setup("1880", {})
    s["units"] = [u for u in s["units"] if not (u["power"] == "france" and u["type"] == "army"
                                                  and u["at"] in (*ungarrisoned, "home"))]
    s["next_unit"] += 1
    s["units"].append({"id": s["next_unit"], "power": "france", "type": "army", "strength": 1,
                       "at": "home"})
    s["treasury"]["france"] = 0
    return s


def test_rule_garrisons_default_equal_values_lose_the_first_alphabetically() -> None:
    """"Should a Power find themselves possessed with insufficient Army Units, and insufficient
    £'s to purchase enough Army Units, to garrison all Controlled Areas, the player may decide
    which areas he wishes to garrison and which he wishes to lose (Default is lowest economic
    areas are lost, if equal, alphabetically, should a players orders not be sufficient)."
    Cochin China and Guiana are both worth 4: Cochin China, first alphabetically, is lost."""
    s, events = play(_france_short_of_armies("cochin_china", "guiana"), {}, tag="equal")
    assert [(g["area"], g["strength"]) for g in of_type(events, "default_garrison")
            if g["power"] == "france"] == [("guiana", 1)]
    assert [g["area"] for g in of_type(events, "garrison_rule") if g["power"] == "france"] == [
        "cochin_china"]
    assert [m["kind"] for m in s["markers"]["cochin_china"] if m["power"] == "france"] == ["influence"]


def test_rule_garrisons_default_lowest_economic_area_is_lost() -> None:
    """"Default is lowest economic areas are lost": with one army for Algiers (5) and
    Senegambia (2), the GM garrisons Algiers and Senegambia becomes an Influence."""
    s, events = play(_france_short_of_armies("algiers", "senegambia"), {}, tag="lowest")
    assert [g["area"] for g in of_type(events, "default_garrison") if g["power"] == "france"] == [
        "algiers"]
    assert [g["area"] for g in of_type(events, "garrison_rule") if g["power"] == "france"] == [
        "senegambia"]
