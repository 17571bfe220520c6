"""Pax Baltica 11.1 Swedish Attrition Track, 11.9 Hannover's defection and 11.7 Prussia's
way into the war (GMT 2012), on the shipped map and the 3CG set-ups.

The track's boxes are printed on the map and reconstructed as data (tables.toml
``swedish_attrition_track``); the mechanism tests use a small track of their own, so a GM
correcting the boxes does not break them; the shipped boxes are checked for the
properties the rules and the design notes give them.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gm.dice import Dice
from gm.games.baltica.board import Board, load_board
from gm.games.baltica.engine import end_of_phase
from gm.games.baltica.fog import view
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.rules import activation, attrition, nations
from gm.games.baltica.rules.interphase import run_interphase
from gm.games.baltica.rules.losses import eliminate
from gm.games.baltica.rules.spending import interphase_rp
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POOL, GameState

MODULE = BalticaModule()
BOARD = load_board()


def box(n: int, *effects: dict[str, Any]) -> dict[str, Any]:
    return {"box": n, "effects": list(effects), "source": "test"}


def act(nation: str, modifier: int) -> dict[str, Any]:
    return {"kind": "activation", "nation": nation, "modifier": modifier}


TRACK = {  # a small track for the mechanism: three boxes a row
    "nation": "sweden", "kind": "army", "lower_regions": ["russia", "ukraine"],
    "source": "test",
    "upper": [box(1, act("prussia", 1)), box(2, act("denmark", 1)),
              box(3, {"kind": "rp", "nation": "sweden", "change": -4})],
    "lower": [box(1, {"kind": "defects", "nation": "hannover"}), box(2, act("prussia", 2)),
              box(3, act("prussia", 1), act("hannover", 1))],
}


def board_with(track: dict[str, Any]) -> Board:
    return dataclasses.replace(BOARD, tables={**BOARD.tables, "swedish_attrition_track": track})


def world_of(scenario: str = "12.1", rolls: list[int] | None = None, step: str = "battles",
             board: Board | None = None) -> World:
    gs = GameState.from_json(MODULE.setup(scenario, {}))
    gs.step, gs.turn.first = step, "sweden"
    return World(board or board_with(TRACK), gs, Dice.scripted(rolls or []))


def events(w: World, type_: str) -> list[dict[str, Any]]:
    return [e.data for e in w.events if e.type == type_]


def modifiers(w: World) -> dict[str, int]:
    return {n: attrition.activation_modifier(w, n) for n in ("prussia", "denmark", "hannover")}


def test_rule_11_1_the_marker_advances_for_swedish_army_blocks_only() -> None:
    """11.1: "Each time a Swedish army block (not regiment) is eliminated, advance the
    marker on this track one space." Regiments, allies (Holstein-Gottorp) and the enemy's
    armies do not move it; Karl XII going into exile (2.3) is an army eliminated."""
    w = world_of()
    gs = w.state
    eliminate(w, "dalregementet")  # a Swedish regiment
    gs.blocks["friedrich-iv"].location, gs.blocks["friedrich-iv"].strength = "holstein-gottorp", 1
    eliminate(w, "friedrich-iv")  # Holstein-Gottorp's army, a Swedish ally
    eliminate(w, "sheremetev")  # a Russian army
    assert gs.attrition == 0 and not events(w, "attrition_marker")
    eliminate(w, "vellinck")
    assert gs.attrition == 1
    eliminate(w, "karl-xii")
    assert gs.blocks["karl-xii"].location == "exile" and gs.attrition == 2
    marker = [e for e in w.events if e.type == "attrition_marker"]
    assert [e.data["count"] for e in marker] == [1, 2]
    assert all(e.visible_to is None for e in marker), "the track is on the map: public"
    assert marker[-1].data["row"] == "upper" and marker[-1].data["box"] == 2
    assert marker[-1].data["effects"] == [act("prussia", 1), act("denmark", 1)]


def test_rule_11_1_a_hidden_army_loss_moves_the_marker_without_naming_it() -> None:
    """Fog: a block lost unrevealed (forage, force march) is named to its owner only; the
    public marker event names no block."""
    w = world_of()
    eliminate(w, "vellinck", hidden=True)
    marker = next(e for e in w.events if e.type == "attrition_marker")
    assert marker.visible_to is None and "Vellinck" not in str(marker.data)
    assert next(e for e in w.events if e.type == "eliminated").visible_to == {"sweden"}


def test_rule_11_1_the_row_follows_swedish_blocks_in_russia_both_ways() -> None:
    """11.1: "As long as Sweden has at least one block in Russia (including Ukraine), the
    marker on this track is moved to the lower row; move it back to the upper row if no
    Swedish blocks are in Russia." Mazepa in Ukraine is no Swedish block."""
    w = world_of(rolls=[])
    gs = w.state
    gs.attrition = 2
    gs.blocks["mazepa"].location, gs.blocks["mazepa"].strength = "sivershchyna", 2
    end_of_phase(w)
    assert not events(w, "attrition_row") and gs.attrition_row == "upper"
    assert modifiers(w) == {"prussia": 1, "denmark": 1, "hannover": 0}
    gs.blocks["vellinck"].location = "smolensk"
    w = World(w.board, gs, Dice.scripted([]))
    assert modifiers(w) == {"prussia": 2, "denmark": 0, "hannover": 0}, "at once, for rolls"
    end_of_phase(w)
    assert events(w, "attrition_row") == [{"row": "lower", "box": 2, "effects": [
        {"kind": "defects", "nation": "hannover"}, act("prussia", 2)]}]
    gs.blocks["vellinck"].location = "sivershchyna"  # Ukraine counts as Russia
    w = World(w.board, gs, Dice.scripted([]))
    end_of_phase(w)
    assert not events(w, "attrition_row") and gs.attrition_row == "lower"
    gs.blocks["vellinck"].location = "estland"
    w = World(w.board, gs, Dice.scripted([]))
    end_of_phase(w)
    assert [e["row"] for e in events(w, "attrition_row")] == ["upper"]
    assert modifiers(w) == {"prussia": 1, "denmark": 1, "hannover": 0}


def test_rule_11_1_effects_of_lower_boxes_in_the_same_row_only() -> None:
    """11.1: "Apply the effects of the box containing the marker, and all effects of
    lower-numbered boxes in the same row only": the other row's boxes never count, higher
    boxes not yet; the marker stays in the last box."""
    w = world_of()
    gs = w.state
    gs.attrition = 1
    assert modifiers(w) == {"prussia": 1, "denmark": 0, "hannover": 0}
    gs.attrition = 3
    assert modifiers(w) == {"prussia": 1, "denmark": 1, "hannover": 0}
    assert attrition.rp_change(w, "sweden") == -4
    gs.blocks["vellinck"].location = "smolensk"  # lower row: 0 + 2 + 1, not the upper +1
    assert modifiers(w) == {"prussia": 3, "denmark": 0, "hannover": 1}
    assert attrition.rp_change(w, "sweden") == 0
    gs.attrition = 9
    assert attrition.public_view(w.board, gs)["box"] == 3 and modifiers(w)["prussia"] == 3


def test_rule_11_1_rp_effects_change_the_interphase_rps_not_the_level() -> None:
    """An ``rp`` box: Sweden receives 4 RPs fewer each Interphase while it is in force
    (8.2); the RP level (victory, 10.2 truce at zero) is not adjusted (reconstructed, as
    11.2's Year Track)."""
    w = world_of(step="interphase")
    gs = w.state
    gs.attrition = 3
    rp, _ = interphase_rp(w, "sweden")
    assert rp == gs.rp["sweden"] - 4 == 36
    assert events(w, "interphase_rp")[-1]["attrition"] == -4


def test_rule_11_9_hannover_defects_for_good_and_plays_for_the_coalition() -> None:
    """11.9: "When so indicated by the Swedish Attrition Track, Hannover defects
    permanently to the Coalition and becomes inactive (if not already). The Coalition
    player may then start rolling every Interphase to activate Hannover as a Coalition
    ally (10.1), subtracting 1 from the roll." Here Hannover had joined Sweden (11.9);
    the defection takes hold at the end of the phase."""
    w = world_of("12.4")
    gs = w.state
    gs.active.append("hannover")
    gs.blocks["hannover"].location, gs.blocks["hannover"].strength = "hannover", 2
    gs.blocks["vellinck"].location = "smolensk"  # the lower row: box 1 defects
    eliminate(w, "rehnskiold")
    assert gs.attrition == 1 and "hannover" in gs.active, "not before the end of the phase"
    end_of_phase(w)
    assert events(w, "nation_defected") == [{"nation": "hannover", "to": "coalition",
                                             "was_active": True, "blocks": 1}]
    assert "hannover" not in gs.active and gs.defected == ["hannover"]
    assert gs.blocks["hannover"].location == POOL
    assert w.power_of_nation("hannover") == "coalition" and w.power_of("hannover") == "coalition"
    assert w.controlled_by("hannover", "coalition")
    # permanently: back on the upper row, and an invasion of Holstein-Gottorp, change nothing
    gs.blocks["vellinck"].location = "estland"
    gs.blocks["rantzau"].location, gs.blocks["rantzau"].moved = "holstein-gottorp", True
    w = World(w.board, gs, Dice.scripted([]))
    end_of_phase(w)
    assert "hannover" not in gs.active and w.power_of_nation("hannover") == "coalition"
    assert not events(w, "nation_defected")
    # the Coalition rolls for Hannover, -1 (no Attrition box helps it on the upper row)
    gs.year += 1
    w = World(w.board, gs, Dice.scripted([6]))
    assert activation.may_roll(w, "hannover", "coalition")
    assert not activation.may_roll(w, "hannover", "sweden")
    assert not activation.activation_roll(w, "hannover")
    assert events(w, "activation_roll")[-1]["modifier"] == -1


def test_rule_11_9_a_defected_hannover_enters_the_war_for_the_coalition() -> None:
    """After the defection the Interphase rolls for Hannover on the Coalition's side; on a
    success its block is deployed in Hannover at full strength (11.9 deployment,
    self-sufficient) and is the Coalition's: its own view shows it, Sweden's a count."""
    w = world_of("12.4", step="interphase")
    gs = w.state
    gs.year, gs.season = 1711, "spring"
    gs.defected.append("hannover")
    gs.attrition = 3  # lower row box 3: Hannover +1, so -1 + 1: a 6 still needed
    gs.blocks["vellinck"].location = "smolensk"
    # the Interphase rolls Sweden's allies first, then the Coalition's (0.3): Ottomans,
    # Ukraine, Prussia (-1 + 3 on this row), Hannover (-1 + 1)
    w = World(w.board, gs, Dice.scripted([1, 1, 1, 6], then_seed=True))
    run_interphase(w, {"sweden": [], "coalition": []})
    assert [(e["nation"], e["roll"], e["modifier"]) for e in events(w, "activation_roll")] == [
        ("ottoman", 1, 0), ("ukraine", 1, 0), ("prussia", 1, 2), ("hannover", 6, 0)]
    assert events(w, "activation_roll")[-1]["success"]
    assert "hannover" in gs.active
    assert gs.blocks["hannover"].location == "hannover"
    assert gs.blocks["hannover"].strength == BOARD.blocks["hannover"].max_strength
    state = gs.to_json()
    coalition = view(w.board, state, "coalition")
    assert "Hannover" in [b["name"] for b in coalition["own_blocks"]]
    sweden = view(w.board, state, "sweden")
    assert "Hannover" not in str(sweden["own_blocks"]) + str(sweden["revealed"])
    assert {"where": "Hannover", "location": "hannover", "nation": "hannover", "count": 1,
            "fleets": False} in sweden["enemy_blocks"]
    assert sweden["attrition"] == coalition["attrition"] == {
        "count": 3, "row": "lower", "box": 3, "boxes": 3,
        "effects": [{"kind": "defects", "nation": "hannover"},
                    {"kind": "activation", "nation": "prussia", "modifier": 3},
                    {"kind": "activation", "nation": "hannover", "modifier": 1}]}


def test_rule_11_9_no_defection_after_a_concession() -> None:
    """11.1: a ceded territory "renders the receiving nation permanently inactive":
    Hannover, given Bremen-Verden, does not defect (the territory stays out of the war)."""
    w = world_of()
    gs = w.state
    assert nations.cede(w, "bremen-verden", "hannover") is None
    gs.attrition = 1
    gs.blocks["vellinck"].location = "smolensk"
    end_of_phase(w)
    assert gs.defected == [] and w.controller("bremen-verden") == "hannover"
    assert w.power_of_nation("hannover") == "sweden"


def test_rule_11_7_prussia_activates_with_the_track() -> None:
    """11.7: "The Coalition player rolls every Interphase for Prussian entry into the war
    as a Coalition ally (10.1), subtracting 1 from the roll. Design Note: This means
    Prussia will not normally be able to activate, since a 6 is required. However, have a
    look at the Swedish Attrition Track..." A 5 fails without the track and succeeds
    with +2 from it."""
    w = world_of(rolls=[5, 5], step="interphase")
    gs = w.state
    gs.year = 1701
    assert activation.may_roll(w, "prussia", "coalition")
    assert not activation.activation_roll(w, "prussia")
    gs.attrition = 2
    gs.blocks["vellinck"].location = "smolensk"  # lower row: box 2 gives Prussia +2
    assert activation.activation_roll(w, "prussia")
    assert [e["modifier"] for e in events(w, "activation_roll")] == [-1, 1]


def test_the_shipped_track_brings_prussia_and_hannover_in_harder_in_russia() -> None:
    """The reconstructed boxes (docs/baltica-data.md): every box cites "reconstructed";
    Hannover defects on both rows (11.9); Prussia can reach +1 net (a 5) on both rows;
    at every marker position the lower row (Swedes in Russia, 1.7) is at least as harsh
    as the upper for Prussia, Denmark and Hannover, and Hannover defects no later."""
    track = attrition.track(BOARD)
    assert all("reconstructed" in b["source"] for row in ("upper", "lower") for b in track[row])
    w = world_of(board=BOARD)
    gs = w.state
    first_defection = {}
    for row, place in (("upper", "estland"), ("lower", "smolensk")):
        gs.blocks["vellinck"].location = place
        seen = []
        for n in range(len(track[row]) + 1):
            gs.attrition = n
            assert attrition.row_of(BOARD, gs) == row
            effects = attrition.in_force(BOARD, gs)
            seen.append((modifiers(w), any(e["kind"] == "defects" for e in effects)))
        first_defection[row] = next(n for n, (_, d) in enumerate(seen) if d)
        assert seen[-1][0]["prussia"] >= 2
        if row == "upper":
            upper = seen
    for (up, _), (low, _) in zip(upper, seen, strict=True):
        assert all(low[n] >= up[n] for n in up), (up, low)
    assert first_defection["lower"] <= first_defection["upper"]


def test_rule_11_1_the_3cg_ruleset_has_no_attrition_track() -> None:
    """3CG 9.7, 9.9: Prussia and Hanover come in by date; the 3cg-1.1 overlay empties the
    track: the marker counts, nothing takes effect."""
    board = load_board("3cg-1.1")
    w = world_of(board=board)
    w.state.blocks["vellinck"].location = "smolensk"
    w.state.attrition = 5
    assert attrition.in_force(board, w.state) == [] and modifiers(w)["prussia"] == 0


def test_rule_11_9_a_defection_ends_a_truce_and_lifts_the_markers() -> None:
    """11.9 "becomes inactive (if not already)": a Hannover under truce as Sweden's ally
    loses its cube (the Coalition "may then start rolling every Interphase"); as in a truce
    (10.2, interpretation) the enemy's garrison marker in Hannover is removed."""
    w = world_of("12.4")
    gs = w.state
    gs.truces["hannover"] = gs.year + 4
    gs.control["hannover"] = "denmark"
    gs.attrition = 1
    gs.blocks["vellinck"].location = "smolensk"
    end_of_phase(w)
    assert gs.defected == ["hannover"] and "hannover" not in gs.truces
    assert "hannover" not in gs.control and w.controller("hannover") == "hannover"
    assert events(w, "nation_defected")[0]["was_active"] is False
    gs.year += 1
    assert activation.may_roll(World(w.board, gs, Dice.scripted([])), "hannover", "coalition")
