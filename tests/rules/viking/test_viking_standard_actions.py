"""The standard actions INVEST, JOURNEY, PLAY, ACTIVATE, PARLEY (Standard Actions A-E)."""

from __future__ import annotations

from viking_tables import (
    DATA,
    event,
    give,
    hold,
    send,
    ship,
    ships_at,
    table,
    tid,
    types,
)

from gm.games.viking import module


def test_invest_draw_discards_the_one_silfr_tile_and_slides_the_track() -> None:
    """A: draw the pile's top, discard the 1-silfr tile, slide down, refill the top."""
    state = table(pile=["Odin", "Thor", "Loki"])
    track = list(state["track"])
    out = send(state, {"red": "invest draw\npass"})
    s = out.state
    assert tid("Odin") in s["players"]["red"]["hand"]
    assert track[0] in s["discard"]
    assert s["track"][:6] == track[1:] and s["track"][6] == tid("Thor")


def test_invest_buy_pays_the_spot_cost_and_leaves_a_gap() -> None:
    state = table()
    fourth = DATA.tiles[state["track"][3]].name
    orders = module.validate(state, "red", [o for o in _orders(state, f"invest buy {fourth}")])
    assert orders[0].verdict.value == "accepted"
    s = send(state, {"red": f"invest buy {fourth}\ninvest buy {fourth}"})
    assert event(s, "bought")["cost"] == 5
    assert f"{fourth} is not on the saga track" in event(s, "refused")["why"]


def _orders(state, text):  # type: ignore[no-untyped-def]
    from viking_tables import orders

    return orders(state, "red", text)


def test_journey_steps_harbors_and_black_borders() -> None:
    """B: up to 3 steps; a harbor post only from its sea; black borders impassable; the
    first step off the jarlboard next to a home."""
    state = table()  # red is Sigrid, home Skara next to Gotaland
    ok = send(state, {"red": "journey from home to Gotaland, Baltic Sea, Paviken"})
    assert ships_at(ok.state, "paviken") == {"red": 1}
    assert event(ok, "journey")["path"] == ["Gotaland", "Baltic Sea", "Paviken"]
    for text, why in [
        ("journey from home to Svealand", "not next to one of your homes"),
        ("journey from home to Gotaland, Svealand", "not one step from Gotaland"),
        ("journey from home to Gotaland, Skagerrak, German Ocean, Normandy", "at most 3 steps"),
        ("journey from home to Gotaland, Skagerrak, Paviken", "not one step from Skagerrak"),
    ]:
        assert why in event(send(state, {"red": text}), "refused")["why"], text


def test_each_longship_journeys_once_a_turn() -> None:
    state = table()
    ship(state, "red", "gotaland")
    out = send(state, {"red": "journey from Gotaland to Baltic Sea\n"
                              "journey from Baltic Sea to Gotland"})
    assert "no unexhausted longship at Baltic Sea" in event(out, "refused")["why"]


def test_play_a_venture_needs_a_longship_alone_in_its_location() -> None:
    """C: the Requirement is a longship in a post of the location with no rival there."""
    state = table()
    give(state, "red", "Fur Traders")  # Ladoga, rus, activate: gain 2
    ship(state, "red", "lyubsha")
    ship(state, "blue", "lyubsha")
    out = send(state, {"red": "play Fur Traders"})
    assert "alone on a post in Ladoga" in event(out, "refused")["why"]
    ship(state, "red", "svir")
    out = send(state, {"red": "play Fur Traders at Svir\nactivate Svir"})
    s = out.state
    assert s["posts"]["svir"] == {"venture": tid("Fur Traders"), "owner": "red", "followers": 1}
    assert [e for e in types(out) if e in ("established", "activated")] == [
        "established", "activated"]
    assert s["players"]["red"]["silfr"] == 10 + 2 + 1  # activation, then 1 income (rus)


def test_play_an_advocate_and_an_immediate_event() -> None:
    state = table(pile=["Odin", "Thor"])
    give(state, "red", "Lawspeaker", "Saga Singers")  # North advocate; East event: draw 2
    ship(state, "red", "sigtuna")
    ship(state, "red", "lyubsha")
    out = send(state, {"red": "play Lawspeaker\nplay Saga Singers"})
    s = out.state
    assert s["players"]["red"]["advocates"] == [tid("Lawspeaker")]
    assert s["players"]["red"]["hand"] == [tid("Odin"), tid("Thor")]
    assert tid("Saga Singers") in s["removed"]


def test_parley_challenges_a_weaker_rival() -> None:
    """E and Challenge: more longships than the rival: return its first longship, move
    the others to the nearest region, establish paying the post's cost."""
    state = table()
    ship(state, "red", "birka", 3)
    ship(state, "blue", "birka", 2)
    hold(state, "birka", "blue")
    out = send(state, {"red": "parley Birka"})
    s = out.state
    assert s["posts"]["birka"]["owner"] == "red"
    assert ships_at(s, "birka") == {"red": 3} and ships_at(s, "svealand") == {"blue": 1}
    assert event(out, "established")["cost"] == 2
    even = table()
    ship(even, "red", "birka", 2)
    ship(even, "blue", "birka", 2)
    assert "you need more" in event(send(even, {"red": "parley Birka"}), "refused")["why"]


def test_key_trade_center_takes_two_followers_and_its_full_cost() -> None:
    state = table()
    ship(state, "red", "miklagard")
    out = send(state, {"red": "parley Miklagard"})
    assert event(out, "established") == {"power": "red", "post": "Miklagard",
                                         "follower": "theocracy", "count": 2, "cost": 6,
                                         "price": 6, "discounts": []}


def test_powerful_ally_hands_over_its_longships_and_a_home() -> None:
    """Posts 4: establishing Dublin gives its 3 longships, with home markers on them."""
    state = table()
    ship(state, "red", "dublin")
    out = send(state, {"red": "parley Dublin\njourney from German Ocean to Skagerrak\n"
                              "journey from home to German Ocean"})
    s = out.state
    assert event(out, "ally_ships") == {"power": "red", "fleet": "Dublin", "count": 3}
    assert ships_at(s, "german_ocean") == {"red": 1}
    assert "refused" not in types(out)


def test_no_more_than_four_actions() -> None:
    state = table(pile=["Odin", "Thor", "Loki", "Bragi", "Tyr", "Njord", "Frigg", "Heimdall",
                        "Freyr", "Baldr"])
    out = send(state, {"red": "invest draw\n" * 5})
    assert len(out.state["players"]["red"]["hand"]) == 4
    assert "no action left" in event(out, "refused")["why"]


def test_rule_e_challenge_counts_the_rivals_modifiers_too() -> None:
    """Challenge: "Add any potential modifications from persistent abilities of Gods,
    Advocates, or special abilities to your total Longships on this Post and compare
    to those of your Rival." The rival's Odin (+1 longship in PARLEY) counts for the
    rival: 3 against 2 + 1 is not more."""
    state = table()
    ship(state, "red", "birka", 3)
    ship(state, "blue", "birka", 2)
    hold(state, "birka", "blue")
    state["players"]["blue"]["gods"] = [tid("Odin")]
    why = event(send(state, {"red": "parley Birka"}), "refused")["why"]
    assert "blue counts 3 longships on Birka; you count 3" in why
    state["players"]["red"]["gods"] = [tid("Odin")]
    state["players"]["blue"]["gods"] = []
    out = send(state, {"red": "parley Birka"})
    assert out.state["posts"]["birka"]["owner"] == "red"


def test_rule_e_challenge_returns_followers_acting_as_longships() -> None:
    """Rosetta Stone, CHALLENGE: "RETURN all RIVAL Followers acting as Longships."
    Blue's Huscarl lets blue's follower on Birka act as a longship: red, alone by
    longships, must challenge it (1 against 2) and the follower returns before red
    establishes; with one longship red does not count more and is refused."""
    state = table()
    ship(state, "red", "birka", 2)
    hold(state, "birka", "blue")
    state["players"]["blue"]["advocates"] = [tid("Huscarl")]
    out = send(state, {"red": "parley Birka"})
    assert event(out, "challenged") == {"power": "red", "rival": "blue", "post": "Birka",
                                        "returned": 0, "moved": 0, "to": "Svealand",
                                        "followers": 1, "remaining": []}
    assert types(out).index("challenged") < types(out).index("established")
    assert out.state["posts"]["birka"]["owner"] == "red"
    one = table()
    ship(one, "red", "birka", 1)
    hold(one, "birka", "blue")
    one["players"]["blue"]["advocates"] = [tid("Huscarl")]
    assert "you need more" in event(send(one, {"red": "parley Birka"}), "refused")["why"]
