"""Activation rolls (10.1) with the section 11 modifiers, for the Interphase and the
Special Envoy of the National Politics Table (12.4 #3)."""

from __future__ import annotations

from gm.games.baltica.rules import attrition
from gm.games.baltica.rules.truce import may_reactivate, reactivation_needs
from gm.games.baltica.rules.world import World
from gm.i18n import msg

KARL_XII = "karl-xii"


def may_roll(world: World, nation: str, power: str) -> bool:
    """10.1/11.x: ``power`` rolls for ``nation`` now: it is inactive, ``power`` rolls for
    it (nations.toml ``rolled_by``), and the nation it needs active is active (11.8).
    A nation under truce rolls, for its own side, from the year of its cube (10.3)."""
    n = world.board.nations[nation]
    act = n.activation
    if nation in world.state.permanently_inactive:  # 11.1: a ceded territory's receiver
        return False
    if act.get("no_roll"):  # 3CG 10.8: Britain comes back by its triggers only
        return False
    if nation in world.state.truces:  # 10.3: from the Year Track box of its cube
        return (nation not in world.state.active and world.power_of_nation(nation) == power
                and may_reactivate(world, nation))
    if nation in world.state.active or act.get("rolled_by") != power:
        return False
    if world.power_of_nation(nation) != power:
        return False
    if world.state.year < int(act.get("from_year", 0)):  # 3CG 9.x entry dates
        return False
    if world.state.year < int(act.get("rolls_again_from_year", 0)) and world.state.year >= int(
            act.get("removed_from_year", world.state.year + 1)):  # 3CG 10.5: 1716-1717
        return False
    needs = act.get("requires_active")
    return needs is None or needs in world.state.active


def modifier(world: World, nation: str) -> int:
    """Section 11 modifiers: the nation's own (Prussia, Hannover -1), Karl XII in
    Ukraine (Ottomans +1, Ukraine +2) and the Swedish Attrition Track's boxes in force
    (11.1, 11.7, 11.9)."""
    act = world.board.nations[nation].activation
    total = int(act.get("modifier", 0)) + attrition.activation_modifier(world, nation)
    karl = world.state.blocks.get(KARL_XII)
    if karl is not None and karl.location in world.board.region("ukraine"):
        total += int(act.get("karl_in_ukraine", 0))
    return total


def activation_roll(world: World, nation: str, bonus: int = 0, why: str = "10.1") -> bool:
    """Roll one die for ``nation`` (+ modifiers + ``bonus``); True when it reaches the
    nation's number: 10.1 "on a 6, that nation becomes active" (tables.toml
    ``limits.activation_needs``) unless nations.toml ``activation.needs`` says otherwise."""
    act = world.board.nations[nation].activation
    needs = int(act.get("needs", world.board.limits.activation_needs))
    if "needs_from_1711" in act and world.state.year >= 1711:  # 3CG 9.6: "From 1711 ... 5 and 6"
        needs = int(act["needs_from_1711"])
    needs = reactivation_needs(world, nation, needs)  # 3CG 6.10
    roll = world.dice.d6(msg("activation {nation} ({why})", nation=world.said(nation), why=why))
    mod = modifier(world, nation) + bonus
    success = roll + mod >= needs
    world.emit("activation_roll", nation=nation, roll=roll, modifier=mod, needs=needs,
               success=success)
    return success


def activate(world: World, nation: str, why: str) -> None:
    """10.1: the nation "becomes active and enters the war"; 11.8: "Reduce Russia's RP
    level by 8 and remove all garrisons in Ukrainian territory when Ukraine is activated"
    (nations.toml ``rp_loss_to``/``rp_loss``)."""
    if nation in world.state.active:
        return
    world.state.active.append(nation)
    world.state.truces.pop(nation, None)  # 10.3: reactivated, its cube leaves the Year Track
    world.emit("nation_activated", nation=nation, why=why)
    act = world.board.nations[nation].activation
    loser = act.get("rp_loss_to")
    if loser is not None and loser in world.state.rp:
        world.state.rp[loser] = max(0, world.state.rp[loser] - int(act.get("rp_loss", 0)))
        world.emit("rp_level", nation=loser, level=world.state.rp[loser], why=why)
        for t in world.board.nation_territories(nation):
            world.state.control.pop(t, None)
