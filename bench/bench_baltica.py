"""Benchmark: Pax Baltica seasons of the 12.1 grand campaign with random legal orders.

Run: ``.venv/bin/python bench/bench_baltica.py [seasons]``. Prints seasons adjudicated
per second for one season and for 100 seasons (each season = action roll, both action
phases, battles and sieges, forage). Orders: each power moves up to its actions' worth
of random groups one step to a random neighbour, and declares free sieges where it can.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from gm.dice import Dice, new_seed
from gm.games.baltica import module
from gm.games.baltica.orders import Move, MoveGroup, Siege
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import GameState


def random_orders(state: dict[str, Any], power: str, rng: random.Random) -> list[Any]:
    """Up to 3 one-step group moves of unmoved, unpinned blocks, plus a siege try."""
    board = module.board_of(state)
    gs = GameState.from_json(state)
    world = World(board, gs, Dice.scripted([]))
    origins = sorted({bs.location for b, bs in gs.blocks.items()
                      if gs.on_map(b) and world.power_of(b) == power
                      and bs.location in board.territories and world.ground(b)})
    rng.shuffle(origins)
    out: list[Any] = []
    for origin in origins[:3]:
        blocks = [b for b in world.blocks_of(power, origin) if not gs.blocks[b].pinned]
        nbrs = [t for t in board.neighbours(origin) if not world.prohibited(t)]
        if not blocks or not nbrs:
            continue
        to = rng.choice(sorted(nbrs))
        names = tuple(world.name(b) for b in blocks[: rng.randint(1, len(blocks))])
        out.append(Move(board.territories[origin].name, (MoveGroup(names, board.territories[to].name),)))
        if world.enemy_controlled(to, power):
            out.append(Siege(board.territories[to].name, names))
    return out


def season(state: dict[str, Any], rng: random.Random, seed: bytes, n: int) -> dict[str, Any]:
    """Adjudicate phases until the next season's action roll."""
    start = (state["year"], state["season"])
    while True:
        info = module.phase(state)
        if info.ended:
            return state
        orders = {p: random_orders(state, p, rng) for p in info.owing}
        dice = Dice(seed=seed, game_id="bench", phase_id=f"{info.id}-{n}")
        state = module.adjudicate(state, orders, dice).state
        if (state["year"], state["season"]) != start and state["step"] == "action-roll":
            return state


def run(seasons: int) -> float:
    """Seasons per second over ``seasons`` consecutive seasons of 12.1."""
    rng, seed = random.Random(1), new_seed()
    state = module.setup("12.1", {})
    t0 = time.perf_counter()
    for n in range(seasons):
        state = season(state, rng, seed, n)
    return seasons / (time.perf_counter() - t0)


if __name__ == "__main__":
    many = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    print(f"1 season of 12.1: {run(1):.1f} seasons/s")
    print(f"{many} seasons of 12.1: {run(many):.1f} seasons/s")
