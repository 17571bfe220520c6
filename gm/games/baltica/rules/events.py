"""The Event Table (12.1): rolled by a player whose action roll is a 6 (3.1).

The event is resolved at the start of that player's action phase (3.1: "The First
Player performs all their actions (or resolves their event)"), so the player's
standing choices of that phase apply; when both players rolled events the turn goes
straight to forage and both are resolved at once with the defaults.
"""

from __future__ import annotations

from typing import Any

from gm.games.baltica.rules.event_effects import Choices, event_loss, row, side_event, to_pool
from gm.games.baltica.rules.politics import national_politics
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POWERS
from gm.i18n import msg, name

TABLE = "event_table"


def resolve_event(world: World, power: str, choices: Choices) -> None:
    """12.1: roll one die on the Event Table for ``power`` and carry out the row."""
    roll = world.dice.d6(msg("event table {power}", power=world.said(power)))
    r = row(world, TABLE, roll)
    world.emit("event_rolled", power=power, table=TABLE, roll=roll, result=r["id"])
    EFFECTS[r["id"]](world, power, r, choices)


def polish_civil_war(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.1 #1: "Each player rolls a die, adding one for each Polish capital controlled.
    Swedish player wins: Return all on-map Polish blocks to the Saxon replacement pool.
    Coalition player wins: All Swedish blocks in Poland lose one step. Tie: Apply both."
    """
    caps = [t for t, v in world.board.territories.items() if v.capital and v.nation == "poland"]
    totals: dict[str, int] = {}
    rolls: dict[str, int] = {}
    for p in POWERS:
        rolls[p] = world.dice.d6(msg("polish civil war {power}", power=world.said(p)))
        totals[p] = rolls[p] + sum(1 for t in caps if world.controlled_by(t, p))
    winner = ("tie" if totals["sweden"] == totals["coalition"]
              else max(POWERS, key=lambda p: totals[p]))
    world.emit("polish_civil_war", rolls=rolls, totals=totals, winner=winner)
    if winner in ("sweden", "tie"):
        to_pool(world, [b for b, bs in world.state.blocks.items()
                        if world.spec(b).nation == "poland" and world.state.on_map(b)], r["id"])
    if winner in ("coalition", "tie"):
        poland = set(world.board.region("poland"))
        event_loss(world, [b for b, bs in world.state.blocks.items()
                           if world.spec(b).nation == "sweden" and bs.location in poland],
                   1, r["id"])


def epidemic(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.1 #2: "Roll a die for region. All blocks in that region lose one step." """
    roll = world.dice.d6(msg("epidemic region"))
    region = row(world, "epidemic_regions", roll)
    places = {t for reg in region["regions"] for t in world.board.region(reg)}
    world.emit("epidemic", roll=roll, region=name(region["name"], fr=region["name_fr"]))
    event_loss(world, [b for b, bs in world.state.blocks.items() if bs.location in places],
               1, r["id"])


def attrition_national(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.1 #3: "All blocks on the map not in their national territory lose one step." """
    event_loss(world, [b for b, bs in world.state.blocks.items()
                       if bs.location in world.board.territories
                       and world.board.territories[bs.location].nation != world.spec(b).nation],
               1, r["id"])


def attrition_friendly(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.1 #4: "All blocks on the map not in a friendly territory lose one step." (1.2:
    friendly = a garrison the player controls; transit territories are not.)"""
    event_loss(world, [b for b, bs in world.state.blocks.items()
                       if bs.location in world.board.territories
                       and not world.controlled_by(bs.location, world.power_of(b))],
               1, r["id"])


def event_side(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.1 #5: roll on the Swedish (12.2) or Coalition (12.3) Event Table."""
    side_event(world, power, choices)


def event_politics(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.1 #6: "Choose a major nation under your control (Sweden, Russia, Saxony, or
    Denmark) and roll on the National Politics Table (12.4)." The player's ``politics``
    order names it; default: the first major nation of the player at war (data order).
    Not an action: the once-a-year limit of 3.3.4 does not apply."""
    majors = [n for n, v in world.board.nations.items()
              if v.major and world.power_of_nation(n) == power and n in world.state.active]
    nation = choices.nation if choices.nation in majors else (majors[0] if majors else None)
    if nation is None:
        world.emit("no_effect", power=power, result=r["id"], reason="no_major")
        return
    national_politics(world, power, nation, choices)


EFFECTS: dict[str, Any] = {
    "polish_civil_war": polish_civil_war,
    "epidemic": epidemic,
    "attrition_national": attrition_national,
    "attrition_friendly": attrition_friendly,
    "side_event": event_side,
    "national_politics": event_politics,
}


def _with_3cg() -> None:
    """The 3CG General Events Table rows (3CG 14.1; its #2 is 12.1 #2's epidemic)."""
    from gm.games.baltica.rules.events_3cg import GENERAL_EFFECTS

    EFFECTS.update(GENERAL_EFFECTS)


_with_3cg()
