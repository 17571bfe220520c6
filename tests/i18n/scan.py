"""Finding text left in the wrong language in a rendered mail.

A line of a French mail that holds two or more English function words ("the",
"your", "is", ...) is an English sentence left untranslated; a line of an
English mail with two or more French ones ("vous", "les", "est", ...) is French
left in English. Names, order lines and addresses rarely hold two such words, so
the scan needs no list of exceptions for them; a test can pass ``allow`` for a
line it knows is quoted on purpose.

Reuse: ``english_lines(text)`` / ``french_lines(text)`` for any rendered text
(a game's report too); ``visible_text(html)`` first for HTML.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

ENGLISH = frozenset("""the and of is are was were your you with for has have this that these
those not will would should from into than then there their its it be been by at
which who what when where while no any every each our we they them he she his her""".split())
FRENCH = frozenset("""le la les des du une est sont vous votre vos pour dans avec sur pas aux
qui que ont été être ses leur leurs nous cette ces il elle ne mais où déjà très""".split())

_WORD = re.compile(r"[a-zA-ZÀ-ÿ']+")


def _words(line: str) -> set[str]:
    return {w.lower().strip("'") for w in _WORD.findall(line)}


def _lines_with(text: str, vocabulary: frozenset[str], allow: Iterable[str]) -> list[str]:
    allowed = tuple(allow)
    return [line for line in text.splitlines()
            if len(_words(line) & vocabulary) >= 2 and not any(a in line for a in allowed)]


def english_lines(text: str, allow: Iterable[str] = ()) -> list[str]:
    """The lines of ``text`` (meant to be French) that read as English."""
    return _lines_with(text, ENGLISH, allow)


def french_lines(text: str, allow: Iterable[str] = ()) -> list[str]:
    """The lines of ``text`` (meant to be English) that read as French."""
    return _lines_with(text, FRENCH, allow)


def visible_text(page: str) -> str:
    """What a reader sees of an HTML page: no tags, no styles, entities decoded,
    one line per block element."""
    page = re.sub(r"<(style|head)\b.*?</\1>", " ", page, flags=re.S | re.I)
    page = re.sub(r"<(br|/p|/h\d|/li|/tr|/pre|/summary)\b[^>]*>", "\n", page, flags=re.I)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))
