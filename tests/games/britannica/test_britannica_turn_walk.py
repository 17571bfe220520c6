"""Robustness: random but legal-looking orders through Congress and war never break the turn.

Each seed starts from a Tunis dispute and plays every phase (random proposals, ballots,
defiance, declarations, moves, attacks, retreats, peace) until the next Movement phase or
the end of the game; every state must keep units on real locations and name a phase.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "rules" / "britannica"))
from britannica_helpers import dice, tunis_dispute  # noqa: E402

from gm.games.britannica import module, war  # noqa: E402
from gm.games.britannica.data import load  # noqa: E402
from gm.orders.model import SourceLine  # noqa: E402


def _orders(s: dict, seat: str, rng: random.Random) -> list:
    d = load()
    step, lines = s["step"], []
    mine = [p for p in d.great_powers if d.seat_of(p) == seat]
    if step == "negotiation" and any(cb["holder"] == seat for cb in s["casus_belli"]):
        lines = [f"congress at {rng.choice(['Russia', 'Germany', 'Japan'])}"] if rng.random() < 0.7 else []
    elif step == "congress":
        number = d.seats.index(seat) + 1
        lines = [rng.choice(["attend", "stay away", f"propose {number}: {seat} takes Tunis",
                             f"propose {number + 10}: italy keeps Tunis"])]
    elif step == "congress-vote":
        lines = [f"vote {p['name']} {rng.choice(['yes', 'no', 'abstain'])}" for p in s["congress"]["proposals"]]
    elif step == "congress-sign":
        lines = [f"defy {s['congress']['adopted']}"] if rng.random() < 0.5 else []
    elif step == "war":
        lines = [f"declare war on {cb['against']}" for cb in s["casus_belli"]
                 if cb["holder"] == seat and rng.random() < 0.6]
        lines += ["support italy"] if rng.random() < 0.2 else []
    elif step.startswith("war-"):
        w = s["wars"][0]
        for p in mine:
            if war.side_of(w, p) is None:
                continue
            lines.append(f"FOR {p}")
            for u in [u for u in s["units"] if u["power"] == p][:6]:
                here = u["at"]
                near = sorted(war.adjacent(d, s, p, here))
                where = d.areas[here].name if here in d.areas else d.seas[here].name if here in d.seas else "home"
                roll = rng.random()
                if roll < 0.3 and near:
                    to = rng.choice(near)
                    name = d.areas[to].name if to in d.areas else d.seas[to].name if to in d.seas else "home"
                    lines.append(f"move {u['type']} {u['strength']} from {where} to {name}")
                elif roll < 0.7 and here != "home":
                    lines.append(f"attack {u['type']} in {where}")
                elif near and here != "home":
                    to = rng.choice(near)
                    name = d.areas[to].name if to in d.areas else d.seas[to].name if to in d.seas else "home"
                    lines.append(f"retreat {u['type']} from {where} to {name}")
        if rng.random() < 0.15:
            lines.append("peace")
    result = module.parse_orders(s, seat, [SourceLine(i, t) for i, t in enumerate(lines, 1)])
    orders = [p.order for p in result.orders]
    keep = module.validate(s, seat, orders)
    return [o for o, v in zip(orders, keep, strict=True) if v.stored is not False]


@pytest.mark.parametrize("seed", range(12))
def test_random_orders_walk_congress_and_war_to_the_next_turn(seed: int) -> None:
    d = load()
    rng = random.Random(seed)
    s = tunis_dispute()
    s["casus_belli"].append({"holder": "britain", "against": "france", "area": "", "cause": "x"})
    places = set(d.areas) | set(d.seas) | set(d.raw_map["cape_zones"]) | {"home"}
    for n in range(120):
        info = module.phase(s)
        if info.ended or (s["step"] == "movement"):
            break
        orders = {seat: _orders(s, seat, rng) for seat in info.owing}
        s = module.adjudicate(s, orders, dice(f"walk{seed}-{n}")).state
        assert all(u["at"] in places for u in s["units"])
        assert module.phase(s).id
    assert s["step"] in ("movement", "ended")
