"""Reports say Pax Viking's reasons in the seat's language (orders.md §8).

A refusal in an adjudication is an event whose ``why`` is English and whose
``why_msg`` is the message as data; the French report says it from
gm/locale/fr/LC_MESSAGES/gm.po. Every event type the engine emits has a line in the
report template, said in English and French through the catalogue (no raw ``type:
data`` fallback), and there is one template for every language (issue 20).
"""

from __future__ import annotations

import re
from pathlib import Path

from viking_tables import send, ship, table

import gm.games.viking as viking
from gm.games.viking import module
from gm.resources import templates_root
from gm.service.render import render


def _lines(out, power: str, lang: str) -> str:  # type: ignore[no-untyped-def]
    events = [{"type": e.type, "data": e.data} for e in out.events
              if e.visible_to is None or power in e.visible_to]
    return render("report", lang, "viking", game_only=True, view=module.view(out.state, power),
                  events=events, power=power)


def test_a_refusal_reads_french_in_a_french_report() -> None:
    state = table()
    ship(state, "red", "ladoga")
    out = send(state, {"red": "parley Birka\njourney from Ladoga to Svir, Ladoga, Holmgard, "
                              "Ilmen"})
    fr = _lines(out, "red", "fr")
    assert "Non exécuté : « parlementer Birka » : vous n'avez aucun drakkar sur Birka." in fr
    assert "un voyage fait au plus 3 pas" in fr
    en = _lines(out, "red", "en")
    assert 'Not carried out: "parley Birka": you have no longship on Birka.' in en


def test_every_event_type_has_a_line_in_english_and_french() -> None:
    package = Path(viking.__file__).parent
    code = "\n".join(p.read_text(encoding="utf-8") for p in package.rglob("*.py"))
    emitted = set(re.findall(r'emit\(\s*"([a-z_]+)"', code))
    assert emitted
    text = (templates_root() / "viking" / "_events.txt.j2").read_text(encoding="utf-8")
    handled = set(re.findall(r't == "([a-z_]+)"', text))
    assert sorted(emitted - handled) == []


def test_the_event_lines_are_one_template_for_every_language() -> None:
    """Issue 20: the sentences go through the catalogue, not through a copy per language."""
    copies = sorted(p.name for p in (templates_root() / "viking").glob("*.j2")
                    if re.search(r"\.(en|fr)\.txt\.j2$", p.name))
    assert copies == [], "a copy per language: translate through the catalogue instead"
