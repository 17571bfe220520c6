"""3CG v1.1 (ruleset "3cg-1.1"): the Nyen track (11.2), the entry dates (9.6, 9.7, 9.9,
10.2, 10.5) and the optional rule 13.1."""

from __future__ import annotations

import pytest

from gm.dice import Dice
from gm.games.baltica.board import load_board
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.rules import activation
from gm.games.baltica.rules.actions import action_roll
from gm.games.baltica.rules.entry_3cg import entry_dates
from gm.games.baltica.rules.reforms import nyen_track
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POOL, REMOVED, GameState
from gm.games.base import GameError

MODULE = BalticaModule()
BOARD = load_board("3cg-1.1")


def world(dice: list[int], optional: str = "", **changes: object) -> World:
    gs = GameState.from_json(MODULE.setup("12.1", {"ruleset": "3cg-1.1", "optional": optional}))
    for k, v in changes.items():
        setattr(gs, k, v)
    return World(BOARD, gs, Dice.scripted(dice))


def test_rule_3cg_11_2_nyen_held_8_turns_becomes_st_petersburg() -> None:
    """11.2: "Nyen have to stay Russian for 8 consecutive turns to transform in to St
    Petersburg, otherwise they have to re-start ... the Russians ... may start building a
    Navy. Even if lost due to a siege, Nyen/ St.Petersburg stay a Harbour 4." """
    w = world([])
    assert not w.harbor("nyen")
    w.state.control["nyen"] = "russia"
    for _ in range(7):
        nyen_track(w)
    assert w.state.nyen_turns == 7 and "nyen" not in w.state.upgraded
    del w.state.control["nyen"]  # Sweden retakes it: the track starts over
    nyen_track(w)
    assert w.state.nyen_turns == 0
    w.state.control["nyen"] = "russia"
    for _ in range(8):
        nyen_track(w)
    assert "nyen" in w.state.upgraded and w.harbor("nyen")
    assert all(w.state.blocks[b].location == POOL for b in ("stubinski", "botsis"))
    del w.state.control["nyen"]  # lost again: still a harbour 4
    nyen_track(w)
    assert w.harbor("nyen") and w.garrison_value("nyen") == 4


def test_rule_3cg_11_2_sweden_never_upgrades_nyen() -> None:
    """11.2: "Sweden may never use the Nyen track to upgrade Nyen into a Harbour 4." """
    w = world([])
    for _ in range(10):
        nyen_track(w)
    assert w.state.nyen_turns == 0 and "nyen" not in w.state.upgraded
    assert w.state.blocks["stubinski"].location == REMOVED


def test_rule_3cg_9_6_turks_need_a_5_from_1711() -> None:
    """9.6: "From 1701 ... The Turks starts on a roll of 6. From 1711 the Turks are
    activated on a 5 and 6." """
    w = world([5], year=1710)
    assert not activation.activation_roll(w, "ottoman")
    w = world([5], year=1711)
    assert activation.activation_roll(w, "ottoman")


def test_rule_3cg_10_5_turks_removed_1716_roll_again_1718() -> None:
    """10.5: "Remove all Turks from spring turn 1716. From spring turn 1718, roll for
    activation as per (9.6). Turkey counts as a prohibited territory (4.8) during this
    period." """
    w = world([], year=1716)
    w.state.active.append("ottoman")
    turk = next(b for b, s in BOARD.blocks.items() if s.nation == "ottoman")
    turkey = BOARD.nation_territories("ottoman")[0]
    w.state.blocks[turk].location, w.state.blocks[turk].strength = turkey, 3
    entry_dates(w)
    assert "ottoman" not in w.state.active and w.state.blocks[turk].location == POOL
    assert not activation.may_roll(w, "ottoman", "sweden")
    assert w.prohibited(turkey)
    w.state.year = 1718
    assert activation.may_roll(w, "ottoman", "sweden")


def test_rule_3cg_9_7_prussia_rolls_from_1711_and_joins_in_1715() -> None:
    """9.7: "From 1711 the allied player may start rolling for a Prussian entry ... From
    1715 the Prussians starts automatically." """
    assert not activation.may_roll(world([], year=1710), "prussia", "coalition")
    assert activation.may_roll(world([], year=1711), "prussia", "coalition")
    w = world([], year=1715)
    entry_dates(w)
    assert "prussia" in w.state.active


def test_rule_3cg_9_9_hanover_out_in_1711_then_an_allied_roll_and_1715() -> None:
    """9.9: "From spring turn 1711 Hanover is out of the game, but the allied player may
    start rolling for the Hanoverians. They join the allies on a roll of 6. From 1715 the
    Hanoverians automatically joins the Allies." """
    w = world([], year=1711)
    w.state.active.append("hannover")
    w.state.blocks["hannover"].location, w.state.blocks["hannover"].strength = "hannover", 2
    entry_dates(w)
    assert "hannover" not in w.state.active and w.state.blocks["hannover"].location == POOL
    assert w.power_of_nation("hannover") == "coalition"
    assert activation.may_roll(w, "hannover", "coalition")
    w.state.year = 1715
    entry_dates(w)
    assert "hannover" in w.state.active and w.power_of_nation("hannover") == "coalition"


def test_rule_3cg_10_2_russian_c_armies_fire_as_b_from_1711() -> None:
    """10.2: "From 1711 all Russian Army blocks rated C receives Combat rating B." """
    assert str(world([], year=1710).rating("sheremetev")) == "C2"
    assert str(world([], year=1711).rating("sheremetev")) == "B2"
    assert str(world([], year=1711).rating("karl-xii")) == str(BOARD.blocks["karl-xii"].rating)


def test_rule_3cg_13_1_two_events_in_a_row_only_with_the_option() -> None:
    """3CG has no 3.2 re-roll; 13.1 (optional): "A player that rolls a 6 on 2 consecutive
    game turns may re-roll the second die roll until receiving a die roll that equals an
    action number." """
    w = world([6, 2])
    w.state.first_turn, w.state.last_event = False, {"sweden": True}
    action_roll(w)
    assert w.state.turn.rolls["sweden"] == 6
    w = world([6, 6, 3, 2], optional="13.1")
    w.state.first_turn, w.state.last_event = False, {"sweden": True}
    action_roll(w)
    assert w.state.turn.rolls["sweden"] == 3


def test_game_options_are_checked() -> None:
    """Unknown rulesets and optional rules are refused with the choices; 13.x only in 3CG."""
    for options in ({"ruleset": "3cg"}, {"optional": "13.1"},
                    {"ruleset": "3cg-1.1", "optional": "13.9"},
                    {"optional": "13.3"}):
        with pytest.raises(GameError):
            MODULE.setup("12.1", options)
    state = MODULE.setup("12.1", {"ruleset": "3cg-1.1", "optional": 13.1})
    assert state["ruleset"] == "3cg-1.1" and state["optional"] == ["13.1"]
    state = MODULE.setup("12.1", {"ruleset": "3cg-1.1", "optional": "13.3, 13.2"})
    assert state["optional"] == ["13.2", "13.3"]
