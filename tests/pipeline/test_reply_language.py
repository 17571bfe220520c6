"""Messages built in code are said in the seat's language (orders.md §8).

The French catalogue (gm/locale/fr.toml) must hold every message the code
builds with :func:`gm.i18n.msg`, the envelope's problems, the verdicts and the
grammars' name slots, each with the same placeholders; and nothing else, so
that a message edited in the code is not silently left untranslated.
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import gm
import gm.games.registry
from gm.games.base import Verdict
from gm.i18n import catalogue, msg, translate, vocabularies
from gm.orders.envelope import Problem
from tests.pipeline.conftest import deliver, mail, outbox

SLOTS = {"name", "territory", "sea", "nation", "block", "area", "sea zone", "power",
         "tile", "post", "place", "choice"}


def _templates_in_code() -> set[str]:
    found: set[str] = set()
    for path in Path(gm.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "msg"
                    and node.args and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                found.add(node.args[0].value)
    return found


def _vocabulary_messages() -> set[str]:
    for name in gm.games.registry.names():
        gm.games.registry.get(name)  # importing a game registers its vocabularies
    return {member.value for enum in vocabularies() for member in enum}


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_every_message_of_the_code_has_its_french_with_the_same_placeholders() -> None:
    wanted = (_templates_in_code() | _vocabulary_messages() | {p.value for p in Problem}
              | {v.value for v in Verdict} | SLOTS)
    fr = catalogue("fr")
    assert sorted(wanted - fr.keys()) == []
    assert sorted(fr.keys() - wanted) == [], "catalogue entries no code uses any more"
    for english, french in fr.items():
        assert _fields(english) == _fields(french), english


def test_a_message_is_english_until_translated_and_translates_its_nested_messages() -> None:
    text = msg("unknown {slot} {text!r}", slot=msg("territory"), text="Skone")
    assert text == "unknown territory 'Skone'"
    assert translate(text, "fr") == "territoire introuvable : 'Skone'"
    assert translate(text, "en") == "unknown territory 'Skone'"
    assert translate("a line the player wrote", "fr") == "a line the player wrote"


def test_a_french_seat_is_told_in_french_what_was_refused(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER south s-secret\nSET TIMEZONE Mars/Olympus\nadvance 2\n",
                       sender="south@example.org"))
    deliver(race, mail("GAME race1\nPOWER south s-secret\nPHASE turn-9\nadvance 1\n",
                       sender="south@example.org"))
    first, second = (text for _, text in outbox(race, kind="reply"))
    assert "'Mars/Olympus' n'est pas un fuseau horaire" in first
    assert "south : 1 ordre(s) enregistré(s)" in first
    assert "votre ligne PHASE indique turn-9 mais la phase ouverte est turn-1" in second
    assert "is not a time zone" not in first + second and "PHASE line" not in second


def test_an_english_seat_still_reads_english(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER north n-secret\nSET TIMEZONE Mars/Olympus\n"))
    [(_, text)] = outbox(race, kind="reply")
    assert "'Mars/Olympus' is not a time zone" in text


def test_a_line_the_grammar_does_not_understand_is_explained_in_french() -> None:
    from gm.games.registry import get as get_module
    from gm.orders.model import LineError, SourceLine

    module = get_module("baltica")
    state = module.setup("12.1", {})
    result = module.parse_orders(state, "sweden", [SourceLine(1, "voler Livland"),
                                                   SourceLine(2, "recon Livlandd")])
    reasons = [translate(r.reason, "fr") for r in result.lines if isinstance(r, LineError)]
    assert reasons[0].startswith("commande inconnue 'voler'"), reasons
    assert reasons[1].startswith("territoire introuvable : 'Livlandd'"), reasons


def test_a_pax_viking_refusal_is_said_in_french() -> None:
    """Viking's validation reasons and name slots come from the same catalogue."""
    from gm.dice import Dice
    from gm.games.registry import get as get_module
    from gm.orders.model import SourceLine

    module = get_module("viking")
    state = module.setup("3p", {})
    state = module.adjudicate(state, {}, Dice(seed=b"\x02" * 32, game_id="t",
                                              phase_id="setup")).state
    p = state["powers"][0]
    result = module.parse_orders(state, p, [SourceLine(1, "parley Birka"),
                                            SourceLine(2, "jouer Tuilez")])
    [v] = module.validate(state, p, [result.lines[0].order])
    assert translate(v.reason, "fr") == "vous n'avez aucun drakkar sur Birka"
    # issue 20: "tuile inconnu" did not agree; "introuvable" agrees with any slot's gender
    assert translate(result.lines[1].reason, "fr").startswith("tuile introuvable : 'Tuilez'")
