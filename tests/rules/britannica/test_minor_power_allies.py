"""Seed 003, War against Minor Powers; Minor Power Movement: the ally moves the minor's units."""

from __future__ import annotations

from britannica_helpers import of_type, play, tunis_dispute

from gm.games.britannica import module, war
from gm.games.britannica.data import load
from gm.orders.model import SourceLine


def _spain_war(spain: int, france: int) -> dict:
    """France declares war on Spain, Italy supports Spain; in Tunis a Spanish army of
    ``spain`` faces a French one of ``france``. France has the initiative."""
    s = tunis_dispute()
    s["units"] = [u for u in s["units"] if u["id"] != 900]
    for p, st in (("spain", spain), ("france", france)):
        s["next_unit"] += 1
        s["units"].append({"id": s["next_unit"], "power": p, "type": "army", "strength": st, "at": "tunis"})
    s["casus_belli"].append({"holder": "france", "against": "spain", "area": "", "cause": "x"})
    s, _ = play(s, {})
    s, events = play(s, {"france": "declare war on Spain", "italy": "support Spain"}, lead=[6, 1])
    assert s["wars"][0]["sides"] == [["france"], ["spain", "italy"]]
    s, _ = play(s, {})  # France's war-first phase: no move, no attack
    assert s["step"] == "war-second"
    return s


def test_rule_minor_power_movement_the_supporting_ally_controls_the_minor() -> None:
    s = _spain_war(1, 3)
    assert war.minor_controller(load(), s["wars"][0], "spain") == "italy"
    lines = [SourceLine(1, "FOR Spain"), SourceLine(2, "attack in Tunis")]
    france = module.parse_orders(s, "france", lines)
    verdicts = module.validate(s, "france", [p.order for p in france.orders])
    assert verdicts[-1].stored is False  # France does not control Spain's units
    s, events = play(s, {"italy": "FOR Spain\nattack in Tunis"})
    [c] = of_type(events, "war_combat")
    assert (c["attack"], c["defence"]) == (1, 3)  # at 1:3: the GM alone would never attack


def test_rule_minor_power_movement_without_orders_the_gm_rules_apply() -> None:
    s = _spain_war(1, 3)
    s2, events = play(s, {})
    assert not of_type(events, "war_combat")  # GM: a minor alone attacks only at 3:2
    s = _spain_war(3, 1)
    s2, events = play(s, {"italy": "FOR Spain\nretreat army from Tunis to home"})
    assert not of_type(events, "war_combat")  # its ally gave orders and did not attack
    s3, events = play(s, {})
    assert of_type(events, "war_combat")  # no orders for Spain: 3:1, the GM attacks
