"""European Tensions and the Great War (seed, European Tensions and the Great War).

Every increase of the index goes through :func:`raise_eti`, which records who
caused it; the first increase that takes the index to the Great War level names
the culprits (nobody for a random event). A war of four or more European
powers is a Great War too (seed, The Great War). :func:`great_war_end` ends the
game: final record of the map, minus the turn track penalty, tripled for the
culprits (seed, Victory Points Awarded at the End of the Game).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gm.games.base import Event
from gm.games.britannica import economy
from gm.games.britannica.data import BritanniaData

State = dict[str, Any]
EUROPEAN = ("britain", "france", "germany", "austria-hungary", "italy", "russia")


def raise_eti(d: BritanniaData, state: State, amount: int, cause: str,
              by: Iterable[str] = ()) -> list[Event]:
    """Change the index by ``amount`` for ``cause``; reaching the limit starts the Great War.

    A random event may lower it (the 6-6 "Peace conference", -3): the index never goes below
    zero (docs/britannica.md). Every change is reported with its cause."""
    if amount == 0:
        return []
    who = sorted(set(by))
    before = state["eti"]
    state["eti"] = max(before + amount, 0)
    if state["eti"] == before:
        return []
    events = [Event("tension", {"amount": state["eti"] - before, "cause": cause, "by": who,
                                "eti": state["eti"]})]
    limit = d.charts["eti"]["great_war_at"]
    if before < limit <= state["eti"] and not state.get("great_war"):
        state["great_war"] = {"cause": "tensions", "culprits": who}
    return events


def change_cri(state: State, amount: int, cause: str, by: Iterable[str] = (),
               area: str = "") -> list[Event]:
    """Change the Chinese Resentment Index (seed, Chinese Resentment: "the GM will periodically
    adjust the Chinese Resentment Index, whenever a condition on the Chinese Resentment Increase
    Summary ... is met"); every change is reported with its cause, like a Tensions change.
    The index has no upper limit ("unlimited") and is never below zero."""
    before = state["cri"]
    state["cri"] = max(before + amount, 0)
    if state["cri"] == before:
        return []
    return [Event("resentment", {"amount": state["cri"] - before, "cause": cause,
                                 "by": sorted(set(by)), "area": area, "cri": state["cri"]})]


def european_count(powers: Iterable[str]) -> int:
    """How many of the six European Great Powers (Austria-Hungary counts) are in a war."""
    return len(set(powers) & set(EUROPEAN))


def great_war_end(d: BritanniaData, state: State) -> list[Event]:
    """The game ends at once: final record, minus the turn's penalty (x3 for the culprits, x2
    for a treaty breaker brought in as the fourth European power by a declaration of war)."""
    gw = state["great_war"]
    events = [Event("great_war", {"cause": gw["cause"], "culprits": gw["culprits"],
                                  "eti": state["eti"]})]
    events += economy.final_record(d, state)
    penalty = int(d.turn(state["year"])["great_war_penalty"])
    for p in d.great_powers:
        if p == "austria-hungary":
            continue
        lost = penalty * (3 if p in gw["culprits"] else 2 if p in gw.get("doubled", []) else 1)
        state["vp"][p] -= lost
        events.append(Event("great_war_penalty", {"power": p, "lost": lost, "total": state["vp"][p]}))
    state["step"] = "ended"
    events.append(Event("game_over", {"vp": dict(state["vp"])}))
    return events
