"""Play a whole Pax Viking game (1 to 6 players) with seeded random orders.

The orders are those of the benchmark's random player (bench/bench_viking.py: journeys,
INVEST, PLAY, ACTIVATE, PARLEY, the influence actions held, trade offers, Althing votes),
plus conditional ones, written out as text and sent through the real parser and mail-time
validation. Some players may stay silent (they pass). Every phase's reports are rendered
for every player, the moderator and a spectator (the archive's public view), in English and
French.
"""

from __future__ import annotations

import hashlib
import importlib.util
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gm.dice import Dice
from gm.games.base import SPECTATOR, Event
from gm.games.viking import module
from gm.orders.model import SourceLine
from gm.service.render import render
from tests.support.language_scan import data_names, english_lines, french_lines

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location("bench_viking", ROOT / "bench" / "bench_viking.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

LANGUAGES = ("en", "fr")
NAMES = data_names("viking")  # issue 20: a French report has no other English
MAX_PHASES = 3000
CONDITIONAL = ("invest draw if funds >= 3", "invest draw unless hand >= 4",
               "pass if actions left < 1", "invest draw if trade accepted",
               "invest draw if althing passed and round > 1",
               "invest draw if rival longships at Birka > 0 or longships at Ladoga >= 1")


@dataclass
class Played:
    state: dict[str, Any]
    phases: list[str] = field(default_factory=list)
    events: Counter[str] = field(default_factory=Counter)
    reports: int = 0


def render_all(state: dict[str, Any], events: list[Event]) -> int:
    count = 0
    for who in [*state["powers"], None, SPECTATOR]:
        view = module.public_view(state) if who == SPECTATOR else module.view(state, who)
        shown = [{"type": e.type, "data": dict(e.data)} for e in events if e.visible(who)]
        for lang in LANGUAGES:
            text = render("report", lang, "viking", game_only=True, view=view, events=shown,
                          power=who)
            assert text.strip()
            other = (english_lines if lang == "fr" else french_lines)(text, NAMES)
            assert not other, (lang, other)  # issue 20: each report in its reader's language
            count += 1
    return count


def _rus_lines(state: dict[str, Any], p: str, rng: random.Random) -> list[str]:
    """The Rus action the benchmark's player never takes: a rival's advocate."""
    if state["influence"].get("rus") != p:
        return []
    theirs = [x for q, pl in state["players"].items() if q != p for x in pl["advocates"]]
    return [f"rus take {module.data.tiles[rng.choice(theirs)].name}"] if theirs else []


def _turn_orders(state: dict[str, Any], p: str, rng: random.Random) -> list[Any]:
    lines = [o.echo() for o in bench.random_turn(state, p, rng)] + _rus_lines(state, p, rng)
    if rng.random() < 0.5:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(CONDITIONAL))
    result = module.parse_orders(state, p, [SourceLine(i, t) for i, t in enumerate(lines, 1)])
    orders = [r.order for r in result.orders]
    keep = module.validate(state, p, orders)
    return [o for o, v in zip(orders, keep, strict=True) if v.stored]


def play_game(players: int, seed: int, silent: frozenset[str] = frozenset(),
              options: dict[str, Any] | None = None) -> Played:
    """From set-up to the end of the game; a phase that cannot close raises."""
    rng = random.Random(seed)
    state = module.setup(f"{players}p", dict(options or {}))
    played = Played(state)
    for n in range(MAX_PHASES):
        info = module.phase(state)
        if info.ended:
            break
        assert info.id not in played.phases, f"phase {info.id} opened twice"
        played.phases.append(info.id)
        if info.kind == "turn":
            p = info.owing[0]
            orders = {p: [] if p in silent else _turn_orders(state, p, rng)}
        elif info.kind in ("althing", "trade"):
            orders = {p: o for p, o in bench.orders_for(state, rng).items() if p not in silent}
            for p in info.owing:
                orders.setdefault(p, module.default_orders(state, p))
        else:
            orders = {}
        dice = Dice(seed=hashlib.sha256(f"viking{players}-{seed}".encode()).digest(),
                    game_id=f"v{players}-{seed}", phase_id=f"{info.id}-{n}")
        out = module.adjudicate(state, orders, dice)
        state = out.state
        played.state = state
        played.events.update(e.type.removeprefix("viking.") for e in out.events)
        played.reports += render_all(state, list(out.events))
    else:
        raise AssertionError(f"the game did not end within {MAX_PHASES} phases")
    return played
