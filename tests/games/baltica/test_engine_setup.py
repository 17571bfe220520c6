"""The 12.1 grand campaign set up from the shipped data, through the module."""

from __future__ import annotations

import json

from gm.dice import Dice
from gm.games.baltica import module
from gm.games.baltica.state import POOL


def test_12_1_setup_opens_with_the_action_roll_and_hides_the_coalition() -> None:
    state = module.setup("12.1", {})
    info = module.phase(state)
    sc = module.board.scenarios["12.1"]
    assert info.id == f"{sc.start_year}-{sc.start_season.value}-action-roll"
    assert info.owing == ()
    view = json.dumps(module.view(state, "sweden"), ensure_ascii=False)
    board = module.board
    for b, bs in state["blocks"].items():
        spec = board.blocks[b]
        side = board.nations[spec.nation].side.value
        if side == "coalition" and bs["location"] != POOL:
            assert f'"{spec.name}"' not in view
    assert "Karl XII" in view


def test_12_1_first_season_adjudicates_with_seeded_dice() -> None:
    state = module.setup("12.1", {})
    start = module.phase(state).id
    for _ in range(5):
        info = module.phase(state)
        state = module.adjudicate(state, {}, Dice(b"\1" * 32, "t", info.id)).state
    info = module.phase(state)
    assert info.id.endswith("-action-roll") and info.id != start and not info.ended
