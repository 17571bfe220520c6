"""Fog: what each power may know (seed, Deadlines and Adjudication reports; Treaties).

Public: the map (markers, units, merchant fleets, unrest), the indices, VP and
treasuries (the GM publishes them). Private: secret treaties (parties only) and
treaty drafts not yet ratified. The moderator (``None``) sees everything.
"""

from __future__ import annotations

from typing import Any

from gm.games.base import copy_state
from gm.games.britannica.data import BritanniaData, load

OTHER_NAMES = {"en": {"china": "China", "ottoman": "Ottoman Empire", "home": "home"},
               "fr": {"china": "Chine", "ottoman": "Empire ottoman", "home": "métropole"}}
"""Names of the map's non-players (issue 20: in French too)."""


def names(d: BritanniaData, language: str = "en") -> dict[str, str]:
    """Display names of areas, sea zones, powers and random events (``event:1-1``), for
    the report templates; a power's or an event's ``name_<language>`` where the data
    gives one (rules.toml, charts.toml), else its name."""
    def said(t: dict[str, Any]) -> str:
        return str(t.get(f"name_{language}") or t["name"])

    out = {a.id: a.name for a in d.areas.values()}
    out |= {z.id: z.name for z in d.seas.values()}
    out |= {p: said(t) for p, t in d.rules["powers"].items()}
    out |= {p: said(t) for p, t in d.rules["minor_powers"].items()}
    out |= OTHER_NAMES.get(language, OTHER_NAMES["en"])
    out |= {f"event:{k}": said(t) for k, t in d.charts["random_events"]["table"].items()}
    return out


def view(state: dict[str, Any], power: str | None) -> dict[str, Any]:
    """The state as ``power`` (a seat) may know it."""
    out = copy_state(state)
    d = load()
    out["names"] = names(d)
    out["names_fr"] = names(d, "fr")
    if power is None:
        return out
    mine = {p for p in d.great_powers if d.seat_of(p) == power}
    out["treaties"] = [t for t in state["treaties"]
                       if (t["public"] and t["ratified"]) or mine & set(t["parties"])]
    out["me"] = power
    out["my_powers"] = sorted(mine)
    return out
