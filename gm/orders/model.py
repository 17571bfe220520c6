"""The typed results of parsing one section of order lines (orders.md §2).

A game's parser turns each line into exactly one of :class:`ParsedOrder`,
:class:`LineError` or :class:`Ignored`; one bad line never hides the good ones.
*Invalid* (not understood), *ambiguous* and *unknown name* are kept apart from
*illegal* (understood, against the rules), which is validation's business.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


@dataclass(frozen=True)
class SourceLine:
    """A line as parsed: its number after decoding and unwrapping, and its text."""

    number: int
    text: str


@dataclass(frozen=True)
class ProseLine(SourceLine):
    """A line the envelope already read as prose (a command word opening a sentence:
    "Help yourself to the coffee."): listed as ignored, never given to a game's parser."""


class ErrorKind(Enum):
    INVALID = "not understood"
    UNKNOWN_NAME = "unknown name"
    AMBIGUOUS = "ambiguous"
    NOT_NOW = "not allowed in this phase"
    HIDDEN = "refers to hidden information"


@dataclass(frozen=True)
class ParsedOrder:
    """An order understood; ``echo`` is its canonical text, which re-parses to it."""

    line: SourceLine
    order: Any
    echo: str


@dataclass(frozen=True)
class LineError:
    line: SourceLine
    kind: ErrorKind
    reason: str
    suggestions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ignored:
    """Plain prose (a greeting, a sign-off): listed as ignored, not as an error."""

    line: SourceLine
    reason: str = "prose"


LineResult = ParsedOrder | LineError | Ignored


@dataclass
class ParseResult:
    lines: list[LineResult] = field(default_factory=list)

    @property
    def orders(self) -> list[ParsedOrder]:
        return [r for r in self.lines if isinstance(r, ParsedOrder)]

    @property
    def errors(self) -> list[LineError]:
        return [r for r in self.lines if isinstance(r, LineError)]
