"""The map in war: Cape zones, denied straits and canals, volunteered coaling areas.

* Cape Zones (seed): during wars the Cape of Good Hope and Cape Horn act as sea zones
  between the South Atlantic and the Indian Ocean / South Pacific; a unit cannot move
  directly between those seas but must spend a move in the Cape zone.
* Canals and Straits (seed): during war the power controlling Egypt (Suez), Anatolia (the
  straits) or a canal area may deny its use to any other power (a co-dominion: every
  member must deny); a denied power moves no military unit between its two seas. With both
  Caribbean canals built, the passage is closed only to a power denied both.
* Co-dominions (seed): a warring power's unit entering a co-dominion held with a neutral
  gives that neutral a Casus Belli for the next war phase only (:func:`codominion_entry`).
* Coaling Rights (seed): a neutral power may volunteer an area with its Control marker for
  a power's coaling use; once volunteered it stays so for the war.

Denials and volunteered areas are kept for the wars of the turn (``state["denials"]``,
``state["coaling_volunteered"]``) and cleared when the last war of the turn ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.games.base import Event
from gm.games.britannica import board as b
from gm.games.britannica import orders as o
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.refusals import refusal
from gm.i18n import msg

State = dict[str, Any]


def capes(d: BritanniaData) -> dict[str, tuple[str, str]]:
    """Each Cape zone and the two sea zones it lies between."""
    return {k: (v["between"][0], v["between"][1]) for k, v in d.raw_map.get("cape_zones", {}).items()}


_SEAS: dict[int, tuple[BritanniaData, frozenset[str]]] = {}


def seas(d: BritanniaData) -> frozenset[str]:
    """Sea zones in war: the map's twelve and the two Cape zones."""
    got = _SEAS.get(id(d))
    if got is None or got[0] is not d:
        got = _SEAS[id(d)] = (d, frozenset(d.seas) | frozenset(capes(d)))
    return got[1]


def links(d: BritanniaData, state: State) -> dict[str, set[str]]:
    """Sea-to-sea links in war: built canals open, the Cape crossings go through the Capes."""
    out = {k: set(v) for k, v in b._sea_links(d, state).items()}
    for cape, (x, y) in capes(d).items():
        out[x].discard(y)
        out[y].discard(x)
        out[x].add(cape)
        out[y].add(cape)
        out[cape] = {x, y}
    return out


def coastal_areas(d: BritanniaData, sea: str) -> set[str]:
    return {a.id for a in d.areas.values() if sea in a.seas}


def passage_closed(d: BritanniaData, state: State, power: str, a: str, c: str) -> bool:
    """Whether ``power`` is denied every passage joining sea zones ``a`` and ``c``."""
    pair = {a, c}
    ways = [p for p in d.passages.values() if set(p.seas) == pair
            and (p.kind == "strait" or p.id in state.get("canals", []))]
    return bool(ways) and all(denied(state, p.area, power) for p in ways)


def controllers(state: State, area: str) -> list[str]:
    return sorted({m["power"] for m in b.markers(state, area)
                   if b.controls(state, area, m["power"])})


def denied(state: State, area: str, power: str) -> bool:
    """Denied by every power controlling the area (none controls it: it cannot be denied)."""
    owners = controllers(state, area)
    by = state.get("denials", {}).get(area, {}).get(power, [])
    return bool(owners) and power not in owners and set(owners) <= set(by)


def volunteered(state: State, power: str) -> list[str]:
    return list(state.get("coaling_volunteered", {}).get(power, []))


def _at_war(state: State, power: str) -> bool:
    return any(power in side for w in state.get("wars") or [] for side in w["sides"])


def offers(d: BritanniaData, state: State, acts: Mapping[str, Sequence[o.AnyOrder]]) -> list[Event]:
    """``volunteer`` and ``deny`` orders of a war phase (seed, Coaling Rights; Canals and
    Straits). A neutral that denies a passage to one alliance but not the other gives that
    alliance's Great Powers a Casus Belli against it (declared at once: ``declare war``)."""
    events: list[Event] = []
    for actor, own in sorted(acts.items()):
        for i, x in enumerate(own, 1):
            if isinstance(x, o.Volunteer):
                why = ("only a neutral power volunteers coaling rights" if _at_war(state, actor) else
                       "you have no established Control marker there" if not b.controls(state, x.area, actor) else
                       "that power is not at war" if not _at_war(state, x.to) else None)
                if why:
                    events.append(refusal(d, actor, i, x, why))
                    continue
                got = state.setdefault("coaling_volunteered", {}).setdefault(x.to, [])
                if x.area not in got:
                    got.append(x.area)
                events.append(Event("coaling_volunteered", {"by": actor, "area": x.area, "to": x.to}))
            elif isinstance(x, o.Deny):
                if x.area not in {p.area for p in d.passages.values()}:
                    events.append(refusal(d, actor, i, x, msg("no strait or canal there")))
                    continue
                if not b.controls(state, x.area, actor):
                    events.append(refusal(d, actor, i, x, msg("you have no established Control marker there")))
                    continue
                by = state.setdefault("denials", {}).setdefault(x.area, {}).setdefault(x.to, [])
                if actor not in by:
                    by.append(actor)
                events.append(Event("passage_denied", {"by": actor, "area": x.area, "to": x.to,
                                                       "closed": denied(state, x.area, x.to)}))
                events += _denial_casus_belli(d, state, x.area)
    return events


def codominion_entry(d: BritanniaData, state: State, war: dict[str, Any], mover: str,
                     area: str) -> list[Event]:
    """A unit of a warring power enters a co-dominion held with a neutral (seed, Movement
    during an Alliance Manoeuvre Phase, co-dominions): each neutral Great Power member gets a
    Casus Belli against the mover, usable only in the next war phase (``declare war on``).
    None when the mover or an ally of his is a member, or when members of both alliances hold
    the area; minor powers never declare war this way."""
    members = controllers(state, area)
    if len(members) < 2 or mover in members:
        return []
    sides = {i for i, side in enumerate(war["sides"]) for p in members if p in side}
    mine = next(i for i, side in enumerate(war["sides"]) if mover in side)
    if mine in sides or len(sides) == 2:
        return []
    events: list[Event] = []
    for p in members:
        cb = {"holder": p, "against": mover, "area": area, "cause": "codominion_entered"}
        if p in d.great_powers and not _at_war(state, p) and cb not in state["casus_belli"]:
            state["casus_belli"].append(cb)
            events.append(Event("casus_belli", cb))
    return events


def _denial_casus_belli(d: BritanniaData, state: State, area: str) -> list[Event]:
    events: list[Event] = []
    for w in state.get("wars") or []:
        shut = [all(denied(state, area, p) for p in side if p in d.great_powers) and
                any(p in d.great_powers for p in side) for side in w["sides"]]
        if shut[0] == shut[1]:
            continue
        side = w["sides"][0 if shut[0] else 1]
        for owner in controllers(state, area):
            if _at_war(state, owner):
                continue
            for p in side:
                cb = {"holder": p, "against": owner, "area": area, "cause": "denial"}
                if p in d.great_powers and cb not in state["casus_belli"]:
                    state["casus_belli"].append(cb)
                    events.append(Event("casus_belli", cb))
    return events
