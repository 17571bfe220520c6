"""Pax Baltica (GMT 2012): the engine, its orders, its fog; ``module`` is the plug-in.

The entry point ``gm.games: baltica = gm.games.baltica:module`` names :data:`module`.
The board data loads on first use.
"""

from __future__ import annotations

from gm.games.baltica.module import BalticaModule

module = BalticaModule()

__all__ = ["BalticaModule", "module"]
