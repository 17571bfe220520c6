"""What a power's own position forbids in the Negotiation, Congress and War phases, known
when the mail arrives (orders.md §2: "orders the power's own position already forbids are
refused (not stored) and said why"; issue 17 class 4).

The Movement phase has its rehearsal on a copy of the board (movement.position_refusals);
these phases are judged order by order with the engine's own tests, and only where the
answer cannot change before the order is reached: nothing another power sends in the
phase, no die, no earlier step of the adjudication may make it legal. The rest stays to
be checked at adjudication. The reasons are the engine's own, so the reply says what the
report would have said.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gm.games.base import copy_state
from gm.games.britannica import board as b
from gm.games.britannica import congress
from gm.games.britannica import orders as o
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.parser import said_place
from gm.games.britannica.tensions import EUROPEAN
from gm.games.britannica.war.declarations import GERMAN_PAIR
from gm.games.britannica.war.geography import _at_war
from gm.games.britannica.war.manoeuvre import adjacent
from gm.games.britannica.war.sides import _units, combatants
from gm.i18n import msg
from gm.orders.names import listed

State = dict[str, Any]


def _may_gain_casus_belli(state: State, actor: str, against: str) -> bool:
    """A breach lodged in the phase (by ``actor`` or another signatory) gives every other
    party of a ratified treaty a Casus Belli against the violator (treaties.breach)."""
    return any(t["ratified"] and {actor, against} <= set(t["parties"]) for t in state["treaties"])


def _member(d: BritanniaData, state: State, actor: str, own: Sequence[o.Order]) -> bool | None:
    """Whether ``actor`` will be a voting member of the Congress (congress.congress_phase):
    True or False when its own attendance orders (with those given in the Negotiation
    phase) decide it, None when others' objections do (the USA, Japan)."""
    c = state["congress"]
    early = [o.from_json(x) for x in (c.get("early") or {}).get(actor, ())]
    attends = [x for x in [*early, *own] if isinstance(x, o.Attend)]
    joined = any(x.attend for x in attends)
    away = any(not x.attend for x in attends) and actor != c["site"]
    if actor not in d.great_powers or d.seat_of(actor) != actor or away:
        return False
    if actor in c["parties"] or actor == c["site"]:
        return True
    if not joined:
        return False
    return True if actor in EUROPEAN else None


def refusals(d: BritanniaData, state: State, orders: Sequence[o.AnyOrder],
             skip: set[int]) -> dict[int, str]:
    """Index -> reason for each of ``orders`` (one seat's, in the order given) that its
    power's own position already forbids in the current Negotiation, Congress or War
    phase; orders whose index is in ``skip`` (already refused) are passed over."""
    step = state["step"]
    new = copy_state(state)  # the mail's own downgrades, carried out in its order
    plain = [o.base(x) for x in orders]
    out: dict[int, str] = {}
    proposed: set[str] = set()
    runoff_voted: set[str] = set()
    moved: set[int] = set()
    for i, x in enumerate(plain):
        if i in skip:
            continue
        why = _refusal(d, state, new, step, x, plain, proposed, runoff_voted, moved)
        if why is not None:
            out[i] = why
    return out


def _refusal(d: BritanniaData, state: State, new: State, step: str, x: o.Order,  # noqa: C901
             plain: Sequence[o.Order], proposed: set[str], runoff_voted: set[str],
             moved: set[int]) -> str | None:
    """Why the position forbids order ``x`` now (None: legal, or not known before the
    adjudication). ``new`` holds the mail's own downgrades so far; ``proposed``,
    ``runoff_voted`` and ``moved`` what the orders above used."""
    actor = x.actor
    own = [y for y in plain if y.actor == actor]
    c = state.get("congress")
    if isinstance(x, o.Downgrade) and step in ("negotiation", "congress"):
        m = b.marker_of(new, x.area, actor)
        if step == "congress" and m and m["kind"] not in ("interest", "influence"):
            return msg("at Congress only Interest and Influence markers may be removed freely")
        got = congress.downgrade(d, new, actor, x.area, x.kind)
        return got if isinstance(got, str) else None
    if isinstance(x, o.CallCongress) and step == "negotiation":
        # any of the power's Casus Belli: others' downgrades in the phase may settle disputes
        # and so renumber the list the call's CB numbers read at adjudication
        if not any(cb["holder"] == actor for cb in state["casus_belli"]) and not any(
                t["ratified"] and actor in t["parties"] for t in state["treaties"]):
            return msg("only a power with a Casus Belli may call a Congress")
        return None
    if isinstance(x, o.Breach):
        treaty = next((t for t in state["treaties"] if t["name"] == x.name and t["ratified"]
                       and actor in t["parties"]), None)
        if x.violator == actor or (treaty is not None and x.violator not in treaty["parties"]):
            return msg("only another party to the treaty can break it")
        # a treaty binds once every party signed: one ratified in the phase needs this
        # power's own signature (or draft) in the mail when it is no party to one yet
        if treaty is None and not any(t["name"] == x.name and actor in t["parties"]
                                      for t in state["treaties"]) and not any(
                isinstance(y, o.Sign | o.TreatyText) and y.name == x.name for y in own):
            return msg("you are not a party to a ratified treaty of that name")
        return None
    if isinstance(x, o.Object) and step == "congress":
        if x.power not in congress.OVERSEAS or actor not in EUROPEAN:
            return msg("only a European power may object, and only to the USA or Japan")
        return None
    if isinstance(x, o.Propose):
        return _proposal(d, state, step, x, own, proposed)
    if isinstance(x, o.Vote) and c is not None and step == "congress-vote":
        if actor not in c["members"] or x.name not in [p["name"] for p in c["proposals"]]:
            return msg("no such proposal, or not a member")
        return None
    if isinstance(x, o.Vote) and c is not None and step == "congress-runoff":
        if actor not in c["members"] or x.name not in c.get("runoff", []):
            return msg("not a member, or not a proposal in the second round")
        if x.choice != "yes":
            return msg("in the second round, vote yes for the proposal you prefer")
        if actor in runoff_voted:
            return msg("one vote in the second round")
        runoff_voted.add(actor)
        return None
    if isinstance(x, o.Defy) and c is not None and step == "congress-sign":
        if x.name != c.get("adopted"):
            return msg("the resolution to sign or defy is {name}", name=c.get("adopted"))
        return None
    if isinstance(x, o.Declare) and step == "war":
        return _declaration(d, state, x)
    if isinstance(x, o.Support) and step == "war":
        return _support(d, state, x, own)
    if isinstance(x, o.Volunteer | o.Deny):
        return _offer(d, state, step, x)
    if step in ("war-first", "war-second") and state.get("wars"):
        return _war_round(d, state, step, x, own, moved)
    return None


def _proposal(d: BritanniaData, state: State, step: str, x: o.Propose, own: Sequence[o.Order],
              proposed: set[str]) -> str | None:
    """A proposal (congress.congress_phase): in the Congress phase, a power that will not be
    a member, a name already used, an area not in dispute; in the Negotiation phase (put to
    the Congress if one is called) an area no Casus Belli is about. States and Dominions
    are never given."""
    c = state.get("congress")
    if step == "congress" and c is not None:
        if _member(d, state, x.actor, own) is False:
            return msg("only members of the Congress may propose")
        if x.name in proposed or any(p["name"] == x.name for p in c["proposals"]):
            return msg("a proposal of that name exists")
        disputed = {cb["area"] for cb in c["disputes"]}
    elif step == "negotiation":
        disputed = {cb["area"] for cb in state["casus_belli"]}
    else:
        return None
    if any(a not in disputed for _, _, a in x.clauses):
        return msg("a resolution may only settle the areas in dispute")
    if any(k == "dominion" for _, k, _ in x.clauses):
        return msg("States and Dominions cannot be given")
    proposed.add(x.name)
    return None


def _declaration(d: BritanniaData, state: State, x: o.Declare) -> str | None:
    """A declaration of war (declarations._join): no such power, Germany against
    Austria-Hungary, no Casus Belli against the target (and no ratified treaty with it
    whose breach could give one in the phase)."""
    t, actor = x.target, x.actor
    if t == actor or (t not in d.great_powers and t not in d.minor_powers and t != "ottoman"):
        return msg("no such power to declare war on")
    if {actor, t} == GERMAN_PAIR:
        return msg("Germany and Austria-Hungary can never be on opposite sides")
    if actor in state.get("abandoned", []):
        return None  # the drop-out rules decide (dropout.py)
    has = any(cb["holder"] == actor and cb["against"] == t for cb in state["casus_belli"])
    if not has and not _may_gain_casus_belli(state, actor, t):
        return msg("a declaration of war needs a Casus Belli against that power")
    return None


def _support(d: BritanniaData, state: State, x: o.Support, own: Sequence[o.Order]) -> str | None:
    """``support`` of a Great Power (declarations._join): it needs a ratified treaty with
    that power, unless the war is an Ottoman one; known now when no treaty between the two
    can be ratified in the phase (none drafted, none in the mail) and the ally can be in no
    Ottoman war (no Ottoman declaration pending, no Casus Belli of the ally against the
    Ottomans). It was accepted and refused at adjudication, too late to sign one."""
    ally, actor = x.ally, x.actor
    if ally not in d.great_powers or {actor, ally} == GERMAN_PAIR:
        return None  # a seat that writes is no longer a drop-out (dropout.track)
    if any({actor, ally} <= set(t["parties"]) for t in state["treaties"]) or any(
            isinstance(y, o.TreatyText) and ally in y.parties or isinstance(y, o.Sign) for y in own):
        return None
    if state.get("ottoman_triggers") or any(
            cb["holder"] == ally and cb["against"] == "ottoman" for cb in state["casus_belli"]):
        return None
    return msg("support needs a ratified treaty with that power (or an Ottoman war)")


def _offer(d: BritanniaData, state: State, step: str, x: o.Volunteer | o.Deny) -> str | None:
    """``volunteer`` and ``deny`` (geography.offers): Control markers do not change before
    the offers are read; in a war round the wars are those of the round."""
    if isinstance(x, o.Deny) and x.area not in {p.area for p in d.passages.values()}:
        return msg("no strait or canal there")
    if isinstance(x, o.Volunteer) and step != "war" and _at_war(state, x.actor):
        return msg("only a neutral power volunteers coaling rights")
    if not b.controls(state, x.area, x.actor):
        return msg("you have no established Control marker there")
    if isinstance(x, o.Volunteer) and step != "war" and not _at_war(state, x.to):
        return msg("that power is not at war")
    return None


def _war_round(d: BritanniaData, state: State, step: str, x: o.Order, own: Sequence[o.Order],
               moved: set[int]) -> str | None:
    """A war round's moves, attacks and peace (war.rounds): one step only, no unit of that
    kind and strength there (not already moved by an order above), not adjacent; an attack
    with no unit of that kind there nor one an own move brings; peace in the first phase."""
    war = state["wars"][0]
    if isinstance(x, o.Peace) and step == "war-first" and x.actor in combatants(war):
        return msg("peace is made in the second phase of a round")
    pending = step == "war-second" and any(
        u["power"] == x.actor for p in war.get("pending", []) for u in state["units"]
        if u["id"] in p["ids"])
    if isinstance(x, o.Move):
        near = adjacent(d, state, x.actor, x.origin)
        steps = listed(said_place(p) for p in sorted(near, key=o._area_name))
        if x.via:  # the steps named, as for a move not adjacent: the next mail need not guess
            return msg("one step only: one step from {origin} reaches {places}",
                       origin=said_place(x.origin), places=steps)
        unit = next((u for u in _units(state, [x.actor], x.origin, x.unit)
                     if u["strength"] == x.strength and u["id"] not in moved), None)
        if unit is None and not pending:
            return msg("no such unit there")
        if x.dest not in near:  # the steps named, so that the next mail need not guess them
            return msg("not adjacent: one step from {origin} reaches {places}",
                       origin=said_place(x.origin), places=steps)
        if unit is not None:
            moved.add(unit["id"])
        return None
    if isinstance(x, o.Attack) and not pending:
        arriving = any(isinstance(y, o.Move) and y.dest == x.where and y.unit == x.unit
                       for y in own)
        if not arriving and not _units(state, [x.actor], x.where, x.unit):
            return msg("no such unit there")
    return None
