"""The action table and limits of tables.toml are read: a GM's corrected line changes the
engine's ruling (docs/baltica-data.md: "a rules fact lives in one place")."""

from __future__ import annotations

import dataclasses
import shutil
import sys
from pathlib import Path

import pytest

from gm.dice import Dice
from gm.games.baltica.board import Board, build_board, data_root, load_board, read_raw
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.orders import Embark, Move, MoveGroup, Sail
from gm.games.baltica.rules.fleets import embark, sail
from gm.games.baltica.rules.movement import carry_out_move
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import GameState

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "rules" / "baltica"))
from baltica_boards import make_board, make_state, make_world  # noqa: E402

MODULE = BalticaModule()
REG = ("sweden", "regiment", 3, "B2", 2, 0)


def edited_board(tmp_path: Path, *lines: tuple[str, str]) -> Board:
    """The gmt-2012 board loaded from a copy of the data with ``tables.toml`` lines
    replaced, as a GM correcting the file would."""
    root = tmp_path / "data"
    shutil.copytree(data_root(), root)
    tables = root / "tables.toml"
    text = tables.read_text(encoding="utf-8")
    for old, new in lines:
        assert f"\n{old}\n" in text
        text = text.replace(f"\n{old}\n", f"\n{new}\n")
    tables.write_text(text, encoding="utf-8")
    return build_board("gmt-2012", read_raw("gmt-2012", root))


def test_shipped_limits_are_the_rule_books() -> None:
    """3.1, 4.2, 4.4, 6.3, 7.1, 8.1, 9.1, 9.2 as printed, in both rulesets."""
    for ruleset in ("gmt-2012", "3cg-1.1"):
        lim = load_board(ruleset).limits
        assert dict(lim.actions) == {1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 0}
        assert lim.event_rolls == {6}
        assert (lim.border_normal, lim.border_difficult) == (6, 2)
        assert (lim.force_march_extra, lim.force_march_loss_on) == (2, 3)
        assert (lim.forage_army, lim.forage_regiment) == (2, 1)
        assert str(lim.garrison_rating) == "C1"
        assert (lim.fleet_movement, lim.galley_movement) == (6, 3)
        assert (lim.fleet_capacity_armies, lim.fleet_capacity_regiments) == (1, 2)
        assert lim.rp_per_garrison == 4


def _third_block_crosses(tables_board: Board) -> Why | None:
    """4.2: three regiments cross one Difficult Terrain border; the ruling on the third."""
    blocks = {f"r{i}": REG for i in range(3)}
    board = make_board({"a": ("sweden", 3, 2), "b": ("sweden", 3, 2)},
                       [("a", "b", "difficult")], blocks)
    board = dataclasses.replace(board, tables=tables_board.tables)
    world = make_world(board, make_state(board, {f"r{i}": ("a", 3) for i in range(3)}))
    [(_, why)] = carry_out_move(world, "sweden", Move("A", (MoveGroup(("R0", "R1"), "B"),)))
    assert why is None
    [(_, why)] = carry_out_move(world, "sweden", Move("A", (MoveGroup(("R2",), "B"),)))
    return why


def _third_regiment_boards(board: Board) -> Why | None:
    """9.2: three regiments embark on Wachtmeister; the ruling."""
    gs = GameState.from_json(MODULE.setup("12.1", {}))
    gs.step = "actions-first"
    gs.turn.first, gs.turn.actions = "sweden", {"sweden": 3, "coalition": 3}
    gs.blocks["wachtmeister"].location = "kattegat"
    for b in ("dalregementet", "ostgota", "elfsborg"):
        gs.blocks[b].location = "vastergotland"
        gs.blocks[b].strength = board.blocks[b].max_strength
    world = World(board, gs, Dice.scripted([]))
    return embark(world, "sweden", Embark(("Dalregementet", "Östgöta", "Elfsborg"),
                                          "Västergötland", ("Wachtmeister",)))


def _galley_sails_four(board: Board) -> Why | None:
    """9.1: Botsis sails North Sea to Baltic Sea (four sea zones); the ruling."""
    gs = GameState.from_json(MODULE.setup("12.1", {}))
    gs.step = "actions-first"
    gs.turn.first, gs.turn.actions = "sweden", {"sweden": 3, "coalition": 3}
    gs.blocks["botsis"].location = "north-sea"
    for fleet in ("wachtmeister", "wattrang"):  # anchored: no enemy fleet on the way
        gs.blocks[fleet].location = "svealand"
    gs.blocks["botsis"].strength = board.blocks["botsis"].max_strength
    world = World(board, gs, Dice.scripted([]))
    return sail(world, "coalition", Sail(("Botsis",), "North Sea", "Baltic Sea"))


@pytest.fixture(scope="module")
def corrected(tmp_path_factory: pytest.TempPathFactory) -> Board:
    return edited_board(tmp_path_factory.mktemp("baltica"),
                        ("border_difficult = 2", "border_difficult = 3"),
                        ("fleet_capacity_regiments = 2", "fleet_capacity_regiments = 3"),
                        ("galley_movement = 3", "galley_movement = 6"))


def test_a_corrected_border_limit_lets_a_third_block_cross(corrected: Board) -> None:
    """4.2 read from limits.border_difficult: 2 stops the third block, 3 lets it cross."""
    assert _third_block_crosses(load_board("gmt-2012")) in (Why.NO_PATH, Why.BORDER_FULL)
    assert corrected.limits.border_difficult == 3
    assert _third_block_crosses(corrected) is None


def test_a_corrected_fleet_capacity_takes_a_third_regiment(corrected: Board) -> None:
    """9.2 read from limits.fleet_capacity_regiments: 2 refuses the third, 3 takes it."""
    assert _third_regiment_boards(load_board("gmt-2012")) is Why.NO_ROOM
    assert _third_regiment_boards(corrected) is None


def test_a_corrected_galley_movement_sails_further(corrected: Board) -> None:
    """9.1 read from limits.galley_movement (blocks.toml gives no fleet a movement)."""
    assert _galley_sails_four(load_board("gmt-2012")) is Why.TOO_FAR_AT_SEA
    assert corrected.blocks["botsis"].movement == 6
    assert corrected.blocks["wachtmeister"].movement == 6
    assert _galley_sails_four(corrected) is None
