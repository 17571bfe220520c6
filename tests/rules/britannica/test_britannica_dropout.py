"""Rules to cover for drop-outs (seed, rules 1-11): what the GM does for an abandoned power."""

from __future__ import annotations

from typing import Any

from britannica_helpers import dice, of_type, orders_of, set_up, tunis_dispute

from gm.games.britannica import dropout, module
from gm.games.britannica import orders as o
from gm.games.britannica.data import load
from gm.games.britannica.war.abandoned import abandoned_moves

d = load()


def _silent(state: dict[str, Any], seat: str, others: dict[str, str] | None = None,
            tag: str = "drop") -> tuple[dict[str, Any], list[Any]]:
    """Adjudicate with ``seat`` sending nothing (the service's default) and the rest as given."""
    orders: dict[str, list[Any]] = {seat: module.default_orders(state, seat)}
    for s, text in (others or {}).items():
        orders[s] = orders_of(state, s, text)
    out = module.adjudicate(state, orders, dice(tag))
    return out.state, list(out.events)


def _abandoned(state: dict[str, Any], seat: str) -> dict[str, Any]:
    state["missed"] = {seat: state["dropout_after"]}
    state["abandoned"] = sorted(p for p in d.great_powers if d.seat_of(p) == seat)
    return state


def test_rule_dropout_threshold_is_a_game_setting_and_orders_again_end_it() -> None:
    s = set_up({"dropout_after": 2})
    assert s["dropout_after"] == 2 and set_up()["dropout_after"] == 3
    assert module.default_orders(s, "france") == [o.NoOrders("france")]
    s, _ = _silent(s, "france", {"italy": "buy army 1"})
    assert s["missed"] == {"france": 1, "italy": 0} and s["abandoned"] == []
    s["step"] = "movement"
    s, _ = _silent(s, "france")
    assert s["abandoned"] == ["france"]
    s["step"] = "movement"
    out = module.adjudicate(s, {"france": orders_of(s, "france", "buy army 1")}, dice("back"))
    assert out.state["missed"]["france"] == 0 and out.state["abandoned"] == []


def test_rule_dropout_1_no_declaration_that_causes_the_great_war() -> None:
    s = set_up()
    s["wars"] = [{"sides": [["britain", "germany"], ["russia"]]}]
    assert not dropout.may_declare(d, s, "france", "russia", s["wars"])
    assert dropout.may_declare(d, s, "france", "spain", [])


def test_rule_dropout_2_no_declaration_on_a_treaty_partner() -> None:
    s = set_up()
    s["treaties"] = [{"name": "Entente", "parties": ["france", "italy"], "ratified": True}]
    assert not dropout.may_declare(d, s, "france", "italy", [])


def test_rule_dropout_4_other_disputes_the_power_downgrades_its_marker() -> None:
    s = _abandoned(tunis_dispute(), "france")
    assert dropout.negotiation_orders(d, s, "france") == [o.Downgrade("france", "tunis", "interest")]
    s, _ = _silent(s, "france")
    assert [m["kind"] for m in s["markers"]["tunis"] if m["power"] == "france"] == ["interest"]


def test_rule_dropout_4_casus_belli_on_a_minor_power_buys_to_3_2_then_declares() -> None:
    s = _abandoned(set_up(), "france")
    s["step"] = "war"
    s["treasury"]["france"] = 60
    s["casus_belli"] = [{"holder": "france", "against": "netherlands", "area": "dutch_east_indies",
                         "cause": "control_over_influence"}]
    s["markers"]["dutch_east_indies"].append({"power": "france", "kind": "influence", "established": True})
    s["merchants"]["france"] = sorted(set(s["merchants"]["france"]) | {"indian_ocean", "south_china_sea"})
    orders = dropout.war_orders(d, s, "france")
    assert orders == [o.Declare("france", "netherlands")]
    s, events = _silent(s, "france", tag="minor-war")
    assert of_type(events, "war_declared")[0]["by"] == "france"
    dutch = sum(u["strength"] for u in s["units"] if u["power"] == "netherlands" and u["type"] == "army")
    french = sum(u["strength"] for u in s["units"] if u["power"] == "france" and u["type"] == "army")
    assert 2 * french >= 3 * dutch


def test_rule_dropout_5_new_merchant_goes_where_the_highest_value_is_reached() -> None:
    s = _abandoned(set_up(), "france")
    s["merchants_due"]["france"] = 1
    sea = dropout.merchant_sea(d, s, "france", s["merchants"]["france"])
    s, _ = _silent(s, "france")
    assert sea in s["merchants"]["france"] and s["merchants_due"]["france"] == 0


def test_rule_dropout_6_indian_army_first_to_an_ungarrisoned_area() -> None:
    s = set_up()
    s["markers"]["punjab"] = [{"power": "britain", "kind": "protectorate", "established": True}]
    s["units"] = [u for u in s["units"] if not (u["power"] == "britain" and u["at"] == "punjab")]
    assert dropout.indian_army_site(d, s) in [a for a in d.charts["special_garrisons"]["india"]
                                              if dropout.b.controls(s, a, "britain")
                                              and not dropout._armies(s, "britain", a)]


def test_rule_dropout_7b_ungarrisoned_area_gets_a_bought_army_1_not_a_3_or_10() -> None:
    s = _abandoned(set_up(), "france")
    s["markers"]["madagascar"] = [{"power": "france", "kind": "protectorate", "established": True}]
    s, events = _silent(s, "france")
    at = [u for u in s["units"] if u["power"] == "france" and u["at"] == "madagascar"]
    assert [u["strength"] for u in at] == [1]
    assert [u["strength"] for u in s["units"] if u["power"] == "france" and u["at"] == "home"
            and u["type"] == "army"] == [10, 3]


def test_rule_dropout_7a_no_protectorate_money_no_suppression_in_an_influence_area() -> None:
    s = _abandoned(set_up(), "france")
    s["unrest"] = ["madagascar"]
    s["treasury"]["france"] = 5
    assert dropout.movement_orders(d, s, "france") == []
    s["treasury"]["france"] = 40
    got = dropout.movement_orders(d, s, "france")
    assert got[0] == o.Upgrade("france", "madagascar", "protectorate")
    sent = sum(x.strength for x in got if isinstance(x, o.Move) and x.dest == "madagascar")
    assert 2 * sent >= 3 * d.areas["madagascar"].strength


def test_rule_dropout_8_excess_garrisons_return_home() -> None:
    s = _abandoned(set_up(), "france")
    s["units"].append({"id": 901, "power": "france", "type": "army", "strength": 1, "at": "algiers"})
    assert o.Move("france", "army", 1, "algiers", "home") in dropout.movement_orders(d, s, "france")


def test_rule_dropout_10_in_a_chinese_rebellion_units_march_on_china_not_formosa() -> None:
    s = set_up()
    war = {"id": 1, "kind": "china", "sides": [["china"], ["france"]], "conquered": {},
           "abandoned": ["france"], "defeated": []}
    s["units"].append({"id": 903, "power": "france", "type": "army", "strength": 3, "at": "cochin_china"})
    s["units"].append({"id": 904, "power": "france", "type": "army", "strength": 1, "at": "south_china_sea"})
    s["merchants"]["france"] = [*s["merchants"]["france"], "south_china_sea"]
    s["markers"]["formosa"] = [{"power": "france", "kind": "possession", "established": True}]
    s["markers"]["tonkin"] = [{"power": "france", "kind": "influence", "established": True}]
    events = abandoned_moves(d, s, war, 1)
    moved = {e.data["from"]: e.data["to"] for e in events if e.data["power"] == "france"}
    assert "cochin_china" not in moved  # already on Chinese territory; its garrison stays (9c)
    # from the sea: the nearest Chinese area with the highest status, never Formosa
    assert moved["south_china_sea"] == "cochin_china"


def test_rule_dropout_8_excess_garrisons_in_chinese_areas_remain() -> None:
    """"8. Excess garrisons return to home country. Exception: Excess garrisons in Chinese
    Empire or Vassal areas remain due to the threat of Chinese rebellion." France's second army
    in Algiers goes home; its second army in Cochin China (a Chinese Vassal area) stays."""
    s = _abandoned(set_up(), "france")
    assert d.areas["cochin_china"].type == "chinese_vassal"
    s["units"].append({"id": 901, "power": "france", "type": "army", "strength": 1, "at": "algiers"})
    s["units"].append({"id": 902, "power": "france", "type": "army", "strength": 1, "at": "cochin_china"})
    got = dropout.movement_orders(d, s, "france")
    assert [x for x in got if isinstance(x, o.Move) and x.dest == "home"] == [
        o.Move("france", "army", 1, "algiers", "home")]


def test_rule_dropout_7a_suppression_buys_armies_for_a_3_2_majority() -> None:
    """"a. When a power attempts to suppress unrest in an area it moves units from its home
    country to obtain at least a 3:2 majority over the indigenous combat strength. If it has
    insufficient units, it will purchase them." France has no army at home; Madagascar
    (strength 3) is in unrest under its Influence: a Protectorate and armies of at least 5
    (3:2 over 3 is 4.5) are bought and sent."""
    s = _abandoned(set_up(), "france")
    s["units"] = [u for u in s["units"] if not (u["power"] == "france" and u["at"] == "home")]
    s["unrest"] = ["madagascar"]
    s["treasury"]["france"] = 40
    got = dropout.movement_orders(d, s, "france")
    assert got[0] == o.Upgrade("france", "madagascar", "protectorate")
    bought = sum(x.strength for x in got if isinstance(x, o.Buy) and x.unit == "army")
    sent = sum(x.strength for x in got if isinstance(x, o.Move) and x.dest == "madagascar")
    assert d.areas["madagascar"].strength == 3
    assert bought == sent and 2 * sent >= 3 * 3
