"""Issue 18: every standing or conditional battle order that is not carried out gets a
line in its owner's report saying why (rules/standing.py): a retreat that was impossible
and became firing (5.6: "If a block cannot retreat, it must stay and fight"), a regroup
after a siege (6.4: "An attacker may not regroup after a successful siege"), a
condition not met, a regroup of the loser (5.7: "the winning side may regroup"); each
line rendered in English and French."""

from __future__ import annotations

from typing import Any

from baltica_boards import make_board, make_state, make_world

from gm.dice import Dice
from gm.games.baltica.engine import battle_phase
from gm.games.baltica.orders import Move, MoveGroup, Regroup, Retreat
from gm.games.baltica.rules.movement import carry_out_move
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import SiegeState
from gm.games.base import Event
from gm.orders.conditions import Comparison, Conditional, Form, Op, Quantity
from gm.service.render import environment

BLOCKS = {
    "karl-xii": ("sweden", "army", 4, "A3", 2, 1),
    "dalregementet": ("sweden", "regiment", 3, "B2", 2, 0),
    "reventlov": ("denmark", "army", 4, "B2", 2, 1),
}
TERR = {"skane": ("sweden", 3, 3), "jylland": ("denmark", 3, 3), "fyn": ("denmark", 2, 2),
        "halland": ("sweden", 2, 2)}
BORDERS = [("skane", "jylland"), ("jylland", "fyn"), ("halland", "jylland")]


def round_at_least(n: int) -> Comparison:
    return Comparison(Quantity("round"), Op.GE, n)


def attack(dice: list[int]) -> World:
    """Karl XII attacks Reventlov in Jylland from Skåne."""
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("skane", 4), "reventlov": ("jylland", 4),
                            "dalregementet": ("halland", 3)}, step="battles")
    world = make_world(board, gs, dice)
    carry_out_move(world, "sweden", Move("Skane", (MoveGroup(("Karl XII",), "Jylland"),)))
    return world


def told(world: World, power: str) -> list[dict[str, Any]]:
    """What ``power`` is told was not carried out (without the order as a message to
    translate, ``order_msg``: the English words are compared here)."""
    return [{k: v for k, v in e.data.items() if k != "order_msg"} for e in world.events
            if e.type in ("order_failed", "retreat_refused") and e.visible_to == frozenset({power})]


def line(lang: str, event: Event) -> str:
    """The report's sentence for one event (templates/baltica/_events.txt.j2, in ``lang``)."""
    module = environment(lang).get_template("baltica/_events.txt.j2").module
    return str(module.line({"type": event.type, "data": event.data}))  # type: ignore[attr-defined]


def test_rule_5_6_an_impossible_standing_retreat_becomes_fire_and_is_told() -> None:
    """5.6: "The attacker can only retreat from the battle territory via borders used to
    attack into the territory ... If a block cannot retreat, it must stay and fight."
    Karl XII attacked from Skåne; his standing retreat to Halland is refused, he fires,
    and his owner reads why, once."""
    world = attack([6] * 30)
    battle_phase(world, {"sweden": [Retreat("Karl XII", "Halland")]})
    refused = [e for e in world.events if e.type == "retreat_refused"]
    assert len(refused) == 1 and refused[0].visible_to == frozenset({"sweden"})
    assert refused[0].data["code"] == Why.BORDER_NOT_ALLOWED.name
    assert refused[0].data["forced"] is False
    assert sum(1 for e in world.events if e.type == "fire" and e.data["block"] == "Karl XII") == 3


def test_rule_5_4_a_forced_retreat_whose_order_never_applied_is_told() -> None:
    """5.4: after three rounds the side without the garrison "must retreat": Karl XII goes
    back to Skåne (the nearest legal territory); his ``retreat ... if round >= 9`` never
    applied, and Sweden reads "condition not met"."""
    world = attack([6] * 30)
    cond = Conditional(Retreat("Karl XII", "Halland"), round_at_least(9), Form.IF)
    battle_phase(world, {"sweden": [cond]})
    assert world.state.blocks["karl-xii"].location == "skane"
    assert told(world, "sweden") == [
        {"order": cond.echo(), "why": Why.CONDITION_FALSE.value, "code": "CONDITION_FALSE"}]


def test_rule_5_6_a_condition_never_met_is_told() -> None:
    """orders.md §4 conditional orders: ``retreat Reventlov to Fyn if round >= 9`` is never
    carried out; the Coalition reads "condition not met"."""
    world = attack([6] * 30)
    cond = Conditional(Retreat("Reventlov", "Fyn"), round_at_least(9), Form.IF)
    battle_phase(world, {"coalition": [cond]})
    assert told(world, "coalition") == [
        {"order": cond.echo(), "why": Why.CONDITION_FALSE.value, "code": "CONDITION_FALSE"}]


def test_rule_5_7_a_regroup_of_the_loser_or_of_a_block_in_no_battle_is_told() -> None:
    """5.7: "the winning side may regroup at the instant of victory": Reventlov's side
    loses (Karl hits four times), so its regroup is not carried out; Dalregementet was in
    no battle."""
    world = attack([1, 1, 1, 1] + [6] * 30)
    battle_phase(world, {"coalition": [Regroup(("Reventlov",), "Fyn")],
                         "sweden": [Regroup(("Dalregementet",), "Skane")]})
    assert [d["code"] for d in told(world, "coalition")] == ["ELIMINATED_FIRST"]
    assert [d["code"] for d in told(world, "sweden")] == ["NOT_IN_BATTLE"]


def test_rule_6_4_no_regroup_after_a_siege_is_told() -> None:
    """6.4: "An attacker may not regroup after a successful siege": a regroup order for a
    besieging block is not carried out and its owner reads why."""
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("jylland", 4)}, step="battles")
    gs.turn.sieges = [SiegeState("jylland", "sweden", ["karl-xii"])]
    world = make_world(board, gs, [1, 1, 1, 1] + [6] * 3)
    battle_phase(world, {"sweden": [Regroup(("Karl XII",), "Skane")]})
    assert [d["code"] for d in told(world, "sweden")] == ["NO_REGROUP_AFTER_SIEGE"]
    assert gs.blocks["karl-xii"].location == "jylland"


def test_the_lines_read_in_english_and_french() -> None:
    """The owner's lines of a retreat that became fire and of a regroup of a block that
    was eliminated first, in both languages."""
    world = attack([6] * 4 + [1, 1, 1, 1] + [6] * 30)  # Reventlov's hits kill Karl in round 2
    battle_phase(world, {"sweden": [Retreat("Karl XII", "Halland"),
                                    Regroup(("Karl XII",), "Skane")]})
    mine = [e for e in world.events if e.visible_to == frozenset({"sweden"})
            and e.type in ("retreat_refused", "order_failed")]
    assert [line("en", e) for e in mine] == [
        "Not carried out: retreat Karl XII to Halland (round 1 in Jylland): that border may "
        "not be used to retreat (5.6); Karl XII fires instead (5.6).",
        "Not carried out: regroup Karl XII to Skane: the block was eliminated first."]
    assert [line("fr", e) for e in mine] == [
        "Non exécuté : retraite Karl XII vers Halland (round 1 en Jylland) : cette frontière "
        "ne peut servir à la retraite (5.6) ; Karl XII tire à la place (5.6).",
        "Non exécuté : regrouper Karl XII vers Skane : le bloc a été éliminé avant."]


def test_rule_4_3_pins_not_carried_out_are_told_to_the_defender() -> None:
    """4.3: "When blocks move into a territory with enemy blocks, they pin an equal number
    of enemy blocks ... The enemy player chooses which blocks are pinned." Sweden moves
    one block into Jylland; Denmark's standing order listed two to pin there, and one in
    Fyn, where nobody came."""
    from gm.games.baltica.orders import BattleOrder, MainAttack, Pin
    from gm.games.baltica.rules.action_phase import run_action_phase

    blocks = {**BLOCKS, "prins-christian": ("denmark", "regiment", 3, "B1", 2, 0),
              "fynske": ("denmark", "regiment", 3, "B1", 2, 0)}
    board = make_board(TERR, BORDERS, blocks)
    gs = make_state(board, {"karl-xii": ("skane", 4), "reventlov": ("jylland", 4),
                            "prins-christian": ("jylland", 3), "fynske": ("fyn", 3)})
    world = make_world(board, gs)
    run_action_phase(world, "sweden",
                     [Move("Skane", (MoveGroup(("Karl XII",), "Jylland"),)),
                      MainAttack("Jylland", "Halland")],
                     [Pin(("Reventlov", "Prins Christian"), "Jylland"), Pin(("Fynske",), "Fyn")])
    assert gs.blocks["reventlov"].pinned and not gs.blocks["prins-christian"].pinned
    assert [(d["order"], d["code"]) for d in told(world, "coalition")] == [
        ("pin Reventlov, Prins Christian in Jylland", "FEWER_ATTACKERS"),
        ("pin Fynske in Fyn", "NO_ATTACK_THERE")]
    assert [d["code"] for d in told(world, "sweden")] == ["NOT_ATTACK_BORDER"]
    gs.step = "battles"
    world.dice = Dice.scripted([6] * 40)
    battle_phase(world, {"sweden": [BattleOrder(("Fyn", "Jylland"))],
                         "coalition": [BattleOrder(("Jylland",))]})
    assert [(d["order"], d["code"]) for d in told(world, "sweden")][1:] == [
        ("battle order Fyn", "NO_BATTLE_THERE")]
    assert [d["code"] for d in told(world, "coalition")][2:] == ["FIRST_PLAYER_ORDERS"]


def test_rule_8_interphase_orders_not_carried_out_are_told() -> None:
    """Issue 18 in the Interphase: a conditional ``replace`` whose condition does not hold
    ("condition not met"), a ``solidarity`` choice when 11.6's choice is not in question,
    a second ``reform`` (11.2: "the Coalition player may choose an army to reform", one a
    year)."""
    from gm.games.baltica.module import BalticaModule
    from gm.games.baltica.orders import Reform, Replace, Solidarity
    from gm.games.baltica.state import GameState

    module = BalticaModule()
    gs = GameState.from_json(module.setup("12.1", {}))
    gs.year, gs.season, gs.step = 1701, "spring", "interphase"
    gs.blocks["karl-xii"].strength = 2
    gs.reform_open = True
    cond = Conditional(Replace("Karl XII"), Comparison(Quantity("strength", ("Karl XII",)),
                                                       Op.LE, 1), Form.IF)
    out = module.adjudicate(gs.to_json(), {
        "sweden": [cond, Solidarity(None)],
        "coalition": [Reform("Repnin"), Reform("Sheremetev")]}, Dice.scripted([], then_seed=True))
    failed = {(tuple(sorted(e.visible_to or ())), e.data["order"], e.data["code"])
              for e in out.events if e.type == "order_failed"}
    assert (("sweden",), cond.echo(), "CONDITION_FALSE") in failed
    assert (("sweden",), "solidarity truce", "NO_SOLIDARITY_CHOICE") in failed
    assert (("coalition",), "reform Sheremetev", "ONE_REFORM") in failed
