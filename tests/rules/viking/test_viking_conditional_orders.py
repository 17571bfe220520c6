"""Conditional orders in a Pax Viking turn (orders.md §4; gm/games/viking/conditions.py).

A turn is sequential: a condition is judged when its order is reached, on the
board of that moment, after the trade answers and Althing votes above it.
"""

from __future__ import annotations

from viking_tables import event, give, orders, send, ship, table, tid, types

from gm.games.base import Verdict
from gm.games.viking import module
from gm.orders.model import LineError, SourceLine


def test_orders_after_a_trade_see_its_answer() -> None:
    """Trade (Standard Actions B) is answered by mail in the middle of the turn: the
    orders after it may depend on the answer. (All information public, so red may
    name the tile blue holds.)"""
    state = table(open_information=True)
    ship(state, "blue", "holmgard")
    ship(state, "red", "ladoga")
    ship(state, "red", "birka")  # Odin's location is the North
    give(state, "blue", "Odin")
    text = ("journey from Ladoga to Holmgard\noffer blue: give 3 silfr for tile Odin\n"
            "play Odin if trade accepted\ninvest draw unless trade accepted")
    out = send(state, {"red": text})
    accepted = send(out.state, {"blue": "accept"})
    assert accepted.state["players"]["red"]["gods"] == [tid("Odin")]
    assert "drew" not in types(accepted)
    assert event(accepted, "skipped")["order"] == "invest draw unless trade accepted"
    skipped = next(e for e in accepted.events if e.type == "viking.skipped")
    assert skipped.visible_to == frozenset({"red"})  # an order is its writer's business
    refused = send(out.state, {"blue": "refuse"})
    assert "drew" in types(refused) and "played" not in types(refused)
    assert event(refused, "skipped")["order"] == "play Odin if trade accepted"


def test_orders_after_an_althing_see_its_result() -> None:
    """PLAY, Events, Althing: "If 50% or more agree, Resolve." Blue and green vote no."""
    state = table(pile=["Odin", "Thor"])
    give(state, "red", "Thingvellir Assembly")
    ship(state, "red", "birka")
    out = send(state, {"red": "play Thingvellir Assembly\ninvest draw if althing passed\n"
                              "pass unless althing passed\ninvest draw"})
    out = send(out.state, {"red": "vote yes", "blue": "vote no", "green": "vote no"})
    assert not event(out, "althing")["passed"]
    assert "drew" not in types(out) and event(out, "passed") == {"power": "red",
                                                                 "defaulted": False}


def test_funds_is_the_silfr_left_after_the_orders_above() -> None:
    state = table(silfr=5)
    track = [x for x in state["track"] if x]
    cheap = module.data.tiles[state["track"][0]].name
    assert track
    out = send(state, {"red": f"invest buy {cheap}\ninvest draw if funds >= 5\n"
                              "invest draw if funds >= 4"})
    assert [e.data["order"] for e in out.events if e.type == "viking.skipped"] == [
        "invest draw if funds >= 5"]
    assert types(out).count("drew") == 1


def test_longships_quantities_and_french_forms() -> None:
    state = table()
    ship(state, "red", "ladoga", 2)
    ship(state, "blue", "holmgard")
    [o] = orders(state, "red", "investir piocher si drakkars sur Ladoga >= 2 et "
                               "drakkars adverses sur Holmgard = 1")
    assert o.echo() == ("invest draw if longships at Ladoga >= 2 and rival longships at "
                        "Holmgard = 1")
    out = send(state, {"red": "investir piocher si drakkars sur Ladoga >= 2 et "
                              "drakkars adverses sur Holmgard = 1\n"
                              "invest draw if hand = 0 or actions left < 3"})
    assert types(out).count("drew") == 1 and "skipped" in types(out)


def test_validation_checks_conditions_when_carried_out_and_refuses_conditional_votes() -> None:
    state = table()
    [o] = orders(state, "red", "invest draw if round >= 1")
    [v] = module.validate(state, "red", [o])
    assert v.verdict is Verdict.TO_CHECK and v.reason == "condition checked when carried out"
    give(state, "red", "Odin")
    [keep] = orders(state, "red", "keep Odin if funds > 2")
    [v] = module.validate(state, "red", [keep])
    assert v.verdict is Verdict.REFUSED and "not conditional" in v.reason
    state["step"], state["althing"] = "althing", {"tile": tid("Thingvellir Assembly"),
                                                  "power": "red", "choices": []}
    [vote] = orders(state, "blue", "vote yes if funds > 2")
    [v] = module.validate(state, "blue", [vote])
    assert v.verdict is Verdict.REFUSED and "not conditional" in v.reason


def test_a_condition_on_something_viking_does_not_have_is_not_understood() -> None:
    state = table()
    result = module.parse_orders(state, "red", [SourceLine(1, "sweden if strength of X > 1")])
    assert isinstance(result.lines[0], LineError)


def test_pending_conditional_orders_survive_storage() -> None:
    """The orders after an offer wait in the state as JSON and come back the same."""
    state = table()
    ship(state, "blue", "holmgard")
    ship(state, "red", "ladoga")
    out = send(state, {"red": "journey from Ladoga to Holmgard\noffer blue: give 1 silfr for "
                              "nothing\nsweden unless trade accepted"})
    assert out.state["turn"]["pending"][0]["text"] == "sweden unless trade accepted"
    [o] = [module.order_from_json(x) for x in out.state["turn"]["pending"]]
    assert o.echo() == "sweden unless trade accepted"


def test_rule_conditional_orders_rival_longships_counts_the_rivals_only() -> None:
    """docs/viking.md, Conditional orders: ``rival longships at PLACE`` is "your rivals'
    longships there". Red has 2 longships in Holmgard and blue 1: the count is 1, not 3."""
    state = table(pile=["Odin", "Thor", "Loki"])
    ship(state, "red", "holmgard", 2)
    ship(state, "blue", "holmgard")
    out = send(state, {"red": "invest draw if rival longships at Holmgard = 1\n"
                              "invest draw if rival longships at Holmgard > 1"})
    assert types(out).count("drew") == 1
    assert event(out, "skipped")["order"] == "invest draw if rival longships at Holmgard > 1"


def test_rule_conditional_orders_trade_accepted_reads_the_last_trade() -> None:
    """docs/viking.md, Conditional orders: ``trade accepted`` is true when "the last trade of
    this turn (an offer or a counter-offer) was accepted and carried out". Blue accepts the
    first offer of red's journey, green refuses the second: ``if trade accepted`` after them
    is skipped."""
    state = table(pile=["Odin", "Thor", "Loki"])
    ship(state, "blue", "ladoga")
    ship(state, "green", "holmgard")
    ship(state, "red", "ladoga")
    out = send(state, {"red": "journey from Ladoga to Holmgard, Ilmen\n"
                              "offer blue: give 1 silfr for nothing\n"
                              "offer green: give 1 silfr for nothing\n"
                              "invest draw if trade accepted"})
    out = send(out.state, {"blue": "accept"})
    out = send(out.state, {"green": "refuse"})
    assert "drew" not in types(out)
    assert event(out, "skipped")["order"] == "invest draw if trade accepted"
