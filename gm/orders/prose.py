"""Telling prose (greetings, sign-offs) from a mistyped order (orders.md §2).

A line that fails to parse at its first word is listed as *ignored* rather
than as an error when it is plainly prose: it opens with a greeting or
sign-off word, or it is a sentence (ends in ``.``, ``!``, ``?`` or ``,``
with three or more words), or it is a short line right after prose (the
name under "Cheers,").
"""

from __future__ import annotations

from gm.orders.names import strip_accents

PROSE_WORDS = frozenset(
    """hi hello hey dear greetings thanks thank cheers regards best yours sincerely
    kind love ciao here these my our please ok okay sorry
    bonjour salut cher chere merci cordialement amities bien voici mes nos
    hallo hej moin gruss grusse danke""".split()
)


def looks_like_prose(text: str, after_prose: bool = False) -> bool:
    """Whether ``text`` (a line that is not an order) reads as prose."""
    words = strip_accents(text).lower().split()
    if not words:
        return True
    if words[0].strip(",.!:;") in PROSE_WORDS:
        return True
    if text.rstrip()[-1:] in ".!?," and len(words) >= 3:
        return True
    return after_prose and len(words) <= 3
