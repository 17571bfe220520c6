"""Pax Baltica's parse context is built once per board, power, language and what of the state
it reads, then reused (issue 21); a state that changes what a power may name gets a new one."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gm.games.baltica import module, parsing
from gm.games.baltica.parsing import context_for, parse_lines, phase_commands
from gm.games.baltica.state import POOL
from gm.orders.model import LineError, ParsedOrder, SourceLine


def setup() -> dict[str, Any]:
    return module.setup("12.1", {})


def karl(state: dict[str, Any]) -> str:
    board = module.board_of(state)
    return next(b for b in state["blocks"] if board.blocks[b].name == "Karl XII")


def test_the_same_state_gives_the_same_context_object() -> None:
    state = setup()
    board = module.board_of(state)
    first = context_for(board, state, "sweden")
    again = context_for(board, copy.deepcopy(state), "sweden")
    assert again is first
    assert context_for(board, state, "coalition") is not first
    assert context_for(board, state, "sweden", "fr") is not first


def test_a_block_that_leaves_the_map_can_no_longer_be_ordered() -> None:
    """The cached context of the earlier state must not let Sweden name Karl XII once he is
    in the pool: own on-map blocks only."""
    state = setup()
    board = module.board_of(state)
    line = [SourceLine(1, "hits prefer Karl XII")]
    assert isinstance(parse_lines(board, state, "sweden", line).lines[0], ParsedOrder)
    later = copy.deepcopy(state)
    later["blocks"][karl(later)]["location"] = POOL
    refused = parse_lines(board, later, "sweden", line).lines[0]
    assert isinstance(refused, LineError) and "Karl XII" in refused.reason
    # and the first state still parses as before (its context was not changed)
    assert isinstance(parse_lines(board, state, "sweden", line).lines[0], ParsedOrder)


def test_a_nation_that_changes_sides_brings_its_blocks_along() -> None:
    """11.9: a defected nation's blocks are named by the side it went over to."""
    state = setup()
    board = module.board_of(state)
    nation = board.blocks[karl(state)].nation
    before = context_for(board, state, "coalition")
    later = copy.deepcopy(state)
    later["defected"] = [nation]
    after = context_for(board, later, "coalition")
    assert after is not before
    assert "Karl XII" in after.names["army"] and "Karl XII" not in before.names["army"]


def test_a_new_step_gets_the_command_words_of_its_phase() -> None:
    """The key holds "the step (its commands)": a context is not served for another phase."""
    state = setup()
    board = module.board_of(state)
    before = context_for(board, state, "sweden")
    later = copy.deepcopy(state)
    later["step"] = "forage"
    assert phase_commands(later["step"]) != phase_commands(state["step"])
    after = context_for(board, later, "sweden")
    assert after is not before
    assert after.commands == phase_commands("forage")


def test_a_dead_boards_entry_is_not_served_for_a_board_that_reuses_its_id(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """"An entry whose board is gone is rebuilt with a new token (so contexts of a dead
    board are never served for a new one)"; the reused id is forced, not waited for."""
    state = setup()
    dead = copy.copy(module.board_of(state))
    gone = context_for(dead, state, "sweden")
    entry = parsing._boards[id(dead)]
    del dead
    assert entry.board() is None
    fresh = copy.copy(module.board_of(state))
    monkeypatch.setitem(parsing._boards, id(fresh), entry)
    assert context_for(fresh, state, "sweden") is not gone
