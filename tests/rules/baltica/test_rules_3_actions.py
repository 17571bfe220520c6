"""Pax Baltica 3.x actions (GMT 2012 rule book)."""

from __future__ import annotations

from baltica_boards import make_board, make_state, make_world

from gm.games.baltica.orders import Move, MoveGroup, Recon, Replace, Siege
from gm.games.baltica.rules.action_phase import run_action_phase
from gm.games.baltica.rules.actions import action_roll, recon, replace
from gm.games.baltica.rules.results import Why

BLOCKS = {"karl-xii": ("sweden", "army", 4, "A3", 2, 1),
          "august-ii": ("saxony", "army", 4, "B2", 2, 1),
          "flemming": ("saxony", "regiment", 3, "B2", 2, 0)}
TERR = {"skane": ("sweden", 3, 3), "lausitz": ("saxony", 3, 3), "far": ("saxony", 3, 3)}
BORDERS = [("skane", "lausitz"), ("lausitz", "far")]


def setup(dice: list[int], **kw):  # type: ignore[no-untyped-def]
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("skane", 4), "august-ii": ("lausitz", 2),
                            "flemming": ("lausitz", 3)}, step="action-roll", **kw)
    return board, gs, make_world(board, gs, dice)


def test_rule_3_1_action_roll_example() -> None:
    """3.1: "The Swedish player rolls a 3, and the Coalition player rolls a 6. The Coalition
    player rolls on the Event Table and resolves the event. Then the Swedish player takes
    two actions."""
    _, gs, world = setup([3, 6])
    gs.first_turn = False
    assert action_roll(world) is False
    assert gs.turn.first == "coalition"
    assert gs.turn.actions == {"sweden": 2, "coalition": 0}
    assert gs.turn.events_due == ["coalition"]


def test_rule_3_1_the_action_table() -> None:
    """3.1: "Each player simultaneously rolls one die and consults the Action Table to
    determine the number of actions they can perform this game turn." The table (printed
    on the GMT map; 3CG 3.1): "6: Roll on the Event table ... 4-5: 3 actions 2-3: 2
    actions 1: 1 action." """
    for (sweden, coalition), actions in (((1, 2), (1, 2)), ((3, 4), (2, 3)), ((5, 1), (3, 1))):
        _, gs, world = setup([sweden, coalition], first_turn=False)
        action_roll(world)
        assert gs.turn.actions == {"sweden": actions[0], "coalition": actions[1]}


def test_rule_3_1_ties_go_to_last_second_player() -> None:
    """3.1: "Ties go to the player who was Second Player last turn. If a tie is rolled on
    the first turn of the game, both players roll again."""
    _, gs, world = setup([4, 4, 2, 5])
    assert gs.first_turn
    action_roll(world)
    assert gs.turn.first == "coalition" and gs.turn.rolls == {"sweden": 2, "coalition": 5}
    _, gs, world = setup([4, 4], last_second="coalition", first_turn=False)
    action_roll(world)
    assert gs.turn.first == "coalition"


def test_rule_3_1_both_events_go_straight_to_forage() -> None:
    """3.1: "If both players' results are events (a roll of 6) then each player's event is
    resolved as usual, and the turn immediately proceeds to the Forage Phase."""
    _, gs, world = setup([6, 6], first_turn=False)
    assert action_roll(world) is True


def test_rule_3_2_no_two_events_in_a_row() -> None:
    """3.2: "If a player rolls a 6 for a second consecutive game turn, re-roll until
    receiving a result that is not 6."""
    _, gs, world = setup([6, 6, 4, 1], first_turn=False, last_event={"sweden": True})
    action_roll(world)
    assert gs.turn.rolls == {"sweden": 4, "coalition": 1}


def test_rule_3_2_an_event_is_remembered_into_the_next_turn() -> None:
    """3.2: "A player can never roll an event two turns in a row (even if separated by a
    yearly Interphase). If a player rolls a 6 for a second consecutive game turn, re-roll
    until receiving a result that is not 6." Sweden rolls a 6 this turn; next turn its 6
    is re-rolled (a 4), the Coalition's first 6 stands."""
    _, gs, world = setup([6, 3, 6, 4, 6], first_turn=False)
    action_roll(world)
    assert gs.turn.rolls == {"sweden": 6, "coalition": 3}
    gs.turn.events_due = []  # Sweden resolved its event; the next game turn
    action_roll(world)
    assert gs.turn.rolls == {"sweden": 4, "coalition": 6}
    assert gs.turn.events_due == ["coalition"]


def test_rule_3_3_recon_reveals_to_that_player_only() -> None:
    """3.3.1: "Reconnaissance may only be performed in a territory adjacent to a friendly
    army or regiment block. The opponent must reveal all blocks within that territory."""
    _, gs, world = setup([])
    assert recon(world, "sweden", Recon("Lausitz")) is None
    [ev] = [e for e in world.events if e.type == "recon"]
    assert ev.visible_to == frozenset({"sweden"})
    assert {b["block"] for b in ev.data["blocks"]} == {"August II", "Flemming"}
    assert recon(world, "sweden", Recon("Far")) is Why.NOT_ADJACENT


def test_rule_8_4_replacement_by_action_example() -> None:
    """8.4: "August II, down to 1 strength, has withdrawn to Lausitz ... the Coalition
    player spends two actions to add two steps to August II."""
    _, gs, world = setup([])
    gs.blocks["august-ii"].strength = 1
    assert replace(world, "coalition", Replace("August II")) is None
    assert replace(world, "coalition", Replace("August II")) is None
    assert gs.blocks["august-ii"].strength == 3
    assert replace(world, "coalition", Replace("Flemming")) is Why.FULL_STRENGTH


def test_rule_3_3_actions_are_performed_in_the_rulebook_order() -> None:
    """3.3: "Actions must be performed in the order given, i.e., Reconnaissance before
    Movement before Siege Declarations." Orders written siege, move, recon: the recon is
    made while Karl XII still stands beside Lausitz, then the move, then the siege of the
    territory he moved into (free, 6.1)."""
    board = make_board({"skane": ("sweden", 3, 3), "lausitz": ("saxony", 3, 3),
                        "sachsen": ("saxony", 3, 1)},
                       [("skane", "lausitz"), ("skane", "sachsen")], BLOCKS)
    gs = make_state(board, {"karl-xii": ("skane", 4), "august-ii": ("lausitz", 4)})
    world = make_world(board, gs)
    run_action_phase(world, "sweden", [Siege("Sachsen", ("Karl XII",)),
                                       Move("Skane", (MoveGroup(("Karl XII",), "Sachsen"),)),
                                       Recon("Lausitz")])
    assert [e.type for e in world.events if e.type in ("recon", "moved", "siege_declared")] == [
        "recon", "moved", "siege_declared"]
    assert not [e for e in world.events if e.type == "order_failed"]
    assert [s.territory for s in gs.turn.sieges] == ["sachsen"]
    assert gs.turn.actions["sweden"] == 1  # recon and move; the siege is free
