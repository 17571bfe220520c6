"""Pax Baltica 0.4 winning the game, with the 3CG scenarios' victory tables (12.1-12.5)
and their end-of-game RP losses (3CG 11.3-11.5)."""

from __future__ import annotations

import pytest

from gm.dice import Dice
from gm.games.baltica.board import load_board
from gm.games.baltica.engine import end_of_phase
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import REMOVED, GameState

MODULE = BalticaModule()
BOARD = load_board()


def scenario_state(scenario: str) -> GameState:
    return GameState.from_json(MODULE.setup(scenario, {}))


def last_turn(gs: GameState) -> GameState:
    """The scenario's last game turn, its forage phase about to close."""
    gs.year, gs.season, gs.step = gs.end_year, gs.end_season, "forage"
    return gs


def close(gs: GameState) -> World:
    world = World(BOARD, gs, Dice.scripted([]))
    end_of_phase(world)
    return world


def victory_event(world: World) -> dict:  # type: ignore[type-arg]
    found = [e for e in world.events if e.type == "victory"]
    assert len(found) == 1 and found[0].visible_to is None  # public
    return found[0].data


def test_rule_0_4_a_truce_on_sweden_is_a_coalition_triumph() -> None:
    """0.4: "If a truce is imposed on Sweden, the game ends immediately with a Coalition
    Triumphant Victory." (mid-scenario: sudden death)"""
    gs = scenario_state("12.1")
    gs.truces["sweden"] = gs.year + 4
    world = close(gs)
    assert gs.ended and gs.victory is not None
    assert victory_event(world) | {} == gs.victory
    assert (gs.victory["winner"], gs.victory["level"]) == ("coalition", "triumphant")
    assert MODULE.phase(gs.to_json()).ended


def test_rule_0_4_all_coalition_majors_under_truce_is_a_swedish_triumph() -> None:
    """0.4: "If at any time all Coalition major nations (1.1) are under truce, the game ends
    immediately with a Swedish Triumphant Victory". Denmark, out of the war when 12.1
    starts, counts as under truce (docs/baltica.md)."""
    gs = scenario_state("12.1")
    assert "denmark" not in gs.active
    for n in ("russia", "saxony"):
        gs.active.remove(n)
        gs.truces[n] = gs.year + 4
    world = close(gs)
    assert gs.ended
    assert victory_event(world)["winner"] == "sweden"
    assert gs.victory is not None and gs.victory["level"] == "triumphant"


def test_rule_0_4_one_coalition_major_at_war_keeps_the_game_going() -> None:
    gs = scenario_state("12.1")
    gs.active.remove("saxony")
    gs.truces["saxony"] = gs.year + 4
    world = close(gs)
    assert not gs.ended and gs.victory is None
    assert not [e for e in world.events if e.type == "victory"]


@pytest.mark.parametrize(("rp", "winner", "level"), [
    (40, "sweden", "major"), (36, "sweden", "minor"), (20, "sweden", "minor"),
    (16, "coalition", "historical"), (12, "coalition", "minor"), (8, "coalition", "minor"),
    (4, "coalition", "major"),
    (14, "coalition", "minor"),  # between two rows: the lower one
])
def test_scenario_12_1_victory_table(rp: int, winner: str, level: str) -> None:
    """3CG 12.1: "At game end, if Sweden have: 40 RP = Swedish Major Victory, 20-36 RP =
    Swedish Minor Victory, 16 RP = Allied Historical Victory, 8-12 RP = Allied Minor
    Victory, 4 RP = Allied Major Victory"."""
    gs = last_turn(scenario_state("12.1"))
    gs.rp["sweden"] = rp
    world = close(gs)
    assert gs.ended
    v = victory_event(world)
    assert (v["winner"], v["level"], v["rp"]) == (winner, level, rp)


def test_rule_0_4_a_level_between_two_rows_counts_as_the_lower_row() -> None:
    """0.4: "victory is usually determined by calculating victory points (VP) ... based on
    the Swedish RP level"; the 3CG 12.1 table steps by 4 ("40 RP = Swedish Major Victory,
    20-36 RP = Swedish Minor Victory"). A level between two rows (docs/baltica.md) counts
    as the lower row: 38 is a Swedish Minor Victory, not the table's last row. (Every RP
    level a game reaches is a multiple of 4; this is the documented reading of a gap.)"""
    from gm.games.baltica.rules.victory import table_row

    world = World(BOARD, last_turn(scenario_state("12.1")), Dice.scripted([]))
    row = table_row(world, 38)
    assert row is not None and row.result == "Swedish Minor Victory"


def test_rule_10_2_sweden_at_zero_rp_is_under_truce_a_coalition_triumph() -> None:
    """10.2: a truce is imposed "when their RP level is reduced to zero"; 0.4: on Sweden
    that is a Coalition Triumphant Victory, whatever the table says."""
    gs = last_turn(scenario_state("12.1"))
    gs.rp["sweden"] = 0
    world = close(gs)
    assert [e.data["reason"] for e in world.events if e.type == "truce"] == ["rp_zero"]
    v = victory_event(world)
    assert (v["winner"], v["level"], v["reason"]) == ("coalition", "triumphant", "sweden_truce")


def test_the_game_does_not_end_before_the_last_turn() -> None:
    gs = scenario_state("12.1")
    gs.step = "forage"
    close(gs)
    assert not gs.ended and gs.step == "action-roll"


def test_rule_3cg_11_3_faderneslandet() -> None:
    """3CG 11.3: "Any territorial loss of a territory on the map defined as Sweden ... by
    the end of the game results in an extra 8 RP loss to Sweden." (once; 8.1 has already
    taken 4 for the garrison.)"""
    gs = last_turn(scenario_state("12.2"))
    gs.control["skane"] = "russia"
    gs.control["smaland"] = "russia"
    gs.rp["sweden"] = 32
    world = close(gs)
    penalty = next(e for e in world.events if e.type == "victory_penalty")
    assert penalty.data["rp"] == 8 and penalty.data["rule"] == "3CG 11.3"
    v = victory_event(world)
    assert (v["rp"], v["winner"], v["level"]) == (24, "coalition", "minor")


def test_rule_3cg_11_4_danes_hold_three_of_four() -> None:
    """3CG 11.4: "If the Danes occupy three of the following territories (Holstein,
    Bremen-Verden, Wismar or Skåne) by the end of the game, this results in a further 4 RP
    loss to Sweden." Two are not enough."""
    gs = last_turn(scenario_state("12.4"))
    gs.rp["sweden"] = 36
    gs.control.update({"holstein-gottorp": "denmark", "bremen-verden": "denmark"})
    world = close(gs)
    assert not [e for e in world.events if e.type == "victory_penalty"]
    assert victory_event(world)["rp"] == 36

    gs = last_turn(scenario_state("12.4"))
    gs.rp["sweden"] = 36
    gs.control.update({"holstein-gottorp": "denmark", "bremen-verden": "denmark",
                       "wismar": "denmark"})
    world = close(gs)
    rules = sorted(e.data["rule"] for e in world.events if e.type == "victory_penalty")
    assert rules == ["3CG 11.4"]
    assert victory_event(world)["rp"] == 32


def test_rule_3cg_11_5_mein_schatz() -> None:
    """3CG 11.5: "If Livland are occupied by the Saxons at the end of the game, this results
    in an extra 4 RP loss to Sweden." """
    gs = last_turn(scenario_state("12.1"))
    gs.control["livland"] = "saxony"
    world = close(gs)
    assert [e.data["rule"] for e in world.events if e.type == "victory_penalty"] == ["3CG 11.5"]
    assert victory_event(world)["rp"] == gs.rp["sweden"] - 4


@pytest.mark.parametrize(("held", "karl_lost", "winner", "level"), [
    (("akershus", "trondhjem"), False, "sweden", "major"),
    (("akershus",), False, "sweden", "minor"),
    ((), False, "coalition", "minor"),
    ((), True, "coalition", "major"),
])
def test_scenario_12_5_victory_by_occupation(held: tuple[str, ...], karl_lost: bool,
                                             winner: str, level: str) -> None:
    """3CG 12.5: "At game end, if Sweden have occupied: Christiania and Trondheim = Swedish
    Major Victory; Christiania = Swedish Minor Victory; Nothing = Allied Minor Victory;
    Nothing and lost Karl XII = Allied Major Victory"."""
    gs = last_turn(scenario_state("12.5"))
    for t in held:
        gs.control[t] = "sweden"
    if karl_lost:
        gs.blocks["karl-xii"].location, gs.blocks["karl-xii"].strength = REMOVED, 0
    world = close(gs)
    v = victory_event(world)
    assert (v["winner"], v["level"], v["rp"]) == (winner, level, None)
    assert not [e for e in world.events if e.type == "victory_penalty"]


def test_scenario_12_5_swedish_blocks_alone_occupy() -> None:
    """Interpretation (docs/baltica.md): Swedish blocks alone in a territory occupy it."""
    gs = last_turn(scenario_state("12.5"))
    for b in ("bergenhus", "prins-christian"):
        gs.blocks[b].location = "pool"
    gs.blocks["karl-xii"].location = "akershus"
    world = close(gs)
    assert victory_event(world)["level"] == "minor"
    assert victory_event(world)["winner"] == "sweden"


def test_rule_0_4_the_final_view_reveals_everything() -> None:
    """Once the game is over every block is shown to both players, by name and strength,
    with the blocks off the map and the result."""
    gs = last_turn(scenario_state("12.1"))
    close(gs)
    view = MODULE.view(gs.to_json(), "sweden")
    assert view["ended"] and view["victory"]["reason"] == "scenario_end"
    assert view["enemy_blocks"] == []
    assert {"Repnin", "Flemming", "August II"} <= {b["name"] for b in view["revealed"]}
    assert any(g["location"] == "pool" and "Pyotr I" not in g["blocks"] for g in view["off_map"])
