"""The words drawn on a map, in the reader's language.

The maps (gm.maps) draw what they are given; the words come from a template
rendered here, so the maps never reach up into the service's rendering.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from gm.service.render import game_words, render


def map_words(language: str, game: str | None = None, **context: Any) -> dict[str, str]:
    """The words drawn on a map (templates/mail/map_words.txt.j2), by key."""
    out: dict[str, str] = {}
    for line in render("map_words", language, game, **context).splitlines():
        key, sep, text = line.partition(":")
        if sep and key.strip():
            out[key.strip()] = text.strip()
    if game:
        out |= names_of(game, language)
    return out


@lru_cache(maxsize=64)
def names_of(game: str, language: str) -> dict[str, str]:
    """The game's names a map shows, in ``language`` (issue 20): ``nation:<id>``,
    ``color:<id>`` and ``place:<key>`` (Pax Britannica's areas and seas by id) from
    :meth:`GameModule.words`; made once per game and language (issue 21: once per report
    before), so the caller must not change the dict it gets."""
    words = game_words(game, language)
    out = {f"nation:{k}": str(w["name"]) for k, w in words.get("nation", {}).items()}
    out |= {f"color:{k}": str(v) for k, v in words.get("color", {}).items()}
    out |= {f"place:{k}": str(w["name"]) for k, w in words.get("place", {}).items()}
    return out
