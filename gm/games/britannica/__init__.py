"""Pax Britannica: seven powers by mail (seed 003, Postal/Email rules, 4th ed.)."""

from __future__ import annotations

from gm.games.britannica.data import check_data, load
from gm.games.britannica.module import Britannica

module = Britannica()

__all__ = ["module", "Britannica", "check_data", "load"]
