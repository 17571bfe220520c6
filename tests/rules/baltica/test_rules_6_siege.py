"""Pax Baltica 6.x sieges (GMT 2012 rule book)."""

from __future__ import annotations

from baltica_boards import make_board, make_state, make_world

from gm.games.baltica.orders import Move, MoveGroup, Siege
from gm.games.baltica.rules.action_phase import run_action_phase
from gm.games.baltica.rules.siege import resolve_sieges

BLOCKS = {"karl-xii": ("sweden", "army", 4, "A3", 2, 1),
          "dalregementet": ("sweden", "regiment", 3, "B2", 2, 0),
          "pyotr-i": ("russia", "army", 4, "B3", 2, 1)}
TERR = {"livland": ("sweden", 3, 4), "ingermanland": ("russia", 2, 2),
        "pskov": ("russia", 3, 3), "moskva": ("russia", 4, 4)}
BORDERS = [("livland", "ingermanland"), ("ingermanland", "pskov"), ("pskov", "moskva")]


def test_rule_6_1_free_siege_after_move() -> None:
    """6.1: "Moving blocks may declare a siege attempt immediately upon ending their move in
    an enemy territory with no enemy blocks. This does not require an additional action."""
    board = make_board(TERR, BORDERS, BLOCKS, capitals=("moskva",))
    gs = make_state(board, {"karl-xii": ("livland", 4)})
    gs.rp = {"russia": 12}
    world = make_world(board, gs)
    gs.turn.actions["sweden"] = 1
    run_action_phase(world, "sweden", [Move("Livland", (MoveGroup(("Karl XII",), "Ingermanland"),)),
                                       Siege("Ingermanland", ("Karl XII",))])
    assert len(gs.turn.sieges) == 1 and gs.turn.actions["sweden"] == 0
    declared = next(e for e in world.events if e.type == "siege_declared")
    assert declared.data["free"] is True and declared.visible_to is None


def test_rule_6_3_hits_at_least_garrison_value_capture() -> None:
    """6.3: "To capture the garrison, the attacker must score hits equal to or greater than
    the strength of the garrison in a single round ... Garrisons ... are treated as
    defending C1 blocks." 8.1: the owner's RP level drops by 4."""
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("ingermanland", 4)})
    gs.rp = {"russia": 12}
    # Karl XII (A3) fires first: 1, 2, 5, 6 = 2 hits; the garrison (C1, value 2): 1, 4.
    world = make_world(board, gs, [1, 2, 5, 6, 1, 4])
    from gm.games.baltica.state import SiegeState
    gs.turn.sieges = [SiegeState("ingermanland", "sweden", ["karl-xii"])]
    resolve_sieges(world)
    assert gs.control["ingermanland"] == "sweden"
    assert gs.rp["russia"] == 8
    assert gs.blocks["karl-xii"].strength == 3


def test_rule_6_3_all_or_nothing() -> None:
    """6.3: "otherwise, the siege is unsuccessful—all or nothing."""
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("ingermanland", 4)})
    world = make_world(board, gs, [1, 5, 5, 6, 6, 6])
    from gm.games.baltica.state import SiegeState
    gs.turn.sieges = [SiegeState("ingermanland", "sweden", ["karl-xii"])]
    resolve_sieges(world)
    assert "ingermanland" not in gs.control


def test_rule_6_2_regiments_cannot_siege_garrison_of_2_or_more() -> None:
    """6.2: "Regiment blocks cannot participate in a siege against a garrison of strength 2
    or greater"."""
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("ingermanland", 4),
                            "dalregementet": ("ingermanland", 3)})
    world = make_world(board, gs)
    run_action_phase(world, "sweden", [Siege("Ingermanland", ("Karl XII", "Dalregementet"))])
    assert gs.turn.sieges[0].blocks == ["karl-xii"]


def test_rule_6_4_capital_capture_calls_truce() -> None:
    """6.4: "A successful siege against a capital (1.3) results in a truce (10.2)." The truce
    itself is part II: an event says it is due."""
    board = make_board(TERR, BORDERS, BLOCKS, capitals=("moskva",))
    gs = make_state(board, {"karl-xii": ("moskva", 4)})
    world = make_world(board, gs, [1, 1, 1, 1, 6, 6, 6, 6])
    from gm.games.baltica.state import SiegeState
    gs.turn.sieges = [SiegeState("moskva", "sweden", ["karl-xii"])]
    resolve_sieges(world)
    assert any(e.type == "truce_due" and e.data["nation"] == "russia" for e in world.events)
