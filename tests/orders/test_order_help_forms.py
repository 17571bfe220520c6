"""A game's orders in HELP bracket what the order may leave out (docs/orders.md, "HELP
<topic>"), as the commands do (tests/orders/test_player_help.py).

Before: HELP showed one expansion of each order's rule, so an optional part looked
required or was missing: Pax Viking's ``accept N`` ("N, optional", its doc said), ``parley
POST challenge PLAYER``, and in French ``jouer TUILE sur POSTE`` without its choices; Pax
Baltica's ``politics <nation> <targets>``. What another expansion of the rule leaves out
(Lark writes ``x?`` as two) is now in brackets; each line here, with and without the part
in brackets, is read by the game's parser as that very order.
"""

from __future__ import annotations

import re

import pytest
from lark import Tree

from gm.games.registry import get
from gm.orders.help import command_help, help_text, load_docs

CASES = [
    ("viking", "en", "accept", "accept [N]", ["accept", "accept 2"]),
    ("viking", "en", "refuse", "refuse [N]", ["refuse", "refuse 2"]),
    ("viking", "en", "parley", "parley POST [challenge PLAYER]",
     ["parley Birka", "parley Birka challenge blue"]),
    ("viking", "en", "play", "play TILE [at POST] [: CHOICES]",
     ["play Odin", "play Odin at Birka: silfr"]),
    ("viking", "en", "activate", "activate POST [: CHOICES]",
     ["activate Birka", "activate Birka: silfr"]),
    ("viking", "fr", "play", "jouer TUILE [sur POSTE] [: CHOIX]",
     ["jouer Odin", "jouer Odin sur Birka : silfr"]),
    ("viking", "fr", "accept", "[echange] accepter [N]", ["accepter", "echange accepter 2"]),
    # docs/viking.md: a journey moves "up to 3 steps" (more with an ability that adds
    # steps): HELP showed "PLACE, PLACE, PLACE" as if three were needed; keep, "TILE, TILE"
    ("viking", "en", "journey", "journey [from] PLACE to PLACE [, PLACE ...]",
     ["journey from Ladoga to Holmgard", "journey Ladoga to Holmgard, Smolensk, Kiev"]),
    ("viking", "en", "journey_longship", "journey longship N to PLACE [, PLACE ...]",
     ["journey longship 2 to Holmgard", "journey longship 2 to Holmgard, Smolensk"]),
    ("viking", "en", "keep", "keep TILE [, TILE ...]", ["keep Odin", "keep Odin, Thor, Skald"]),
    ("viking", "fr", "journey", "voyager [depuis] LIEU vers LIEU [, LIEU ...]",
     ["voyager de Ladoga vers Holmgard", "voyager depuis Ladoga vers Holmgard, Smolensk, Kiev"]),
    ("viking", "fr", "journey_longship", "voyager drakkar N vers LIEU [, LIEU ...]",
     ["voyager drakkar 2 vers Holmgard", "voyager drakkar 2 vers Holmgard, Smolensk"]),
    ("viking", "fr", "keep", "garder TUILE [, TUILE ...]", ["garder Odin", "garder Odin, Thor"]),
    ("baltica", "en", "politics", "politics <nation> [<targets>]",
     ["politics Denmark", "politics Denmark target Russia"]),
    ("baltica", "en", "move", "move [from] <territory>: <group> [; <group> ...]",
     ["move Skane: Karl XII to Smaland", "move from Skane: Karl XII to Smaland"]),
]


def _order_read(game: str, line: str) -> str:
    """The order rule the game's parser reads ``line`` as."""
    tree = get(game).order_grammar().parser().parse(line)
    order = tree.children[0]
    assert isinstance(order, Tree) and isinstance(order.children[0], Tree)
    return str(order.children[0].data)


@pytest.mark.parametrize(("game", "language", "rule", "shown", "lines"), CASES)
def test_help_brackets_what_an_order_may_leave_out(game: str, language: str, rule: str,
                                                   shown: str, lines: list[str]) -> None:
    module = get(game)
    assert f"\n  {shown}\n" in help_text(module.order_grammar(), language, game_name=game)
    for line in lines:
        assert _order_read(game, line) == rule, line


# A value for each placeholder a Pax Viking HELP line shows, in English and French.
SAMPLE = {"PLACE": "Birka", "LIEU": "Birka", "POST": "Birka", "POSTE": "Birka", "TILE": "Odin",
          "TUILE": "Odin", "PLAYER": "blue", "JOUEUR": "Bleu", "N": "2", "CHOICES": "silfr",
          "CHOIX": "silfr", "ITEMS": "2 silfr", "OBJETS": "2 silfr"}


def _everything(syntax: str) -> str:
    """A HELP line with each optional part written, each repeat written once more."""
    return syntax.replace(" ...", "").replace("[", "").replace("]", "")


def _nothing_optional(syntax: str) -> str:
    """A HELP line with each optional part left out."""
    before = None
    while before != syntax:
        before, syntax = syntax, re.sub(r"\s*\[[^\[\]]*\]", "", syntax)
    return syntax.strip()


def _filled(syntax: str) -> str:
    """Each placeholder given a value; of ``yes | no``, the first."""
    syntax = re.sub(r"(\w+) \| \w+", r"\1", syntax)
    return re.sub(r"\b[A-Z]+\b", lambda m: SAMPLE.get(m.group(0), m.group(0)), syntax)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_pax_viking_order_form_help_shows_reads_as_that_order(language: str) -> None:
    """Every order line of Pax Viking's HELP, written with all its optional parts and
    repeats and with none of them, is read by the game's parser as the order it documents:
    what HELP shows may be copied as it is."""
    grammar = get("viking").order_grammar()
    entries = command_help(grammar.parser(), "order", load_docs(grammar.grammar_path), language)
    assert {"journey", "keep", "offer"} <= {e.name for e in entries}
    for entry in entries:
        for line in (_filled(_everything(entry.syntax)), _filled(_nothing_optional(entry.syntax))):
            assert _order_read("viking", line) == entry.name, (entry.syntax, line)
