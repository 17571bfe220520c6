"""HELP text generated from the grammars and the per-command docs (orders.md §1, §8).

The syntax of each command is read from the compiled grammar (so it cannot
go stale); the one-line explanation comes from ``<grammar>.help.toml`` next
to the grammar (``[rule] en = "..."``; ``[_syntax.en]`` says how a placeholder
is shown). The English texts are msgids of the gettext catalogue (the
extractor of gm/i18n_extract.py reads these files), which says them in the
reader's language; a game outside gm, whose texts gm's catalogue cannot hold,
may give its own ``fr = "..."`` next to ``en``. :func:`missing_docs` lists the
commands of a grammar without docs (a test keeps it empty). French syntax: grammars write
``("english"i | "french"i)``; the English form is the first alternative, the French one
the alternative that shares the fewest keywords with it; what another alternative leaves
out is in brackets (``accept [N]``). The envelope's commands are shown in every form their
rule takes (gm.orders.forms): the moderator's (:func:`moderator_help`) and the player's
(:func:`player_help`), each with its examples.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark

from gm.i18n import N_, Name, languages, msg, translate, translations
from gm.orders.envelope import envelope_parser
from gm.orders.forms import Form, Many, Opt, Part, Slot, command_forms, written
from gm.orders.grammar import GameGrammar
from gm.orders.names import fold
from gm.resources import grammar_root

# A command's table maps a language to its doc (a string); the table ``_syntax`` maps a
# language to a table (placeholder -> how it is shown): the values are of two kinds.
Docs = Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class CommandHelp:
    name: str
    syntax: str  # one form a line (a moderator's command may have several)
    doc: str
    examples: tuple[str, ...] = ()


def said(entry: Mapping[str, object], language: str) -> str:
    """An entry's English text (``en``) in ``language``, from the catalogue; a game
    outside gm may give its own ``<language>`` text next to ``en`` instead."""
    english = str(entry.get("en") or "")
    if not english or language == "en":
        return english
    shown = translations(language).gettext(english)
    own = entry.get(language)
    return str(own) if shown == english and isinstance(own, str) else shown


@cache
def load_docs(path: Path) -> Docs:
    """The docs of a grammar (``x.lark`` -> ``x.help.toml``); empty when none."""
    doc_path = path.with_suffix(".help.toml")
    if not doc_path.exists():
        return {}
    with doc_path.open("rb") as f:
        return tomllib.load(f)


def _short(name: str) -> str:
    return name.rsplit("__", 1)[-1] if not name.startswith("__") else name


class _Renderer:
    def __init__(self, parser: Lark, upper: bool, shown: Mapping[str, str]) -> None:
        self.upper = upper
        self.shown = shown
        self.literals = {t.name: t.pattern.value for t in parser.terminals}
        self.is_str = {t.name for t in parser.terminals if t.pattern.type == "str"}
        self.rules: dict[str, list[list[str]]] = {}
        self.other_forms: dict[str, list[list[str]]] = {}  # alternatives under an alias
        for r in parser.rules:
            into = self.other_forms if r.alias else self.rules
            into.setdefault(r.origin.name, []).append([s.name for s in r.expansion])

    def keywords(self, expansion: Sequence[str]) -> set[str]:
        """The words of ``expansion`` (punctuation, ``:`` in both languages, is none)."""
        return {s for s in expansion if s in self.is_str
                and not set(str(self.literals[s])) <= _PUNCTUATION}

    def pick(self, rule: str, language: str) -> list[str]:
        """The expansion of ``rule`` HELP shows: its first in English, the one with the
        fewest English keywords in another language. An alternative under an alias
        (baltica.lark's ``-> move_blocks``, another way to write the same order) is
        shown only when the rule has no other."""
        options = self.rules.get(rule) or self.other_forms[rule]
        first = options[0]
        if language == "en" or len(options) == 1:
            return first
        english = self.keywords(first)
        scored = [  # a symbol ("->" for "to") is no French word
            (len(self.keywords(o) & english), self.symbols(o), -len(o), -i, o)
            for i, o in enumerate(options)
        ]
        return min(scored)[4]

    def symbols(self, expansion: Sequence[str]) -> bool:
        """Whether ``expansion`` writes a symbol for a word (``->`` for ``to``); punctuation
        (``:`` before a list of choices) is no such symbol."""
        return any(not any(ch.isalpha() for ch in str(self.literals[s]))
                   and not set(str(self.literals[s])) <= _PUNCTUATION
                   for s in expansion if s in self.is_str)

    def optional(self, rule: str, expansion: Sequence[str]) -> list[tuple[int, int]]:
        """The runs of ``expansion`` (start, end) that another expansion of ``rule`` leaves
        out (Lark writes ``x?`` as two expansions, with and without): each a smallest run,
        so that ``x? y?`` is two runs, not one."""
        runs = {r for o in self.rules.get(rule, []) if len(o) < len(expansion)
                for r in [_left_out(o, expansion)] if r is not None}
        return sorted(r for r in runs if not any(o != r and r[0] <= o[0] and o[1] <= r[1]
                                                 for o in runs))

    def render_rule(self, rule: str, language: str, depth: int = 0) -> str:
        """``rule`` as HELP shows it: the expansion :meth:`pick` chooses, what another
        expansion leaves out in brackets (``accept [N]``, ``parley POST [challenge PLAYER]``)."""
        chosen = self.pick(rule, language)
        runs = self.optional(rule, chosen)
        out: list[str] = []
        i = 0
        for start, end in runs:
            inner = self.render(chosen[start:end], language, depth)
            bracketed = end - start == 1 and inner.startswith("[") and inner.endswith("]")
            out += [self.render(chosen[i:start], language, depth),
                    inner if bracketed else f"[{inner}]"]  # [to N] shown so already
            i = end
        out.append(self.render(chosen[i:], language, depth))
        return " ".join(x for x in out if x).replace(" :", ":").replace(" ,", ",")

    def render(self, expansion: Sequence[str], language: str, depth: int = 0) -> str:
        out: list[str] = []
        for sym in expansion:
            if sym in self.literals:
                out.append(self._terminal(sym))
            elif sym.startswith("__") and depth < 3:  # a repetition: [, <block> ...]
                base = min(self.rules[sym], key=len)
                out.append(f"[{self.render(base, language, depth + 1)} ...]")
            elif _short(sym).startswith("_") and depth < 3:
                out.append(self.render_rule(sym, language, depth + 1))
            else:
                out.append(self._placeholder(_short(sym).strip("_")))
        return " ".join(out).replace(" :", ":").replace(" ,", ",")

    def _terminal(self, sym: str) -> str:
        if sym in self.is_str:
            word = self.literals[sym]
            return word.upper() if self.upper else word
        return self._placeholder(_short(sym).lower())

    def _placeholder(self, name: str) -> str:
        return self.shown.get(name, f"<{name}>")


_PUNCTUATION = frozenset(":,;=()")


def _left_out(shorter: Sequence[str], longer: Sequence[str]) -> tuple[int, int] | None:
    """The one run of ``longer`` that ``shorter`` leaves out (``longer`` without it is
    ``shorter``), else None."""
    n = len(longer) - len(shorter)
    for start in range(len(longer) - n + 1):
        if list(longer[:start]) + list(longer[start + n:]) == list(shorter):
            return start, start + n
    return None


def commands_of(parser: Lark, rule: str) -> list[str]:
    """The command rules listed as alternatives of ``rule`` (``order``, ``_command``)."""
    names: list[str] = []
    for r in parser.rules:
        if _short(r.origin.name) == rule and len(r.expansion) == 1 and not r.expansion[0].is_term:
            name = r.expansion[0].name
            if name not in names:
                names.append(name)
    return names


def command_help(
    parser: Lark, rule: str, docs: Docs, language: str = "en", upper: bool = False
) -> list[CommandHelp]:
    """Syntax and doc of every command of ``rule``, in grammar order."""
    renderer = _Renderer(parser, upper, shown_slots(docs, language))
    out = []
    for name in commands_of(parser, rule):
        syntax = renderer.render_rule(name, language)
        doc = said(docs.get(name, {}), language)
        out.append(CommandHelp(name, syntax, doc))
    return out


def shown_slots(docs: Docs, language: str) -> dict[str, str]:
    """How each placeholder of a grammar is shown in ``language`` (``[_syntax.en]``)."""
    placeholders = docs.get("_syntax", {})
    english, own = placeholders.get("en", {}), placeholders.get(language, {})
    shown: dict[str, str] = {name: said({"en": word, language: own.get(name)}, language)
                             for name, word in english.items()}
    return {**own, **shown} if language != "en" else shown


SLOT_RULES = ("reason", "press_name")
"""The envelope's rules HELP shows as one value (``[: reason]``, ``<power>``)."""


def moderator_help(parser: Lark, docs: Docs, entry: CommandHelp, language: str) -> CommandHelp:
    """A moderator's command as HELP gives it: every form it has, read from its rule
    (gm.orders.forms: what is optional in brackets, each command's own arguments, a reason
    only where the rule takes one), and its examples (``examples``, ``examples_<language>``
    of envelope.help.toml: tests/orders/test_moderator_help.py parses each)."""
    shown = shown_slots(docs, language)
    forms = [written(f, shown) for f in command_forms(parser, entry.name, language, SLOT_RULES)]
    own = docs.get(entry.name, {})
    examples = _strings(own.get(f"examples_{language}")) or _strings(own.get("examples"))
    return CommandHelp(entry.name, "\n  ".join(forms), entry.doc, tuple(examples))


def player_help(parser: Lark, docs: Docs, entry: CommandHelp, language: str,
                moderator: bool = False) -> CommandHelp:
    """A player's command as HELP gives it (orders.md §1): every form its rule takes, read
    from the rule as the moderator's are (:func:`moderator_help`), each value named for what
    it is (``slots`` of envelope.help.toml: ``JOIN <game> [<power>]``, not ``<name> <name>``),
    and what a player must give though the rule lets the moderator leave it out
    (``player_gives``: POWER's password, gm.pipeline.signon) required but to the
    ``moderator``; under it its examples (``examples``, ``examples_<language>``:
    tests/orders/test_player_help.py parses each)."""
    forms = player_forms(parser, docs, entry.name, language, moderator)
    own = docs.get(entry.name, {})
    examples = _strings(own.get(f"examples_{language}")) or _strings(own.get("examples"))
    return CommandHelp(entry.name, "\n  ".join(written(f, shown_slots(docs, language))
                                               for f in forms), entry.doc, tuple(examples))


def player_forms(parser: Lark, docs: Docs, rule: str, language: str,
                 moderator: bool = False) -> list[Form]:
    """The forms a player's HELP gives ``rule`` (:func:`player_help`), as parts."""
    own = docs.get(rule, {})
    names = _strings(own.get("slots"))
    needed = frozenset(() if moderator else _strings(own.get("player_gives")))
    return [_required(_named(f, iter(names)), needed)
            for f in command_forms(parser, rule, language, SLOT_RULES)]


def _named(form: Sequence[Part], names: Iterator[str]) -> Form:
    """``form`` with its values named in turn by ``names`` (``game``, ``power``)."""
    out: list[Part] = []
    for part in form:
        if isinstance(part, Slot):
            out.append(Slot(next(names, part.name)))
        elif isinstance(part, Opt | Many):
            out.append(type(part)(_named(part.parts, names)))
        else:
            out.append(part)
    return tuple(out)


def _required(form: Sequence[Part], needed: frozenset[str]) -> Form:
    """``form`` with the optional values in ``needed`` written as required."""
    out: list[Part] = []
    for part in form:
        if isinstance(part, Opt) and all(isinstance(p, Slot) and p.name in needed
                                         for p in part.parts):
            out += part.parts
        else:
            out.append(part)
    return tuple(out)


def missing_docs(parser: Lark, rule: str, docs: Docs) -> list[str]:
    """Every command without its English doc (should be empty); the translations
    are the catalogue's (tests/i18n)."""
    return [name for name in commands_of(parser, rule) if not docs.get(name, {}).get("en")]


HEADINGS = (N_("Commands (one per line, any case):"), N_("Orders for this game:"))

MODERATOR_RULES = frozenset(
    """moderator extend adjudicate ruling replace approve rollback set_state pause resume dice
    release unbounce send_report requeue unhold retry decline observer_add observer_stop reveal
    show_game show_mails show_history show_state""".split())
"""The envelope's rules only the moderator uses (orders.md §9; the commands are
:class:`gm.orders.commands.ModeratorCommand`, the first its sign-on): a player's HELP leaves
them out, the moderator's lists them, and the moderator topic (``HELP MODERATOR``, ``AIDE
MODERATEUR``) lists them to anyone."""

MODERATOR_TOPIC = "moderator"
"""The topics.toml topic on the moderator's commands (``HELP MODERATOR``, ``AIDE MODERATEUR``;
aliases ``release``, ``liberer``)."""


def help_text(
    game: GameGrammar | None = None, language: str = "en", topic: str | None = None,
    game_name: str | None = None, moderator: bool = False,
) -> str:
    """The HELP reply body: the envelope commands and, with a game, its orders.

    With ``topic``: the topic's text and examples when it is one (``conditions``, ``press``,
    ``absent``, an order's name in English or French; topics.toml and
    ``<game>.topics.toml``), else the commands whose name or syntax starts with it.
    ``game_name`` (default: the grammar's) chooses the game's topics; a game without a
    generated grammar (Pax Britannica) lists its orders from its topics file. The moderator's
    commands (:data:`MODERATOR_RULES`) are listed to the ``moderator`` only, and under the
    moderator topic to anyone: a player cannot use them.
    """
    language = language if language in languages() else "en"
    name = game_name or (game.name if game is not None else None)
    topics = topics_of(name)
    env_path = grammar_root() / "envelope.lark"
    env_docs = load_docs(env_path)
    commands = [moderator_help(envelope_parser(), env_docs, e, language)
                if e.name in MODERATOR_RULES
                else player_help(envelope_parser(), env_docs, e, language, moderator)
                for e in command_help(envelope_parser(), "_command", env_docs, language, upper=True)]
    found = find_topic(topics, topic) if topic else None
    if found is not None and found[0] == MODERATOR_TOPIC:
        return _topic_text(*found, [], language, _listed(
            [(translate(msg("Moderator commands:"), language),
              [e for e in commands if e.name in MODERATOR_RULES])], language))
    if not moderator:
        commands = [e for e in commands if e.name not in MODERATOR_RULES]
    parts = [(translate(msg(HEADINGS[0]), language), commands)]
    if game is not None:
        orders = command_help(game.parser(), "order", load_docs(game.grammar_path), language)
        parts.append((translate(msg(HEADINGS[1]), language), orders))
    elif name is not None:
        parts.append((translate(msg(HEADINGS[1]), language), written_orders(topics, language)))
    if found is not None:
        return _topic_text(found[0], found[1], parts, language)
    lines = _listed([(heading, [e for e in entries if _matches(e, topic)])
                     for heading, entries in parts], language).splitlines()
    matched = bool(lines)
    if topic and not matched:
        lines += [translate(msg("No command or topic {topic!r}.", topic=topic), language), ""]
    if not topic or not matched:
        lines.append(translate(msg("More: HELP <topic>, one of: {topics}.", topics=", ".join(
            translate(topic_name(k, e), language) for k, e in topics.items())), language))
    return "\n".join(lines).rstrip() + "\n"


@cache
def load_topics(path: Path) -> Mapping[str, Mapping[str, object]]:
    """A topics file (``topics.toml``, ``<game>.topics.toml``); empty when none."""
    if not path.exists():
        return {}
    with path.open("rb") as f:
        return tomllib.load(f)


def topics_of(game_name: str | None) -> dict[str, Mapping[str, object]]:
    """The HELP topics of a game: every game's (topics.toml), then its own, which win."""
    out = dict(load_topics(grammar_root() / "topics.toml"))
    if game_name:
        out.update(load_topics(grammar_root() / f"{game_name}.topics.toml"))
    return out


def topic_name(key: str, entry: Mapping[str, object]) -> Name:
    """How HELP names a topic: its key in English (``battle_order`` = "battle order"), its
    ``name_<language>`` in another language ("ordre de bataille"), the key where it has none."""
    forms = {k.removeprefix("name_"): str(v) for k, v in entry.items()
             if k.startswith("name_") and isinstance(v, str)}
    return Name(key.replace("_", " ").strip(), **forms)


def find_topic(topics: Mapping[str, Mapping[str, object]],
               topic: str) -> tuple[str, Mapping[str, object]] | None:
    """The topic ``topic`` names: its key (``battle_order`` = "battle order"), its name in
    another language (:func:`topic_name`) or, failing those, an alias ("replace" is Pax
Baltica's order, not the alias of CHECK's topic); case and accents ignored."""
    want = fold(topic)
    named = {key: [key, str(topic_name(key, entry)), *topic_name(key, entry).forms.values()]
             for key, entry in topics.items()}
    for words in (named, {key: _strings(entry.get("aliases")) for key, entry in topics.items()}):
        for key, entry in topics.items():  # a topic's own name before another's alias
            if any(fold(w) == want for w in words[key]):
                return key, entry
    return None


def written_orders(topics: Mapping[str, Mapping[str, object]], language: str) -> list[CommandHelp]:
    """The orders a topics file writes out with their syntax (a game whose grammar cannot
    generate it)."""
    out = []
    for key, entry in topics.items():
        syntax = entry.get("syntax")
        if isinstance(syntax, Mapping):
            out.append(CommandHelp(key, said(syntax, language), said(entry, language)))
    return out


def _examples(entry: CommandHelp, language: str) -> list[str]:
    """A command's examples under its doc, one a line."""
    return ["      " + translate(msg("e.g. {example}", example=x), language)
            for x in entry.examples]


def _listed(parts: Sequence[tuple[str, Sequence[CommandHelp]]], language: str = "en") -> str:
    """Each heading with its commands' syntax and doc; a heading without any left out."""
    lines: list[str] = []
    for heading, entries in parts:
        if entries:
            lines.append(heading)
            for e in entries:
                lines += [f"  {e.syntax}", f"      {e.doc}"] + _examples(e, language)
            lines.append("")
    return "\n".join(lines) + ("\n" if lines else "")


def _strings(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _topic_text(key: str, entry: Mapping[str, object],
                parts: Sequence[tuple[str, Sequence[CommandHelp]]], language: str,
                listed: str = "") -> str:
    """A topic's heading, its commands (``listed``: already written), text and examples."""
    lines = [translate(msg("HELP {topic}", topic=topic_name(key, entry)), language), ""]
    lines += listed.splitlines()
    for _, entries in parts:
        for e in entries:
            if e.name == key:
                lines += [f"  {e.syntax}", f"      {e.doc}", *_examples(e, language), ""]
    text = said(entry, language)
    if text and not isinstance(entry.get("syntax"), Mapping):
        lines += [str(text), ""]
    examples = _strings(entry.get(f"examples_{language}")) or _strings(entry.get("examples"))
    if examples:
        lines.append(translate(msg("Examples:"), language))
        lines += [f"  {x}" for x in examples]
    return "\n".join(lines).rstrip() + "\n"


def _matches(entry: CommandHelp, topic: str | None) -> bool:
    if not topic:
        return True
    t = topic.lower()
    return entry.name.startswith(t) or entry.syntax.lower().startswith(t)
