"""The lines of a section refused for want of a sign-on, as the reply lists them (orders.md §1-2).

A section whose orders have no sign-on (no ``POWER`` line after ``GAME``, or ``POWER``
without a password) is refused whole. The reply said only why, and listed none of its
lines, so a player whose sign-on was mistyped (``POWR sweden hunter2``, ``sweden
hunter2``) saw neither that line nor the orders it left unread, and needed another round
of mail to find out. The reply now lists the section's lines as not read (:data:`SHOWN`
of them, then "and N more"), and names a line that reads as a mistyped sign-on (its
first or second word a power of the game) with how to write it. Nothing in them is
carried out; passwords are masked: every word after the power's name on a line that
reads as a sign-on, and the sign-on keywords' words as everywhere (gm.mail.mask).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gm.i18n import msg
from gm.mail.mask import MASK, mask_text
from gm.orders.model import SourceLine
from gm.orders.names import edit_distance, fold
from gm.pipeline.reply import Entry

SHOWN = 20
"""The section's lines listed, at most; the others are counted."""
SIGNON_WORDS = ("power", "signon", "puissance")
"""The sign-on keywords (gm.orders.envelope), folded: a first word one or two letters off
one of them reads as a mistyped sign-on."""


def unread(lines: Sequence[SourceLine], powers: Iterable[str],
           no_password: bool = False) -> tuple[list[Entry], int]:
    """The reply's entries for ``lines``, the lines of a section refused for want of a
    sign-on (``no_password``: its POWER line has no password), and how many more were not
    listed; ``powers``: the game's powers."""
    why = (msg("the POWER line has no password") if no_password
           else msg("this section has no sign-on"))
    folded = {fold(p): p for p in powers}
    entries: list[Entry] = []
    for line in lines[:SHOWN]:
        power = signon_like(line.text, folded)
        if power is None:
            entries.append(Entry("ignored", mask_text(line.text, ()), line.number, reason=why))
        else:
            entries.append(Entry("ignored", masked_signon(line.text, power), line.number,
                                 reason=msg("if this is your sign-on, write it as POWER "
                                            "{power} followed by your password",
                                            power=folded[power])))
    return entries, max(0, len(lines) - SHOWN)


def signon_like(text: str, powers: dict[str, str]) -> str | None:
    """The folded power ``text`` names where a sign-on names it (the first word, or the
    second after a word close to POWER/SIGNON/PUISSANCE), if the line has a word after
    it (the password); else None."""
    words = text.replace(":", " ").split()
    if len(words) >= 2 and fold(words[0]) in powers:
        return fold(words[0])
    if (len(words) >= 3 and fold(words[1]) in powers
            and any(edit_distance(fold(words[0]), k) <= 2 for k in SIGNON_WORDS)):
        return fold(words[1])
    return None


def masked_signon(text: str, power: str) -> str:
    """``text`` up to and including the word naming ``power`` (folded), the rest masked."""
    words = text.split()
    for n, word in enumerate(words):
        if fold(word.replace(":", "")) == power:
            return " ".join(words[: n + 1] + ([MASK] if n + 1 < len(words) else []))
    return MASK
