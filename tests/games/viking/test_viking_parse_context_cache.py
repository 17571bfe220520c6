"""Pax Viking's parse context is built once per data set, power, language and what of the
state it reads, then reused (issue 21); a state that changes what a power may name gets a
new one."""

from __future__ import annotations

import copy
from typing import Any

from gm.dice import Dice
from gm.games.viking import module
from gm.games.viking.parsing import context_for


def started() -> dict[str, Any]:
    return module.adjudicate(module.setup("3p", {}), {},
                             Dice(seed=b"\x05" * 32, game_id="c", phase_id="setup")).state


def test_the_same_state_gives_the_same_context_object() -> None:
    state = started()
    me = state["powers"][0]
    first = context_for(module.data, state, me)
    assert context_for(module.data, copy.deepcopy(state), me) is first
    assert context_for(module.data, state, state["powers"][1]) is not first
    assert context_for(module.data, state, me, "fr") is not first


def test_a_tile_that_leaves_the_hand_of_another_can_no_longer_be_named() -> None:
    """Another player's hand is hidden: once a tile moves from the track into it, the
    cached context of the earlier state must not be served for the new one."""
    state = started()
    me, other = state["powers"][0], state["powers"][1]
    tile = next(x for x in state["track"] if x)
    name = module.data.tiles[tile].name
    before = context_for(module.data, state, me)
    assert name in before.names["tile"]
    later = copy.deepcopy(state)
    later["track"] = [x if x != tile else None for x in later["track"]]
    later["players"][other]["hand"].append(tile)
    assert not later.get("options", {}).get("open_information")
    after = context_for(module.data, later, me)
    assert after is not before
    assert name not in after.names["tile"]
    assert name in context_for(module.data, state, me).names["tile"]
