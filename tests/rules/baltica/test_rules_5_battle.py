"""Pax Baltica 5.x battles, rule by rule (GMT 2012 rule book)."""

from __future__ import annotations

from baltica_boards import make_board, make_state, make_world

from gm.games.baltica.orders import Move, MoveGroup
from gm.games.baltica.rules import battle
from gm.games.baltica.rules.losses import strongest
from gm.games.baltica.rules.movement import carry_out_move

BLOCKS = {
    "karl-xii": ("sweden", "army", 4, "A3", 2, 1),
    "dalregementet": ("sweden", "regiment", 3, "B2", 2, 0),
    "pommerska": ("sweden", "regiment", 2, "B1", 2, 0),
    "reventlov": ("denmark", "army", 4, "B2", 2, 1),
    "prins-christian": ("denmark", "regiment", 3, "B1", 2, 0),
    "pyotr-i": ("russia", "army", 4, "B3", 2, 1),
}
TERR = {"skane": ("sweden", 3, 3), "jylland": ("denmark", 3, 3), "fyn": ("denmark", 2, 2),
        "halland": ("sweden", 2, 2)}
BORDERS = [("skane", "jylland"), ("jylland", "fyn"), ("skane", "halland"), ("halland", "jylland")]


def no_retreat(block: str, round_: int) -> None:
    return None


def test_rule_5_4_combat_sequence_example() -> None:
    """5.4: "Swedish army Karl XII (A3) and Swedish regiment Pommerska (B1) attack the Danish
    army Reventlov (B2) and Danish regiment Prins Christian (B1). The combat sequence is:
    1. Karl XII (A3) 2. Reventlov (B2) and Prins Christian (B1) 3. Pommerska (B1)"."""
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("skane", 4), "pommerska": ("skane", 2),
                            "reventlov": ("jylland", 4), "prins-christian": ("jylland", 3)})
    world = make_world(board, gs)
    carry_out_move(world, "sweden",
                   Move("Skane", (MoveGroup(("Karl XII", "Pommerska"), "Jylland"),)))
    b = battle.set_up(world, "jylland")
    assert (b.defender, b.attacker) == ("coalition", "sweden")
    assert battle.turn_order(world, b, 1) == ["karl-xii", "prins-christian", "reventlov",
                                              "pommerska"]


def test_rule_5_5_fire_resolution_example() -> None:
    """5.5: "The full-strength Russian block Pyotr I rolls 4 dice. It has a B3 combat
    rating ... If the dice rolled were 1, 2, 4, & 5, the Russian player would score two
    hits and two misses." Each hit goes to the strongest enemy block."""
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("skane", 4), "dalregementet": ("skane", 3),
                            "pyotr-i": ("skane", 4)})
    world = make_world(board, gs, [1, 2, 4, 5])
    b = battle.set_up(world, "skane")
    battle.fire(world, b, "pyotr-i", 1)
    fire = next(e for e in world.events if e.type == "fire")
    assert fire.data["hits"] == 2 and fire.data["dice"] == [1, 2, 4, 5]
    assert gs.blocks["karl-xii"].strength == 3  # the first hit: the strongest
    assert gs.blocks["dalregementet"].strength == 2  # tie: default, the regiment


def test_rule_5_5_hits_to_the_strongest_owner_breaks_ties() -> None:
    """5.5: "Karl XII and Dalregementet are at full strength (4 and 3, respectively) and take
    two hits. The first hit must be taken by Karl XII ... The second hit can be applied to
    either block, Swedish player's choice"."""
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("skane", 4), "dalregementet": ("skane", 3)})
    world = make_world(board, gs)
    assert strongest(world, ["karl-xii", "dalregementet"]) == "karl-xii"
    gs.blocks["karl-xii"].strength = 3
    world.prefer = {"sweden": ["karl-xii"]}
    assert strongest(world, ["karl-xii", "dalregementet"]) == "karl-xii"
    world.prefer = {"sweden": ["dalregementet"]}
    assert strongest(world, ["karl-xii", "dalregementet"]) == "dalregementet"


def test_rule_5_3_reserves_example() -> None:
    """5.3: "A player has four blocks in Ingermanland and two in Livland. Both groups attack
    Estland ... The attacker declares the Ingermanland border as the main attack and the
    first combat round involves only those blocks. The two blocks from Livland join the
    battle at the beginning of the second combat round."""
    reg = ("russia", "regiment", 3, "B2", 2, 0)
    blocks = {f"r{i}": reg for i in range(6)} | {"vellinck": ("sweden", "army", 4, "B2", 2, 1)}
    board = make_board({"ingermanland": ("russia", 2, 2), "livland": ("russia", 3, 3),
                        "estland": ("sweden", 2, 3)},
                       [("ingermanland", "estland"), ("livland", "estland")], blocks)
    gs = make_state(board, {**{f"r{i}": ("ingermanland", 3) for i in range(4)},
                            "r4": ("livland", 3), "r5": ("livland", 3),
                            "vellinck": ("estland", 4)})
    world = make_world(board, gs)
    carry_out_move(world, "coalition", Move("Livland", (MoveGroup(("R4", "R5"), "Estland"),)))
    carry_out_move(world, "coalition",
                   Move("Ingermanland", (MoveGroup(("R0", "R1", "R2", "R3"), "Estland"),)))
    gs.turn.main_attacks["estland"] = "ingermanland"
    b = battle.set_up(world, "estland")
    assert b.reserves == {"r4", "r5"}
    assert set(battle.active(world, b, "coalition", 1)) == {"r0", "r1", "r2", "r3"}
    assert set(battle.active(world, b, "coalition", 2)) == {f"r{i}" for i in range(6)}


def test_rule_5_4_after_three_rounds_side_without_garrison_retreats() -> None:
    """5.4: "If the battle is not concluded by the end of the third round, the side that
    does not control the garrison must retreat"."""
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("skane", 4), "reventlov": ("jylland", 4)})
    world = make_world(board, gs, [6] * 24)
    carry_out_move(world, "sweden", Move("Skane", (MoveGroup(("Karl XII",), "Jylland"),)))
    winner = battle.fight(world, "jylland", no_retreat, {})
    assert winner == "coalition"
    assert gs.blocks["karl-xii"].location == "skane"  # back the way it attacked (5.6)
    assert [e.data["round"] for e in world.events if e.type == "round_end"] == [1, 2, 3]


def test_rule_5_6_retreat_instead_of_firing_via_attack_border_only() -> None:
    """5.6: "Each block may retreat in its combat turn instead of firing ... The attacker
    can only retreat from the battle territory via borders used to attack"."""
    board = make_board({**TERR, "bohus": ("sweden", 2, 2)},
                       [*BORDERS, ("bohus", "jylland")], BLOCKS)
    gs = make_state(board, {"karl-xii": ("skane", 4), "reventlov": ("jylland", 4)})
    world = make_world(board, gs, [6] * 8)
    carry_out_move(world, "sweden", Move("Skane", (MoveGroup(("Karl XII",), "Jylland"),)))

    def wish(block: str, round_: int) -> str | None:
        if block != "karl-xii":
            return None
        return "bohus" if round_ == 1 else "skane"

    battle.fight(world, "jylland", wish, {})
    fired = [e.data["block"] for e in world.events if e.type == "fire"]
    assert fired[0] == "Karl XII"  # Bohus is not a border it attacked across: it fires
    moves = [(e.data["block"], e.data["to"]) for e in world.events if e.type == "retreated"]
    assert ("Karl XII", "Skane") in moves


def test_rule_5_7_winner_regroups() -> None:
    """5.7: "the winning side may regroup ... to any adjacent friendly or transit
    territories that are free of enemy blocks."""
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("skane", 4), "prins-christian": ("jylland", 1)})
    world = make_world(board, gs, [1, 1, 1, 1])
    carry_out_move(world, "sweden", Move("Skane", (MoveGroup(("Karl XII",), "Jylland"),)))
    winner = battle.fight(world, "jylland", no_retreat, {"karl-xii": "halland"})
    assert winner == "sweden"
    assert gs.blocks["prins-christian"].location == "pool"
    assert gs.blocks["karl-xii"].location == "halland"


def test_rule_5_6_the_defender_may_not_retreat_across_the_attackers_border() -> None:
    """5.6: "The defender may not retreat through borders that were used by the attacker
    to enter the battle territory." Karl XII attacks Jylland from Slesvig (Danish, left
    empty behind him): Reventlov may not retreat there, so it fires; Fyn is open to it."""
    board = make_board({"slesvig": ("denmark", 3, 2), "jylland": ("denmark", 3, 3),
                        "fyn": ("denmark", 2, 2)},
                       [("slesvig", "jylland"), ("jylland", "fyn")], BLOCKS)
    gs = make_state(board, {"karl-xii": ("slesvig", 4), "reventlov": ("jylland", 4)})
    world = make_world(board, gs, [6] * 12)
    carry_out_move(world, "sweden", Move("Slesvig", (MoveGroup(("Karl XII",), "Jylland"),)))

    def wish(block: str, round_: int) -> str | None:
        if block != "reventlov":
            return None
        return "slesvig" if round_ == 1 else "fyn"

    battle.fight(world, "jylland", wish, {})
    fired = [(e.data["block"], e.data["round"]) for e in world.events if e.type == "fire"]
    assert ("Reventlov", 1) in fired
    [refused] = [e.data for e in world.events if e.type == "retreat_refused"]
    assert refused["block"] == "Reventlov" and refused["to"] == "Slesvig"
    assert gs.blocks["reventlov"].location == "fyn"


def test_rule_5_6_never_into_a_territory_with_enemy_blocks() -> None:
    """5.6: "Blocks retreat by moving up to their full movement allowance into or through
    friendly or transit territories free of enemy blocks." A Danish regiment has entered
    Skane behind Karl XII: his retreat there is refused and he fires instead."""
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("skane", 4), "reventlov": ("jylland", 4)})
    world = make_world(board, gs, [6] * 24)
    carry_out_move(world, "sweden", Move("Skane", (MoveGroup(("Karl XII",), "Jylland"),)))
    gs.blocks["prins-christian"].location, gs.blocks["prins-christian"].strength = "skane", 3

    def wish(block: str, round_: int) -> str | None:
        return "skane" if block == "karl-xii" and round_ == 1 else None

    battle.fight(world, "jylland", wish, {})
    assert [e.data["round"] for e in world.events
            if e.type == "fire" and e.data["block"] == "Karl XII"][:1] == [1]
    [refused] = [e.data for e in world.events if e.type == "retreat_refused"]
    assert refused["block"] == "Karl XII" and refused["to"] == "Skane"
    assert gs.blocks["karl-xii"].location != "skane"


def test_rule_5_5_a_roll_equal_to_the_rating_is_a_hit() -> None:
    """5.5: "A hit is scored for each roll equal to or lower than the block's combat
    rating." Pyotr I (B3) rolls 3, 3, 4, 6: two hits, the 3s."""
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("skane", 4), "pyotr-i": ("skane", 4)})
    world = make_world(board, gs, [3, 3, 4, 6])
    b = battle.set_up(world, "skane")
    battle.fire(world, b, "pyotr-i", 1)
    [fire] = [e.data for e in world.events if e.type == "fire"]
    assert fire["hits"] == 2 and gs.blocks["karl-xii"].strength == 2


def test_rule_5_3_defending_blocks_entering_a_battle_territory_are_reserves() -> None:
    """5.3: "Similarly, Blocks belonging to the defending player that enter a battle
    territory (i.e., one that already has both sides' blocks) are considered reserves as
    well." Karl XII attacks Reventlov in Jylland; Prins Christian comes in from Fyn."""
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("skane", 4), "reventlov": ("jylland", 4),
                            "prins-christian": ("fyn", 3)})
    world = make_world(board, gs)
    carry_out_move(world, "sweden", Move("Skane", (MoveGroup(("Karl XII",), "Jylland"),)))
    carry_out_move(world, "coalition",
                   Move("Fyn", (MoveGroup(("Prins Christian",), "Jylland"),)))
    b = battle.set_up(world, "jylland")
    assert (b.defender, b.reserves) == ("coalition", {"prins-christian"})
    assert battle.active(world, b, "coalition", 1) == ["reventlov"]
    assert sorted(battle.active(world, b, "coalition", 2)) == ["prins-christian", "reventlov"]


def test_rule_5_7_border_restrictions_apply_for_regroup_moves() -> None:
    """5.7: "Regrouping blocks may move to any adjacent friendly or transit territories
    that are free of enemy blocks. Border restrictions apply for regroup moves." Three
    victors regroup across a Difficult Terrain border (4.2: 2 blocks): the third stays,
    and its owner is told why."""
    board = make_board(TERR, [("skane", "jylland"), ("jylland", "halland", "difficult")],
                       BLOCKS)
    gs = make_state(board, {"karl-xii": ("skane", 4), "dalregementet": ("skane", 3),
                            "pommerska": ("skane", 2), "prins-christian": ("jylland", 1)})
    world = make_world(board, gs, [1, 6, 6, 6])
    carry_out_move(world, "sweden", Move("Skane", (MoveGroup(("Karl XII", "Dalregementet",
                                                               "Pommerska"), "Jylland"),)))
    regroups = {b: "halland" for b in ("karl-xii", "dalregementet", "pommerska")}
    assert battle.fight(world, "jylland", no_retreat, regroups) == "sweden"
    assert [gs.blocks[b].location for b in ("dalregementet", "karl-xii", "pommerska")] == [
        "halland", "halland", "jylland"]
    [told] = [e.data for e in world.events if e.type == "order_failed"]
    assert told["code"] == "BORDER_FULL" and "Pommerska" in told["order"]


def test_rule_5_1_the_first_player_determines_the_order_of_battles() -> None:
    """5.1: "The First Player determines the order battles will be fought before any
    blocks are revealed." Battles in Fyn and Jylland: Sweden, the First Player, orders
    Jylland first; the Coalition's order is not asked (docs/baltica.md: battles left out
    follow in territory order)."""
    from gm.games.baltica.engine import battle_order
    from gm.games.baltica.orders import BattleOrder

    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("jylland", 4), "reventlov": ("jylland", 4),
                            "dalregementet": ("fyn", 3), "prins-christian": ("fyn", 3)})
    world = make_world(board, gs)
    orders = {"sweden": [BattleOrder(("Jylland",))], "coalition": [BattleOrder(("Fyn",))]}
    assert gs.turn.first == "sweden"
    assert battle_order(world, orders) == ["jylland", "fyn"]
    gs.turn.first = "coalition"
    assert battle_order(world, orders) == ["fyn", "jylland"]
    assert battle_order(world, {}) == ["fyn", "jylland"]
