"""Pax Viking games of 1 to 6 players played to their end with seeded random orders (issue 18).

Every phase closes and every report (each player, the moderator, a spectator: the archive's
public view) renders in English and French. CI plays 3 seeds per player count (a few seconds);
GM_LONG_TESTS=1 plays 25.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from viking_long_game import play_game  # noqa: E402

from gm.games.base import SPECTATOR  # noqa: E402
from gm.games.viking import module  # noqa: E402

LONG = os.environ.get("GM_LONG_TESTS") == "1"
SEEDS = range(25 if LONG else 3)
OPTIONS = ({"difficulty": "standard"}, {"difficulty": "novice", "bragi": True},
           {"difficulty": "advanced", "open_information": True, "deck": "random"})


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("players", range(1, 7))
def test_game_of_n_players_plays_to_the_end_of_the_saga(players: int, seed: int) -> None:
    """Victory: "the game ends once one or more players achieve one of the revealed Victory
    Conditions" or "When the last Saga Tile from the Saga Track is taken, at such time that the
    Saga Pile and the Saga Track are empty, then the game ends." Every game reaches one of these
    ends, silent players (who pass) included, with every phase's reports in both languages."""
    silent = frozenset({"green"}) if seed % 2 and players >= 3 else frozenset()
    options = OPTIONS[seed % len(OPTIONS)]
    played = play_game(players, seed, silent, options)
    assert played.state["ended"]
    # the tie breaker always crowns someone, except a solo player who met no card (a loss)
    assert played.state["winners"] or (players == 1 and played.state["end_reason"] == "end_of_saga")
    assert played.state["end_reason"] in ("victory", "end_of_saga")
    assert played.events["journey"] > 0
    assert played.reports == len(played.phases) * (players + 2) * 2


def test_spectator_view_holds_no_hand_and_no_rival_tile() -> None:
    """Key Concepts, Public and Private Information: "All information in the game is public
    except Saga Tiles in your hand." The archive's public view (a spectator) names no tile in
    anybody's hand (it raised KeyError: 'spectator')."""
    played = play_game(3, 0)
    state = played.state
    public = module.public_view(state)
    assert "hand" not in public
    assert all("hand" not in p for p in public["players"])
    assert module.view(state, SPECTATOR) == public
