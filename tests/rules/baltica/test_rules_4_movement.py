"""Pax Baltica 4.x movement, rule by rule (GMT 2012 rule book)."""

from __future__ import annotations

from baltica_boards import make_board, make_state, make_world

from gm.dice import Dice
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.orders import Move, MoveGroup, Pin
from gm.games.baltica.rules import battle
from gm.games.baltica.rules.action_phase import run_action_phase
from gm.games.baltica.rules.movement import carry_out_move
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import GameState

REG = ("sweden", "regiment", 3, "B2", 2, 0)


def chain_board(n: int = 6, **extra):  # type: ignore[no-untyped-def]
    terr = {f"t{i}": ("sweden", 3, 2) for i in range(n)}
    borders = [(f"t{i}", f"t{i + 1}") for i in range(n - 1)]
    blocks = {"karl-xii": ("sweden", "army", 4, "A3", 2, 1),
              "dalregementet": ("sweden", "regiment", 3, "B2", 2, 0)}
    blocks.update(extra)
    return make_board(terr, borders, blocks)


def test_rule_4_4_force_march_example() -> None:
    """4.4: "Karl XII and Dalregementet, both at full strength, are in Sandomierz ... they
    force-march to move the extra two territories ... The roll for Karl is a 5, so no
    losses; but the Dalregementet's roll is a 2, and it suffers two losses, one for each
    extra territory it moved. Dalregementet is reduced from 3 strength to 1."""
    board = chain_board()
    gs = make_state(board, {"karl-xii": ("t0", 4), "dalregementet": ("t0", 3)})
    world = make_world(board, gs, [2, 5])  # rolled in id order: Dalregementet, Karl XII
    move = Move("T0", (MoveGroup(("Karl XII", "Dalregementet"), "T4", force=True),))
    run_action_phase(world, "sweden", [move])
    assert gs.blocks["karl-xii"].location == "t4" and gs.blocks["karl-xii"].strength == 4
    assert gs.blocks["dalregementet"].location == "t4"
    assert gs.blocks["dalregementet"].strength == 1
    assert gs.turn.actions["sweden"] == 2


def test_rule_4_4_force_march_rolls_and_losses_are_the_owners_only() -> None:
    """4.4 with 0.0 (fog): the force-march rolls name the blocks and their losses, so they
    are shown to the marching player only; the enemy learns nothing of them."""
    board = chain_board()
    gs = make_state(board, {"karl-xii": ("t0", 4), "dalregementet": ("t0", 3)})
    world = make_world(board, gs, [2, 5])
    move = Move("T0", (MoveGroup(("Karl XII", "Dalregementet"), "T4", force=True),))
    run_action_phase(world, "sweden", [move])
    rolls = [r for r in world.dice.rolls if str(r.purpose).startswith("force march")]
    assert len(rolls) == 2
    assert all(r.visible_to == frozenset({"sweden"}) for r in rolls), rolls
    marches = [e for e in world.events if e.type == "force_march"]
    assert len(marches) == 2
    assert all(e.visible_to == frozenset({"sweden"}) for e in marches), marches


def test_rule_4_4_the_engine_never_force_marches_by_itself() -> None:
    """orders.md §5: "A move whose path is longer than a block's rating must say force"."""
    board = chain_board()
    gs = make_state(board, {"karl-xii": ("t0", 4)})
    world = make_world(board, gs)
    [(_, why)] = carry_out_move(world, "sweden", Move("T0", (MoveGroup(("Karl XII",), "T3"),)))
    assert why is Why.FORCE_NEEDED and gs.blocks["karl-xii"].location == "t0"


def test_rule_4_4_up_to_two_extra_territories_only() -> None:
    """4.4: "Any moving group may force-march up to two extra territories"."""
    board = chain_board()
    gs = make_state(board, {"karl-xii": ("t0", 4)})
    world = make_world(board, gs)
    order = Move("T0", (MoveGroup(("Karl XII",), "T5", force=True),))
    [(_, why)] = carry_out_move(world, "sweden", order)
    assert why is Why.NO_PATH or why is Why.TOO_FAR


def test_rule_4_1_stop_on_entering_enemy_blocks() -> None:
    """4.1 example: "One block moves through friendly territory to Smolensk, and the other
    two blocks move into Ingermanland, where they must stop because there are Swedish
    blocks there." Blocks must stop and fight on entering enemy blocks."""
    board = chain_board(**{"repnin": ("russia", "army", 4, "B2", 2, 1)})
    gs = make_state(board, {"karl-xii": ("t0", 4), "repnin": ("t1", 4)})
    world = make_world(board, gs)
    via = Move("T0", (MoveGroup(("Karl XII",), "T2", via=("T1",)),))
    [(_, why)] = carry_out_move(world, "sweden", via)
    assert why is Why.MUST_STOP_ENEMY
    [(_, why)] = carry_out_move(world, "sweden", Move("T0", (MoveGroup(("Karl XII",), "T1"),)))
    assert why is None and gs.blocks["karl-xii"].location == "t1"


def test_rule_4_1_group_may_split() -> None:
    """4.1: "Blocks in the group are not required to move together to the same territory
    or zone; they may split up and move to different destinations." One action."""
    board = chain_board()
    gs = make_state(board, {"karl-xii": ("t1", 4), "dalregementet": ("t1", 3)})
    world = make_world(board, gs)
    order = Move("T1", (MoveGroup(("Karl XII",), "T0"), MoveGroup(("Dalregementet",), "T3")))
    run_action_phase(world, "sweden", [order])
    assert (gs.blocks["karl-xii"].location, gs.blocks["dalregementet"].location) == ("t0", "t3")
    assert gs.turn.actions["sweden"] == 2


def test_rule_4_1_move_only_once_per_turn() -> None:
    """4.1: "Blocks may move only once per game turn"."""
    board = chain_board()
    gs = make_state(board, {"karl-xii": ("t0", 4)})
    world = make_world(board, gs)
    carry_out_move(world, "sweden", Move("T0", (MoveGroup(("Karl XII",), "T1"),)))
    [(_, why)] = carry_out_move(world, "sweden", Move("T1", (MoveGroup(("Karl XII",), "T2"),)))
    assert why is Why.ALREADY_MOVED


def test_rule_1_0_lake_peipus_blocks_movement() -> None:
    """1.0: "Livland and Ingermanland are separated by Lake Peipus; movement between them
    is prohibited."""
    board = make_board({"livland": ("sweden", 3, 4), "ingermanland": ("sweden", 2, 2)},
                       [("livland", "ingermanland", "lake")],
                       {"karl-xii": ("sweden", "army", 4, "A3", 2, 1)})
    gs = make_state(board, {"karl-xii": ("livland", 4)})
    world = make_world(board, gs)
    order = Move("Livland", (MoveGroup(("Karl XII",), "Ingermanland", via=("Ingermanland",)),))
    [(_, why)] = carry_out_move(world, "sweden", order)
    assert why is Why.NO_BORDER


def test_rule_4_2_difficult_border_two_blocks_and_stop() -> None:
    """4.2: "Difficult Terrain border: 2 blocks. Blocks crossing a Difficult Terrain border
    must stop in the entered territory." Limits are per player per game turn."""
    blocks = {f"r{i}": REG for i in range(3)}
    board = make_board({"a": ("sweden", 3, 2), "b": ("sweden", 3, 2), "c": ("sweden", 3, 2)},
                       [("a", "b", "difficult"), ("b", "c")], blocks)
    gs = make_state(board, {f"r{i}": ("a", 3) for i in range(3)})
    world = make_world(board, gs)
    [(_, why)] = carry_out_move(world, "sweden", Move("A", (MoveGroup(("R0",), "C"),)))
    assert why is Why.NO_PATH  # must stop in B
    [(_, why)] = carry_out_move(world, "sweden", Move("A", (MoveGroup(("R0", "R1"), "B"),)))
    assert why is None
    [(_, why)] = carry_out_move(world, "sweden", Move("A", (MoveGroup(("R2",), "B"),)))
    assert why is Why.NO_PATH or why is Why.BORDER_FULL
    assert gs.blocks["r2"].location == "a"


def test_rule_4_2_normal_border_six_blocks() -> None:
    """4.2: "Normal border: 6 blocks." (per player, per game turn)."""
    blocks = {f"r{i}": REG for i in range(7)}
    board = make_board({"a": ("sweden", 3, 2), "b": ("sweden", 3, 2)}, [("a", "b")], blocks)
    gs = make_state(board, {f"r{i}": ("a", 3) for i in range(7)})
    world = make_world(board, gs)
    names = tuple(f"R{i}" for i in range(7))
    [(_, why)] = carry_out_move(world, "sweden", Move("A", (MoveGroup(names, "B"),)))
    assert why is Why.NO_PATH or why is Why.BORDER_FULL
    [(_, why)] = carry_out_move(world, "sweden", Move("A", (MoveGroup(names[:6], "B"),)))
    assert why is None


def test_rule_4_3_pinning_example() -> None:
    """4.3: "Two Saxon blocks attack five Swedish blocks. As soon as the Saxons move into
    their territory, two Swedish blocks are pinned (owner's choice). The other three
    Swedish blocks may move or attack elsewhere." Unpinned blocks "cannot move across any
    border used by pinning blocks"."""
    blocks = {f"s{i}": REG for i in range(5)}
    blocks |= {"x1": ("saxony", "regiment", 3, "B2", 2, 0),
               "x2": ("saxony", "regiment", 3, "B2", 2, 0)}
    board = make_board({"lausitz": ("saxony", 3, 2), "pommern": ("sweden", 3, 2),
                        "mark": ("sweden", 3, 2)},
                       [("lausitz", "pommern"), ("pommern", "mark")], blocks)
    gs = make_state(board, {**{f"s{i}": ("pommern", 3) for i in range(5)},
                            "x1": ("lausitz", 3), "x2": ("lausitz", 3)})
    world = make_world(board, gs)
    carry_out_move(world, "coalition", Move("Lausitz", (MoveGroup(("X1", "X2"), "Pommern"),)))
    pinned = [b for b in gs.blocks if gs.blocks[b].pinned]
    assert len(pinned) == 2 and all(b.startswith("s") for b in pinned)
    free = sorted(f"S{i}" for i in range(5) if f"s{i}" not in pinned)
    [(_, why)] = carry_out_move(world, "sweden", Move("Pommern", (MoveGroup((free[0],), "Mark"),)))
    assert why is None
    [(_, why)] = carry_out_move(world, "sweden",
                                Move("Pommern", (MoveGroup((free[1],), "Lausitz"),)))
    assert why is Why.PINNERS_BORDER
    pinned_name = pinned[0].upper()
    [(_, why)] = carry_out_move(world, "sweden",
                                Move("Pommern", (MoveGroup((pinned_name,), "Mark"),)))
    assert why is Why.PINNED


def _pin_board():  # type: ignore[no-untyped-def]
    blocks = {f"s{i}": REG for i in range(5)}
    blocks |= {"x1": ("saxony", "regiment", 3, "B2", 2, 0),
               "x2": ("saxony", "regiment", 3, "B2", 2, 0)}
    board = make_board({"lausitz": ("saxony", 3, 2), "pommern": ("sweden", 3, 2)},
                       [("lausitz", "pommern")], blocks)
    gs = make_state(board, {**{f"s{i}": ("pommern", 3 if i else 1) for i in range(5)},
                            "x1": ("lausitz", 3), "x2": ("lausitz", 3)})
    gs.turn.first = "coalition"
    return board, gs


def test_rule_4_3_the_defender_chooses_which_blocks_are_pinned() -> None:
    """4.3: "The enemy player chooses which blocks are pinned": the defender's standing
    ``pin`` order, sent during the mover's action phase, names them."""
    board, gs = _pin_board()
    world = make_world(board, gs)
    move = Move("Lausitz", (MoveGroup(("X1", "X2"), "Pommern"),))
    run_action_phase(world, "coalition", [move], [Pin(("S3", "S4"), "Pommern")])
    assert sorted(b for b in gs.blocks if gs.blocks[b].pinned) == ["s3", "s4"]
    [seen] = [e for e in world.events if e.type == "pinned"]
    assert seen.visible_to == frozenset({"sweden"})


def test_rule_4_3_pin_default_weakest_first_and_short_lists_filled() -> None:
    """docs/baltica.md default: blocks that moved, then the weakest, then by id; a pin
    order naming fewer blocks than pinned is filled up by the default."""
    board, gs = _pin_board()
    world = make_world(board, gs)
    move = Move("Lausitz", (MoveGroup(("X1", "X2"), "Pommern"),))
    run_action_phase(world, "coalition", [move], [Pin(("S4",), "Pommern")])
    assert sorted(b for b in gs.blocks if gs.blocks[b].pinned) == ["s0", "s4"]
    board, gs = _pin_board()
    world = make_world(board, gs)
    run_action_phase(world, "coalition", [move])
    assert sorted(b for b in gs.blocks if gs.blocks[b].pinned) == ["s0", "s1"]


def test_rule_4_1_example_novgorod_smolensk_ingermanland() -> None:
    """4.1: "The Coalition player uses an action to move three Russian blocks in Novgorod.
    One block moves through friendly territory to Smolensk, and the other two blocks move
    into Ingermanland, where they must stop because there are Swedish blocks there." """
    russian = ("russia", "army", 4, "B2", 2, 1)
    board = make_board({"novgorod": ("russia", 3, 2), "pskov": ("russia", 3, 2),
                        "smolensk": ("russia", 3, 2), "ingermanland": ("sweden", 3, 2),
                        "estland": ("sweden", 3, 2)},
                       [("novgorod", "pskov"), ("pskov", "smolensk"),
                        ("novgorod", "ingermanland"), ("ingermanland", "estland")],
                       {"repnin": russian, "sheremetev": russian, "golitsyn": russian,
                        "karl-xii": ("sweden", "army", 4, "A3", 2, 1)})
    gs = make_state(board, {"repnin": ("novgorod", 4), "sheremetev": ("novgorod", 4),
                            "golitsyn": ("novgorod", 4), "karl-xii": ("ingermanland", 4)})
    gs.turn.first = "coalition"
    world = make_world(board, gs)
    move = Move("Novgorod", (MoveGroup(("Repnin",), "Smolensk"),
                             MoveGroup(("Sheremetev", "Golitsyn"), "Estland")))
    run_action_phase(world, "coalition", [move])
    assert gs.blocks["repnin"].location == "smolensk"
    assert gs.blocks["sheremetev"].location == "novgorod"  # could not pass Ingermanland
    assert gs.turn.actions["coalition"] == 2
    move = Move("Novgorod", (MoveGroup(("Sheremetev", "Golitsyn"), "Ingermanland"),))
    run_action_phase(world, "coalition", [move])
    assert {gs.blocks[b].location for b in ("sheremetev", "golitsyn")} == {"ingermanland"}
    assert gs.blocks["karl-xii"].pinned and gs.turn.actions["coalition"] == 1


def test_rule_4_5_inactive_nations_territory_is_prohibited() -> None:
    """4.5: "Territories belonging to inactive nations ... may not be entered"."""
    board = chain_board()
    board = make_board({"a": ("sweden", 3, 2), "b": ("poland", 3, 2), "c": ("denmark", 3, 2)},
                       [("a", "c")], {"karl-xii": ("sweden", "army", 4, "A3", 2, 1)})
    gs = make_state(board, {"karl-xii": ("a", 4)})
    gs.active = ["sweden", "russia"]
    world = make_world(board, gs)
    [(_, why)] = carry_out_move(world, "sweden", Move("A", (MoveGroup(("Karl XII",), "C"),)))
    assert why is Why.NO_PATH


def test_rule_4_5_ukraine_may_be_entered_while_russia_is_active() -> None:
    """4.5: "Ukraine is part of Russia while inactive, and may be entered if Russia is
    active (11.8)." (The shipped board: Ukraiyina in Poland borders Mala Rus in Ukraine.)"""
    module = BalticaModule()
    for russia_at_war in (True, False):
        gs = GameState.from_json(module.setup("12.1", {}))
        gs.step, gs.turn.first, gs.turn.actions = "actions-first", "sweden", {"sweden": 3}
        if not russia_at_war:
            gs.active.remove("russia")
            gs.truces["russia"] = gs.year + 4
        assert "ukraine" not in gs.active
        gs.blocks["karl-xii"].location = "ukraiyina"
        world = World(module.board, gs, Dice.scripted([]))
        order = Move("Ukraiyina", (MoveGroup(("Karl XII",), "Mala Rus"),))
        [(_, why)] = carry_out_move(world, "sweden", order)
        if russia_at_war:
            assert why is None and gs.blocks["karl-xii"].location == "mala-rus"
        else:
            assert why in (Why.NO_PATH, Why.PROHIBITED)
            assert gs.blocks["karl-xii"].location == "ukraiyina"


def test_rule_4_4_force_marching_blocks_miss_the_first_combat_round() -> None:
    """4.4: "Force-marching blocks that join a battle are not available on the first
    combat round of that battle (5.3)." Karl XII marches one territory into T3; the
    Dalregementet force-marches three across the same border: a reserve until round 2."""
    board = chain_board(**{"repnin": ("russia", "army", 4, "B2", 2, 1)})
    gs = make_state(board, {"karl-xii": ("t2", 4), "dalregementet": ("t0", 3),
                            "repnin": ("t3", 4)})
    world = make_world(board, gs)
    carry_out_move(world, "sweden", Move("T2", (MoveGroup(("Karl XII",), "T3"),)))
    carry_out_move(world, "sweden",
                   Move("T0", (MoveGroup(("Dalregementet",), "T3", force=True),)))
    assert gs.blocks["dalregementet"].location == "t3" and gs.blocks["dalregementet"].forced == 1
    b = battle.set_up(world, "t3")
    assert b.reserves == {"dalregementet"}
    assert battle.active(world, b, "sweden", 1) == ["karl-xii"]
    assert sorted(battle.active(world, b, "sweden", 2)) == ["dalregementet", "karl-xii"]
