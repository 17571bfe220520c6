"""Key Concepts (Economy Limits, Component Limits, Duchies): the guarantees the mutation audit
found without a test of their own (docs/robustness.md, "Can the tests fail?").

Each test is named after its rule and quotes the comprehensive rule book; each fails if the
engine breaks that rule (checked by breaking it on purpose).
"""

from __future__ import annotations

from viking_tables import DATA, event, give, send, ship, ships_at, table, tid, types, venture

from gm.games.viking import module


def test_rule_economy_limits_invest_buy_needs_the_whole_cost() -> None:
    """Key Concepts, Economy Limits: "You can never go into debt ... Thus, when you choose an
    action yourself, such as INVEST, you must have enough to pay the cost or you cannot take
    that action." Red has 4 silfr: the tile on the 5-silfr spot is refused and nothing is
    paid; the one on the 3-silfr spot is bought."""
    state = table(silfr=4)
    third, fourth = (DATA.tiles[state["track"][i]].name for i in (2, 3))
    out = send(state, {"red": f"invest buy {fourth}\ninvest buy {third}"})
    assert event(out, "refused")["why"] == f"buying {fourth} costs 5 silfr and you have 4"
    assert [e.data["tile"] for e in out.events if e.type == "viking.bought"] == [third]
    assert out.state["players"]["red"]["hand"] == [tid(third)]
    assert out.state["players"]["red"]["silfr"] == 4 - 3


def test_rule_economy_limits_a_forced_payment_takes_what_there_is() -> None:
    """Key Concepts, Economy Limits: "If you are forced by game effects to pay Silfr and do
    not have enough, pay as much as you can." Storm Season (West, immediate: every rival
    pays 1 silfr): blue has none and pays nothing, green pays 1, and the event resolves."""
    state = table()
    give(state, "red", "Storm Season")
    ship(state, "red", "dublin")
    state["players"]["blue"]["silfr"] = 0
    out = send(state, {"red": "play Storm Season"})
    s = out.state
    assert "refused" not in types(out)
    assert (s["players"]["blue"]["silfr"], s["players"]["green"]["silfr"]) == (0, 9)
    assert tid("Storm Season") in s["removed"]


def test_rule_component_limits_no_seventh_follower_of_a_type() -> None:
    """Key Concepts, Component Limits: "Your Longships and Followers of your color are
    limited to 6 of each ... You can only place these if you have them in your supply."
    Red's six Rus followers are all out (five ventures and the Steward): red cannot PARLEY
    onto Bulgar, a Rus trade center; with the Steward gone, it can."""
    state = table()
    for post, tile in (("lyubsha", "Fur Traders"), ("svir", "Ladoga Fort"),
                       ("gorodische", "River Pilots"), ("konugard", "Dnieper Rapids"),
                       ("gnezdovo", "Portage Crew")):
        venture(state, post, tile, "red")
    state["players"]["red"]["advocates"] = [tid("Steward")]
    ship(state, "red", "bulgar")
    out = send(state, {"red": "parley Bulgar"})
    assert event(out, "refused")["why"] == "no rus follower left on your jarlboard (6 of each)"
    assert out.state["posts"]["bulgar"]["owner"] is None
    state["players"]["red"]["advocates"] = []
    out = send(state, {"red": "parley Bulgar"})
    assert out.state["posts"]["bulgar"]["owner"] == "red"


def test_rule_duchies_two_venture_posts_are_a_home_for_the_journey() -> None:
    """Key Concepts, Duchies: "If you have Established your Followers on 2 Venture Posts in a
    Region, it is called a Duchy. ... Your Duchy acts as an additional Home location for the
    JOURNEY action." With one venture post in Holmgard, red's longships cannot leave the
    jarlboard there; with a second one Holmgard is red's duchy and they can."""
    state = table()  # red is Sigrid, home Skara next to Gotaland
    venture(state, "gorodische", "Holmgard Bazaar", "red")
    out = send(state, {"red": "journey from home to Holmgard"})
    assert event(out, "refused")["why"] == ("Holmgard is not next to one of your homes: a longship "
                                            "leaving your jarlboard steps first into Gotaland")
    venture(state, "ilmen", "River Pilots", "red")
    assert [p["duchies"] for p in module.view(state, "red")["players"]
            if p["power"] == "red"] == [["Holmgard"]]
    out = send(state, {"red": "journey from home to Holmgard"})
    assert "refused" not in types(out)
    assert ships_at(out.state, "holmgard") == {"red": 1}
