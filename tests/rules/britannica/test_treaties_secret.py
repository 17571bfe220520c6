"""Seed 003, Treaties: secret treaties are their parties' business (the fog of the reports)."""

from __future__ import annotations

from britannica_helpers import play, set_up, tunis_dispute

PARTIES = frozenset({"britain", "france"})


def _negotiation() -> dict:
    s = set_up()
    s["step"] = "negotiation"
    return s


def test_rule_treaties_a_draft_is_shown_to_its_parties_only() -> None:
    """"Players are free to keep the terms of Treaties secret from each other. They are not
    required to reveal details of a Treaty, or even let on that a Treaty has been drawn up or
    signed." and "The GM will report the contents of a treaty to all players once it is
    ratified": a draft, secret or public, is told to its parties only."""
    for kind in ("secret", "public"):
        _, events = play(_negotiation(),
                         {"britain": f'treaty "Cordiale" {kind} between britain, france: no war'})
        [draft] = [e for e in events if e.type == "treaty_drafted"]
        assert draft.visible_to == PARTIES, kind


def test_rule_treaties_signing_a_secret_treaty_is_told_to_its_parties_only() -> None:
    """"They are not required to reveal details of a Treaty, or even let on that a Treaty has
    been drawn up or signed." France signs Britain's secret treaty: the ratification is told to
    the two parties; a public one is reported to every player."""
    for kind, audience in (("secret", PARTIES), ("public", None)):
        s, _ = play(_negotiation(),
                    {"britain": f'treaty "Cordiale" {kind} between britain, france: no war'})
        s["step"] = "negotiation"
        _, events = play(s, {"france": 'sign treaty "Cordiale"'})
        [ratified] = [e for e in events if e.type == "treaty_ratified"]
        assert ratified.visible_to == audience, kind


def test_rule_treaties_a_secret_treaty_scrapped_by_war_stays_secret() -> None:
    """"Any Treaties in existence between two parties where one declares War on the other, are
    immediately scrapped." A secret treaty of Germany, Italy and Russia is scrapped when Russia
    declares war on Italy; "Players are free to keep the terms of Treaties secret": only its
    parties are told."""
    s = tunis_dispute()
    s["treaties"].append({"name": "Dual", "public": False, "parties": ["germany", "italy", "russia"],
                          "text": "no war", "signed": ["germany", "italy", "russia"], "ratified": True})
    s["casus_belli"].append({"holder": "russia", "against": "italy", "area": "", "cause": "x"})
    s, _ = play(s, {})
    assert s["step"] == "war"
    s, events = play(s, {"russia": "declare war on Italy"}, lead=[6, 1])
    [scrapped] = [e for e in events if e.type == "treaty_scrapped"]
    assert scrapped.visible_to == frozenset({"germany", "italy", "russia"})
    assert s["treaties"] == []
