"""Every Pax Viking order the turn does not carry out is told to its player with the reason
(issue 18): a condition that did not hold, orders written after PASS, orders the end of the
game cut off. Only the writer reads it, in their language."""

from __future__ import annotations

from viking_tables import send, ship, table, tid

from gm.games.viking import module
from gm.service.render import render


def _report(out, power: str, lang: str) -> str:  # type: ignore[no-untyped-def]
    events = [{"type": e.type, "data": e.data} for e in out.events if e.visible(power)]
    return render("report", lang, "viking", game_only=True, view=module.view(out.state, power),
                  events=events, power=power)


def test_rule_sequence_of_play_orders_after_pass_are_told_not_carried_out() -> None:
    """Sequence of Play, ACTION PHASE: "During the action phase, select each of the 4 actions
    you wish to perform this turn, one at a time." A PASS ends the player's actions; the orders
    written below it are not carried out, and the player reads why."""
    state = table(pile=["Odin", "Thor"])
    out = send(state, {"red": "pass\ninvest draw"})
    told = [dict(e.data) for e in out.events if e.type == "viking.refused"]
    assert [(x["order"], x["why"]) for x in told] == [("invest draw", "you passed before this order")]
    assert all(e.visible_to == frozenset({"red"}) for e in out.events if e.type == "viking.refused")
    assert "you passed before this order" in _report(out, "red", "en")
    assert "vous avez passé avant cet ordre" in _report(out, "red", "fr")
    assert "invest draw" not in _report(out, "blue", "en")


def test_rule_conditional_orders_a_condition_that_did_not_hold_is_told() -> None:
    """orders.md §4: a skipped conditional order is reported "skipped: its condition did not
    hold" to its writer, in English and in French."""
    state = table(pile=["Odin", "Thor"])
    out = send(state, {"red": "invest draw if funds >= 100"})
    assert [e.data["order"] for e in out.events if e.type == "viking.skipped"] == [
        "invest draw if funds >= 100"]
    assert "its condition did not hold" in _report(out, "red", "en")
    assert "sa condition n'était pas remplie" in _report(out, "red", "fr")


def test_rule_end_of_the_saga_orders_after_the_end_are_told_not_carried_out() -> None:
    """Victory, The End of the Saga Victory Check: "When the last Saga Tile from the Saga Track
    is taken, at such time that the Saga Pile and the Saga Track are empty, then the game
    ends." The orders written after the action that ended it are told, not silently lost."""
    state = table(pile=[])
    state["track"] = [None] * len(state["track"])
    state["track"][0] = tid("Odin")
    name = module.data.tiles[state["track"][0]].name
    ship(state, "red", "ladoga")
    out = send(state, {"red": f"invest buy {name}\ninvest draw\njourney from Ladoga to Holmgard"})
    assert out.state["ended"] and out.state["end_reason"] == "end_of_saga"
    told = [(e.data["order"], e.data["why"]) for e in out.events if e.type == "viking.refused"]
    assert told == [("invest draw", "the game ended before this order"),
                    ("journey from Ladoga to Holmgard", "the game ended before this order")]
    assert "la partie s'est achevée avant cet ordre" in _report(out, "red", "fr")


def test_rule_winter_solstice_hand_limit_a_keep_that_cannot_be_followed_is_told() -> None:
    """Winter Solstice c.: "Discard down to your Hand Limit of 4". The standing order ``keep``
    names the tiles kept first; a named tile no longer in the hand, or one more than the limit
    allows, is told to the player with the reason."""
    from viking_tables import give

    state = table(pile=["Odin", "Thor"])
    give(state, "red", "Freyja", "Saga Singers", "Silver Hoard", "Shipyard", "Viking Raid")
    track = [module.data.tiles[x].name for x in state["track"] if x]
    absent = next(n for n in track if n not in ("Freyja", "Saga Singers", "Silver Hoard",
                                                "Shipyard", "Viking Raid"))
    out = send(state, {"red": f"keep Freyja, Saga Singers, Silver Hoard, Shipyard, Viking Raid, {absent}"})
    told = {e.data["order"]: e.data["why"] for e in out.events if e.type == "viking.refused"}
    assert told == {f"keep {absent}": f"{absent} is not in your hand at the Winter Solstice",
                    "keep Viking Raid": "more tiles named than the hand limit of 4"}
    assert "plus de tuiles nommées que la limite de main de 4" in _report(out, "red", "fr")
