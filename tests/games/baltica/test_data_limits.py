"""The action table and limits of tables.toml (and nations.toml's Ukrainian RP loss) are
read: a GM's corrected line changes the engine's ruling (docs/baltica-data.md: "a rules fact lives in one place")."""

from __future__ import annotations

import dataclasses
import shutil
import sys
from pathlib import Path

import pytest

from gm.dice import Dice
from gm.games.baltica.board import Board, build_board, data_root, load_board, read_raw
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.orders import Embark, Move, MoveGroup, Reform, Sail
from gm.games.baltica.rules import activation, battle, nations, reforms
from gm.games.baltica.rules.fleets import embark, sail
from gm.games.baltica.rules.movement import carry_out_move
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.truce import impose_truce
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import EXILE, GameState

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


# -- the rule book's numbers of sections 2, 5, 10 and 11 (tables.toml limits) ----------

def edited(tmp_path: Path, ruleset: str, name: str, *lines: tuple[str, str]) -> Board:
    """``ruleset``'s board loaded from a copy of the data with lines of the file ``name``
    replaced (a line is matched whole, or as the start of a line: the comment after a
    value goes with it)."""
    root = tmp_path / "data"
    shutil.copytree(data_root(), root)
    path = root / name
    text = path.read_text(encoding="utf-8")
    for old, new in lines:
        assert text.count(f"\n{old}") == 1, old
        text = text.replace(f"\n{old}", f"\n{new}")
    path.write_text(text, encoding="utf-8")
    return build_board(ruleset, read_raw(ruleset, root))


@pytest.fixture(scope="module")
def renumbered(tmp_path_factory: pytest.TempPathFactory) -> Board:
    """Every number moved out of the code, corrected by a GM to another value."""
    return edited(tmp_path_factory.mktemp("baltica"), "gmt-2012", "tables.toml",
                  ("battle_rounds = 3", "battle_rounds = 2"),
                  ("activation_needs = 6", "activation_needs = 5"),
                  ("truce_years_ahead = 4", "truce_years_ahead = 3"),
                  ("rp_per_ceded_territory = 4", "rp_per_ceded_territory = 5"),
                  ("rp_polish_capitals = 4", "rp_polish_capitals = 6"),
                  ("reform_years_ahead = 2", "reform_years_ahead = 3"),
                  ("fleet_years_ahead = 2", "fleet_years_ahead = 1"),
                  ("austro_turkish_war_needs = 6", "austro_turkish_war_needs = 5"),
                  ("night_rider_needs = 6", "night_rider_needs = 5"),
                  ("night_rider_needs_drop = 1", "night_rider_needs_drop = 2"))


def scenario_world(board: Board, scenario: str = "12.1", rolls: list[int] | None = None) -> World:
    gs = GameState.from_json(MODULE.setup(scenario, {}))
    gs.step, gs.turn.first = "battles", "sweden"
    return World(board, gs, Dice.scripted(rolls or []))


def test_shipped_rule_numbers_are_the_rule_books() -> None:
    """2.3, 5.4, 10.1, 10.2, 11.1, 11.2, 11.5, 11.6 as printed; 3CG 6.9-6.10's truce as the
    6.10 example counts it, and the 3CG book's same numbers (6.2, 10.1, 11.1)."""
    for ruleset in ("gmt-2012", "3cg-1.1"):
        lim = load_board(ruleset).limits
        assert (lim.battle_rounds, lim.activation_needs, lim.truce_years_ahead) == (3, 6, 4)
        assert (lim.rp_per_ceded_territory, lim.rp_polish_capitals) == (4, 4)
        assert (lim.reform_years_ahead, lim.fleet_years_ahead) == (2, 2)
        assert lim.austro_turkish_war_needs == 6
        assert (lim.night_rider_needs, lim.night_rider_needs_drop) == (6, 1)


def _rounds_fought(tables_board: Board) -> list[int]:
    """5.4: Karl XII attacks Reventlov; every die a 6 to nobody's harm (A3 vs B2 at full
    strength take turns, none is eliminated in time): the rounds fought."""
    blocks = {"karl-xii": ("sweden", "army", 4, "A3", 2, 1),
              "reventlov": ("denmark", "army", 4, "B2", 2, 1)}
    board = make_board({"skane": ("sweden", 3, 3), "jylland": ("denmark", 3, 3)},
                       [("skane", "jylland")], blocks)
    board = dataclasses.replace(board, tables=tables_board.tables)
    gs = make_state(board, {"karl-xii": ("skane", 4), "reventlov": ("jylland", 4)})
    world = make_world(board, gs, [6] * 24)
    carry_out_move(world, "sweden", Move("Skane", (MoveGroup(("Karl XII",), "Jylland"),)))
    battle.fight(world, "jylland", lambda block, round_: None, {})
    return [e.data["round"] for e in world.events if e.type == "round_end"]


def test_rule_5_4_a_corrected_number_of_rounds_ends_the_battle_sooner(renumbered: Board) -> None:
    """5.4: "Battles are fought over a maximum of three combat rounds." read from
    limits.battle_rounds: 3 rounds as printed, 2 once corrected."""
    assert _rounds_fought(load_board("gmt-2012")) == [1, 2, 3]
    assert _rounds_fought(renumbered) == [1, 2]


def test_rule_10_1_a_corrected_activation_roll_lets_a_5_activate(renumbered: Board) -> None:
    """10.1: "Roll a die for each nation that may activate: on a 6, that nation becomes
    active" read from limits.activation_needs (nations.toml gives Denmark no number of
    its own): a 5 fails as printed and activates once corrected."""
    assert not activation.activation_roll(scenario_world(load_board("gmt-2012"), rolls=[5]),
                                          "denmark")
    assert activation.activation_roll(scenario_world(renumbered, rolls=[5]), "denmark")


def test_rule_10_2_a_corrected_truce_puts_the_cube_three_years_ahead(renumbered: Board) -> None:
    """10.2: "Place a cube of that nation's color on the Year Track four years ahead"
    read from limits.truce_years_ahead."""
    for board, ahead in ((load_board("gmt-2012"), 4), (renumbered, 3)):
        w = scenario_world(board)
        impose_truce(w, "saxony", "capital")
        assert w.state.truces["saxony"] == w.state.year + ahead


def test_rule_11_1_a_corrected_cession_costs_five(renumbered: Board) -> None:
    """11.1: "Each territory ceded reduces Sweden's RP level by 4" read from
    limits.rp_per_ceded_territory."""
    for board, cost in ((load_board("gmt-2012"), 4), (renumbered, 5)):
        w = scenario_world(board)
        rp = w.state.rp["sweden"]
        assert nations.cede(w, "pommern", "prussia") is None
        assert w.state.rp["sweden"] == rp - cost


def test_rule_11_5_a_corrected_loss_of_the_polish_capitals_costs_six(renumbered: Board) -> None:
    """11.5: "If at any time both capitals are lost, reduce Saxony's RP level by 4 ... If
    Saxony regains both capitals, restore the lost RP level." read from
    limits.rp_polish_capitals."""
    for board, cost in ((load_board("gmt-2012"), 4), (renumbered, 6)):
        w = scenario_world(board, "12.4")
        rp = w.state.rp["saxony"]
        w.state.control.update({"mazowsze": "sweden", "malopolska": "sweden"})
        nations.polish_capitals(w)
        assert w.state.rp["saxony"] == rp - cost
        w.state.control.update({"mazowsze": "saxony", "malopolska": "saxony"})
        nations.polish_capitals(w)
        assert w.state.rp["saxony"] == rp


def test_rule_11_2_corrected_years_ahead_for_reform_and_fleets(renumbered: Board) -> None:
    """11.2: a reformed army goes "in any Year box without a Russian block already in it,
    at least two years ahead" (limits.reform_years_ahead); "If Russia captures Nyen,
    immediately place the two Russian fleet blocks on the Year Track two years ahead"
    (limits.fleet_years_ahead)."""
    for board, army, fleet in ((load_board("gmt-2012"), 2, 2), (renumbered, 3, 1)):
        w = scenario_world(board)
        w.state.reform_open = True
        reforms.reform(w, "coalition", "repnin", Reform("Repnin"))
        assert w.state.year_track["repnin-reformed"] == w.state.year + army
        w.state.control["nyen"] = "russia"
        reforms.nyen_changed_hands(w, "nyen")
        fleets = reforms.russian_fleets(w)
        assert fleets and {w.state.year_track[f] for f in fleets} == {w.state.year + fleet}


def test_rule_11_6_a_corrected_austro_turkish_war_starts_on_a_5(renumbered: Board) -> None:
    """11.6: "roll each following Interphase for the start of the Austro-Turkish War, which
    occurs on a 6" read from limits.austro_turkish_war_needs."""
    for board, war in ((load_board("gmt-2012"), False), (renumbered, True)):
        w = scenario_world(board, "12.4", [5])
        w.state.active.append("ottoman")
        nations.austro_turkish_war(w)
        assert ("ottoman" not in w.state.active) is war


def test_rule_2_3_a_corrected_night_rider_roll(renumbered: Board) -> None:
    """2.3: "On a roll of 6, deploy the Karl XII block ... he now arrives on a 5 or 6.
    Continue rolling each Interphase, increasing the chances by 1." read from
    limits.night_rider_needs and night_rider_needs_drop: as printed a 5 fails and then
    a 4 fails; corrected to 5 and 2, a 4 fails and then a 3 brings him back."""
    for board, rolls, back in ((load_board("gmt-2012"), [5, 4], False),
                               (renumbered, [4, 3], True)):
        w = scenario_world(board, rolls=rolls)
        karl = w.state.blocks["karl-xii"]
        karl.location, karl.strength = EXILE, 0
        reforms.karl_returns(w, [])
        assert karl.location == EXILE
        reforms.karl_returns(w, [])
        assert (karl.location != EXILE) is back
        assert [e.data["needs"] for e in w.events if e.type == "night_rider_roll"] == (
            [5, 3] if back else [6, 5])


def test_rule_11_8_russia_regains_what_the_activation_took(tmp_path: Path) -> None:
    """11.8: "Reduce Russia's RP level by 8 ... when Ukraine is activated"; "Russia
    regains its lost 8 RPs": the 8 is nations.toml ukraine ``activation.rp_loss`` alone,
    so a corrected 6 is lost and regained."""
    board = edited(tmp_path, "gmt-2012", "nations.toml",
                   ('activation = { active_at_start = false, rolled_by = "sweden", '
                    'karl_in_ukraine = 2, requires_active = "russia", rp_loss_to = "russia", '
                    'rp_loss = 8, part_of = "russia" }',
                    'activation = { active_at_start = false, rolled_by = "sweden", '
                    'karl_in_ukraine = 2, requires_active = "russia", rp_loss_to = "russia", '
                    'rp_loss = 6, part_of = "russia" }'))
    for b, rp in ((load_board("gmt-2012"), 8), (board, 6)):
        w = scenario_world(b)
        before = w.state.rp["russia"]
        activation.activate(w, "ukraine", "10.1")
        assert w.state.rp["russia"] == before - rp
        w.triggers.add("mazepa-eliminated")
        nations.ukraine_pacification(w)
        assert "ukraine" not in w.state.active and w.state.rp["russia"] == before


def test_rule_3cg_10_7_no_rp_windfall_when_ukraine_rejoins() -> None:
    """3CG 10.7: "Ukraine rejoins Russia as soon as the Mazepa block is killed. Adjust
    Russian RP´s thereafter." The 3CG activation (9.8) takes no RPs from Russia, so none
    come back (the GMT 11.8 "regains its lost 8 RPs" gave Russia 8 it never lost)."""
    w = scenario_world(load_board("3cg-1.1"))
    before = w.state.rp["russia"]
    activation.activate(w, "ukraine", "10.1")
    assert w.state.rp["russia"] == before
    w.triggers.add("mazepa-eliminated")
    nations.ukraine_pacification(w)
    assert "ukraine" not in w.state.active and w.state.rp["russia"] == before
