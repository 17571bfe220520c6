"""The Pax Britannica game module (gm.games.base.GameModule)."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from gm.dice import Dice
from gm.games.base import (
    GameModule,
    Outcome,
    PhaseInfo,
    Scenario,
    State,
    UnknownScenario,
    Validation,
    Verdict,
)
from gm.games.britannica import orders as o
from gm.games.britannica.data import check_data, load
from gm.games.britannica.parser import parse_lines
from gm.games.britannica.turn import movement_phase, negotiation_phase
from gm.games.britannica.view import view as fog_view
from gm.orders.model import ParseResult, SourceLine

MOVEMENT_ORDERS = (o.Buy, o.Place, o.Upgrade, o.Downgrade, o.Move, o.Merchant, o.Canal,
                   o.Garrison, o.Transfer, o.SwitchPower)
NEGOTIATION_ORDERS = (o.TreatyText, o.Sign, o.SwitchPower)


class Britannica(GameModule):
    """Seven powers by mail, 1880-1916 (seed 003, Postal/Email rules 4th edition)."""

    name = "britannica"
    title = "Pax Britannica"

    def scenarios(self) -> list[Scenario]:
        d = load()
        return [Scenario("1880", "Pax Britannica, 1880", d.seats,
                         "The 1880 set-up, ten turns to 1916 (reconstructed data).")]

    def setup(self, scenario: str, options: Mapping[str, Any]) -> State:
        """The 1880 set-up; the turn's GM phases are already done (seed, Setting up the Game)."""
        d = load()
        if scenario not in d.setups:
            raise UnknownScenario(scenario)
        s = d.setups[scenario]
        units = [{"id": i, "power": p, "type": k, "strength": st, "at": loc}
                 for i, (p, k, st, loc) in enumerate(s["units"], 1)]
        markers = {a: [{"power": p, "kind": k, "established": True} for p, k in sorted(ms)]
                   for a, ms in s["markers"].items()}
        first = d.turn_years()[0]
        return {
            "game": "britannica", "scenario": scenario, "year": first, "step": "movement",
            "powers": list(d.seats), "abandoned": [],
            "treasury": dict(s["treasury"]), "vp": {p: 0 for p in d.great_powers},
            "markers": markers, "units": units, "next_unit": len(units),
            "merchants": {p: list(z) for p, z in s["merchants"].items()},
            "merchants_due": {p: d.turn(first)["merchants"].count(p) for p in d.great_powers},
            "unrest": [], "canals": [], "eti": s["eti"], "cri": s["cri"],
            "casus_belli": [], "treaties": [], "balkan_wars": 0,
        }

    def phase(self, state: State) -> PhaseInfo:
        step = state["step"]
        seats = tuple(state["powers"])
        if step == "ended":
            return PhaseInfo(f"{state['year']}-final-record", "ended", (), ended=True)
        return PhaseInfo(f"{state['year']}-{step}", step, seats)

    def parse_orders(self, state: State, power: str, lines: Sequence[SourceLine]) -> ParseResult:
        return parse_lines(lines, power)

    def validate(self, state: State, power: str, orders: Sequence[Any]) -> list[Validation]:
        """Refuse what the power's own position forbids now; the rest waits for adjudication."""
        d = load()
        allowed = MOVEMENT_ORDERS if state["step"] == "movement" else NEGOTIATION_ORDERS
        out = []
        for order in orders:
            base = o.base(order)
            if d.rules["powers"].get(order.actor, {}).get("seat") != power:
                out.append(Validation(Verdict.REFUSED, "your seat does not control that power"))
            elif isinstance(base, o.NotYet):
                out.append(Validation(Verdict.REFUSED, f"'{base.verb}' is not yet implemented"))
            elif not isinstance(base, allowed):
                out.append(Validation(Verdict.REFUSED, "not an order of this phase"))
            elif isinstance(order, o.Conditional) or isinstance(base, o.Place | o.Upgrade):
                out.append(Validation(Verdict.TO_CHECK, "depends on others' orders or on money"))
            else:
                out.append(Validation(Verdict.ACCEPTED))
        return out

    def default_orders(self, state: State, power: str) -> list[Any]:
        """No orders: nothing is bought or placed; the GM's garrison defaults still apply."""
        return []

    def adjudicate(self, state: State, orders: Mapping[str, Sequence[Any]], dice: Dice) -> Outcome:
        d = load()
        fn = movement_phase if state["step"] == "movement" else negotiation_phase
        new, events = fn(d, copy.deepcopy(state), orders, dice)
        return Outcome(new, events)

    def view(self, state: State, power: str | None) -> dict[str, Any]:
        return fog_view(state, power)

    def order_to_json(self, order: Any) -> dict[str, Any]:
        return o.to_json(order)

    def order_from_json(self, data: Mapping[str, Any]) -> Any:
        return o.from_json(data)

    def data_check(self) -> list[str]:
        return check_data()
