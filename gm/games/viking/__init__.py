"""Pax Viking: the engine, its orders, its fog; ``module`` is the plug-in.

The entry point ``gm.games: viking = gm.games.viking:module`` names :data:`module`.
The data loads on first use.
"""

from __future__ import annotations

from gm.games.viking.module import VikingModule

module = VikingModule()

__all__ = ["VikingModule", "module"]
