"""The section 11 rules that fire on triggers (GMT 2012 11.1, 11.5, 11.6, 11.8, 11.9,
11.11): checked at the end of every phase (:func:`end_of_phase_triggers`, before the
truces), in the Interphase (:func:`christian_solidarity_choice`, :func:`austro_turkish_war`,
:func:`british_fleet_interphase`)
or when the Swedish player cedes a territory (:func:`cede`).

Which territories and blocks they name is data (nations.toml, map.toml); the numbers
are the rule book's, next to the rule they come from.
"""

from __future__ import annotations

from gm.games.baltica.rules import activation, attrition, entry_3cg
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.truce import evict, impose_truce
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import ASIDE, OFF_MAP, POOL
from gm.i18n import msg

CESSIONS = {"bremen-verden": "hannover", "pommern": "prussia"}  # 11.1
SOLIDARITY = ("russia", "saxony")  # 11.6: "Russia and Saxony are immediately activated"
MAZEPA, BRITISH_FLEET, HANNOVER = "mazepa", "british-fleet", "hannover"
PORTSMOUTH = "portsmouth"  # 11.11: "The British Fleet block always starts in Portsmouth"


def end_of_phase_triggers(world: World) -> None:
    """The section 11 triggers, in rule order, at the end of every phase (and the 3CG
    entries of Poland, 3CG 9.5, 10.4)."""
    attrition.check_track(world)  # 11.1, 11.9
    entry_3cg.nations_join(world)
    polish_capitals(world)
    christian_solidarity(world)
    ukraine_pacification(world)
    hannover_joins(world)
    britain_joins_on_invasion(world)


def invaded(world: World, territories: tuple[str, ...] | list[str]) -> bool:
    """"The Coalition invades" (11.9, 11.11): Coalition blocks moved or landed into one of
    ``territories`` this turn (blocks standing there since the set-up do not invade)."""
    return any(world.state.blocks[b].moved for t in territories
               for b in world.enemy_blocks("sweden", t))


# -- 11.1 Sweden: concessions ---------------------------------------------------------
def cede_problem(world: World, territory: str, nation: str | None) -> Why | None:
    """11.1: only Bremen-Verden to Hannover and Pommern to Prussia, once, while Sweden
    holds the garrison (interpretation: it cannot give what the enemy holds)."""
    if CESSIONS.get(territory) != nation or territory in world.state.ceded:
        return Why.NOT_A_CESSION
    if not world.controlled_by(territory, "sweden"):
        return Why.NOT_HELD
    return None


def cede(world: World, territory: str, nation: str | None) -> Why | None:
    """11.1: "The Swedish player may at any time cede the territories of Bremen-Verden to
    Hannover and/or Pommern to Prussia. Each territory ceded reduces Sweden's RP level by
    4, but renders the receiving nation permanently inactive." The territory becomes the
    receiving nation's (prohibited, 4.5); blocks in it leave as from a nation under truce
    (10.2); an active receiving nation's block goes to its pool."""
    why = cede_problem(world, territory, nation)
    if why is not None:
        return why
    assert nation is not None  # cede_problem refuses an unknown nation
    gs = world.state
    gs.ceded[territory] = nation
    gs.control[territory] = nation
    gs.rp["sweden"] = max(0, gs.rp.get("sweden", 0) - world.board.limits.rp_per_ceded_territory)
    if nation not in gs.permanently_inactive:
        gs.permanently_inactive.append(nation)
    world.emit("ceded", territory=world.tname(territory), nation=nation,
               rp=gs.rp["sweden"])
    if nation in gs.active:
        gs.active.remove(nation)
        for b, bs in gs.blocks.items():
            if world.spec(b).nation == nation and bs.location not in OFF_MAP:
                bs.location, bs.strength = POOL, 0
        world.emit("nation_deactivated", nation=nation, cause="ceded")
    evict(world, [territory])
    return None


# -- 11.5 Poland: the capitals --------------------------------------------------------
def polish_capitals(world: World) -> None:
    """11.5: "If at any time both capitals are lost, reduce Saxony's RP level by 4 and
    return any Polish blocks on the map to the Saxon replacement pool (they may be rebuilt
    normally). If Saxony regains both capitals, restore the lost RP level." Lost: the
    Swedish side holds both garrisons. (3CG 10.4 replaces it: :mod:`.entry_3cg`.)"""
    gs = world.state
    if world.board.nations["poland"].activation.get("allies_with_capturer_of_both_capitals"):
        return
    capitals = [t for t in world.board.nation_territories("poland")
                if world.board.territories[t].capital]
    if not capitals or "saxony" not in gs.rp:
        return
    lost = all(world.controlled_by(t, "sweden") for t in capitals)
    held = all(world.controlled_by(t, "coalition") for t in capitals)
    if lost and not gs.polish_capitals_lost:
        gs.polish_capitals_lost = True
        gs.rp["saxony"] = max(0, gs.rp["saxony"] - world.board.limits.rp_polish_capitals)
        world.emit("polish_capitals_lost", rp=gs.rp["saxony"])
        polish = [b for b, bs in gs.blocks.items()
                  if world.spec(b).nation == "poland" and bs.location not in OFF_MAP]
        for b in polish:
            gs.blocks[b].location, gs.blocks[b].strength = POOL, 0
        if polish:
            world.emit("sent_to_pool_count", power="coalition", cause="polish_capitals",
                       count=len(polish))
    elif held and gs.polish_capitals_lost:
        gs.polish_capitals_lost = False
        gs.rp["saxony"] += world.board.limits.rp_polish_capitals
        world.emit("polish_capitals_regained", rp=gs.rp["saxony"])


# -- 11.6 Ottoman Empire --------------------------------------------------------------
def ottomans_in_poland(world: World) -> bool:
    """11.6: Ottoman blocks in a territory of Poland."""
    poland = set(world.board.nation_territories("poland"))
    return any(world.spec(b).nation == "ottoman" and bs.location in poland
               for b, bs in world.state.blocks.items())


def christian_solidarity(world: World) -> None:
    """11.6: "If the Ottomans invade Poland, Russia and Saxony are immediately activated if
    not already active." (A nation under truce waits for the Interphase choice, 11.6.)
    3CG 10.2, 10.3: "If Russia [Saxony] is out of the game due to a truce, it is
    automatically activated if Poland is attacked by Turkey" (reading "activates")."""
    gs = world.state
    if not ottomans_in_poland(world):
        return
    at_once = world.reading("solidarity_under_truce") == "activates"  # 3CG 10.2, 10.3
    for nation in SOLIDARITY:
        if nation not in gs.active and (at_once or nation not in gs.truces):
            activation.activate(world, nation, "3CG 10.2" if nation in gs.truces else "11.6")


def solidarity_under_truce(world: World) -> list[str]:
    """11.6: "if Ottoman blocks are in Poland while Saxony or Russia are under truce":
    those of them under truce (none when the choice is not in question)."""
    if not ottomans_in_poland(world):
        return []
    return [n for n in SOLIDARITY if n in world.state.truces]


def solidarity_problem(world: World, power: str, nation: str | None) -> Why | None:
    """Why ``power``'s ``solidarity`` order is refused as it arrives (11.6), or None;
    whether the choice is in question is seen in the Interphase (a truce offer may
    bring it about)."""
    if power != "sweden":
        return Why.SWEDEN_CHOOSES_SOLIDARITY
    if nation is not None and nation not in SOLIDARITY:
        return Why.NOT_SOLIDARITY_NATION
    return None


def christian_solidarity_choice(world: World, reactivate: str | None, chosen: bool) -> None:
    """11.6: "During the Interphase, if Ottoman blocks are in Poland while Saxony or Russia
    are under truce, the Swedish player must choose either to impose truce on the Ottomans
    as well, or allow Saxony or Russia to reactivate immediately."

    ``reactivate``: the nation Sweden lets reactivate (None: the truce). Default, with no
    order or one naming a nation not under truce: the truce on the Ottomans.
    """
    under = solidarity_under_truce(world)
    if not under:
        return
    if reactivate in under:
        world.emit("christian_solidarity", choice="reactivate", nation=reactivate,
                   default=False)
        activation.activate(world, reactivate, "11.6")
        return
    world.emit("christian_solidarity", choice="truce", nation="ottoman",
               default=not chosen or reactivate is not None)
    impose_truce(world, "ottoman", "christian_solidarity")


def austro_turkish_war(world: World) -> None:
    """11.6: "While the Ottomans are active, roll each following Interphase for the start
    of the Austro-Turkish War, which occurs on a 6. If it occurs, a truce is imposed on
    the Ottomans immediately (10.2)." (Interphase sub-step; "following": not in the
    Interphase in which they entered the war; the 6 is tables.toml
    ``limits.austro_turkish_war_needs``.) Not a 3CG rule (reading "none"): 3CG 10.5
    removes the Turks from 1716 instead."""
    if world.reading("austro_turkish_war") == "none":
        return
    if "ottoman" not in world.state.active or any(
            e.type == "nation_activated" and e.data.get("nation") == "ottoman"
            for e in world.events):
        return
    roll = world.dice.d6(msg("Austro-Turkish War (11.6)"))
    war = roll >= world.board.limits.austro_turkish_war_needs
    world.emit("austro_turkish_war", roll=roll, war=war)
    if war:
        impose_truce(world, "ottoman", "austro_turkish_war")


# -- 11.8 Ukraine ---------------------------------------------------------------------
def ukraine_pacification(world: World) -> None:
    """11.8: "Ukraine rejoins Russia at the end of the phase when the Mazepa block is
    eliminated or Baturyn is captured by Russian siege. Russia regains its lost 8 RPs and
    the Mazepa block is set aside. Ukraine may be activated again by the procedure used
    above." (The triggers are noted by losses.py and siege.py in ``world.triggers``.)

    The RPs regained are those the activation took (nations.toml ukraine
    ``activation.rp_loss`` to ``rp_loss_to``, 11.8: "Reduce Russia's RP level by 8"), so the
    8 is written once; the 3CG activation takes none (3CG 10.7: "Adjust Russian RP's
    thereafter"), so none come back."""
    gs = world.state
    triggers = {"mazepa-eliminated"}
    if world.reading("ukraine_rejoins") != "mazepa":  # 3CG 10.7: "as soon as the Mazepa
        triggers.add("baturyn-captured")  # block is killed" (no word of Baturyn)
    if "ukraine" not in gs.active or not world.triggers & triggers:
        return
    gs.active.remove("ukraine")
    act = world.board.nations["ukraine"].activation
    loser = act.get("rp_loss_to")
    if loser in gs.rp:
        gs.rp[loser] += int(act.get("rp_loss", 0))
    mazepa = gs.blocks.get(MAZEPA)
    if mazepa is not None:
        mazepa.location, mazepa.strength, mazepa.aboard = ASIDE, 0, None
    world.emit("ukraine_pacified", rp=gs.rp.get("russia"))


# -- 11.9 Hannover --------------------------------------------------------------------
def hannover_joins(world: World) -> None:
    """11.9: "Hannover begins the game inactive, but automatically becomes a Swedish ally if
    the Coalition invades Holstein-Gottorp; immediately place the Hannoverian block in
    Hannover." Not once it has defected or been made permanently inactive (11.1)."""
    gs = world.state
    if (HANNOVER in gs.active or HANNOVER in gs.permanently_inactive
            or HANNOVER in gs.truces or HANNOVER in gs.defected):
        return
    hannover = world.board.nations.get(HANNOVER)
    until = hannover.activation.get("trigger_until_year") if hannover else None
    if until is not None and gs.year > int(until):  # 3CG 9.9: "during 1700-1710"
        return
    if not invaded(world, world.board.nation_territories("holstein-gottorp")):
        return
    activation.activate(world, HANNOVER, "11.9")
    block = gs.blocks.get(HANNOVER)
    if block is not None and block.location == POOL:
        block.location, block.strength = HANNOVER, world.spec(HANNOVER).max_strength
        world.emit("placed", block=world.name(HANNOVER), territory=world.tname(HANNOVER))


# -- 11.11 Great Britain --------------------------------------------------------------
def fleets_at_sea(world: World, power: str) -> int:
    """Fleet blocks of ``power`` at sea (not anchored, not in Portsmouth)."""
    return sum(1 for b, bs in world.state.blocks.items()
               if not world.ground(b) and world.power_of(b) == power
               and bs.location in world.board.seas)


def _activate_britain(world: World, why: str) -> None:
    gs = world.state
    if "britain" in gs.active or ("britain" in gs.truces
                                  and not activation.may_reactivate(world, "britain")):
        return
    activation.activate(world, "britain", why)
    fleet = gs.blocks.get(BRITISH_FLEET)
    if fleet is not None:  # "always starts in Portsmouth at full strength"
        fleet.location, fleet.strength = PORTSMOUTH, world.spec(BRITISH_FLEET).max_strength
        fleet.aboard = None
        world.emit("placed", block=world.name(BRITISH_FLEET), territory=world.tname(PORTSMOUTH))


def britain_joins_on_invasion(world: World) -> None:
    """11.11: the British fleet activates "immediately when the Coalition invades Sweden
    proper". (The 3CG rules instead: :mod:`.britain_3cg`.)"""
    from gm.games.baltica.rules import britain_3cg

    if britain_3cg.in_force(world):
        britain_3cg.british_warship(world)
        return
    if invaded(world, world.board.nations["sweden"].proper):
        _activate_britain(world, "11.11")


def british_fleet_interphase(world: World) -> None:
    """11.11 in the Interphase: it activates if "the Coalition player has more fleet blocks
    at sea than Sweden"; it "is removed from the map if ... the Swedish player has more
    fleet blocks (including the British fleet) at sea than the Coalition and there are no
    Coalition blocks in Sweden proper. It remains available for later activation".
    (Not in the 3CG rules: :mod:`.britain_3cg`, at the end of every phase.)"""
    from gm.games.baltica.rules import britain_3cg

    if britain_3cg.in_force(world):
        return
    gs = world.state
    sweden, coalition = fleets_at_sea(world, "sweden"), fleets_at_sea(world, "coalition")
    if "britain" not in gs.active:
        if coalition > sweden:
            _activate_britain(world, "11.11")
        return
    invaded = any(world.enemy_blocks("sweden", t) for t in world.board.nations["sweden"].proper)
    if sweden > coalition and not invaded:
        gs.active.remove("britain")
        fleet = gs.blocks.get(BRITISH_FLEET)
        if fleet is not None:
            fleet.location, fleet.strength, fleet.aboard = POOL, 0, None
        world.emit("nation_deactivated", nation="britain", cause="british_fleet_withdrawn")

