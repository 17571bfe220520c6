"""What gm.maps.baltica keeps between maps of a board: the folded area names (issue 21)."""

from __future__ import annotations

import dataclasses

from gm.games.baltica.board import fold, load_board
from gm.maps import baltica


def test_the_area_names_kept_for_a_board_are_the_board_s_own() -> None:
    board = load_board()
    fresh = {fold(t.name): t.id for t in board.territories.values()}
    fresh.update({fold(s.name): s.id for s in board.seas.values()})
    fresh.update({fold(i): i for i in (*board.territories, *board.seas)})
    assert baltica._ids(board) == fresh and baltica._ids(board) is baltica._ids(board)
    other = dataclasses.replace(board, seas={})  # another board object: its own names
    assert set(baltica._ids(other)) < set(fresh) and baltica._ids(board) == fresh
