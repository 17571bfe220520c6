"""The catalogues hold every message gm says, translated, and nothing else.

Babel's extraction (what ``scripts/i18n extract`` runs, here in-process) finds
the messages of the code (``msg``, ``plural``, ``N_``, the values of
``@vocabulary`` Enums) and of the templates (``{% trans %}``, ``_()``); each must
have its French, not fuzzy, with the same placeholders; an entry no code says
any more must be gone (``scripts/i18n update`` drops it).
"""

from __future__ import annotations

import re
import shlex

import gm.games.registry
from gm.games.base import Verdict
from gm.i18n import languages, vocabularies
from gm.orders.envelope import Problem
from gm.resources import project_root
from tests.i18n.catalogues import entries, extracted, forms, key, placeholders

TRANSLATED = [lang for lang in languages() if lang != "en"]


def test_french_is_a_language_gm_offers() -> None:
    assert "fr" in TRANSLATED


def test_every_message_of_the_code_and_templates_has_its_translation() -> None:
    wanted = {key(m) for m in extracted() if m.id}
    for language in TRANSLATED:
        po = entries(language)
        have = {key(m): m for m in po if m.id}
        assert sorted(wanted - have.keys()) == [], f"{language}: not in the catalogue"
        assert sorted(m for m, e in have.items() if e.fuzzy) == [], f"{language}: fuzzy"
        assert sorted(m for m, e in have.items() if not all(forms(e))) == [], \
            f"{language}: untranslated"
        assert sorted(have.keys() - wanted) == [], f"{language}: entries no code says any more"
        assert list(po.obsolete) == [], f"{language}: obsolete entries (#~) left in the file"


def test_a_translation_keeps_the_placeholders_of_its_english() -> None:
    for language in TRANSLATED:
        for m in entries(language):
            if not m.id:
                continue
            english = m.id if isinstance(m.id, str) else m.id
            wanted = set().union(*(placeholders(e) for e in
                                   (english if isinstance(english, tuple | list) else (english,))))
            for form in forms(m):
                # a singular form may leave the count out ("un seul ordre")
                assert placeholders(form) <= wanted and wanted - {"n"} <= placeholders(form), \
                    (language, m.id, form)


def test_a_plural_has_the_forms_its_language_counts() -> None:
    for language in TRANSLATED:
        po = entries(language)
        for m in po:
            if m.id and m.pluralizable:
                assert len(forms(m)) == po.num_plurals, (language, m.id)


def test_the_extractor_finds_the_closed_lists_of_messages() -> None:
    """Vocabularies (a game's reasons), envelope problems and verdicts are messages
    too, though no msg() call names them: the extractor must see every one that
    the running code registers."""
    for name in gm.games.registry.names():
        gm.games.registry.get(name)  # importing a game registers its vocabularies
    running = ({member.value for enum in vocabularies() for member in enum}
               | {p.value for p in Problem} | {v.value for v in Verdict})
    assert sorted(running - {key(m) for m in extracted() if m.id}) == []


def test_scripts_i18n_extracts_with_the_keywords_the_tests_use() -> None:
    from gm.i18n_extract import KEYWORDS

    script = (project_root() / "scripts" / "i18n").read_text(encoding="utf-8")
    line = next(raw for raw in script.splitlines() if " extract " in raw and "-k" in raw)
    words = shlex.split(line.rstrip("\\ "))
    named = {re.sub(r":.*", "", words[i + 1]) for i, w in enumerate(words) if w == "-k"}
    assert named and named <= KEYWORDS.keys()
    assert {"msg", "plural", "N_"} <= named


def test_the_extractor_misses_no_message_the_code_writes() -> None:
    """Babel's Python extractor reads tokens, and on Python 3.11 an f-string is one
    token: a msg() inside one would never reach the catalogue. Every literal msg(),
    plural() and N_() call the syntax tree holds must have been extracted."""
    import ast
    from pathlib import Path

    import gm

    written: set[str] = set()
    for path in Path(gm.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("msg", "plural", "N_") and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                written.add(node.args[0].value)
    assert sorted(written - {key(m) for m in extracted() if m.id}) == []


def test_a_paragraph_keeps_its_trailing_newline_in_translation() -> None:
    """A {% trans %} paragraph ends with a newline the mail's layout counts on."""
    for language in TRANSLATED:
        for m in entries(language):
            if m.id:
                ends = key(m).endswith("\n")
                assert all(form.endswith("\n") == ends for form in forms(m)), (language, m.id)
