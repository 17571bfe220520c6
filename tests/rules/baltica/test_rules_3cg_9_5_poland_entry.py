"""3CG v1.1 (ruleset "3cg-1.1"): Poland's entry. 9.5: "The Polish blocks automatically
join the allies as soon as the Sweden or Turkey enters Poland"; "Polish blocks may
deploy anywhere in Poland. Exception is the Lubomirski Army block that has to start in
either Mazowsze or Krakow." 10.4: "Poland automatically allies itself with any nation
that has besieged both Warszawa and Krakow." 4.8: "Territories that have triggers that
activate them do not count as prohibited." """

from __future__ import annotations

from gm.dice import Dice
from gm.games.baltica.board import load_board
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.rules import nations
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POOL, GameState

MODULE = BalticaModule()
BOARD = load_board("3cg-1.1")
POLES = ("lubomirski", "sobieski", "oginski")


def world(scenario: str = "12.1", ruleset: str = "3cg-1.1") -> World:
    gs = GameState.from_json(MODULE.setup(scenario, {"ruleset": ruleset}))
    return World(load_board(ruleset), gs, Dice.scripted([]))


def put(w: World, block: str, where: str, strength: int = 2) -> None:
    w.state.blocks[block].location, w.state.blocks[block].strength = where, strength


def test_rule_3cg_12_poland_starts_out_of_the_war_but_not_prohibited() -> None:
    """3CG 12: "the Danish, Polish and Turkish entry has not occurred"; 4.8: Poland,
    which a trigger activates, is not prohibited (the Swedes may march in)."""
    w = world()
    assert "poland" not in w.state.active
    assert all(w.state.blocks[b].location == POOL for b in POLES)
    assert not w.prohibited("mazowsze") and not w.prohibited("plock")
    assert w.prohibited("brandenburg")  # Prussia has no such trigger (4.8: prohibited)


def test_rule_3cg_9_5_sweden_enters_poland_poles_join_the_allies() -> None:
    w = world()
    put(w, "karl-xii", "pomorze", 3)
    nations.end_of_phase_triggers(w)
    assert "poland" in w.state.active
    assert w.power_of_nation("poland") == "coalition"
    # Lubomirski in Mazowsze (first of Mazowsze/Krakow open), the regiments join him
    assert {b: (w.state.blocks[b].location, w.state.blocks[b].strength) for b in POLES} == {
        b: ("mazowsze", BOARD.blocks[b].max_strength) for b in POLES}
    types = [e.type for e in w.events]
    assert "nation_entered" in types and "nation_activated" in types
    # the Swedish player learns where Polish blocks deployed, not which they are
    public = [e for e in w.events if e.visible_to is None]
    assert [e.data["territory"] for e in public if e.type == "block_built"] == ["Mazowsze"] * 3
    assert not any("Lubomirski" in str(e.data) for e in public)


def test_rule_3cg_9_5_lubomirski_goes_to_krakow_when_mazowsze_is_occupied() -> None:
    w = world()
    put(w, "karl-xii", "mazowsze", 3)
    nations.end_of_phase_triggers(w)
    assert [w.state.blocks[b].location for b in POLES] == ["malopolska"] * 3
    assert w.state.blocks["karl-xii"].location == "mazowsze"


def test_rule_3cg_9_5_turkey_enters_poland() -> None:
    w = world()
    w.state.active.append("ottoman")
    put(w, "ottoman-1", "malopolska", 2)
    nations.end_of_phase_triggers(w)
    assert "poland" in w.state.active
    assert w.state.blocks["lubomirski"].location == "mazowsze"


def test_rule_3cg_9_5_allied_blocks_in_poland_do_not_bring_it_in() -> None:
    """Only Sweden or Turkey entering Poland does (9.3: the Saxons use Poland freely)."""
    w = world()
    put(w, "flemming", "mazowsze", 2)
    put(w, "repnin", "lietuva", 2)
    nations.end_of_phase_triggers(w)
    assert "poland" not in w.state.active
    assert w.state.blocks["lubomirski"].location == POOL


def test_rule_3cg_10_4_poland_allies_with_the_besieger_of_both_capitals() -> None:
    """10.4: and back again when the other side besieges both."""
    w = world()
    put(w, "karl-xii", "pomorze", 3)
    nations.end_of_phase_triggers(w)
    w.state.control["mazowsze"] = "sweden"
    nations.end_of_phase_triggers(w)
    assert w.power_of_nation("poland") == "coalition"  # one capital is not enough
    w.state.control["malopolska"] = "sweden"
    rp = dict(w.state.rp)
    nations.end_of_phase_triggers(w)
    assert w.power_of_nation("poland") == "sweden"
    assert w.power_of("lubomirski") == "sweden"
    assert w.state.rp == rp  # GMT 11.5 (Saxony loses 4 RP levels) is not a 3CG rule
    assert w.state.blocks["lubomirski"].location == "mazowsze"
    assert any(e.type == "nation_changes_side" and e.data["side"] == "sweden" for e in w.events)
    w.state.control["mazowsze"] = w.state.control["malopolska"] = "russia"
    nations.end_of_phase_triggers(w)
    assert w.power_of_nation("poland") == "coalition"


def test_rule_3cg_10_4_an_inactive_poland_joins_the_besieger() -> None:
    w = world()
    w.state.control["mazowsze"] = w.state.control["malopolska"] = "saxony"
    nations.end_of_phase_triggers(w)
    assert "poland" in w.state.active and w.power_of_nation("poland") == "coalition"


def test_rule_3cg_10_4_no_truce_for_a_besieged_polish_capital() -> None:
    """Interpretation: 10.4 (change of side) replaces the 6.9 capital truce for Poland."""
    from gm.games.baltica.rules.truce import truce_possible

    w = world()
    w.state.active.append("poland")
    assert not truce_possible(w, "poland")


def test_gmt_poland_unchanged() -> None:
    """The GMT rules keep Poland in the war from the start and 11.5 (Saxony loses 4 RP
    levels with both capitals)."""
    w = world(ruleset="gmt-2012")
    assert "poland" in w.state.active
    saxony = w.state.rp["saxony"]
    w.state.control["mazowsze"] = w.state.control["malopolska"] = "sweden"
    nations.end_of_phase_triggers(w)
    assert w.state.rp["saxony"] == saxony - 4 and w.power_of_nation("poland") == "coalition"


def test_scenario_12_3_poland_fights_for_sweden() -> None:
    """3CG 12.3: the Polish blocks are listed under SWEDEN (scenario ``allegiance``)."""
    for ruleset in ("gmt-2012", "3cg-1.1"):
        w = world("12.3", ruleset)
        assert w.power_of_nation("poland") == "sweden"
        assert w.power_of("lubomirski") == "sweden"


def test_rule_3cg_10_4_a_poland_at_war_is_no_transit_for_its_enemy() -> None:
    """9.3/9.5: the Saxons (and anyone, 1.5) pass through a Poland out of the war; 10.4:
    once Poland fights for one side, its lands are no longer transit for the other."""
    w = world()
    assert w.friendly_or_transit("sandomierz", "sweden")
    assert w.friendly_or_transit("sandomierz", "coalition")
    put(w, "karl-xii", "pomorze", 3)
    nations.end_of_phase_triggers(w)
    assert not w.friendly_or_transit("sandomierz", "sweden")
    assert w.friendly_or_transit("sandomierz", "coalition")
    w.state.control["mazowsze"] = w.state.control["malopolska"] = "sweden"
    nations.end_of_phase_triggers(w)
    assert w.friendly_or_transit("sandomierz", "sweden")
    assert not w.friendly_or_transit("sandomierz", "coalition")
