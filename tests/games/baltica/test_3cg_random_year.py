"""A 3cg-1.1 game of 12.1 played by the engine for over a year with random orders (the
bench's generator plus National Event rolls, 3CG 3.44): no phase may fail, and the 3CG
tables (14.1, 14.2) are the ones rolled."""

from __future__ import annotations

import random

from bench.bench_baltica import random_orders
from gm.dice import Dice
from gm.games.baltica import module
from gm.games.baltica.orders import Politics


def test_a_3cg_game_plays_a_year_with_random_orders() -> None:
    tables: set[str] = set()
    for seed in range(8):
        rng = random.Random(seed)
        state = module.setup("12.1", {"ruleset": "3cg-1.1", "optional": "13.1"})
        n = 0
        while state["year"] < 1702 and not state["ended"]:
            info = module.phase(state)
            orders = {p: random_orders(state, p, rng) for p in info.owing}
            for p in info.owing:
                if info.kind == "actions":
                    orders[p].append(Politics("Sweden" if p == "sweden" else "Russia"))
            dice = Dice(seed=bytes([seed]) * 32, game_id="3cg", phase_id=f"{info.id}-{n}")
            outcome = module.adjudicate(state, orders, dice)
            tables |= {e.data["table"] for e in outcome.events if e.type == "event_rolled"}
            state, n = outcome.state, n + 1
        assert state["ruleset"] == "3cg-1.1" and (state["year"] >= 1702 or state["ended"])
    assert {"national_events_sweden", "national_events_russia"} <= tables
    assert not tables & {"national_politics_table", "swedish_event_table",
                         "coalition_event_table"}
