"""Seed 003, Colonial Combat: two powers establishing Control markers in one area."""

from __future__ import annotations

from britannica_helpers import of_type, play, set_up

from gm.games.britannica import module
from gm.service.render import render


def test_rule_colonial_combat_two_powers_establishing_control_markers_have_a_casus_belli() -> None:
    """"More than one Power can attempt to establish a Control marker in an Area in a single
    Colonial Combat Phase. Each Colonial Combat is resolved individually, having no effect on
    any other Power's attempt. If two or more Powers successfully establish Control markers, a
    Casus Belli will exist." Britain and France both win in Ashantee: each has one against the other."""
    s = set_up()
    s, events = play(s, {"france": "place protectorate in Ashantee\nmove army 10 from home to Ashantee",
                         "britain": "place protectorate in Ashantee\nmove army 3 from home to Ashantee"},
                     lead=[6, 6], tag="together")
    combats = [c for c in of_type(events, "colonial_combat") if c["area"] == "ashantee"]
    assert [(c["power"], c["won"]) for c in combats] == [("britain", True), ("france", True)]
    assert {(m["power"], m["kind"], m["established"]) for m in s["markers"]["ashantee"]} == {
        ("britain", "protectorate", True), ("france", "protectorate", True)}
    cbs = [(c["holder"], c["against"], c["cause"]) for c in s["casus_belli"] if c["area"] == "ashantee"]
    assert sorted(cbs) == [("britain", "france", "control_established_together"),
                           ("france", "britain", "control_established_together")]
    shown = [{"type": e.type, "data": dict(e.data)} for e in events if e.visible("britain")]
    en = render("report", "en", "britannica", game_only=True, view=module.view(s, "britain"),
                events=shown, power="britain")
    assert ("France has a Casus Belli against Britain in Ashantee (both established Control markers "
            "in the same Colonial Combat).") in en


def test_rule_colonial_combat_one_power_failing_gives_no_casus_belli() -> None:
    """"Each Colonial Combat is resolved individually": when only one power establishes its
    Control marker, the other's attempt fails and nobody has a Casus Belli."""
    s = set_up()
    s, events = play(s, {"france": "place protectorate in Ashantee\nmove army 10 from home to Ashantee",
                         "britain": "place protectorate in Ashantee\nmove army 3 from home to Ashantee"},
                     lead=[1, 6], tag="alone")
    combats = {c["power"]: c["won"] for c in of_type(events, "colonial_combat") if c["area"] == "ashantee"}
    assert combats == {"britain": False, "france": True}
    assert not [c for c in s["casus_belli"] if c["area"] == "ashantee"]
