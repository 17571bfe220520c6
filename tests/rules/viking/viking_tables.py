"""Helpers for the Pax Viking rule tests: a known position and orders as players write them."""

from __future__ import annotations

from typing import Any

from gm.dice import Dice
from gm.games.base import Outcome
from gm.games.viking import module
from gm.games.viking.rules.setup import new_turn
from gm.orders.model import LineError, SourceLine

DATA = module.data
JARLS = {"red": "sigrid", "blue": "askold", "green": "gunnhild"}


def tid(name: str) -> str:
    """The starter tile called ``name``."""
    return next(t.id for t in DATA.tileset("starter") if t.name == name)


def table(n: int = 3, *, difficulty: str = "standard", jarls: dict[str, str] | None = None,
          silfr: int = 10, pile: list[str] | None = None, **options: Any) -> dict[str, Any]:
    """A dealt game reset to a known position: players red, blue, green... in that
    order, each with ``silfr``, an empty hand, no longship on the map, no venture
    post, red's turn in round 1; ``pile`` names the saga pile top first."""
    state = module.setup(f"{n}p", {"difficulty": difficulty, **options})
    state = module.adjudicate(state, {}, Dice(seed=b"\x01" * 32, game_id="t",
                                              phase_id="setup")).state
    powers = list(DATA.rule("colors")[:n])
    jarls = {**JARLS, **(jarls or {})}
    state["powers"] = powers
    state["players"] = {p: {"jarl": jarls.get(p, "bjorn"), "silfr": silfr, "hand": [],
                            "advocates": [], "gods": []} for p in powers}
    for st in state["posts"].values():
        st.update(venture=None, owner=None, followers=0)
    state["ships"], state["current"], state["round"] = [], 0, 1
    state["influence"] = {k: None for k in state["influence"]}
    if pile is not None:
        state["pile"] = [tid(x) for x in pile]
    state["turn"] = new_turn()
    return state


def ship(state: dict[str, Any], power: str, node: str, n: int = 1,
         exhausted: bool = False) -> None:
    for _ in range(n):
        state["ships"].append({"owner": power, "at": node, "exhausted": exhausted})


def venture(state: dict[str, Any], post: str, tile: str, owner: str | None = None) -> None:
    state["posts"][post].update(venture=tid(tile), owner=owner, followers=1 if owner else 0)


def hold(state: dict[str, Any], post: str, owner: str) -> None:
    """``owner`` has followers on a pre-printed post (trade center or ally)."""
    state["posts"][post].update(owner=owner, followers=DATA.posts[post].followers)


def give(state: dict[str, Any], power: str, *tiles: str) -> None:
    state["players"][power]["hand"] += [tid(x) for x in tiles]


def orders(state: dict[str, Any], power: str, text: str) -> list[Any]:
    lines = [SourceLine(i + 1, x) for i, x in enumerate(text.strip().splitlines())]
    result = module.parse_orders(state, power, lines)
    bad = [r for r in result.lines if isinstance(r, LineError)]
    assert not bad, bad
    return [r.order for r in result.lines]


def send(state: dict[str, Any], texts: dict[str, str]) -> Outcome:
    """Close the open phase with these orders (parsed as the players wrote them)."""
    parsed = {p: orders(state, p, text) for p, text in texts.items()}
    return module.adjudicate(state, parsed, Dice.scripted([]))


def types(outcome: Outcome) -> list[str]:
    return [e.type.removeprefix("viking.") for e in outcome.events]


def event(outcome: Outcome, kind: str) -> dict[str, Any]:
    return next(dict(e.data) for e in outcome.events if e.type == f"viking.{kind}")


def ships_at(state: dict[str, Any], node: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for sh in state["ships"]:
        if sh["at"] == node:
            out[sh["owner"]] = out.get(sh["owner"], 0) + 1
    return out
