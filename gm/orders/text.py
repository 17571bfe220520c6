"""From a decoded mail body to the lines that are parsed (orders.md §1).

The MIME layer hands over plain text (format=flowed unwrapped, HTML reduced
to text, ``<blockquote>`` already dropped). Here we drop what a player did
not mean as orders: quoted text in its common forms, the signature (and the
line a phone adds, "Sent from my iPhone"), the
service's own quoted reports (``==== gm `` marker), everything after ``END``,
comments, blank lines and list markers; and we join continuation lines.

Line numbers are those of the body as handed to us (1-based); a logical line
made of continuation lines carries the number of its first physical line.
Lines between ``PRESS`` and ``ENDPRESS`` are kept verbatim (blank lines,
``#`` and list markers included), since press is passed on as written.
"""

from __future__ import annotations

import re

from gm.orders.model import SourceLine
from gm.orders.names import strip_accents

MARKER = "==== gm "
"""Every report and reply starts its quotable body with this (orders.md §1)."""

CONTINUATION_WORDS = frozenset(
    {"unless", "and", "or", "then", "via", "with", "force"}  # orders.md §1
    | {"sauf", "et", "ou", "alors", "par", "avec", "forcee"}  # French forms (§8), an extension
)

_ATTRIBUTION = (
    re.compile(r"^\s*on\b.*\bwrote\s*:\s*$", re.I),
    re.compile(r"^\s*le\b.*\ba\s+[ée]crit\s*:\s*$", re.I),
    re.compile(r"^.*\bschrieb\s*:\s*$", re.I),
    re.compile(r"^\s*am\b.*\bschrieb\b.*:\s*$", re.I),
    re.compile(r"^.*\bha\s+scritto\s*:\s*$", re.I),
)
_ATTRIBUTION_END = re.compile(r"(wrote|[ée]crit|schrieb|scritto)\s*:\s*$", re.I)
_ATTRIBUTION_START = re.compile(r"^\s*(on|le|am|il)\s", re.I)
_ORIGINAL = re.compile(
    r"^\s*-{2,}\s*(original message|message d'origine|urspr[üu]ngliche nachricht|"
    r"messaggio originale|forwarded message)\s*-{2,}\s*$",
    re.I,
)
_HEADER_FROM = re.compile(r"^\s*\*?(from|de|von|da)\s*:\*?\s", re.I)
_HEADER_NEXT = re.compile(
    r"^\s*\*?(sent|date|envoy[ée]|gesendet|inviato|to|[àa]|an|subject|objet|betreff|oggetto)\s*:", re.I
)
_SIGNATURE = re.compile(r"^--\s?$")
# The line a phone or webmail client adds under the text ("Sent from my iPhone",
# "Get Outlook for Android", "Envoyé de mon iPhone"): a signature without "-- ".
_MOBILE_SIGNATURE = re.compile(
    r"^\s*(sent (from|with|via|using)|get outlook for|envoy[ée] (de|depuis|avec|à partir de)"
    r"|t[ée]l[ée]chargez outlook pour|gesendet von|inviato da)\s+\S.{0,60}$",
    re.I,
)
_LIST_MARKER = re.compile(
    r"^\s*(?:\(?\d{1,3}[.):]|\d{1,3}\s*[-–—]|\(?[a-z][.)]|[-*•·–—+▪◦‣○●])\s+"
)
"""``1.``, ``2)``, ``(3)``, ``3 -``, ``4:``, ``a)``, ``-``, ``*``, ``•``, ``–`` ... before an
order (orders.md §1: leading list markers are dropped; "3 -" and letters: issue 17)."""
_QUOTE_OPENING = re.compile(
    "|".join(f"(?:{p.pattern})" for p in (_SIGNATURE, _ORIGINAL, _MOBILE_SIGNATURE, *_ATTRIBUTION)),
    re.I,
)
"""A line that opens the quoted part whatever comes before or after it: a signature, an
original-message rule, a phone's signature or an attribution; one pattern for the eight
(issue 21: each line of each mail was tried against them one by one, a third of
:func:`clean_body`). :data:`_SIGNATURE` has no letters, so ``re.I`` leaves it as it is."""
_END = re.compile(r"^\s*(end|fin)\s*[.!]*\s*$", re.I)
_PRESS = re.compile(r"^\s*(press|presse)\b", re.I)
_ENDPRESS = re.compile(r"^\s*(endpress|finpresse|fin\s+presse)\s*$", re.I)


_DOUBLE_QUOTES = str.maketrans({c: '"' for c in "“”„‟«»〝〞＂"})
_SINGLE_QUOTES = "‘’'‚‛"
"""The quotes :data:`_SINGLE_QUOTED` opens or closes with (a line without one has none)."""
_SINGLE_QUOTED = re.compile(r"(?<![\w’'])[‘’'‚‛](?=\S)(.*?)(?<=\S)[’'‘](?=$|[\s:;,.!?)])")


def straighten_quotes(line: str) -> str:
    """Curly, angle and single quotes around a name as straight double quotes, one
    character for one (positions are kept): ``sign treaty “Entente”``, ``« Entente »``,
    ``‘Entente d’Afrique’`` all read as ``"..."``; an apostrophe inside a word (d’Afrique,
    L’Entente) stays as written (issue 17 class 6)."""
    if line.isascii():
        if "'" not in line:
            return line  # nothing to straighten (issue 21: most lines)
    else:
        line = line.translate(_DOUBLE_QUOTES)
        if not any(q in line for q in _SINGLE_QUOTES):
            return line
    return _SINGLE_QUOTED.sub(lambda m: f'"{m.group(1)}"', line)


def clean_body(text: str) -> list[SourceLine]:
    """The lines of a decoded plain-text body as parsed (orders.md §1)."""
    physical = text.splitlines()
    stop, answered = _quote_start(physical)
    closes = [i for i, raw in enumerate(physical[:stop]) if _ENDPRESS.match(raw)]
    out: list[SourceLine] = []
    in_press = False
    for number, raw in enumerate(physical[:stop], start=1):
        if in_press:
            in_press = not _ENDPRESS.match(raw)
            out.append(SourceLine(number, raw.strip() if not in_press else raw.rstrip()))
            continue
        if raw.lstrip().startswith(">") or number - 1 in answered:
            continue
        line = _strip_marker(raw.split("#", 1)[0]).strip()
        line = " ".join(line.split())
        if not line:
            continue
        if _END.match(line):
            break
        if _PRESS.match(line):
            # kept verbatim up to its ENDPRESS; with none below, the lines are cleaned as
            # orders: the envelope sends a one-line press (PRESS TO x: text) and reads them
            in_press = bool(closes) and closes[-1] >= number
        elif out and _continues(line):
            prev = out[-1]
            out[-1] = SourceLine(prev.number, f"{prev.text} {line}")
            continue
        out.append(SourceLine(number, line))
    return out


def _continues(line: str) -> bool:
    """A line beginning with unless/and/or/then/via/with/force/; continues the one before.

    So does a line beginning with ``if`` that has no ``then`` (docs/orders.md):
    a condition wrapped onto its own line must never leave its order behind.
    """
    if line.startswith(";"):
        return True
    words = strip_accents(line).lower().split()
    first = words[0].rstrip(",:")
    if first in ("if", "si"):  # an extension: "if COND" without "then" is a wrapped condition
        return not ({"then", "alors"} & set(words))
    return first in CONTINUATION_WORDS


def _strip_marker(line: str) -> str:
    return _LIST_MARKER.sub("", line, count=1)


def _quote_start(lines: list[str]) -> tuple[int, set[int]]:
    """Index of the first line of quoted text, signature or service marker; and the
    attribution lines of quotes the player answered below (:func:`_answered_below`),
    dropped like the quoted lines, the reading going on after them."""
    answered: set[int] = set()
    for i, line in enumerate(lines):
        if MARKER in line and line.lstrip("> \t").startswith(MARKER):
            return i, answered
        if _QUOTE_OPENING.match(line):
            if any(p.match(line) for p in _ATTRIBUTION) and _answered_below(lines, i + 1):
                answered.add(i)
                continue
            return i, answered
        if ":" in line:  # both patterns end in a colon (issue 21: most lines have none)
            if _ATTRIBUTION_END.search(line) and i > 0 and _ATTRIBUTION_START.match(lines[i - 1]):
                if _answered_below(lines, i + 1):
                    answered |= {i - 1, i}
                    continue
                return i - 1, answered  # an attribution wrapped over two lines
            if _HEADER_FROM.match(line) and _outlook_block(lines, i):
                return i, answered
        if "__" in line and set(line.strip()) == {"_"} and len(line.strip()) >= 10 \
                and _outlook_block(lines, i + 1):
            return i, answered
    return len(lines), answered


def _answered_below(lines: list[str], i: int) -> bool:
    """The attribution above ``lines[i]`` opens a ``>`` quote that the player answered
    below it (bottom-posting: "On ... wrote:", the quoted report, then the orders): after
    the quoted lines (and blank lines) comes a line of the player's own that does not
    open a quote itself. A top-posted reply's quote runs to the end: nothing follows."""
    quoted = False
    for line in lines[i:]:
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith(">"):
            quoted = True
            continue
        return quoted and not _QUOTE_OPENING.match(line)
    return False


def _outlook_block(lines: list[str], i: int) -> bool:
    """Outlook's "From: / Sent:" header block starts at ``i``."""
    if i >= len(lines) or not _HEADER_FROM.match(lines[i]):
        return False
    return any(_HEADER_NEXT.match(line) for line in lines[i + 1 : i + 4])
