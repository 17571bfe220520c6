"""The Game Turn Sequence as a table of steps (seed, Game Turn Sequence).

The game starts in ``setup``, which takes no orders: the GM's 1880 Random Events,
Administration and Minor Powers (seed, Setting up the Game). Phases that take
orders (``state["step"]``): ``movement`` (Movement / Status
Change, followed by the GM's Colonial Combat and Marker Adjustment),
``negotiation``, the Congress of Europe's ``congress``, ``congress-vote``,
``congress-runoff`` (several proposals accepted) and ``congress-sign`` (only when
one is called), ``war`` (declarations, only when a
Casus Belli or an Ottoman war is pending) and the war rounds' ``war-first`` and
``war-second``. Between them the GM carries out Chinese Resentment, the wars'
automatic parts, the Victory Point Record and the next turn's Random Events,
Administration and Minor Powers.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from gm.dice import Dice
from gm.games.base import Event, copy_state
from gm.games.britannica import board as b
from gm.games.britannica import congress, dropout, economy, garrisons, treaties, war
from gm.games.britannica import orders as o
from gm.games.britannica.annexation import ottoman_annexation, severed_annexations
from gm.games.britannica.combat import colonial_combat
from gm.games.britannica.data import BritanniaData, after_balkan_wars
from gm.games.britannica.movement import (
    Refusal,
    acting_order,
    merge,
    renumber_new_units,
    run_power,
)
from gm.games.britannica.refusals import not_carried_out, refusal
from gm.games.britannica.tensions import change_cri, great_war_end, raise_eti
from gm.i18n import msg

State = dict[str, Any]


def by_actor(orders: Mapping[str, Sequence[o.AnyOrder]]) -> dict[str, list[o.AnyOrder]]:
    """Every submitted order keyed by the power that acts (FOR lines already applied)."""
    out: dict[str, list[o.AnyOrder]] = {}
    for seat_orders in orders.values():
        for order in seat_orders:
            out.setdefault(o.actor_of(order), []).append(order)
    return out


# -- Movement / Status Change ---------------------------------------------------
def movement_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]],
                   dice: Dice) -> tuple[State, list[Event]]:
    """Movement/Status Change, then Colonial Combat and Marker Adjustment."""
    submitted = by_actor(orders)
    start = copy_state(state)
    events: list[Event] = garrisons.rebuild(d, start, submitted, dropout.abandoned(start))
    new = copy_state(start)
    built: dict[str, list[str]] = {}
    navy: dict[str, int] = {}
    received: dict[str, int] = {}
    for actor in acting_order(d, d.great_powers):
        own = submitted.get(actor, [])
        ctx, evs = run_power(d, start, actor, d.seat_of(actor), own, submitted,
                             received=received.get(actor, 0))
        merge(d, new, ctx)  # the treasury of a power that received £ is its own run's
        for to, amount in ctx.transfers or []:
            received[to] = received.get(to, 0) + amount
        navy[actor] = ctx.eti
        for pid in ctx.canal_built or []:
            built.setdefault(pid, []).append(actor)
        events += evs
    events += raise_eti(d, new, sum(navy.values()), "naval construction",
                        [p for p, n in navy.items() if n])
    renumber_new_units(new, start["next_unit"])
    events += economy.forced_expenditure(d, start, new)
    events += _canals(d, new, built)
    events += _placement_effects(d, start, new)
    events += _default_garrisons(d, new)
    fought = _colonial_combat(d, new, dice)
    events += fought
    events += _established_together(d, new, fought)
    attempted = {e.data["area"] for e in fought if e.type == "colonial_combat"} | set(
        new.pop("suppressing", []))
    events += ottoman_annexation(d, new, attempted)
    events += _marker_adjustment(d, new)
    events += severed_annexations(d, new, ())
    new["step"] = "negotiation"
    return new, events


def _canals(d: BritanniaData, new: State, built: Mapping[str, list[str]]) -> list[Event]:
    """First canal: 15 VP (seed, Canals): "Player's building Canals in the same turn share
    the 15 victory points equally", whichever of the two canals each built; once a canal
    exists, building the other gives none."""
    events = []
    first = not new.get("canals")
    everyone = sorted({p for builders in built.values() for p in builders})
    share = round(d.charts["bonus_vp"]["first_canal"] / len(everyone)) if first and everyone else 0
    paid: set[str] = set()
    for pid in sorted(built):
        new.setdefault("canals", []).append(pid)
        builders = sorted(built[pid])
        for p in builders:
            if p not in paid:
                new["vp"][p] += share
                paid.add(p)
        events.append(Event("canal_built", {"canal": pid, "builders": builders, "vp_each": share}))
    return events


def _placement_effects(d: BritanniaData, start: State, new: State) -> list[Event]:
    """Casus belli from the Status Marker Placement Effects Summary; Chinese resentment."""
    events = []
    cri = d.charts["cri"]["placed"]
    for area in sorted(new["markers"]):
        for m in new["markers"][area]:
            if not m.get("new"):
                continue
            if d.areas[area].type in ("chinese_empire", "chinese_vassal"):
                events += change_cri(new, cri[m["kind"]], "marker placed", [m["power"]], area)
            if m["kind"] not in o.CONTROL_KINDS:
                continue
            for other in b.markers(start, area):
                if other["power"] != m["power"] and other["kind"] == "influence" and other["established"]:
                    cb = {"holder": other["power"], "against": m["power"], "area": area,
                          "cause": "control_over_influence"}
                    new["casus_belli"].append(cb)
                    events.append(Event("casus_belli", cb))
    return events


def _established_together(d: BritanniaData, new: State, fought: Sequence[Event]) -> list[Event]:
    """Colonial Combat: "If two or more Powers successfully establish Control markers, a Casus
    Belli will exist." The chart's placement effect of a Control marker placed beside another's
    (not yet established) Protectorate or Possession names the effect; neither power was there
    first, so each gets a Casus Belli against each other one (docs/britannica.md)."""
    rule = next((r for r in d.charts["placement_effects"] if r["placed"] == "control"
                 and {"protectorate", "possession"} & set(r["existing"])), None)
    if rule is None or rule["effect"] != "casus_belli":
        return []
    won: dict[str, list[str]] = {}
    for e in fought:
        if e.data.get("established"):
            won.setdefault(e.data["area"], []).append(e.data["power"])
    events = []
    for area, powers in sorted(won.items()):
        for holder in sorted(set(powers)):
            for against in sorted(set(powers) - {holder}):
                cb = {"holder": holder, "against": against, "area": area,
                      "cause": "control_established_together"}
                new["casus_belli"].append(cb)
                events.append(Event("casus_belli", cb))
    return events


def _needs_garrison(d: BritanniaData, state: State, power: str) -> list[str]:
    """The power's ungarrisoned Control areas in the order the GM garrisons them."""
    areas = [a for a, ms in state["markers"].items()
             if any(m["power"] == power and m["kind"] in o.CONTROL_KINDS for m in ms)
             and not [u for u in b.units_at(state, power, a) if u["type"] == "army"]]
    return garrisons.garrison_order(d, areas)


def _default_garrisons(d: BritanniaData, new: State) -> list[Event]:
    """Garrisons (seed): "the GM will move the lowest value army from home or where there may be
    excess armies (closest, then alphabetical) from that area, to the ungarrisoned area. If no
    armies exist the first order will be to build enough armies" (an Army(1), when £3 remain).
    An army the special garrison rules hold (Indian Army, Western Garrison) is never taken."""
    events = []
    for p in sorted(d.great_powers):
        for area in _needs_garrison(d, new, p):
            spare = _spare_army(d, new, p, area)
            if spare is not None:
                unit, source = spare
                unit["at"] = area
                events.append(Event("default_garrison", {"power": p, "area": area,
                                                         "strength": unit["strength"],
                                                         "from": source, "built": False}))
            elif new["treasury"][p] >= d.rules["costs"]["army"]["1"]:
                new["treasury"][p] -= d.rules["costs"]["army"]["1"]
                new["next_unit"] += 1
                new["units"].append({"id": new["next_unit"], "power": p, "type": "army",
                                     "strength": 1, "at": area})
                events.append(Event("default_garrison", {"power": p, "area": area, "strength": 1,
                                                         "from": "home", "built": True}))
    return events


def _spare_army(d: BritanniaData, new: State, power: str, area: str
                ) -> tuple[dict[str, Any], str] | None:
    """The army the GM sends to garrison ``area``: the lowest value among the armies at home
    and the excess armies of the power's established, calm Control areas (every army there
    but the strongest), then the closest to ``area``, then the first source alphabetically."""
    found: list[tuple[dict[str, Any], str]] = [
        (u, "home") for u in b.units_at(new, power, "home") if u["type"] == "army"]
    for a in b.controlled_areas(new, power):
        if a == area or a in new.get("unrest", []):
            continue
        armies = sorted((u for u in b.units_at(new, power, a) if u["type"] == "army"),
                        key=lambda u: (-u["strength"], u["id"]))
        found += [(u, a) for u in armies[1:]]
    found = [(u, src) for u, src in found if garrisons.may_leave(d, new, power, u, area)]
    if not found:
        return None
    dist = _distances(d, new, area)

    def key(us: tuple[dict[str, Any], str]) -> tuple[int, int, str, int]:
        u, src = us
        node = d.home(power) if src == "home" else src
        name = d.areas[node].name
        return (u["strength"], dist.get(node, 10**6), name, u["id"])

    return min(found, key=key)


def _distances(d: BritanniaData, state: State, area: str) -> dict[str, int]:
    """Steps from ``area`` over land routes and sea zones (canals built included)."""
    links = b._sea_links(d, state)
    dist = {area: 0}
    queue = deque([area])
    while queue:
        node = queue.popleft()
        for nb in b._neighbours(d, links, node):
            if nb not in dist:
                dist[nb] = dist[node] + 1
                queue.append(nb)
    return dist


def _colonial_combat(d: BritanniaData, new: State, dice: Dice) -> list[Event]:
    """Colonial Combat phase: areas in alphabetical order, powers in alphabetical order."""
    events = []
    for area in sorted(set(new["markers"]) | set(new["unrest"])):
        for p in sorted(d.great_powers):
            m = b.marker_of(new, area, p)
            armies = [u for u in b.units_at(new, p, area) if u["type"] == "army"]
            wants_control = m is not None and m["kind"] in o.CONTROL_KINDS and not m["established"]
            suppress = area in new["unrest"] and bool(armies)
            if not armies or not (wants_control or suppress):
                continue
            res = colonial_combat(d, area, armies, dice)
            res["power"] = p
            res["established"] = bool(res["won"] and wants_control)
            new["units"] = [u for u in new["units"] if u["id"] not in res["lost"]]
            if res["won"]:
                if wants_control and m is not None:
                    m["established"] = True
                    if b.area_type(d, new, area) == "ottoman" and m.get("was") not in o.CONTROL_KINDS:
                        new.setdefault("ottoman_triggers", []).append(p)
                if area in new["unrest"]:
                    new["unrest"].remove(area)
            events.append(Event("colonial_combat", res))
            if res["retreat"]:
                events += _retreat(d, new, p, area)
    return events


def _retreat(d: BritanniaData, state: State, power: str, area: str) -> list[Event]:
    """A colonial retreat of ``power``'s units from ``area`` (seed, Colonial Combat
    Resolutions, AR; Army Units: a Control marker not established by the Marker Adjustment
    Phase, "as they would following unsuccessful Colonial Combat"; Unrest in a Controlled
    Area: "all Military Units (Army and Naval) in the Area must retreat"). The armies follow
    the default list, "1. An adjacent area controlled by that player 2. Back to the home
    country", each where the rule lets them go (:func:`board.retreat_reach`), then a Great
    Power's any other Area it Controls by sea; "If a player cannot retreat his Units they are
    instead eliminated" (a minor power's too: "If that isn't possible they are eliminated").
    Naval units move like naval units (seed, Naval Units): an adjacent coastal Control area,
    else home. Each retreat is told, like a war's."""
    events = []
    for kind in ("army", "fleet"):
        units = [u for u in b.units_at(state, power, area) if u["type"] == kind]
        if not units:
            continue
        dest = (_army_retreat(d, state, power, area) if kind == "army"
                else _fleet_retreat(d, state, power, area))
        if dest is None:
            gone = {u["id"] for u in units}
            state["units"] = [u for u in state["units"] if u["id"] not in gone]
        else:
            for u in units:
                u["at"] = dest
        events.append(Event("colonial_retreat", {
            "power": power, "unit": kind, "from": area, "to": dest,
            "strength": sum(u["strength"] for u in units)}))
    return events


def _army_retreat(d: BritanniaData, state: State, power: str, area: str) -> str | None:
    """The armies' destination (see :func:`_retreat`); None: they are eliminated."""
    reach = b.retreat_reach(d, state, power, area) - {area}
    home = d.home(power)

    def best(areas: set[str]) -> str | None:
        return min(areas, key=lambda a: (-d.areas[a].value, a)) if areas else None

    adjacent = best({a for a in d.neighbours(area) if a in reach and a != home})
    if adjacent is not None:
        return adjacent
    if home in reach:
        return "home"
    return best(reach - {home}) if power in d.great_powers else None


def _fleet_retreat(d: BritanniaData, state: State, power: str, area: str) -> str:
    """Naval units: the adjacent Control area of highest value they may enter, else home."""
    cands = sorted((a for a in d.neighbours(area) if b.controls(state, a, power)
                    and b.fleet_may_reach(d, state, power, a)),
                   key=lambda a: (-d.areas[a].value, a))
    return cands[0] if cands else "home"


def _marker_adjustment(d: BritanniaData, new: State) -> list[Event]:
    """Marker Adjustment phase (seed, Game Turn Sequence and Garrisons)."""
    events: list[Event] = []
    for area in sorted(new["unrest"]):
        ms = new["markers"].get(area, [])
        control = [m for m in ms if m["kind"] in o.CONTROL_KINDS and m["established"]]
        influence = [m for m in ms if m["kind"] == "influence"]
        gone = control or (ms if influence else [m for m in ms if m["kind"] == "interest"])
        for m in list(gone):
            ms.remove(m)
            events.append(Event("marker_removed", {"area": area, "power": m["power"],
                                                   "kind": m["kind"], "cause": "unrest"}))
            events += _retreat(d, new, m["power"], area)
    new["unrest"] = []
    for area in sorted(new["markers"]):
        ms = new["markers"][area]
        for m in list(ms):
            if not m["established"]:
                if m["kind"] in o.CONTROL_KINDS:
                    ms.remove(m)
                    if m.get("was"):
                        ms.append({"power": m["power"], "kind": m["was"], "established": True})
                    events.append(Event("marker_removed", {"area": area, "power": m["power"],
                                                           "kind": m["kind"], "cause": "not_established"}))
                    events += _retreat(d, new, m["power"], area)
                    continue
                m["established"] = True
                events.append(Event("marker_established", {"area": area, "power": m["power"],
                                                           "kind": m["kind"]}))
            m.pop("new", None)
            m.pop("was", None)
        ms.sort(key=lambda m: m["power"])
    for p in sorted(d.great_powers):
        for area in _needs_garrison(d, new, p):
            ms = new["markers"][area]
            m = b.marker_of(new, area, p)
            assert m is not None
            codominion = sum(1 for x in ms if x["kind"] in o.CONTROL_KINDS) > 1
            removed = False
            if codominion:
                ms.remove(m)
                if not any(x["kind"] == "possession" for x in ms):
                    ms.append({"power": p, "kind": "interest", "established": True})
            elif _influence_left(d, new, p):
                m["kind"] = "influence"
            else:
                ms.remove(m)  # "If he has no Influence marker available he does not replace it"
                removed = True
            events.append(Event("garrison_rule", {"area": area, "power": p,
                                                  "codominion": codominion, "removed": removed}))
    for area in [a for a, ms in new["markers"].items() if not ms]:
        del new["markers"][area]
    return events


def _influence_left(d: BritanniaData, state: State, power: str) -> bool:
    """Whether the power has an Influence marker of its counter mix not on the map (seed,
    Playing Pieces: "The number of playing pieces provided is an absolute limit")."""
    used = sum(1 for ms in state["markers"].values() for m in ms
               if m["power"] == power and m["kind"] == "influence")
    return used < int(d.rules["counter_mix"][power]["markers"].get("influence", 0))


# -- Negotiation, Congress, Chinese Resentment, War, Victory Points ------------------
def negotiation_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]],
                      dice: Dice) -> tuple[State, list[Event]]:
    """Negotiation: treaties, negotiated downgrades, a call for a Congress of Europe."""
    new = copy_state(state)
    events: list[Event] = []
    calls: list[o.CallCongress] = []
    early: dict[str, list[dict[str, Any]]] = {}
    acts = by_actor(orders)
    for actor, own in sorted(acts.items()):
        seat = d.seat_of(actor)
        for i, order in enumerate(own, 1):
            base = o.base(order)
            if isinstance(base, o.TreatyText | o.Sign | o.Breach):
                continue  # below, every power's drafts before the signatures
            if isinstance(base, o.CallCongress):
                calls.append(base)
            elif isinstance(base, (o.Attend, o.Propose)):
                early.setdefault(actor, []).append(o.to_json(order))
            elif isinstance(base, o.Downgrade):
                got = congress.downgrade(d, new, actor, base.area, base.kind)
                events += [refusal(d, actor, i, order, got)] if isinstance(got, str) else got
            else:
                events += _negotiate(new, actor, seat, i, order, d)
    events += _treaty_orders(d, new, acts)  # a breach lodged here may give the call its CB
    evs, refused = congress.call(d, new, calls)
    events += evs + [refusal(d, c.actor, 0, c, why) for c, why in refused]
    if new.get("congress"):
        new["step"] = "congress"
        new["congress"]["early"] = early  # the Congress phase reads them with its own orders
        return new, events
    for actor, given in sorted(early.items()):
        events += [refusal(d, actor, 0, o.from_json(x), msg("no Congress of Europe was called"))
                   for x in given]
    events += after_congress(d, new, dice)
    return new, events


def congress_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]],
                   dice: Dice) -> tuple[State, list[Event]]:
    """Congress of Europe, attendance and proposals; the ballot follows if any was made."""
    new = copy_state(state)
    acts = by_actor(orders)
    events = _treaty_orders(d, new, acts)
    # attendance and proposals given in the Negotiation phase with the call (issue 17: no
    # extra round of mail), before those of this phase
    early = new["congress"].pop("early", None) or {}
    merged = {a: [*(o.from_json(x) for x in early.get(a, ())), *acts.get(a, ())]
              for a in sorted(set(acts) | set(early))}
    events += congress.congress_phase(d, new, merged)
    if new["congress"]["proposals"]:
        new["step"] = "congress-vote"
        return new, events
    events += congress.unresolved(d, new)
    events += after_congress(d, new, dice)
    return new, events


def congress_vote_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]],
                        dice: Dice) -> tuple[State, list[Event]]:
    """The secret ballot, revealed now; an adopted resolution goes to signature."""
    new = copy_state(state)
    events = congress.vote_phase(d, new, by_actor(orders))
    if new["congress"].get("runoff"):
        new["step"] = "congress-runoff"
        return new, events
    return _signature_or_unresolved(d, new, dice, events)


def congress_runoff_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]],
                          dice: Dice) -> tuple[State, list[Event]]:
    """The second ballot between accepted proposals; the winner goes to signature."""
    new = copy_state(state)
    events = congress.runoff_phase(d, new, by_actor(orders))
    return _signature_or_unresolved(d, new, dice, events)


def _signature_or_unresolved(d: BritanniaData, new: State, dice: Dice,
                             events: list[Event]) -> tuple[State, list[Event]]:
    """An adopted resolution goes to signature; else the Congress is unresolved and the turn goes on."""
    if new["congress"]["adopted"]:
        new["step"] = "congress-sign"
        return new, events
    events += congress.unresolved(d, new)
    events += after_congress(d, new, dice)
    return new, events


def congress_sign_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]],
                        dice: Dice) -> tuple[State, list[Event]]:
    """Signing or defying the resolution; then the turn goes on. A declaration of war sent
    with the signature or the defiance is put to the War phase that follows (seed, War
    Phase: "War can be declared at the outset of the War Phase or during the Congress of
    Europe, if a disputant refuses to sign a Treaty or tires of the proceedings")."""
    new = copy_state(state)
    acts = by_actor(orders)
    events = congress.sign_phase(d, new, acts)
    declared = {a: [o.to_json(x) for x in own if isinstance(o.base(x), o.Declare)]
                for a, own in sorted(acts.items())}
    events += after_congress(d, new, dice, {a: xs for a, xs in declared.items() if xs})
    return new, events


def after_congress(d: BritanniaData, new: State, dice: Dice,
                   declared: Mapping[str, list[dict[str, Any]]] | None = None) -> list[Event]:
    """Chinese Resentment, then the War phase: declarations are taken by mail only when a
    Casus Belli or an Ottoman war is pending (seed, Game Turn Sequence). ``declared``: the
    declarations of war sent during the Congress (congress_sign_phase), read in the War
    phase before its own orders, or now when no War phase is mailed."""
    new["congress"] = None
    events = chinese_resentment(d, new, dice)
    if new["casus_belli"] or new.get("ottoman_triggers"):
        new["step"] = "war"
        if declared:
            new["declared_at_congress"] = dict(declared)
        return events
    events += war.declarations(d, new, {a: [o.from_json(x) for x in xs]
                                        for a, xs in (declared or {}).items()}, dice)
    events += continue_wars(d, new, dice)
    return events


def war_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]],
              dice: Dice) -> tuple[State, list[Event]]:
    """War phase: declarations of war and support, then the wars are fought."""
    new = copy_state(state)
    acts = by_actor(orders)
    events = _treaty_orders(d, new, acts)
    plain = {a: [x for x in own if not isinstance(x, o.Conditional)] for a, own in acts.items()}
    # declarations sent during the Congress (congress_sign_phase), before this phase's own;
    # one sent again now is read once
    for actor, given in sorted((new.pop("declared_at_congress", None) or {}).items()):
        own = plain.get(actor, [])
        plain[actor] = [x for x in map(o.from_json, given) if x not in own] + own
    events += war.declarations(d, new, plain, dice)
    events += war.offers(d, new, plain)
    events += continue_wars(d, new, dice)
    return new, events


def war_round_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]],
                    dice: Dice) -> tuple[State, list[Event]]:
    """One mail phase of a war round (``war-first`` or ``war-second``)."""
    new = copy_state(state)
    acts = {a: [o.base(x) for x in own] for a, own in by_actor(orders).items()}
    current = new["wars"][0]
    events = war.offers(d, new, acts)
    events += war.declare_mid_war(d, new, current, acts)
    if new["step"] == "war-first":
        events += war.first_part(d, new, current, acts, dice)
    else:
        events += _second(d, new, current, acts, dice)
    events += continue_wars(d, new, dice)
    return new, events


def _second(d: BritanniaData, new: State, current: dict[str, Any],
            acts: Mapping[str, Sequence[o.AnyOrder]], dice: Dice) -> list[Event]:
    events, outcome = war.second_part(d, new, current, acts, dice)
    if outcome is not None:
        events += war.resolution(d, new, current, outcome)
        new["wars"].pop(0)
    return events


def continue_wars(d: BritanniaData, new: State, dice: Dice) -> list[Event]:
    """Run the war sequence until a phase needs players' orders, or the wars are over."""
    events: list[Event] = []
    while new.get("wars") and not new.get("great_war"):
        current = new["wars"][0]
        if current["stage"] == "start":
            events += war.start_round(d, new, current, dice)
            current["stage"] = "first"
        if current["stage"] == "first":
            if war.side_seats(d, current, current["first"]):
                new["step"] = "war-first"
                return events
            events += war.first_part(d, new, current, {}, dice)
        if war.side_seats(d, current, 1 - current["first"]):
            new["step"] = "war-second"
            return events
        events += _second(d, new, current, {}, dice)
    if new.get("great_war"):
        return events
    events += end_of_turn(d, new, dice)
    return events


def end_of_turn(d: BritanniaData, new: State, dice: Dice) -> list[Event]:
    """Victory Point Record; the Final Record in 1916, else the next turn begins."""
    new["wars"] = []
    new.pop("denials", None)
    new.pop("coaling_volunteered", None)
    events = economy.victory_points(d, new)
    new["casus_belli"] = []
    if new["year"] == d.turn_years()[-1]:
        events += economy.final_record(d, new)
        new["step"] = "ended"
        events.append(Event("game_over", {"vp": dict(new["vp"])}))
        return events
    new["year"] += 4
    events += start_of_turn(d, new, dice)
    return events


def _treaty_orders(d: BritanniaData, new: State, acts: Mapping[str, Sequence[o.AnyOrder]]
                   ) -> list[Event]:
    """Treaties may be presented at any time (seed, Treaties): drafts and signatures. The
    phase's drafts come first, then its signatures, then its breaches, each step in
    alphabetical order of the acting power: the seed lets "an exact copy of the treaty ...
    be sent by each individual to the GM for it to become valid", so a party signing in the
    mail phase in which another drafts the treaty signs it whatever the powers' names."""
    events: list[Event] = []
    for step in (o.TreatyText, o.Sign, o.Breach):
        for actor, own in sorted(acts.items()):
            for i, order in enumerate(own, 1):
                if isinstance(o.base(order), step):
                    events += _negotiate(new, actor, d.seat_of(actor), i, order, d)
    return events


def setup_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]],
                dice: Dice) -> tuple[State, list[Event]]:
    """The set-up's GM phases (seed, Setting up the Game): the set-up "will also show the
    results of the Random Events Phase, Administration Phase and Minor Powers Phase
    conducted by the GM which will set the scene for the first Movement/Status Change
    phase". Nobody orders; the first turn's start is the same as every later turn's."""
    new = copy_state(state)
    return new, [Event("game_set_up", {"year": new["year"]}), *start_of_turn(d, new, dice)]


PHASES = {"setup": setup_phase, "movement": movement_phase, "negotiation": negotiation_phase,
          "congress": congress_phase, "congress-vote": congress_vote_phase,
          "congress-runoff": congress_runoff_phase,
          "congress-sign": congress_sign_phase, "war": war_phase,
          "war-first": war_round_phase, "war-second": war_round_phase}


def adjudicate(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]],
               dice: Dice) -> tuple[State, list[Event]]:
    """The phase the state waits in; a Great War ends the game wherever it breaks out.
    Seats that sent nothing count towards the drop-out rules (dropout.py)."""
    d = after_balkan_wars(d, state.get("balkan_wars", 0))
    dropout.track(d, state, orders)
    orders = dropout.gm_orders(d, state, orders)
    for w in state.get("wars") or []:
        w["abandoned"] = dropout.abandoned(state)
    new, events = PHASES[state["step"]](d, state, orders, dice)
    if new.get("great_war") and new["step"] != "ended":
        events += great_war_end(d, new)
    return new, events


def _negotiate(new: State, actor: str, seat: str, i: int, order: o.AnyOrder,
               d: BritanniaData) -> list[Event]:
    base = o.base(order)
    if isinstance(base, o.Breach):
        got = treaties.breach(d, new, actor, base.name, base.violator)
        return [refusal(d, actor, i, order, got)] if isinstance(got, str) else got
    if isinstance(base, o.TreatyText) and not isinstance(order, o.Conditional):
        new["treaties"].append({"name": base.name, "public": base.public,
                                "parties": sorted(set(base.parties) | {actor}),
                                "text": base.text, "signed": [actor], "ratified": False})
        return [Event("treaty_drafted", {"name": base.name}, frozenset({seat, *base.parties}))]
    if isinstance(base, o.Sign) and not isinstance(order, o.Conditional):
        for t in new["treaties"]:
            if t["name"] == base.name and actor in t["parties"]:
                if actor not in t["signed"]:
                    t["signed"].append(actor)
                t["ratified"] = set(t["signed"]) >= set(t["parties"])
                vis = None if t["public"] else frozenset(t["parties"])
                kind = "treaty_ratified" if t["ratified"] else "treaty_signed"
                return [Event(kind, {"name": t["name"], "by": actor, "parties": t["parties"],
                                     "text": t["text"] if t["ratified"] else ""}, vis)]
    if isinstance(base, o.SwitchPower):
        return []
    if isinstance(base, o.Sign) and not isinstance(order, o.Conditional):
        why = Refusal.NO_TREATY
    else:
        why = Refusal.NOT_IMPLEMENTED if isinstance(base, o.NotYet) else Refusal.WRONG_PHASE
    return [not_carried_out(seat, actor, i, order, why.name, why.value)]


def chinese_resentment(d: BritanniaData, new: State, dice: Dice) -> list[Event]:
    """Chinese Resentment phase: adjust the index, roll 3 dice; under the tens -> rebellion.

    Seed example: at CRI 124 a roll of 11 or less activates a rebellion.
    """
    c = d.charts["cri"]
    per: dict[str, int] = {}
    for area, ms in new["markers"].items():
        if d.areas[area].type in ("chinese_empire", "chinese_vassal"):
            for m in ms:
                if m["kind"] in o.CONTROL_KINDS:
                    per[m["power"]] = per.get(m["power"], 0) + c["per_phase_control_marker"]
                elif m["kind"] == "influence":
                    per[m["power"]] = per.get(m["power"], 0) + c["per_phase_influence_marker"]
    events = change_cri(new, sum(per.values()), "markers in China", [p for p, n in per.items() if n])
    roll = dice.d6_sum(c["rebellion_dice"], msg("Chinese rebellion"))
    rebellion = rebellion_occurs(new["cri"], roll)
    new["rebellion"] = rebellion
    return events + [Event("chinese_resentment", {"cri": new["cri"], "roll": roll,
                                                  "rebellion": rebellion})]


def rebellion_occurs(cri: int, roll: int) -> bool:
    """A rebellion occurs if the 3-dice total is less than the tens of the index."""
    return roll < cri // 10


def start_of_turn(d: BritanniaData, new: State, dice: Dice) -> list[Event]:
    """Random Events, Administration and Minor Powers, then open Movement."""
    events = [Event("turn_begins", {"year": new["year"]})]
    events += economy.random_events(d, new, dice)
    d = after_balkan_wars(d, new.get("balkan_wars", 0))
    events += economy.administration(d, new, dice)
    events += economy.minor_powers(d, new, dice)
    new["merchants_due"] = {p: d.turn(new["year"])["merchants"].count(p) for p in d.great_powers}
    new["step"] = "movement"
    return events
