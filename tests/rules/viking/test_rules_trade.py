"""Trade during a JOURNEY (Standard Actions B, Trade) held to the Key Concepts' limits and to the
privacy of hands: the guarantees the mutation audit found without a test of their own
(docs/robustness.md, "Can the tests fail?").

Each test is named after its rule and quotes the comprehensive rule book; each fails if the
engine breaks that rule (checked by breaking it on purpose).
"""

from __future__ import annotations

from viking_tables import event, give, send, ship, ships_at, table, tid, types

from gm.dice import Dice
from gm.games.viking import module


def test_rule_b_trade_an_offer_left_unanswered_is_refused() -> None:
    """Standard Actions B, Trade: a trade is made when the rival agrees (the Trade Examples:
    "Edla agrees", "Sigrid agrees"); docs/viking.md, Phases and defaults: a trade phase
    "when nothing is sent: refused". The trade phase closes with no answer from blue at
    all: nothing changes hands and red's turn goes on."""
    state = table(pile=["Odin", "Thor"])
    ship(state, "blue", "ilmen")
    ship(state, "red", "ladoga")
    out = send(state, {"red": "journey from Ladoga to Holmgard\n"
                              "offer blue: give 2 silfr for nothing\ninvest draw"})
    assert module.phase(out.state).owing == ("blue",)
    out = module.adjudicate(out.state, {}, Dice.scripted([]))
    assert "trade_refused" in types(out) and "trade_done" not in types(out)
    assert "drew" in types(out)
    assert (out.state["players"]["red"]["silfr"], out.state["players"]["blue"]["silfr"]) == (10, 10)


def test_rule_economy_limits_a_trade_gives_only_the_silfr_one_has() -> None:
    """Key Concepts, Economy Limits: "You can never go into debt, except through promises
    made in Trade during the JOURNEY action." Red has 10 silfr: an offer of 11 is refused
    when made. Blue, holding 2, counters with 3 silfr it does not have: red accepts, the
    trade fails, and nothing changes hands."""
    state = table()
    ship(state, "blue", "ilmen")
    ship(state, "red", "ladoga")
    out = send(state, {"red": "journey from Ladoga to Holmgard\n"
                              "offer blue: give 11 silfr for nothing"})
    assert event(out, "refused")["why"] == "red has 10 silfr, not 11"
    assert module.phase(out.state).kind == "turn"
    state["players"]["blue"]["silfr"] = 2
    out = send(state, {"red": "journey from Ladoga to Holmgard\n"
                              "offer blue: give 1 silfr for nothing"})
    out = send(out.state, {"blue": "counter: give 3 silfr for 1 silfr"})
    out = send(out.state, {"red": "accept"})
    assert event(out, "trade_failed")["why"] == "blue has 2 silfr, not 3"
    s = out.state
    assert (s["players"]["red"]["silfr"], s["players"]["blue"]["silfr"]) == (10, 2)


def test_rule_component_limits_a_longship_is_received_only_from_the_supply() -> None:
    """Key Concepts, Component Limits: "Your Longships ... are limited to 6 ... You can only
    place these if you have them in your supply." Blue has all six longships on the map:
    red's longship at Ilmen offered to blue cannot change hands; the accepted trade fails."""
    state = table()
    ship(state, "blue", "ilmen", 6)
    ship(state, "red", "ladoga")
    ship(state, "red", "ilmen")
    out = send(state, {"red": "journey from Ladoga to Holmgard\n"
                              "offer blue: give longship at Ilmen for 1 silfr"})
    out = send(out.state, {"blue": "accept"})
    assert event(out, "trade_failed")["why"] == "blue has not enough longships on the jarlboard"
    s = out.state
    assert ships_at(s, "ilmen") == {"red": 1, "blue": 6}
    assert s["players"]["blue"]["silfr"] == 10


def test_rule_public_and_private_information_a_tile_traded_is_named_to_the_parties_only() -> None:
    """Key Concepts, Public and Private Information: "All information in the game is public
    except Saga Tiles in your hand." Red trades Odin to blue for 2 silfr: everyone learns
    that a saga tile changed hands, only red and blue learn that it was Odin."""
    state = table()
    give(state, "red", "Odin")
    ship(state, "blue", "ilmen")
    ship(state, "red", "ladoga")
    out = send(state, {"red": "journey from Ladoga to Holmgard\n"
                              "offer blue: give tile Odin for 2 silfr"})
    out = send(out.state, {"blue": "accept"})
    done = next(e for e in out.events if e.type == "viking.trade_done")
    assert done.visible_to is None and done.data["give"] == ["a saga tile"]
    named = next(e for e in out.events if e.type == "viking.trade_tiles")
    assert named.visible_to == frozenset({"red", "blue"})
    assert named.data["give"] == ["tile Odin"]
    assert out.state["players"]["blue"]["hand"] == [tid("Odin")]
