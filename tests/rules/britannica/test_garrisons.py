"""Seed 003, Garrisons: the areas lost when armies and money cannot garrison them all."""

from __future__ import annotations

from britannica_helpers import of_type, play, set_up

from gm.games.britannica import module
from gm.games.britannica.data import load
from gm.service.render import render


def _france_short_of_armies(*ungarrisoned: str) -> dict:
    """France with one Army(1) at home, no money, and ``ungarrisoned`` left without an army."""
    s = set_up()
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


def test_rule_garrisons_the_gm_moves_the_lowest_value_army_from_home_or_an_excess_one() -> None:
    """"If a player does not make provision in his orders to garrison a Controlled Area, the GM
    will move the lowest value army from home or where there may be excess armies (closest, then
    alphabetical) from that area, to the ungarrisoned area." France has Army(3) and Army(1) in
    Algiers, an Army(10) and an Army(3) at home: Cochin China gets Algiers' spare Army(1)."""
    s = set_up()
    s["units"] = [u for u in s["units"] if not (u["power"] == "france" and u["at"] == "cochin_china")]
    s["next_unit"] += 1
    s["units"].append({"id": s["next_unit"], "power": "france", "type": "army", "strength": 1,
                       "at": "algiers"})
    s, events = play(s, {}, tag="excess")
    [g] = [g for g in of_type(events, "default_garrison") if g["power"] == "france"]
    assert (g["area"], g["strength"], g["from"], g["built"]) == ("cochin_china", 1, "algiers", False)
    armies = sorted(u["strength"] for u in s["units"] if u["power"] == "france" and u["at"] == "algiers")
    assert armies == [3]
    from gm.service.render import render

    shown = [{"type": e.type, "data": dict(e.data)} for e in events if e.visible("france")]
    text = render("report", "en", "britannica", game_only=True, view=module.view(s, "france"),
                  events=shown, power="france")
    assert "The GM garrisons Cochin China for France with an army (1) from Algiers." in text


def test_rule_special_russian_garrison_rule_the_gm_never_garrisons_with_the_western_garrison() -> None:
    """Special Russian Garrison Rule: "If Russia has fewer than four Army (10) Units, none can
    ever be moved to any Area outside those specified", and "The British and Russian players
    special garrison rules still take priority": with only its three Army(10) at home, Russia's
    ungarrisoned Control area gets a bought Army(1), not one of them."""
    s = set_up()
    s["units"] = [u for u in s["units"] if not (u["power"] == "russia" and u["strength"] != 10)]
    s["markers"]["persia"] = [{"power": "russia", "kind": "protectorate", "established": True}]
    s["treasury"]["russia"] = 10
    s, events = play(s, {}, tag="western")
    [g] = [g for g in of_type(events, "default_garrison") if g["power"] == "russia"]
    assert (g["area"], g["strength"], g["built"]) == ("persia", 1, True)
    assert sum(1 for u in s["units"] if u["power"] == "russia" and u["strength"] == 10
               and u["at"] == "home") == 3


def test_rule_co_dominions_a_member_without_a_garrison_loses_control_not_to_influence() -> None:
    """"Should a Power not have an Army Unit in a Co-dominion at the conclusion of a Movement /
    Status Change Phase, his Control marker is removed during the Marker Adjustment Phase. It is
    not replaced by an Influence marker as is usual in such cases, because Influence markers
    cannot be present in Co-dominions. The player may, however, place an Interest in the Area
    if there are no Possession markers present." France and Belgium hold Kongo as
    Protectorates; France has no army there, none to spare and no money: an Interest is left."""
    s = _france_short_of_armies()
    s["units"] = [u for u in s["units"] if not (u["power"] == "france" and u["at"] == "home")]
    s["markers"]["kongo"] = [{"power": "belgium", "kind": "protectorate", "established": True},
                             {"power": "france", "kind": "protectorate", "established": True}]
    s["units"].append({"id": 901, "power": "belgium", "type": "army", "strength": 1, "at": "kongo"})
    s, events = play(s, {}, tag="codominion")
    assert [g for g in of_type(events, "garrison_rule") if g["power"] == "france"] == [
        {"area": "kongo", "power": "france", "codominion": True, "removed": False}]
    assert {m["power"]: m["kind"] for m in s["markers"]["kongo"]} == {"belgium": "protectorate",
                                                                     "france": "interest"}


def test_rule_garrisons_no_influence_marker_available_no_marker_replaces_control() -> None:
    """"If at the end of the Movement/Status Change Phase a Controlled Area does not meet this
    requirement, the Status marker is immediately removed and replaced with an Influence marker
    of the same nationality. If he has no Influence marker available he does not replace it
    with any marker." Italy has every Influence of its counter mix in use, no army and no
    money: its ungarrisoned Protectorate in Kenya is removed, nothing put in its place."""
    d = load()
    s = set_up()
    limit = d.rules["counter_mix"]["italy"]["markers"]["influence"]
    s["units"] = [u for u in s["units"] if not (u["power"] == "italy" and u["type"] == "army")]
    s["treasury"]["italy"] = 0
    areas = ["afghanistan", "persia", "siam", "burma", "morocco", "abyssinia", "arabia", "liberia",
             "mexico", "colombia"]
    held = sum(1 for ms in s["markers"].values() for m in ms
               if m["power"] == "italy" and m["kind"] == "influence")
    for a in areas[:limit - held]:
        s["markers"].setdefault(a, []).append({"power": "italy", "kind": "influence", "established": True})
    s["markers"]["kenya"] = [{"power": "italy", "kind": "protectorate", "established": True}]
    s, events = play(s, {}, tag="no-influence")
    assert [g["area"] for g in of_type(events, "garrison_rule") if g["power"] == "italy"] == ["kenya"]
    assert "kenya" not in s["markers"]
    told = render("report", "en", "britannica", game_only=True, view=module.view(s, "italy"),
                  events=[{"type": e.type, "data": e.data} for e in events
                          if e.type == "garrison_rule" and e.data["power"] == "italy"], power="italy")
    assert ("Italy has no garrison in Kenya and no Influence marker left: its Control marker is "
            "removed.") in " ".join(told.split()), told  # not "reduced": nothing replaces it
    assert sum(1 for ms in s["markers"].values() for m in ms
               if m["power"] == "italy" and m["kind"] == "influence") == limit
