"""The influence actions (Influence Actions F-I), with the Sweden action examples 1-5."""

from __future__ import annotations

from viking_tables import event, hold, send, ship, ships_at, table, tid, types, venture


def sweden_table(**kw):  # type: ignore[no-untyped-def]
    """Red holds the Sweden influence marker; the saga pile's top tile is the venture
    River Pilots, located in Holmgard (posts Gorodische and Ilmen)."""
    state = table(pile=["River Pilots", "Good Harvest"], **kw)
    state["influence"]["sweden"] = "red"
    return state


def test_sweden_action_example_1_not_alone() -> None:
    """1. "You Draw and pull a Venture tile, but there are already two Venture Posts with
    Longships on them located in its listed location. You put a Longship on one of the
    Posts, but you cannot PLAY the Venture because you are not Alone."""
    state = sweden_table()
    venture(state, "gorodische", "Holmgard Bazaar", "blue")
    venture(state, "ilmen", "Wax Market", "green")
    ship(state, "blue", "gorodische")
    ship(state, "green", "ilmen")
    out = send(state, {"red": "sweden"})
    s = out.state
    assert tid("River Pilots") in s["players"]["red"]["hand"]
    assert ships_at(s, "gorodische").get("red", 0) + ships_at(s, "ilmen").get("red", 0) == 1
    assert s["posts"]["gorodische"]["owner"] == "blue" and s["posts"]["ilmen"]["owner"] == "green"
    assert "rival longships" in event(out, "no_effect")["why"]


def test_sweden_action_example_2_duchy() -> None:
    """2. "You Draw a Venture Tile, but you already have a Duchy in the location listed
    on the tile. You place a Longship on one of your Posts. You are Alone so you could
    Replace either of the Venture Posts of your Duchy."""
    state = sweden_table()
    venture(state, "gorodische", "Holmgard Bazaar", "red")
    venture(state, "ilmen", "Wax Market", "red")
    out = send(state, {"red": "sweden"})
    s = out.state
    ventures = {s["posts"][p]["venture"] for p in ("gorodische", "ilmen")}
    assert tid("River Pilots") in ventures and len(ventures & {tid("Holmgard Bazaar"),
                                                              tid("Wax Market")}) == 1
    assert s["posts"]["gorodische"]["owner"] == s["posts"]["ilmen"]["owner"] == "red"
    assert "venture_replaced" in types(out)
    assert tid("River Pilots") not in s["players"]["red"]["hand"]


def test_sweden_action_example_3_replace_a_rivals_venture() -> None:
    """3. "the location listed is full, but one of your Rival's Venture Posts has no
    Longships present. You put a Longship there and PLAY the Venture Tile ..., replacing
    your Rival's Venture and Follower."""
    state = sweden_table()
    venture(state, "gorodische", "Holmgard Bazaar", "blue")
    venture(state, "ilmen", "Wax Market", "blue")
    ship(state, "blue", "gorodische")
    out = send(state, {"red": "sweden"})
    s = out.state
    assert s["posts"]["ilmen"] == {"venture": tid("River Pilots"), "owner": "red",
                                   "followers": 1}
    assert ships_at(s, "ilmen") == {"red": 1}
    assert tid("Wax Market") in s["discard"]
    assert event(out, "follower_returned")["power"] == "blue"


def test_sweden_action_example_4_empty_post() -> None:
    """4. "There is an empty Post in the location listed on the Venture Tile. You put a
    Longship on the Post and PLAY the Venture, having met the Requirement."""
    state = sweden_table()
    venture(state, "gorodische", "Holmgard Bazaar", "blue")
    out = send(state, {"red": "sweden"})
    assert out.state["posts"]["ilmen"]["venture"] == tid("River Pilots")
    assert out.state["posts"]["ilmen"]["owner"] == "red"


def test_sweden_action_example_5_no_longship_to_place() -> None:
    """5. "You do not have any Longships in the location listed on the Venture Tile. You
    do not have any Longships on your Jarlboard so you cannot Place a Longship on the
    Post. You cannot PLAY the Venture Tile because you have not met the Requirement."""
    state = sweden_table()
    ship(state, "red", "baltic_sea", 6)
    out = send(state, {"red": "sweden"})
    s = out.state
    assert tid("River Pilots") in s["players"]["red"]["hand"]
    assert all(s["posts"][p]["venture"] is None for p in ("gorodische", "ilmen"))
    assert "no longship on the jarlboard" in event(out, "no_effect")["why"]


def test_influence_action_needs_the_marker_and_is_taken_once() -> None:
    """Influence Actions: "each Influence Action may only be performed once on your turn"
    and only with its marker."""
    state = sweden_table()
    out = send(state, {"red": "sweden\nsweden\ntheocracy Normandy"})
    refused = [e.data["why"] for e in out.events if e.type == "viking.refused"]
    assert refused == ["the sweden action is taken once a turn",
                       "you do not hold the theocracy influence marker"]


def test_jarldom_action_removes_a_rival_and_establishes() -> None:
    """F: move 1 step to a post, remove 1 rival longship; alone now: establish, the
    rival follower returns."""
    state = table()
    state["influence"]["jarldom"] = "red"
    venture(state, "lyubsha", "Fur Traders", "blue")
    ship(state, "blue", "lyubsha")
    ship(state, "red", "ladoga")
    out = send(state, {"red": "jarldom from Ladoga to Lyubsha"})
    s = out.state
    assert ships_at(s, "lyubsha") == {"red": 1}
    assert s["posts"]["lyubsha"]["owner"] == "red"
    assert event(out, "longship_removed")["rival"] == "blue"


def test_theocracy_action_anywhere_pays_the_cost() -> None:
    """H: establish a theocracy venture or powerful ally anywhere, paying its cost."""
    state = table()
    state["influence"]["theocracy"] = "red"
    hold(state, "normandy", "blue")
    out = send(state, {"red": "theocracy Normandy"})
    s = out.state
    assert s["posts"]["normandy"]["owner"] == "red"
    assert s["players"]["red"]["silfr"] == 10 - 3 + 3 + 1  # cost, Normandy's gain, income
    bad = send(table(), {"red": "theocracy Birka"})
    assert "you do not hold the theocracy" in event(bad, "refused")["why"]


def test_rus_action_takes_a_rivals_advocate() -> None:
    """I: take a rival's advocate with a longship alone on a post in its location."""
    state = table()
    state["influence"]["rus"] = "red"
    state["players"]["blue"]["advocates"] = [tid("Steward")]  # located in the East
    out = send(state, {"red": "rus take Steward"})
    assert "you need a longship alone" in event(out, "refused")["why"]
    ship(state, "red", "itil")
    out = send(state, {"red": "rus take Steward"})
    assert out.state["players"]["red"]["advocates"] == [tid("Steward")]
    assert out.state["players"]["blue"]["advocates"] == []


def test_influence_phase_takes_and_returns_markers() -> None:
    """INFLUENCE PHASE: more established followers of a type than every rival takes the
    marker; ties are not friendly; a marker no longer deserved goes back."""
    state = table()
    venture(state, "lyubsha", "Fur Traders", "blue")  # rus
    venture(state, "svir", "Ladoga Fort", "green")  # rus: a tie
    venture(state, "sigtuna", "Sigtuna Mint", "blue")  # sweden
    state["influence"]["jarldom"] = "blue"
    out = send(state, {"red": "pass"})  # red's turn ends; blue's influence phase
    s = out.state
    assert s["influence"] == {"jarldom": None, "sweden": "blue", "theocracy": None, "rus": None}
    assert sorted(e for e in types(out) if e.startswith("influence")) == [
        "influence_returned", "influence_taken"]
