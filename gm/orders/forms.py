"""How a command is written, read from its rule in the grammar (orders.md §1, §9).

The rule's EBNF (``lark.Lark.grammar.rule_defs``: before Lark turns ``x?`` into two
rules) gives each command's forms with what is optional kept optional: ``EXTEND [PRIVATE]
<48h|2d> [: reason]`` and ``EXTEND [PRIVATE] TO <date> [<time>] [: reason]``. A choice of
keywords that say the same in several languages (``("extend"i | "prolonger"i)``: the
alternatives differ only in their words) is one word in the reader's language, English
first and the other language last, as the grammars write them; a choice that changes
what follows (``DURATION | "to" DATE``) is two forms. HELP shows these (gm.orders.help),
so the syntax it gives is the parser's own and cannot drift from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from lark import Lark, Token, Tree
from lark.grammar import NonTerminal, Terminal


@dataclass(frozen=True)
class Word:
    """A keyword, as written (upper case)."""
    text: str


@dataclass(frozen=True)
class Slot:
    """A value the writer gives: a terminal (``ARG``, ``DATE``) or a rule shown as one
    (``reason``), by its lower-case name."""
    name: str


@dataclass(frozen=True)
class Opt:
    """Parts that may be left out (``x?``, ``[x]``)."""
    parts: tuple[Part, ...]


@dataclass(frozen=True)
class Many:
    """Parts written once or more (``x+``); ``x*`` is an :class:`Opt` of it."""
    parts: tuple[Part, ...]


Part = Word | Slot | Opt | Many
Form = tuple[Part, ...]


class _Reader:
    def __init__(self, parser: Lark, language: str, slots: frozenset[str]) -> None:
        self.trees: dict[str, Tree] = {str(name): tree for name, _, tree, _ in
                                       parser.grammar.rule_defs}
        self.english = language == "en"
        self.slots = slots

    def forms(self, node: object) -> list[Form]:
        if isinstance(node, Tree):
            return getattr(self, f"_{node.data}")(node)
        if isinstance(node, Terminal):
            return [(Slot(node.name.lower()),)]
        if isinstance(node, NonTerminal):
            if node.name in self.slots or node.name not in self.trees:
                return [(Slot(node.name),)]
            return self.forms(self.trees[node.name])
        raise TypeError(f"unexpected grammar node {node!r}")

    def _expansions(self, node: Tree) -> list[Form]:
        options = list(node.children)
        if len(options) > 1 and len({_shape(o) for o in options}) == 1:  # one word, languages
            return self.forms(options[0] if self.english else options[-1])
        return [f for o in options for f in self.forms(o)]

    def _expansion(self, node: Tree) -> list[Form]:
        return [sum(parts, ()) for parts in product(*(self.forms(c) for c in node.children))]

    def _alias(self, node: Tree) -> list[Form]:
        return self.forms(node.children[0])

    def _value(self, node: Tree) -> list[Form]:
        return self.forms(node.children[0])

    def _literal(self, node: Tree) -> list[Form]:
        token = str(node.children[0])
        if not token.startswith('"'):  # an anonymous regular expression
            return [(Slot("text"),)]
        return [(Word(token[1:token.rindex('"')].upper()),)]

    def _maybe(self, node: Tree) -> list[Form]:
        return [(Opt(f),) for f in self.forms(node.children[0])]

    def _expr(self, node: Tree) -> list[Form]:
        inner, op = node.children[0], str(node.children[1])
        return [_repeated(f, op) for f in self.forms(inner)]


def _repeated(form: Form, op: str) -> Form:
    """``x?``, ``x+``, ``x*`` as parts."""
    if op == "?":
        return (Opt(form),)
    if op == "+":
        return (Many(form),)
    if op == "*":
        return (Opt((Many(form),)),)
    raise ValueError(f"unexpected repetition {op!r}")


def _shape(node: object) -> tuple[str, ...]:
    """What an alternative holds but its keywords: alternatives of the same shape say the
    same in several languages."""
    if isinstance(node, Terminal | NonTerminal):
        return (node.name,)
    if isinstance(node, Token):
        return (str(node),) if node.type == "OP" else ()
    if isinstance(node, Tree):
        if node.data == "literal":
            return ()
        if node.data == "alias":  # its name is not written (``-> help_fr``)
            return _shape(node.children[0])
        return tuple(s for c in node.children for s in _shape(c))
    return ()


def command_forms(parser: Lark, rule: str, language: str = "en",
                  slots: Sequence[str] = ()) -> list[Form]:
    """Every form of ``rule``, its keywords in ``language``; the rules named in ``slots``
    (``reason``) are shown as one value rather than spelt out."""
    reader = _Reader(parser, language, frozenset(slots))
    return reader.forms(reader.trees[rule])


def written(form: Sequence[Part], shown: Mapping[str, str]) -> str:
    """A form as HELP shows it: a slot by ``shown`` (``<name>``, ``[: reason]``: one that
    is bracketed already is not bracketed again), what is optional in brackets."""
    out: list[str] = []
    for part in form:
        if isinstance(part, Word):
            out.append(part.text)
        elif isinstance(part, Slot):
            out.append(shown.get(part.name, f"<{part.name}>"))
        elif isinstance(part, Many):
            out.append(f"{written(part.parts, shown)} ...")
        else:
            inner = written(part.parts, shown)
            out.append(inner if inner.startswith("[") and len(part.parts) == 1
                       else f"[{inner}]")
    return " ".join(out).replace(" :", ":").replace(" ,", ",")
