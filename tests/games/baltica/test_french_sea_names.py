"""Pax Baltica's sea zones by their French names (map.toml ``words.fr``, orders.md §3, §8).

A French seat's report names the seas in French ("le golfe de Finlande"), but its orders
could not: ``naviguer Wachtmeister de Baltique méridionale vers Golfe de Finlande`` was
refused "non compris à 'de'", the "de" inside the name read as the keyword of "naviguer
BLOCS de EAUX" (only a quoted "Golfe de Finlande" was read). And the echo of its orders
named the seas in English ("naviguer Wachtmeister de Southern Baltic Sea vers Gulf of
Finland"), as did "did you mean". Now a sea's name is read whole wherever an order names
a sea zone (9.1 sail, 9.2 land, 5.6 retreat, with or without a condition), with or without
accents, in any case, and a French seat's echo and suggestions say it in French, in a form
that reads back as the same order. An English seat reads the English names as before.
"""

from __future__ import annotations

from typing import Any

import pytest

from gm.games.baltica import module, parsing
from gm.games.baltica.board import load_board
from gm.games.baltica.orders import Land, Retreat, Sail
from gm.i18n import translate
from gm.orders.conditions import Conditional
from gm.orders.model import LineError, ParsedOrder, SourceLine
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


def refused(line: str) -> LineError:
    [result] = parsing.parse_lines(BOARD, STATE, "sweden", [SourceLine(1, line)], "fr").lines
    assert isinstance(result, LineError), line
    return result


def test_the_names_that_hold_a_keyword_are_the_gulfs_and_one_english_alias() -> None:
    """What the tests below are about. Of every spelling the orders read (territories and
    sea zones with their aliases, blocks, nations, in both rulesets), only the gulfs hold a
    keyword of the grammar: French "de" (read inside a sea's name, baltica.lark
    ``sea_name``) and English "of" (a keyword only after "strength", never after a name).
    No French territory, block or nation name does. "Bremen and Verden", an English
    alias, holds a condition's "and": it is read as printed before the line is parsed
    (tests/games/test_names_read_unquoted.py)."""
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


@pytest.mark.parametrize("sea", SEAS, ids=lambda z: z.name)
def test_rule_9_1_a_french_seats_echo_names_the_seas_in_french_and_reads_back(sea: Any) -> None:
    """§8: the reply says a French seat's orders back in French, its seas by the report's
    French names, and the echo is read again as the same order; English is unchanged."""
    fr = sea.words["fr"]["name"]
    for order, french, english in (
            (Sail(("Wachtmeister",), sea.name, "Baltic Sea"),
             f"naviguer Wachtmeister de {fr} vers Mer Baltique",
             f"sail Wachtmeister from {sea.name} to Baltic Sea"),
            (Land(("Karl XII",), sea.name, "Estland"),
             f"débarquer Karl XII de {fr} vers Estland",
             f"land Karl XII from {sea.name} to Estland"),
            (Retreat("Karl XII", sea.name), f"retraite Karl XII vers {fr}",
             f"retreat Karl XII to {sea.name}")):
        assert translate(order.echo(), "fr") == french
        assert read(french) == order
        assert translate(order.echo(), "en") == english == order.echo()


def test_a_misspelt_sea_is_offered_by_its_french_name() -> None:
    """§2: "did you mean" names the sea as the seat's report does."""
    error = refused("naviguer Wachtmeister de Golfe de Finlnde vers Mer Baltique")
    assert translate(error.reason, "fr") == \
        "lieu introuvable : 'Golfe de Finlnde' ; vouliez-vous dire Golfe de Finlande ?"
    assert translate(error.reason, "en") == \
        "unknown place 'Golfe de Finlnde': did you mean Gulf of Finland?"
    error = refused("débarquer Karl XII de Golfe vers Estland")
    assert translate(error.reason, "fr") == ("mer : le nom 'Golfe' est ambigu, il correspond à "
                                             "Golfe de Botnie, Golfe de Finlande, Golfe de Riga")
