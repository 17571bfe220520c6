"""Issue 17 class 4 (orders.md §2): in the Negotiation, Congress and War phases, what the
power's own position already forbids is refused when the mail arrives, with the engine's
reason; what others' orders or the dice may still change stays to be checked."""

from __future__ import annotations

import sys
from pathlib import Path

from britannica_helpers import play, refused_on_arrival, set_up, tunis_dispute

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_britannica_war import _battle, _war_phase  # noqa: E402
from test_congress_of_europe import _ballot, _convened  # noqa: E402


def test_rule_negotiation_downgrades_are_judged_in_the_mail_s_order() -> None:
    s = tunis_dispute()
    assert refused_on_arrival(s, "britain", "downgrade Egypt to interest\n"
                              "downgrade Egypt to interest\ndowngrade Tunis to none") == [
        "a downgrade must be to a lower status", "no marker of yours there to alter"]


def test_rule_congress_of_europe_call_and_proposal_in_negotiation() -> None:
    """Only a power with a Casus Belli calls; a proposal sent with the call settles only areas
    a Casus Belli is about, and never gives a State or Dominion."""
    s = tunis_dispute()
    assert refused_on_arrival(s, "france", "congress in Russia\n"
                              "propose 1: France takes Tunis") == []
    assert refused_on_arrival(s, "france", "propose 2: France takes Egypt") == [
        "a resolution may only settle the areas in dispute"]
    # a treaty partner may get a Casus Belli from a breach lodged in the same phase: to check
    s["treaties"].append({"name": "Dual", "public": True, "parties": ["britain", "italy"],
                          "text": "x", "signed": ["britain", "italy"], "ratified": True})
    assert refused_on_arrival(s, "britain", "congress in Russia") == []
    assert refused_on_arrival(s, "russia", "congress in Germany") == [
        "only a power with a Casus Belli may call a Congress"]


def test_rule_congress_of_europe_members_alone_propose_under_one_name_each() -> None:
    s = _convened()
    assert refused_on_arrival(s, "germany", 'propose "T": france none in Tunis') == [
        "only members of the Congress may propose"]  # neither party nor host, not attending
    assert refused_on_arrival(s, "germany", 'attend\npropose "T": france none in Tunis') == []
    assert refused_on_arrival(s, "italy", 'stay away\npropose "T": france none in Tunis') == [
        "only members of the Congress may propose"]
    assert refused_on_arrival(s, "italy", 'propose "T": france none in Tunis\n'
                              'propose "T": italy possession in Tunis\n'
                              'propose "U": italy none in Egypt') == [
        "a proposal of that name exists", "a resolution may only settle the areas in dispute"]
    # the USA's membership waits for the Europeans' objections
    assert refused_on_arrival(s, "usa", 'attend\npropose "T": france none in Tunis') == []
    assert refused_on_arrival(s, "britain", "downgrade Bengal to interest") == [
        "at Congress only Interest and Influence markers may be removed freely"]


def test_rule_congress_of_europe_ballots_name_a_proposal_and_defiance_the_resolution() -> None:
    votes = {"italy": "yes", "russia": "yes", "france": "no"}
    s, _ = _ballot(votes)
    assert s["step"] == "congress-sign"
    assert refused_on_arrival(s, "france", 'defy "Tunis to France"') == [
        "the resolution to sign or defy is Tunis to Italy"]
    assert refused_on_arrival(s, "france", 'defy "Tunis to Italy"') == []
    s, _ = play(_convened(), {"britain": "attend", "germany": "attend",
                              "italy": 'propose "Tunis to Italy": france none in Tunis'})
    assert s["step"] == "congress-vote"
    assert refused_on_arrival(s, "italy", 'vote "Tunis to France" yes') == [
        "no such proposal, or not a member"]
    assert refused_on_arrival(s, "italy", 'vote "Tunis to Italy" no') == []


def test_rule_declaring_war_needs_a_power_and_a_casus_belli() -> None:
    s = _war_phase()
    assert refused_on_arrival(s, "france", "declare war on France") == [
        "no such power to declare war on"]
    assert refused_on_arrival(s, "france", "declare war on Italy") == []


def test_rule_canals_and_straits_and_coaling_only_from_a_control_marker() -> None:
    s = _war_phase()
    assert refused_on_arrival(s, "germany", "deny Suez to Britain\n"
                              "volunteer coaling Egypt to France") == [
        "you have no established Control marker there",
        "you have no established Control marker there"]
    assert refused_on_arrival(s, "britain", "deny Bengal to France") == ["no strait or canal there"]


def test_rule_movement_during_an_alliance_manoeuvre_one_step_with_a_unit_there() -> None:
    """Seed, Movement during an Alliance Manoeuvre Phase: one step, by a unit that is there
    and not already moved above; an attack by units an own move brings is for the
    adjudication."""
    s = _battle()  # France (first) has Army(10) in Tunis
    assert refused_on_arrival(s, "france", "move army 10 from Tunis to Algiers\n"
                              "move army 10 from Tunis to Algiers\n"
                              "move army 10 from Tunis to Manchuria\n"
                              "move army 3 from Tunis to Algiers via Morocco") == [
        "no such unit there", "no such unit there",
        "one step only: one step from Tunis reaches Algiers, Mediterranean Sea, Tripoli"]
    assert refused_on_arrival(s, "france", "move army 10 from Tunis to Tripoli\n"
                              "attack in Tripoli") == []
    assert refused_on_arrival(s, "france", "attack in Tripoli") == ["no such unit there"]


def test_rule_movement_phase_orders_are_not_touched_by_the_later_phases_checks() -> None:
    assert refused_on_arrival(set_up(), "britain", "downgrade Egypt to interest") == []
