"""Where the 3CG v1.1 book (ruleset "3cg-1.1") and the GMT 2012 book (the default,
"gmt-2012") differ: one test per row of docs/baltica.md "GMT 2012 and 3CG v1.1, rule
by rule", named after the 3CG rule and quoting both books; each plays the same position
under both rulesets, so it fails if either reading is lost."""

from __future__ import annotations

import pytest
from baltica_boards import make_board, make_state, make_world

from gm.dice import Dice
from gm.games.baltica.board import load_board
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.orders import Move, MoveGroup
from gm.games.baltica.rules import battle
from gm.games.baltica.rules.forage import forage_check, requirement
from gm.games.baltica.rules.movement import carry_out_move
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import GameState

MODULE = BalticaModule()
RULESETS = ("gmt-2012", "3cg-1.1")

BLOCKS = {
    "karl-xii": ("sweden", "army", 4, "A3", 2, 1),
    "dalregementet": ("sweden", "regiment", 3, "B2", 2, 0),
    "sheremetev": ("russia", "army", 4, "C2", 2, 1),
    "kazanski": ("russia", "regiment", 3, "C1", 2, 0),
}
TERR = {"livland": ("sweden", 3, 3), "estland": ("sweden", 2, 3),
        "ingermanland": ("russia", 2, 2)}
BORDERS = [("livland", "estland"), ("estland", "ingermanland")]


def real_world(ruleset: str, scenario: str = "12.1") -> World:
    """The scenario's set-up on the shipped board of ``ruleset``."""
    gs = GameState.from_json(MODULE.setup(scenario, {"ruleset": ruleset}))
    return World(load_board(ruleset), gs, Dice.scripted([]))


def put(w: World, block: str, where: str, strength: int | None = None) -> None:
    bs = w.state.blocks[block]
    bs.location = where
    bs.strength = strength if strength is not None else w.spec(block).max_strength


def no_retreat(block: str, round_: int) -> None:
    return None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rule_3cg_6_2_the_attacker_must_retreat_after_the_third_round(ruleset: str) -> None:
    """3CG 6.2: "The attacker (the player who moved into the territory) must retreat if a
    battle is not concluded by the end of the third round." GMT 5.4: "the side that does
    not control the garrison must retreat (the attacking side if neither controls the
    garrison)". Russians stand in Swedish Estland; the Swedes, who hold its garrison,
    attack from Livland; nobody hits in three rounds."""
    board = make_board(TERR, BORDERS, BLOCKS, ruleset=ruleset)
    gs = make_state(board, {"karl-xii": ("livland", 4), "sheremetev": ("estland", 4)})
    world = make_world(board, gs, [6] * 24)
    carry_out_move(world, "sweden", Move("Livland", (MoveGroup(("Karl XII",), "Estland"),)))
    winner = battle.fight(world, "estland", no_retreat, {})
    if ruleset == "3cg-1.1":  # the attacker goes back the way it came (3CG 6.5)
        assert winner == "coalition"
        assert gs.blocks["karl-xii"].location == "livland"
        assert gs.blocks["sheremetev"].location == "estland"
    else:  # the side without the garrison: the Russians, the defenders, retreat
        assert winner == "sweden"
        assert gs.blocks["karl-xii"].location == "estland"
        assert gs.blocks["sheremetev"].location == "ingermanland"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rule_3cg_7_4_internal_forage_point_supports_the_army_itself(ruleset: str) -> None:
    """3CG 7.4: an army's support train provides "an extra FP (so called INTERNAL forage
    point) that can be used to support themselves or other blocks of the same
    nationality, in the same territory ... It is also a vital FP to those army blocks who
    travels through territories that only provides 0 or 1 FP". GMT 7.2: "only to support
    regiments from the same nationality (not armies and not allies)". Lewenhaupt alone
    in Ingermanland (1 FP)."""
    w = real_world(ruleset)
    put(w, "lewenhaupt", "ingermanland")
    for b in w.blocks_of("coalition", "ingermanland"):
        put(w, b, "moskva")
    assert w.board.territories["ingermanland"].forage == 1
    forage_check(w, "sweden", "ingermanland")
    assert w.state.blocks["lewenhaupt"].strength == (4 if ruleset == "3cg-1.1" else 3)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rule_3cg_7_1_the_mazowsze_and_trakai_examples(ruleset: str) -> None:
    """3CG 7.1 examples: "In Mazowsze "Lewenhaupt and Södermanland" ... Together they cost
    3 FP (1 army + 1 reg). "Lewenhaupt" provides 1 extern SP so the total cost lands on 2
    FP. Mazowsze supports 2 FP so both blocks can live of the land." "In Trakai "Vellinck,
    Savolax and Elfsborg" ... cost 4 FP (1 army + 2 reg). "Vellinck" provides 1 extern FP
    so the total cost lands on 3 FP. Trakai only supports 2 FP so the strongest block, in
    this case "Vellinck", loses 1 step due to attrition." The GMT reading (7.2) gives the
    same results here: the trains feed a regiment."""
    w = real_world(ruleset)
    for b, t in (("lewenhaupt", "mazowsze"), ("sodermanland", "mazowsze"),
                 ("vellinck", "trakai"), ("savolax", "trakai"), ("elfsborg", "trakai")):
        put(w, b, t)
    assert requirement(w, ["lewenhaupt", "sodermanland"]) == 2
    assert requirement(w, ["vellinck", "savolax", "elfsborg"]) == 3
    forage_check(w, "sweden", "mazowsze")
    forage_check(w, "sweden", "trakai")
    assert [w.state.blocks[b].strength for b in ("lewenhaupt", "sodermanland", "vellinck",
                                                  "savolax", "elfsborg")] == [4, 3, 3, 2, 3]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rule_3cg_7_4_a_train_feeds_no_ally(ruleset: str) -> None:
    """3CG 7.4 "other blocks of the same nationality"; GMT 7.2 "(not armies and not
    allies)": a Swedish army's train never feeds a Polish regiment, in either book."""
    board = make_board({"waste": (None, 0, None)}, [],
                       {"karl-xii": ("sweden", "army", 4, "A3", 2, 1),
                        "sobieski": ("poland", "regiment", 3, "B1", 2, 0)}, ruleset=ruleset)
    world = make_world(board, make_state(board, {}))
    assert requirement(world, ["karl-xii", "sobieski"]) == (2 if ruleset == "3cg-1.1" else 3)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rule_3cg_6_6_regroup_only_into_friendly_territory(ruleset: str) -> None:
    """3CG 6.6: "Maximum movement distance is 1 territory away to any friendly territories
    free of enemy blocks." GMT 5.7: "to any adjacent friendly or transit territories that
    are free of enemy blocks." Karl XII wins in Estland and regroups into a transit land."""
    board = make_board({**TERR, "waste": (None, 0, None)}, [*BORDERS, ("estland", "waste")],
                       BLOCKS, ruleset=ruleset)
    gs = make_state(board, {"karl-xii": ("livland", 4), "kazanski": ("estland", 1)})
    world = make_world(board, gs, [1, 6, 6, 6])
    carry_out_move(world, "sweden", Move("Livland", (MoveGroup(("Karl XII",), "Estland"),)))
    regroups = {"karl-xii": "waste"}
    assert battle.fight(world, "estland", no_retreat, regroups) == "sweden"
    if ruleset == "3cg-1.1":
        assert gs.blocks["karl-xii"].location == "estland"
        assert [e.data["code"] for e in world.events if e.type == "order_failed"] == [
            "REGROUP_FRIENDLY"]
    else:
        assert gs.blocks["karl-xii"].location == "waste"
    assert regroups == {}  # carried out or refused, and told
