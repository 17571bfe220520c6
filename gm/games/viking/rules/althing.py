"""The Althing: a vote on an event (PLAY, Events; Rosetta Stone ALTHING).

"In turn order, vote whether the Event Resolves. If 50% or more agree,
Resolve. Then Discard the tile out of the game ... and check Victory
Conditions regardless." By mail every player votes in a short phase of its
own; votes stay secret until it closes. A player who sends no vote votes no,
except the player who played the event, who votes yes. Persistent ``votes``
modifiers add to a player's vote (e.g. the Lawspeaker).
"""

from __future__ import annotations

from typing import Any

from gm.games.viking.rules.effects import run_effects
from gm.games.viking.table import Table


def default_vote(t: Table, p: str) -> bool:
    return p == t.s["althing"]["power"]


def resolve(t: Table, votes: dict[str, bool]) -> None:
    """Count the votes and resolve the event if 50% or more agree."""
    al = t.s["althing"]
    weight = {p: 1 + t.modifier(p, "althing", "votes", use=True) for p in t.in_turn_order()}
    yes = sum(w for p, w in weight.items() if votes.get(p, default_vote(t, p)))
    total = sum(weight.values())
    passed = yes >= t.rule("althing_share") * total
    tile = t.tile(al["tile"])
    t.emit("althing", tile=tile.name, power=al["power"], passed=passed, yes=yes, total=total,
           votes={p: bool(votes.get(p, default_vote(t, p))) for p in weight})
    t.s["turn"].setdefault("althing_results", []).append(passed)  # for conditions
    if passed:
        run_effects(t, al["power"], tile.effects, al["tile"], None, al.get("choices", []))
    t.s["removed"].append(al["tile"])
    t.s["althing"] = None


def votes_from(orders: dict[str, Any]) -> dict[str, bool]:
    from gm.games.viking.orders import Vote

    out = {}
    for p, os in orders.items():
        vs = [o for o in os if isinstance(o, Vote)]
        if vs:
            out[p] = vs[-1].yes
    return out
