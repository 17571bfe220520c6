"""Set-up A-I for 1-6 players (Set-up; Starting Silfr and Starting Venture Posts tables)."""

from __future__ import annotations

import pytest

from gm.dice import Dice
from gm.games.base import GameError
from gm.games.viking import module


def dealt(scenario: str, seed: bytes = b"\x01" * 32, **options):  # type: ignore[no-untyped-def]
    state = module.setup(scenario, options)
    assert module.phase(state).owing == ()  # the set-up owes no orders
    return module.adjudicate(state, {}, Dice(seed=seed, game_id="g", phase_id="setup"))


@pytest.mark.parametrize("n,ventures", [(1, 5), (2, 4), (3, 3), (4, 2), (5, 1), (6, 0)])
def test_set_up_f_starting_venture_posts(n: int, ventures: int) -> None:
    """F: "randomly select Ventures in the amount of 6 minus the number of players.
    Each Venture used must be for a unique Region."""
    state = dealt(f"{n}p").state
    placed = [st["venture"] for st in state["posts"].values() if st["venture"]]
    assert len(placed) == ventures
    assert len({module.data.tiles[t].location for t in placed}) == ventures
    assert not set(placed) & set(state["pile"] + state["track"])
    assert all(st["owner"] is None for st in state["posts"].values())


@pytest.mark.parametrize("n", range(1, 7))
def test_set_up_e_and_i_pile_track_and_starting_silfr(n: int) -> None:
    """E: starter deck (2p tiles for 2 players, +12 per player); 7 tiles on the track.
    I: the start player takes 3 silfr, the next 4 and so on, plus the jarl's ability."""
    state = dealt(f"{n}p").state
    assert len(state["pile"]) + 7 == 12 * max(2, n)
    assert all(state["track"])
    for i, p in enumerate(state["powers"]):
        jarl = module.data.jarls[state["players"][p]["jarl"]]
        assert state["players"][p]["silfr"] == 3 + i + jarl.start_silfr
    assert len({state["players"][p]["jarl"] for p in state["powers"]}) == n
    assert module.phase(state).id == f"round-1-{state['powers'][0]}"


def test_set_up_d_difficulty_bragi_and_handicap_cards() -> None:
    """D: 4 cards of the difficulty; handicap: cards from different categories; Bragi's
    Variant: face down."""
    state = dealt("3p", difficulty="novice").state
    assert {module.data.cards[c].difficulty for c in state["victory"]["cards"]} == {"novice"}
    state = dealt("3p", cards=["novice", "novice", "advanced", "advanced"], bragi=True).state
    assert [module.data.cards[c].difficulty for c in state["victory"]["cards"]] == [
        "novice", "novice", "advanced", "advanced"]
    assert state["victory"]["faceup"] == [False] * 4
    assert all(c["name"] is None for c in module.view(state, "red")["victory_cards"])


def test_set_up_is_fixed_by_the_seed_and_the_pile_rolls_are_secret() -> None:
    a, b = dealt("4p"), dealt("4p")
    assert a.state == b.state
    assert dealt("4p", seed=b"\x02" * 32).state["pile"] != a.state["pile"]
    dice = Dice(seed=b"\x01" * 32, game_id="g", phase_id="setup")
    module.adjudicate(module.setup("4p", {}), {}, dice)
    pile_rolls = [r for r in dice.rolls if r.purpose == "saga pile"]
    assert pile_rolls and all(r.visible_to == frozenset() for r in pile_rolls)
    assert all(r.visible_to is None for r in dice.rolls if r.purpose != "saga pile")


def test_bad_settings_are_refused() -> None:
    with pytest.raises(GameError, match="difficulty"):
        module.setup("3p", {"difficulty": "heroic"})
    with pytest.raises(GameError, match="tile set"):
        module.setup("3p", {"tilesets": ["printed"]})


def test_set_up_d_handicap_levels_must_be_drawn() -> None:
    """Set-up D, handicap: a player given a level wins only by the cards of that level,
    so the level must be among the cards drawn (a typo would make a player unable to
    win), and the player must be in the game."""
    cards = ["novice", "novice", "advanced", "advanced"]
    state = module.setup("3p", {"cards": cards, "player_levels": {"red": "novice",
                                                                  "blue": "advanced"}})
    assert state["options"]["player_levels"] == {"red": "novice", "blue": "advanced"}
    with pytest.raises(GameError, match="no card of that level"):
        module.setup("3p", {"cards": cards, "player_levels": {"red": "standard"}})
    with pytest.raises(GameError, match="not a player"):
        module.setup("3p", {"cards": cards, "player_levels": {"black": "novice"}})
