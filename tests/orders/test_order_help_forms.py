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

import pytest
from lark import Tree

from gm.games.registry import get
from gm.orders.help import help_text

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
