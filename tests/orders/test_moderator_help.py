"""HELP MODERATOR gives each moderator command the form the parser reads (docs/orders.md,
"The moderator's commands, by mail and from the command line").

Before: the moderator topic said "Each command but RULING takes a reason after a colon",
which APPROVE, DECLINE, ADD/STOP OBSERVER and the SHOW commands do not; optional arguments
were shown as required (``APPROVE <address> <name>``, ``SHOW MAILS [UNDELIVERED] <n>``) and
a second form left out (``EXTEND TO <date> [<time>]``). The forms are now read from each
command's rule in envelope.lark (gm.orders.forms), and every example HELP gives is parsed
here as the very command it stands under, in English and in French.
"""

from __future__ import annotations

import re

import pytest
from lark import Tree

from gm.orders import commands as c
from gm.orders.envelope import envelope_parser, parse_command
from gm.orders.forms import Many, Opt, Part, Slot, Word, command_forms
from gm.orders.help import MODERATOR_RULES, SLOT_RULES, commands_of, help_text
from gm.orders.names import strip_accents

LANGUAGES = ("en", "fr")


def moderator_rules() -> list[str]:
    """Every command of the envelope grammar only the moderator may use: those the parser
    reads as a moderator's command (or his sign-on)."""
    out = []
    for rule in commands_of(envelope_parser(), "_command"):
        example = _filled(command_forms(envelope_parser(), rule, "en", SLOT_RULES)[0])
        if isinstance(parse_command(example), c.ModeratorCommand | c.ModeratorSignOn):
            out.append(rule)
    return out


def _rule_read(text: str) -> str:
    """The envelope rule the parser reads ``text`` as (accents optional, as it reads them)."""
    tree = envelope_parser().parse(strip_accents(text))
    node = tree.children[0]
    assert isinstance(node, Tree)
    return str(node.data).removesuffix("_fr")


def _help_entries(text: str) -> dict[str, tuple[list[str], list[str]]]:
    """HELP MODERATOR's listing (its second paragraph, under "Moderator commands:"): each
    command's form lines (indented 2) and examples (indented 6, "e.g." / "ex. :"), by the
    command's first form."""
    entries: dict[str, tuple[list[str], list[str]]] = {}
    forms: list[str] = []
    for line in text.split("\n\n")[1].splitlines()[1:]:
        if re.match(r"^  \S", line):
            if not forms or entries[forms[0]][1]:
                forms = []
            forms.append(line.strip())
            entries[forms[0]] = (forms, entries.get(forms[0], ([], []))[1])
        elif m := re.match(r"^ {6}(?:e\.g\.|ex\. :) (.+)$", line):
            entries[forms[0]][1].append(m.group(1))
    return entries


SAMPLES = {"arg": "sweden", "secret": "pw", "rest": "move", "int": "3", "private": "PRIVATE",
           "reason": ": a reason", "duration": "48h", "address": "anna@example.org",
           "date": "2026-12-24", "time": "18:00", "path": "treasury.sweden", "value": "12",
           "press_name": "sweden"}


def _filled(form: tuple[Part, ...], keep: bool = True, samples: dict[str, str] = SAMPLES) -> str:
    """A form with a sample value in each slot, its optional parts kept or left out."""
    out: list[str] = []
    for part in form:
        if isinstance(part, Word):
            out.append(part.text)
        elif isinstance(part, Slot):
            out.append(samples[part.name])
        elif isinstance(part, Many):
            out.append(_filled(part.parts, keep, samples))
        elif isinstance(part, Opt) and keep:
            out.append(_filled(part.parts, keep, samples))
    return " ".join(out)


def test_the_moderator_commands_are_those_help_calls_so() -> None:
    """MODERATOR_RULES (what a player's HELP leaves out) is every command the parser reads
    as the moderator's: a new one cannot be left out of HELP MODERATOR."""
    assert sorted(moderator_rules()) == sorted(MODERATOR_RULES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_form_help_moderator_gives_is_read_as_its_command(language: str) -> None:
    """Each form, filled in with and without its optional parts, parses as that command."""
    parser = envelope_parser()
    for rule in MODERATOR_RULES:
        for form in command_forms(parser, rule, language, SLOT_RULES):
            for keep in (True, False):
                assert _rule_read(_filled(form, keep)) == rule, (rule, form, keep)


@pytest.mark.parametrize(("language", "topic"), [("en", "MODERATOR"), ("fr", "MODERATEUR")])
def test_help_moderator_lists_every_moderator_command_with_examples_that_parse(
        language: str, topic: str) -> None:
    """Every moderator command is in HELP MODERATOR (AIDE MODERATEUR) with its forms and at
    least one example, and each example parses as the command it stands under."""
    text = help_text(None, language, topic)
    entries = _help_entries(text)
    shown: set[str] = set()
    for forms, examples in entries.values():
        rules = {_rule_read(x) for x in examples}
        assert examples and len(rules) == 1, (forms, examples)
        rule = rules.pop()
        for example in examples:
            parse_command(example)  # the parser's own reading, values and all
        assert forms[0].split()[0] == _filled(command_forms(
            envelope_parser(), rule, language, SLOT_RULES)[0]).split()[0], (forms, rule)
        shown.add(rule)
    assert shown == set(MODERATOR_RULES), text


def test_help_says_which_commands_take_a_reason_and_which_do_not() -> None:
    """"Each command but RULING takes a reason after a colon" was not so: APPROVE, DECLINE,
    ADD OBSERVER, STOP OBSERVER and SHOW take none; RULING takes PRIVATE."""
    entries = {forms[0]: forms for forms, _ in _help_entries(help_text(None, "en", "moderator"))
               .values()}
    assert entries["APPROVE <address> [<name>]"] == ["APPROVE <address> [<name>]"]
    for plain in ("DECLINE <address>", "ADD OBSERVER <address>", "STOP OBSERVER <address>",
                  "SHOW GAME", "SHOW MAILS [UNDELIVERED] [<n>]", "SHOW STATE [<name>]"):
        assert plain in entries
    assert "EXTEND [PRIVATE] TO <date> [<time>] [: reason]" in entries[
        "EXTEND [PRIVATE] <48h|2d> [: reason]"]
    assert "RULING [PRIVATE] <text>" in entries
    assert "Each command but RULING" not in help_text(None, "en", "moderator")


def test_french_help_moderator_writes_the_french_keywords() -> None:
    """AIDE MODERATEUR writes the forms a French moderator writes (docs/orders.md, French
    keywords): PROLONGER AU, RETOUR A, DES ... PUIS GRAINE, MONTRER ETAT."""
    text = help_text(None, "fr", "moderateur")
    for form in ("PROLONGER [PRIVÉ] AU <date> [<heure>] [: raison]",
                 "RETOUR [PRIVÉ] A <nom> [NOUVEAUX DES] [: raison]",
                 "DES [PRIVÉ] <n> ... [PUIS GRAINE] [: raison]", "DECLINER <adresse>",
                 "AJOUTER OBSERVATEUR <adresse>", "MONTRER ETAT [<nom>]"):
        assert f"\n  {form}\n" in text, form
    assert "EXTEND" not in text and "SHOW " not in text
