"""A translator adds a language with one .po file and no code (issue 20).

A stub German catalogue, written to a directory of its own and named by
GM_LOCALE_PATH, translates two messages: one a template prints, one the code
builds. German becomes a language gm offers; a German mail says those two in
German, dates in German, and everything else in English, the source language.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gm.i18n import LOCALE_PATH_ENV, languages, msg, reset, translate
from gm.service.render import environment, render
from tests.i18n.samples import MAIL

STUB_PO = r'''
msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\n"
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "Welcome to game %(game)s. You play %(power)s."
msgstr "Willkommen im Spiel %(game)s. Sie spielen %(power)s."

msgid "password changed"
msgstr "Passwort geändert"

msgid "{power}: {n} order stored (added to the earlier ones)"
msgid_plural "{power}: {n} orders stored (added to the earlier ones)"
msgstr[0] "{power}: {n} Befehl gespeichert"
msgstr[1] "{power}: {n} Befehle gespeichert"
'''


@pytest.fixture
def german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    po = tmp_path / "de" / "LC_MESSAGES" / "gm.po"
    po.parent.mkdir(parents=True)
    po.write_text(STUB_PO, encoding="utf-8")
    monkeypatch.setenv(LOCALE_PATH_ENV, str(tmp_path))
    reset()
    environment.cache_clear()
    yield tmp_path
    monkeypatch.delenv(LOCALE_PATH_ENV)
    reset()
    environment.cache_clear()


def test_a_po_file_is_all_a_new_language_needs(german: Path) -> None:
    from gm.i18n import plural

    assert "de" in languages()
    text = render("welcome", "de", None, **MAIL["welcome"]("de")[0])
    assert "Willkommen im Spiel g1. Sie spielen Sweden." in text  # the name, English without a German one
    assert "Send your orders to gm@example.org with these first lines:" in text  # not translated yet
    assert "Mi., 7. Jan. 2026, 12:00 UTC" in text  # dates from CLDR, no catalogue needed
    assert translate(msg("password changed"), "de") == "Passwort geändert"
    assert translate(msg("your orders are final"), "de") == "your orders are final"
    stored = [plural("{power}: {n} order stored (added to the earlier ones)",
                     "{power}: {n} orders stored (added to the earlier ones)", n, power="x")
              for n in (1, 2)]
    assert [translate(s, "de") for s in stored] == ["x: 1 Befehl gespeichert",
                                                    "x: 2 Befehle gespeichert"]


def test_without_its_po_file_the_language_is_not_offered() -> None:
    assert "de" not in languages()
    assert render("calendar", "de", None, **MAIL["calendar"]("de")[0]).startswith(
        "g1: orders for turn-3 due")
