"""A French elision in an order read as the word it stands for (orders.md §8).

French elides ``de`` and ``que`` before a vowel: players write ``voyager d'Islande vers
Norvège``, ``déplacer armée 3 d’Égypte vers Soudan`` (with ``'`` or the ``’`` a phone
types), and gm's own French reports say "d'Islande" (gm.l10n.ELIDED, the words gm elides).
The grammars read ``de``: before a line is parsed, each elided word that stands for one
word only (``d'`` for ``de``, ``qu'`` for ``que``) is written out, ``d'Islande`` as
``de Islande``. ``l'`` stands for ``le`` or ``la`` and is left as written: where a grammar
reads an article, it reads ``l'`` with the name (Pax Britannica's ``contre l'Allemagne``).

Left as written: a name or keyword that holds the elision itself (Pax Britannica's "Mer
d'Arabie", "État libre d'Orange", Pax Viking's "Île d'Islande", Pax Baltica's ``pertes
d'abord``: the ``keep`` spellings), a quoted part (``"Entente d'Afrique"``), an
apostrophe inside a word (``jusqu'à``, ``s'opposer``, English ``don't``, ``O'Brien``), and
every line without an apostrophe (most lines: one look and no more).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from gm.l10n import ELIDED
from gm.orders.names import strip_accents

_APOSTROPHES = "'’"


def _unelided() -> dict[str, str]:
    """Each elided form (``d``, ``qu``: without its apostrophe) and the one word it stands
    for, in every language gm elides (a French order is read from any seat); a form that
    stands for two words (French ``l'``: ``le``, ``la``) is not among them."""
    words: dict[str, set[str]] = {}
    for rules in ELIDED.values():
        for word, form in rules.items():
            words.setdefault(form.rstrip(_APOSTROPHES).lower(), set()).add(word)
    return {form: next(iter(ws)) for form, ws in words.items() if len(ws) == 1}


UNELIDED = _unelided()
"""``{"d": "de", "qu": "que"}``: what an elided form is read as."""

_ELIDED = re.compile(rf"(?<![\w'’\-])({'|'.join(map(re.escape, UNELIDED))})['’](?=[^\W\d_])",
                     re.IGNORECASE)
"""An elided word, whole (not the end of ``jusqu'``), its apostrophe, a letter after it."""


class Elisions:
    """The elided words of a line written out, except inside the ``keep`` spellings (the
    names and keywords of a grammar that hold an elision themselves)."""

    def __init__(self, keep: Iterable[str]) -> None:
        held = sorted({" ".join(strip_accents(s).split()) for s in keep
                       if _ELIDED.search(strip_accents(s))}, key=lambda s: (-len(s), s))
        either = "|".join(r"\s+".join(_spelled(w) for w in s.split()) for s in held)
        self._kept = (re.compile(rf"(?<!\w)(?:{either})(?![\w'’])", re.IGNORECASE)
                      if either else None)

    def read(self, text: str) -> str:
        """``text`` with each elided word written out (``d'Islande``: ``de Islande``), as
        the grammar reads it; ``text`` itself when it holds none (no apostrophe: at once)."""
        if "'" not in text and "’" not in text:
            return text
        found = list(_ELIDED.finditer(text))
        if not found:
            return text
        kept = self._spans(text)
        out, last = [], 0
        for m in found:
            if any(a <= m.start() < b for a, b in kept):
                continue
            form = m.group(1)
            word = UNELIDED[form.lower()]
            out += [text[last:m.start()], form + word[len(form):], " "]
            last = m.end()
        return "".join(out) + text[last:] if out else text

    def _spans(self, text: str) -> list[tuple[int, int]]:
        """Where the line holds a quoted part or a kept spelling: left as written."""
        spans = [m.span() for m in re.finditer(r'"[^"]*"', text)]
        if self._kept is not None:
            spans += [m.span() for m in self._kept.finditer(strip_accents(text))]
        return spans


def _spelled(word: str) -> str:
    """A word of a kept spelling as a pattern: either apostrophe where it has one."""
    return "['’]".join(map(re.escape, re.split("['’]", word)))
