"""Every mail, rendered in French, holds no English sentence, and the reverse.

The catalogue check (test_catalogues.py) proves each message has a French
entry; this one proves the templates ask the catalogue for every sentence they
print: a sentence written straight into a template, outside ``{% trans %}`` or
``_()``, shows up here as English in the French mail.
"""

from __future__ import annotations

import re

import pytest

from gm.resources import templates_root
from gm.service.render import environment, render
from tests.i18n.samples import MAIL
from tests.i18n.scan import english_lines, french_lines, visible_text

MAIL_DIR = templates_root() / "mail"


def _documents() -> list[tuple[str, str]]:
    found = []
    for path in sorted(MAIL_DIR.glob("*.j2")):
        if path.name.startswith("_"):
            continue
        name, kind = re.fullmatch(r"(\w+)\.(txt|html)\.j2", path.name).groups()  # type: ignore[union-attr]
        found.append((name, kind))
    return found


def test_each_mail_document_is_one_template_for_every_language() -> None:
    copies = [p.name for p in MAIL_DIR.glob("*.j2") if re.search(r"\.(en|fr)\.(txt|html)\.j2$", p.name)]
    assert copies == [], "a copy per language: translate through the catalogue instead"
    assert {name for name, _ in _documents()} == set(MAIL), "give a new document its sample"


def _rendered(name: str, kind: str, lang: str) -> list[str]:
    out = []
    for context in MAIL[name](lang):
        text = render(name, lang, None, kind=kind, **context)
        out.append(visible_text(text) if kind == "html" else text)
    return out


@pytest.mark.parametrize(("name", "kind"), _documents())
def test_a_french_mail_has_no_english_sentence(name: str, kind: str) -> None:
    for text in _rendered(name, kind, "fr"):
        assert english_lines(text) == [], text


@pytest.mark.parametrize(("name", "kind"), _documents())
def test_an_english_mail_has_no_french_sentence(name: str, kind: str) -> None:
    for text in _rendered(name, kind, "en"):
        assert french_lines(text) == [], text


def test_the_scan_finds_an_english_line_planted_in_a_french_mail() -> None:
    """The detector is not blind: a sentence a template prints without the
    catalogue is caught, and the translated line next to it is not."""
    planted = environment("fr").from_string(
        '{{ _("Deadline: %(when)s", when="x") }}\nThe deadline of this phase has moved.\n')
    text = planted.render()
    assert text.startswith("Date limite : x")
    assert english_lines(text) == ["The deadline of this phase has moved."]
    assert french_lines("Deadline: x\nLa date limite de cette phase a changé.") == [
        "La date limite de cette phase a changé."]


@pytest.mark.parametrize("game", ["baltica", "britannica", "viking"])
def test_help_reads_in_the_language_asked_for(game: str) -> None:
    """HELP and each HELP topic, French and English; the examples are order lines a
    player may send as they are, so they are left out of the scan."""
    from gm.games.registry import get
    from gm.orders.help import topics_of

    module = get(game)
    for topic in [None, *topics_of(game)]:
        for lang, scan in (("fr", english_lines), ("en", french_lines)):
            text = module.help(lang, topic)
            prose = text.split("\nExemples :\n")[0].split("\nExamples:\n")[0]
            assert scan(prose) == [], (lang, topic, text)
