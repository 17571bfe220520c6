"""PLAY, Events, Althing (and the Rosetta Stone's ALTHING): the guarantees the mutation audit
found without a test of their own (docs/robustness.md, "Can the tests fail?").

"Althing - In turn order, vote whether the Event Resolves. If 50% or more agree, Resolve.
Then Discard the tile out of the game (not to the discard pile) and check Victory Conditions
regardless." Each test fails if the engine breaks that rule (checked by breaking it on
purpose).
"""

from __future__ import annotations

from typing import Any

from viking_tables import event, give, send, ship, table, tid

from gm.games.viking import module


def _althing(n: int = 3, **kw: Any) -> dict[str, Any]:
    """Red has played Thingvellir Assembly (North; althing: every player gains 2 silfr):
    the Althing waits for the votes."""
    state = table(n, **kw)
    give(state, "red", "Thingvellir Assembly")
    ship(state, "red", "sigtuna")
    state = send(state, {"red": "play Thingvellir Assembly"}).state
    assert module.phase(state).kind == "althing"
    return state


def test_rule_althing_half_the_votes_resolve_the_event() -> None:
    """"If 50% or more agree, Resolve." Two players: red votes yes, blue no; one vote of two
    is 50%: the event resolves and both gain 2 silfr."""
    out = send(_althing(2), {"red": "vote yes", "blue": "vote no"})
    assert event(out, "althing")["passed"] is True
    assert (event(out, "althing")["yes"], event(out, "althing")["total"]) == (1, 2)
    assert [out.state["players"][p]["silfr"] for p in ("red", "blue")] == [12, 12]


def test_rule_althing_an_extra_vote_ability_counts() -> None:
    """Persistent abilities: "Persistent abilities of a God, Advocate, or Trade Center on
    which you have a Follower may impact your actions." Red's Lawspeaker (persistent,
    ALTHING: +1 vote) makes red's yes two votes of four: 50%, the event resolves; without
    it one vote of three does not."""
    state = table()
    state["players"]["red"]["advocates"] = [tid("Lawspeaker")]
    give(state, "red", "Thingvellir Assembly")
    ship(state, "red", "sigtuna")
    waiting = send(state, {"red": "play Thingvellir Assembly"}).state
    out = send(waiting, {"red": "vote yes", "blue": "vote no", "green": "vote no"})
    assert (event(out, "althing")["yes"], event(out, "althing")["total"]) == (2, 4)
    assert event(out, "althing")["passed"] is True
    out = send(_althing(), {"red": "vote yes", "blue": "vote no", "green": "vote no"})
    assert event(out, "althing")["passed"] is False


def test_rule_althing_the_event_leaves_the_game_even_when_voted_down() -> None:
    """"Then Discard the tile out of the game (not to the discard pile)" whatever the vote:
    voted down, Thingvellir Assembly is removed from the game, not in the discard pile, and
    nobody gains."""
    out = send(_althing(), {"red": "vote no", "blue": "vote no", "green": "vote no"})
    s = out.state
    assert event(out, "althing")["passed"] is False
    assert tid("Thingvellir Assembly") in s["removed"]
    assert tid("Thingvellir Assembly") not in s["discard"]
    assert [s["players"][p]["silfr"] for p in ("red", "blue", "green")] == [10, 10, 10]


def test_rule_althing_victory_is_checked_even_when_voted_down() -> None:
    """"... and check Victory Conditions regardless." Blue holds 15 silfr, which meets the
    face-up standard card Wealthy Jarl (s5); the Althing votes the event down and blue wins
    all the same, there and then."""
    state = _althing()
    assert "s5" in state["victory"]["cards"]
    state["players"]["blue"]["silfr"] = 15
    out = send(state, {"red": "vote no", "blue": "vote no", "green": "vote no"})
    s = out.state
    assert event(out, "althing")["passed"] is False
    assert s["ended"] and s["winners"] == ["blue"] and s["end_reason"] == "victory"
