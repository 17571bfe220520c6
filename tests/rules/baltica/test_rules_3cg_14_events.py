"""The 3CG v1.1 event tables (ruleset "3cg-1.1"): General Events 14.1, National Events
14.2 (once a year per result), and the National Event roll as an action (3.44)."""

from __future__ import annotations

from gm.dice import Dice
from gm.games.baltica.board import load_board
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.orders import Politics
from gm.games.baltica.rules.action_phase import run_action_phase
from gm.games.baltica.rules.event_effects import Choices
from gm.games.baltica.rules.events import resolve_event
from gm.games.baltica.rules.events_3cg import national_event
from gm.games.baltica.rules.truce import impose_due_truces
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import ASIDE, POOL, GameState

MODULE = BalticaModule()
BOARD = load_board("3cg-1.1")


def world(dice: list[int], **changes: object) -> World:
    gs = GameState.from_json(MODULE.setup("12.1", {"ruleset": "3cg-1.1"}))
    gs.step = "actions-first"
    gs.turn.first, gs.turn.actions = "sweden", {"sweden": 3, "coalition": 2}
    for k, v in changes.items():
        setattr(gs, k, v)
    return World(BOARD, gs, Dice.scripted(dice))


def types(w: World) -> list[str]:
    return [e.type for e in w.events]


def test_rule_3cg_14_1_plague_every_block_loses_a_step_none_eliminated() -> None:
    """14.1 #1: "Plague. All blocks lose 1 step. No blocks may be eliminated." """
    w = world([1])
    w.state.blocks["pommerska"].strength = 1
    resolve_event(w, "sweden", Choices())
    assert w.state.blocks["karl-xii"].strength == 3
    assert w.state.blocks["pyotr-i"].strength == 3
    assert w.state.blocks["pommerska"].strength == 1


def test_rule_3cg_14_1_attrition_hits_only_the_enemy_in_the_region() -> None:
    """14.1 #3: "Attrition. Roll 1D6 for region. All enemy blocks in that area lose 1
    step." Region 1 is the Baltic (Estland, Livland, Ingermanland and Nyen)."""
    w = world([3, 1])
    resolve_event(w, "sweden", Choices())
    assert w.state.blocks["sheremetev"].strength == 3  # Russian, in Ingermanland
    assert w.state.blocks["vellinck"].strength == 4  # Swedish, in Estland: not the enemy


def test_rule_3cg_14_1_excellent_recruitment_in_the_homeland() -> None:
    """14.1 #4: "All countries roll 1D6 and gain as many steps as the die shows. Steps must
    be applied in the native homeland"; Sweden's `reinforce` list chooses first."""
    w = world([4, 2, 6, 6, 6])
    w.state.blocks["elfsborg"].strength = 1
    w.state.blocks["kronoberg"].strength = 1
    w.state.blocks["vellinck"].strength = 1  # in Estland: a Swedish territory too
    resolve_event(w, "sweden", Choices(reinforce=("kronoberg",)))
    rolls = [e.data for e in w.events if e.type == "recruitment_roll"]
    assert rolls[0] == {"nation": "sweden", "roll": 2}
    assert w.state.blocks["kronoberg"].strength == 3  # both Swedish steps, as listed
    assert w.state.blocks["elfsborg"].strength == 1


def test_rule_3cg_14_1_national_events_sweden_rolls_once_the_coalition_per_country() -> None:
    """14.1 #5/#6: "Roll on National Events Table. (If allied, roll for each country)." """
    w = world([5, 6])
    resolve_event(w, "sweden", Choices())
    assert [e.data.get("table") for e in w.events if e.type == "event_rolled"] == [
        "event_table", "national_events_sweden"]
    w = world([6, 6, 6])
    resolve_event(w, "coalition", Choices())
    tables = [e.data.get("table") for e in w.events if e.type == "event_rolled"]
    assert tables == ["event_table", "national_events_russia", "national_events_saxony"]
    assert {"what": "rp_bonus", "nation": "russia", "rp": 8} in w.state.interphase_due
    assert {"what": "rp_bonus", "nation": "saxony", "rp": 4} in w.state.interphase_due


def test_rule_3cg_14_2_a_result_applies_once_a_year() -> None:
    """14.2: "A result on the National Event table can only be applied once within the same
    year. Disregard any roll that already applies." """
    w = world([1, 1, 1])
    national_event(w, "sweden", "sweden", Choices())
    national_event(w, "sweden", "sweden", Choices())
    assert w.state.interphase_due.count({"what": "rp_half", "nation": "sweden"}) == 1
    assert [e.data["reason"] for e in w.events if e.type == "no_effect"] == ["already_this_year"]
    w.state.year += 1
    national_event(w, "sweden", "sweden", Choices())
    assert w.state.interphase_due.count({"what": "rp_half", "nation": "sweden"}) == 2


def test_rule_3cg_14_2_bad_harvest_in_finland_costs_8_rps_next_year() -> None:
    """14.2 Sweden #2: "Bad harvest in Finland. Results in a 8 RP loss during the next
    year." """
    w = world([2])
    national_event(w, "sweden", "sweden", Choices())
    assert w.state.interphase_due == [{"what": "rp_bonus", "nation": "sweden", "rp": -8}]


def test_rule_3cg_14_2_discontent_two_steps_desert_never_the_last() -> None:
    """14.2 Sweden #3: "2 steps deserts from any blocks": the `hits prefer` list first,
    then the strongest; events never eliminate (3CG 6.8)."""
    w = world([3])
    w.prefer = {"sweden": ["pommerska"]}
    national_event(w, "sweden", "sweden", Choices())
    assert w.state.blocks["pommerska"].strength == 1  # 2 -> 1, never 0
    assert w.state.blocks["karl-xii"].strength == 3  # the strongest (then by id) gives one


def test_rule_3cg_14_2_diplomacy_truce_with_the_chosen_nation() -> None:
    """14.2 Russia #4: "A high ranked diplomat may form a TRUCE (See 6.9) with Turkey or
    Ukraine, free of choice. Chosen Nation will return to its Replacement Pool." """
    w = world([4])
    w.state.active += ["ottoman"]
    national_event(w, "coalition", "russia", Choices(targets=("ottoman",)))
    impose_due_truces(w)
    assert "ottoman" not in w.state.active and "ottoman" in w.state.truces
    w = world([4])
    national_event(w, "coalition", "russia", Choices())
    assert [e.data["reason"] for e in w.events if e.type == "no_effect"] == ["neither_at_war"]


def test_rule_3cg_14_2_forced_recruitment_four_free_steps() -> None:
    """14.2 Sweden #5: "4 new steps at no cost to be placed instantly." """
    w = world([5])
    w.state.blocks["pommerska"].strength = 1
    w.state.blocks["elfsborg"].strength = 1
    w.state.blocks["kronoberg"].strength = 1
    national_event(w, "sweden", "sweden", Choices(reinforce=("pommerska",)))
    assert w.state.blocks["pommerska"].strength == BOARD.blocks["pommerska"].max_strength
    rest = 4 - (BOARD.blocks["pommerska"].max_strength - 1)
    assert w.state.blocks["elfsborg"].strength + w.state.blocks["kronoberg"].strength == 2 + rest
    gained = sum(b["steps"] for e in w.events if e.type == "steps_gained" for b in e.data["blocks"])
    assert gained == 4


def test_rule_3cg_14_2_emperor_demands_troops_1703_to_1714() -> None:
    """14.2 Saxony #2: "From 1703-1714 Saxony must exclude 1 block free of choice from the
    replacement pool. It returns if Saxony is invaded by Sweden." """
    w = world([2])
    national_event(w, "coalition", "saxony", Choices())
    assert [e.data["reason"] for e in w.events if e.type == "no_effect"] == ["not_this_year"]
    w = world([2], year=1704)
    national_event(w, "coalition", "saxony", Choices())
    aside = [b for b, bs in w.state.blocks.items() if bs.location == ASIDE]
    assert len(aside) == 1 and BOARD.blocks[aside[0]].nation == "saxony"
    assert w.state.aside[aside[0]].endswith("from-year:1715")


def test_rule_3cg_14_2_russian_nature_strikes_hostile_blocks_in_russia() -> None:
    """14.2 Russia #5: "All hostile blocks in Russia suffer a 2 step loss." """
    w = world([5])
    w.state.blocks["karl-xii"].location = "novgorod"
    national_event(w, "coalition", "russia", Choices())
    assert w.state.blocks["karl-xii"].strength == 2
    assert w.state.blocks["repnin"].strength == 4  # Russian, in Novgorod too


def test_rule_3cg_14_2_polish_parliament_changes_side_on_a_6() -> None:
    """14.2 Saxony #3: "Roll 1D6. On a 6 they change side and all polish blocks joins
    their new allies." """
    w = world([3, 6])
    w.state.active.append("poland")
    national_event(w, "coalition", "saxony", Choices())
    assert "poland" in w.state.defected and w.power_of_nation("poland") == "sweden"
    w = world([3, 5])
    w.state.active.append("poland")
    national_event(w, "coalition", "saxony", Choices())
    assert w.power_of_nation("poland") == "coalition"


def test_rule_3cg_14_2_aurora_truce_for_one_year() -> None:
    """14.2 Saxony #5: "Aurora Königsmarck negotiates a TRUCE with Sweden for one year from
    next coming spring. All Saxon blocks is out of the war and placed in the replacement
    pool." Saxony re-enters at the Interphase after that year."""
    w = world([5], year=1702)
    national_event(w, "coalition", "saxony", Choices())
    impose_due_truces(w)
    assert "saxony" not in w.state.active
    assert w.state.blocks["august-ii"].location == POOL
    assert {"what": "activate", "nation": "saxony", "year": 1704} in w.state.interphase_due


def test_rule_3cg_3_44_national_event_roll_is_an_action_without_yearly_limit() -> None:
    """3.44: "For the cost of one action a player can roll 1D6 on the NATIONAL EVENT TABLE
    for one specific nation. The player must of course control the nation." (No
    once-a-year limit: 14.2 limits each result instead.)"""
    w = world([6, 2])
    run_action_phase(w, "sweden", [Politics("Sweden"), Politics("Sweden")])
    assert w.state.turn.actions["sweden"] == 1
    tables = [e.data["table"] for e in w.events if e.type == "event_rolled"]
    assert tables == ["national_events_sweden", "national_events_sweden"]
    assert "order_failed" not in types(w)
