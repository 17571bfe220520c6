"""Every order not carried out is told to its owner with the reason (issue 18): conditional
orders whose condition failed, standing retreat orders the GM had to replace, attacks that
could not be made. Only the owner's report says it, in the owner's language."""

from __future__ import annotations

import sys
from pathlib import Path

from britannica_helpers import of_type, play, refused_on_arrival, set_up

from gm.games.britannica import module, war
from gm.games.britannica.data import load
from gm.service.render import render

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_britannica_war import _battle  # noqa: E402


def _report(s: dict, events: list, power: str, lang: str) -> str:
    shown = [{"type": e.type, "data": dict(e.data)} for e in events if e.visible(power)]
    return render("report", lang, "britannica", game_only=True, view=module.view(s, power),
                  events=shown, power=power)


def test_rule_conditional_orders_a_condition_not_met_is_told_to_its_owner() -> None:
    """orders.md §4 conditions: "ORDER if C" is carried out only when C holds; when it does not,
    the owner reads which order and why, and nobody else does."""
    s = set_up()
    s2, events = play(s, {"france": "buy army 1 if funds >= 1000\nbuy army 1"}, tag="cond")
    [why] = of_type(events, "order_not_carried_out")
    assert (why["power"], why["number"], why["reason"]) == ("france", 1, "CONDITION")
    assert ('Not carried out: order 1 of France "buy army 1 if funds >= 1000": its condition was '
            'not met.') in _report(s2, events, "france", "en")
    assert "sa condition n'était pas remplie" in _report(s2, events, "france", "fr")
    assert "funds >= 1000" not in _report(s2, events, "italy", "en")


def test_rule_retreat_procedure_a_standing_retreat_order_that_cannot_be_followed_is_told() -> None:
    """Retreat Procedure: a retreat order names the destination; when it is not a legal
    retreat (not adjacent here) the GM retreats the units by the default list, and the owner
    is told that its order was not followed, why, and where the units went."""
    s = _battle()
    s, events = play(s, {"france": "attack in Tunis"}, lead=[3])  # DR: Italy retreats next
    assert s["wars"][0]["pending"]
    first_choice = war.default_retreat(load(), s, s["wars"][0], "italy", "army", "tunis")
    s2, events = play(s, {"italy": "retreat army from Tunis to Morocco"})
    [r] = of_type(events, "war_retreat")
    assert r["to"] == first_choice
    [told] = of_type(events, "retreat_order_replaced")
    assert (told["power"], told["from"], told["ordered"], told["to"]) == (
        "italy", "tunis", "morocco", first_choice)
    en = _report(s2, events, "italy", "en")
    assert "Not carried out: the retreat order of Italy's army from Tunis to Morocco: not adjacent;" in en
    assert "pas adjacent ; elle se retire vers" in _report(s2, events, "italy", "fr")
    assert "retreat order" not in _report(s2, events, "france", "en")


def test_rule_combat_during_a_war_an_attack_without_units_or_enemy_is_told() -> None:
    """Combat during a War: an attack is made by the units in an area against enemy units
    there; an attack order with no own unit there, or no enemy to attack, is not carried out
    and its owner reads why."""
    s = _battle()
    # no own unit there: refused when the mail arrives already (issue 17 class 4)
    assert refused_on_arrival(s, "france", "attack in Tunis\nattack in Algiers\nattack in Egypt") \
        == ["no such unit there"]
    s2, events = play(s, {"france": "attack in Tunis\nattack in Algiers\nattack in Egypt"}, lead=[6],
                      unjudged=("france",))
    assert [c["where"] for c in of_type(events, "war_combat")] == ["tunis"]
    whys = {(w["number"], w["why"]) for w in of_type(events, "order_not_carried_out")
            if w["power"] == "france"}
    assert whys == {(2, "no enemy unit there to attack"), (3, "no such unit there")}
    fr = _report(s2, events, "france", "fr")
    assert "aucune unité ennemie à attaquer à cet endroit" in fr and "pas de telle unité" in fr


def test_rule_negotiations_and_ending_a_war_a_peace_that_is_not_made_is_told() -> None:
    """Negotiations and Ending a War: the war ends in peace when every Great Power in it agrees
    (by mail: sends ``peace`` in the same second phase of a round). A ``peace`` sent in the
    first phase, or that the other side did not send, does not end the war, and its sender
    reads why."""
    from test_britannica_war import _at_war

    s, _ = _at_war({"france": "declare war on Italy"})
    assert s["step"] == "war-first"
    assert refused_on_arrival(s, "france", "peace") == [
        "peace is made in the second phase of a round"]  # the reply says it at once too
    s, events = play(s, {"france": "peace"}, unjudged=("france",))
    [first] = [w for w in of_type(events, "order_not_carried_out") if w["power"] == "france"]
    assert first["why"] == "peace is made in the second phase of a round"
    s, events = play(s, {"france": "peace"})
    assert not of_type(events, "war_ended")
    [alone] = of_type(events, "order_not_carried_out")
    assert alone["power"] == "france" and alone["why"].startswith("no peace: every Great Power")
    assert "pas de paix : chaque grande puissance" in _report(s, events, "france", "fr")
    assert "no peace" not in _report(s, events, "italy", "en")


def test_rule_war_phase_sequence_the_other_alliances_moves_are_refused_on_arrival() -> None:
    """War phase sequence: the First Alliance manoeuvres and attacks in the round's first phase,
    the Second Alliance in its second one. A move or attack sent in the other alliance's phase
    could not be carried out: the reply refuses it at once with the reason."""
    from test_britannica_war import _at_war

    from gm.games.base import Verdict
    from gm.orders.model import SourceLine

    s, _ = _at_war({"france": "declare war on Italy"})
    assert s["step"] == "war-first" and s["wars"][0]["sides"][s["wars"][0]["first"]] == ["france"]
    parsed = module.parse_orders(s, "italy", [SourceLine(1, "attack in Tunis")])
    [v] = module.validate(s, "italy", [p.order for p in parsed.orders])
    assert v.verdict is Verdict.REFUSED and "other phase of the round" in v.reason
    parsed = module.parse_orders(s, "france", [SourceLine(1, "attack in Tunis")])
    [v] = module.validate(s, "france", [p.order for p in parsed.orders])
    assert v.reason == "no such unit there"  # France's phase, but no French army in Tunis
    [v] = module.validate(_battle(), "france", [p.order for p in parsed.orders])
    assert v.stored  # France's army (10) is there
