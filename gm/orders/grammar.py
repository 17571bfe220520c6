"""How a game plugs in its order grammar (docs/orders.md, "Writing a game grammar").

A game writes ``orders_grammar/<game>.lark`` that imports the shared parts
(``common``: names and terminals; ``conditions``: ``start`` with the three
conditional forms, overriding ``order`` and ``predicate``), and a
:class:`OrderTransformer` subclass with one method per order rule returning a
typed order (a frozen dataclass with an ``echo()`` giving its canonical
text). :func:`parse_order_lines` then parses a section's lines leniently:
one result per line, good lines kept, errors named.

Parser: LALR with the contextual lexer, built once per grammar file and kept
(``load_parser``); docs/orders.md gives the LALR vs Earley measurement. A line is
first read by its inline twin (``load_inline_parser``), which calls the transformer
as each rule is reduced and builds no tree, through :class:`gm.orders.lalr.LeanLALR`
(Lark's tables in one loop; Lark itself for a line that loop cannot read); a line that
fails there is read again with the tree, so errors are named as the whole tree names them.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from pathlib import Path
from types import FunctionType
from typing import Any

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from gm.i18n import SOURCE_LANGUAGE, Name, Text, languages, msg, translate
from gm.kept import Kept
from gm.orders.conditions import (
    Comparison,
    Conditional,
    Form,
    Not,
    Op,
    Quantity,
    all_of,
    any_of,
)
from gm.orders.envelope import PLAYER_COMMANDS, PLAYER_COMMANDS_EN, PLAYER_COMMANDS_FR
from gm.orders.lalr import Fallback, LeanLALR, RefusedAtFirstWord
from gm.orders.model import (
    ErrorKind,
    Ignored,
    LineError,
    LineResult,
    ParsedOrder,
    ParseResult,
    SourceLine,
)
from gm.orders.names import (
    NameIndex,
    NameNotResolved,
    edit_distance,
    either,
    fold,
    strip_accents,
)
from gm.orders.printed import PrintedNames, name_words
from gm.orders.prose import prose_signal
from gm.orders.text import straighten_quotes
from gm.resources import grammar_root


class OrderRejected(Exception):
    """Raised by a transformer for an order understood but refused at parse time.

    E.g. ``ErrorKind.HIDDEN`` for a condition on a hidden enemy block, or
    ``ErrorKind.NOT_NOW`` for a command of another phase.
    """

    def __init__(self, kind: ErrorKind, reason: str, suggestions: Sequence[str] = ()) -> None:
        super().__init__(reason)
        self.kind, self.reason, self.suggestions = kind, reason, tuple(suggestions)


@dataclass(frozen=True)
class ParseContext:
    """What a transformer may know while parsing one power's lines.

    ``names`` maps a name slot (a grammar rule such as ``territory``,
    ``block``, ``power``, ``area``) to the index of the names that fit it;
    ``commands`` are the verbs of the current phase (for the unknown-word
    hint; default: every command of the grammar); ``extra`` is the game's.
    """

    names: Mapping[str, NameIndex] = field(default_factory=dict)
    power: str | None = None
    commands: tuple[str, ...] = ()
    language: str = "en"
    extra: Mapping[str, Any] = field(default_factory=dict)


@cache
def load_parser(path: Path, start: str = "start") -> Lark:
    """The LALR parser (contextual lexer) of a grammar file, built once. Rule positions are
    not propagated (nothing reads them; an error's column comes from its token): it made
    every parse a third slower (issue 21)."""
    return Lark.open(
        str(path),
        parser="lalr",
        lexer="contextual",
        start=start,
        import_paths=[str(grammar_root())],
    )


_LINE = threading.local()
"""The transformer of the line being parsed by an inline parser, per thread."""


def _inline_callback(name: str) -> Callable[[list[Any]], Any]:
    """Lark's callback for rule ``name``: what :meth:`Transformer._call_userfunc` does with
    a tree node of that rule, on the transformer of the line being parsed. The plain
    method of each transformer class is looked up once, not at every reduction (issue 21)."""
    short = name.rsplit("__", 1)[-1]  # as _strip_namespaces names it
    methods: dict[type, Callable[[Any, list[Any]], Any]] = {}

    def generic(transformer: Any, children: list[Any]) -> Any:
        try:
            f = getattr(transformer, short)
        except AttributeError:
            return transformer.__default__(short, children, None)
        wrapper = getattr(f, "visit_wrapper", None)
        if wrapper is not None:
            return f.visit_wrapper(f, short, children, None)
        return f(children)

    def call(children: list[Any]) -> Any:
        transformer = _LINE.transformer
        f = methods.get(transformer.__class__)
        if f is None:
            f = methods[transformer.__class__] = _plain_method(transformer.__class__, short, generic)
        if f is not generic and short in transformer.__dict__:  # an instance's own attribute
            f = generic
        return f(transformer, children)

    return call


def _plain_method(cls: type, name: str, generic: Callable[[Any, list[Any]], Any]
                  ) -> Callable[[Any, list[Any]], Any]:
    """``cls``'s function for rule ``name`` when ``getattr`` on an instance gives it as a
    plain bound method without a visit wrapper; ``generic`` (the lookup at every call)
    otherwise."""
    raw = next((k.__dict__[name] for k in cls.__mro__ if name in k.__dict__), None)
    if isinstance(raw, FunctionType) and getattr(raw, "visit_wrapper", None) is None:
        return raw  # not a staticmethod, classmethod or other descriptor: called as bound
    return generic


class _InlineRules:
    """One callback per rule name (never per terminal: those stay tokens)."""

    def __init__(self, names: set[str]) -> None:
        for name in names:
            setattr(self, name, _inline_callback(name))


def inline_rules(parser: Lark) -> Any:
    """The ``transformer=`` for an inline twin of ``parser`` (same grammar, same options):
    each rule, when reduced, calls the transformer given to :func:`parse_inline`, so no
    tree is built and walked (issue 21: that doubled a line's cost). Rules without a
    method of that transformer go to its ``__default__``, as in a tree walk."""
    names = {str(r.alias or r.options.template_source or r.origin.name) for r in parser.rules}
    # ``_rule``s stay trees: Lark splices their children into the rule above them
    return _InlineRules({n for n in names
                         if not n.startswith("_") and not n.rsplit("__", 1)[-1].startswith("_")})


def parse_inline(parser: Lark, transformer: Transformer, text: str,
                 refused_at_first_word: bool = False) -> Any:
    """``text`` parsed by an inline parser (:func:`inline_rules`) calling ``transformer``.

    Any error (syntax, a name, a refusal) is raised as it comes, possibly before the
    rest of the line was read: a caller that names errors reads the line again with the
    tree parser and its transformer, so that a refused line is answered exactly as before.
    The line is run through :class:`gm.orders.lalr.LeanLALR` on ``parser``'s own tables
    first (issue 21); whatever that run does not answer, Lark answers, except with
    ``refused_at_first_word``: then a line Lark would refuse at its first word raises
    :class:`RefusedAtFirstWord` instead of Lark's error (a prose line, answered from
    that alone)."""
    _LINE.transformer = transformer
    try:
        lean = _lean_of(parser)
        if lean is not None:
            try:
                return lean.parse(text)
            except RefusedAtFirstWord:
                if refused_at_first_word:
                    raise
            except Fallback:
                pass
        return parser.parse(text)
    finally:
        _LINE.transformer = None


_LEAN: dict[int, tuple[Lark, LeanLALR | None]] = {}
_LEAN_LOCK = threading.Lock()


def _lean_of(parser: Lark) -> LeanLALR | None:
    """The lean run of ``parser``, built once (None when its setup is not one it runs)."""
    kept = _LEAN.get(id(parser))
    if kept is not None and kept[0] is parser:
        return kept[1]
    start = parser.options.start
    try:
        lean = LeanLALR(parser, start[0]) if len(start) == 1 else None
    except (TypeError, AttributeError, KeyError):  # a set-up it does not run, another Lark
        lean = None
    with _LEAN_LOCK:
        _LEAN[id(parser)] = (parser, lean)
    return lean


@cache
def load_inline_parser(path: Path, start: str = "start") -> Lark:
    """:func:`load_parser`'s inline twin (:func:`inline_rules`), for the lines that parse;
    :meth:`GameGrammar.parse_line` reads any other line again with :func:`load_parser`."""
    return Lark.open(
        str(path),
        parser="lalr",
        lexer="contextual",
        start=start,
        import_paths=[str(grammar_root())],
        transformer=inline_rules(load_parser(path, start)),
    )


def _strip_namespaces(tree: Tree) -> Tree:
    """``conditions__cond_if`` -> ``cond_if``: imported rules keep their own names."""
    for sub in tree.iter_subtrees():
        data = str(sub.data)
        if "__" in data:
            sub.data = data.rsplit("__", 1)[-1]
    return tree


class OrderTransformer(Transformer):
    """Base transformer from a parse tree to typed orders.

    Handles the shared rules: ``name`` (the text of a name), ``names``
    (tuple), the conditions and the conditional forms, and every *name slot*:
    a rule whose name is a key of ``context.names`` (``territory: name``)
    becomes the canonical name, or the line is rejected with the candidates.
    A rule without a method is a programmer error (no raw trees reach an
    engine).
    """

    def __init__(self, context: ParseContext, source: str = "") -> None:
        super().__init__()
        self.context = context
        self.source = source

    def transform(self, tree: Tree) -> Any:
        """Transform ``tree`` after dropping import namespaces from rule names."""
        return super().transform(_strip_namespaces(tree))

    def resolve(self, slot: str, text: str) -> str:
        """The canonical name for ``text`` in ``slot`` (raw text when no index)."""
        index = self.context.names.get(slot)
        return text if index is None else index.resolve(text)

    def __default__(self, data: str, children: list[Any], meta: Any) -> Any:
        if data in self.context.names and len(children) == 1:
            return self.resolve(data, children[0])
        raise TypeError(f"{type(self).__name__} has no method for rule {data!r}")

    def start(self, c: list[Any]) -> Any:
        return c[0]

    def order(self, c: list[Any]) -> Any:
        return c[0]

    def predicate(self, c: list[Any]) -> Any:
        return c[0]

    def name(self, c: list[Token]) -> str:
        source = self.source
        if source:  # _as_written, inline: a name is read in every order (issue 21)
            size = len(source)
            words = [source[t.start_pos:t.end_pos]
                     if t.start_pos is not None and t.end_pos is not None and t.end_pos <= size
                     else str(t) for t in c]
        else:
            words = [str(t) for t in c]
        if len(words) == 1 and words[0].startswith('"'):
            return words[0][1:-1].strip()
        return " ".join(words)

    def _as_written(self, token: Token) -> str:
        """The token's text as the player wrote it: the parser reads the line with its
        accents dropped (keywords are accent-optional, orders.md §8), but a name keeps
        them, so ``Estländska`` is never read back as the unknown ``Estlandska``."""
        start, end = token.start_pos, token.end_pos
        if self.source and start is not None and end is not None and end <= len(self.source):
            return self.source[start:end]
        return str(token)

    def names(self, c: list[str]) -> tuple[str, ...]:
        return tuple(c)

    def block(self, c: list[str]) -> str:
        return self.resolve("block", c[0])

    def area(self, c: list[str]) -> str:
        return self.resolve("area", c[0])

    def condition(self, c: list[Any]) -> Any:
        return any_of(c)

    def conj(self, c: list[Any]) -> Any:
        return all_of(c)

    def not_(self, c: list[Any]) -> Not:
        return Not(c[0])

    def comparison(self, c: list[Any]) -> Comparison:
        return Comparison(c[0], Op.parse(str(c[1])), int(c[2]))

    def round(self, c: list[Any]) -> Quantity:
        return Quantity("round")

    def funds(self, c: list[Any]) -> Quantity:
        return Quantity("funds")

    def strength(self, c: list[str]) -> Quantity:
        return Quantity("strength", (c[0],))

    def enemy_blocks(self, c: list[str]) -> Quantity:
        return Quantity("enemy_blocks", (c[0],))

    def own_blocks(self, c: list[str]) -> Quantity:
        return Quantity("own_blocks", (c[0],))

    def cond_if(self, c: list[Any]) -> Conditional:
        return Conditional(c[0], c[1], Form.IF)

    def cond_unless(self, c: list[Any]) -> Conditional:
        return Conditional(c[0], c[1], Form.UNLESS)

    def cond_then(self, c: list[Any]) -> Conditional:
        return Conditional(c[1], c[0], Form.THEN)


@dataclass(frozen=True)
class GameGrammar:
    """A game's order language: its grammar file, transformer and error examples.

    ``error_examples`` maps a message (shown to the player) to lines that fail
    in the same way; a parse error is named by the example it resembles
    (Lark ``match_examples``).
    """

    name: str
    transformer: type[OrderTransformer]
    error_examples: Mapping[str, Sequence[str]] = field(default_factory=dict)
    path: Path | None = None

    @cached_property
    def grammar_path(self) -> Path:
        return self.path or grammar_root() / f"{self.name}.lark"

    def parser(self) -> Lark:
        """The cached parser."""
        return load_parser(self.grammar_path)

    def parse_line(self, text: str, context: ParseContext) -> Any:
        """One line to a typed order; raises Lark's UnexpectedInput, NameNotResolved
        or OrderRejected (use :func:`parse_order_lines` for reported errors)."""
        return self.read_line(text, context)

    def read_line(self, text: str, context: ParseContext, refused_at_first_word: bool = False) -> Any:
        """:meth:`parse_line`; with ``refused_at_first_word``, a line Lark refuses at its
        first word raises :class:`RefusedAtFirstWord` rather than Lark's error."""
        printed = printed_names(context, self.parser())
        # “name” and « name » as "name", positions kept; "d'Islande" as "de Islande"
        text = printed.elisions.read(straighten_quotes(text))
        folded = strip_accents(text)
        joined = printed.join(folded)
        try:
            return self._read(text, joined, context, refused_at_first_word)
        except Exception as e:
            if joined == folded:
                if not isinstance(e, UnexpectedInput) or _at_first_word(e):
                    raise
                return self._near_miss(text, printed.join_near(folded), folded, context, e)
            try:  # the words where they were no name ("... Alsace and Lorraine buys fleet")
                return self._read(text, folded, context, refused_at_first_word)
            except Exception as plain:  # a name's refusal (as written), or where it stopped later
                if isinstance(e, UnexpectedInput) and isinstance(plain, UnexpectedInput) \
                        and _reached(plain, len(text)) >= _reached(e, len(text)):
                    raise plain from None
                raise e from None

    def _near_miss(self, text: str, near: str, folded: str, context: ParseContext,
                   error: Exception) -> Any:
        """A line that did not read, read again with the shape of a name read as printed
        taken as one name (gm.orders.printed: "Bremen and Verdn"): its order where that
        name is a prefix of one, its "did you mean" where it is a close miss; else
        ``error``, the line's own answer, is raised."""
        if near != folded:
            try:
                return self._read(text, near, context)
            except NameNotResolved as miss:
                if miss.failure.candidates:
                    raise miss from None
            except Exception:  # noqa: S110 - no name there: the line's own answer stands
                pass
        raise error

    def _read(self, text: str, folded: str, context: ParseContext,
              refused_at_first_word: bool = False) -> Any:
        """``text`` as the grammar reads it (``folded``: accents stripped, names joined)."""
        try:
            return parse_inline(load_inline_parser(self.grammar_path),
                                self.transformer(context, text), folded, refused_at_first_word)
        except RefusedAtFirstWord:
            raise
        except UnexpectedInput as e:
            if _at_first_word(e):  # no rule was reduced: the tree parser says the same
                raise
        except Exception:  # noqa: S110 - refused: read again below, for the very same answer
            pass
        tree = self.parser().parse(folded)
        try:
            return self.transformer(context, text).transform(tree)
        except VisitError as e:
            raise e.orig_exc from None

    def command_words(self, kinds: Sequence[str] = ()) -> tuple[str, ...]:
        """The first keywords of each order the grammar knows (for hints and HELP), or
        of the order rules ``kinds`` only (the orders of one phase)."""
        return _command_words(self.grammar_path, tuple(kinds))


def _reached(error: UnexpectedInput, size: int) -> int:
    """The column where a reading of a line of ``size`` characters stopped (its end: size + 1)."""
    if isinstance(error, UnexpectedToken) and error.token.type == "$END":
        return size + 1
    return int(getattr(error, "column", 0) or 0)


_PRINTED: Kept[int, tuple[ParseContext, Lark, PrintedNames]] = Kept(4096)
"""The printed names of a parse context, per context (games keep theirs: gm.kept)."""


def printed_names(context: ParseContext, parser: Lark) -> PrintedNames:
    """The names and aliases of ``context``'s slots that ``parser`` reads unquoted only
    when joined (gm.orders.printed), worked out once per context and grammar."""
    kept = _PRINTED.get(id(context))
    if kept is not None and kept[0] is context and kept[1] is parser:
        return kept[2]
    spellings = {s for index in {id(i): i for i in context.names.values()}.values()
                 for s in index.spellings}
    found = PrintedNames(spellings, name_words(parser))
    _PRINTED.put(id(context), (context, parser, found))
    return found


@cache
def _command_words(path: Path, kinds: tuple[str, ...] = ()) -> tuple[str, ...]:
    """:meth:`GameGrammar.command_words`, walked once per grammar file and phase (not once per
    bad line)."""
    if not kinds:
        return first_keywords(load_parser(path), "order")
    words: list[str] = []
    for kind in kinds:
        words += [w for w in first_keywords(load_parser(path), kind) if w not in words]
    return tuple(words)


@dataclass(frozen=True)
class Keywords:
    """A grammar's keywords by language: ``english`` those of the first alternative of a rule
    (a grammar writes English first, ``("activate"i | "activer"i)``), ``other`` those of the
    other language (French), a word written alike in both ("influence", "rus") in both. A
    mistyped command is answered with the words of the seat's language (``activte``: did you
    mean activate?, not "activate or activer")."""

    english: frozenset[str]
    other: frozenset[str]

    def of(self, language: str) -> frozenset[str]:
        return self.english if language == SOURCE_LANGUAGE else self.other


PLAYER_KEYWORDS = Keywords(frozenset(PLAYER_COMMANDS_EN), frozenset(PLAYER_COMMANDS_FR))
"""The player's own commands (gm.orders.envelope.PLAYER_COMMANDS) by language."""


@cache
def grammar_keywords(path: Path) -> Keywords:
    """The keywords of the grammar file ``path`` by language (:class:`Keywords`): English are
    those of the first expansion of each rule (each alias apart, as ``item``'s ``->
    follower_item``); the other language's, those of the expansions of the rule with the
    fewest of these, as HELP picks the form it shows in French (gm.orders.help): ``activer``,
    ``influence prendre rus``."""
    parser = load_parser(path)
    literals = {t.name: str(t.pattern.value) for t in parser.terminals if t.pattern.type == "str"}
    groups: dict[tuple[str, str | None], list[list[str]]] = {}
    for r in parser.rules:
        words = [literals[s.name] for s in r.expansion if s.is_term and s.name in literals]
        groups.setdefault((r.origin.name, r.alias), []).append(words)
    english: set[str] = set()
    other: set[str] = set()
    for expansions in groups.values():
        first = set(expansions[0])
        english |= first
        fewest = min(len(first.intersection(words)) for words in expansions)
        other.update(w for words in expansions if len(first.intersection(words)) == fewest
                     for w in words)
    return Keywords(frozenset(english), frozenset(other))


def first_keywords(parser: Lark, rule: str) -> tuple[str, ...]:
    """The keywords an alternative of ``rule`` can start with, in grammar order."""
    literals = {t.name: t.pattern.value for t in parser.terminals if t.pattern.type == "str"}
    by_origin: dict[str, list[Any]] = {}
    for r in parser.rules:
        by_origin.setdefault(r.origin.name.rsplit("__", 1)[-1], []).append(r)
    words: list[str] = []
    seen: set[str] = set()

    def walk(name: str, depth: int) -> None:
        if name in seen or depth > 4:
            return
        seen.add(name)
        for r in by_origin.get(name, ()):
            if not r.expansion:
                continue
            first = r.expansion[0]
            if first.is_term:
                word = literals.get(first.name)
                if word and word not in words:
                    words.append(word)
            else:
                walk(first.name.rsplit("__", 1)[-1], depth + 1)

    walk(rule, 0)
    return tuple(words)


def parse_order_lines(
    grammar: GameGrammar, lines: Sequence[SourceLine], context: ParseContext
) -> ParseResult:
    """Parse a section's order lines leniently: one result per line (orders.md §2).

    Accepted lines become :class:`ParsedOrder` with the canonical echo;
    a bad line becomes a :class:`LineError` (named by example, with the
    nearest names or commands), prose becomes :class:`Ignored`; a bad line
    never hides the good ones.
    """
    result = ParseResult()
    for line in lines:
        result.lines.append(_parse_one(grammar, line, context, _after_prose(result.lines)))
    return result


def _after_prose(done: list[LineResult]) -> str | None:
    """The text of the line before when it was prose (None otherwise)."""
    return done[-1].line.text if done and isinstance(done[-1], Ignored) else None


_FULL_STOP = re.compile(r"\s*[.!]+\s*$")


def without_full_stop(text: str) -> str:
    """An order line without the full stop or exclamation mark a sentence ends with
    (``pass.``, ``buy army 3.``): tried again so when the line does not parse (issue 17)."""
    return _FULL_STOP.sub("", text)


def _without_full_stop(grammar: GameGrammar, line: SourceLine, context: ParseContext,
                       after_prose: str | None, first_word: bool = False) -> ParsedOrder | None:
    """The order read once more without a sentence's full stop, or None."""
    bare = without_full_stop(line.text)
    if bare == line.text or not bare.strip() or first_word:
        return None
    again = _parse_one(grammar, SourceLine(line.number, bare), context, after_prose)
    return ParsedOrder(line, again.order, again.echo) if isinstance(again, ParsedOrder) else None


def _parse_one(
    grammar: GameGrammar, line: SourceLine, context: ParseContext, after_prose: str | None
) -> LineResult:
    commands = context.commands or grammar.command_words()
    begun = commands_begun(line.text, commands)
    if begun:
        return unknown_command(line, commands, after_prose, begun,
                               grammar_keywords(grammar.grammar_path))
    try:
        order = grammar.read_line(line.text, context, refused_at_first_word=True)
    except RefusedAtFirstWord:  # as _syntax_error answers Lark's error at the first word
        return unknown_command(line, context.commands or grammar.command_words(), after_prose,
                               keywords=grammar_keywords(grammar.grammar_path))
    except UnexpectedInput as e:
        again = _without_full_stop(grammar, line, context, after_prose, _at_first_word(e))
        return again or _syntax_error(grammar, line, context, e, after_prose)
    except NameNotResolved as e:  # "to Småland force." read "Småland force." as a name
        again = _without_full_stop(grammar, line, context, after_prose)
        return again or e.failure.to_error(line)
    except OrderRejected as e:
        return LineError(line, e.kind, e.reason, e.suggestions)
    return ParsedOrder(line, order, order.echo())


def _syntax_error(
    grammar: GameGrammar,
    line: SourceLine,
    context: ParseContext,
    error: UnexpectedInput,
    after_prose: str | None,
) -> LineResult:
    commands = context.commands or grammar.command_words()
    if _at_first_word(error):
        return unknown_command(line, commands, after_prose,
                               keywords=grammar_keywords(grammar.grammar_path))
    label = _named(grammar, error)
    where = _where(error)
    if label:
        return LineError(line, ErrorKind.INVALID, msg("{label} ({where})", label=label, where=where))
    if _in_condition(line.text, error):
        return LineError(line, ErrorKind.INVALID, msg(
            "not understood {where}, in its condition (HELP conditions)",
            where=where))
    written = _written(grammar.grammar_path, _order_word(line.text))
    if written is None:
        return LineError(line, ErrorKind.INVALID, msg("not understood {where}", where=where))
    syntax, topic = written
    return LineError(line, ErrorKind.INVALID, msg(
        "not understood {where}; it is written {syntax} (HELP {topic})",
        where=where, syntax=Text(syntax), topic=topic))


_CONDITION = re.compile(r"\s(?:if|si|unless|sauf\s+si)\s", re.IGNORECASE)
"""Where the condition of ``ORDER if|unless CONDITION`` starts (conditions.lark)."""
_THEN = re.compile(r"\s(?:then|alors)\s", re.IGNORECASE)
"""Where the order of ``if CONDITION then ORDER`` starts."""


def _in_condition(text: str, error: UnexpectedInput) -> bool:
    """Whether Lark stopped inside the line's condition, the order before it read: a past
    the word ``if``/``unless`` of ``ORDER if CONDITION``, or before ``then`` in ``if
    CONDITION then ORDER``. Such a line is answered about its condition, not with the
    order's syntax ("move ... if Karl XII arrives")."""
    column = len(text) + 1 if isinstance(error, UnexpectedToken) and error.token.type == "$END" \
        else getattr(error, "column", -1)
    if column < 1:
        return False
    if _IF_FIRST.match(text):
        then = _THEN.search(text)
        return then is None or column <= then.end()  # Lark stops at 'then' itself too
    found = _CONDITION.search(text)
    return found is not None and column > found.end()


_IF_FIRST = re.compile(r"\s*(?:if|si)\s", re.IGNORECASE)


def _order_word(text: str) -> str:
    """The first word of a line's order, folded: after ``then`` in ``if CONDITION then
    ORDER``, else the line's first word."""
    then = _THEN.search(text) if _IF_FIRST.match(text) else None
    words = text[then.end():].split(maxsplit=1) if then else text.split(maxsplit=1)
    return fold(words[0]) if words else ""


@lru_cache(maxsize=256)
def _written(grammar: Path, word: str) -> tuple[str, str] | None:
    """How the order of the grammar file ``grammar`` that a line's first word (``word``,
    folded) begins is written, as its
    HELP shows it in the language of that word ("sail" the English form, "naviguer" the
    French), and its HELP topic; None when no order begins so. A line that starts as an
    order and does not read is answered with the order's syntax, so that the player can
    write it again without a round of mail for HELP (orders.md §2: the reason)."""
    # help reads this module's grammars: imported here
    from gm.orders.help import command_help, find_topic, load_docs, topic_name, topics_of

    docs = load_docs(grammar)
    for language in languages():
        for entry in command_help(load_parser(grammar), "order", docs, language):
            if fold(entry.syntax.split(maxsplit=1)[0]) == word:
                found = find_topic(topics_of(grammar.stem), entry.name)
                return entry.syntax, topic_name(*found) if found else entry.name.replace("_", " ")
    return None


_FIRST_WORD = re.compile(r"[^\W_][\w'’\-]*")
"""A line's first word as a name's word is read (common.lark's WORD, without the dot)."""


def commands_begun(text: str, commands: Sequence[str]) -> list[str]:
    """The commands the line's first word begins with when it is no command itself but one
    with more letters after it ("recons", "sieges", "reconnaissance", "reconLivland"),
    longest first; [] otherwise. The lexer reads a keyword where it finds one, even inside a
    word, and the rest became a name: "recons Livland" was answered "unknown territory 's
    Livland'", "moves from ..." "a move needs 'from TERRITORY:'". Such a word is answered as
    the unknown command it is, naming these (orders.md §2: the reason, and the nearest
    words where one was misspelt)."""
    m = _FIRST_WORD.match(text.lstrip())
    if m is None:
        return []
    word = fold(m.group())
    folded = _folded(tuple(commands))
    if word in folded.values():
        return []
    return sorted({c for c, f in folded.items() if word.startswith(f)}, key=lambda c: (-len(c), c))


@lru_cache(maxsize=256)
def _folded(commands: tuple[str, ...]) -> dict[str, str]:
    """Each command and its folded form, per command list (a phase's), worked out once:
    folding the ~45 words of a list at every order line took ~50 us a line (issue 21)."""
    return {c: fold(c) for c in commands}


def _own_command_near(first: str, commands: Sequence[str] = PLAYER_COMMANDS) -> tuple[str, ...]:
    """The player's own commands (gm.orders.envelope.PLAYER_COMMANDS) ``first`` is near; none
    when it is one of them (``Ready when you are!``: a line the envelope read as prose, not
    a slip). Only the near ones: a word that merely begins with one (``Checking``,
    ``Address``) is prose more often than a slip."""
    m = _FIRST_WORD.match(first)
    if m is None or fold(m.group()) in _PLAYER_WORDS:
        return ()
    return nearest_words(first, commands)


_PLAYER_WORDS = frozenset(fold(c) for c in PLAYER_COMMANDS)


def unknown_command(line: SourceLine, commands: Sequence[str],
                    after_prose: str | None = None, begun: Sequence[str] = (),
                    keywords: Keywords | None = None) -> LineError | Ignored:
    """A line whose first word is no command: prose is ignored (orders.md §2);
    otherwise an error naming the nearest commands of this phase, never the whole
    list (issue 17: ``mvoe`` -> ``move``), else those it begins with (``begun``:
    ``reconnaissance`` -> ``recon``), else a player's own command it is near (``READYY`` ->
    ``READY``: gm.orders.envelope.PLAYER_COMMANDS). The commands named are those of the
    reader's language (``keywords``: an English seat is offered ``activate``, a French one
    ``activer``), the other language's only when none of its own is near (:func:`_offered`)."""
    first = line.text.split(" ", 1)[0] if line.text else ""
    near = nearest_words(first, commands) or tuple(begun) or _own_command_near(first)
    # a typo of a command ("plcae") is an error even in a sentence; prose near no command
    # ("Hi" is one letter from "si") is ignored when it plainly is prose
    typo = bool(near) and len(fold(first)) >= 4 and edit_distance(fold(first), fold(near[0])) <= 1
    signal = prose_signal(line.text, after_prose)
    if (signal == "strong" and not typo) or (signal == "weak" and not near):
        return Ignored(line)
    if near:
        reason = msg("unknown command {word!r}: did you mean {commands}?", word=first,
                     commands=_offered(first, commands, begun, keywords, near))
    else:
        reason = msg("unknown command {word!r} (HELP lists the orders of this phase)", word=first)
    return LineError(line, ErrorKind.INVALID, reason, near)


def _offered(first: str, commands: Sequence[str], begun: Sequence[str],
             keywords: Keywords | None, near: tuple[str, ...]) -> Name:
    """The commands a reply offers for the unknown word ``first``, as a :class:`Name` said
    in each language with that language's words (``near``, the words of both, where none of
    its own is near)."""
    def said(language: str) -> Text | str:
        own = keywords.of(language) if keywords is not None else frozenset(commands)
        words = (nearest_words(first, [c for c in commands if c in own])
                 or tuple(c for c in begun if c in own)
                 or _own_command_near(first, [c for c in PLAYER_COMMANDS
                                                     if c in PLAYER_KEYWORDS.of(language)]))
        return either(words or near)
    english = said(SOURCE_LANGUAGE)
    return Name(str(english), **{language: translate(said(language), language)
                                 for language in languages() if language != SOURCE_LANGUAGE})


def _at_first_word(error: UnexpectedInput) -> bool:
    if isinstance(error, UnexpectedToken):
        return error.token.start_pos in (0, None) and error.token.type != "$END"
    if isinstance(error, UnexpectedCharacters):
        return error.pos_in_stream == 0
    return False


def _named(grammar: GameGrammar, error: UnexpectedInput) -> str | None:
    if not grammar.error_examples:
        return None
    parser = grammar.parser()
    examples = {k: [strip_accents(x) for x in v] for k, v in grammar.error_examples.items()}
    try:
        return error.match_examples(parser.parse, examples, use_accepts=True)
    except UnexpectedInput:  # pragma: no cover - defensive
        return None


def _where(error: UnexpectedInput) -> str:
    if isinstance(error, UnexpectedToken):
        if error.token.type == "$END":
            return msg("at the end of the line: it stops too early")
        return msg("at {text!r}, column {column}", text=str(error.token), column=error.column)
    if isinstance(error, UnexpectedCharacters):
        return msg("at {text!r}, column {column}", text=error.char, column=error.column)
    return msg("at the end of the line")


def nearest_words(word: str, commands: Sequence[str], limit: int = 3) -> tuple[str, ...]:
    """The commands nearest ``word`` (one edit per three letters, at least one), best first."""
    return _nearest_of(word, tuple(commands), limit)


@lru_cache(maxsize=4096)
def _nearest_of(word: str, commands: tuple[str, ...], limit: int) -> tuple[str, ...]:
    """:func:`nearest_words`, remembered: the same first words ("Thanks,", "Cheers") open the
    prose lines of many mails, and each costs an edit distance to every command (issue 21)."""
    key = fold(word)
    if not key:
        return ()
    scored = sorted((edit_distance(key, fold(c)), i, c) for i, c in enumerate(commands))
    near = [c for d, _, c in scored if d <= max(1, len(key) // 3)]
    return tuple(dict.fromkeys(near))[:limit]
