"""Pax Britannica adjudication speed: one Movement phase of seven powers, as a ratio.

Run: .venv/bin/python bench/bench_britannica.py
Prints the cost of one Movement adjudication relative to one setup() (the floor).
"""

from __future__ import annotations

import time

from gm.dice import Dice
from gm.games.britannica import module
from gm.orders.model import SourceLine

ORDERS = {
    "britain": "buy army 1\nplace interest in Afghanistan",
    "france": "buy army 3\nplace protectorate in Mauritania\nmove army 3 from home to Mauritania",
    "germany": "buy fleet 3\nFOR austria-hungary\nplace interest in Rumania",
    "italy": "place protectorate in Tunis if france places no control in Tunis",
    "japan": "move army 3 from home to Korea",
    "russia": "place influence in Manchuria",
    "usa": "buy army 1",
}


def main(n: int = 50) -> None:
    s = module.setup("1880", {})
    orders = {k: [p.order for p in module.parse_orders(
        s, k, [SourceLine(i, t) for i, t in enumerate(v.splitlines(), 1)]).orders]
        for k, v in ORDERS.items()}
    t0 = time.perf_counter()
    for _ in range(n):
        module.setup("1880", {})
    base = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(n):
        module.adjudicate(s, orders, Dice.scripted([4] * 100, then_seed=True))
    adj = time.perf_counter() - t0
    print(f"movement adjudication / setup = {adj / base:.1f}x ({adj / n * 1000:.2f} ms per phase)")


if __name__ == "__main__":
    main()
