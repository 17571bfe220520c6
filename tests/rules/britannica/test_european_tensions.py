"""Seed 003, European Tensions Increases: naval construction."""

from __future__ import annotations

from britannica_helpers import of_type, play, set_up


def test_rule_european_tensions_increases_naval_units_1_or_3_for_each_not_britain_japan_usa() -> None:
    """"Each time any Power other then Britain, Japan or the United States construct a Naval(1)
    or Naval(3) Unit (even if forced by Random Event), the Index increases by 1 point. Each time
    a Power other than these three constructs a Naval(10) Unit (even if forced), the Index
    increases by 3 points." France's Naval(3) and Italy's Naval(1): +1 each; Russia's
    Naval(10): +3; Britain's Naval(10) and Japan's Naval(1): nothing."""
    s0 = set_up()
    s, events = play(s0, {"france": "buy fleet 3", "italy": "buy fleet 1", "russia": "buy fleet 10",
                          "britain": "buy fleet 10", "japan": "buy fleet 1"}, tag="navies")
    assert len(of_type(events, "buy_done")) == 5
    [t] = [t for t in of_type(events, "tension") if t["cause"] == "naval construction"]
    assert (t["amount"], t["by"]) == (5, ["france", "italy", "russia"])
    assert s["eti"] == s0["eti"] + 5
