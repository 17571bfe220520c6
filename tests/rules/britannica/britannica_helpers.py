"""Helpers for the Pax Britannica rule tests: parse orders, adjudicate with led dice."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from gm.dice import Dice
from gm.games.britannica import module
from gm.orders.model import SourceLine

SET_UP_MONEY = {"britain": 40, "france": 30, "germany": 30, "austria-hungary": 10, "italy": 20,
                "japan": 20, "russia": 30, "usa": 30}
"""The treasuries the rule tests' positions start the 1880 Movement phase with (what the
set-up held before its GM phases were played out by the engine; a game gets its 1880 money
from the 1880 Administration, with dice)."""


def set_up(options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The 1880 set-up as its Movement phase opens, for rule tests that build a position:
    ``module.setup()`` without the chance of its GM phases (no random event, no minor power
    active, no unrest) and with :data:`SET_UP_MONEY`."""
    s = module.setup("1880", dict(options or {}))
    assert s["step"] == "setup"
    s["step"] = "movement"
    s["treasury"] = dict(SET_UP_MONEY)
    return s


def dice(tag: str, lead: Iterable[int] = ()) -> Dice:
    """Seeded dice led by ``lead`` (the first rolls asked for)."""
    return Dice(seed=hashlib.sha256(tag.encode()).digest(), game_id="rules", phase_id=tag,
                supplied=tuple(lead), then_seed=True)


def orders_of(state: dict[str, Any], seat: str, text: str, judged: bool = True) -> list[Any]:
    """The orders of ``text``; with ``judged``, none may be refused on arrival."""
    lines = [SourceLine(i, t) for i, t in enumerate(text.strip().splitlines(), 1)]
    result = module.parse_orders(state, seat, lines)
    assert not result.errors, result.errors
    orders = [p.order for p in result.orders]
    verdicts = module.validate(state, seat, orders)
    assert not judged or all(v.stored is not False for v in verdicts), verdicts
    return orders


def refused_on_arrival(state: dict[str, Any], seat: str, text: str) -> list[str]:
    """The reasons the reply gives for each order of ``text`` refused when the mail arrives
    (orders.md §2: what the power's own position already forbids)."""
    orders = orders_of(state, seat, text, judged=False)
    return [v.reason for v in module.validate(state, seat, orders) if v.stored is False]


def play(state: dict[str, Any], by_seat: Mapping[str, str], lead: Iterable[int] = (),
         tag: str = "t", unjudged: Iterable[str] = ()) -> tuple[dict[str, Any], list[Any]]:
    """Adjudicate the phase the state waits in; returns (new state, events). The orders of
    the ``unjudged`` seats reach the engine even where the reply would have refused them on
    arrival (the engine refuses them too: its own rules are tested that way)."""
    free = set(unjudged)
    orders = {seat: orders_of(state, seat, text, seat not in free) for seat, text in by_seat.items()}
    out = module.adjudicate(state, orders, dice(tag, lead))
    return out.state, list(out.events)


def of_type(events: list[Any], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == kind]


def tunis_dispute() -> dict[str, Any]:
    """1880 negotiation: Italy established a Protectorate in Tunis over France's Influence."""
    s = set_up()
    s["markers"]["tunis"] = [{"power": "france", "kind": "influence", "established": True},
                             {"power": "italy", "kind": "protectorate", "established": True}]
    s["units"].append({"id": 900, "power": "italy", "type": "army", "strength": 3, "at": "tunis"})
    s["casus_belli"] = [{"holder": "france", "against": "italy", "area": "tunis",
                         "cause": "control_over_influence"}]
    s["step"] = "negotiation"
    return s
