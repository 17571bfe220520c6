"""One round of a war by mail: initiative, the ``war-first`` and ``war-second`` phases
(seed, The War Sequence; email procedure i-ix)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.dice import Dice
from gm.games.base import Event
from gm.games.britannica import board as b
from gm.games.britannica import orders as o
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.refusals import refusal
from gm.games.britannica.tensions import raise_eti
from gm.games.britannica.war.abandoned import abandoned_moves
from gm.games.britannica.war.attack import _attacks
from gm.games.britannica.war.empires import _chinese_sweep, cut_off_by_egypt
from gm.games.britannica.war.ending import ended
from gm.games.britannica.war.manoeuvre import _moves
from gm.games.britannica.war.retreat import _pending_retreats, _store_retreats
from gm.games.britannica.war.sides import GM_POWERS, State, War, combatants
from gm.games.britannica.war.surrender import supply
from gm.i18n import msg


def start_round(d: BritanniaData, state: State, war: War, dice: Dice) -> list[Event]:
    """Initiative Determination: GM empires first, else one die per alliance (ties re-rolled)."""
    war["round"] += 1
    war["attacked"] = False
    war["retreat_orders"] = {}
    if war["kind"] in ("china", "ottoman") and all(p in GM_POWERS for p in war["sides"][0]):
        war["first"], rolls = 0, None
    else:
        while True:
            rolls = [dice.d6(msg("initiative alliance {number}", number=i + 1)) for i in range(2)]
            if rolls[0] != rolls[1]:
                break
        war["first"] = 0 if rolls[0] > rolls[1] else 1
    return [Event("initiative", {"war": war["id"], "round": war["round"], "rolls": rolls,
                                 "first": war["sides"][war["first"]]})]


def first_part(d: BritanniaData, state: State, war: War, orders: Mapping[str, Sequence[o.AnyOrder]],
               dice: Dice) -> list[Event]:
    """First Alliance manoeuvre and attack; its own retreats at once, the enemy's later."""
    s = war["first"]
    _store_retreats(war, orders)
    events = _moves(d, state, war, s, orders)
    events += abandoned_moves(d, state, war, s)
    events += _attacks(d, state, war, s, orders, dice, defer_defender=True)
    events += _peace_not_made(d, war, orders, msg("peace is made in the second phase of a round"))
    war["stage"] = "second"
    return events


def _peace_not_made(d: BritanniaData, war: War, orders: Mapping[str, Sequence[o.AnyOrder]],
                    why: Any) -> list[Event]:
    """Each ``peace`` that did not end the war (nor took its sender out) is told to its sender."""
    events = []
    for actor, own in sorted(orders.items()):
        for i, x in enumerate(own, 1):
            if isinstance(x, o.Peace) and actor in combatants(war):
                events.append(refusal(d, actor, i, x, why))
    return events


def separate_peace(d: BritanniaData, state: State, war: War,
                   orders: Mapping[str, Sequence[o.AnyOrder]]) -> list[Event]:
    """Separate peace (seed, Negotiations and Ending a War): when every Great Power of one
    alliance sends ``peace`` and only some of the other's do, those leave the war; the rest
    fight on. The Index rises by 5; the leavers' surrendered units come home, their units
    abroad go home unless in their own Control areas; they take no spoils of this war and
    escape a Great War's triple penalty as culprits."""
    peace = {a for a, own in orders.items() for x in own if isinstance(x, o.Peace) and a in d.great_powers}
    events: list[Event] = []
    for s in (0, 1):
        mine = [p for p in war["sides"][s] if p in d.great_powers]
        theirs = [p for p in war["sides"][1 - s] if p in d.great_powers]
        leavers = sorted(p for p in theirs if p in peace)
        if not mine or not set(mine) <= peace or not leavers or set(leavers) == set(theirs):
            continue
        war["sides"][1 - s] = [p for p in war["sides"][1 - s] if p not in leavers]
        war.setdefault("separate_peace", []).extend(leavers)
        for u in [u for u in war["surrendered"] if u["power"] in leavers]:
            state["units"].append({**u, "at": "home"})
        war["surrendered"] = [u for u in war["surrendered"] if u["power"] not in leavers]
        for u in state["units"]:
            if u["power"] in leavers and u["at"] != "home" and not b.controls(state, u["at"], u["power"]):
                u["at"] = "home"
        gw = state.get("great_war")
        if gw:
            gw["culprits"] = [p for p in gw["culprits"] if p not in leavers]
        events.append(Event("separate_peace", {"war": war["id"], "powers": leavers, "with": mine}))
        events += raise_eti(d, state, d.charts["eti"]["separate_peace"], "separate peace", leavers)
        break
    return events


def second_part(d: BritanniaData, state: State, war: War, orders: Mapping[str, Sequence[o.AnyOrder]],
                dice: Dice) -> tuple[list[Event], Any]:
    """Second Alliance retreats, First supply, Second manoeuvre and attack, both retreat,
    Second supply, tensions +2, War End Determination. Returns (events, outcome or None)."""
    s = war["first"]
    t = 1 - s
    _store_retreats(war, orders)
    events = _pending_retreats(d, state, war)
    events += supply(d, state, war, s)
    events += _moves(d, state, war, t, orders)
    events += abandoned_moves(d, state, war, t)
    events += _attacks(d, state, war, t, orders, dice, defer_defender=False)
    events += supply(d, state, war, t)
    if war["kind"] == "china":
        events += _chinese_sweep(d, state, war)
    events += raise_eti(d, state, d.charts["eti"]["war_phase_end"], "war phase",
                        [p for p in combatants(war) if p in d.great_powers])
    war["quiet"] = 0 if war["attacked"] else war["quiet"] + 1
    events += separate_peace(d, state, war, orders)
    if not war["sides"][0] or not war["sides"][1]:
        return events, "peace"
    greats = {d.seat_of(p) for p in combatants(war) if p in d.great_powers}
    peace = {d.seat_of(a) for a, own in orders.items() for x in own if isinstance(x, o.Peace)
             and a in d.great_powers}
    all_great = not (set(combatants(war)) - set(d.great_powers))
    if all_great and greats and greats <= peace:
        return events, "peace"
    if (war["kind"] == "ottoman" and all(p in GM_POWERS for p in war["sides"][0]) and greats
            and greats <= peace and cut_off_by_egypt(d, state, war)):
        return events, "demand"
    events += _peace_not_made(d, war, orders, msg(
        "no peace: every Great Power in the war must send peace in the same phase")
        if greats - peace else msg(
        "no peace: a war with a minor power, China or the Ottoman Empire ends by the war's "
        "end rules"))
    war["stage"] = "start"
    return events, ended(d, state, war)

