"""Seed 003: Cape Zones, Coaling Rights volunteered by neutrals, Canals and Straits denied in
war, and separate peace (Negotiations and Ending a War)."""

from __future__ import annotations

from typing import Any

from britannica_helpers import of_type, orders_of, refused_on_arrival, set_up

from gm.games.britannica import board as b
from gm.games.britannica import module, war
from gm.games.britannica.data import load
from gm.games.britannica.war.rounds import separate_peace
from gm.games.britannica.war.sides import _new_war

d = load()


def _war(sides: list[list[str]]) -> tuple[dict[str, Any], dict[str, Any]]:
    s = set_up()
    w = _new_war(s, "war", sides, [])
    s["wars"] = [w]
    s["step"] = "war-second"
    return s, w


def test_rule_cape_zones_no_direct_move_from_south_atlantic_to_indian_ocean() -> None:
    s, w = _war([["britain"], ["russia"]])
    assert war.may_move(d, s, w, "britain", "fleet", "south_atlantic", "indian_ocean") == "not adjacent"
    assert war.may_move(d, s, w, "britain", "fleet", "south_atlantic", "cape_of_good_hope") is None
    assert war.may_move(d, s, w, "britain", "fleet", "cape_of_good_hope", "indian_ocean") is None
    assert war.may_move(d, s, w, "britain", "fleet", "south_atlantic", "cape_horn") is None


def test_rule_cape_zones_coaling_from_either_side_and_armies_need_a_merchant_beside() -> None:
    s, w = _war([["britain"], ["russia"]])
    assert war.coaling(d, s, w, "britain", "cape_of_good_hope") == (
        war.coaling(d, s, w, "britain", "south_atlantic") or war.coaling(d, s, w, "britain", "indian_ocean"))
    s["merchants"]["russia"] = []
    assert "merchant" in (war.may_move(d, s, w, "russia", "army", "south_atlantic", "cape_horn") or "")
    s["merchants"]["russia"] = ["south_pacific"]
    assert war.may_move(d, s, w, "russia", "army", "south_pacific", "cape_horn") is None


def test_rule_cape_zones_are_named_in_war_orders_only() -> None:
    s, w = _war([["britain"], ["russia"]])
    s["step"] = "war-first" if w["first"] == 0 else "war-second"  # Britain's phase of the round
    orders = orders_of(s, "britain", "move fleet 3 from South Atlantic to Cape of Good Hope",
                       judged=False)  # no fleet there: refused on arrival, but named
    assert orders[0].dest == "cape_of_good_hope"
    s["step"] = "movement"
    v = module.validate(s, "britain", orders)
    assert v[0].stored is False and "Cape" in v[0].reason


def test_rule_coaling_rights_volunteered_by_a_neutral_last_the_war() -> None:
    s, w = _war([["france"], ["italy"]])
    sea = next(x for x in d.areas["egypt"].seas if not war.coaling(d, s, w, "france", x)) \
        if any(not war.coaling(d, s, w, "france", x) for x in d.areas["egypt"].seas) else None
    s["markers"]["egypt"] = [{"power": "britain", "kind": "protectorate", "established": True}]
    acts = {"britain": orders_of(s, "britain", "volunteer coaling Egypt to France"),
            "italy": orders_of(s, "italy", "volunteer coaling Egypt to France", judged=False)}
    assert refused_on_arrival(s, "italy", "volunteer coaling Egypt to France") == [
        "only a neutral power volunteers coaling rights"]  # issue 17 class 4
    events = war.offers(d, s, acts)
    assert of_type(events, "coaling_volunteered") == [{"by": "britain", "area": "egypt", "to": "france"}]
    assert of_type(events, "order_not_carried_out")[0]["power"] == "italy"  # not neutral
    assert all(war.coaling(d, s, w, "france", x) for x in d.areas["egypt"].seas)
    assert sea is None or war.coaling(d, s, w, "france", sea)


def test_rule_canals_and_straits_a_neutral_denying_suez_gives_a_casus_belli() -> None:
    s, w = _war([["france"], ["italy"]])
    s["markers"]["egypt"] = [{"power": "britain", "kind": "protectorate", "established": True}]
    assert war.may_move(d, s, w, "france", "fleet", "mediterranean", "indian_ocean") in (None, "no coaling rights there")
    events = war.offers(d, s, {"britain": orders_of(s, "britain", "deny Suez to France")})
    assert of_type(events, "passage_denied")[0]["closed"] is True
    assert war.may_move(d, s, w, "france", "fleet", "mediterranean", "indian_ocean") == \
        "that strait or canal is denied to you"
    assert {"holder": "france", "against": "britain", "area": "egypt", "cause": "denial"} in s["casus_belli"]
    events = war.declare_mid_war(d, s, w, {"france": orders_of(s, "france", "declare war on Britain")})
    assert w["sides"] == [["france"], ["italy", "britain"]]
    assert of_type(events, "war_declared")[0]["by"] == "france"


def test_rule_canals_and_straits_a_co_dominion_closes_only_when_every_member_denies() -> None:
    s, w = _war([["france"], ["italy"]])
    s["markers"]["anatolia"] = [{"power": "britain", "kind": "possession", "established": True},
                                {"power": "russia", "kind": "possession", "established": True}]
    war.offers(d, s, {"britain": orders_of(s, "britain", "deny the Straits to Italy")})
    assert war.may_move(d, s, w, "italy", "fleet", "mediterranean", "black_sea") != \
        "that strait or canal is denied to you"
    war.offers(d, s, {"russia": orders_of(s, "russia", "deny Anatolia to Italy")})
    assert war.may_move(d, s, w, "italy", "fleet", "mediterranean", "black_sea") == \
        "that strait or canal is denied to you"


def test_rule_separate_peace_example_japan_leaves_britain_fights_on_eti_plus_5() -> None:
    s, w = _war([["britain", "japan"], ["france", "italy"]])
    eti = s["eti"]
    acts = {p: orders_of(s, p, "peace") for p in ("japan", "france", "italy")}
    events = separate_peace(d, s, w, acts)
    assert w["sides"] == [["britain"], ["france", "italy"]]
    assert of_type(events, "separate_peace")[0]["powers"] == ["japan"]
    assert s["eti"] == eti + 5
    assert all(u["at"] == "home" or b.controls(s, u["at"], "japan")
               for u in s["units"] if u["power"] == "japan")
