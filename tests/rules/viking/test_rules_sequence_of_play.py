"""Sequence of Play: the Action Phase and the Winter Solstice (income, refresh, hand limit):
the guarantees the mutation audit found without a test of their own (docs/robustness.md,
"Can the tests fail?").

Each test is named after its rule and quotes the comprehensive rule book; each fails if the
engine breaks that rule (checked by breaking it on purpose).
"""

from __future__ import annotations

from viking_tables import DATA, event, give, hold, send, table, tid, types, venture

from gm.games.viking import module


def test_rule_sequence_of_play_a_round_is_each_player_in_clockwise_order() -> None:
    """Sequence of Play: "Each round consists of an Influence Phase, an Action Phase, and a
    Winter Solstice for each player in clockwise order. ... Start Player goes first, then
    proceed clockwise." Red, blue and green each take a turn in round 1; then red opens
    round 2."""
    state = table(pile=["Odin", "Thor", "Loki"])
    seen = [module.phase(state).id]
    for p in ("red", "blue", "green"):
        state = send(state, {p: "pass"}).state
        seen.append(module.phase(state).id)
    assert seen == ["round-1-red", "round-1-blue", "round-1-green", "round-2-red"]
    assert state["round"] == 2


def test_rule_winter_solstice_a_income_is_per_follower_type() -> None:
    """Winter Solstice a. Income: "Take 1 Silfr per Follower type you have placed, up to the
    4 types of Jarldom, Theocracy, Sweden, and Rus. (Max 4)". Red has three followers of two
    types (two Rus ventures, Birka's Sweden follower): 2 silfr, not 3."""
    state = table()
    venture(state, "lyubsha", "Fur Traders", "red")
    venture(state, "svir", "Ladoga Fort", "red")
    hold(state, "birka", "red")
    out = send(state, {"red": "pass"})
    assert [e.data["amount"] for e in out.events
            if e.type == "viking.silfr" and e.data["why"] == "income"] == [2]
    assert out.state["players"]["red"]["silfr"] == 12


def test_rule_winter_solstice_b_refresh_moves_the_tiles_down() -> None:
    """Winter Solstice b. Refresh: "Refill the Saga Track by moving the existing Saga Tiles
    down and drawing new tiles to fill up to the 7 spaces shown on the gameboard with the
    newest tiles being placed on the most expensive positions." Red buys the tile on the
    3-silfr spot: at the solstice the four above it move one spot down and the pile's top
    tile takes the 12-silfr spot."""
    state = table(pile=["Odin", "Thor"])
    before = list(state["track"])
    out = send(state, {"red": f"invest buy {DATA.tiles[before[2]].name}"})
    assert out.state["track"] == before[:2] + before[3:] + [tid("Odin")]
    assert out.state["pile"] == [tid("Thor")]


def test_rule_winter_solstice_b_refresh_with_an_empty_pile_only_moves_down() -> None:
    """Winter Solstice b.: "If the Saga Pile is empty, simply move the existing Saga Tiles
    down on the Saga Track." A gap on the 2-silfr spot closes; the top spot stays empty."""
    state = table(pile=[])
    before = list(state["track"])
    state["track"][1] = None
    out = send(state, {"red": "pass"})
    assert out.state["track"] == [before[0], *before[2:], None]


def test_rule_winter_solstice_c_hand_limit_counts_its_modifications() -> None:
    """Winter Solstice c.: "Discard down to your Hand Limit of 4 (+/- any modifications)
    Saga Tiles." Red plays Edla, whose special ability raises the hand limit by 1: of six
    tiles red keeps five (the five held longest) and discards one."""
    state = table(jarls={"red": "edla"})
    give(state, "red", "Odin", "Thor", "Loki", "Bragi", "Tyr", "Njord")
    out = send(state, {"red": "pass"})
    assert out.state["players"]["red"]["hand"] == [tid(x) for x in
                                                   ("Odin", "Thor", "Loki", "Bragi", "Tyr")]
    assert event(out, "hand_limit") == {"power": "red", "count": 1, "limit": 5}


def test_rule_action_phase_an_order_not_carried_out_spends_no_action() -> None:
    """Jarlboard Anatomy F: "When you take an Action, place a previously Unexhausted Action
    Marker on that Action ... you can never perform more than 4 actions in a turn." An order
    that cannot be carried out is no action taken: after a refused ACTIVATE red still draws
    four times."""
    state = table(pile=["Odin", "Thor", "Loki", "Bragi", "Tyr", "Njord", "Frigg", "Heimdall"])
    out = send(state, {"red": "activate Birka\n" + "invest draw\n" * 4})
    assert [e.data["order"] for e in out.events if e.type == "viking.refused"] == [
        "activate Birka"]
    assert types(out).count("drew") == 4
    assert out.state["players"]["red"]["hand"] == [tid(x) for x in ("Odin", "Loki", "Tyr", "Frigg")]
