"""The 3CG v1.1 event tables (ruleset "3cg-1.1"): the General Events Table (3CG 14.1)
and the National Events Table (3CG 14.2), which replace the GMT tables 12.1-12.4.

The rows (numbers, nations, years) are data in ``rulesets/3cg-1.1.toml``; the effects
are here, keyed by the row's ``id``, reusing the GMT helpers of :mod:`.event_effects`.
3CG 6.8: "Blocks can only be eliminated due to Combat or Force-Marching": no event
eliminates a block (:func:`event_loss`, :func:`desert`).

Choices the rules leave to a player are standing orders (docs/baltica.md, "The 3CG
ruleset"): ``politics NATION target N`` names the nation a Diplomacy result truces,
``reinforce`` the blocks that take new steps first, ``hits prefer`` the blocks that
lose deserting steps first and the block lent out of the pool first.
"""

from __future__ import annotations

from typing import Any

from gm.games.baltica.board import BlockKind
from gm.games.baltica.rules.event_effects import (
    Choices,
    cossack_betrayal,
    cossacks_go_home,
    deactivate,
    due,
    event_loss,
    pool_of,
    row,
    set_aside,
)
from gm.games.baltica.rules.truce import call_truce, truce_possible
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import other_power
from gm.i18n import msg, name

NATIONAL_TABLE = "national_events_{}"


def national_table(world: World, nation: str | None) -> str | None:
    """The 3CG National Events Table of ``nation`` (14.2), None if the ruleset or the
    nation has none (the GMT rules use the National Politics Table 12.4)."""
    if nation is None:
        return None
    table = NATIONAL_TABLE.format(nation)
    return table if table in world.board.tables else None


# -- 14.1 General Events Table ----------------------------------------------------------


def plague(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """14.1 #1: "Plague. All blocks lose 1 step. No blocks may be eliminated." """
    event_loss(world, [b for b in world.state.blocks if world.state.on_map(b)], 1, r["id"])


def attrition_region(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """14.1 #3: "Attrition. Roll 1D6 for region. All enemy blocks in that area lose 1 step.
    No blocks may be eliminated." (Enemy: of the player who rolled the event.)"""
    roll = world.dice.d6(msg("attrition region"))
    region = row(world, "epidemic_regions", roll)
    places = {t for reg in region["regions"] for t in world.board.region(reg)}
    world.emit("epidemic", roll=roll, region=name(region["name"], fr=region["name_fr"]))
    enemy = other_power(power)
    event_loss(world, [b for b, bs in world.state.blocks.items()
                       if bs.location in places and world.power_of(b) == enemy], 1, r["id"])


def homeland_blocks(world: World, nation: str) -> list[str]:
    """14.1 #4: ``nation``'s blocks in its native homeland (its own territories) that may
    take a step: armies and regiments, warships only "if they are anchored in a harbour"."""
    home = set(world.board.nation_territories(nation))
    out = []
    for b, bs in sorted(world.state.blocks.items()):
        spec = world.spec(b)
        if spec.nation != nation or bs.location not in home or bs.strength >= spec.max_strength:
            continue
        if spec.kind is BlockKind.FLEET and not world.harbor(bs.location):
            continue
        out.append(b)
    return out


def add_steps(world: World, power: str, blocks: list[str], steps: int, prefer: tuple[str, ...],
              cause: str) -> int:
    """Add ``steps`` single steps to ``blocks`` (never above full strength): the owner's
    ``reinforce`` list first, then always the weakest block (then by id). Returns the
    steps that found no block (lost). The owner learns which blocks, the other player
    how many steps."""
    gained: dict[str, int] = {}
    left = steps
    while left > 0:
        room = [b for b in blocks
                if world.state.blocks[b].strength < world.spec(b).max_strength]
        if not room:
            break
        first = [b for b in prefer if b in room]
        b = first[0] if first else min(room, key=lambda x: (world.state.blocks[x].strength, x))
        world.state.blocks[b].strength += 1
        gained[b] = gained.get(b, 0) + 1
        left -= 1
    if gained:
        world.emit("steps_gained", [power], cause=cause,
                   blocks=[{"block": world.name(b), "steps": n,
                            "strength": world.state.blocks[b].strength}
                           for b, n in sorted(gained.items())])
    world.emit("steps_gained_count", None, power=power, cause=cause, steps=steps - left)
    return left


def excellent_recruitment(world: World, power: str, r: dict[str, Any],
                          choices: Choices) -> None:
    """14.1 #4: "Excellent recruitment times. All countries roll 1D6 and gain as many steps
    as the die shows. Steps must be applied in the native homeland and do not include
    warships (unless they are anchored in a harbour (8.3))." Every nation at war with a
    block there that can take a step rolls, in data order; the roller's ``reinforce``
    list chooses among its blocks, the rest go to the weakest first."""
    for nation in world.board.nations:
        if nation not in world.state.active:
            continue
        blocks = homeland_blocks(world, nation)
        if not blocks:
            continue
        owner = world.power_of_nation(nation)
        steps = world.dice.d6(msg("excellent recruitment {nation}", nation=world.said(nation)))
        world.emit("recruitment_roll", nation=nation, roll=steps)
        prefer = choices.reinforce if owner == power else ()
        add_steps(world, owner, blocks, steps, prefer, r["id"])


def national_events(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """14.1 #5 and #6: "Roll on National Events Table. (If allied, roll for each country)."
    Sweden rolls for Sweden; the Coalition for each of its nations at war that has a
    table (Denmark, Russia, Saxony), in data order."""
    nations = [n for n in world.board.nations
               if world.power_of_nation(n) == power and n in world.state.active
               and national_table(world, n) is not None]
    if not nations:
        world.emit("no_effect", power=power, result=r["id"], reason="no_major")
        return
    for nation in nations:
        national_event(world, power, nation, choices)


# -- 14.2 National Events Table ----------------------------------------------------------


def national_event(world: World, power: str, nation: str, choices: Choices) -> None:
    """14.2: roll one die on ``nation``'s National Events Table (by event, 14.1 #5/#6, or
    by action, 3.44). "A result on the National Event table can only be applied once
    within the same year. Disregard any roll that already applies." """
    table = national_table(world, nation)
    assert table is not None
    roll = world.dice.d6(msg("national events {nation}", nation=world.said(nation)))
    r = row(world, table, roll)
    world.emit("event_rolled", power=power, table=table, roll=roll, result=r["id"],
               nation=nation)
    key = f"{world.state.year}:{nation}:{roll}"
    if key in world.state.national_events:
        world.emit("no_effect", power=power, result=r["id"], reason="already_this_year")
        return
    world.state.national_events.append(key)
    NATIONAL_EFFECTS[r["id"]](world, power, nation, r, choices)


def bad_harvest(world: World, power: str, nation: str, r: dict[str, Any],
                choices: Choices) -> None:
    """14.2 #1 (every nation): "Bad harvest. Replacement Points (hereafter RP) are halved
    during the next year." (The next Interphase's RPs, rounded down, as 12.4 #1.)"""
    due(world, "rp_half", nation)


def rp_next_year(world: World, power: str, nation: str, r: dict[str, Any],
                 choices: Choices) -> None:
    """14.2: "Results in a 8 RP loss during the next year" (Sweden #2), "4 lost RP's"
    (Denmark #2, #3), "Increase RP's with 8/4 during next year" (#5, #6): the next
    Interphase's RPs change by the row's ``rp`` (never below 0, 8.8)."""
    due(world, "rp_bonus", nation, rp=int(r["rp"]))


def desert(world: World, power: str, nation: str, r: dict[str, Any],
           choices: Choices) -> None:
    """14.2 Sweden #3, Saxony #4: "Discontent with the King and the war. 2 steps deserts
    from any blocks." The owner's ``hits prefer`` list first, then the strongest block
    (then by id), one step at a time; never a block's last step (3CG 6.8)."""
    prefer = world.prefer.get(power, [])
    lost: dict[str, int] = {}
    for _ in range(int(r["steps"])):
        able = [b for b, bs in world.state.blocks.items()
                if world.spec(b).nation == nation and world.state.on_map(b)
                and world.ground(b) and bs.strength > 1]
        if not able:
            break
        first = [b for b in prefer if b in able]
        b = first[0] if first else min(able, key=lambda x: (-world.state.blocks[x].strength, x))
        world.state.blocks[b].strength -= 1
        lost[b] = lost.get(b, 0) + 1
    if not lost:
        world.emit("no_effect", power=power, result=r["id"], reason="no_block_in_play")
        return
    by_place: dict[str, list[str]] = {}
    for b in sorted(lost):
        by_place.setdefault(world.state.blocks[b].location, []).append(b)
    for where, blocks in sorted(by_place.items()):
        world.emit("event_losses", [power], territory=world.tname(where), cause=r["id"],
                   blocks=[{"block": world.name(b), "steps": lost[b],
                            "strength": world.state.blocks[b].strength} for b in blocks])
        world.emit("event_shortfall", None, power=power, territory=world.tname(where),
                   cause=r["id"], steps=sum(lost[b] for b in blocks))


def diplomacy(world: World, power: str, nation: str, r: dict[str, Any],
              choices: Choices) -> None:
    """14.2 Sweden #4, Russia #4: "Diplomacy. A high ranked diplomat may form a TRUCE (See
    6.9) with Hanover or Prussia [Turkey or Ukraine], free of choice. Chosen Nation will
    return to its Replacement Pool." The player's ``politics ... target`` list chooses;
    default the enemy nation at war with more blocks on the map (then data order).
    Ukraine, which the truce rules spare (11.8), is deactivated with its blocks pooled."""
    enemy = other_power(power)
    options = [n for n in r["nations"] if n in world.board.nations
               and n in world.state.active and world.power_of_nation(n) == enemy]
    chosen = next((n for n in choices.targets if n in options), None)
    if chosen is None and options:
        chosen = max(options, key=lambda n: (sum(
            1 for b in world.state.blocks if world.spec(b).nation == n
            and world.state.on_map(b)), -options.index(n)))
    if chosen is None:
        world.emit("no_effect", power=power, result=r["id"], reason="neither_at_war")
        return
    if truce_possible(world, chosen):
        call_truce(world, chosen, r["id"])
        return
    deactivate(world, chosen, r["id"])


def forced_recruitment(world: World, power: str, nation: str, r: dict[str, Any],
                       choices: Choices) -> None:
    """14.2 Sweden #5: "Forced recruitment. Results in 4 new steps at no cost to be placed
    instantly. Do not apply to Warships." Steps on the nation's blocks on the map, the
    ``reinforce`` list first, then the weakest; steps with no room are lost."""
    blocks = [b for b in world.state.blocks if world.spec(b).nation == nation
              and world.state.on_map(b) and world.ground(b)]
    add_steps(world, power, blocks, int(r["steps"]), choices.reinforce, r["id"])


def pool_exclusion(world: World, power: str, nation: str, r: dict[str, Any],
                   choices: Choices) -> None:
    """14.2 Denmark #4 "Austrian loan of troops" and Saxony #2 "The Emperor demands new
    troops": "From 1703-1714 [the nation] must exclude 1 block free of choice from the
    replacement pool. It returns if [the nation] is invaded by Sweden." Outside those years
    the result does nothing; the block also returns in 1715, when the loan ends
    (interpretation). The owner's choice: the first pool block of its ``hits prefer`` list,
    else the weakest (lowest full strength, then id)."""
    year = world.state.year
    if not int(r["from_year"]) <= year <= int(r["to_year"]):
        world.emit("no_effect", power=power, result=r["id"], reason="not_this_year")
        return
    pool = pool_of(world, r["pool"])
    if not pool:
        world.emit("no_effect", power=power, result=r["id"], reason="empty_pool")
        return
    first = [b for b in world.prefer.get(power, []) if b in pool]
    block = first[0] if first else min(pool, key=lambda b: (world.spec(b).max_strength, b))
    set_aside(world, block, r["returns"], r["id"])


def treason(world: World, power: str, nation: str, r: dict[str, Any],
            choices: Choices) -> None:
    """14.2 Russia #2: "Treason. The Garrison of Kremenchuk joins the Turks without
    bloodshed." (An Ottoman garrison marker, as GMT 12.2 #3.)"""
    cossack_betrayal(world, power, r, choices)


def cossacks_join_kin(world: World, power: str, nation: str, r: dict[str, Any],
                      choices: Choices) -> None:
    """14.2 Russia #3: "Exclude the Cossack block from play. If Ukraine and Turkey is out
    of the game it returns to the replacement pool." (As GMT 12.2 #4.)"""
    cossacks_go_home(world, power, r, choices)


def russian_nature(world: World, power: str, nation: str, r: dict[str, Any],
                   choices: Choices) -> None:
    """14.2 Russia #5: "Russian nature strikes back. All hostile blocks in Russia suffer a
    2 step loss." (Hostile: the other player's; none eliminated, 6.8.)"""
    places = {t for reg in r["regions"] for t in world.board.region(reg)}
    enemy = other_power(world.power_of_nation(nation))
    event_loss(world, [b for b, bs in world.state.blocks.items()
                       if bs.location in places and world.power_of(b) == enemy],
               int(r["steps"]), r["id"])


def polish_parliament(world: World, power: str, nation: str, r: dict[str, Any],
                      choices: Choices) -> None:
    """14.2 Saxony #3: "The Polish Parliament assembles. Roll 1D6. On a 6 they change side
    and all polish blocks joins their new allies." Only a Poland at war changes side
    (state ``defected``); its blocks stay where they stand."""
    poland = r["nation"]
    roll = world.dice.d6(msg("polish parliament"))
    success = roll >= int(r["needs"]) and poland in world.state.active
    world.emit("polish_parliament", roll=roll, success=success)
    if success:
        if poland in world.state.defected:
            world.state.defected.remove(poland)
        else:
            world.state.defected.append(poland)
        world.emit("nation_changes_side", nation=poland, side=world.power_of_nation(poland))


def aurora_truce(world: World, power: str, nation: str, r: dict[str, Any],
                 choices: Choices) -> None:
    """14.2 Saxony #5: "Aurora Königsmarck negotiates a TRUCE (See 6.9) with Sweden for one
    year from next coming spring. All Saxon blocks is out of the war and placed in the
    replacement pool. No territories have to be ceeded." The truce takes effect at the end
    of the phase (10.2 machinery); Saxony re-enters the war at the Interphase after that
    year (the Interphase of the event's year + 2), without a roll."""
    if not truce_possible(world, nation):
        world.emit("no_effect", power=power, result=r["id"], reason="neither_at_war")
        return
    call_truce(world, nation, r["id"])
    due(world, "activate", nation, year=world.state.year + 1 + int(r["years"]))


NATIONAL_EFFECTS = {
    "bad_harvest": bad_harvest,
    "bad_harvest_finland": rp_next_year,
    "extravagance": rp_next_year,
    "bad_harvest_norway": rp_next_year,
    "great_harvest": rp_next_year,
    "nation_prospers": rp_next_year,
    "discontent": desert,
    "diplomacy": diplomacy,
    "forced_recruitment": forced_recruitment,
    "austrian_loan": pool_exclusion,
    "emperor_demands_troops": pool_exclusion,
    "treason": treason,
    "cossacks_join_kin": cossacks_join_kin,
    "russian_nature": russian_nature,
    "polish_parliament": polish_parliament,
    "aurora_truce": aurora_truce,
}

GENERAL_EFFECTS = {
    "plague": plague,
    "attrition_region": attrition_region,
    "excellent_recruitment": excellent_recruitment,
    "national_events": national_events,
}
