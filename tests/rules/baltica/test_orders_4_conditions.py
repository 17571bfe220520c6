"""What a Pax Baltica conditional order's condition reads (orders.md §4, the examples of
/work/shared/spec/orders.md; gm/games/baltica/conditions.py): each quantity and predicate
of the condition language against the board at the moment the order is carried out, as
the ordering power may know it."""

from __future__ import annotations

from baltica_boards import make_board, make_state, make_world

from gm.games.baltica.conditions import MovesInto
from gm.games.baltica.orders import Move, MoveGroup, Siege
from gm.games.baltica.rules.action_phase import run_action_phase
from gm.orders.conditions import Comparison, Conditional, Form, Op, Quantity

REG = ("russia", "regiment", 3, "B2", 2, 0)
BLOCKS = {"vellinck": ("sweden", "army", 4, "B2", 2, 1),
          "estlandska": ("sweden", "regiment", 2, "B1", 2, 0),
          **{f"r{i}": REG for i in range(4)}}
TERR = {"estland": ("sweden", 2, 3), "ingermanland": ("sweden", 2, 2),
        "livland": ("sweden", 3, 4), "pskov": ("russia", 3, 2)}
BORDERS = [("estland", "ingermanland"), ("estland", "livland"), ("ingermanland", "pskov"),
           ("livland", "pskov")]


def test_orders_4_example_move_unless_enemy_blocks_in_ingermanland_over_3() -> None:
    """orders.md §4: "move from Estland: Vellinck to Ingermanland unless enemy blocks in
    Ingermanland > 3". Four Russian blocks there: Vellinck stays; three: he goes. The
    power's own blocks in the territory are not enemy blocks."""
    order = Conditional(Move("Estland", (MoveGroup(("Vellinck",), "Ingermanland"),)),
                        Comparison(Quantity("enemy_blocks", ("Ingermanland",)), Op.GT, 3),
                        Form.UNLESS)
    for russians, moves in ((4, False), (3, True)):
        board = make_board(TERR, BORDERS, BLOCKS)
        gs = make_state(board, {"vellinck": ("estland", 4), "estlandska": ("ingermanland", 2),
                                **{f"r{i}": ("ingermanland", 3) for i in range(russians)}})
        world = make_world(board, gs, [6] * 8)
        run_action_phase(world, "sweden", [order])
        assert (gs.blocks["vellinck"].location == "ingermanland") is moves


def test_orders_4_a_condition_never_reads_a_hidden_enemy_block() -> None:
    """orders.md §4: "Conditions see only what the ordering power may know: its own view of
    the board, never hidden information (a condition on the strength of a hidden enemy
    block is rejected when the mail arrives)." Behind that check the engine reads a hidden
    enemy block's strength as 0, and a block revealed to the power (3.3.1
    reconnaissance) at the strength it was shown."""
    from gm.games.baltica.conditions import BalticaFacts

    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"vellinck": ("estland", 3), "r0": ("ingermanland", 2)})
    world = make_world(board, gs)
    sweden, russia = BalticaFacts(world, "sweden"), BalticaFacts(world, "coalition")
    strength = Quantity("strength", ("R0",))
    assert (russia.quantity(strength), sweden.quantity(strength)) == (2, 0)
    assert russia.quantity(Quantity("strength", ("Vellinck",))) == 0
    world.reveal("sweden", "r0")
    gs.blocks["r0"].strength = 3  # a step added after the reconnaissance
    assert sweden.quantity(strength) == 2


def test_orders_4_example_if_russia_moves_into_livland_then_siege_estland() -> None:
    """orders.md §4: "if russia moves into Livland then siege Estland". The Russians hold
    Estland's garrison; Vellinck stands there. Sweden plays second: when a Russian block
    moved into Livland this turn the siege is declared (by action, 6.1); when it went
    elsewhere, or a Swedish block moved into Livland, the order is skipped."""
    order = Conditional(Siege("Estland", ("Vellinck",)), MovesInto("russia", "Livland"),
                        Form.THEN)
    for mover, to, declared in (("coalition", "Livland", True),
                                ("coalition", "Ingermanland", False),
                                ("sweden", "Livland", False)):
        board = make_board(TERR, BORDERS, BLOCKS)
        gs = make_state(board, {"vellinck": ("estland", 4), "r0": ("pskov", 3),
                                "estlandska": ("ingermanland", 2)})
        gs.control["estland"] = "russia"
        world = make_world(board, gs)
        if mover == "coalition":
            run_action_phase(world, "coalition", [Move("Pskov", (MoveGroup(("R0",), to),))])
        else:
            run_action_phase(world, "sweden", [Move("Ingermanland",
                                                    (MoveGroup(("Estländska",), to),))])
        run_action_phase(world, "sweden", [order])
        assert bool(gs.turn.sieges) is declared, (mover, to)
