"""Name matching for orders (orders.md §3).

Territories, seas, blocks, units and powers match case-insensitively after
transliteration to ASCII, ignoring punctuation and spaces; regnal numbers may
be written in digits; a unique prefix of at least 3 letters is accepted; an
exact name (or alias) beats a prefix. A name that still matches several things
is ambiguous, and an unknown name comes with "did you mean" suggestions ranked
by edit distance. A :class:`NameIndex` holds the names of one *slot* (the
things that fit one place in an order): the game builds one per slot.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product

from gm.i18n import N_, msg
from gm.orders.model import ErrorKind, LineError, SourceLine

MIN_PREFIX = 3
"""orders.md §3: "A unique prefix of at least 3 letters is accepted"."""

MAX_SUGGESTIONS = 3

SLOT_WORDS = (N_("name"), N_("territory"), N_("sea"), N_("nation"), N_("block"), N_("area"),
              N_("sea zone"), N_("power"), N_("tile"), N_("post"), N_("place"), N_("choice"))
"""What the games call the slots of their orders (``NameIndex(..., slot=...)``), said
in a refusal as ``msg(slot)``: marked here so the catalogues hold them."""

# Letters NFD does not decompose, and the spellings players use for them
# (orders.md §3: Sjaelland = Själland = Sjælland, Malopolska = Małopolska,
# Gross = Groß). The first spelling is the one a query is folded to; the index
# also holds the others, so every spelling of a name finds it.
_SPECIAL: Mapping[str, tuple[str, ...]] = {
    "æ": ("ae", "a"),
    "ø": ("o", "oe"),
    "ł": ("l",),
    "ß": ("ss",),
    "đ": ("d",),
    "ð": ("d",),
    "þ": ("th",),
    "œ": ("oe",),
    "ı": ("i",),
}
# Letters that decompose (å -> a + ring) but are also written with an "e"
# or doubled vowel by Scandinavian and German players.
_VARIANTS: Mapping[str, tuple[str, ...]] = {
    "ä": ("a", "ae"),
    "ö": ("o", "oe"),
    "ü": ("u", "ue"),
    "å": ("a", "aa"),
}
_ROMAN = re.compile(r"^(x{0,3})(ix|iv|v?i{0,3})$")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10}
_SPLIT = re.compile(r"[^a-z0-9']+")


def strip_accents(text: str) -> str:
    """Drop combining marks character by character, keeping the length.

    Each character folds on its own and is kept unchanged when its folded
    form is not exactly one character, so positions in the result are
    positions in ``text`` (used to make grammar keywords accent-optional,
    orders.md §8).
    """
    if text.isascii():
        return text
    return text.translate(_STRIPPED)


@cache
def _strip_char(ch: str) -> str:
    """One character of :func:`strip_accents` (kept: a line is parsed several times)."""
    base = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
    return base if len(base) == 1 else ch


class _Stripped(dict[int, str]):
    """:func:`strip_accents`'s table for ``str.translate``: each character's fold, worked
    out the first time it is met (issue 21: a line folded in C, not letter by letter)."""

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        folded = self[code] = ch if ch.isascii() else _strip_char(ch)
        return folded


_STRIPPED = _Stripped()


def _roman_to_int(word: str) -> int | None:
    if not word or not _ROMAN.match(word):
        return None
    total, prev = 0, 0
    for ch in reversed(word):
        value = _ROMAN_VALUES[ch]
        total = total - value if value < prev else total + value
        prev = max(prev, value)
    return total


def _key_from_ascii(text: str) -> str:
    words = [w.replace("'", "") for w in _SPLIT.split(text) if w.replace("'", "")]
    # Regnal numbers (Karl XII = Karl 12): a roman numeral after the first word.
    words = [
        str(_roman_to_int(w)) if i > 0 and _roman_to_int(w) else w for i, w in enumerate(words)
    ]
    return "".join(words)


def _ascii_spellings(text: str) -> list[str]:
    """Every ASCII spelling of ``text`` (lowercase), the primary one first."""
    if text.isascii():
        return [text.lower()]
    pieces: list[tuple[str, ...]] = []
    for ch in text.lower():
        if ch in _VARIANTS:
            pieces.append(_VARIANTS[ch])
        elif ch in _SPECIAL:
            pieces.append(_SPECIAL[ch])
        else:
            pieces.append((strip_accents(ch),))
    if sum(1 for p in pieces if len(p) > 1) > 4:  # keep the index small
        return ["".join(p[0] for p in pieces)]
    return ["".join(combo) for combo in product(*pieces)]


def fold(text: str) -> str:
    """The matching key of a name: ASCII, lowercase, no punctuation or spaces.

    ``fold("Skåne") == fold("skane")``, ``fold("Karl XII") == fold("karl 12")``,
    ``fold("Bremen-Verden") == fold("bremen verden")`` (orders.md §3).
    """
    return _key_from_ascii(_ascii_spellings(text)[0])


@lru_cache(maxsize=8192)
def query_keys(text: str) -> tuple[str, ...]:
    """The matching keys of what a player wrote, its primary fold first, then the keys of
    its other ASCII spellings (``Själland`` is looked up as ``sjalland`` and ``sjaelland``,
    so it finds ``Sjælland``; orders.md §3). Remembered: players name the same few places
    and blocks in every mail (issue 21)."""
    keys = [fold(text)]
    for spelling in _ascii_spellings(text)[1:]:
        key = _key_from_ascii(spelling)
        if key and key not in keys:
            keys.append(key)
    return tuple(keys)


def edit_distance(a: str, b: str) -> int:
    """Edit distance between two keys (for "did you mean"): insertions, deletions,
    substitutions and swaps of two neighbouring letters ("mvoe" is one from "move")."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]


def either(names: Iterable[str]) -> str:
    """``A or B or C`` as one message, the ``or`` in the reader's language ("A ou B")."""
    out: str = ""
    for name in names:
        out = msg("{a} or {b}", a=out, b=name) if out else name
    return out


def listed(names: Iterable[str]) -> str:
    """``A, B, C`` as one message, each name said in the reader's language where it is a
    :class:`gm.i18n.Name` ("Norvège" to a French seat)."""
    out: str = ""
    for name in names:
        out = msg("{a}, {b}", a=out, b=name) if out else name
    return out


@dataclass(frozen=True)
class NameFailure:
    """A name that matched nothing (UNKNOWN_NAME) or several things (AMBIGUOUS).

    ``candidates`` are the things it matched (ambiguous) or the nearest names
    (unknown), canonical spellings, best first.
    """

    kind: ErrorKind
    text: str
    candidates: tuple[str, ...] = ()
    slot: str = ""

    @property
    def reason(self) -> str:
        what = self.slot or "name"
        if self.kind is ErrorKind.AMBIGUOUS:
            return msg("{slot} {text!r} is ambiguous: it matches {names}", slot=msg(what),
                       text=self.text, names=listed(self.candidates))
        if self.candidates:
            return msg("unknown {slot} {text!r}: did you mean {names}?", slot=msg(what),
                       text=self.text, names=either(self.candidates))
        # TRANSLATORS: {slot} is a noun of either gender (territory, zone, tile)
        return msg("unknown {slot} {text!r}", slot=msg(what), text=self.text)

    def to_error(self, line: SourceLine) -> LineError:
        """The line error a parser reports for this failure."""
        return LineError(line, self.kind, self.reason, self.candidates)


LOOKUPS_KEPT = 2048
"""Answers an index remembers (then it starts again)."""


class NameIndex:
    """The names that fit one slot of an order, with their aliases.

    ``NameIndex({"Skåne": ["Scania"], "Småland": []}, slot="territory")``.
    """

    def __init__(self, names: Mapping[str, Iterable[str]], slot: str = "",
                 shown: Callable[[str], str] | None = None) -> None:
        """``shown``: how a reply names a canonical name it offers ("did you mean"), when the
        canonical name is an id (a power's, said as the reader's language names it)."""
        self.slot = slot
        self._shown = shown
        self._exact: dict[str, set[str]] = {}
        self._looked_up: dict[str, str | NameFailure] = {}
        self._canonical = tuple(names)
        self._spellings_of: dict[str, tuple[str, ...]] = {}
        for canonical, aliases in names.items():
            self._spellings_of[canonical] = tuple(dict.fromkeys((canonical, *aliases)))
            for spelling in self._spellings_of[canonical]:
                for key in {_key_from_ascii(s) for s in _ascii_spellings(spelling)}:
                    if key:
                        self._exact.setdefault(key, set()).add(canonical)
        self.spellings = tuple(dict.fromkeys(s for ss in self._spellings_of.values() for s in ss))
        """Every name and alias as given (gm.orders.printed reads them as printed)."""

    @classmethod
    def of(cls, names: Iterable[str], slot: str = "") -> NameIndex:
        """An index of names without aliases."""
        return cls({n: () for n in names}, slot)

    def __contains__(self, canonical: object) -> bool:
        return canonical in self._canonical

    def spellings_of(self, canonical: str) -> tuple[str, ...]:
        """``canonical`` and its aliases, as given."""
        return self._spellings_of.get(canonical, ())

    @property
    def names(self) -> tuple[str, ...]:
        """The canonical names, in the order given."""
        return self._canonical

    def lookup(self, text: str) -> str | NameFailure:
        """The canonical name ``text`` stands for, or why there is none (§3).

        Remembered per index (an index is built once per game state and power, and both
        answers are frozen): the names of a mail are those of the last one (issue 21)."""
        found = self._looked_up.get(text)
        if found is None:
            if len(self._looked_up) >= LOOKUPS_KEPT:
                self._looked_up.clear()
            found = self._looked_up[text] = self._lookup(text)
        return found

    def _lookup(self, text: str) -> str | NameFailure:
        keys = query_keys(text)
        for key in keys:  # the primary spelling first: Själland -> sjalland, then sjaelland
            exact = self._exact.get(key)
            if exact:
                return self._one(text, exact)
        found = {c for key in keys if len(key) >= MIN_PREFIX
                 for k, cs in self._exact.items() if k.startswith(key) for c in cs}
        if found:
            return self._one(text, found)
        return NameFailure(ErrorKind.UNKNOWN_NAME, text, self._said(self.suggest(text)), self.slot)

    def _said(self, candidates: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(map(self._shown, candidates)) if self._shown else candidates

    def is_exact(self, text: str) -> bool:
        """Whether ``text`` is one of the spellings in full (not only the start of one)."""
        return any(key in self._exact for key in query_keys(text))

    def resolve(self, text: str) -> str:
        """Like :meth:`lookup`, raising :class:`NameNotResolved` on failure."""
        found = self.lookup(text)
        if isinstance(found, NameFailure):
            raise NameNotResolved(found)
        return found

    def suggest(self, text: str, limit: int = MAX_SUGGESTIONS) -> tuple[str, ...]:
        """The nearest canonical names by edit distance ("did you mean")."""
        key = fold(text)
        if not key:
            return ()
        best: dict[str, int] = {}
        for k, cs in self._exact.items():
            d = edit_distance(key, k)
            if len(k) > len(key):  # a misspelt prefix ("Smal" for Småland)
                d = min(d, edit_distance(key, k[: len(key)]) + 1)
            for c in cs:
                best[c] = min(best.get(c, d), d)
        cutoff = max(2, len(key) // 3)
        ranked = sorted((d, self._canonical.index(c), c) for c, d in best.items() if d <= cutoff)
        return tuple(c for _, _, c in ranked[:limit])

    def _one(self, text: str, found: set[str]) -> str | NameFailure:
        if len(found) == 1:
            return next(iter(found))
        ordered = tuple(c for c in self._canonical if c in found)
        return NameFailure(ErrorKind.AMBIGUOUS, text, self._said(ordered), self.slot)


class NameNotResolved(Exception):
    """Raised inside a grammar transformer; the parser turns it into a LineError."""

    def __init__(self, failure: NameFailure) -> None:
        super().__init__(failure.reason)
        self.failure = failure
