"""Every event the Pax Baltica engine can emit renders as a sentence in English and French.

The event types are read from the engine's source (every ``emit("type"``), so a new
event without a sentence, or without a sample here, fails. A sentence may not fall back
to the raw data (a dict, the "untranslated" marker), and the French line may not carry
English words.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import gm.games.baltica
from gm.games.baltica.rules.results import Why
from gm.service.render import environment

ENGINE = Path(gm.games.baltica.__file__).parent
BLOCKS = [{"block": "Karl XII", "strength": 3, "rating": "A3", "nation": "sweden"}]
SAMPLES: dict[str, dict] = {  # type: ignore[type-arg]
    "phase": {"phase": "1701-summer-battles"},
    "steps_gained": {"cause": "forced_recruitment",
                     "blocks": [{"block": "Karl XII", "steps": 2, "strength": 4}]},
    "steps_gained_count": {"power": "sweden", "cause": "excellent_recruitment", "steps": 3},
    "recruitment_roll": {"nation": "denmark", "roll": 4},
    "nyen_track": {"territory": "Nyen", "turns": 3, "needed": 8},
    "nyen_track_reset": {"territory": "Nyen"},
    "navy_founded": {"nation": "russia", "count": 2},
    "nation_changes_side": {"nation": "poland", "side": "sweden"},
    "nation_entered": {"nation": "poland", "by": "ottoman"},
    "british_warship": {"change": "withdrawn", "condition": "sweden-captures-nyen"},
    "british_warship_placed": {"territory": "Portsmouth", "strength": 3, "full": 4},
    "polish_parliament": {"roll": 6, "success": True},
    "action_roll": {"rolls": {"sweden": 3, "coalition": 6}, "actions": {"sweden": 2, "coalition": 0},
                    "first": "coalition"},
    "action_tie_reroll": {"rolls": {"sweden": 4, "coalition": 4}},
    "event_reroll": {"power": "sweden", "roll": 6},
    "action_reroll": {"power": "sweden", "roll": 1, "new": 4, "rule": "13.3", "left": 4},
    "reroll_order": {"power": "coalition", "below": 3, "left": None},
    "event_due": {"power": "coalition"},
    "straight_to_forage": {},
    "winter_roll": {"roll": 3, "needs": 5, "success": False},
    "first_loss_to_turks": {"territory": "Poltava", "rp": 8},
    "event_rolled": {"power": "sweden", "table": "national_politics_table", "roll": 3,
                     "result": "special_envoy", "nation": "sweden"},
    "polish_civil_war": {"rolls": {"sweden": 2, "coalition": 5},
                         "totals": {"sweden": 3, "coalition": 6}, "winner": "coalition"},
    "epidemic": {"roll": 4, "region": "Baltic (Estland, Livland, Ingermanland & Nyen)"},
    "event_losses": {"territory": "Livland", "cause": "epidemic",
                     "blocks": [{"block": "Karl XII", "steps": 1, "strength": 3}]},
    "event_shortfall": {"power": "coalition", "territory": "Pskov", "cause": "russian_nature",
                        "steps": 2},
    "sent_to_pool": {"cause": "polish_civil_war", "blocks": ["Lubomirski"]},
    "sent_to_pool_count": {"power": "coalition", "cause": "polish_civil_war", "count": 2},
    "set_aside": {"cause": "denmark_loans_troops", "block": "Reventlov"},
    "block_set_aside": {"cause": "emperor_demands_troops", "nation": "saxony"},
    "returned_from_aside": {"block": "Reventlov"},
    "block_returned": {"nation": "denmark"},
    "mistrust": {"year": 1702},
    "rp_spent": {"power": "sweden", "cause": "reinforcements", "rp": 5, "left": 1},
    "interphase_due": {"what": "rp_bonus", "nation": "denmark", "rp": 4},
    "nation_deactivated": {"nation": "ukraine", "cause": "peter_settles"},
    "no_effect": {"power": "sweden", "result": "special_envoy", "reason": "no_ally"},
    "discontent": {"nation": "russia", "territory": "Livland", "chooser": "sweden"},
    "activation_roll": {"nation": "ottoman", "roll": 5, "modifier": 1, "needs": 6,
                        "success": True},
    "nation_activated": {"nation": "denmark", "why": "10.1"},
    "rp_level": {"nation": "russia", "level": 16, "why": "11.8"},
    "interphase_rp": {"nation": "russia", "level": 24, "rp": 8, "half": True, "bonus": 4,
                      "year_track": 8, "build": 3, "attrition": -4},
    "attrition_marker": {"count": 2, "row": "lower", "box": 2, "effects": [
        {"kind": "activation", "nation": "prussia", "modifier": 1},
        {"kind": "defects", "nation": "hannover"}, {"kind": "rp", "nation": "sweden", "change": -4}]},
    "attrition_row": {"row": "upper", "box": 1, "effects": []},
    "nation_defected": {"nation": "hannover", "to": "coalition", "was_active": True, "blocks": 1},
    "built": {"nation": "saxony", "block": "Schulenburg", "territory": "Lausitz", "strength": 4,
              "cost": 10},
    "block_built": {"power": "coalition", "nation": "saxony", "territory": "Lausitz"},
    "build_unaffordable": {"nation": "saxony", "block": "Lubomirski", "cost": 4, "lost": 2},
    "build_undeployable": {"nation": "sweden", "block": "Friedrich IV", "lost": 2},
    "rp_lost": {"nation": "denmark", "rp": 1},
    "restored": {"block": "Prussia", "strength": 3},
    "reform_open": {},
    "reformed": {"block": "Repnin", "territory": "Novgorod", "year": 1705},
    "army_reformed": {"year": 1705},
    "reform_accelerated": {"year": 1704},
    "year_track_arrival": {"block": "Repnin"},
    "reformed_armies_arrive": {"count": 1},
    "fleets_arrive": {"nation": "russia", "count": 2},
    "upgraded": {"territory": "Nyen", "to": "Sankt-Peterburg", "value": 4},
    "fleets_on_year_track": {"year": 1706, "count": 2},
    "fleets_off_year_track": {"count": 2},
    "night_rider_roll": {"roll": 5, "needs": 5, "success": True},
    "night_rider_waits": {},
    "night_rider_returns": {"block": "Karl XII", "territory": "Svealand"},
    "moved": {"origin": "Livland", "path": ["Estland", "Ingermanland"], "blocks": ["Karl XII"],
              "forced": 0},
    "blocks_moved": {"power": "coalition", "origin": "Novgorod", "path": ["Pskov"], "count": 2,
                     "nations": ["russia"]},
    "pinned": {"territory": "Livland", "blocks": ["Dalregementet"]},
    "blocks_pinned": {"territory": "Livland", "count": 2},
    "recon": {"territory": "Pskov", "blocks": BLOCKS},
    "recon_made": {"power": "sweden", "territory": "Pskov"},
    "force_march": {"block": "Karl XII", "roll": 2, "steps_lost": 1},
    "replaced": {"block": "Karl XII", "strength": 4},
    "replacement_made": {"power": "sweden", "territory": "Livland"},
    "siege_declared": {"power": "sweden", "territory": "Estland", "blocks": BLOCKS, "free": True,
                       "excluded": ["Upplands"]},
    "battle": {"territory": "Estland", "defender": "coalition", "attacker": "sweden",
               "blocks": {"sweden": BLOCKS, "coalition": BLOCKS},
               "reserves": {"sweden": 1, "coalition": 0}},
    "reserves_revealed": {"territory": "Estland", "blocks": BLOCKS},
    "fire": {"territory": "Estland", "round": 1, "block": "Karl XII", "rating": "A3",
             "dice": [1, 4, 5], "hits": 1},
    "hit": {"territory": "Estland", "round": 1, "block": "Repnin", "strength": 2,
            "eliminated": False},
    "round_end": {"territory": "Estland", "round": 2},
    "retreated": {"block": "Repnin", "territory": "Estland", "to": "Pskov", "round": 2,
                  "forced": True},
    "block_retreated": {"nation": "russia", "territory": "Estland", "to": "Pskov", "round": 1,
                        "forced": False},
    "retreat_impossible": {"territory": "Estland", "block": "Repnin"},
    "retreat_refused": {"territory": "Estland", "block": "Repnin", "to": "Livland", "round": 2,
                        "forced": False, "why": Why.BORDER_NOT_ALLOWED.value,
                        "code": Why.BORDER_NOT_ALLOWED.name},
    "battle_end": {"territory": "Estland", "winner": "sweden", "rounds": 3},
    "regrouped": {"block": "Karl XII", "territory": "Estland", "to": "Livland"},
    "siege_lifted": {"territory": "Estland", "blocks": ["Karl XII"]},
    "siege_abandoned": {"territory": "Estland"},
    "siege": {"territory": "Estland", "garrison": "Reval", "value": 2, "blocks": BLOCKS},
    "siege_result": {"territory": "Estland", "garrison": "Reval", "hits": 2, "needed": 2,
                     "captured": True},
    "captured": {"territory": "Estland", "garrison": "Reval", "by": "sweden",
                 "control": "sweden"},
    "forage_losses": {"territory": "Kurland", "short": 1, "blocks": ["Sheremetev"]},
    "forage_shortfall": {"power": "coalition", "territory": "Kurland", "steps": 1},
    "eliminated": {"block": "Repnin", "nation": "russia", "territory": "Estland", "fate": "pool"},
    "block_lost": {"nation": "russia", "territory": "Estland"},
    "order_failed": {"order": "recon Pskov", "why": Why.NOT_ADJACENT.value,
                     "code": Why.NOT_ADJACENT.name},
    "truce_due": {"nation": "saxony", "reason": "capital"},
    "truce": {"nation": "denmark", "reason": "royal", "until": 1715},
    "truce_to_pool": {"territory": "Jylland", "blocks": ["Rantzau", "Fynske"]},
    "truce_to_pool_count": {"power": "coalition", "territory": "Jylland", "count": 2},
    "marker_removed": {"territory": "Skåne", "nation": "denmark", "control": "sweden"},
    "evicted": {"territory": "Jylland", "to": "Holstein-Gottorp", "blocks": ["Dalregementet"]},
    "blocks_evicted": {"power": "sweden", "territory": "Jylland", "to": "Holstein-Gottorp",
                       "count": 1, "nations": ["sweden"]},
    "truce_offered": {"power": "coalition", "nation": "denmark"},
    "no_winter_campaign": {},
    "ceded": {"territory": "Bremen-Verden", "nation": "hannover", "rp": 36},
    "polish_capitals_lost": {"rp": 12},
    "polish_capitals_regained": {"rp": 16},
    "austro_turkish_war": {"roll": 6, "war": True},
    "christian_solidarity": {"choice": "truce", "nation": "ottoman", "default": True},
    "ukraine_pacified": {"rp": 24},
    "placed": {"block": "Hannover", "territory": "Hannover"},
    "winter_campaign": {"territory": "Livland", "count": 3},
    "winter_losses": {"blocks": [{"block": "Karl XII", "strength": 3, "eliminated": False},
                                 {"block": "Upplands", "strength": 0, "eliminated": True}]},
    "winter_losses_count": {"territory": "Livland", "steps": 3},
    "sailed": {"origin": "Kattegat", "path": ["Southern Baltic Sea", "Gulf of Finland"],
               "fleets": ["Wachtmeister"], "cargo": ["Karl XII"]},
    "fleets_sailed": {"power": "sweden", "origin": "Kattegat", "to": "Gulf of Finland",
                      "count": 2, "cargo": 3},
    "embarked": {"territory": "Skåne", "sea": "Kattegat", "blocks": ["Karl XII"],
                 "fleets": ["Wachtmeister"]},
    "blocks_embarked": {"power": "sweden", "territory": "Skåne", "sea": "Kattegat", "count": 1},
    "landed": {"sea": "Gulf of Finland", "territory": "Ingermanland", "blocks": ["Karl XII"]},
    "blocks_landed": {"power": "sweden", "sea": "Gulf of Finland", "territory": "Ingermanland",
                      "count": 3},
    "fleet_expelled": {"territory": "København", "sea": "Kattegat", "nation": "denmark"},
    "fleet_lost": {"territory": "Kattegat", "nation": "denmark"},
    "victory": {"winner": "sweden", "level": "minor", "result": "Swedish Minor Victory",
                "condition": "20-36 RP", "reason": "scenario_end", "rp": 28, "occupied": [],
                "karl_xii_lost": False},
    "victory_penalty": {"key": "mein_schatz", "rule": "3CG 11.5", "rp": 4,
                        "territories": ["Livland"]},
}
VICTORIES = [  # every way a game ends (rules/victory.py)
    {"winner": "coalition", "level": "triumphant", "reason": "sweden_truce", "rp": None},
    {"winner": "sweden", "level": "triumphant", "reason": "coalition_truce", "rp": None},
    {"winner": "sweden", "level": "major", "reason": "scenario_end", "rp": None,
     "result": "Swedish Major Victory", "condition": "Christiania and Trondheim",
     "occupied": ["Akershus", "Trondhjem"]},
    {"winner": "coalition", "level": "major", "reason": "scenario_end", "rp": None,
     "result": "Allied Major Victory", "condition": "Nothing and lost Karl XII",
     "occupied": [], "karl_xii_lost": True},
    {"winner": "coalition", "level": "historical", "reason": "scenario_end", "rp": 16,
     "result": "Allied Historical Victory", "condition": "16 RP"},
    {"winner": "tie", "level": "none", "reason": "no_row", "rp": 14},
]
# Words that betray an English sentence left in the French template.
ENGLISH = re.compile(r"\b(the|was|is|lost|loses|from|rolls?|moves?d?|not|and|of|to|"
                     r"block|blocks|step|steps|receives|nobody)\b")


def emitted_types() -> set[str]:
    found: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        found |= set(re.findall(r'emit\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    return found


def line(lang: str, type_: str, data: dict) -> str:  # type: ignore[type-arg]
    module = environment(lang).get_template("baltica/_events.txt.j2").module
    return str(module.line({"type": type_, "data": data}))  # type: ignore[attr-defined]


def test_every_emitted_event_type_has_a_sample() -> None:
    assert emitted_types() - set(SAMPLES) == set()


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("type_", sorted(SAMPLES))
def test_every_event_renders_as_a_sentence(lang: str, type_: str) -> None:
    text = line(lang, type_, SAMPLES[type_])
    assert text.strip(), type_
    assert "untranslated" not in text and "non traduit" not in text, text
    assert "{" not in text and "': " not in text and not text.startswith(type_ + ":"), text
    if lang == "fr":
        assert line("en", type_, SAMPLES[type_]) != text or type_ == "phase", text
        names = re.sub(r"Karl XII|Gulf of Finland|Southern Baltic Sea|Baltic \(.*?\)", "", text)
        assert not ENGLISH.search(names), text
        assert "La suède" not in text and "La coalition" not in text, text


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("data", VICTORIES, ids=lambda d: f"{d['winner']}-{d['level']}")
def test_every_end_of_the_game_is_worded(lang: str, data: dict) -> None:  # type: ignore[type-arg]
    data = {"result": "", "condition": "", "occupied": [], "karl_xii_lost": False} | data
    text = line(lang, "victory", data)
    assert "untranslated" not in text and "non traduit" not in text and "_" not in text, text
    if lang == "fr":
        names = re.sub(r"Karl XII", "", text)
        assert not ENGLISH.search(names) and "Victory" not in text, text


@pytest.mark.parametrize("why", list(Why), ids=lambda w: w.name)
def test_every_refusal_reason_is_worded_in_french(why: Why) -> None:
    text = line("fr", "order_failed", {"order": "recon Pskov", "why": why.value, "code": why.name})
    assert "non traduite" not in text and why.value not in text, text


@pytest.mark.parametrize("what", ["rp_half", "rp_bonus", "activate", "build", "truce",
                                  "reform_accelerated"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_interphase_note_is_worded(what: str, lang: str) -> None:
    text = line(lang, "interphase_due", {"what": what, "nation": "denmark", "rp": 4})
    assert f"{what} for " not in text and f"{what} pour " not in text, text


@pytest.mark.parametrize("reason", ["royal", "capital", "peter_settles", "last_block", "rp_zero",
                                    "surrender", "offered", "austro_turkish_war",
                                    "christian_solidarity", "diplomacy", "aurora_truce"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_truce_reason_is_worded(reason: str, lang: str) -> None:
    module = environment(lang).get_template("baltica/_events.txt.j2").module
    assert reason in module.TRUCE  # type: ignore[attr-defined]
    for type_ in ("truce_due", "truce"):
        text = line(lang, type_, {"nation": "ottoman", "reason": reason, "until": 1715})
        assert module.TRUCE[reason] in text, text  # type: ignore[attr-defined]


def test_every_table_result_is_worded() -> None:
    from gm.games.baltica.board import load_board

    tables = load_board().tables
    for lang in ("en", "fr"):
        module = environment(lang).get_template("baltica/_events.txt.j2").module
        for table in ("event_table", "swedish_event_table", "coalition_event_table",
                      "national_politics_table"):
            assert table in module.TABLES  # type: ignore[attr-defined]
            for face in "123456":
                assert tables[table][face]["id"] in module.RESULTS  # type: ignore[attr-defined]


def test_every_3cg_table_result_and_no_effect_reason_is_worded() -> None:
    """The 3CG tables (3CG 14.1, 14.2) of the 3cg-1.1 ruleset, and the reasons its
    effects give for doing nothing."""
    from gm.games.baltica.board import load_board

    tables = load_board("3cg-1.1").tables
    for lang in ("en", "fr"):
        module = environment(lang).get_template("baltica/_events.txt.j2").module
        for table in ("event_table", "national_events_sweden", "national_events_denmark",
                      "national_events_russia", "national_events_saxony"):
            assert table in module.TABLES  # type: ignore[attr-defined]
            for face in "123456":
                assert tables[table][face]["id"] in module.RESULTS  # type: ignore[attr-defined]
        for reason in ("already_this_year", "not_this_year"):
            assert reason in module.NO_EFFECT  # type: ignore[attr-defined]
        for cause in ("removed_10_5", "out_9_9"):
            assert cause in module.RESULTS  # type: ignore[attr-defined]


def test_the_event_lines_are_one_template_for_every_language() -> None:
    """Issue 20: the sentences go through the catalogue, not through a copy per language."""
    from gm.resources import templates_root

    copies = sorted(p.name for p in (templates_root() / "baltica").glob("*.j2")
                    if re.search(r"\.(en|fr)\.txt\.j2$", p.name))
    assert copies == [], "a copy per language: translate through the catalogue instead"


COUNTS = ("count", "steps", "hits", "rounds", "left", "needed", "cargo", "rp", "steps_lost",
          "lost", "short", "turns", "blocks")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_count_agrees_with_its_words(lang: str) -> None:
    """Issue 20: a count goes through ngettext, never "block(s)" or "bloc(s)"."""
    for type_, data in SAMPLES.items():
        for key in COUNTS:
            if isinstance(data.get(key), int) and not isinstance(data.get(key), bool):
                for n in (1, 2):
                    text = line(lang, type_, data | {key: n})
                    assert not re.search(r"\((s|ies|e|es)\)", text), text


def test_the_nation_agrees_with_the_count_and_the_noun() -> None:
    """The adjective comes from nations.toml words and agrees in French ("2 flottes
    russes"); English says the same with its one form."""
    moved = SAMPLES["blocks_moved"]
    assert line("en", "blocks_moved", moved | {"count": 1}) == (
        "The Coalition: 1 Russian block moved from Novgorod to Pskov.")
    assert line("fr", "blocks_moved", moved | {"count": 1}) == (
        "La Coalition : 1 bloc russe déplacé de Novgorod vers Pskov.")
    assert line("fr", "blocks_moved", moved | {"count": 2, "nations": ["saxony"]}) == (
        "La Coalition : 2 blocs saxons déplacés de Novgorod vers Pskov.")
    assert line("fr", "navy_founded", {"nation": "denmark", "count": 2}) == (
        "Saint-Pétersbourg est fondée : 2 flottes danoises rejoignent la réserve (3CG 11.2).")
    assert line("fr", "rp_lost", {"nation": "denmark", "rp": 1}) == (
        "1 PR du Danemark n’est pas dépensé : il est perdu (8.2).")
    assert line("en", "rp_lost", {"nation": "ottoman", "rp": 2}) == (
        "2 RPs of the Ottoman Empire are not spent and are lost (8.2).")
    assert line("fr", "ceded", SAMPLES["ceded"]).startswith(
        "La Suède cède Bremen-Verden au Hanovre, ")


def test_french_says_a_sea_in_french_and_elides_de_before_a_vowel() -> None:
    """Issue 20: "débarque de Gulf of Finland", "Bataille de Estland" read as French: the
    sea's French name from map.toml words, "d'" before a territory starting with a vowel
    (module.py place_forms, the one rule); English keeps "from Gulf of Finland"."""
    from gm.games.baltica.module import BalticaModule, place_forms

    landed = {"sea": "Gulf of Finland", "territory": "Ingermanland", "blocks": ["Karl XII"]}
    assert line("fr", "landed", landed) == "Karl XII débarque du golfe de Finlande en Ingermanland."
    assert line("en", "landed", landed) == "Karl XII lands from Gulf of Finland in Ingermanland."
    battle = SAMPLES["battle"]
    assert line("fr", "battle", battle).startswith("Bataille d'Estland : ")
    assert line("en", "battle", battle).startswith("Battle of Estland: ")
    assert line("fr", "battle", battle | {"territory": "Livland"}).startswith("Bataille de Livland : ")
    assert place_forms("Östergötland", "fr")["of"] == "d'Östergötland"
    assert place_forms("Ingermanland", "en")["from"] == "from Ingermanland"
    seas = BalticaModule().words("fr")["place"]
    assert seas["Gulf of Finland"]["name"] == "Golfe de Finlande"
    assert seas["Southern Baltic Sea"]["in"] == "en Baltique méridionale"


def test_a_french_report_of_a_siege_says_d_uleaborg() -> None:
    """docs/architecture.md, "Adding a language": the word before a value is elided before
    its vowel. A Russian siege of Uleåborg (Österbotten) on the real board, its events and
    rolls as the engine records them, in the report the service renders: it said "Siège de
    Uleåborg", "la garnison de Uleåborg", "siège de Österbotten, la garnison tire"."""
    from gm.games.baltica.board import load_board
    from gm.games.baltica.rules.siege import resolve_sieges
    from gm.games.baltica.state import SiegeState
    from gm.games.registry import get
    from gm.i18n import translate
    from gm.service.render import render
    from tests.rules.baltica.baltica_boards import make_state, make_world

    board = load_board()
    state = make_state(board, {"sheremetev": ("osterbotten", 4)})
    world = make_world(board, state, [6, 1, 2, 3, 4])  # the garrison misses; 2 hits take it
    state.turn.sieges = [SiegeState("osterbotten", "coalition", ["sheremetev"])]
    resolve_sieges(world)
    module = get("baltica")
    view = module.view(module.setup("12.1", {}), "sweden")
    events = [{"type": e.type, "data": e.data} for e in world.events]
    fr = render("report", "fr", "baltica", game_only=True, view=view, events=events, power="sweden")
    assert "Siège d'Uleåborg (Österbotten, garnison 1)." in fr, fr
    assert "round 1 : la garnison d'Uleåborg (C1) lance 6 : 0 touche." in fr, fr
    rolls = [translate(r.purpose, "fr") for r in world.dice.rolls[:2]]
    assert rolls == ["siège d'Österbotten, la garnison tire", "siège d'Uleåborg, Sheremetev tire"]
    en = render("report", "en", "baltica", game_only=True, view=view, events=events, power="sweden")
    assert "Siege of Uleåborg (Österbotten, garrison 1)." in en, en
