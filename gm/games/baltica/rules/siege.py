"""Siege resolution (6.3-6.5), after all battles."""

from __future__ import annotations

from gm.games.baltica.rules.fleets import harbor_captured
from gm.games.baltica.rules.losses import strongest, take_step
from gm.games.baltica.rules.reforms import nyen_changed_hands, reform_open
from gm.games.baltica.rules.truce import call_truce
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import SiegeState, other_power
from gm.i18n import msg


def resolve_sieges(world: World) -> None:
    """0.3/6.1: "After any battles, all siege attempts are resolved", by territory name."""
    for siege in sorted(world.state.turn.sieges, key=lambda s: s.territory):
        resolve(world, siege)
    world.state.turn.sieges = []


def _still_on(world: World, siege: SiegeState) -> list[str]:
    return [b for b in siege.blocks if world.state.blocks[b].location == siege.territory]


def resolve(world: World, siege: SiegeState) -> None:
    """6.3: "a siege consists of only one combat round ... the attacker must score hits
    equal to or greater than the strength of the garrison in a single round ... Garrisons
    fight back ... treated as defending C1 blocks ... Garrisons never retreat or suffer
    losses." (C1: tables.toml ``limits.garrison_rating``.) 6.5: a siege is resolved only
    if the besiegers' side still stands there."""
    t = world.board.territories[siege.territory]
    blocks = _still_on(world, siege)
    if not blocks or t.garrison is None or not world.enemy_controlled(siege.territory,
                                                                      siege.power):
        world.emit("siege_abandoned", None, territory=t.name)
        return
    if world.enemy_blocks(siege.power, siege.territory):
        world.emit("siege_abandoned", None, territory=t.name)
        return
    value = world.garrison_value(siege.territory)
    world.emit("siege", None, territory=t.name, garrison=t.garrison.name, value=value,
               blocks=[{"block": world.name(b), "strength": world.state.blocks[b].strength,
                        "rating": str(world.rating(b))} for b in blocks])
    hits = 0
    for letter in "ABCD":
        if letter == world.board.limits.garrison_rating.letter:
            _garrison_fires(world, siege, value)
        for b in blocks:
            spec = world.spec(b)
            rating = world.rating(b)  # 3CG 10.2
            if rating.letter != letter or world.state.blocks[b].location != siege.territory:
                continue
            dice = world.dice.roll(world.state.blocks[b].strength,
                                   msg("siege of {garrison}: {block} fires",
                                       garrison=t.garrison.name, block=spec.name))
            got = sum(1 for d in dice if d <= rating.number)
            hits += got
            world.emit("fire", None, territory=t.name, round=1, block=spec.name,
                       rating=str(rating), dice=dice, hits=got)
    captured = hits >= value
    world.emit("siege_result", None, territory=t.name, garrison=t.garrison.name, hits=hits,
               needed=value, captured=captured)
    if captured:
        capture(world, siege)


def _garrison_fires(world: World, siege: SiegeState, value: int) -> None:
    t = world.board.territories[siege.territory]
    dice = world.dice.roll(value, msg("siege of {territory}: the garrison fires",
                                          territory=t.name))
    rating = world.board.limits.garrison_rating  # 6.3: "treated as defending C1 blocks"
    hits = sum(1 for d in dice if d <= rating.number)
    world.emit("fire", None, territory=t.name, round=1, block=f"garrison {t.name}",
               garrison=t.garrison.name if t.garrison else t.name,  # said by the report
               rating=str(rating), dice=dice, hits=hits)
    for _ in range(hits):
        target = strongest(world, _still_on(world, siege))
        if target is None:
            return
        eliminated = take_step(world, target)
        world.emit("hit", None, territory=t.name, round=1, block=world.name(target),
                   strength=world.state.blocks[target].strength, eliminated=eliminated)


def first_loss_to_turks(world: World, territory: str, captor: str, friendly_land: bool,
                        lost_before: bool) -> bool:
    """3CG 10.2: "Russia loses 8 RP's for the first Russian (or Ukraine if they are not
    activated) territory lost to the Turk due to a siege. Russia regains the lost RP's
    when they have besieged and re-conquered the territory." (tables.toml
    ``limits.first_loss_to_turks``; none in the GMT rules.) Reading: the 8 replace the
    usual 4 (8.1) for that territory, once a game. True when this capture was that loss
    or its recapture (the RP level is then adjusted here)."""
    rule = world.board.tables["limits"].get("first_loss_to_turks")
    if not rule:
        return False
    gs, t = world.state, world.board.territories[territory]
    nation, rp = str(rule["nation"]), int(rule["rp"])
    if (not friendly_land and captor == rule["by"] and gs.turkish_first_capture is None
            and t.nation in rule["lands"] and (t.nation == nation or t.nation not in gs.active)
            and nation in gs.rp):
        gs.turkish_first_capture = territory
        gs.rp[nation] = max(0, gs.rp[nation] - rp)
        world.emit("first_loss_to_turks", territory=t.name, rp=rp)
        return True
    if friendly_land and lost_before and gs.turkish_first_capture == territory:
        gs.turkish_first_capture = "-"
        gs.rp[nation] += rp
        return True
    return False


def capture(world: World, siege: SiegeState) -> None:
    """6.4: "A successful siege against an enemy nation's territory allows you to place a
    garrison marker ... against an enemy garrison in a friendly nation's territory only
    removes the enemy garrison marker (Exception: you always place a garrison marker when
    you successfully siege a territory in Poland.)" 8.1: "the original territory's owner
    reduces their RP level by 4" (tables.toml ``limits.rp_per_garrison``), regained on
    recapture. 10.2: a captured capital calls a truce (at the end of
    the phase)."""
    t = world.board.territories[siege.territory]
    nation = world.spec(siege.blocks[0]).nation
    owner = t.nation
    holder = world.owner(siege.territory)  # 11.8: an inactive Ukraine is Russia's land
    lost_before = siege.territory in world.state.control
    friendly_land = holder is not None and world.power_of_nation(holder) == siege.power
    if friendly_land and owner != "poland":
        world.state.control.pop(siege.territory, None)
    else:
        world.state.control[siege.territory] = nation
    if first_loss_to_turks(world, siege.territory, nation, friendly_land, lost_before):
        pass
    elif owner is not None and owner in world.state.rp:
        if friendly_land and lost_before:
            world.state.rp[owner] += world.board.limits.rp_per_garrison
        elif not friendly_land:
            world.state.rp[owner] = max(0, world.state.rp[owner] - world.board.limits.rp_per_garrison)
    world.emit("captured", None, territory=t.name, garrison=t.garrison.name if t.garrison else "",
               by=nation, control=world.controller(siege.territory))
    harbor_captured(world, siege.territory, other_power(siege.power))
    if owner == "russia" and not friendly_land:
        reform_open(world)  # 11.2: "if a territory in Russia has been captured"
    nyen_changed_hands(world, siege.territory)
    if owner == "ukraine" and t.capital and nation == "russia":
        world.triggers.add("baturyn-captured")  # 11.8: "captured by Russian siege"
    if t.capital and not friendly_land and owner is not None:
        call_truce(world, owner, "capital")
