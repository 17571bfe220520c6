"""Pax Britannica report bodies: every event the engine emits reads as a sentence, en and fr."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gm.games.britannica import module
from gm.games.britannica.movement import _DO
from gm.service.render import render

ENGINE = Path(__import__("gm.games.britannica.turn", fromlist=["x"]).__file__).resolve().parent

SAMPLES: dict[str, dict] = {
    "buy_done": {"power": "italy", "unit": "army", "strength": 3},
    "place_done": {"power": "italy", "area": "tunis", "kind": "protectorate"},
    "upgrade_done": {"power": "italy", "area": "tunis", "kind": "possession"},
    "downgrade_done": {"power": "italy", "area": "tunis", "kind": "interest"},
    "move_done": {"power": "italy", "unit": "army", "strength": 3, "from": "home", "to": "tunis", "path": []},
    "garrison_done": {"power": "italy", "unit": "army", "strength": 1, "from": "home", "to": "tunis", "path": []},
    "merchant_done": {"power": "italy", "from": None, "to": "mediterranean"},
    "canal_done": {"power": "usa", "canal": "panama"},
    "transfer_done": {"power": "germany", "to": "austria-hungary", "amount": 5},
    "administration": {"power": "japan", "colonial_office": 10, "roll": 3, "markers": 117,
                       "maintenance": 63, "treasury": 64},
    "game_set_up": {"year": 1880},
    "random_events": {"count": 2},
    "minor_powers": {"active": ["spain"], "idle": ["belgium", "netherlands", "portugal"]},
    "area_ceded": {"area": "shantung", "to": "germany"},
    "area_conquered": {"area": "tunis", "by": "france", "kind": "protectorate", "from": ["italy"]},
    "area_liberated": {"area": "syria", "from": ["france"]},
    "ballot": {"name": "Tunis", "votes": {"france": "no", "italy": "yes", "russia": "abstain"},
               "yes": 1, "no": 1, "host": "russia", "passed": False},
    "canal_built": {"canal": "panama", "builders": ["usa"], "vp_each": 15},
    "casus_belli": {"holder": "france", "against": "italy", "area": "tunis", "cause": "control_over_influence"},
    "casus_belli_expired": {"count": 2},
    "ottoman_annexation": {"area": "persia"},
    "annexation_lost": {"area": "persia", "type": "independent"},
    "ottomans_excluded": {"area": "persia", "by": ["britain"]},
    "ottoman_armies_raised": {"armies": 3, "area": "anatolia"},
    "treaty_made_public": {"name": "Dual", "parties": ["germany", "italy"], "text": "defence", "by": "italy"},
    "treaty_broken": {"name": "Dual", "by": "germany", "lodged_by": "italy"},
    "vp_penalty": {"power": "germany", "vp": -2, "cause": "treaty_broken", "total": 8},
    "congress_objection": {"powers": ["usa"]},
    "forced_expenditure": {"power": "germany", "required": 20, "spent": 4, "built": [10, 3], "short": 0},
    "congress_runoff": {"names": ["Tunis to Italy", "Tunis to France"]},
    "runoff": {"votes": {"italy": "Tunis to Italy", "france": "Tunis to France"},
               "counts": {"Tunis to Italy": 1, "Tunis to France": 1}, "adopted": None},
    "ottoman_war_ended_on_demand": {"kept": ["tripoli"], "by": ["france"]},
    "chinese_rebellion": {"armies": ["shantung", "chihli"], "against": ["britain", "germany"]},
    "resentment": {"amount": 2, "cause": "marker placed", "by": ["britain"], "area": "tunis", "cri": 22},
    "chinese_resentment": {"cri": 124, "roll": 11, "rebellion": True},
    "colonial_combat": {"area": "tunis", "attack": 3, "defence": 2, "table": "table1", "ratio": "3:2",
                        "roll": 6, "result": "DR", "won": True, "lost": [], "retreat": False, "power": "italy"},
    "colonial_retreat": {"power": "italy", "unit": "army", "from": "tunis", "to": None, "strength": 3},
    "congress_called": {"by": "france", "site": "russia", "asked": "italy", "parties": ["france", "italy"],
                        "disputes": []},
    "congress_members": {"site": "russia", "members": ["france", "italy", "russia"], "proposals": ["Tunis"]},
    "congress_resolved": {"name": "Tunis"},
    "congress_unresolved": {"defied": ["france"]},
    "default_garrison": {"power": "italy", "area": "tunis", "strength": 1, "built": True},
    "final_victory_points": {"power": "italy", "gained": 20, "total": 80},
    "game_over": {"vp": {"britain": 100, "italy": 80}},
    "garrison_rule": {"area": "tunis", "power": "italy", "codominion": False},
    "great_war": {"cause": "four_powers", "culprits": ["britain", "russia"], "eti": 60},
    "great_war_penalty": {"power": "britain", "lost": 120, "total": 3},
    "headline": {"event": "1-1", "name": "War in the Balkans", "effect": {"eti": 3}},
    "initiative": {"war": 1, "round": 2, "rolls": [4, 2], "first": ["france"]},
    "marker_downgraded": {"power": "france", "area": "tunis", "to": "none"},
    "marker_established": {"area": "tunis", "power": "italy", "kind": "protectorate"},
    "marker_removed": {"area": "tunis", "power": "italy", "kind": "protectorate", "cause": "unrest"},
    "minor_power_placement": {"power": "spain", "area": "gabon", "kind": "influence"},
    "retreat_order_replaced": {"power": "italy", "unit": "army", "from": "tunis", "ordered": "algiers",
                               "to": "home", "why": "not adjacent"},
    "order_not_carried_out": {"power": "italy", "number": 2, "order": "buy fleet 10",
                              "reason": "FUNDS", "why": "not enough money"},
    "proposal": {"name": "Tunis", "by": "italy", "clauses": [["france", "none", "tunis"]]},
    "rebellion_crushed": {"cri": 5},
    "rebellion_impossible": {"cri": 200},
    "rebellion_succeeded": {},
    "resolution_adopted": {"name": "Tunis"},
    "resolution_marker": {"power": "france", "area": "tunis", "kind": "none"},
    "resolution_signatures": {"name": "Tunis", "signed": ["italy"], "defied": ["france"]},
    "special_garrison_rebuilt": {"power": "britain", "rule": "indian_army", "at": "bengal",
                                 "built": 1, "missing": 1},
    "tension": {"amount": 5, "cause": "declaration of war", "by": ["france"], "eti": 45},
    "treaty_drafted": {"name": "Dual"},
    "treaty_signed": {"name": "Dual", "by": "italy", "parties": ["germany", "italy"], "text": ""},
    "treaty_ratified": {"name": "Dual", "by": "germany", "parties": ["germany", "italy"], "text": "defence"},
    "treaty_scrapped": {"name": "Dual"},
    "turn_begins": {"year": 1884},
    "unit_disbanded": {"power": "italy", "unit": {"type": "army", "strength": 1, "at": "tunis"}},
    "units_sent_home": {"power": "italy", "unit": "army", "strength": 3},
    "unrest": {"event": "1-2", "table": "A", "area": "tunis"},
    "victory_points": {"power": "italy", "gained": 3, "spent": 21, "total": 10},
    "bonus_vp": {"power": "france", "bonus": "africa_east_west", "vp": 10, "total": 40},
    "war_begins": {"war": 1, "kind": "china", "sides": [["china"], ["britain"]]},
    "war_combat": {"war": 1, "where": "tunis", "unit": "army", "attackers": ["france"],
                   "defenders": ["italy"], "attack": 10, "defence": 3, "table": "table1",
                   "ratio": "3:1", "roll": 6, "result": "DE",
                   "lost": [{"power": "italy", "unit": "army", "strength": 3}]},
    "war_declared": {"by": "france", "on": ["italy"], "support": False, "war": 1},
    "war_ended": {"war": 1, "kind": "war", "outcome": 0, "winners": ["france"]},
    "war_move": {"power": "china", "unit": "army", "strength": 5, "from": "shantung", "to": "chihli"},
    "war_retreat": {"power": "italy", "unit": "army", "from": "tunis", "to": "home", "strength": 3},
    "war_surrender": {"power": "italy", "unit": "army", "strength": 3, "at": "tunis", "why": "out of supply"},
}


def engine_event_types() -> set[str]:
    """Every event type the engine can emit, read from its source."""
    found = set()
    for path in ENGINE.glob("*.py"):
        found |= set(re.findall(r'Event\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    found |= {f"{cls.__name__.lower()}_done" for cls in _DO}
    found |= {"treaty_signed", "treaty_ratified"}
    return found


def test_every_engine_event_has_a_sample() -> None:
    assert engine_event_types() <= set(SAMPLES)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_event_type_renders_as_a_sentence_in_both_languages(lang: str) -> None:
    s = module.setup("1880", {})
    events = [{"type": t, "data": d} for t, d in SAMPLES.items()]
    text = render("report", lang, "britannica", game_only=True, view=module.view(s, "italy"),
                  events=events, power="italy")
    assert "[event " not in text  # the template's unknown-event fallback
    assert "{'" not in text and "[{" not in text and "None" not in text
    assert ("Tunis" in text) and ("Italy" in text)
    word = {"en": "Casus Belli against", "fr": "casus belli contre"}[lang]
    assert word in text
    why = {"en": "not enough money", "fr": "pas assez d'argent"}[lang]  # the Refusal, translated
    assert {"en": f'"buy fleet 10": {why}.', "fr": f"« buy fleet 10 » : {why}."}[lang] in text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_report_shows_only_the_seats_own_units_and_hides_secret_treaties(lang: str) -> None:
    s = module.setup("1880", {})
    s["treaties"].append({"name": "Secret pact", "public": False, "parties": ["france", "russia"],
                          "text": "hidden", "signed": ["france", "russia"], "ratified": True})
    italy = render("report", lang, "britannica", game_only=True, view=module.view(s, "italy"),
                   events=[], power="italy")
    france = render("report", lang, "britannica", game_only=True, view=module.view(s, "france"),
                    events=[], power="france")
    assert "Secret pact" not in italy and "Secret pact" in france
    assert {"en": "Italy", "fr": "Italie"}[lang] in italy  # issue 20: the French name
    assert ("France, your" not in italy) and ("France, vos" not in italy)


@pytest.mark.parametrize(("lang", "annexed", "listed", "casus"), [
    ("en", "the Ottoman Empire annexes it", "Areas annexed by the Ottoman Empire: Persia.",
     "Britain has a Casus Belli against the Ottoman Empire in Persia (the Ottoman annexation"),
    ("fr", "l'Empire ottoman l'annexe", "Régions annexées par l'Empire ottoman : Perse.",
     "La Grande-Bretagne a un casus belli contre l'Empire ottoman en Perse (annexion ottomane"),
])
def test_rule_unrest_ottoman_annexation_report_lines(lang: str, annexed: str, listed: str,
                                                     casus: str) -> None:
    s = module.setup("1880", {})
    s["annexed"] = ["persia"]
    events = [{"type": "ottoman_annexation", "data": {"area": "persia"}},
              {"type": "casus_belli", "data": {"holder": "britain", "against": "ottoman",
                                               "area": "persia", "cause": "ottoman_annexation"}}]
    text = render("report", lang, "britannica", game_only=True, view=module.view(s, "italy"),
                  events=events, power="italy")
    assert annexed in text and listed in text and casus in text


@pytest.mark.parametrize(("lang", "said"), [
    ("en", ["report for Italy", "Administration of Japan: colonial office £10 (roll 3)",
            "Germany transfers £5 to Austria-Hungary.", "Italy buys an army of strength 3.",
            "War 1 ends: won by France.", "Italy proposes \"Tunis\": France no marker in Tunis.",
            "Not carried out: order 2 of Italy",
            "Italy moves an army (3) from home to Tunis.", "2 unused Casus Belli expire.",
            "U.S.A. pays for the panama canal."]),
    ("fr", ["rapport pour l'Italie", "Administration du Japon : bureau colonial 10 £ (dé 3)",
            "L'Allemagne verse 5 £ à l'Autriche-Hongrie.", "L'Italie achète une armée de force 3.",
            "Fin de la guerre 1 : gagnée par la France.", "Non exécuté : ordre 2 de l'Italie",
            "L'Italie propose « Tunis » : France aucun marqueur à Tunis.",
            "L'Italie déplace une armée (3) de la métropole vers Tunis.",
            "L'Italie voit son marqueur protectorat à Tunis établi.",
            "2 casus belli inutilisés expirent.",
            "Les États-Unis financent le canal panama."]),
])
def test_one_template_says_the_powers_as_each_language_writes_them(lang: str, said: list[str]) -> None:
    """Issue 20: one report template for every language, its sentences from the catalogue and
    the powers' names from the data with the article and preposition French puts on them
    ("du Japon", "à l'Autriche-Hongrie") and the verb agreeing with a plural name ("les
    États-Unis financent"), money as the language writes it."""
    s = module.setup("1880", {})
    events = [{"type": t, "data": d} for t, d in SAMPLES.items()]
    text = render("report", lang, "britannica", game_only=True, view=module.view(s, "italy"),
                  events=events, power="italy")
    for line in said:
        assert line in text, line
    folder = Path(module.templates_dir())
    assert sorted(p.name for p in folder.glob("*.j2")) == ["_events.txt.j2", "report.txt.j2"]


def test_every_power_has_its_french_forms() -> None:
    """rules.toml ``words.fr``: a name, and its forms with the article, "de" and "à"."""
    french = module.words("fr")["power"]
    assert french["japan"] == {"name": "Japon", "the": "le Japon", "of": "du Japon", "to": "au Japon",
                               "plural": False}
    assert french["usa"]["plural"] and not module.words("en")["power"]["usa"]["plural"]
    assert french["ottoman"]["the"] == "l'Empire ottoman"
    assert module.words("en")["power"]["ottoman"]["the"] == "the Ottoman Empire"
    for key, forms in french.items():
        assert set(forms) == {"name", "the", "of", "to", "plural"}, key
        assert forms["name"] in forms["the"] or forms["the"].startswith("l'"), key
    assert module.seat_name("usa", "fr") == "les États-Unis"


@pytest.mark.parametrize(("lang", "header"), [("en", "report for a spectator"),
                                              ("fr", "rapport pour un spectateur")])
def test_a_spectators_report_says_whom_it_is_for(lang: str, header: str) -> None:
    """The spectator's report was headed "for the moderator"."""
    s = module.setup("1880", {})
    text = render("report", lang, "britannica", game_only=True, view=module.public_view(s),
                  events=[], power="spectator")
    assert header in text.splitlines()[0]


def test_a_french_report_elides_before_italie_and_egypte_and_quotes_an_order_as_written() -> None:
    """docs/architecture.md, "Adding a language": the word before a value is elided before
    its vowel, "Never in an order's echo, which the grammar reads back". Pax Britannica says
    its powers and areas with their article from its data ("de l'Autriche-Hongrie", "de
    l'Égypte"); a refused order is quoted as its echo, which reads back as the same order."""
    from gm.games.britannica.parser import parse_line
    from gm.games.britannica.refusals import not_carried_out
    from gm.orders.model import ParsedOrder, SourceLine

    parsed = parse_line(SourceLine(1, "move army 3 from Egypt to Sudan"), "italy")
    assert isinstance(parsed, ParsedOrder)
    refused = not_carried_out("italy", "italy", 1, parsed.order, "REFUSED", "not enough money")
    events = [{"type": "units_sent_home", "data": {"power": "austria-hungary", "unit": "army",
                                                   "strength": 3}},
              {"type": "war_retreat", "data": {"power": "italy", "unit": "army", "from": "egypt",
                                               "to": "home", "strength": 3}},
              {"type": refused.type, "data": refused.data}]
    s = module.setup("1880", {})
    fr, en = (render("report", lang, "britannica", game_only=True, view=module.view(s, "italy"),
                     events=events, power="italy") for lang in ("fr", "en"))
    assert "Une armée (3) de l'Autriche-Hongrie rentre au pays." in fr, fr
    assert "L'Italie retire ses armées (3) de l'Égypte vers la métropole." in fr, fr
    quoted = "déplacer armée 3 de Égypte vers Soudan"
    assert f"Non exécuté : ordre 1 de l'Italie « {quoted} » : pas assez d'argent." in fr, fr
    again = parse_line(SourceLine(1, quoted), "italy")
    assert isinstance(again, ParsedOrder) and again.order == parsed.order
    assert "An army (3) of Austria-Hungary returns home." in en, en
    assert 'Not carried out: order 1 of Italy "move army 3 from Egypt to Sudan": not enough money.' in en
