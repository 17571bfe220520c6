"""Seed 003, Special British and Russian Garrison Rules; Net Income below zero."""

from __future__ import annotations

from britannica_helpers import of_type, play, set_up

from gm.games.britannica import economy, garrisons
from gm.games.britannica.data import load


def _without(power: str, strength: int = 10) -> dict:
    s = set_up()
    s["units"] = [u for u in s["units"] if not (u["power"] == power and u["strength"] == strength
                                                  and u["type"] == "army")]
    s["treasury"][power] = 100
    return s


def test_rule_special_british_garrison_rule_gm_rebuilds_in_the_best_indian_area() -> None:
    s, events = play(_without("britain"), {}, lead=[6] * 10)
    [r] = of_type(events, "special_garrison_rebuilt")
    d = load()
    best = max(d.charts["special_garrisons"]["india"], key=lambda a: (d.areas[a].value, [-ord(c) for c in a]))
    assert (r["power"], r["built"], r["at"]) == ("britain", 3, best)
    assert s["treasury"]["britain"] <= 100 - 90


def test_rule_special_british_garrison_rule_no_rebuild_when_orders_provide() -> None:
    s0 = _without("britain")
    s, events = play(s0, {"britain": "buy army 10"}, lead=[6] * 10)
    assert not of_type(events, "special_garrison_rebuilt")


def test_rule_special_russian_garrison_rule_rebuilt_at_home_as_money_allows() -> None:
    s0 = _without("russia")
    s0["treasury"]["russia"] = 65
    s, events = play(s0, {}, lead=[6] * 10)
    [r] = of_type(events, "special_garrison_rebuilt")
    assert (r["power"], r["at"], r["built"], r["missing"]) == ("russia", "home", 2, 3)


def test_rule_special_russian_garrison_rule_army_10_may_not_leave_with_fewer_than_four() -> None:
    from gm.games.britannica.garrisons import may_leave

    d = load()
    s = set_up()
    tens = [u for u in s["units"] if u["power"] == "russia" and u["strength"] == 10]
    assert len(tens) == 3
    assert not may_leave(d, s, "russia", tens[0], "manchuria")
    assert may_leave(d, s, "russia", tens[0], "serbia")
    s["units"].append({**tens[0], "id": 999})
    assert may_leave(d, s, "russia", tens[0], "manchuria")


def test_rule_net_income_negative_treasury_units_then_markers_removed() -> None:
    d = load()
    s = set_up()
    s["treasury"]["italy"] = -40
    events = economy._cut_negative(d, s, "italy")
    assert s["treasury"]["italy"] >= 0
    assert of_type(events, "marker_removed") or of_type(events, "unit_disbanded")


def test_rule_special_british_garrison_rule_the_indian_army_may_end_two_areas_from_india() -> None:
    """"The Indian Army Units must always end their movement / Status Change Phase and Alliance
    Manoeuvre Phases within two areas of India (by a land route)". From Bengal an Indian Army
    unit may go to Siam (Bengal - Burma - Siam: two areas), not to Malaya (three)."""
    d = load()
    s = set_up()
    [unit] = [u for u in s["units"] if u["power"] == "britain" and u["at"] == "bengal"]
    assert "burma" in d.neighbours("bengal") and "siam" in d.neighbours("burma")
    assert garrisons.may_leave(d, s, "britain", unit, "siam")
    assert not garrisons.may_leave(d, s, "britain", unit, "malaya")
