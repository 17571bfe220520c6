"""3CG v1.1 optional rules 13.2 (the allied player's re-roll) and 13.3 (five re-rolls per
player), driven by the standing order ``reroll actions below N``."""

from __future__ import annotations

from typing import Any

import pytest

from gm.dice import Dice
from gm.games.baltica.board import load_board
from gm.games.baltica.engine import adjudicate
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.orders import Reroll
from gm.games.baltica.parsing import reparse
from gm.games.baltica.rules.actions import action_roll, rerolls_left
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import GameState, Turn
from gm.games.base import Verdict

MODULE = BalticaModule()
BOARD = load_board("3cg-1.1")
ALLIES = ("russia", "saxony", "denmark")


def world(dice: list[int], optional: str, below: dict[str, int],
          **changes: Any) -> World:
    """A 12.1 game past its first turn (no 3.1 tie re-roll), the standing orders set."""
    gs = GameState.from_json(MODULE.setup("12.1", {"ruleset": "3cg-1.1", "optional": optional}))
    gs.first_turn = False
    gs.reroll_below = dict(below)
    for k, v in changes.items():
        setattr(gs, k, v)
    for n in ALLIES:  # 13.2's condition, whatever the scenario's start
        if n not in gs.active:
            gs.active.append(n)
    return World(BOARD, gs, Dice.scripted(dice))


def rerolls(w: World) -> list[dict[str, Any]]:
    return [e.data for e in w.events if e.type == "action_reroll"]


def test_rule_3cg_13_3_rerolls_a_die_below_n() -> None:
    """13.3: "Both players receive 5 re-rolls each to freely use as they see fit during the
    game": Sweden's 1 is below 4 and is re-rolled; the Coalition's 4 is not below 4."""
    w = world([1, 5, 4], "13.3", {"sweden": 4, "coalition": 4})
    action_roll(w)
    assert w.state.turn.rolls == {"sweden": 5, "coalition": 4}
    assert w.state.turn.actions == {"sweden": 3, "coalition": 3}
    assert rerolls(w) == [{"power": "sweden", "roll": 1, "new": 5, "rule": "13.3", "left": 4}]
    assert w.state.rerolls_used == {"sweden": 1}
    assert [r.purpose for r in w.dice.rolls] == [
        "action roll sweden", "action roll sweden (13.3 re-roll)", "action roll coalition"]
    w = world([1, 2], "13.3", {})  # no standing order: no re-roll
    action_roll(w)
    assert w.state.turn.rolls == {"sweden": 1, "coalition": 2} and not rerolls(w)


def test_rule_3cg_13_3_the_die_is_rerolled_once_only() -> None:
    """13.3: "a die-roll may only be re-rolled once": a re-rolled 1 that comes up 2, still
    below 4, stands."""
    w = world([1, 2, 5], "13.3", {"sweden": 4})
    action_roll(w)
    assert w.state.turn.rolls["sweden"] == 2 and len(rerolls(w)) == 1
    assert w.state.rerolls_used == {"sweden": 1}


def test_rule_3cg_13_3_five_rerolls_per_game() -> None:
    """13.3: five re-rolls each for the whole game (``limits.rerolls_per_game``): the
    sixth low die stands."""
    assert BOARD.tables["limits"]["rerolls_per_game"] == 5
    w = world([1, 3, 5], "13.3", {"sweden": 4}, rerolls_used={"sweden": 4})
    action_roll(w)
    assert rerolls(w)[0]["left"] == 0 and w.state.turn.rolls["sweden"] == 3
    w = world([1, 5], "13.3", {"sweden": 4}, rerolls_used={"sweden": 5})
    action_roll(w)
    assert w.state.turn.rolls["sweden"] == 1 and not rerolls(w)
    assert rerolls_left(w, "sweden") == 0 and rerolls_left(w, "coalition") == 5
    told = [e for e in w.events if e.type == "order_failed"]  # issue 18: Sweden reads why
    assert [(e.visible_to, e.data["order"], e.data["code"]) for e in told] == [
        (frozenset({"sweden"}), "reroll actions below 4", "NO_REROLL_LEFT")]


def test_rule_3cg_13_2_allied_reroll_with_russia_saxony_denmark_active() -> None:
    """13.2: "If Russia, Saxony and Denmark all are activated, the allied player has one
    re-roll per turn" (free: the 13.3 count is untouched). Sweden has none."""
    w = world([2, 2, 5], "13.2", {"sweden": 4, "coalition": 4})
    action_roll(w)
    assert w.state.turn.rolls == {"sweden": 2, "coalition": 5}
    assert rerolls(w) == [{"power": "coalition", "roll": 2, "new": 5, "rule": "13.2",
                           "left": None}]
    assert w.state.turn.allied_rerolls == 1 and w.state.rerolls_used == {}
    w = world([5, 2], "13.2", {"coalition": 4})
    w.state.active.remove("denmark")  # Denmark not at war (e.g. under truce): no re-roll
    action_roll(w)
    assert w.state.turn.rolls["coalition"] == 2 and not rerolls(w)


def test_rule_3cg_13_2_never_a_6() -> None:
    """13.2: "A 6 may never be re-rolled": even a standing order below 6 keeps a 6."""
    w = world([5, 6], "13.2,13.3", {"coalition": 6})
    action_roll(w)
    assert w.state.turn.rolls["coalition"] == 6 and not rerolls(w)
    assert w.state.turn.events_due == ["coalition"]


def test_rule_3cg_13_2_once_per_turn_then_13_3() -> None:
    """13.2: "one re-roll per turn": a second low die in the same turn (3.1's first-turn
    tie roll again) uses a 13.3 re-roll when the game has both rules; the next turn's 13.2
    re-roll is fresh."""
    w = world([4, 1, 4, 5, 2, 6], "13.2,13.3", {"coalition": 5}, first_turn=True)
    action_roll(w)  # 4 / 1 -> 13.2 -> 4: a first-turn tie, both again: 5 / 2 -> 13.3 -> 6
    assert [(r["roll"], r["new"], r["rule"]) for r in rerolls(w)] == [
        (1, 4, "13.2"), (2, 6, "13.3")]
    assert w.state.turn.rolls == {"sweden": 5, "coalition": 6}
    assert w.state.rerolls_used == {"coalition": 1}
    w.state.turn = Turn()
    w.dice = Dice.scripted([5, 1, 3])
    action_roll(w)
    assert w.state.turn.rolls["coalition"] == 3 and rerolls(w)[-1]["rule"] == "13.2"


def test_rule_3cg_13_1_then_the_players_reroll() -> None:
    """13.1 first (a second consecutive 6 is re-rolled until it is an action number), then
    the player's re-roll of the die that stands; a 6 the re-roll brings is re-rolled by
    13.1 again (the rules' re-roll, not the player's)."""
    w = world([6, 2, 6, 3, 4], "13.1,13.3", {"sweden": 4}, last_event={"sweden": True})
    action_roll(w)
    assert w.state.turn.rolls["sweden"] == 3 and w.state.rerolls_used == {"sweden": 1}
    assert [e.type for e in w.events if "reroll" in e.type] == [
        "event_reroll", "event_reroll", "action_reroll"]


def validate(optional: str, power: str, text: str) -> tuple[Verdict, str]:
    state = MODULE.setup("12.1", {"ruleset": "3cg-1.1", "optional": optional})
    state["step"] = "battles"
    [v] = MODULE.validate(state, power, [reparse(text)])
    return v.verdict, v.reason


@pytest.mark.parametrize(("optional", "power", "text", "why"), [
    ("", "sweden", "reroll actions below 4", Why.NO_REROLLS),
    ("13.1", "coalition", "reroll off", Why.NO_REROLLS),
    ("13.2", "sweden", "reroll actions below 4", Why.NO_REROLLS),  # 13.2 is the allied player's
    ("13.3", "sweden", "reroll actions below 7", Why.REROLL_BELOW),
    ("13.3", "sweden", "relancer actions sous 1", Why.REROLL_BELOW),
])
def test_reroll_order_refused_without_the_option_or_out_of_range(
        optional: str, power: str, text: str, why: Why) -> None:
    verdict, reason = validate(optional, power, text)
    assert verdict is Verdict.REFUSED and reason == why.value


def test_reroll_order_accepted_in_any_phase_and_stands_until_off() -> None:
    """The order is standing: given in the battles phase it is stored when that phase is
    adjudicated, told to its giver only, and ``reroll off`` (French ``relancer jamais``)
    cancels it."""
    assert validate("13.2", "coalition", "relancer actions sous 3")[0] is Verdict.ACCEPTED
    assert validate("13.3", "sweden", "reroll off")[0] is Verdict.ACCEPTED
    state = MODULE.setup("12.1", {"ruleset": "3cg-1.1", "optional": "13.3"})
    state["step"] = "battles"
    out = adjudicate(BOARD, state, {"sweden": [Reroll(4)], "coalition": [Reroll(9)]},
                     Dice.scripted([]))
    assert out.state["reroll_below"] == {"sweden": 4}
    told = [e for e in out.events if e.type == "reroll_order"]
    assert [(e.data["power"], e.data["below"], e.visible_to) for e in told] == [
        ("sweden", 4, frozenset({"sweden"}))]
    failed = [e for e in out.events if e.type == "order_failed"]
    assert failed[0].data["why"] == Why.REROLL_BELOW.value
    out = adjudicate(BOARD, out.state, {"sweden": [reparse("relancer jamais")]},
                     Dice.scripted([]))
    assert out.state["reroll_below"] == {}
