"""A French elision reads as the word it stands for (orders.md §8): "d'Islande" as "de Islande".

French elides "de" before a vowel, and gm's French reports write so ("Rouge voyage
d'Islande", docs/architecture.md "Elision"); a player who wrote "voyager d'Islande vers
Norvège", or copied a report's words into an order, was refused ("non compris"), a round
of mail lost. Here every game's own parse (``module.parse_orders`` on a real scenario
state), over real lines: each French line the game reads with "de", "le", "la" or "que"
before a name that starts with a vowel (every such name and alias of the data, in the
orders that write "de" before a name) is written elided, with "'" and with the "’" a phone
types, and must read as the same order. Names and keywords that hold an elision themselves
("Mer d'Arabie", "pertes d'abord") still read, and English lines are read as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from gm.games import registry
from gm.games.baltica import parsing as baltica
from gm.games.britannica import parser as britannica
from gm.games.viking import parsing as viking
from gm.orders.elision import Elisions
from tests.games.test_names_read_unquoted import _read as read

_VOWELS = "aeiouàâäåæéèêëîïôöøœùûüAEIOUÀÂÄÅÆÉÈÊËÎÏÔÖØŒÙÛÜ"
_BEFORE_VOWEL = re.compile(rf"\b(de|le|la|que)\s+(?=[{_VOWELS}])", re.IGNORECASE)
"""The words French elides (gm.l10n.ELIDED) before a word that starts with a vowel."""
APOSTROPHES = ("'", "’")


def elided(line: str, apostrophe: str) -> str:
    """``line`` as a French player writes it: "de Islande" as "d'Islande", "la Italie" as
    "l'Italie"."""
    return _BEFORE_VOWEL.sub(lambda m: m.group(1)[:-1] + apostrophe, line)


def unread_when_elided(module: Any, state: dict[str, Any], power: str,
                       lines: Iterable[str]) -> tuple[int, list[str]]:
    """How many elided lines were tried, and those not read as their unelided line (the
    lines the game reads that elide nothing are skipped)."""
    tried, unread = 0, []
    for line in lines:
        want = read(module, state, power, line)
        if isinstance(want, str) or not _BEFORE_VOWEL.search(line):
            continue
        for apostrophe in APOSTROPHES:
            tried += 1
            got = read(module, state, power, elided(line, apostrophe))
            if got != want:
                unread.append(str(got))
    return tried, unread


def vowel_names(spellings: Iterable[str]) -> list[str]:
    return sorted({s for s in spellings if s[:1] in _VOWELS})


def _lines(templates: Iterable[tuple[str, Iterable[str]]]) -> list[str]:
    return [template.format(name) for template, names in templates for name in names]


def _baltica() -> tuple[Any, dict[str, Any], str, list[str]]:
    module = registry.get("baltica")
    state = module.setup("12.1", {})
    slots = baltica.context_for(module.board_of(state), state, "sweden", "fr").names
    territories, waters, seas, blocks, nations = (vowel_names(slots[s].spellings) for s in
                                                  ("territory", "waters", "sea", "block", "nation"))
    return module, state, "sweden", _lines((
        ("déplacer de {} : Karl XII vers Livland", territories),
        ("déplacer Karl XII de {} vers Livland", territories),
        ("attaque principale Livland de {}", territories),
        ("embarquer Karl XII de {} sur Wachtmeister", territories),
        ("naviguer Wachtmeister de {} vers Golfe de Riga", waters),
        ("débarquer Karl XII de {} vers Estland", seas),
        ("retraite Karl XII vers Livland si force de {} <= 1", blocks),
        ("offre de trêve {}", nations)))


def _viking() -> tuple[Any, dict[str, Any], str, list[str]]:
    module = registry.get("viking")
    state = module.setup("2p", {})
    places = vowel_names(viking.context_for(module.data, state, "red", "fr").names["place"].spellings)
    return module, state, "red", _lines((("voyager de {} vers Norvège", places),
                                         ("jarlat de {} vers Svir", places)))


def _britannica() -> tuple[Any, dict[str, Any], str, list[str]]:
    module = registry.get("britannica")
    n = britannica.names()
    areas, seas, powers = (vowel_names(i.spellings) for i in (n.areas, n.seas, n.powers))
    return module, module.setup("1880", {}), "france", _lines((
        ("déplacer armée 3 de {} vers Soudan", areas),
        ("déplacer flotte 3 de {} vers Méditerranée", seas),
        ("marchande de {} vers Tunis", seas),
        ("retraite armée 3 de {} vers Soudan", areas),
        ("placer influence au Maroc si la {} ne place pas de contrôle au Maroc", powers),
        ("acheter armée 3 sauf si le {} achète une flotte", powers),
        ("déclarer la guerre contre la {}", powers)))


GAMES: dict[str, Callable[[], tuple[Any, dict[str, Any], str, list[str]]]] = {
    "baltica": _baltica, "viking": _viking, "britannica": _britannica}


@pytest.mark.parametrize("game", GAMES)
def test_8_every_elided_de_reads_as_de_in_every_game(game: str) -> None:
    """orders.md §8: "Every keyword has a French form, accents optional"; French writes the
    keyword "de" elided before a vowel. Each line below read as "de Estland" was refused as
    "d'Estland" (Pax Baltica: "unknown territory", Pax Britannica: "not understood")."""
    module, state, power, lines = GAMES[game]()
    tried, unread = unread_when_elided(module, state, power, lines)
    assert tried >= 40, tried  # the lines are real: the game reads them unelided
    assert unread == []


@pytest.mark.parametrize(("game", "written", "as_read"), [
    ("baltica", "déplacer d’Estland : Karl XII vers Livland", "déplacer de Estland : Karl XII vers Livland"),
    ("baltica", "pertes d’abord Karl XII", "hits prefer Karl XII"),
    ("baltica", "campagne d'hiver : déplacer d'Estland : Karl XII vers Livland",
     "winter campaign: move from Estland: Karl XII to Livland"),
    ("baltica", "remplacer Karl XII jusqu’à 3", "replace Karl XII to 3"),
    ("viking", "voyager d'Île d’Islande vers Norvège", "voyager de Île d'Islande vers Norvège"),
    ("viking", "voyager d’Xi'an vers Norvège", "voyager de Chang'an vers Norvège"),
    ("britannica", "déplacer flotte 3 d'océan Indien vers Mer d’Arabie",
     "déplacer flotte 3 de océan Indien vers Mer d'Arabie"),
    ("britannica", "déplacer armée 3 d’État libre d’Orange vers Côte-de-l’Or",
     "déplacer armée 3 de État libre d'Orange vers Côte-de-l'Or"),
    ("britannica", "s'opposer à USA", "object to USA"),
])
def test_a_name_or_keyword_that_holds_an_elision_reads_as_printed(game: str, written: str,
                                                                  as_read: str) -> None:
    """The names of the data that hold "d'" or "l'" themselves (Pax Britannica's "Mer
    d'Arabie", "État libre d'Orange", "Côte-de-l'Or"; Pax Viking's "Île d'Islande") and the
    keywords that do ("pertes d'abord", "campagne d'hiver", "jusqu'à", "s'opposer") are read
    as printed, with either apostrophe, next to an elided "d'" that is written out."""
    module, state, power, _ = GAMES[game]()
    got = read(module, state, power, written)
    assert not isinstance(got, str), got
    assert got == read(module, state, power, as_read)


def test_a_treatys_terms_keep_their_elisions_as_written() -> None:
    """A treaty's terms are the player's own words (orders.md §6), kept verbatim: its
    "d'Égypte" is not written out, while the line around it reads."""
    module, state, _, _ = _britannica()
    got = read(module, state, "france",
               "traité « Entente d’Afrique » secret entre France, Italie : pas d'attaque d’Égypte")
    assert (got.name, got.text) == ("Entente d'Afrique", "pas d'attaque d’Égypte"), got


@pytest.mark.parametrize("line", [
    "I don't know yet", "Britain won't move", "O'Brien's orders follow",
    "sign treaty \"Gentlemen's Agreement\"", "buy Bragi's Verse", "it's Karl XII's turn",
])
def test_an_english_line_with_an_apostrophe_is_read_as_written(line: str) -> None:
    """Only a whole "d'" or "qu'" before a letter is a French elision: an English line's
    apostrophes ("don't", "O'Brien", "Bragi's") are left as they are, with no name kept."""
    assert Elisions(()).read(line) == line
    assert Elisions(()).read(line.replace("'", "’")) == line.replace("'", "’")


def test_an_english_order_with_an_apostrophe_reads_as_before() -> None:
    """A Pax Viking tile whose name holds an apostrophe ("Bragi's Verse") and a treaty name
    in English read unchanged; an English sentence with "don't" stays prose."""
    module, state, _, _ = _viking()
    state["discard"] = list(module.data.tiles)
    assert "Bragi's Verse" in str(read(module, state, "red", "buy Bragi's Verse"))
    module, state, _, _ = _britannica()
    got = read(module, state, "britain", 'sign treaty "Gentlemen\'s Agreement"')
    assert got.name == "Gentlemen's Agreement", got
    assert read(module, state, "britain", "I don't know yet").endswith(": prose")
