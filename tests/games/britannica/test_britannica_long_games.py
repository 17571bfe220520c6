"""Seven-power Pax Britannica games played to the end with seeded random orders (issue 18).

Some seats never send anything (drop-out bots), some send conditional orders; every report of
every phase is rendered in English and French for every seat, the moderator and a spectator.
A phase that cannot be adjudicated or reported fails the test. CI plays 8 seeds (a few seconds);
GM_LONG_TESTS=1 plays 60.
"""

from __future__ import annotations

import functools
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from britannica_long_game import Played, play_game  # noqa: E402

LONG = os.environ.get("GM_LONG_TESTS") == "1"
SEEDS = range(60 if LONG else 8)
SEATS = ("britain", "france", "germany", "italy", "japan", "russia", "usa")


def _roles(seed: int) -> tuple[frozenset[str], frozenset[str]]:
    """Seed by seed, two or three silent seats and two conditional-order senders."""
    order = sorted(SEATS, key=lambda s: (seed + SEATS.index(s) * 3) % 7)
    silent = frozenset(order[: 2 + seed % 2])
    conditional = frozenset(order[3:5])
    return silent, conditional


@functools.cache
def _played(seed: int) -> Played:
    silent, conditional = _roles(seed)
    return play_game(seed, silent, conditional)


@pytest.mark.parametrize("seed", SEEDS)
def test_seven_power_game_plays_to_the_end_with_random_orders(seed: int) -> None:
    """Garrisons / Drop-outs: "If a player does not make provision in his orders to garrison a
    Controlled Area, the GM will move the lowest value army from home": every phase of a whole
    game closes and reports, silent seats included."""
    silent, _ = _roles(seed)
    played = _played(seed)
    assert played.state["step"] == "ended"
    assert played.events["game_over"] == 1
    assert played.phases[:2] == ["1880-setup", "1880-movement"]  # the set-up's GM phases first
    assert played.reports >= 18 * len(played.phases)
    # the random orders did reach the engine and some were carried out
    assert played.events["buy_done"] + played.events["place_done"] > 0
    assert played.events["order_not_carried_out"] > 0
    # silent seats became abandoned powers played by the GM's drop-out rules
    assert set(played.state["abandoned"]) >= silent


def test_default_garrison_from_home_army_renders_in_both_languages() -> None:
    """Garrisons: "the GM will move the lowest value army from home ... to the ungarrisoned
    area" — the report line of an army moved (not bought) renders (it read a missing key)."""
    found = False
    for seed in range(4):
        played = play_game(seed, frozenset({"japan", "usa"}), frozenset(), keep_texts=True)
        lines = [line for t in played.report_texts["None:en"] + played.report_texts["None:fr"]
                 for line in (x.strip() for x in t.splitlines())]
        moved = [line for line in lines if line.startswith(("The GM garrisons", "Le MJ garnit"))
                 and "bought for the purpose" not in line and "achetée" not in line]
        if {line[:6] for line in moved} >= {"The GM", "Le MJ "}:
            found = True
            break
    assert found, "no seed had the GM garrison from a home army"


def test_the_random_games_reach_congress_war_and_the_gms_defaults() -> None:
    """The seeds above are worth their time only if they reach the phases where games stopped:
    between them a Congress, a war fought in rounds, Casus Belli, the GM's default garrisons,
    drop-outs and conditional orders whose condition failed."""
    phases = [p for seed in SEEDS for p in _played(seed).phases]
    seen: Counter[str] = Counter()
    for seed in SEEDS:
        seen.update(_played(seed).events)
    assert any(p.endswith("-congress") for p in phases)
    assert any("-round-" in p for p in phases)
    for kind in ("casus_belli", "default_garrison", "war_declared", "war_combat", "unrest",
                 "headline", "resentment", "tension", "victory_points", "final_victory_points"):
        assert seen[kind], kind


@pytest.mark.parametrize("seed", range(3))
def test_rule_european_tensions_a_game_ending_in_the_great_war_reports_to_the_end(seed: int) -> None:
    """European Tensions and the Great War: "During the Final Record phase of the last Game
    turn – either Game Turn 10 or upon the outbreak of the Great War – the GM will complete the
    Final Victory Point Record." With the index started at 95, the first rises set off the
    Great War: the game ends there, with the penalties, and every report renders."""
    silent, conditional = _roles(seed)
    played = play_game(seed, silent, conditional, eti=95)
    assert played.state["step"] == "ended" and played.events["game_over"] == 1
    assert played.events["great_war"] == 1 and played.events["great_war_penalty"] == 7
    assert played.state["year"] < 1916
