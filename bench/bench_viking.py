"""Benchmark: Pax Viking turns adjudicated per second, whole games with the starter set.

Run: ``.venv/bin/python bench/bench_viking.py [games]``. Plays 4-player games to their
end (a victory card or the end of the saga) with random orders written as a player
would: journeys of 1-3 steps along the map, INVEST (draw or buy), PLAY of tiles in
hand, ACTIVATE and PARLEY where the player has longships, the influence actions
held, trade offers between colocated players (answered at random) and random
Althing votes. Prints turns (player phases, Althing and trade phases included)
per second for one game and for ``games`` games, and the validation rate of a
turn's orders (what a mail's reply costs) in the same run.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from gm.dice import Dice
from gm.games.viking import module
from gm.games.viking.orders import (
    Accept,
    Activate,
    Counter,
    InvestBuy,
    InvestDraw,
    Item,
    JarldomAction,
    Journey,
    Offer,
    Parley,
    Play,
    Refuse,
    SwedenAction,
    TheocracyAction,
    Vote,
)
from gm.games.viking.table import HOME, Table

DATA = module.data


def random_turn(state: dict[str, Any], p: str, rng: random.Random) -> list[Any]:
    t = Table(DATA, state)
    name = DATA.place_name
    out: list[Any] = []
    ships = [sh["at"] for sh in t.ships_of(p)]
    for _ in range(rng.randint(1, 2)):
        start = rng.choice(ships + [HOME]) if ships else HOME
        node = rng.choice(sorted(t.home_entries(p))) if start == HOME else start
        path = [node] if start == HOME else []
        for _ in range(rng.randint(1, 3) - len(path)):
            node = rng.choice(sorted(DATA.adjacent[node]))
            path.append(node)
        out.append(Journey("home" if start == HOME else name(start), tuple(name(x) for x in path)))
        rivals = [q for q in t.rivals(p) if any(t.region_of(sh["at"]) == t.region_of(path[-1])
                                               for sh in t.ships_of(q))]
        if rivals and rng.random() < 0.5:
            out.append(Offer(rng.choice(rivals), (Item("silfr", amount=1),), (Item("nothing"),)))
    hand = state["players"][p]["hand"]
    for tid in rng.sample(hand, min(len(hand), 2)):
        out.append(Play(DATA.tiles[tid].name))
    for node in set(ships):
        if node in DATA.posts:
            out.append(rng.choice([Parley(name(node)), Activate(name(node))]))
    held = [k for k, v in state["influence"].items() if v == p]
    if "sweden" in held:
        out.append(SwedenAction())
    if "theocracy" in held:
        out.append(TheocracyAction(name(rng.choice(sorted(DATA.posts)))))
    if "jarldom" in held and ships:
        start = rng.choice(ships)
        posts = [x for x in DATA.adjacent[start] if x in DATA.posts]
        if posts:
            out.append(JarldomAction(name(start), name(rng.choice(sorted(posts)))))
    track = [x for x in state["track"] if x]
    out.append(InvestBuy(DATA.tiles[rng.choice(track)].name) if track and rng.random() < 0.4
               else InvestDraw())
    rng.shuffle(out)
    return out


def orders_for(state: dict[str, Any], rng: random.Random) -> dict[str, list[Any]]:
    info = module.phase(state)
    if info.kind == "althing":
        return {p: [Vote(rng.random() < 0.5)] for p in info.owing}
    if info.kind == "trade":
        answer = rng.choice([Accept(), Refuse(), Counter((Item("nothing"),),
                                                         (Item("silfr", amount=1),))])
        return {info.owing[0]: [answer]}
    p = info.owing[0]
    return {p: random_turn(state, p, rng)}


def game(rng: random.Random, seed: bytes, k: int) -> tuple[int, float]:
    """One 4-player game: (phases adjudicated, seconds spent validating turns)."""
    state = module.adjudicate(module.setup("4p", {}), {},
                              Dice(seed=seed, game_id=f"bench{k}", phase_id="setup")).state
    phases, validating = 0, 0.0
    while not state["ended"] and phases < 2000:
        info = module.phase(state)
        orders = orders_for(state, rng)
        if info.kind == "turn":
            t0 = time.perf_counter()
            module.validate(state, info.owing[0], orders[info.owing[0]])
            validating += time.perf_counter() - t0
        state = module.adjudicate(state, orders, Dice(seed=seed, game_id=f"bench{k}",
                                                      phase_id=info.id)).state
        phases += 1
    return phases, validating


def run(games: int) -> tuple[float, float]:
    """(phases adjudicated per second, turns validated per second) over ``games`` games."""
    rng, seed = random.Random(7), b"\x09" * 32
    total, validating = 0, 0.0
    t0 = time.perf_counter()
    for k in range(games):
        n, v = game(rng, seed, k)
        total += n
        validating += v
    elapsed = time.perf_counter() - t0 - validating
    return total / elapsed, total / max(validating, 1e-9)


if __name__ == "__main__":
    many = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    one, one_v = run(1)
    print(f"1 game of 4 players: {one:.0f} turns adjudicated/s, {one_v:.0f} turns validated/s")
    rate, rate_v = run(many)
    print(f"{many} games of 4 players: {rate:.0f} turns adjudicated/s, "
          f"{rate_v:.0f} turns validated/s")
