"""A player's HELP gives each command the form the parser reads (docs/orders.md, "HELP
<topic>"), as HELP MODERATOR does (tests/orders/test_moderator_help.py).

Before: a player's HELP showed optional values as required (``HISTORY <name>``, ``HELP
<text>``, ``LIST <name>``, ``JOIN <name> <name>``), every value as ``<name>`` (``SET ADDRESS
<name>``), and the English ``HELP``/``JOIN`` to a French reader, who may write ``AIDE`` and
``REJOINDRE``. The forms are now read from each command's rule in envelope.lark
(gm.orders.forms), its values named in envelope.help.toml; POWER's password, which the rule
lets only the moderator leave out (gm.pipeline.signon), is shown as required. Every form
and every example a player's HELP gives is parsed here as the very command it stands
under, in English and in French.
"""

from __future__ import annotations

import re

import pytest

from gm.orders import commands as c
from gm.orders.envelope import envelope_parser, parse_command
from gm.orders.forms import Form, written
from gm.orders.help import (
    MODERATOR_RULES,
    commands_of,
    help_text,
    load_docs,
    player_forms,
    shown_slots,
)
from gm.resources import grammar_root
from tests.orders.test_moderator_help import _filled as filled
from tests.orders.test_moderator_help import _rule_read

LANGUAGES = ("en", "fr")
DOCS = load_docs(grammar_root() / "envelope.lark")

SAMPLES = {"game": "baltica42", "power": "sweden", "secret": "hunter2", "phase": "turn-3",
           "press_name": "russia", "date": "2026-12-20", "language": "fr",
           "zone": "Europe/Paris", "address": "karl@example.se", "topic": "press"}


def player_rules() -> list[str]:
    """Every command of the envelope grammar a player may use: all but the moderator's."""
    return [r for r in commands_of(envelope_parser(), "_command") if r not in MODERATOR_RULES]


def _filled(form: Form, keep: bool = True) -> str:
    """A form with a player's sample value in each slot, its optional parts kept or left out."""
    return filled(form, keep, SAMPLES)


def _listing(text: str) -> list[tuple[list[str], list[str]]]:
    """A player's HELP listing (its first paragraph, under "Commands ...:"): each command's
    form lines (indented 2, one or more) and its examples (indented 6 under its doc, "e.g."
    / "ex. :")."""
    entries: list[tuple[list[str], list[str]]] = []
    under_doc = True
    for line in text.split("\n\n")[0].splitlines()[1:]:
        if re.match(r"^  \S", line):
            if under_doc:
                entries.append(([], []))
            entries[-1][0].append(line.strip())
            under_doc = False
        else:
            under_doc = True
            if m := re.match(r"^ {6}(?:e\.g\.|ex\. :) (.+)$", line):
                entries[-1][1].append(m.group(1))
    return entries


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_form_a_players_help_gives_is_read_as_its_command(language: str) -> None:
    """Each form, filled in with and without its optional parts, parses as that command."""
    for rule in player_rules():
        for form in player_forms(envelope_parser(), DOCS, rule, language):
            for keep in (True, False):
                assert _rule_read(_filled(form, keep)) == rule, (rule, form, keep)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_players_help_lists_every_player_command_with_examples_that_parse(
        language: str) -> None:
    """Every command a player may use is in a player's HELP, in the forms its rule takes;
    each example under it parses as that command, and a command that takes a value has one
    (a command without a value is its own example)."""
    text = help_text(None, language)
    shown_as = shown_slots(DOCS, language)
    listed: list[str] = []
    for forms, examples in _listing(text):
        if not examples:
            assert "<" not in " ".join(forms), forms
            examples = forms
        rules = {_rule_read(x) for x in examples}
        assert len(rules) == 1, (forms, examples)
        rule = rules.pop()
        for example in examples:
            parse_command(example)  # the parser's own reading, values and all
        assert forms == [written(f, shown_as) for f in player_forms(
            envelope_parser(), DOCS, rule, language)], (rule, forms)
        listed.append(rule)
    assert sorted(listed) == sorted(player_rules()), text


def test_optional_values_are_shown_optional_and_named_for_what_they_are() -> None:
    """HISTORY, HELP, LIST and OBSERVE take their value or none; JOIN its power or none
    (any open seat); each value is named for what it is, not <name>."""
    forms = {forms[0] for forms, _ in _listing(help_text(None, "en"))}
    for form in ("HISTORY [<phase>]", "HELP [<topic>]", "LIST [<game>]", "OBSERVE [<game>]",
                 "JOIN <game> [<power>]", "SET ADDRESS <address>", "SET LANGUAGE <language>",
                 "SEND PASSWORD <power>", "GAME <game>", "FOR <power>"):
        assert form in forms, form
    assert not any("<name>" in f for f in forms), forms


def test_a_players_power_line_gives_its_password() -> None:
    """A player signs on with POWER <power> <password> (orders.md §1; without it the
    sign-on fails): HELP does not show the password as optional, as the rule does for the
    moderator, who signs on with MODERATOR and may then write POWER sweden to act for it."""
    player, moderator = help_text(None, "en"), help_text(None, "en", moderator=True)
    assert "\n  POWER <power> <password>\n" in player and "[<password>]" not in player
    assert "\n  POWER <power> [<password>]\n" in moderator
    assert "\n  PUISSANCE <puissance> <mot de passe>\n" in help_text(None, "fr")
    signed = parse_command("POWER sweden hunter2")
    assert isinstance(signed, c.PowerSignOn) and signed.password == "hunter2"


def test_a_french_players_help_writes_the_french_keywords() -> None:
    """AIDE and REJOINDRE are what a French player writes (the grammar's help_fr, join_fr):
    the French HELP no longer shows HELP <texte> and JOIN <nom> <nom>."""
    forms = {forms[0] for forms, _ in _listing(help_text(None, "fr"))}
    for form in ("AIDE [<sujet>]", "REJOINDRE <partie> [<puissance>]", "HISTORIQUE [<phase>]",
                 "DEFINIR LANGUE <langue>", "DEFINIR ADRESSE <adresse>", "LISTE [<partie>]"):
        assert form in forms, form
    assert not any(f.startswith(("HELP", "JOIN")) or "<nom>" in f for f in forms), forms
