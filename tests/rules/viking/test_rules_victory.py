"""Victory, the Tie Breaker and Bragi's Variant: the guarantees the mutation audit found without
a test of their own (docs/robustness.md, "Can the tests fail?").

Each test is named after its rule and quotes the comprehensive rule book; each fails if the
engine breaks that rule (checked by breaking it on purpose).
"""

from __future__ import annotations

from viking_tables import event, give, send, ship, table, tid, venture

from gm.games.viking import module


def test_rule_end_of_the_saga_not_while_the_track_holds_a_tile() -> None:
    """Victory, The End of the Saga Victory Check: "When the last Saga Tile from the Saga
    Track is taken, at such time that the Saga Pile and the Saga Track are empty, then the
    game ends." The pile is empty but Odin is still on the track: red's turn ends and the
    game goes on; blue takes Odin and the game ends."""
    state = table(pile=[])
    state["victory"]["cards"] = ["e1", "e2", "e3", "e4"]
    state["track"] = [tid("Odin")] + [None] * 6
    out = send(state, {"red": "pass"})
    assert not out.state["ended"]
    assert module.phase(out.state).id == "round-1-blue"
    out = send(out.state, {"blue": "invest buy Odin"})
    assert out.state["ended"] and out.state["end_reason"] == "end_of_saga"


def test_rule_tie_breaker_most_followers_before_most_silfr() -> None:
    """Victory, Tie Breaker: "The player with the most Established Followers wins. If a tie
    still exists, then the player with the most remaining Silfr amongst those who tied for
    most Established Followers wins." The saga ends with no card met: red has two followers
    and 9 silfr, blue one follower and 20 silfr: red wins, silfr does not count before
    followers."""
    state = table(pile=[])
    state["victory"]["cards"] = ["e1", "e2", "e3", "e4"]
    state["track"] = [tid("Odin")] + [None] * 6
    venture(state, "lyubsha", "Fur Traders", "red")
    venture(state, "svir", "Ladoga Fort", "red")
    venture(state, "gorodische", "River Pilots", "blue")
    state["players"]["blue"]["silfr"] = 20
    out = send(state, {"red": "invest buy Odin"})
    s = out.state
    assert s["ended"] and s["end_reason"] == "end_of_saga"
    assert event(out, "game_over")["followers"] == {"red": 2, "blue": 1, "green": 0}
    assert s["winners"] == ["red"]


def test_rule_tie_breaker_a_tie_that_remains_shares_the_victory() -> None:
    """Victory, Tie Breaker: "If a tie remains, then the players share the victory, the crown,
    and an unusual historical reference to a time when more than one monarch ruled
    together!" The saga ends with no card met; red and blue have one follower each and the
    same silfr (green has no follower): red and blue share the crown."""
    state = table(pile=[])
    state["victory"]["cards"] = ["e1", "e2", "e3", "e4"]
    state["track"] = [tid("Odin")] + [None] * 6
    venture(state, "lyubsha", "Fur Traders", "red")
    venture(state, "svir", "Ladoga Fort", "blue")
    state["players"]["red"]["silfr"] = 11  # 10 after buying Odin for 1
    out = send(state, {"red": "invest buy Odin"})
    s = out.state
    assert s["ended"] and s["end_reason"] == "end_of_saga"
    assert event(out, "game_over")["silfr"] == {"red": 10, "blue": 10, "green": 10}
    assert s["winners"] == ["red", "blue"]


def test_rule_bragi_a_face_down_card_cannot_be_met() -> None:
    """Set-up D, Bragi's Variant: "You can start the game with the Victory Condition cards
    facedown, revealing 1 card each time a player plays an Event, until all cards are
    revealed"; the game ends when a player achieves "one of the revealed Victory
    Conditions". Blue holds 15 silfr (Wealthy Jarl, s5, the last card, still face down):
    red's event reveals the first card only, and nobody wins."""
    state = table(bragi=True)
    state["victory"]["cards"] = ["s1", "s2", "s3", "s5"]
    state["victory"]["faceup"] = [False] * 4
    state["players"]["blue"]["silfr"] = 15
    give(state, "red", "Good Harvest")  # North, immediate: gain 2
    ship(state, "red", "sigtuna")
    out = send(state, {"red": "play Good Harvest"})
    s = out.state
    assert s["victory"]["faceup"] == [True, False, False, False]
    assert not s["ended"] and s["winners"] == []
