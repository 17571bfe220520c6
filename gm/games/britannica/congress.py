"""Negotiated settlements and the Congress of Europe (seed, Negotiation; Congress of Europe).

By mail the Congress takes three phases after the Negotiation phase in which a
power with a Casus Belli called it (``congress in SITE``):

1. ``congress``: attendance (``attend`` / ``stay away``), proposals
   (``propose 1: Britain keeps Egypt; France takes Tunis``, or marker by marker
   ``propose "Name": power kind in area; ...``) and free removal of Interest
   and Influence markers. Parties to the disputes and the host attend unless
   they stay away; other European powers attend if they say so; the USA and
   Japan as parties or hosts, or if they ``attend`` and no European power
   sends ``object to USA|Japan`` (the unanimous invitation). Default: parties
   and host attend, no objection, no proposal.
2. ``congress-vote``: one secret ballot per member and proposal
   (``vote "Name" yes|no|abstain``); ballots are revealed only in the report
   after the deadline. Default: abstain. Majority of those voting; a tie is
   broken by the host's vote counted twice; if the host abstained the proposal
   fails unless it is the only one (seed, order of the Congress for email play).
   Several accepted: ``congress-runoff``, a second ballot between them
   (``vote "Name" yes`` for one; most votes, then the host's choice).
3. ``congress-sign``: members sign or ``defy`` the adopted resolution. Default:
   sign (an absent party must accept the decision). All sign: the markers are
   set free of charge and the disputes are resolved. A defier: the signers get
   a Casus Belli against him, tensions rise (unresolved +3, +2 per defier).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.games.base import Event
from gm.games.britannica import board as b
from gm.games.britannica import orders as o
from gm.games.britannica.annexation import excluded_by_congress
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.refusals import refusal
from gm.games.britannica.tensions import EUROPEAN, raise_eti
from gm.i18n import msg

State = dict[str, Any]
STATUS_CAUSES = ("control_over_influence", "minor_protectorate")


# -- disputes and negotiated downgrades (seed, Negotiation 1-3) --------------------
def clean_casus_belli(state: State) -> None:
    """Drop status Casus Belli whose markers no longer conflict (the dispute is settled)."""
    keep = []
    for cb in state["casus_belli"]:
        if cb["cause"] in STATUS_CAUSES:
            mine = b.marker_of(state, cb["area"], cb["holder"])
            theirs = b.marker_of(state, cb["area"], cb["against"])
            if not mine or mine["kind"] != "influence" or not theirs or theirs["kind"] not in o.CONTROL_KINDS:
                continue
        keep.append(cb)
    state["casus_belli"] = keep


def steps_down(old: str, new: str) -> int:
    """Tension steps of a downgrade (State > Possession > Protectorate > Influence > Interest > none)."""
    return max(b.rank(old) + 1 - (b.rank(new) + 1 if new != "none" else 0), 0)


def downgrade(d: BritanniaData, state: State, power: str, area: str, kind: str) -> list[Event] | str:
    """A voluntary downgrade or removal; tensions rise by the steps when it settles a dispute."""
    m = b.marker_of(state, area, power)
    if m is None:
        return msg("no marker of yours there to alter")
    if kind != "none" and b.rank(kind) >= b.rank(m["kind"]):
        return msg("a downgrade must be to a lower status")
    disputed = any(cb["area"] == area and power in (cb["holder"], cb["against"])
                   for cb in state["casus_belli"])
    steps = steps_down(m["kind"], kind)
    if kind == "none":
        state["markers"][area].remove(m)
        if not state["markers"][area]:
            del state["markers"][area]
    else:
        m["kind"] = kind
    events = [Event("marker_downgraded", {"power": power, "area": area, "to": kind})]
    if disputed:
        events += raise_eti(d, state, steps * d.charts["eti"]["downgrade_step"], "status downgrade",
                            [power])
    clean_casus_belli(state)
    return events


# -- calling the Congress --------------------------------------------------------
def parties(cbs: Sequence[Mapping[str, Any]]) -> list[str]:
    return sorted({p for cb in cbs for p in (cb["holder"], cb["against"])})


def valid_site(d: BritanniaData, cbs: Sequence[Mapping[str, Any]], site: str) -> bool:
    """A home country of a power not party to any dispute; the USA and Japan only when every
    European power is a party (seed, Congress of Europe)."""
    involved = set(parties(cbs))
    if site not in d.great_powers or site in involved:
        return False
    if site in ("usa", "japan"):
        return set(EUROPEAN) <= involved
    return True


def default_site(d: BritanniaData, cbs: Sequence[Mapping[str, Any]]) -> str:
    """Germany when every power is a party; else the first uninvolved European power."""
    involved = set(parties(cbs))
    free = [p for p in EUROPEAN if p not in involved]
    if not free:
        free = [p for p in ("usa", "japan") if p not in involved]
    return free[0] if free else "germany"


def call(d: BritanniaData, state: State, calls: Sequence[o.CallCongress]) -> tuple[list[Event], list[tuple[o.CallCongress, str]]]:
    """The first valid call (powers in alphabetical order: simultaneous mail) convenes it."""
    refused: list[tuple[o.CallCongress, str]] = []
    events: list[Event] = []
    for c in sorted(calls, key=lambda c: c.actor):
        if state.get("congress"):
            refused.append((c, msg("a Congress has already been called this turn")))
            continue
        cbs = [cb for i, cb in enumerate(state["casus_belli"], 1) if not c.about or i in c.about]
        if not any(cb["holder"] == c.actor for cb in cbs):
            refused.append((c, msg("only a power with a Casus Belli may call a Congress")))
            continue
        site = c.site if valid_site(d, cbs, c.site) else default_site(d, cbs)
        state["congress"] = {"caller": c.actor, "site": site, "disputes": cbs,
                             "parties": parties(cbs), "members": [], "proposals": [],
                             "votes": {}, "adopted": None, "moved_site": site != c.site}
        events.append(Event("congress_called", {"by": c.actor, "site": site, "asked": c.site,
                                                "parties": parties(cbs), "disputes": cbs}))
        events += raise_eti(d, state, d.charts["eti"]["congress_convened"], "Congress convened",
                            [c.actor])
    return events, refused


def host_voter(site: str) -> str:
    """Austria-Hungary does not vote: as host, the German player breaks the tie."""
    return "germany" if site == "austria-hungary" else site


def _settle(kinds: dict[str, str], winner: str, verb: str) -> None:
    """``POWER keeps AREA`` / ``POWER takes AREA``: the winner holds (or takes, at the highest
    Control level there, at least a Protectorate) the area; every other marker is reduced
    until it may coexist: Interest beside a Protectorate, nothing beside a Possession,
    Influence beside an Influence (seed, Negotiation and Co-dominions)."""
    if verb == "takes":
        levels = [b.rank(k) for k in kinds.values() if k in o.CONTROL_KINDS]
        level = max([b.rank("protectorate"), *levels, b.rank(kinds.get(winner, "interest"))])
        kinds[winner] = o.MARKER_KINDS[min(level, b.rank("possession"))]
    won = kinds.get(winner)
    if won is None:
        return
    for p in [p for p in kinds if p != winner]:
        if won == "protectorate":
            if kinds[p] != "interest":
                kinds[p] = "interest"
        elif won in o.CONTROL_KINDS:
            del kinds[p]
        elif kinds[p] in o.CONTROL_KINDS:
            kinds[p] = "influence"


def resulting_markers(state: State, clauses: Sequence[Sequence[str]]) -> dict[str, dict[str, str]]:
    """The kind of every power's marker in each area a resolution names, once carried out."""
    areas: dict[str, dict[str, str]] = {}
    for p, k, a in clauses:
        kinds = areas.setdefault(a, {m["power"]: m["kind"] for m in state["markers"].get(a, [])})
        if k == "none":
            kinds.pop(p, None)
        elif k in ("keeps", "takes"):
            _settle(kinds, p, k)
        else:
            kinds[p] = k
    return areas


def _legal_after(state: State, clauses: Sequence[tuple[str, str, str]]) -> bool:
    """No Influence marker may remain beside an established Control marker."""
    for kinds in resulting_markers(state, clauses).values():
        control = [p for p, k in kinds.items() if k in o.CONTROL_KINDS]
        if control and any(k == "influence" for p, k in kinds.items()):
            return False
    return True


OVERSEAS = ("usa", "japan")


def invited_overseas(c: Mapping[str, Any], objected: set[str]) -> list[str]:
    """The USA and Japan are members only as parties or host, or when every European Great
    Power invites them (seed, Congress of Europe). By mail the GM asks whether anyone objects
    (seed, order of the Congress for email play): without an ``object to USA`` from a
    European power the invitation is unanimous, and the power may ``attend``."""
    return [p for p in OVERSEAS if p not in objected or p in c["parties"] or p == c["site"]]


def congress_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]]
                   ) -> list[Event]:
    """Attendance, proposals and free removals; then the ballot is announced."""
    c = state["congress"]
    events: list[Event] = []
    away: set[str] = set()
    joined: set[str] = set()
    objected: set[str] = set()
    for actor, own in sorted(orders.items()):
        for i, order in enumerate(own, 1):
            x = o.base(order)
            if isinstance(x, o.Attend):
                (joined if x.attend else away).add(actor)
            elif isinstance(x, o.Object):
                if x.power not in OVERSEAS or actor not in EUROPEAN:
                    events.append(refusal(d, actor, i, order, msg(
                        "only a European power may object, and only to the USA or Japan")))
                else:
                    objected.add(x.power)
    invited = invited_overseas(c, objected)
    if objected - set(invited):
        events.append(Event("congress_objection", {"powers": sorted(objected - set(invited))}))
    members = (set(c["parties"]) | {c["site"]} | {p for p in joined if p in EUROPEAN}
               | {p for p in joined if p in invited})
    members -= away - {c["site"]}
    voters = sorted(p for p in members if p in d.great_powers and d.seat_of(p) == p)
    c["members"] = voters
    disputed = {cb["area"] for cb in c["disputes"]}
    for actor, own in sorted(orders.items()):
        for i, order in enumerate(own, 1):
            x = o.base(order)
            why: str | None = None
            if isinstance(x, o.Propose):
                if actor not in voters:
                    why = msg("only members of the Congress may propose")
                elif any(p["name"] == x.name for p in c["proposals"]):
                    why = msg("a proposal of that name exists")
                elif any(a not in disputed for _, _, a in x.clauses):
                    why = msg("a resolution may only settle the areas in dispute")
                elif any(k == "dominion" for _, k, _ in x.clauses):
                    why = msg("States and Dominions cannot be given")
                elif not _legal_after(state, x.clauses):
                    why = msg("the resolution would leave markers illegally in an area")
                else:
                    c["proposals"].append({"name": x.name, "by": actor,
                                           "clauses": [list(cl) for cl in x.clauses]})
                    events.append(Event("proposal", {"name": x.name, "by": actor,
                                                     "clauses": [list(cl) for cl in x.clauses]}))
            elif isinstance(x, o.Downgrade):
                m = b.marker_of(state, x.area, actor)
                if m and m["kind"] not in ("interest", "influence"):
                    why = msg("at Congress only Interest and Influence markers may be removed freely")
                else:
                    got = downgrade(d, state, actor, x.area, x.kind)
                    why = got if isinstance(got, str) else None
                    events += [] if isinstance(got, str) else got
            if why:
                events.append(refusal(d, actor, i, order, why))
    events.append(Event("congress_members", {"site": c["site"], "members": voters,
                                             "proposals": [p["name"] for p in c["proposals"]]}))
    return events


def vote_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]]
               ) -> list[Event]:
    """Count the secret ballots (default abstain) and reveal them; pick the adopted resolution."""
    c = state["congress"]
    names = [p["name"] for p in c["proposals"]]
    ballots: dict[str, dict[str, str]] = {n: {m: "abstain" for m in c["members"]} for n in names}
    events: list[Event] = []
    for actor, own in sorted(orders.items()):
        for i, order in enumerate(own, 1):
            x = o.base(order)
            if isinstance(order, o.Conditional):
                events.append(refusal(d, actor, i, order, msg("votes cannot be conditional")))
            elif isinstance(x, o.Vote) and x.name in ballots and actor in c["members"]:
                ballots[x.name][actor] = x.choice
            elif isinstance(x, o.Vote):
                events.append(refusal(d, actor, i, order, msg("no such proposal, or not a member")))
    passed = []
    host = host_voter(c["site"])
    for n in names:
        v = ballots[n]
        yes = sum(1 for x in v.values() if x == "yes")
        no = sum(1 for x in v.values() if x == "no")
        if yes != no:
            ok = yes > no
        elif v.get(host) in ("yes", "no"):
            ok = v[host] == "yes"
        else:
            ok = len(names) == 1
        events.append(Event("ballot", {"name": n, "votes": v, "yes": yes, "no": no,
                                       "host": host, "passed": ok}))
        if ok:
            passed.append((yes, -names.index(n), n))
    c["votes"] = ballots
    if len(passed) > 1:
        c["runoff"] = [n for n in names if any(n == x[2] for x in passed)]
        events.append(Event("congress_runoff", {"names": c["runoff"]}))
    elif passed:
        c["adopted"] = passed[0][2]
        events.append(Event("resolution_adopted", {"name": c["adopted"]}))
    return events


def runoff_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]]
                 ) -> list[Event]:
    """The second round between accepted proposals (seed, order of the Congress for email
    play: "a second round of voting takes place to ascertain which proposal takes
    precedence"). Each member votes ``vote "Name" yes`` for one of them (secret until the
    deadline; default: no vote). Most votes wins; a tie goes to the host's choice; otherwise
    there is no agreement and the Congress is unresolved."""
    c = state["congress"]
    choice: dict[str, str] = {}
    events: list[Event] = []
    for actor, own in sorted(orders.items()):
        for i, order in enumerate(own, 1):
            x = o.base(order)
            if not isinstance(x, o.Vote):
                continue
            if isinstance(order, o.Conditional):
                why = msg("votes cannot be conditional")
            elif actor not in c["members"] or x.name not in c["runoff"]:
                why = msg("not a member, or not a proposal in the second round")
            elif x.choice != "yes":
                why = msg("in the second round, vote yes for the proposal you prefer")
            elif actor in choice:
                why = msg("one vote in the second round")
            else:
                choice[actor] = x.name
                continue
            events.append(refusal(d, actor, i, order, why))
    counts = {n: sum(1 for v in choice.values() if v == n) for n in c["runoff"]}
    top = [n for n in c["runoff"] if counts[n] == max(counts.values())]
    host = choice.get(host_voter(c["site"]))
    adopted = top[0] if len(top) == 1 else host if host in top else None
    c["runoff_votes"] = choice
    c["adopted"] = adopted
    events.append(Event("runoff", {"votes": choice, "counts": counts, "adopted": adopted}))
    if adopted:
        events.append(Event("resolution_adopted", {"name": adopted}))
    return events


def signers_due(state: State) -> list[str]:
    c = state["congress"]
    return sorted(set(c["members"]) | {p for p in c["parties"]})


def sign_phase(d: BritanniaData, state: State, orders: Mapping[str, Sequence[o.AnyOrder]]
               ) -> list[Event]:
    """Signing or defiance of the adopted resolution (default: sign)."""
    c = state["congress"]
    name = c["adopted"]
    defiers = sorted({a for a, own in orders.items() for x in map(o.base, own)
                      if isinstance(x, o.Defy) and x.name == name and a in signers_due(state)})
    signers = [p for p in signers_due(state) if p not in defiers and p in d.great_powers]
    events: list[Event] = [Event("resolution_signatures", {"name": name, "signed": signers,
                                                           "defied": defiers})]
    if not defiers:
        proposal = next(p for p in c["proposals"] if p["name"] == name)
        events += apply_resolution(d, state, proposal)
        return events
    events += unresolved(d, state, defiers)
    for defier in defiers:
        for s in signers:
            cb = {"holder": s, "against": defier, "area": "", "cause": "defied_congress"}
            state["casus_belli"].append(cb)
            events.append(Event("casus_belli", cb))
    return events


def unresolved(d: BritanniaData, state: State, defiers: Sequence[str] = ()) -> list[Event]:
    """An unresolved Congress: +3, and +2 for each defier (seed, European Tensions Increases)."""
    eti = d.charts["eti"]
    events = raise_eti(d, state, eti["congress_unresolved"], "Congress unresolved",
                       state["congress"]["members"])
    for p in defiers:
        events += raise_eti(d, state, eti["congress_defier"], "Congress defied", [p])
    events.append(Event("congress_unresolved", {"defied": list(defiers)}))
    return events


def apply_resolution(d: BritanniaData, state: State, proposal: Mapping[str, Any]) -> list[Event]:
    """Set the markers the resolution names, free of charge; its disputes are resolved."""
    events: list[Event] = []
    for a, kinds in resulting_markers(state, proposal["clauses"]).items():
        before = {m["power"]: m["kind"] for m in state["markers"].get(a, [])}
        for p in sorted(set(before) | set(kinds)):
            old, new = before.get(p), kinds.get(p, "none")
            if old == new:
                continue
            if old and (new == "none" or b.rank(new) < b.rank(old)):
                events += raise_eti(d, state, steps_down(old, new) * d.charts["eti"]["downgrade_step"],
                                    "status downgrade", [p])
            events.append(Event("resolution_marker", {"power": p, "area": a, "kind": new}))
        state["markers"][a] = [{"power": p, "kind": k, "established": True}
                               for p, k in sorted(kinds.items())]
    events += excluded_by_congress(state, resulting_markers(state, proposal["clauses"]), d.great_powers)
    for a in [a for a, ms in state["markers"].items() if not ms]:
        del state["markers"][a]
    for u in state["units"]:
        if u["at"] in {a for _, _, a in proposal["clauses"]} and not b.controls(state, u["at"], u["power"]):
            u["at"] = "home"
            events.append(Event("units_sent_home", {"power": u["power"], "unit": u["type"],
                                                    "strength": u["strength"]}))
    brought = state["congress"]["disputes"]
    state["casus_belli"] = [cb for cb in state["casus_belli"] if cb not in brought]
    events.append(Event("congress_resolved", {"name": proposal["name"]}))
    return events
