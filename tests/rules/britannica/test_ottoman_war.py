"""Seed 003, War with the Ottomans: Egypt's role (entry, neutral Egypt, ending on demand)."""

from __future__ import annotations

from britannica_helpers import of_type, play, set_up


def _ottoman_war(egypt: list[tuple[str, str]]) -> dict:
    """France established a Protectorate in Tripoli (army 3 there) and holds an Influence in
    Syria; the Ottoman Empire declares war in the War phase. ``egypt``: its markers."""
    s = set_up()
    s["markers"]["tripoli"] = [{"power": "france", "kind": "protectorate", "established": True}]
    s["markers"]["syria"] = [{"power": "france", "kind": "influence", "established": True}]
    s["markers"]["egypt"] = [{"power": p, "kind": k, "established": True} for p, k in egypt]
    if not egypt:
        del s["markers"]["egypt"]
    s["units"].append({"id": 900, "power": "france", "type": "army", "strength": 3, "at": "tripoli"})
    s["ottoman_triggers"] = ["france"]
    s["step"] = "war"
    s, events = play(s, {})
    assert s["step"] == "war-second" and s["wars"][0]["kind"] == "ottoman"
    return s, events


def _ottoman_moves(events: list) -> list[tuple[str, str]]:
    return [(m["from"], m["to"]) for m in of_type(events, "war_move") if m["power"] == "ottoman"]


def test_rule_war_with_the_ottomans_armies_enter_an_uncontrolled_egypt() -> None:
    s, events = _ottoman_war([])
    assert _ottoman_moves(events) == [("anatolia", "syria")] * 3
    s, events = play(s, {})  # round 2: Syria -> Egypt, on the way to Tripoli
    assert set(_ottoman_moves(events)) == {("syria", "egypt")}


def test_rule_war_with_the_ottomans_armies_enter_egypt_controlled_by_an_enemy() -> None:
    s, events = _ottoman_war([("france", "possession")])
    assert _ottoman_moves(events) == [("anatolia", "syria")] * 3
    s, events = play(s, {})
    assert set(_ottoman_moves(events)) == {("syria", "egypt")}


def test_rule_war_with_the_ottomans_a_neutral_egypt_stops_the_armies() -> None:
    s, events = _ottoman_war([("britain", "possession")])
    assert _ottoman_moves(events) == []  # Tripoli is out of reach behind a neutral Egypt
    assert {u["at"] for u in s["units"] if u["power"] == "ottoman"} == {"anatolia"}


def test_rule_war_with_the_ottomans_neutral_egypt_war_ended_on_demand_keeps_tripoli() -> None:
    s, _ = _ottoman_war([("britain", "possession")])
    # the war's end is followed by the VP Record (the £ spent) and the next Administration:
    # a France in the red would lose Tripoli to its maintenance, not to the war
    s["markers"] = {a: [m for m in ms if m["power"] != "france" or a in ("tripoli", "syria")]
                    for a, ms in s["markers"].items()}
    s["markers"] = {a: ms for a, ms in s["markers"].items() if ms}
    s, events = play(s, {"france": "peace"})
    assert of_type(events, "war_ended")[0]["outcome"] == "demand"
    assert of_type(events, "ottoman_war_ended_on_demand") == [{"kept": ["tripoli"], "by": ["france"]}]
    # France keeps its Protectorate in Tripoli; its marker in Syria (another Ottoman area) goes.
    assert s["markers"]["tripoli"] == [{"power": "france", "kind": "protectorate", "established": True}]
    assert "syria" not in s["markers"]
    assert not s["wars"] and not any(u["power"] == "ottoman" for u in s["units"])


def test_rule_war_with_the_ottomans_no_demand_while_the_armies_can_reach_the_enemy() -> None:
    s, _ = _ottoman_war([])
    s, events = play(s, {"france": "peace"})
    assert not of_type(events, "war_ended") and s["wars"]
