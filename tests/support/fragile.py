"""Faults on purpose, for the failure-isolation tests: the "fragile" game.

It is the race game (tests/support/toygame.py) with three faults a real
``gm serve`` subprocess can be told to use, by importing this module (as the
tests' ``SERVE`` command line does) and setting ``GM_FRAGILE=1`` in its
environment:

* its order parser raises ``TypeError`` on the order line ``explode`` (as
  Pax Britannica's ``congress at Germany about CB-3`` once did);
* its scenario ``trap`` raises ``KeyError`` inside adjudication (as the
  Estländska opening move once did);
* its scenario ``slow`` adjudicates for ``SLOW_SECONDS`` (an adjudication the
  stop signal meets in progress); when ``GM_FRAGILE_MARK`` names a file, it
  writes a line there when it starts.

Without ``GM_FRAGILE=1`` (a "new release" that fixed the bugs: the moderator's
``gm mod retry`` and ``gm mod unhold`` run in their own processes without it)
the module behaves exactly like the race.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from typing import Any

from gm.dice import Dice
from gm.games.base import Outcome, Scenario, State
from gm.games.registry import register
from gm.orders.model import ParseResult, SourceLine
from tests.support.toygame import RaceModule

SLOW_SECONDS = 60.0


def faulty() -> bool:
    return os.environ.get("GM_FRAGILE") == "1"


class FragileModule(RaceModule):
    name = "fragile"
    title = "Fragile race (fault-injection test game)"

    def scenarios(self) -> list[Scenario]:
        return [Scenario("duel", "Two runners", ("north", "south")),
                Scenario("trap", "Two runners; adjudication raises", ("north", "south")),
                Scenario("slow", "Two runners; adjudication is slow", ("north", "south"))]

    def setup(self, scenario: str, options: Mapping[str, Any]) -> State:
        state = super().setup("duel", options)
        state["scenario"] = scenario
        return state

    def parse_orders(self, state: State, power: str, lines: Sequence[SourceLine]) -> ParseResult:
        if faulty() and any(line.text.strip().lower() == "explode" for line in lines):
            raise TypeError("'NoneType' object is not subscriptable (on purpose: the order parser)")
        return super().parse_orders(state, power, lines)

    def adjudicate(self, state: State, orders: Mapping[str, Sequence[Any]], dice: Dice) -> Outcome:
        if faulty() and state.get("scenario") == "trap":
            raise KeyError("Estlandska")
        if faulty() and state.get("scenario") == "slow":
            mark = os.environ.get("GM_FRAGILE_MARK")
            if mark:
                with open(mark, "a", encoding="utf-8") as f:
                    f.write("adjudicating\n")
            time.sleep(SLOW_SECONDS)
        return super().adjudicate(state, orders, dice)


fragile = FragileModule()
register(fragile)
