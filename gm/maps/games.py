"""The built-in games' map scenes, used by the drawing when a game has no scene of its own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.maps.scene import Scene


def builtin_scene(module: Any, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
                  words: Mapping[str, str]) -> Scene | None:
    if module.name == "baltica":
        from gm.maps import baltica

        board = module.board_of({"ruleset": view.get("ruleset")})  # the game's ruleset
        return baltica.scene(board, view, events, words)
    if module.name == "britannica":
        from gm.maps import britannica

        return britannica.scene(view, events, words)
    if module.name == "viking":
        from gm.maps import viking

        return viking.scene(view, events, words)
    return None
