"""Pax Baltica 7.x forage (GMT 2012 rule book)."""

from __future__ import annotations

from baltica_boards import make_board, make_state, make_world

from gm.games.baltica.rules.forage import forage_check, requirement

BLOCKS = {"pyotr-i": ("russia", "army", 4, "B3", 2, 1),
          "sheremetev": ("russia", "army", 4, "B2", 2, 1),
          "woronjetski": ("russia", "regiment", 3, "B2", 2, 0),
          "august-ii": ("saxony", "army", 4, "B2", 2, 1),
          "flemming": ("saxony", "regiment", 3, "B2", 2, 0)}
TERR = {"kurland": ("sweden", 3, 2)}


def test_rule_7_3_kurland_example() -> None:
    """7.3: "Pyotr I, Sheremetev, and Woronjetski are in Kurland (forage capacity 3), all at
    full strength. Pyotr's baggage train covers the forage requirement for Woronjetski, but
    Sheremetev's train bonus is wasted. The forage requirement of the two armies (2 FP each)
    exceeds Kurlandia's capacity by 1, so one of the strongest blocks must lose a step. The
    Coalition player chooses Sjeremetev to lose the step"."""
    board = make_board(TERR, [], BLOCKS)
    gs = make_state(board, {"pyotr-i": ("kurland", 4), "sheremetev": ("kurland", 4),
                            "woronjetski": ("kurland", 3)})
    world = make_world(board, gs)
    world.prefer = {"coalition": ["sheremetev"]}
    assert requirement(world, ["pyotr-i", "sheremetev", "woronjetski"]) == 4
    forage_check(world, "coalition", "kurland")
    assert [gs.blocks[b].strength for b in ("pyotr-i", "sheremetev", "woronjetski")] == [4, 3, 3]


def test_rule_7_2_baggage_train_feeds_same_nation_regiments_only() -> None:
    """7.2: "Each symbol provides one additional FP that can be used only to support
    regiments from the same nationality (not armies and not allies)"."""
    board = make_board(TERR, [], BLOCKS)
    gs = make_state(board, {})
    world = make_world(board, gs)
    assert requirement(world, ["pyotr-i", "flemming"]) == 3
    assert requirement(world, ["august-ii", "flemming"]) == 2


def test_rule_7_3_never_below_1() -> None:
    """7.3: "Blocks are never eliminated due to insufficient forage; they cannot be reduced
    below 1 strength"."""
    board = make_board({"waste": (None, None, None)}, [], BLOCKS)
    gs = make_state(board, {"woronjetski": ("waste", 1), "pyotr-i": ("waste", 2)})
    world = make_world(board, gs)
    forage_check(world, "coalition", "waste")
    assert gs.blocks["woronjetski"].strength == 1 and gs.blocks["pyotr-i"].strength == 1
    assert gs.blocks["pyotr-i"].location == "waste"
