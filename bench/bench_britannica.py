"""Pax Britannica: full game turns adjudicated per second, seven seats, random legal orders.

Run: ``.venv/bin/python bench/bench_britannica.py [turns] [seed]``. Plays from the 1880 set-up
through every phase of each turn (Movement, Negotiation, Congress and its ballot and signing
when called, the War phase and every war round, the GM's phases between) with random orders
each seat could send; orders the module refuses at validation are dropped, as the service
does. To make wars and Congresses happen, each Movement phase gives one random power a Casus
Belli against another. Prints turns and phases per second, and one turn's cost as a ratio to
one ``setup()`` (the floor), measured in the same run.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from gm.dice import Dice
from gm.games.britannica import module, war
from gm.games.britannica.data import load
from gm.games.britannica.war.geography import capes
from gm.orders.model import SourceLine

d = load()
AREAS = sorted(a.id for a in d.areas.values() if a.type != "home")


def _name(x: str) -> str:
    if x in d.areas:
        return d.areas[x].name
    if x in d.seas:
        return d.seas[x].name
    return d.raw_map["cape_zones"][x]["name"] if x in capes(d) else "home"


def random_lines(s: dict[str, Any], seat: str, rng: random.Random) -> list[str]:
    step, lines = s["step"], []
    mine = [p for p in d.great_powers if d.seat_of(p) == seat]
    if step == "movement":
        for p in mine:
            lines.append(f"FOR {p}")
            for _ in range(rng.randint(0, 4)):
                a = _name(rng.choice(AREAS))
                lines.append(rng.choice([f"buy army {rng.choice([1, 3])}", f"place interest in {a}",
                                         f"place influence in {a}", f"place protectorate in {a}",
                                         f"move army 1 from home to {a}"]))
    elif step == "negotiation" and any(cb["holder"] in mine for cb in s["casus_belli"]):
        lines = ["congress at Germany"] if rng.random() < 0.3 else []
    elif step == "congress":
        lines = [rng.choice(["attend", "stay away"])]
    elif step == "congress-vote":
        lines = [f"vote {p['name']} {rng.choice(['yes', 'no', 'abstain'])}" for p in s["congress"]["proposals"]]
    elif step == "congress-sign":
        lines = [f"defy {s['congress']['adopted']}"] if rng.random() < 0.3 else []
    elif step == "war":
        lines = [f"declare war on {cb['against']}" for cb in s["casus_belli"]
                 if cb["holder"] in mine and rng.random() < 0.6]
    elif step.startswith("war-"):
        w = s["wars"][0]
        for p in mine:
            if war.side_of(w, p) is None:
                continue
            lines.append(f"FOR {p}")
            for u in [u for u in s["units"] if u["power"] == p][:6]:
                here, near = u["at"], sorted(war.adjacent(d, s, p, u["at"]))
                roll = rng.random()
                if roll < 0.4 and near:
                    lines.append(f"move {u['type']} {u['strength']} from {_name(here)} to {_name(rng.choice(near))}")
                elif roll < 0.7 and here != "home":
                    lines.append(f"attack {u['type']} in {_name(here)}")
        if rng.random() < 0.1:
            lines.append("peace")
    return lines


def orders_for(s: dict[str, Any], seat: str, rng: random.Random) -> list[Any]:
    lines = random_lines(s, seat, rng)
    if not lines:
        return module.default_orders(s, seat)
    result = module.parse_orders(s, seat, [SourceLine(i, t) for i, t in enumerate(lines, 1)])
    orders = [p.order for p in result.orders]
    keep = module.validate(s, seat, orders)
    return [o for o, v in zip(orders, keep, strict=True) if v.stored is not False]


def play(turns: int, seed: int) -> tuple[int, int, float]:
    rng = random.Random(seed)
    s = module.setup("1880", {})
    done = phases = 0
    start = time.perf_counter()
    year = s["year"]
    while done < turns:
        info = module.phase(s)
        if info.ended:
            s, year = module.setup("1880", {}), 1880
            continue
        if s["step"] == "movement":
            a, b = rng.sample(list(d.great_powers), 2)
            s["casus_belli"].append({"holder": a, "against": b, "area": "", "cause": "bench"})
        orders = {seat: orders_for(s, seat, rng) for seat in info.owing}
        s = module.adjudicate(s, orders, Dice(seed=seed.to_bytes(8, "big"), game_id="bench",
                                              phase_id=f"{info.id}-{phases}")).state
        phases += 1
        if s["year"] != year:
            year, done = s["year"], done + 1
    return done, phases, time.perf_counter() - start


def main(turns: int = 20, seed: int = 1) -> None:
    t0 = time.perf_counter()
    for _ in range(20):
        module.setup("1880", {})
    setup_cost = (time.perf_counter() - t0) / 20
    done, phases, spent = play(turns, seed)
    print(f"{done} turns, {phases} phases in {spent:.2f} s: {done / spent:.2f} turns/s, "
          f"{phases / spent:.1f} phases/s; one turn = {spent / done / setup_cost:.0f}x one setup()")


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:3]))
