"""The lines before a mail's first envelope line, as the reply lists them (orders.md §1-2).

Text before the first ``GAME``, ``POWER``/``SIGNON``, ``MODERATOR`` or ``HELP`` line is
never read (greetings). Dropped silently, orders a player wrote above the sign-on (the
sign-on at the bottom, like a signature) were answered with no orders at all, and the
player needed another round of mail to learn why. The reply lists those lines as
ignored, briefly (:data:`SHOWN` of them, then "and N more lines"); a line that reads as
an order of the game of the mail's first section, or as a command, is named as such,
with what to do: nothing before the first GAME or POWER line is read, send it again
below the POWER line. Every such line is listed (up to :data:`SHOWN_ORDERS`), wherever
it stands in a long letter.

A line reads as an order when its first word is one an order of the game begins with
(:meth:`gm.games.base.GameModule.order_words`) and it either does not read as prose at
all (:func:`gm.orders.prose.prose_signal`) or parses with the game's grammar, read alone
(:meth:`gm.games.base.GameModule.parses_as_order`): "move from Skåne: Karl XII to
Småland" does, "Play nice, everybody!" does not. Nothing of the game's position is read,
so what the reply says depends only on the mail.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from gm.games.base import GameModule
from gm.i18n import Text, msg, plural
from gm.mail.mask import mask_text
from gm.orders.envelope import is_command_line, parse_command_safe
from gm.orders.model import SourceLine
from gm.orders.names import fold
from gm.orders.prose import prose_signal
from gm.pipeline.reply import Entry

SHOWN = 3
"""The preamble lines listed that read as no order nor command (a greeting, a letter's
start): the first ones; the others are counted ("and N more lines")."""
SHOWN_ORDERS = 20
"""The lines reading as orders or commands listed, at most."""
READ = 200
"""The preamble lines looked at for an order (gm.service.orders.MAX_ORDER_LINES): past
them a letter is only counted."""


@dataclass
class Preamble:
    """What the reply says of the lines before the first envelope line."""

    entries: list[Entry] = field(default_factory=list)
    more: int = 0  # lines not listed
    misplaced: list[int] = field(default_factory=list)  # the numbers of those read as orders

    @property
    def note(self) -> Text | None:
        """What to do with the lines that read as orders or commands, if any."""
        if not self.misplaced:
            return None
        return plural("Line {lines} came before the sign-on: nothing before the first GAME or "
                      "POWER line is read. Send it again below the POWER line.",
                      "Lines {lines} came before the sign-on: nothing before the first GAME or "
                      "POWER line is read. Send them again below the POWER line.",
                      len(self.misplaced), lines=", ".join(map(str, self.misplaced)))


def preamble(lines: Sequence[SourceLine], module: GameModule | None,
             secrets: Iterable[str] = ()) -> Preamble:
    """The entries of the reply for ``lines``, the lines before the first envelope line;
    ``module``: the game of the mail's first section, if known (its orders are told apart);
    ``secrets``: the passwords the mail's envelope holds. A line is shown with every
    password masked (gm.mail.mask: those, and the word after PASSWORD), as the reply shows
    a PASSWORD line (issue 22: a reply never holds a password)."""
    out = Preamble()
    listed = 0
    known = set(secrets)
    for i, line in enumerate(lines):
        kind = what(line.text, module) if i < READ else None
        if kind is not None and len(out.misplaced) < SHOWN_ORDERS:
            out.entries.append(Entry("ignored", mask_text(line.text, known), line.number,
                                     reason=kind))
            out.misplaced.append(line.number)
        elif kind is None and listed < SHOWN:
            out.entries.append(Entry("ignored", mask_text(line.text, known), line.number))
            listed += 1
        else:
            out.more += 1
    return out


def what(text: str, module: GameModule | None) -> Text | None:
    """What a line before the sign-on looks like: an order of ``module``'s game, a command
    (READY, PHASE ...), or neither (None)."""
    if module is not None and reads_as_order(text, module):
        return msg("it looks like an order, but it came before the sign-on")
    if is_command_line(text) and parse_command_safe(text) not in (None, "endpress"):
        return msg("it looks like a command, but it came before the sign-on")
    return None


def reads_as_order(text: str, module: GameModule) -> bool:
    """Whether ``text`` reads as an order of ``module``'s game (the module docstring)."""
    words = text.split(maxsplit=1)
    if not words or fold(words[0].split(":", 1)[0]) not in _folded(module.order_words()):
        return False
    return prose_signal(text) is None or module.parses_as_order(text)


@functools.lru_cache(maxsize=16)
def _folded(words: tuple[str, ...]) -> frozenset[str]:
    """A game's order words as matching keys, folded once per game."""
    return frozenset(fold(w) for w in words)
