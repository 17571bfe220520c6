"""Fog: what each power may know (seed, Deadlines and Adjudication reports; Treaties).

Public: the map (markers, units, merchant fleets, unrest), the indices, VP and
treasuries (the GM publishes them). Private: secret treaties (parties only) and
treaty drafts not yet ratified. The moderator (``None``) sees everything.
"""

from __future__ import annotations

from typing import Any

from gm.games.base import copy_state
from gm.games.britannica.data import BritanniaData, load


def names(d: BritanniaData) -> dict[str, str]:
    """Display names of areas, sea zones and powers, for the report templates."""
    out = {a.id: a.name for a in d.areas.values()}
    out |= {z.id: z.name for z in d.seas.values()}
    out |= {p: t["name"] for p, t in d.rules["powers"].items()}
    out |= {p: t["name"] for p, t in d.rules["minor_powers"].items()}
    out |= {"china": "China", "ottoman": "Ottoman Empire", "home": "home"}
    return out


def view(state: dict[str, Any], power: str | None) -> dict[str, Any]:
    """The state as ``power`` (a seat) may know it."""
    out = copy_state(state)
    d = load()
    out["names"] = names(d)
    if power is None:
        return out
    mine = {p for p in d.great_powers if d.seat_of(p) == power}
    out["treaties"] = [t for t in state["treaties"]
                       if (t["public"] and t["ratified"]) or mine & set(t["parties"])]
    out["me"] = power
    out["my_powers"] = sorted(mine)
    return out
