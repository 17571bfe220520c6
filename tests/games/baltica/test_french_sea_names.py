"""Pax Baltica's sea zones by their French names (map.toml ``words.fr``, orders.md §3, §8).

A French seat's report names the seas in French ("le golfe de Finlande"), but its orders
could not: ``naviguer Wachtmeister de Baltique méridionale vers Golfe de Finlande`` was
refused "non compris à 'de'", the "de" inside the name read as the keyword of "naviguer
BLOCS de EAUX" (only a quoted "Golfe de Finlande" was read). Now a sea's name is read
whole wherever an order names a sea zone (9.1 sail, 9.2 land, 5.6 retreat, with or
without a condition), with or without accents, in any case. An English seat reads the
English names as before.
"""

from __future__ import annotations

from typing import Any

import pytest

from gm.games.baltica import module, parsing
from gm.games.baltica.board import load_board
from gm.games.baltica.orders import Land, Retreat, Sail
from gm.i18n import translate
from gm.orders.conditions import Conditional
from gm.orders.model import ParsedOrder, SourceLine
from gm.orders.names import strip_accents

BOARD = load_board()
STATE = module.setup("12.1", {})  # Sweden's Karl XII in Skåne, Wachtmeister at sea off it
SEAS = list(BOARD.seas.values())
FRENCH = {z.name: z.words["fr"]["name"] for z in SEAS}


def read(line: str, language: str = "fr") -> Any:
    """The order Sweden's line is read as (a line not read fails the test)."""
    [result] = parsing.parse_lines(BOARD, STATE, "sweden", [SourceLine(1, line)], language).lines
    assert isinstance(result, ParsedOrder), (line, translate(getattr(result, "reason", ""), "en"))
    return result.order


def test_the_names_that_hold_a_keyword_are_the_gulfs_and_one_english_alias() -> None:
    """What the tests below are about. Of every spelling the orders read (territories and
    sea zones with their aliases, blocks, nations, in both rulesets), only the gulfs hold a
    keyword of the grammar: French "de" (read inside a sea's name, baltica.lark
    ``sea_name``) and English "of" (a keyword only after "strength", never after a name).
    No French territory, block or nation name does. "Bremen and Verden", an English
    alias, must still be quoted (its "and" is a condition's)."""
    keywords = {t.pattern.value.lower() for t in parsing.GRAMMAR.parser().terminals
                if t.pattern.type == "str"}
    found = set()
    for ruleset in ("gmt-2012", "3cg-1.1"):
        board = load_board(ruleset)
        for kind in ("territory", "sea", "block", "nation"):
            spellings = (parsing.names_with_aliases(board, kind) if kind in ("territory", "sea")
                         else board.names(kind))
            for names in spellings.values():
                for n in names:
                    words = strip_accents(n).lower().replace("’", "'").split()
                    if len(words) > 1 and keywords & set(words):
                        found.add(n)
    assert sorted(found) == ["Bremen and Verden", "Golfe de Botnie", "Golfe de Finlande",
                             "Golfe de Riga", "Gulf of Bothnia", "Gulf of Finland",
                             "Gulf of Riga"]


@pytest.mark.parametrize("sea", SEAS, ids=lambda z: z.name)
def test_rule_9_1_9_2_every_french_sea_name_is_read_in_every_order_that_names_a_sea(sea: Any) -> None:
    """9.1 "sail", 9.2 "land", 5.6 a retreat to a sea zone: the French name (the report's),
    with or without accents, in any case, unquoted, after "de" as after "vers", also before
    a condition and after "si ... alors"."""
    fr = sea.words["fr"]["name"]
    for written in (fr, strip_accents(fr).lower(), fr.upper(), f'"{fr}"'):
        assert read(f"naviguer Wachtmeister de {written} vers {written}") == \
            Sail(("Wachtmeister",), sea.name, sea.name), written
        assert read(f"naviguer Wachtmeister, Wattrang depuis {written} -> {written}") == \
            Sail(("Wachtmeister", "Wattrang"), sea.name, sea.name), written
        assert read(f"débarquer Karl XII de {written} vers Estland") == \
            Land(("Karl XII",), sea.name, "Estland"), written
        assert read(f"retraite Karl XII vers {written}") == Retreat("Karl XII", sea.name)
        conditional = read(f"naviguer Wachtmeister de {written} vers {written} si tour > 1")
        assert isinstance(conditional, Conditional)
        assert conditional.order == Sail(("Wachtmeister",), sea.name, sea.name)
        conditional = read(f"si tour > 1 alors débarquer Karl XII de {written} vers Estland")
        assert isinstance(conditional, Conditional)
        assert conditional.order == Land(("Karl XII",), sea.name, "Estland")


def test_the_english_sea_names_are_read_as_before() -> None:
    """"from" and "de" after the blocks stay keywords: the English orders, and the French
    order with English names, read as they did."""
    assert read("sail Wachtmeister from Gulf of Finland to Baltic", "en") == \
        Sail(("Wachtmeister",), "Gulf of Finland", "Baltic Sea")
    assert read("naviguer Wachtmeister de Southern Baltic vers Gulf of Finland") == \
        Sail(("Wachtmeister",), "Southern Baltic Sea", "Gulf of Finland")
    assert read("land Karl XII from Gulf of Riga to Livland", "en") == \
        Land(("Karl XII",), "Gulf of Riga", "Livland")
