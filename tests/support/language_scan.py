"""Find English left in a text rendered for a French reader (issue 20).

A rendered French report or reply must not carry an English sentence: a template or
a message the catalogue does not translate shows up as a line with English function
words ("the", "of", "with", "fires", ...), which French never uses. Names from the
games' data (a block "Prins Christian", a sea "Gulf of Finland") and the echo of a line
the player wrote are not sentences: the caller passes the names to ignore.

    >>> english_lines("Bataille de Narva : défenseur la Suède.\\nAugust II fires: 3 1", ())
    ['August II fires: 3 1']
"""

from __future__ import annotations

import re
from collections.abc import Iterable

ENGLISH = frozenset("""
the and of to from with is are was were has have had not for by at your you
fires fire block blocks units report done open strength moved moves into onto
left carried out this that these those which who when will would should must
no yes or if then unless until nobody none there their its it be been being
sweden spectator moderator
red blue green yellow purple black longship longships
""".split())
"""Words that are English and never French. Not "a", "on", "as", "en", "plus",
"round" (a board-game word in French), "via" (French too), "or"/"if"? "or" is also
French ("or" = gold, "or" = now) and stays in the list: a French report has no use
for either. The players' colour ids (Pax Viking: "red", "green") are English: a French
text names the players in French ("Rouge", "Vert")."""

MARKER = "==== gm "
"""The first line of a report (``==== gm report GAME PHASE ====``): a marker gm finds
again in a quoted reply (gm/orders/text.py), the same in every language."""

_PHASE = re.compile(r"\S*\d\S*-\S+")  # a phase id (1707-summer-actions-sweden), as typed in PHASE
_WORD = re.compile(r"[A-Za-zÀ-ÿ’']+")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|«[^»]*»")


def english_words(line: str, names: Iterable[str] = ()) -> list[str]:
    """The English words of ``line`` once ``names`` and quoted text are taken out."""
    for name in sorted(set(names), key=len, reverse=True):
        if name:
            line = line.replace(name, " ")
    line = _PHASE.sub(" ", _QUOTED.sub(" ", line))
    return [w for w in _WORD.findall(line) if w.lower() in ENGLISH]


def english_lines(text: str, names: Iterable[str] = ()) -> list[str]:
    """The lines of ``text`` that hold an English word (see :func:`english_words`)."""
    names = tuple(names)
    return [line.strip() for line in text.splitlines()
            if not line.startswith(MARKER) and english_words(line, names)]


FRENCH = frozenset("""
le la les des du au aux est sont avec pour vers dans une qui que sur pas votre vos ses
leur leurs très après avant depuis contre chaque aucun aucune été être
""".split())
"""Words that are French and never English (the reverse scan: an English report)."""


def french_lines(text: str, names: Iterable[str] = ()) -> list[str]:
    """The lines of ``text`` that hold a French word, ``names`` and quotes aside."""
    names = tuple(sorted(set(names), key=len, reverse=True))
    out = []
    for line in text.splitlines():
        if line.startswith(MARKER):
            continue
        bare = line
        for name in names:
            if name:
                bare = bare.replace(name, " ")
        bare = _PHASE.sub(" ", _QUOTED.sub(" ", bare))
        if any(w.lower() in FRENCH for w in _WORD.findall(bare)):
            out.append(line.strip())
    return out


def data_names(game: str) -> set[str]:
    """The proper names of ``game``'s data that a French text may quote as they are
    (blocks, territories, seas, garrisons; jarls; areas, sea zones): the rules give no
    French form for them. Nations and powers are not among them: they have their French
    forms (issue 20); nor are Pax Viking's places, saga tiles and victory cards by their
    English names, only by the French names a French text says (``name_fr``), so a
    French report that says "Gulf of Finland" or "Shipyard" is caught."""
    out: set[str] = set()
    if game == "baltica":
        from gm.games.baltica.board import load_board

        for ruleset in ("gmt-2012", "3cg-1.1"):
            b = load_board(ruleset)
            out |= {x.name for x in b.blocks.values()} | {s.name for s in b.seas.values()}
            for t in b.territories.values():
                out.add(t.name)
                if t.garrison is not None:
                    out.add(t.garrison.name)
    elif game == "britannica":
        from gm.games.britannica.data import load

        d = load()
        out |= {a.name for a in d.areas.values()} | {z.name for z in d.seas.values()}
    elif game == "viking":
        from gm.games.registry import get

        data = get("viking").data  # type: ignore[attr-defined]
        out |= {x.name for x in data.jarls.values()}
        for named in (data.posts, data.homes, data.regions, data.cards, data.tiles):
            out |= {x.name_fr for x in named.values()}
    return out
