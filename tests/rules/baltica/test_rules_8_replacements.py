"""Replacements in the Interphase (8.1-8.8) and the Interphase's other steps (2.3, 10.1,
11.2, 11.7-11.9), on the real 12.1 board with scripted dice: each test is a rule example
of the GMT book or a sentence of its rules."""

from __future__ import annotations

from typing import Any

from gm.dice import Dice
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.orders import Build, Reform, Replace
from gm.games.baltica.rules import builds, reforms
from gm.games.baltica.rules.interphase import INTERPHASE_STEPS, run_interphase
from gm.games.baltica.rules.replacements import replacement_problem
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.siege import capture
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import EXILE, POOL, REMOVED, YEAR_TRACK, GameState, SiegeState

MODULE = BalticaModule()


def world(dice: list[int], **changes: object) -> World:
    """The 12.1 set-up in the 1701 Interphase; every pool emptied (out of the game) so each
    test puts in it what it draws from."""
    gs = GameState.from_json(MODULE.setup("12.1", {}))
    gs.year, gs.season, gs.step = 1701, "spring", "interphase"
    for bs in gs.blocks.values():
        if bs.location == POOL:
            bs.location = REMOVED
    for k, v in changes.items():
        setattr(gs, k, v)
    return World(MODULE.board, gs, Dice.scripted(dice, then_seed=True))


NO_ACTIVATION = [1, 1, 1, 1]  # 10.1: Ottomans, Ukraine, Denmark, Prussia all fail


def run(w: World, **orders: list[Any]) -> None:
    run_interphase(w, orders)


def events(w: World, type_: str) -> list[dict[str, Any]]:
    return [e.data for e in w.events if e.type == type_]


def only(w: World, *blocks: str) -> None:
    """Put ``blocks`` in their pools."""
    for b in blocks:
        w.state.blocks[b].location, w.state.blocks[b].strength = POOL, 0


def test_rule_8_1_example_denmark_loses_8_rp_levels_for_two_garrisons() -> None:
    """8.1: "Sweden has captured Åkershus and Christiansand from Denmark. Denmark's RP level
    is reduced from 16 to 8. Sweden's RP level is unaffected." Recapture regains the level;
    the Interphase hands out the reduced level."""
    w = world([], active=["sweden", "russia", "saxony", "poland", "holstein-gottorp", "denmark"])
    for t in ("akershus", "christiansand"):
        capture(w, SiegeState(t, "sweden", ["karl-xii"]))
    assert w.state.rp["denmark"] == 8 and w.state.rp["sweden"] == 40
    run(w)
    assert {"nation": "denmark", "level": 8, "rp": 8, "half": False, "bonus": 0,
            "year_track": 0, "build": 0} in events(w, "interphase_rp")
    capture(w, SiegeState("akershus", "coalition", ["august-ii"]))
    assert w.state.rp["denmark"] == 12


def test_rule_8_2_unspent_rps_are_lost_and_the_level_stays() -> None:
    """8.2: "unspent RPs are lost at the end of the Interphase"; the RP level is unchanged."""
    w = world(NO_ACTIVATION)
    run(w, sweden=[Replace("Dalregementet")])  # full strength already: nothing to pay
    assert {"nation": "sweden", "rp": 40} in events(w, "rp_lost")
    assert w.state.rp["sweden"] == 40


def test_rule_8_3_example_karl_xii_in_lietuva_costs_8_rps_in_the_interphase() -> None:
    """8.3: "During the Interphase, Karl XII is in Lietuva in Poland with a reduced strength
    of 2. The Swedish player expends 8 of his RPs and adds two steps to Karl XII."""
    w = world([])
    karl = w.state.blocks["karl-xii"]
    karl.location, karl.strength = "lietuva", 2
    run(w, sweden=[Replace("Karl XII")])
    assert karl.strength == 4
    assert {"nation": "sweden", "rp": 32} in events(w, "rp_lost")
    public = [e for e in w.events if e.type == "replacement_made"]
    assert public and all(e.visible_to is None for e in public)
    assert all(e.visible_to == frozenset({"sweden"}) for e in w.events if e.type == "replaced")


def test_rule_8_3_replace_to_a_strength_and_none_in_a_battle_territory() -> None:
    """8.3: "Blocks in a Battle territory cannot receive replacements"; ``replace B to N``
    stops at N."""
    w = world([])
    w.state.blocks["karl-xii"].strength = 1
    w.state.blocks["dalregementet"].strength = 1
    w.state.blocks["repnin"].location = "skane"  # Karl XII and Dalregementet are in Skåne
    w.state.blocks["elfsborg"].strength = 1
    run(w, sweden=[Replace("Karl XII"), Replace("Elfsborg", 2)])
    assert w.state.blocks["karl-xii"].strength == 1
    assert w.state.blocks["elfsborg"].strength == 2
    failed = events(w, "order_failed")
    assert failed[0]["code"] == Why.IN_BATTLE.name


def test_rule_8_3_fleets_only_in_harbor() -> None:
    """8.3: "Fleets may only receive replacements when anchored in a harbor. Blocks being
    transported by fleets cannot receive replacements." """
    w = world([])
    w.state.blocks["wachtmeister"].strength = 1
    assert replacement_problem(w, "wachtmeister") is Why.AT_SEA
    w.state.blocks["wachtmeister"].location = "svealand"
    assert replacement_problem(w, "wachtmeister") is None


def test_rule_8_5_example_velikaya_traces_rzhev_does_not() -> None:
    """8.5: "The main Swedish army is in Velikaya (still under Russian control). The army
    can trace a line of communications back to Livland. If the army was in Rzhev, it could
    not trace a line of communications through Russian-held Velikaya." """
    w = world([])
    w.state.control["livland"] = "sweden"
    for b in ("flemming", "august-ii"):
        w.state.blocks[b].location = "sachsen"
    karl = w.state.blocks["karl-xii"]
    karl.location, karl.strength = "velikaya", 3
    assert replacement_problem(w, "karl-xii") is None
    karl.location = "rzhev"
    assert replacement_problem(w, "karl-xii") is Why.NO_LINE


def test_rule_8_5_no_line_into_or_through_enemy_blocks() -> None:
    """8.5: "A line of communications cannot be traced into or through a territory
    containing enemy blocks, regardless of who controls the territory." The 8.5 example
    turned about: Karl XII in Rzhev, Velikaya held by Sweden; Repnin standing in Velikaya
    cuts the line, wherever else he goes it is open again."""
    w = world([])
    w.state.control.update({"livland": "sweden", "velikaya": "sweden", "rzhev": "sweden"})
    for b in ("flemming", "august-ii"):
        w.state.blocks[b].location = "sachsen"
    karl = w.state.blocks["karl-xii"]
    karl.location, karl.strength = "rzhev", 3
    assert replacement_problem(w, "karl-xii") is None
    w.state.blocks["repnin"].location = "velikaya"
    assert replacement_problem(w, "karl-xii") is Why.NO_LINE
    w.state.blocks["repnin"].location = "novgorod"
    assert replacement_problem(w, "karl-xii") is None


def test_rule_8_5_a_line_across_a_sea_zone_through_own_fleets() -> None:
    """8.5: "A line of communications can be traced across a sea zone if the line is traced
    from or through a territory with a friendly port, through a sea zone occupied by fleets
    of the same nationality, to a friendly national territory with a port." """
    w = world([])
    karl = w.state.blocks["karl-xii"]
    karl.location, karl.strength = "pomorze", 3  # a Polish port Sweden has captured
    w.state.control["pomorze"] = "sweden"
    for b in ("flemming", "august-ii"):  # the way home by land is cut
        w.state.blocks[b].location = "pommern"
    w.state.blocks["pyotr-i"].location = "livland"
    sea = MODULE.board.territories["pomorze"].sea
    assert sea == "baltic-sea" and "smaland" in MODULE.board.ports_on(sea)
    assert replacement_problem(w, "karl-xii") is Why.NO_LINE  # the fleets are elsewhere
    w.state.blocks["wachtmeister"].location = sea
    assert replacement_problem(w, "karl-xii") is None
    w.state.control["pomorze"] = "poland"  # not from an enemy port
    assert replacement_problem(w, "karl-xii") is Why.NO_LINE


def test_rule_8_6_example_saxony_builds_schulenburg_and_loses_2_rps() -> None:
    """8.6: "Saxony starts the Interphase with 12 RPs. The Coalition player draws an army
    block, Schulenburg, and pays 4 RPs for the first step. She decides to pay 6 more RPs to
    add the remaining three steps, and deploys Schulenburg in Lausitz. She chooses to draw
    another block, and gets the Lubomirski Polish army. Unfortunately, with only 2 RPs left
    she cannot afford the first step of the army; it is returned to the Saxon replacement
    pool and the 2 RPs are lost." """
    w = world([*NO_ACTIVATION, 2], rp={**world([]).state.rp, "saxony": 12})
    only(w, "lubomirski", "schulenburg")  # pool in id order: Lubomirski, Schulenburg
    run(w, coalition=[Build("Saxony", 2, ("Lausitz",))])
    s = w.state.blocks["schulenburg"]
    assert (s.location, s.strength) == ("lausitz", 4)
    assert w.state.blocks["lubomirski"].location == POOL
    assert {"nation": "saxony", "block": "Lubomirski", "cost": 4, "lost": 2} in events(
        w, "build_unaffordable")
    # The draw is the owner's secret; Sweden learns a Saxon block now stands in Lausitz.
    for e in w.events:
        if e.type in ("built", "build_unaffordable"):
            assert e.visible_to == frozenset({"coalition"})
    assert [e.data for e in w.events if e.type == "block_built" and e.visible_to is None] == [
        {"power": "coalition", "nation": "saxony", "territory": "Lausitz"}]
    assert all(r.visible_to == frozenset({"coalition"}) for r in w.dice.rolls
               if "build" in r.purpose)


def test_rule_8_6_a_build_strength_and_on_map_replacements_first() -> None:
    """8.2: "On-map replacements must be taken first, and then new blocks may be built";
    ``strength 1`` pays the first step only."""
    w = world(NO_ACTIVATION, rp={**world([]).state.rp, "saxony": 6})
    w.state.blocks["flemming"].location, w.state.blocks["flemming"].strength = "lausitz", 3
    only(w, "schulenburg")
    run(w, coalition=[Build("Saxony", 1, (), 1), Replace("Flemming")])
    assert w.state.blocks["flemming"].strength == 4  # 2 RPs first
    assert (w.state.blocks["schulenburg"].location, w.state.blocks["schulenburg"].strength) == (
        "sachsen", 1)


def test_rule_8_7_no_deployment_into_enemy_blocks_and_red_dot_fallbacks() -> None:
    """8.7: "New blocks cannot be deployed into enemy-occupied or enemy-garrisoned
    territories"; 11.1: Estländska deploys in Estland, "if enemy-occupied ... in Sweden
    proper instead"; 11.10: Holstein-Gottorp's block "cannot be built" if its territory is
    enemy controlled or occupied."""
    w = world([])
    w.state.blocks["repnin"].location = "estland"
    w.state.blocks["vellinck"].location = "livland"
    w.state.blocks["estlandska"].location = "livland"
    assert "estland" not in builds.deploy_places(w, "estlandska")
    assert set(builds.deploy_places(w, "estlandska")) <= set(MODULE.board.region("sweden-proper"))
    w.state.blocks["repnin"].location = "novgorod"
    assert builds.deploy_places(w, "estlandska") == ["estland"]
    w.state.control["holstein-gottorp"] = "denmark"
    assert builds.deploy_places(w, "friedrich-iv") == []
    assert builds.deploy_places(w, "lubomirski")[0] == "malopolska"
    assert set(builds.deploy_places(w, "schulenburg")) == {"sachsen", "lausitz"}


def test_rule_8_7_a_block_that_cannot_deploy_returns_and_its_rps_are_lost() -> None:
    """8.7: "If a block cannot be deployed because all potential deployment territories are
    occupied or garrisoned by the enemy, the block is returned to the replacement pool and
    any RPs spent on it are lost." """
    w = world(NO_ACTIVATION, rp={**world([]).state.rp, "sweden": 4})
    w.state.control["holstein-gottorp"] = "denmark"
    only(w, "friedrich-iv")
    run(w, sweden=[Build("Sweden", 1)])
    assert w.state.blocks["friedrich-iv"].location == POOL
    assert events(w, "build_undeployable")[0]["block"] == "Friedrich IV"


def test_rule_8_8_example_event_rps_do_not_change_the_level() -> None:
    """8.8: "Sweden rolls an event that provides 8 extra RPs in the next Interphase ... the
    RP level remains the same"; 12.4 #1 halves the RPs of one Interphase only."""
    w = world(NO_ACTIVATION, interphase_due=[{"what": "rp_bonus", "nation": "sweden", "rp": 8},
                                  {"what": "rp_half", "nation": "russia"}])
    run(w)
    got = {d["nation"]: d for d in events(w, "interphase_rp")}
    assert got["sweden"]["rp"] == 48 and got["sweden"]["level"] == 40
    assert got["russia"]["rp"] == w.state.rp["russia"] // 2
    assert w.state.rp["sweden"] == 40 and w.state.interphase_due == []


def test_default_spending_reinforces_then_builds_at_full_strength() -> None:
    """docs/baltica.md: no spending orders: on-map steps by the default rank, then draws
    built to full strength while a first step can be paid."""
    w = world(NO_ACTIVATION, rp={**world([]).state.rp, "sweden": 9})
    w.state.blocks["karl-xii"].strength = 3
    only(w, "sodermanland")
    run(w)
    assert w.state.blocks["karl-xii"].strength == 4
    assert w.state.blocks["sodermanland"].location in MODULE.board.region("sweden-proper")


def test_rule_8_2_without_orders_royal_blocks_are_reinforced_first() -> None:
    """8.2: "RPs are received at the start of every Interphase; unspent RPs are lost at the
    end of the Interphase." With no spending order the GM spends them (docs/baltica.md,
    the default): "royal blocks, then armies, then the block missing most steps". Two
    RPs, one army step: Karl XII (3 of 4) before Rehnskiöld (2 of 4)."""
    w = world(NO_ACTIVATION, rp={**world([]).state.rp, "sweden": 2})
    w.state.blocks["karl-xii"].strength = 3
    rehnskiold = w.state.blocks["rehnskiold"]
    rehnskiold.location, rehnskiold.strength = "skane", 2
    run(w)
    assert (w.state.blocks["karl-xii"].strength, rehnskiold.strength) == (4, 2)


def test_rule_10_1_activation_with_section_11_modifiers() -> None:
    """10.1: "on a 6, that nation becomes active"; 11.6: Ottomans +1 with Karl XII in
    Ukraine; 11.8 Ukraine +2 (and Russia's RP level -8); 11.4 Denmark; 11.7 Prussia -1."""
    w = world([5, 4, 6, 6])  # Ottomans 5+1, Ukraine 4+2, Denmark 6, Prussia 6-1
    w.state.blocks["karl-xii"].location = "poltava"
    only(w, "mazepa")
    russia = w.state.rp["russia"]
    run(w)
    rolls = {d["nation"]: (d["roll"], d["modifier"], d["success"]) for d in events(
        w, "activation_roll")}
    assert rolls == {"ottoman": (5, 1, True), "ukraine": (4, 2, True), "denmark": (6, 0, True),
                     "prussia": (6, -1, False)}
    assert {"ottoman", "ukraine", "denmark"} <= set(w.state.active)
    assert "prussia" not in w.state.active
    assert w.state.rp["russia"] == russia - 8
    assert w.state.blocks["mazepa"].location == "sivershchyna"  # 11.8: deployed at once


def test_rule_12_4_special_envoy_ally_enters_in_the_interphase() -> None:
    """12.4 #3: "the target nation enters the war during the next Interphase"."""
    w = world([1, 1, 1], interphase_due=[{"what": "activate", "nation": "denmark"}])
    run(w)
    assert "denmark" in w.state.active
    assert "denmark" not in [d["nation"] for d in events(w, "activation_roll")]


def test_rule_11_7_prussia_is_restored_without_rps() -> None:
    """11.7: "The Prussian block does not use RPs; it is restored to full strength during
    the Interphase if it has a line of communication to any friendly territory in
    Prussia." """
    w = world([1, 1, 1, 1], active=[*world([]).state.active, "prussia"])
    w.state.blocks["prussia"].location, w.state.blocks["prussia"].strength = "pomorze", 1
    run(w)
    assert w.state.blocks["prussia"].strength == MODULE.board.blocks["prussia"].max_strength


def test_rule_11_2_the_year_track_names_a_waiting_army_to_its_owner_only() -> None:
    """11.2: the Year Track is public as counts per year; the Coalition sees which army
    waits there, Sweden (and a spectator) a "?" in that year."""
    w = world([])
    w.state.blocks["repnin-reformed"].location = YEAR_TRACK
    w.state.year_track = {"repnin-reformed": 1703}
    state = w.state.to_json()
    name = MODULE.board.blocks["repnin-reformed"].name
    assert MODULE.view(state, "coalition")["year_track"] == {"1703": [name]}
    assert MODULE.view(state, "sweden")["year_track"] == {"1703": ["?"]}
    assert MODULE.public_view(state)["year_track"] == {"1703": ["?"]}


def test_rule_11_2_reform_the_year_track_and_the_rp_loss() -> None:
    """11.2: reform is triggered by a Russian army eliminated in battle; "Remove the original
    Russian army block from the game ... place it in any Year box without a Russian block
    already in it, at least two years ahead"; "Russia loses 4 RPs for each Russian army
    block remaining on the Year Track (but do not adjust the Russian RP level)"; at the
    Interphase of its year the army goes to the pool."""
    w = world([1, 1, 1, 1])
    run(w, coalition=[Reform("Repnin")])
    assert events(w, "order_failed")[0]["code"] == Why.REFORM_NOT_OPEN.name
    from gm.games.baltica.rules.losses import eliminate

    eliminate(w, "sheremetev")
    assert w.state.reform_open
    w = World(MODULE.board, w.state, Dice.scripted([1, 1, 1, 1]))
    w.events.clear()
    level = w.state.rp["russia"]
    run(w, coalition=[Reform("Repnin")])
    assert w.state.blocks["repnin"].location == REMOVED
    assert w.state.blocks["repnin-reformed"].location == YEAR_TRACK
    assert w.state.year_track == {"repnin-reformed": 1703}
    got = {d["nation"]: d for d in events(w, "interphase_rp")}["russia"]
    assert (got["level"], got["year_track"]) == (level, 4) and w.state.rp["russia"] == level
    assert [e.visible_to for e in w.events if e.type == "reformed"] == [frozenset({"coalition"})]
    # 1703: the reformed Repnin arrives in the pool.
    w.state.year = 1703
    w = World(MODULE.board, w.state, Dice.scripted([1, 1, 1, 1], then_seed=True))
    run(w, coalition=[Build("Russia", 0)])
    assert w.state.blocks["repnin-reformed"].location == POOL and w.state.year_track == {}


def test_rule_11_2_nyen_becomes_sankt_peterburg() -> None:
    """11.2: "If Russia captures Nyen, immediately place the two Russian fleet blocks on the
    Year Track two years ahead." "If the Russian fleets are in the current Year box at the
    start of the Interphase, Nyen is converted into Sankt-Peterburg, a 4-strength harbor.
    Add the Russian fleets to the Russian replacement pool." """
    w = world(NO_ACTIVATION)
    capture(w, SiegeState("nyen", "coalition", ["pyotr-i"]))
    fleets = reforms.russian_fleets(w)
    assert fleets and all(w.state.year_track[f] == 1703 for f in fleets)
    w.state.year = 1703
    w = World(MODULE.board, w.state, Dice.scripted([1, 1, 1, 1], then_seed=True))
    run(w, coalition=[Build("Russia", 0)])
    assert all(w.state.blocks[f].location == POOL for f in fleets)
    assert w.harbor("nyen") and w.garrison_value("nyen") == 4
    assert builds.deploy_places(w, fleets[0]) == ["nyen"]


def test_rule_2_3_the_night_rider_returns_on_6_then_5() -> None:
    """2.3: "Beginning with the next Interphase, roll a die. On a roll of 6, deploy the Karl
    XII block at full strength in any territory in Sweden proper containing no enemy
    blocks. If the roll fails, roll again in the following Interphase; he now arrives on a
    5 or 6." """
    w = world([5, 1, 1, 1, 1])
    w.state.blocks["karl-xii"].location, w.state.blocks["karl-xii"].strength = EXILE, 0
    run(w)
    assert events(w, "night_rider_roll") == [{"roll": 5, "needs": 6, "success": False}]
    w = World(MODULE.board, w.state, Dice.scripted([5, 1, 1, 1, 1]))
    run(w, sweden=[Build("Sweden", 0, ("Skåne",))])
    assert events(w, "night_rider_roll") == [{"roll": 5, "needs": 5, "success": True}]
    karl = w.state.blocks["karl-xii"]
    assert (karl.location, karl.strength) == ("skane", 4)


def test_the_sub_steps_run_in_the_rulebook_order() -> None:
    """0.3 and 11.2: the Year Track and reforms at the start; activation (10.1) before
    replacements (8.0)."""
    ids = [s.id for s in INTERPHASE_STEPS]
    assert ids.index("reform") < ids.index("year-track") < ids.index("activation") < ids.index(
        "spending")
