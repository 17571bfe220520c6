"""Pax Viking's parse context is built once per data set, power, language and what of the
state it reads, then reused (issue 21); a state that changes what a power may name gets a
new one."""

from __future__ import annotations

import copy
from typing import Any

from gm.dice import Dice
from gm.games.viking import module
from gm.games.viking.parsing import context_for, known_tiles


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


def test_a_venture_that_moves_to_another_post_names_that_post() -> None:
    """The key holds the posts' ventures: "a venture post also by its venture's name"."""
    state = started()
    me = state["powers"][0]
    data = module.data
    posts = list(state["posts"])  # the last venture moves to a later post: the tiles keep their order
    post = [p for p in posts if state["posts"][p]["venture"]][-1]
    to = next(p for p in posts[posts.index(post) + 1:] if not state["posts"][p]["venture"])
    venture = state["posts"][post]["venture"]
    name = data.tiles[venture].name
    before = context_for(data, state, me)
    later = copy.deepcopy(state)
    later["posts"][post]["venture"], later["posts"][to]["venture"] = None, venture
    assert known_tiles(data, later, me) == known_tiles(data, state, me)  # only the post changed
    after = context_for(data, later, me)
    assert after is not before
    assert after.names["post"].lookup(name) == data.posts[to].name
    assert before.names["post"].lookup(name) == data.posts[post].name


def test_a_new_jarl_names_the_player() -> None:
    """The key holds the jarls: "the players (also by their jarl's name)"."""
    state = started()
    me = state["powers"][0]
    data = module.data
    taken = {state["players"][p]["jarl"] for p in state["powers"]}
    jarl = next(j for j in data.jarls if j not in taken)
    name = data.jarls[jarl].name
    before = context_for(data, state, me)
    later = copy.deepcopy(state)
    later["players"][me]["jarl"] = jarl
    after = context_for(data, later, me)
    assert after is not before
    assert after.names["power"].lookup(name) == me
    assert before.names["power"].lookup(name) != me
