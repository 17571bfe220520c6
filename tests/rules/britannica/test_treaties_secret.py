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


def test_rule_treaties_each_party_may_send_its_copy_in_the_phase_the_treaty_is_drafted() -> None:
    """"Treaties must be submitted to the GM with the signature of all parties or an exact copy
    of the treaty can be sent by each individual to the GM for it to become valid." France
    drafts "Entente" and Britain signs it in the same Negotiation phase: the treaty is ratified,
    whichever power's name comes first (Britain's signature used to be taken before France's
    draft existed and was refused as "not an order of this phase")."""
    s, events = play(_negotiation(),
                     {"france": 'treaty "Entente" secret between france, britain: no war',
                      "britain": 'sign treaty "Entente"'})
    assert [e.type for e in events if e.type.startswith("treaty")] == [
        "treaty_drafted", "treaty_ratified"]
    assert not [e for e in events if e.type == "order_not_carried_out"]
    [treaty] = s["treaties"]
    assert treaty["ratified"] and treaty["signed"] == ["france", "britain"]


def test_rule_treaties_a_signature_with_no_such_treaty_says_so() -> None:
    """Orders not carried out are told with the reason (docs/britannica.md): a signature of
    a treaty nobody drafted names that, not "not an order of this phase"."""
    _, events = play(_negotiation(), {"britain": 'sign treaty "Entente"'})
    [refused] = [e for e in events if e.type == "order_not_carried_out"]
    assert refused.data["reason"] == "NO_TREATY"
