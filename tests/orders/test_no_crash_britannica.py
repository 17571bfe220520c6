"""Issue 17 class 1, Pax Britannica: no valid order crashes anything.

Order lines of every kind of orders.md §6 (English and French keywords, plain and
conditional), naming every area, sea zone, cape zone and power in every spelling the
parser accepts, are parsed and validated for a seat as the service does; the orders not
refused go through the stored JSON and back, the phase is adjudicated, then the next
one with no orders: nothing may raise. The phases come from a game walked from the 1880
set-up with random orders of the same kinds (movement, negotiation, Congress, war).
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gm.dice import Dice
from gm.games.base import Verdict
from gm.games.britannica import orders as bo
from gm.games.britannica.module import Britannica
from gm.games.britannica.parser import names
from gm.orders.model import ParsedOrder, SourceLine
from gm.orders.names import strip_accents

MODULE = Britannica()
N = names()


def _spellings(index: Any) -> list[str]:
    out: list[str] = []
    for n in index.names:
        for s in (n, strip_accents(n), n.lower(), n.upper()):
            if s not in out:
                out.append(s)
    return out


AREAS = _spellings(N.areas)
SEAS = _spellings(N.seas)
POWERS = _spellings(N.powers)
KINDS = ("interest", "influence", "protectorate", "possession", "control", "intérêt",
         "protectorat")
UNITS = ("army", "fleet", "armée", "flotte")

TEMPLATES = (
    "buy {U} {N}", "acheter {U} {N}", "place {K} in {A}", "placer {K} dans {A}",
    "upgrade {A} to {K}", "améliorer {A} vers {K}", "downgrade {A} to {K}",
    "move {U} {N} from home to {A}", "move {U} {N} from {A} to {A2} via {S}",
    "déplacer {U} {N} de patrie vers {A}", "merchant from {S} to {S2}", "merchant new in {S}",
    "canal {A}", "garrison {A} with army {N}", "transfer {N} to {P}", "FOR {P}",
    "congress at {P} about CB-{N}", "congress in {A}", "congrès à {P} sur CB-{N}, CB-{N2}",
    "attend", "stay away", "propose {N}: {P} keeps {A}; {P2} takes {A2}",
    'propose "Entente {N}": {P} {K} in {A}', "vote {N} yes", "voter {N} non", "defy {N}",
    "declare war on {P}", "déclarer la guerre à {P}", "support {P}",
    'treaty "Pact {N}" public between {P}, {P2}: {P} keeps {A}',
    'sign treaty "Pact {N}"', "sign treaty “Pact {N}”", "attack in {A}", "attack {U} in {A}",
    "retreat {U} {N} from {A} to {A2}", "volunteer coaling {A} to {P}", "deny Suez to {P}",
    "deny {A} to {P}", "peace", "paix", 'breach "Pact {N}" by {P}', "object to {P}",
)
CONDITIONS = ("{P} places {K} in {A}", "{P} places no {K} in {A}", "{P} moves into {A}",
              "{P} buys fleet", "funds >= {N}", "not {P} buys fleet",
              "({P} moves into {A} or funds < {N})")


def _fill(template: str, pick: Any) -> str:
    values = {"U": pick(UNITS), "N": str(pick(range(0, 12))), "N2": str(pick(range(0, 12))),
              "K": pick(KINDS), "A": pick(AREAS), "A2": pick(AREAS), "S": pick(SEAS),
              "S2": pick(SEAS), "P": pick(POWERS), "P2": pick(POWERS)}
    return template.format(**values)


def _line(pick: Any) -> str:
    order = _fill(pick(TEMPLATES), pick)
    form = pick(("plain", "plain", "if", "unless", "then"))
    if form == "plain":
        return order
    cond = _fill(pick(CONDITIONS), pick)
    return f"if {cond} then {order}" if form == "then" else f"{order} {form} {cond}"


def _orders_of(state: dict[str, Any], power: str, lines: list[str]) -> list[Any]:
    parsed = MODULE.parse_orders(state, power, [SourceLine(i, t) for i, t in enumerate(lines, 1)])
    got = [r.order for r in parsed.lines if isinstance(r, ParsedOrder)]
    return [o for o, v in zip(got, MODULE.validate(state, power, got), strict=True)
            if v.verdict is not Verdict.REFUSED]


SCRIPT = {  # a Congress and a war in the first turn (as tests/games/britannica/test_britannica_by_mail.py)
    "1880-movement": {"britain": ["place protectorate in Eritrea", "move army 3 from home to Eritrea"]},
    "1880-negotiation": {"italy": ["congress in Russia"]},
    "1880-congress": {"britain": ['propose "Eritrea to Britain": italy none in Eritrea'],
                      "germany": ["attend"], "usa": ["attend"]},
    "1880-congress-vote": {p: ['vote "Eritrea to Britain" yes'] for p in ("britain", "russia")},
    "1880-congress-sign": {"italy": ['defy "Eritrea to Britain"']},
    "1880-war": {"britain": ["declare war on Italy"]},
}


@cache
def phases() -> tuple[dict[str, Any], ...]:
    """The states of 30 phases from 1880, walked with random orders of every seat."""
    rng = random.Random("issue-17")
    state = MODULE.setup("1880", {})
    seen = []
    for _ in range(30):
        if MODULE.phase(state).ended:
            break
        seen.append(state)
        info = MODULE.phase(state)
        script = SCRIPT.get(info.id, {})
        orders = {p: _orders_of(state, p, script.get(p, []) + [_line(rng.choice) for _ in range(8)])
                  for p in info.owing}
        state = MODULE.adjudicate(state, orders, Dice(b"\x17" * 32, "walk", info.id)).state
    return tuple(seen)


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_no_valid_order_crashes_the_phase_or_the_next(d: st.DataObject) -> None:
    state = d.draw(st.sampled_from(phases()))
    info = MODULE.phase(state)
    power = d.draw(st.sampled_from(sorted(set(info.owing) | set(info.may_order))
                                   or list(state["powers"])))
    lines = [_line(lambda xs: d.draw(st.sampled_from(list(xs))))
             for _ in range(d.draw(st.integers(1, 6)))]
    kept = _orders_of(state, power, lines)
    for o in kept:
        event(f"{info.kind}: {type(bo.base(o)).__name__}")
    stored = [MODULE.order_from_json(MODULE.order_to_json(o)) for o in kept]
    outcome = MODULE.adjudicate(state, {power: stored}, Dice(b"\x11" * 32, "prop", info.id))
    for p in (*state["powers"], None):
        MODULE.view(outcome.state, p)
    nxt = MODULE.phase(outcome.state)
    if not nxt.ended:
        MODULE.adjudicate(outcome.state, {}, Dice(b"\x12" * 32, "prop", nxt.id))
