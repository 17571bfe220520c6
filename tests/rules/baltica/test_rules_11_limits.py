"""Pax Baltica section 11 movement limits (GMT 2012 11.3, 11.5, 11.6, 11.7, 11.10), on the
shipped map: refused when the order arrives and again when it is carried out."""

from __future__ import annotations

from gm.dice import Dice
from gm.games.baltica.board import load_board
from gm.games.baltica.conditions import unwrap
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.orders import Move, MoveGroup, Siege
from gm.games.baltica.rules import actions, movement, retreat
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import GameState
from gm.games.base import Verdict
from gm.i18n import msg
from gm.orders.model import SourceLine

MODULE = BalticaModule()
BOARD = load_board()


def game(first: str, places: dict[str, str], active: tuple[str, ...] = ()) -> GameState:
    """The 12.1 set-up in ``first``'s action phase with some blocks moved."""
    gs = GameState.from_json(MODULE.setup("12.1", {}))
    gs.step, gs.turn.first = "actions-first", first
    gs.turn.actions = {first: 4}
    gs.active = sorted(set(gs.active) | set(active))
    for block, where in places.items():
        gs.blocks[block].location, gs.blocks[block].strength = where, 2
    return gs


def move(world: World, power: str, origin: str, blocks: tuple[str, ...], to: str) -> Why | None:
    names = tuple(world.name(b) for b in blocks)
    order = Move(world.tname(origin), (MoveGroup(names, world.tname(to)),))
    return movement.carry_out_move(world, power, order)[0][1]


def verdicts(gs: GameState, power: str, text: str) -> list[tuple[Verdict, str | None]]:
    state = gs.to_json()
    lines = [SourceLine(i + 1, line) for i, line in enumerate(text.splitlines())]
    parsed = [unwrap(o.order)[0] for o in MODULE.parse_orders(state, power, lines).orders]
    return [(v.verdict, v.reason) for v in MODULE.validate(state, power, parsed)]


def refused(why: Why) -> tuple[Verdict, str]:
    return (Verdict.REFUSED, msg(why.value))


def test_rule_11_3_saxon_limited_interests() -> None:
    """11.3: "Saxon blocks may never enter Russia, Ukraine, or Hannover." Lietuva borders
    Velikaya (Russia): refused by mail and when carried out; Poland is open."""
    gs = game("coalition", {"saxony-4": "lietuva"})
    assert verdicts(gs, "coalition", "move from Lietuva: Saxon army 4 to Velikaya") == [
        refused(Why.SAXON_INTERESTS)]
    w = World(BOARD, gs, Dice.scripted([]))
    assert move(w, "coalition", "lietuva", ("saxony-4",), "velikaya") is Why.SAXON_INTERESTS
    assert gs.blocks["saxony-4"].location == "lietuva"
    assert move(w, "coalition", "lietuva", ("saxony-4",), "trakai") is None


def test_rule_11_5_polish_blocks_share_the_saxon_limits() -> None:
    """11.5: Polish blocks "are subject to the same movement restrictions (they may never
    enter Russia, Ukraine, or Hannover)", nor retreat there."""
    gs = game("coalition", {"oginski": "mscislaw"})
    w = World(BOARD, gs, Dice.scripted([]))
    assert move(w, "coalition", "mscislaw", ("oginski",), "smolensk") is Why.SAXON_INTERESTS
    assert retreat.retreat_path(w, "oginski", "mscislaw", "sweden", "smolensk",
                                retreat.BorderCount()) is None
    assert verdicts(gs, "coalition", "move from Mscislaw: Oginski to Smolensk") == [
        refused(Why.SAXON_INTERESTS)]


def test_rule_11_6_ottoman_limited_interests() -> None:
    """11.6: "Ottoman blocks may only enter territories in Ukraine, Poland, or the Ottoman
    Empire." From Mscislaw, Smolensk (Russia) is closed and Lietuva (Poland) open; a
    path through Russia is refused at its first step."""
    gs = game("sweden", {"ottoman-1": "mscislaw"}, active=("ottoman",))
    assert verdicts(gs, "sweden", "move from Mscislaw: Ottoman army 1 to Smolensk") == [
        refused(Why.OTTOMAN_INTERESTS)]
    w = World(BOARD, gs, Dice.scripted([]))
    assert move(w, "sweden", "mscislaw", ("ottoman-1",), "smolensk") is Why.OTTOMAN_INTERESTS
    assert move(w, "sweden", "mscislaw", ("ottoman-1",), "lietuva") is None


def test_rule_11_7_prussian_limited_interests() -> None:
    """11.7: "The Prussian block may only enter territories in Germany or Poland. The only
    territory where the Prussian block may attack or declare a siege is Pomorze." """
    gs = game("coalition", {"prussia": "plock", "karl-xii": "malopolska",
                            "dalregementet": "pomorze"}, active=("prussia",))
    assert verdicts(gs, "coalition", "move from Plock: Prussia to Malopolska") == [
        refused(Why.PRUSSIAN_ATTACK)]
    assert verdicts(gs, "coalition", "move from Plock: Prussia to Pomorze")[0][0] is (
        Verdict.ACCEPTED)
    w = World(BOARD, gs, Dice.scripted([]))
    assert move(w, "coalition", "plock", ("prussia",), "malopolska") is Why.PRUSSIAN_ATTACK
    assert move(w, "coalition", "plock", ("prussia",), "pomorze") is None  # attacks there
    gs.blocks["prussia"].location, gs.blocks["prussia"].moved = "kurland", False
    assert move(w, "coalition", "kurland", ("prussia",), "livland") is Why.PRUSSIAN_INTERESTS
    gs.blocks["prussia"].location, gs.blocks["prussia"].moved = "plock", False
    w.state.control["plock"] = "sweden"
    assert actions.siege_problem(w, "coalition", "plock", ["prussia"]) is Why.PRUSSIAN_ATTACK
    siege = Siege("Plock", ("Prussia",))
    assert MODULE.validate(gs.to_json(), "coalition", [siege])[0].reason == msg(
        Why.PRUSSIAN_ATTACK.value)


def test_rule_11_10_holstein_gottorp_never_attacks_alone() -> None:
    """11.10: "The Holstein-Gottorp block may never attack alone, but only in conjunction
    with Swedish blocks." Alone into Saxons in Mecklenburg: refused; with a Swedish block
    in the group, or after Swedish blocks moved in (even earlier in the same mail): fine."""
    gs = game("sweden", {"friedrich-iv": "holstein-gottorp", "saxony-4": "mecklenburg",
                         "dalregementet": "holstein-gottorp", "ostgota": "pommern"})
    alone = "move from Holstein-Gottorp: Friedrich IV to Mecklenburg"
    assert verdicts(gs, "sweden", alone) == [refused(Why.ATTACKS_ALONE)]
    both = "move from Holstein-Gottorp: Friedrich IV, Dalregementet to Mecklenburg"
    assert verdicts(gs, "sweden", both)[0][0] is Verdict.ACCEPTED
    first = "move from Pommern: Östgöta to Mecklenburg\n" + alone
    assert [v for v, _ in verdicts(gs, "sweden", first)] == [Verdict.ACCEPTED] * 2
    w = World(BOARD, gs, Dice.scripted([]))
    assert move(w, "sweden", "holstein-gottorp", ("friedrich-iv",), "mecklenburg") is (
        Why.ATTACKS_ALONE)
    assert move(w, "sweden", "pommern", ("ostgota",), "mecklenburg") is None
    assert move(w, "sweden", "holstein-gottorp", ("friedrich-iv",), "mecklenburg") is None
