"""Issue 17 class 1, Pax Viking: no valid order crashes anything.

Order lines of every kind of the Pax Viking grammar (English and French, plain and
conditional), naming every tile, trading post, region, player and jarl in every
spelling (display names with their diacritics, French names, accent-free forms), are
parsed and validated for the player whose phase it is, as the service does; the orders
kept go through the stored JSON and back, the phase is adjudicated, then the next one
with the default orders: nothing may raise. The phases come from a 3-player game walked
with the benchmark's random player (tests/games/viking/viking_long_game.py).
"""

from __future__ import annotations

import hashlib
import random
from functools import cache
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gm.dice import Dice
from gm.games.viking.data import load
from gm.orders.model import ParsedOrder, SourceLine
from gm.orders.names import strip_accents
from tests.games.viking.viking_long_game import _turn_orders, bench, module

DATA = load()


def _both(*names: str) -> list[str]:
    return list(dict.fromkeys(s for n in names if n for s in (n, strip_accents(n), n.lower())))


TILES = [s for t in DATA.tiles.values() for s in _both(t.name)]
POSTS = [s for p in DATA.posts.values() for s in _both(p.name, p.name_fr)]
PLACES = POSTS + [s for r in DATA.regions.values() for s in _both(r.name, r.name_fr)] + [
    "home", "foyer"]
POWERS = ["red", "blue", "green", "rouge", "bleu"] + [s for j in DATA.jarls.values()
                                                   for s in _both(j.name)]
TEMPLATES = (
    "invest draw", "investir piocher", "invest buy {T}", "journey from {L} to {L2}, {L3}",
    "voyager de {L} vers {L2}", "offer {P}: give {N} silfr for tile {T}",
    "offer {P} at {L}: give follower at {O} for longship at {L2}",
    "offrir {P} : donner rien contre promesse \"aide\"", "counter: give {N} silfr for nothing",
    "play {T}", "play {T} at {O}", "jouer {T} sur {O} : {L}", "activate {O}",
    "activer {O} : {L}, {P}", "parley {O}", "parley {O} challenge {P}",
    "parlementer {O} défier {P}", "jarldom from {L} to {O}", "sweden", "suède",
    "theocracy {O}", "théocratie {O}", "rus take {T}", "keep {T}, {T2}", "garder {T}", "pass",
    "passer", "vote yes", "voter non", "accept", "refuse", "accepter")
CONDITIONS = ("funds >= {N}", "hand < {N}", "actions left >= {N}", "longships at {L} > {N}",
              "rival longships at {L} >= {N}", "trade accepted", "althing passed",
              "round > {N} and not trade accepted")


def _fill(template: str, pick: Any) -> str:
    return template.format(T=pick(TILES), T2=pick(TILES), L=pick(PLACES), L2=pick(PLACES),
                           L3=pick(PLACES), O=pick(POSTS), P=pick(POWERS), N=pick(range(6)))


def _line(pick: Any) -> str:
    order = _fill(pick(TEMPLATES), pick)
    form = pick(("plain", "plain", "if", "unless", "then"))
    if form == "plain":
        return order
    cond = _fill(pick(CONDITIONS), pick)
    return f"if {cond} then {order}" if form == "then" else f"{order} {form} {cond}"


def _dice(tag: str, phase: str) -> Dice:
    return Dice(seed=hashlib.sha256(tag.encode()).digest(), game_id=tag, phase_id=phase)


@cache
def phases() -> tuple[dict[str, Any], ...]:
    """The states of the first 40 phases of a 3-player game."""
    rng = random.Random(17)
    state = module.setup("3p", {})
    seen = []
    for n in range(40):
        info = module.phase(state)
        if info.ended:
            break
        seen.append(state)
        if info.kind == "turn":
            orders = {info.owing[0]: _turn_orders(state, info.owing[0], rng)}
        elif info.kind in ("althing", "trade"):
            orders = bench.orders_for(state, rng)
            for p in info.owing:
                orders.setdefault(p, module.default_orders(state, p))
        else:
            orders = {}
        state = module.adjudicate(state, orders, _dice("walk", f"{info.id}-{n}")).state
    return tuple(seen)


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_no_valid_order_crashes_the_phase_or_the_next(d: st.DataObject) -> None:
    state = d.draw(st.sampled_from(phases()))
    info = module.phase(state)
    if not info.owing:
        return
    power = d.draw(st.sampled_from(sorted(info.owing)))
    lines = [_line(lambda xs: d.draw(st.sampled_from(list(xs))))
             for _ in range(d.draw(st.integers(1, 6)))]
    parsed = module.parse_orders(state, power, [SourceLine(i, t) for i, t in enumerate(lines, 1)])
    got = [r.order for r in parsed.lines if isinstance(r, ParsedOrder)]
    kept = [o for o, v in zip(got, module.validate(state, power, got), strict=True) if v.stored]
    for o in kept:
        event(f"{info.kind}: {type(getattr(o, 'order', o)).__name__}")
    stored = [module.order_from_json(module.order_to_json(o)) for o in kept]
    orders = {p: module.default_orders(state, p) for p in info.owing}
    orders[power] = stored
    outcome = module.adjudicate(state, orders, _dice("prop", info.id))
    for p in (*state["powers"], None):
        module.view(outcome.state, p)
    nxt = module.phase(outcome.state)
    if not nxt.ended:
        module.adjudicate(outcome.state, {p: module.default_orders(outcome.state, p)
                                          for p in nxt.owing}, _dice("prop2", nxt.id))
