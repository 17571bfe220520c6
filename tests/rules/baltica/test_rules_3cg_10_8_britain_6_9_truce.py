"""3CG v1.1 (ruleset "3cg-1.1"): Great Britain (9.10, 10.8) and the truce's length and
reactivation (6.9, 6.10)."""

from __future__ import annotations

from gm.dice import Dice
from gm.games.baltica.board import load_board
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.rules import activation, nations
from gm.games.baltica.rules.losses import eliminate
from gm.games.baltica.rules.truce import impose_due_truces, impose_truce
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POOL, GameState

MODULE = BalticaModule()
FLEET = "british-fleet"


def world(ruleset: str = "3cg-1.1", dice: list[int] | None = None) -> World:
    gs = GameState.from_json(MODULE.setup("12.1", {"ruleset": ruleset}))
    return World(load_board(ruleset), gs, Dice.scripted(dice or []))


def put(w: World, block: str, where: str, strength: int = 2) -> None:
    w.state.blocks[block].location, w.state.blocks[block].strength = where, strength


def active_britain(w: World, where: str = "north-sea", strength: int = 4) -> None:
    w.state.active.append("britain")
    put(w, FLEET, where, strength)


def test_rule_3cg_10_8_hanover_occupies_bremen_verden() -> None:
    """10.8: "activates if: Hanover occupies Bremen-Verden"; 9.10: "The British Warship
    block always starts in Portsmouth when activated." """
    w = world()
    nations.end_of_phase_triggers(w)
    assert "britain" not in w.state.active
    put(w, "hannover", "bremen-verden", 2)
    nations.end_of_phase_triggers(w)
    assert "britain" in w.state.active
    assert (w.state.blocks[FLEET].location, w.state.blocks[FLEET].strength) == ("portsmouth", 4)
    assert any(e.type == "british_warship" and e.data["condition"]
               == "hanover-occupies-bremen-verden" for e in w.events)


def test_gmt_11_11_hanover_in_bremen_verden_is_no_trigger() -> None:
    w = world("gmt-2012")
    put(w, "hannover", "bremen-verden", 2)
    nations.end_of_phase_triggers(w)
    assert "britain" not in w.state.active


def test_rule_3cg_10_8_allies_more_warships_at_sea() -> None:
    """10.8: "The allied player has more warship blocks at sea than Sweden" (Sweden has
    two in the Southern Baltic in 12.1); checked at the end of every phase, not only in
    the Interphase as GMT 11.11."""
    w = world()
    w.state.active.append("denmark")
    put(w, "tordenskiold", "kattegat", 3)
    put(w, "juel", "kattegat", 3)
    nations.end_of_phase_triggers(w)
    assert "britain" not in w.state.active  # 2 against 2
    put(w, "stubinski", "gulf-of-finland", 2)
    nations.end_of_phase_triggers(w)
    assert "britain" in w.state.active


def test_rule_3cg_10_8_allies_invade_the_swedish_homeland() -> None:
    w = world()
    put(w, "repnin", "skane", 2)
    w.state.blocks["repnin"].moved = True
    nations.end_of_phase_triggers(w)
    assert "britain" in w.state.active


def test_rule_3cg_10_8_withdraws_when_sweden_rules_the_sea_keeping_its_losses() -> None:
    """10.8: "deactivates if: The Swedish player has more warship blocks at sea than the
    Allies. Count the British block"; 9.10: "remove the block from map"; "any combat
    losses are permanent"."""
    w = world()
    active_britain(w, "north-sea", 2)
    nations.end_of_phase_triggers(w)  # 3 Swedish warships at sea against none
    assert "britain" not in w.state.active
    assert (w.state.blocks[FLEET].location, w.state.blocks[FLEET].strength) == (POOL, 2)
    w.state.blocks["wachtmeister"].location = w.state.blocks["wattrang"].location = POOL
    w.state.active.append("denmark")
    put(w, "juel", "kattegat", 3)
    nations.end_of_phase_triggers(w)  # the allies now have more: back, still strength 2
    assert "britain" in w.state.active
    assert (w.state.blocks[FLEET].location, w.state.blocks[FLEET].strength) == ("portsmouth", 2)
    placed = [e for e in w.events if e.type == "british_warship_placed"]
    assert placed[-1].data == {"territory": w.tname("portsmouth"), "strength": 2, "full": 4}


def test_rule_3cg_10_8_withdraws_when_sweden_captures_nyen() -> None:
    w = world()
    active_britain(w, "portsmouth")
    w.state.blocks["wachtmeister"].location = w.state.blocks["wattrang"].location = POOL
    w.state.active.append("denmark")
    put(w, "juel", "kattegat", 3)  # no withdrawal on the fleets
    nations.end_of_phase_triggers(w)
    assert "britain" in w.state.active
    w.emit("captured", None, territory="Nyen", garrison="Nyenskans", by="sweden",
           control="sweden")  # as siege.capture reports it
    nations.end_of_phase_triggers(w)
    assert "britain" not in w.state.active


def test_rule_3cg_10_8_lost_in_combat_truce_then_triggers_not_rolls() -> None:
    """10.8: "If the British warship block is lost in combat, Great Britain is forced to a
    TRUCE (See 6.9). After a truce, the British warship is available for activation as
    mentioned below" (by the triggers, not by a roll)."""
    w = world()
    active_britain(w, "north-sea", 1)
    eliminate(w, FLEET)
    impose_due_truces(w)
    assert "britain" not in w.state.active and w.state.truces["britain"] == 1704
    assert not activation.may_roll(w, "britain", "sweden")
    put(w, "hannover", "bremen-verden", 2)
    nations.end_of_phase_triggers(w)
    assert "britain" not in w.state.active  # the truce still holds
    w.state.year = 1704
    assert not activation.may_roll(w, "britain", "sweden")
    nations.end_of_phase_triggers(w)
    assert "britain" in w.state.active and w.state.blocks[FLEET].strength == 4


def test_rule_3cg_6_9_6_10_three_years_then_rising_chances() -> None:
    """6.10: "EXAMPLE: Denmark is out of the war in 1705. The allied player may start to
    roll for Denmark's activation after the winter turn 1708 but before 1709 spring turn
    starts" (the 1709 Interphase); "The first year the nation starts on a 1D6 result of 6.
    The next year on a result of 5 and 6, and so on." """
    w = world(dice=[5, 5, 4])
    w.state.year = 1705
    w.state.active.append("denmark")
    impose_truce(w, "denmark", "offered")
    assert w.state.truces["denmark"] == 1709
    w.state.year = 1708
    assert not activation.may_roll(w, "denmark", "coalition")
    w.state.year = 1709
    assert activation.may_roll(w, "denmark", "coalition")
    assert not activation.activation_roll(w, "denmark")  # 5 needs a 6
    w.state.year = 1710
    assert activation.activation_roll(w, "denmark")  # 5 is enough now
    w.state.year = 1711
    assert activation.activation_roll(w, "denmark")  # 4 needs 4+
    needs = [e.data["needs"] for e in w.events if e.type == "activation_roll"]
    assert needs == [6, 5, 4]


def test_gmt_10_3_truce_roll_stays_a_6() -> None:
    w = world("gmt-2012", dice=[5])
    w.state.year = 1705
    w.state.active.append("denmark")
    impose_truce(w, "denmark", "offered")
    assert w.state.truces["denmark"] == 1709
    w.state.year = 1712
    assert not activation.activation_roll(w, "denmark")
