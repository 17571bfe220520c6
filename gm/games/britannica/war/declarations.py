"""The War phase: declarations of war, support of allies, treaties scrapped, unused Casus
Belli settled (seed, Declaring War; Alliances; Congress of Europe and Casus Belli)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gm.dice import Dice
from gm.games.base import Event
from gm.games.britannica import board as b
from gm.games.britannica import dropout
from gm.games.britannica import orders as o
from gm.games.britannica.congress import STATUS_CAUSES, downgrade
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.refusals import refusal
from gm.games.britannica.tensions import EUROPEAN, european_count, raise_eti
from gm.games.britannica.war.empires import chinese_rebellion, ottoman_war, ottoman_war_declared
from gm.games.britannica.war.sides import GM_POWERS, State, War, _new_war, combatants, side_of
from gm.i18n import msg


def _has_cb(state: State, holder: str, against: str) -> bool:
    return any(cb["holder"] == holder and cb["against"] == against for cb in state["casus_belli"])


def _treaty_partners(state: State, a: str, c: str) -> bool:
    return any(t["ratified"] and {a, c} <= set(t["parties"]) for t in state["treaties"])


GERMAN_PAIR = frozenset({"germany", "austria-hungary"})


def _pair_split(war: War, power: str, side: int) -> bool:
    """Germany and Austria-Hungary can never be on opposite sides (seed, Austria-Hungary)."""
    if power not in GERMAN_PAIR:
        return False
    partner = next(iter(GERMAN_PAIR - {power}))
    s = side_of(war, partner)
    return s is not None and s != side


def declarations(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]],
                 dice: Dice) -> list[Event]:
    """The War phase: the rebellion, the Ottoman war, then declarations and support."""
    events: list[Event] = []
    wars: list[War] = []
    if state.pop("rebellion", False):
        w, evs = chinese_rebellion(d, state, dice)
        events += evs
        if w:
            wars.append(w)
    triggers = state.pop("ottoman_triggers", [])
    if triggers:
        w, evs = ottoman_war(d, state, triggers)
        wars.append(w)
        events += evs
    plain = [w for w in wars]
    decl = sorted(((a, i, x) for a, own in orders.items() for i, x in enumerate(own, 1)
                   if isinstance(x, o.Declare | o.Support)),
                  key=lambda t: (isinstance(t[2], o.Support), t[0], t[1]))
    for actor, i, x in decl:
        why, war, side = _join(d, state, plain, actor, x)
        if not why and actor in state.get("abandoned", []):
            why = _dropout_declaration(d, state, plain, actor, x)
        if why:
            events.append(refusal(d, actor, i, x, why))
            continue
        if war is None and isinstance(x, o.Declare) and x.target == "ottoman":
            war, evs = ottoman_war_declared(d, state, actor)
            war["sides"][1].append(actor)
            plain.append(war)
            events += evs
        elif war is None:
            assert isinstance(x, o.Declare)
            war = _new_war(state, "war", [[actor], [x.target]], [])
            plain.append(war)
        else:
            war["sides"][side].append(actor)
            if isinstance(x, o.Declare) and side_of(war, x.target) is None:
                war["sides"][1 - side].append(x.target)
        war["declarers"].append(actor)
        target = x.target if isinstance(x, o.Declare) else x.ally
        events.append(Event("war_declared", {"by": actor, "on": [target],
                                             "support": isinstance(x, o.Support), "war": war["id"]}))
        events += raise_eti(d, state, d.charts["eti"]["declaration_of_war"], "declaration of war",
                            [actor])
        members = combatants(war)
        if european_count(members) >= 4 and not state.get("great_war"):
            first = next((p for p in war["declarers"] if p in d.great_powers), actor)
            state["great_war"] = {"cause": "four_powers", "culprits": sorted({first, actor}),
                                  "doubled": _treaty_breaker_brought_in(state, actor, x)}
    for w in plain:
        events += _break_treaties(state, w)
    at_war = {p for w in plain for p in combatants(w)}
    state["casus_belli"] = [cb for cb in state["casus_belli"]
                            if not ({cb["holder"], cb["against"]} <= at_war)]
    events += settle_unused(d, state)
    state["wars"] = plain
    for w in plain:
        events.append(Event("war_begins", {"war": w["id"], "kind": w["kind"], "sides": w["sides"]}))
    return events


def _treaty_breaker_brought_in(state: State, actor: str, x: o.Declare | o.Support) -> list[str]:
    """A power that broke a treaty and has war declared on it for that, coming in as the fourth
    European power, loses double the Great War penalty (seed, The Great War)."""
    if isinstance(x, o.Declare) and x.target in EUROPEAN and any(
            cb["holder"] == actor and cb["against"] == x.target and cb["cause"] == "treaty_broken"
            for cb in state["casus_belli"]):
        return [x.target]
    return []


def declare_mid_war(d: BritanniaData, state: State, war: War,
                    orders: Mapping[str, Sequence[o.AnyOrder]]) -> list[Event]:
    """A neutral that denied a strait or canal to one alliance may be declared war on at once
    by any member of it, joining the other alliance (seed, Canals and Straits); a neutral
    whose co-dominion a warring power entered in the previous war phase may declare war on
    it, joining the other alliance (seed, co-dominions in war). Such Casus Belli then lapse."""
    events: list[Event] = []
    for actor, own in sorted(orders.items()):
        for i, x in enumerate(own, 1):
            if not isinstance(x, o.Declare):
                continue
            s = side_of(war, actor)
            t = side_of(war, x.target)
            if s is None and t is not None and any(
                    cb["holder"] == actor and cb["against"] == x.target
                    and cb["cause"] == "codominion_entered" for cb in state["casus_belli"]):
                war["sides"][1 - t].append(actor)
                events.append(Event("war_declared", {"by": actor, "on": [x.target], "support": False,
                                                     "war": war["id"]}))
                events += raise_eti(d, state, d.charts["eti"]["declaration_of_war"],
                                    "declaration of war", [actor])
                events += _break_treaties(state, war)
                if european_count(combatants(war)) >= 4 and not state.get("great_war"):
                    state["great_war"] = {"cause": "four_powers", "culprits": sorted({actor})}
                continue
            ok = s is not None and any(cb["holder"] == actor and cb["against"] == x.target
                                       and cb["cause"] == "denial" for cb in state["casus_belli"])
            if not ok or t is not None:
                events.append(refusal(d, actor, i, x, msg(
                    "during a war, only a neutral that denied you a strait or canal can be "
                    "declared war on, or a power that just entered your co-dominion")))
                continue
            war["sides"][1 - (s or 0)].append(x.target)
            state["casus_belli"] = [cb for cb in state["casus_belli"]
                                    if not (cb["against"] == x.target and cb["cause"] == "denial")]
            events.append(Event("war_declared", {"by": actor, "on": [x.target], "support": False,
                                                 "war": war["id"]}))
            events += raise_eti(d, state, d.charts["eti"]["declaration_of_war"], "declaration of war", [actor])
            events += _break_treaties(state, war)
            if european_count(combatants(war)) >= 4 and not state.get("great_war"):
                state["great_war"] = {"cause": "four_powers", "culprits": sorted({actor})}
    state["casus_belli"] = [cb for cb in state["casus_belli"] if cb["cause"] != "codominion_entered"]
    return events


def _dropout_declaration(d: BritanniaData, state: State, wars: list[War], actor: str,
                         x: o.Declare | o.Support) -> str | None:
    """Drop-out rules 1, 2 and 4 for an abandoned power's declaration: never the Great War,
    never on a treaty partner, only on a minor power once units are bought up to 3:2."""
    if isinstance(x, o.Support):
        return msg("an abandoned power stays neutral (drop-out rule 4)")
    if not dropout.may_declare(d, state, actor, x.target, wars):
        return msg("an abandoned power causes no Great War and keeps its treaties (drop-out rules 1-2)")
    dropout.buy_for_war(d, state, actor, x.target)
    return None


def _join(d: BritanniaData, state: State, wars: list[War], actor: str,
          x: o.Declare | o.Support) -> tuple[str | None, War | None, int]:
    if isinstance(x, o.Declare):
        t = x.target
        if t == actor or (t not in d.great_powers and t not in d.minor_powers and t != "ottoman"):
            return msg("no such power to declare war on"), None, 0
        if not _has_cb(state, actor, t):
            return msg("a declaration of war needs a Casus Belli against that power"), None, 0
        for w in wars:
            sa, st = side_of(w, actor), side_of(w, t)
            if sa is not None and st is not None:
                return msg("already at war with that power"), None, 0
            if sa is not None or st is not None:
                side = sa if sa is not None else 1 - (st or 0)
                if _pair_split(w, actor, side) or _pair_split(w, t, 1 - side):
                    return msg("Germany and Austria-Hungary can never be on opposite sides"), None, 0
                return None, w, side
        if {actor, t} == GERMAN_PAIR:
            return msg("Germany and Austria-Hungary can never be on opposite sides"), None, 0
        return None, None, 0
    for w in wars:
        s = side_of(w, x.ally)
        if s is None:
            continue
        if side_of(w, actor) is not None:
            return msg("already in that war"), None, 0
        entitled = (x.ally in GM_POWERS or x.ally in d.minor_powers or w["kind"] == "ottoman"
                    or {actor, x.ally} == GERMAN_PAIR or _treaty_partners(state, actor, x.ally))
        if not entitled:
            return msg("support needs a ratified treaty with that power (or an Ottoman war)"), None, 0
        if _pair_split(w, actor, s):
            return msg("Germany and Austria-Hungary can never be on opposite sides"), None, 0
        return None, w, s
    return msg("that power is not at war"), None, 0


def _break_treaties(state: State, war: War) -> list[Event]:
    """Treaties between powers now at war with each other are scrapped (seed, Treaties)."""
    events = []
    keep = []
    a, c = set(war["sides"][0]), set(war["sides"][1])
    for t in state["treaties"]:
        if set(t["parties"]) & a and set(t["parties"]) & c:
            events.append(Event("treaty_scrapped", {"name": t["name"]},
                                None if t["public"] else frozenset(t["parties"])))
        else:
            keep.append(t)
    state["treaties"] = keep
    return events


def settle_unused(d: BritanniaData, state: State) -> list[Event]:
    """Status disputes nobody went to war over: the holder's marker is reduced until it can
    coexist (Influence beside a Protectorate becomes Interest, beside a Possession it goes),
    tensions rising by the steps; every Casus Belli then expires (seed, Congress of Europe
    and Casus Belli: effective for one Game Turn)."""
    events: list[Event] = []
    for cb in list(state["casus_belli"]):
        if cb["cause"] not in STATUS_CAUSES or cb not in state["casus_belli"]:
            continue
        theirs = b.marker_of(state, cb["area"], cb["against"])
        mine = b.marker_of(state, cb["area"], cb["holder"])
        if not mine or not theirs or cb["holder"] not in d.great_powers:
            continue
        to = "interest" if theirs["kind"] == "protectorate" else "none"
        got = downgrade(d, state, cb["holder"], cb["area"], to)
        if not isinstance(got, str):
            events += got
    if state["casus_belli"]:
        events.append(Event("casus_belli_expired", {"count": len(state["casus_belli"])}))
    state["casus_belli"] = []
    return events

