"""Names read as printed, unquoted, whatever punctuation or keyword they hold (orders.md §3).

A grammar reads a name as words up to the next keyword, each word made of the letters and
marks its ``WORD`` terminal takes. A printed name or alias that holds a keyword of the
grammar ("Bremen and Verden": ``and`` joins conditions) or a character no word takes
("S:t Petersburg": ``:`` ends a word) could only be read quoted. Players type names as
their map prints them, so such a name is found in the line before it is parsed and its
separators are read as parts of one word: the line keeps its length (positions, and so
the names as written, are kept), and the grammar reads the name in any name slot.

The rule lives here, once for every game: :class:`NameWords` says, from a grammar's own
terminals, which spellings it cannot read as plain words; :class:`PrintedNames` finds
those spellings in a line, the longest first. A line with none of them is searched once
and left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from lark import Lark

from gm.orders.elision import Elisions
from gm.orders.names import strip_accents

_SEPARATOR = re.compile(r"[^\w'’.\-]")
"""What a joined name's separators become ``_`` from: spaces and the punctuation no name's
word takes (``:``, ``,``, ``(`` ...); a word's own letters, apostrophes, dots and hyphens stay."""


@dataclass(frozen=True)
class NameWords:
    """What a grammar reads as one word of a name (its ``WORD`` terminal) and its keywords
    (its literal terminals, and the regular ones that outrank ``WORD``)."""

    word: re.Pattern[str]
    keywords: tuple[re.Pattern[str], ...]
    elided: tuple[str, ...] = ()
    """The keywords that hold an apostrophe (``d'abord``): gm.orders.elision keeps them."""

    def reads(self, spelling: str) -> bool:
        """Whether the grammar reads ``spelling`` (accents stripped) unquoted as a name:
        each of its words is a word of a name and none is a keyword."""
        return all(self.word.fullmatch(w) and not any(k.fullmatch(w) for k in self.keywords)
                   for w in spelling.split())

    def other_word(self) -> str:
        """A regular expression for any word of a name that is no keyword."""
        keywords = "|".join(k.pattern for k in self.keywords)
        return rf"(?!(?:{keywords})(?![\w'’.\-]))[^\W_][\w'’.\-]*"


@cache
def name_words(parser: Lark) -> NameWords:
    """The :class:`NameWords` of ``parser``, from its terminals, worked out once."""
    words = [t for t in parser.terminals if t.name.rsplit("__", 1)[-1] == "WORD"]
    if not words:
        raise ValueError("a grammar whose names are read has a WORD terminal")
    word = words[0]
    keywords = tuple(re.compile(t.pattern.to_regexp(), re.IGNORECASE) for t in parser.terminals
                     if t.pattern.type == "str" or t.priority > word.priority)
    elided = tuple(str(t.pattern.value) for t in parser.terminals
                   if t.pattern.type == "str" and any(a in str(t.pattern.value) for a in "'’"))
    return NameWords(re.compile(word.pattern.to_regexp()), keywords, elided)


class PrintedNames:
    """The spellings (names and aliases) a grammar cannot read unquoted, found in a line."""

    def __init__(self, spellings: Iterable[str], words: NameWords) -> None:
        spellings = tuple(spellings)
        self.elisions = Elisions((*spellings, *words.elided))
        """The line's French elisions written out, these names and keywords kept
        (gm.orders.elision: "d'Islande" read as "de Islande", "Mer d'Arabie" as printed)."""
        odd: dict[str, str] = {}  # one spelling per folded case ("New Zealand", "new zealand")
        for s in (" ".join(strip_accents(x).split()) for x in spellings):
            if s and not words.reads(s):
                odd.setdefault(s.lower(), s)
        self.spellings = tuple(sorted(odd.values(), key=lambda s: (-len(s), s)))  # the longest wins
        # most lines hold no such name's first word: one cheap search tells them
        self._first = re.compile("|".join(sorted({re.escape(s.split()[0].lower())
                                                  for s in self.spellings})))
        self._found = _alternation(r"\s+".join(map(re.escape, s.split())) for s in self.spellings)
        # a close miss ("Bremen and Verdn"): the words a grammar reads stand for any word
        # that is no keyword
        other = words.other_word()
        self._near = tuple(
            (tuple(w.lower() for w in s.split() if not words.reads(w)),
             r"\s+".join(re.escape(w) if not words.reads(w) else other for w in s.split()))
            for s in self.spellings)
        """Each spelling's close-miss pattern, with the words it keeps as printed: a line
        lacking one of them cannot hold that spelling's shape."""
        self._near_found: dict[tuple[int, ...], re.Pattern[str] | None] = {}

    def join(self, text: str) -> str:
        """``text`` (accents stripped, as the grammar reads it) with each printed name that
        the grammar would not read unquoted made one word, the same length; a quoted part
        (``"..."``) is left as written."""
        if not self.spellings or self._first.search(text.lower()) is None:
            return text
        return _joined(self._found, text)

    def join_near(self, text: str) -> str:
        """:meth:`join` for a line that did not read: also the spellings of the shape of such
        a name, its keyword or odd word as printed, another word in place of each of the
        others (``Bremen and Verdn``, ``S:t Petersbrug``), so that a close miss is looked up
        as one name and answered "did you mean".

        Only the spellings whose printed words the line holds are searched for (issue 21:
        one search for all 27 of Pax Britannica's, each other word a look-ahead over every
        keyword, took 1.4 ms a refused line, six times the line's parse)."""
        low = text.lower()
        which = tuple(i for i, (kept, _) in enumerate(self._near) if all(w in low for w in kept))
        if not which:
            return text
        if which not in self._near_found:
            if len(self._near_found) >= 256:  # lines of many odd words: kept bounded
                self._near_found.clear()
            self._near_found[which] = _alternation(self._near[i][1] for i in which)
        return _joined(self._near_found[which], text)


def _alternation(patterns: Iterable[str]) -> re.Pattern[str] | None:
    """One search for any of ``patterns``, each a whole run of words, the first (longest) first."""
    either = "|".join(patterns)
    # one look-behind for all (one per pattern made a line's search ten times slower)
    return re.compile(rf"(?<![\w'’])(?:{either})(?![\w'’])", re.IGNORECASE) if either else None


def _joined(found: re.Pattern[str] | None, text: str) -> str:
    """``text`` with each run ``found`` finds outside quotes made one word, the same length."""
    if found is None or found.search(text) is None:
        return text
    if '"' not in text:
        return found.sub(_one_word, text)
    parts = text.split('"')
    return '"'.join(found.sub(_one_word, p) if i % 2 == 0 else p for i, p in enumerate(parts))


def _one_word(m: re.Match[str]) -> str:
    return _SEPARATOR.sub("_", m.group())
