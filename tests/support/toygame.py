"""A tiny game for testing the service, not the rules: "Race".

Each phase (``turn-1``, ``turn-2`` ...) every power orders ``advance N``
(N = 1..3); adjudication rolls a d6 per power and moves it N + roll steps.
A power's position is secret to the others (fog): each power sees its own
position and only the leader's name. First to 30 wins. Missing orders default
to ``advance 1``. It exists so service, mail and scheduler tests run against
a module with fog, dice, defaults and an end without depending on a real game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gm.dice import Dice
from gm.games.base import (
    Event,
    GameModule,
    Outcome,
    PhaseInfo,
    Scenario,
    State,
    UnknownScenario,
    Validation,
    Verdict,
)
from gm.games.registry import register
from gm.orders.model import ErrorKind, Ignored, LineError, ParsedOrder, ParseResult, SourceLine

GOAL = 30
_ADVANCE = re.compile(r"^\s*(advance|avancer)\s+(\d+)\s*$", re.I)
_PROSE = re.compile(r"^\s*(hi|hello|thanks|cheers|bonjour|merci)\b", re.I)


@dataclass(frozen=True)
class Advance:
    steps: int

    def echo(self, lang: str = "en") -> str:
        return f"advance {self.steps}" if lang == "en" else f"avancer {self.steps}"


class RaceModule(GameModule):
    name = "race"
    title = "Race (test game)"

    def scenarios(self) -> list[Scenario]:
        return [Scenario("duel", "Two runners", ("north", "south")),
                Scenario("trio", "Three runners", ("north", "south", "east"))]

    def setup(self, scenario: str, options: Mapping[str, Any]) -> State:
        for s in self.scenarios():
            if s.id == scenario:
                return {"turn": 1, "powers": list(s.powers),
                        "position": {p: 0 for p in s.powers}, "winner": None}
        raise UnknownScenario(f"race has no scenario '{scenario}'")

    def phase(self, state: State) -> PhaseInfo:
        if state["winner"]:
            return PhaseInfo(f"turn-{state['turn']}-end", "ended", (), ended=True)
        return PhaseInfo(f"turn-{state['turn']}", "turn", tuple(state["powers"]))

    def parse_orders(self, state: State, power: str, lines: Sequence[SourceLine]) -> ParseResult:
        result = ParseResult()
        for line in lines:
            m = _ADVANCE.match(line.text)
            if m:
                order = Advance(int(m.group(2)))
                result.lines.append(ParsedOrder(line, order, order.echo()))
            elif _PROSE.match(line.text):
                result.lines.append(Ignored(line))
            else:
                result.lines.append(LineError(line, ErrorKind.INVALID, "not understood",
                                              ("advance N",)))
        return result

    def order_words(self) -> tuple[str, ...]:
        return ("advance", "avancer")

    def parses_as_order(self, text: str) -> bool:
        return _ADVANCE.match(text) is not None

    def validate(self, state: State, power: str, orders: Sequence[Any]) -> list[Validation]:
        out = []
        for i, order in enumerate(orders):
            if not 1 <= order.steps <= 3:
                out.append(Validation(Verdict.REFUSED, "you may advance 1 to 3 steps"))
            elif i > 0:
                out.append(Validation(Verdict.WARNING, "only the last advance counts"))
            else:
                out.append(Validation(Verdict.TO_CHECK, "the die decides how far"))
        return out

    def default_orders(self, state: State, power: str) -> list[Any]:
        return [Advance(1)]

    def adjudicate(self, state: State, orders: Mapping[str, Sequence[Any]], dice: Dice) -> Outcome:
        new = {**state, "position": dict(state["position"])}
        events = []
        for power in state["powers"]:
            steps = orders[power][-1].steps if orders.get(power) else 1
            roll = dice.d6(f"{power} runs", visible_to=[power])
            new["position"][power] += steps + roll
            events.append(Event("race.ran", {"power": power, "steps": steps, "roll": roll,
                                             "position": new["position"][power]},
                                frozenset([power])))
        leader = max(state["powers"], key=lambda p: (new["position"][p], p))
        events.append(Event("race.leader", {"power": leader}))
        if new["position"][leader] >= GOAL:
            new["winner"] = leader
            events.append(Event("race.won", {"power": leader}))
        else:
            new["turn"] = state["turn"] + 1
        return Outcome(new, events)

    def view(self, state: State, power: str | None) -> dict[str, Any]:
        if power is None:
            return dict(state)
        leader = max(state["powers"], key=lambda p: (state["position"][p], p))
        return {"turn": state["turn"], "power": power,  # a spectator sees only the leader
                "position": state["position"].get(power), "leader": leader,
                "winner": state["winner"]}

    def order_to_json(self, order: Any) -> dict[str, Any]:
        return {"advance": order.steps}

    def order_from_json(self, data: Mapping[str, Any]) -> Any:
        return Advance(int(data["advance"]))


race = RaceModule()
register(race)
