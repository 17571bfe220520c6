"""HELP is generated from the grammars and the command docs, so it cannot go stale."""

from __future__ import annotations

from gm.orders.envelope import envelope_parser, parse_command
from gm.orders.help import commands_of, help_text, load_docs, missing_docs
from gm.resources import grammar_root

from .paxtest import GRAMMAR


def test_every_envelope_command_has_its_english_doc() -> None:
    docs = load_docs(grammar_root() / "envelope.lark")
    assert missing_docs(envelope_parser(), "_command", docs) == []
    assert set(docs) - {"_syntax"} == set(commands_of(envelope_parser(), "_command"))


def test_every_order_of_the_test_grammar_has_docs() -> None:
    assert missing_docs(GRAMMAR.parser(), "order", load_docs(GRAMMAR.grammar_path)) == []


def test_english_help_lists_commands_and_orders_with_their_syntax() -> None:
    text = help_text(GRAMMAR, "en", moderator=True)  # the moderator's: EXTEND too
    assert "ABSENT <date> TO <date>" in text
    assert "EXTEND [PRIVATE] <48h|2d> [: reason]" in text
    assert "move from <area>: <block> [, <block> ...] to <area>" in text
    assert "buy and place a status marker" in text


def test_french_help_uses_french_keywords() -> None:
    text = help_text(GRAMMAR, "fr")
    assert "DEFINIR LANGUE <langue>" in text
    assert "deplacer de <area>: <block> [, <block> ...] vers <area>" in text
    assert "Ordres de ce jeu" in text


def test_help_topic_narrows_the_list() -> None:
    text = help_text(GRAMMAR, "en", topic="move")
    assert "move from" in text and "ABSENT" not in text


def test_the_syntax_shown_parses() -> None:
    """What HELP shows for a command is what the parser accepts (filled in)."""
    for example in ("ABSENT 2026-12-20 TO 2027-01-03", "DEFINIR LANGUE fr", "EXTEND PRIVATE 2d: x"):
        parse_command(example)


def test_french_help_says_gms_docs_from_the_catalogue() -> None:
    """gm's HELP files are English only; their French is in gm/locale (issue 20)."""
    text = help_text(None, "fr")
    assert "la partie visée par les lignes suivantes (nouvelle section)" in text
    assert "the game these lines are for" not in text
    assert text.startswith("Commandes (une par ligne, majuscules ou non) :")
    assert "Plus : AIDE <sujet>, parmi :" in text


def test_a_game_outside_gm_may_bring_its_own_french_docs() -> None:
    """The test grammar stands for a game shipped outside gm: gm's catalogue cannot
    hold its docs, so the `fr` beside `en` in its help file is used."""
    assert "acheter et placer un marqueur" in help_text(GRAMMAR, "fr")
    assert "buy and place a status marker" in help_text(GRAMMAR, "en")
