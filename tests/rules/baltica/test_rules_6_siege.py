"""Pax Baltica 6.x sieges (GMT 2012 rule book)."""

from __future__ import annotations

from baltica_boards import make_board, make_state, make_world

from gm.games.baltica.orders import Move, MoveGroup, Siege
from gm.games.baltica.rules.action_phase import run_action_phase
from gm.games.baltica.rules.movement import carry_out_move
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


def test_rule_6_3_garrisons_fire_as_defending_c1_blocks() -> None:
    """6.3: "Garrisons fight back against siege attempts, and are treated as defending C1
    blocks for combat purposes. Roll as many dice as the strength of the garrison." The
    garrison of Ingermanland (2) rolls two dice after Karl XII (A3); only its 1 hits."""
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("ingermanland", 4)})
    world = make_world(board, gs, [6, 6, 6, 6, 1, 2])
    from gm.games.baltica.state import SiegeState
    gs.turn.sieges = [SiegeState("ingermanland", "sweden", ["karl-xii"])]
    resolve_sieges(world)
    fired = [(e.data["block"], e.data["rating"], e.data["dice"], e.data["hits"])
             for e in world.events if e.type == "fire"]
    assert fired == [("Karl XII", "A3", [6, 6, 6, 6], 0),
                     ("garrison Ingermanland", "C1", [1, 2], 1)]
    assert gs.blocks["karl-xii"].strength == 3 and "ingermanland" not in gs.control


def test_rule_6_1_blocks_already_there_spend_an_action_to_join() -> None:
    """6.1: "Moving blocks may declare a siege attempt immediately upon ending their move
    in an enemy territory with no enemy blocks. This does not require an additional
    action. If any friendly blocks were already in the territory, they must spend an
    action to join the siege attempt." Karl XII joins the Dalregementet in Nyen (1)."""
    board = make_board({"livland": ("sweden", 3, 4), "nyen": ("russia", 1, 1)},
                       [("livland", "nyen")], BLOCKS)
    gs = make_state(board, {"karl-xii": ("livland", 4), "dalregementet": ("nyen", 3)})
    world = make_world(board, gs)
    run_action_phase(world, "sweden", [Move("Livland", (MoveGroup(("Karl XII",), "Nyen"),)),
                                       Siege("Nyen", ("Karl XII", "Dalregementet"))])
    [declared] = [e.data for e in world.events if e.type == "siege_declared"]
    assert declared["free"] is False and len(declared["blocks"]) == 2
    assert gs.turn.actions["sweden"] == 1


def test_rule_6_2_blocks_from_different_nations_cannot_cooperate_in_a_siege() -> None:
    """6.2: "Blocks from different nations cannot cooperate in a siege against the same
    garrison in the same turn." Pyotr I and August II stand in Swedish Livland."""
    blocks = {**BLOCKS, "august-ii": ("saxony", "army", 4, "B2", 2, 1)}
    board = make_board(TERR, BORDERS, blocks)
    gs = make_state(board, {"pyotr-i": ("livland", 4), "august-ii": ("livland", 4)})
    gs.turn.first = "coalition"
    world = make_world(board, gs)
    run_action_phase(world, "coalition", [Siege("Livland", ("Pyotr I", "August II"))])
    assert gs.turn.sieges == []
    [failed] = [e.data for e in world.events if e.type == "order_failed"]
    assert failed["code"] == "MIXED_NATIONS"


def test_rule_6_4_retaking_an_own_garrison_only_removes_the_enemy_marker() -> None:
    """6.4: "A successful siege against an enemy garrison in a friendly nation's territory
    only removes the enemy garrison marker (Exception: you always place a garrison marker
    when you successfully siege a territory in Poland.)" Sweden retakes Livland from the
    Russians: no marker, its own garrison again, the 4 RP levels back (8.1). The Saxons
    retake a Polish garrison from Sweden: their marker goes on it, so it is no transit
    territory any more (1.5)."""
    from gm.games.baltica.rules.siege import capture
    from gm.games.baltica.state import SiegeState
    blocks = {**BLOCKS, "august-ii": ("saxony", "army", 4, "B2", 2, 1)}
    board = make_board({**TERR, "mazowsze": ("poland", 2, 2)}, BORDERS, blocks)
    gs = make_state(board, {"karl-xii": ("livland", 4), "august-ii": ("mazowsze", 4)})
    gs.control = {"livland": "russia", "mazowsze": "sweden"}
    gs.rp = {"sweden": 36, "saxony": 12}
    world = make_world(board, gs)
    capture(world, SiegeState("livland", "sweden", ["karl-xii"]))
    assert "livland" not in gs.control and world.controller("livland") == "sweden"
    assert gs.rp["sweden"] == 40
    capture(world, SiegeState("mazowsze", "coalition", ["august-ii"]))
    assert gs.control["mazowsze"] == "saxony" and not world.transit("mazowsze")


def test_rule_6_5_a_besieging_side_that_loses_retreats_and_the_siege_is_not_resolved() -> None:
    """6.5: "If a territory with besieging blocks is attacked, any besieging blocks pinned
    (4.3) by the attacker must lift the siege and fight in the battle instead ... If the
    besieging side loses, the besieging blocks must immediately retreat and the siege is
    not resolved." Pyotr I pins Karl XII (1), who lifts the siege and falls; Rehnskiöld,
    still besieging, retreats to Livland."""
    from gm.games.baltica.engine import battle_phase
    from gm.games.baltica.state import SiegeState
    blocks = {**BLOCKS, "rehnskiold": ("sweden", "army", 4, "B2", 2, 1)}
    board = make_board(TERR, BORDERS, blocks)
    gs = make_state(board, {"karl-xii": ("ingermanland", 1), "rehnskiold": ("ingermanland", 4),
                            "pyotr-i": ("pskov", 4)})
    gs.turn.sieges = [SiegeState("ingermanland", "sweden", ["karl-xii", "rehnskiold"])]
    world = make_world(board, gs, [6, 1, 6, 6, 6])
    carry_out_move(world, "coalition", Move("Pskov", (MoveGroup(("Pyotr I",), "Ingermanland"),)))
    assert gs.blocks["karl-xii"].pinned and not gs.blocks["rehnskiold"].pinned
    battle_phase(world, {})
    assert gs.blocks["karl-xii"].location != "ingermanland"
    assert gs.blocks["rehnskiold"].location == "livland"
    assert not [e for e in world.events if e.type == "siege_result"]
    assert "ingermanland" not in gs.control and gs.turn.sieges == []
