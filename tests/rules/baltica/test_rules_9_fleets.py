"""Pax Baltica fleets (9.1-9.4) on the shipped board and the 12.1 set-up (GMT 2012)."""

from __future__ import annotations

from gm.dice import Dice
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.orders import Embark, Land, Move, MoveGroup, Sail
from gm.games.baltica.rules.action_phase import run_action_phase
from gm.games.baltica.rules.fleet_battle import fight_at_sea, fleet_battle_zones
from gm.games.baltica.rules.fleets import embark, harbor_captured, land, sail
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import ASIDE, POOL, GameState

MODULE = BalticaModule()


def world(dice: list[int] | None = None) -> World:
    gs = GameState.from_json(MODULE.setup("12.1", {}))
    gs.step = "actions-first"
    gs.turn.first, gs.turn.actions = "sweden", {"sweden": 3, "coalition": 3}
    for b in ("wachtmeister", "wattrang"):
        gs.blocks[b].location = "kattegat"
    return World(MODULE.board, gs, Dice.scripted(dice or []))


def put(w: World, block: str, where: str, strength: int | None = None, aboard: str | None = None):  # type: ignore[no-untyped-def]
    bs = w.state.blocks[block]
    bs.location, bs.aboard = where, aboard
    bs.strength = strength or MODULE.board.blocks[block].max_strength


def test_rule_9_2_example_kattegat_to_the_gulf_of_finland_and_ashore() -> None:
    """9.2: "Karl XII and two regiments begin the turn aboard two Swedish fleet blocks in
    the Kattegat sea zone. For the first Swedish action, the fleets (and their cargo) move
    to the Gulf of Finland. For the second Swedish action, Karl XII and the regiments
    unload into Ingermanland, to attack the Russian forces there planning to besiege Narva."
    """
    w = world()
    put(w, "karl-xii", "kattegat", aboard="wachtmeister")
    put(w, "dalregementet", "kattegat", aboard="wattrang")
    put(w, "ostgota", "kattegat", aboard="wattrang")
    w.state.control["ingermanland"] = "sweden"
    run_action_phase(w, "sweden", [
        Sail(("Wachtmeister", "Wattrang"), "Kattegat", "Gulf of Finland"),
        Land(("Karl XII", "Dalregementet", "Östgöta"), "Gulf of Finland", "Ingermanland")])
    assert [e.data for e in w.events if e.type == "order_failed"] == []
    bs = w.state.blocks
    assert {bs[b].location for b in ("karl-xii", "dalregementet", "ostgota")} == {"ingermanland"}
    assert bs["karl-xii"].aboard is None and bs["wachtmeister"].location == "gulf-of-finland"
    assert w.state.turn.actions["sweden"] == 1
    assert bs["pyotr-i"].pinned and w.occupied_by_both("ingermanland")
    assert w.state.turn.defenders["ingermanland"] == "coalition"


def test_rule_9_1_six_zones_galleys_three_harbors_count_one() -> None:
    """9.1: "Fleet blocks may move up to six sea zones as an action (Exception: the Russian
    galley fleet may move up to only three sea zones). Entering a harbor counts as moving
    one sea zone, but leaving a harbor counts as an entire action"."""
    w = world()
    assert sail(w, "sweden", Sail(("Wachtmeister",), "Kattegat", "Svealand")) is None
    assert w.state.blocks["wachtmeister"].location == "svealand"
    w.state.blocks["wachtmeister"].moved = False
    assert sail(w, "sweden", Sail(("Wachtmeister",), "Svealand", "Gulf of Finland")) is \
        Why.HARBOR_EXIT
    assert sail(w, "sweden", Sail(("Wachtmeister",), "Svealand", "Baltic Sea")) is None
    put(w, "botsis", "north-sea")
    put(w, "wattrang", "svealand")
    assert sail(w, "coalition", Sail(("Botsis",), "North Sea", "Baltic Sea")) is \
        Why.TOO_FAR_AT_SEA
    assert sail(w, "coalition", Sail(("Botsis",), "North Sea", "Southern Baltic Sea")) is None
    assert sail(w, "sweden", Sail(("Wachtmeister",), "Baltic Sea", "Jylland")) is \
        Why.ALREADY_MOVED


def test_rule_9_1_fleets_stop_at_enemy_fleets_and_keep_out_of_enemy_harbors() -> None:
    """9.1: "Moving fleets must stop if they enter a sea zone occupied by one or more enemy
    fleet blocks ... nor may they enter enemy-controlled harbors." """
    w = world()
    put(w, "juel", "southern-baltic")
    assert sail(w, "sweden", Sail(("Wachtmeister",), "Kattegat", "Baltic Sea")) is Why.NO_PATH
    assert sail(w, "sweden", Sail(("Wattrang",), "Kattegat", "Sjælland")) is \
        Why.ENEMY_HARBOR
    assert sail(w, "sweden", Sail(("Wattrang",), "Kattegat", "Jylland")) is Why.NOT_A_HARBOR
    assert sail(w, "sweden", Sail(("Wattrang",), "Kattegat", "Portsmouth")) is Why.NOT_A_HARBOR
    assert sail(w, "sweden", Sail(("Wattrang",), "Kattegat", "Southern Baltic Sea")) is None
    assert fleet_battle_zones(w) == ["southern-baltic"]


def test_rule_9_2_loading_from_a_friendly_port_one_army_or_two_regiments() -> None:
    """9.2: loading "can only be done from a territory with a friendly port into the sea
    zone the port lies on ... Each fleet block can transport one army block or two
    regiment blocks at a time." """
    w = world()
    put(w, "karl-xii", "vastergotland")
    put(w, "dalregementet", "vastergotland")
    put(w, "ostgota", "vastergotland")
    assert embark(w, "sweden", Embark(("Karl XII", "Dalregementet"), "Västergötland",
                                      ("Wachtmeister",))) is Why.NO_ROOM
    assert embark(w, "sweden", Embark(("Karl XII", "Dalregementet", "Östgöta"),
                                      "Västergötland", ("Wachtmeister", "Wattrang"))) is None
    bs = w.state.blocks
    assert bs["karl-xii"].aboard == "wachtmeister" and bs["ostgota"].aboard == "wattrang"
    assert all(bs[b].location == "kattegat" for b in ("karl-xii", "ostgota"))
    assert land(w, "sweden", Land(("Karl XII",), "Kattegat", "Västergötland")) is \
        Why.LOADED_THIS_TURN  # "A given block may not be both loaded and unloaded"
    put(w, "repnin", "vastergotland")
    assert embark(w, "coalition", Embark(("Repnin",), "Västergötland", ("Juel",))) is \
        Why.NOT_FRIENDLY_PORT


def test_rule_9_2_no_third_regiment_aboard_one_fleet() -> None:
    """9.2: "Each fleet block can transport one army block or two regiment blocks at a
    time." Three regiments do not fit on Wachtmeister; two do."""
    w = world()
    for b in ("dalregementet", "ostgota", "elfsborg"):
        put(w, b, "vastergotland")
    assert embark(w, "sweden", Embark(("Dalregementet", "Östgöta", "Elfsborg"),
                                      "Västergötland", ("Wachtmeister",))) is Why.NO_ROOM
    assert all(w.state.blocks[b].aboard is None for b in ("dalregementet", "ostgota", "elfsborg"))
    assert embark(w, "sweden", Embark(("Dalregementet", "Östgöta"), "Västergötland",
                                      ("Wachtmeister",))) is None


def test_rule_9_2_no_loading_beside_enemy_fleets() -> None:
    """9.2: "Fleets may not load or unload army or regiment blocks if enemy fleets are
    present in the same sea zone." """
    w = world()
    put(w, "karl-xii", "vastergotland")
    put(w, "juel", "kattegat")
    assert embark(w, "sweden", Embark(("Karl XII",), "Västergötland", ("Wachtmeister",))) is \
        Why.ENEMY_FLEET_PRESENT


def test_rule_3_3_embark_and_march_from_one_territory_is_one_action() -> None:
    """3.3.2 with 9.2: "blocks in a group may split between transport and land movement"."""
    w = world()
    put(w, "karl-xii", "vastergotland")
    put(w, "dalregementet", "vastergotland")
    run_action_phase(w, "sweden", [
        Embark(("Karl XII",), "Västergötland", ("Wachtmeister",)),
        Move("Västergötland", (MoveGroup(("Dalregementet",), "Skåne"),))])
    assert w.state.turn.actions["sweden"] == 2
    assert w.state.blocks["dalregementet"].location == "skane"


def test_rule_9_3_fleet_battle_retreat_to_a_friendly_harbor_with_cargo() -> None:
    """9.3: "Any fleet block that retreats from combat is immediately placed in any
    friendly harbor ... Army or regiment blocks aboard retreating fleets are unloaded into
    the same harbor territory the fleet retreats to." After three rounds the attacker
    retreats (5.4)."""
    w = world([6] * 40)
    put(w, "karl-xii", "kattegat", aboard="wachtmeister")
    put(w, "juel", "kattegat")
    w.state.turn.defenders["kattegat"] = "coalition"
    assert fight_at_sea(w, "kattegat", lambda b, r: None) == "coalition"
    bs = w.state.blocks
    assert bs["wachtmeister"].location == "smaland" == bs["karl-xii"].location
    assert bs["karl-xii"].aboard is None


def test_rule_9_3_cargo_of_a_destroyed_fleet_is_destroyed() -> None:
    """9.3: "Blocks aboard destroyed fleets are also destroyed and placed in their owner's
    replacement pool." """
    w = world([1] * 8 + [6] * 40)
    put(w, "dalregementet", "kattegat", aboard="wachtmeister")
    put(w, "wachtmeister", "kattegat", strength=1)
    w.state.blocks["wattrang"].location = "svealand"
    put(w, "juel", "kattegat")
    w.state.turn.defenders["kattegat"] = "sweden"
    fight_at_sea(w, "kattegat", lambda b, r: None)
    assert w.state.blocks["wachtmeister"].location == POOL
    assert w.state.blocks["dalregementet"].location == POOL


def test_rule_9_3_no_friendly_harbor_left_the_fleet_is_lost() -> None:
    """9.3: "If a player has no friendly harbors left, retreating fleets are instead lost;
    set them aside ... only return them to the pool when their owner controls a harbor." """
    w = world([6] * 40)
    for h in ("sjaelland", "bergenhus"):
        w.state.control[h] = "sweden"
    put(w, "juel", "kattegat")
    w.state.turn.defenders["kattegat"] = "sweden"
    fight_at_sea(w, "kattegat", lambda b, r: None)
    assert w.state.blocks["juel"].location == ASIDE
    assert w.state.aside["juel"] == "controls-harbor:coalition"


def test_rule_9_4_harbor_captured_anchored_fleets_put_to_sea_losing_a_step() -> None:
    """9.4: "If a harbor is captured by siege, any fleets anchored there are moved into the
    adjacent sea zone, each fleet losing one strength step in the process." Anchored
    fleets do not fight on land."""
    w = world()
    put(w, "juel", "sjaelland")
    put(w, "karl-xii", "sjaelland")
    assert not w.occupied_by_both("sjaelland")
    harbor_captured(w, "sjaelland", "coalition")
    juel = w.state.blocks["juel"]
    assert juel.location == "southern-baltic"
    assert juel.strength == MODULE.board.blocks["juel"].max_strength - 1
