"""National Politics (3.3.4) and the National Politics Table (12.4)."""

from __future__ import annotations

from typing import Any

from gm.games.baltica.rules import activation
from gm.games.baltica.rules.event_effects import (
    Choices,
    due,
    event_loss,
    immediate_rp,
    row,
    side_event,
)
from gm.games.baltica.rules.events_3cg import national_event, national_table
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import other_power
from gm.i18n import msg

TABLE = "national_politics_table"


def politics_problem(world: World, power: str, nation: str | None) -> Why | None:
    """3.3.4: "you may choose one major nation you control and roll one die on the
    National Politics Table (12.4). IMPORTANT: This action may be chosen only once per
    Year per nation." (A nation not at war takes no actions, 10.1.)"""
    if nation is None or nation not in world.board.nations:
        return Why.NOT_MAJOR
    n = world.board.nations[nation]
    if not n.major or world.power_of_nation(nation) != power:
        return Why.NOT_MAJOR
    if nation not in world.state.active:
        return Why.NOT_ACTIVE
    if national_table(world, nation) is not None:
        return None  # 3CG 3.44 sets no yearly limit (14.2 limits each result instead)
    if world.state.politics_used.get(nation) == world.state.year:
        return Why.POLITICS_USED
    return None


def politics_action(world: World, power: str, nation: str | None,
                    choices: Choices) -> Why | None:
    """3.3.4: the National Politics action: checked, marked used for the year, rolled."""
    why = politics_problem(world, power, nation)
    if why is not None:
        return why
    assert nation is not None  # politics_problem refuses an unknown nation
    world.state.politics_used[nation] = world.state.year
    national_politics(world, power, nation, choices)
    return None


def national_politics(world: World, power: str, nation: str, choices: Choices) -> None:
    """12.4: roll one die for ``nation`` and carry out the row (by action or by event).
    In the 3CG ruleset the nation's National Events Table instead (3CG 3.44, 14.2)."""
    if national_table(world, nation) is not None:
        national_event(world, power, nation, choices)
        return
    roll = world.dice.d6(msg("national politics {nation}", nation=world.said(nation)))
    r = row(world, TABLE, roll)
    world.emit("event_rolled", power=power, table=TABLE, roll=roll, result=r["id"],
               nation=nation)
    EFFECTS[r["id"]](world, power, nation, r, choices)


def extravagance(world: World, power: str, nation: str, r: dict[str, Any],
                 choices: Choices) -> None:
    """12.4 #1: "Receive only half RPs in the next Interphase." (8.8: temporary.)"""
    due(world, "rp_half", nation)


def discontent_places(world: World, nation: str) -> dict[str, list[str]]:
    """12.4 #2: the non-national territories where ``nation``'s blocks could lose a step."""
    out: dict[str, list[str]] = {}
    for b, bs in sorted(world.state.blocks.items()):
        t = world.board.territories.get(bs.location)
        if (t is None or world.spec(b).nation != nation or t.nation == nation
                or not world.ground(b) or bs.strength <= 1):
            continue
        out.setdefault(bs.location, []).append(b)
    return out


def discontent(world: World, power: str, nation: str, r: dict[str, Any],
               choices: Choices) -> None:
    """12.4 #2: "Each of your blocks in one non-national territory (opponent's choice)
    loses one step." The opponent's ``discontent`` list decides (first listed territory
    where a block can lose a step); default: where the most steps are lost, then by id.
    Events never eliminate a block (12.0)."""
    places = discontent_places(world, nation)
    if not places:
        world.emit("no_effect", power=power, result=r["id"], reason="no_block_abroad")
        return
    chosen = next((t for t in choices.discontent if t in places), None)
    if chosen is None:
        chosen = min(places, key=lambda t: (-len(places[t]), t))
    world.emit("discontent", nation=nation, territory=world.tname(chosen),
               chooser=other_power(power))
    event_loss(world, places[chosen], 1, r["id"])


def special_envoy(world: World, power: str, nation: str, r: dict[str, Any],
                  choices: Choices) -> None:
    """12.4 #3: "Attempt to activate one of your allies, with a +1 on the roll. If you
    succeed, the target nation enters the war during the next Interphase."

    The ally: the first of the player's ``target`` list that may roll (10.1, 11.x);
    default the one needing the lowest roll, then data order. None: no effect.
    """
    allies = [n for n in world.board.nations if activation.may_roll(world, n, power)]
    target = next((n for n in choices.targets if n in allies), None)
    if target is None and allies:
        target = min(allies, key=lambda n: (
            int(world.board.nations[n].activation.get("needs",
                                                      world.board.limits.activation_needs))
            - activation.modifier(world, n), allies.index(n)))
    if target is None:
        world.emit("no_effect", power=power, result=r["id"], reason="no_ally")
        return
    if activation.activation_roll(world, target, int(r["modifier"]), "12.4 special envoy"):
        due(world, "activate", target)


def reinforcements(world: World, power: str, nation: str, r: dict[str, Any],
                   choices: Choices) -> None:
    """12.4 #4: "Roll one die and receive that many RPs to immediately add steps to any of
    your blocks (8.3)." """
    immediate_rp(world, power, nation, int(r["dice"]), r["id"], choices)


def emergency_recruitment(world: World, power: str, nation: str, r: dict[str, Any],
                          choices: Choices) -> None:
    """12.4 #5: "Roll two dice and receive that many RPs to be spent immediately in the
    same manner as the Interphase." """
    immediate_rp(world, power, nation, int(r["dice"]), r["id"], choices, build_rest=True)


def politics_side_event(world: World, power: str, nation: str, r: dict[str, Any],
                        choices: Choices) -> None:
    """12.4 #6: "Roll on the Swedish Event Table (12.2) if you are Sweden, or on the
    Coalition Event Table (12.3) if you are the Coalition." """
    side_event(world, power, choices)


EFFECTS = {
    "extravagance": extravagance,
    "discontent": discontent,
    "special_envoy": special_envoy,
    "reinforcements": reinforcements,
    "emergency_recruitment": emergency_recruitment,
    "side_event": politics_side_event,
}
