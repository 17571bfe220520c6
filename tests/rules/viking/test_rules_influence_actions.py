"""The Influence Phase and the Influence Actions F-I: the guarantees the mutation audit found
without a test of their own (docs/robustness.md, "Can the tests fail?").

Each test is named after its rule and quotes the comprehensive rule book; each fails if the
engine breaks that rule (checked by breaking it on purpose).
"""

from __future__ import annotations

from viking_tables import (
    event,
    hold,
    module,
    orders,
    send,
    ship,
    ships_at,
    table,
    tid,
    types,
    venture,
)


def test_rule_influence_phase_followers_on_the_jarlboard_count() -> None:
    """Sequence of Play, INFLUENCE PHASE: "determine if you alone have more Established
    followers for any of the 4 Follower types ... than your Rivals by comparing the highest
    number revealed in each player's Follower supply on their Jarlboard." Blue's Steward
    (advocate) and Freyja (god) each hold a Rus follower; red has one Rus venture: at blue's
    influence phase blue leads, two to one, and takes the Rus marker."""
    state = table(2)
    venture(state, "lyubsha", "Fur Traders", "red")
    state["players"]["blue"]["advocates"] = [tid("Steward")]
    state["players"]["blue"]["gods"] = [tid("Freyja")]
    out = send(state, {"red": "pass"})  # red's turn ends; blue's influence phase
    assert out.state["influence"]["rus"] == "blue"
    assert event(out, "influence_taken") == {"power": "blue", "follower": "rus",
                                             "previous": None}


def test_rule_f_jarldom_removes_one_rival_longship_only() -> None:
    """Influence Actions F, Jarldom Action: "Move 1 of your Longships 1 step to a Post
    (Longship must end this movement on a Post) where you may remove 1 Rival's Longship (if
    there are any). If you are now the only player who has a Longship(s) on this Post,
    Establish". Blue and green both have a longship on Lyubsha: one is removed (blue's,
    the first in turn order), green's stays, so red is not alone and establishes nothing."""
    state = table()
    state["influence"]["jarldom"] = "red"
    venture(state, "lyubsha", "Fur Traders", "blue")
    ship(state, "blue", "lyubsha")
    ship(state, "green", "lyubsha")
    ship(state, "red", "ladoga")
    out = send(state, {"red": "jarldom from Ladoga to Lyubsha"})
    s = out.state
    assert [e.data["rival"] for e in out.events if e.type == "viking.longship_removed"] == [
        "blue"]
    assert ships_at(s, "lyubsha") == {"red": 1, "green": 1}
    assert "established" not in types(out) and s["posts"]["lyubsha"]["owner"] == "blue"


def test_rule_f_jarldom_moves_one_step_only() -> None:
    """Influence Actions F, Jarldom Action: "Move 1 of your Longships 1 step to a Post".
    Birka is three steps from Gotaland (Gotaland, Baltic Sea, Svealand, Birka: the border
    between Gotaland and Svealand is black): refused, the longship stays, no action spent;
    from Svealand it is one step."""
    state = table()
    state["influence"]["jarldom"] = "red"
    ship(state, "red", "gotaland")
    out = send(state, {"red": "jarldom from Gotaland to Birka"})
    assert event(out, "refused")["why"] == "Birka is not one step from Gotaland"
    assert ships_at(out.state, "gotaland") == {"red": 1} and ships_at(out.state, "birka") == {}
    state["ships"][0]["at"] = "svealand"
    out = send(state, {"red": "jarldom from Svealand to Birka"})
    assert ships_at(out.state, "birka") == {"red": 1}
    assert out.state["posts"]["birka"]["owner"] == "red"


def test_rule_h_theocracy_only_on_a_theocracy_post() -> None:
    """Influence Actions H, Theocracy Action: "Establish a Theocracy Venture or Powerful Ally
    Post anywhere on the map ... Whether a Venture or Powerful Ally, this Post must have the
    Follower type of Theocracy for this action." Jorvik is a Sweden ally: refused; Iceland,
    a Theocracy ally, is established from afar."""
    state = table()
    state["influence"]["theocracy"] = "red"
    out = send(state, {"red": "theocracy Jorvik"})
    assert event(out, "refused")["why"] == "Jorvik is not a theocracy venture or powerful ally post"
    assert out.state["posts"]["jorvik"]["owner"] is None
    out = send(state, {"red": "theocracy Iceland"})
    assert out.state["posts"]["iceland"]["owner"] == "red"


def test_rule_i_rus_needs_your_follower_for_the_advocate() -> None:
    """Influence Actions I, Rus Action: "Place this Advocate on your own Jarlboard with your
    applicable Follower, returning your Rival's Follower to their supply"; Key Concepts,
    Component Limits: "You can only place these if you have them in your supply." Red's six
    Rus followers are out: it cannot take blue's Steward (a Rus advocate), which stays with
    blue."""
    state = table()
    state["influence"]["rus"] = "red"
    state["players"]["blue"]["advocates"] = [tid("Steward")]  # East, rus
    for post, tile in (("lyubsha", "Fur Traders"), ("svir", "Ladoga Fort"),
                       ("gorodische", "River Pilots"), ("konugard", "Dnieper Rapids"),
                       ("gnezdovo", "Portage Crew")):
        venture(state, post, tile, "red")
    hold(state, "bulgar", "red")
    ship(state, "red", "itil")
    out = send(state, {"red": "rus take Steward"})
    assert event(out, "refused")["why"] == "no rus follower left on your jarlboard"
    assert out.state["players"]["blue"]["advocates"] == [tid("Steward")]
    assert out.state["players"]["red"]["advocates"] == []


def test_rule_g_sweden_draw_a_saga_tile_from_the_saga_pile_refused_when_it_is_empty() -> None:
    """Influence Actions G, Sweden Action: "Draw a Saga Tile from the Saga Pile into your
    hand." (DRAW: "Draw a tile from the top of the SAGA PILE and place it in your hand.")
    With the pile empty there is nothing to draw: the order is refused when the mail
    arrives and when carried out, with the reason, and the action is not spent: red's four
    invests from the saga track after it are all carried out."""
    state = table(pile=[], silfr=30)
    state["influence"]["sweden"] = "red"
    text = "sweden\ninvest 1\ninvest 2\ninvest 3\ninvest 4"
    why = "the saga pile is empty: the sweden action draws from it"
    checked = module.validate(state, "red", orders(state, "red", text))
    assert [v.reason for v in checked] == [why, "", "", "", ""], checked
    out = send(state, {"red": text})
    assert event(out, "refused")["why"] == why
    assert [e for e in types(out) if e == "refused"] == ["refused"]
    assert [e for e in types(out) if e == "bought"] == ["bought"] * 4
    assert out.state["influence"]["sweden"] == "red"
