"""Issue 17 class 1, Pax Baltica: no valid order crashes anything.

Random orders of every kind, naming every block, territory, sea zone and nation in
every spelling the data accepts (display names with their diacritics, aliases, the
accent-free forms), in English and French, plain and conditional, are parsed and
validated for a power that may order in a phase, as the service does; those not
refused go through the JSON the database stores and back, and the phase is
adjudicated, then the next one (with no orders): nothing may raise. The phases are
taken from a game of 3CG 12.1 played by the engine with plausible orders
(tests/games/baltica/long_games.py), so actions, battles, forage and the Interphase
all come up.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gm.dice import Dice
from gm.games.baltica import orders as bo
from gm.games.baltica.conditions import MovesInto
from gm.games.baltica.state import POWERS, GameState
from gm.games.base import Verdict
from gm.orders.conditions import Comparison, Conditional, Form, Op, Quantity, all_of
from gm.orders.model import ParsedOrder, SourceLine
from gm.orders.names import strip_accents
from tests.games.baltica.long_games import MODULE, Player

BOARD = MODULE.board


def _spellings(kind: str) -> list[str]:
    out: list[str] = []
    for spellings in BOARD.names(kind).values():
        display = spellings[0]
        for s in (display, strip_accents(display), *spellings[1:]):
            if s not in out:
                out.append(s)
    return out


TERRITORIES = _spellings("territory")
SEAS = _spellings("sea")
NATIONS = _spellings("nation")
BLOCKS = _spellings("block")


@cache
def phases() -> tuple[dict[str, Any], ...]:
    """States of one 12.1 game, one per phase, for its first 60 phases."""
    rng = random.Random("issue-17")
    players = {p: Player(p, rng.choice(("en", "fr")), random.Random(rng.random()), 0.1)
               for p in POWERS}
    state = MODULE.setup("12.1", {})
    seen: list[dict[str, Any]] = []
    for _ in range(60):
        if state["ended"]:
            break
        seen.append(state)
        info = MODULE.phase(state)
        orders = {}
        for p in info.owing:
            texts = players[p].lines(state, info.kind, True)
            got = [r.order for r in MODULE.parse_orders(
                state, p, [SourceLine(i + 1, t) for i, t in enumerate(texts)]).lines
                if isinstance(r, ParsedOrder)]
            orders[p] = [o for o, v in zip(got, MODULE.validate(state, p, got), strict=True)
                         if v.verdict is not Verdict.REFUSED]
        state = MODULE.adjudicate(state, orders, Dice(b"\x17" * 32, "walk", info.id)).state
    return tuple(seen)


def _spell(kind: str, ident: str) -> st.SearchStrategy[str]:
    """Every spelling of one thing: display name, accent-free, aliases, any case."""
    names = BOARD.names(kind)[ident]
    variants = [names[0], strip_accents(names[0]), *names[1:], names[0].upper(), names[0].lower()]
    return st.sampled_from(list(dict.fromkeys(variants)))


def _orders(d: st.DataObject, state: dict[str, Any], power: str) -> list[Any]:
    """Orders of every kind: mostly plausible (own blocks where they stand, neighbouring
    territories), some naming anything at all."""
    gs = GameState.from_json(state)
    side = {b: BOARD.power_of_nation(BOARD.blocks[b].nation, gs.defected) for b in gs.blocks}
    where: dict[str, list[str]] = {}
    for b, bs in sorted(gs.blocks.items()):
        if side[b] == power and bs.location in BOARD.territories:
            where.setdefault(bs.location, []).append(b)
    own_all = sorted(b for b in gs.blocks if side[b] == power)
    anywhere = st.sampled_from(TERRITORIES)
    any_block = st.sampled_from(BLOCKS)
    here = d.draw(st.sampled_from(sorted(where))) if where and d.draw(st.booleans()) else None
    if here is None and where:
        here = sorted(where)[0]
    near = sorted(BOARD.neighbours(here)) if here else []

    def spell_t(t: str) -> st.SearchStrategy[str]:
        return _spell("territory", t) if t in BOARD.territories else _spell("sea", t)

    terr = st.one_of(*(spell_t(t) for t in ([here] if here else []) + near), anywhere)
    to = st.one_of(*(spell_t(t) for t in near), anywhere) if near else anywhere
    origin = spell_t(here) if here else anywhere
    local = where.get(here, []) if here else []
    block = st.one_of(*(_spell("block", b) for b in local + own_all[:8]), any_block) \
        if own_all else any_block
    blocks = st.lists(block, min_size=1, max_size=3).map(tuple)
    if local:
        blocks = st.one_of(st.lists(st.one_of(*(_spell("block", b) for b in local)), min_size=1,
                                    max_size=3, unique=True).map(tuple), blocks)
    terrs = st.lists(terr, min_size=1, max_size=3).map(tuple)
    sea = st.sampled_from(SEAS)
    waters = st.one_of(sea, terr)
    nation = st.sampled_from(NATIONS)
    group = st.builds(bo.MoveGroup, blocks, to, st.lists(terr, max_size=2).map(tuple),
                      st.booleans())
    move = st.builds(bo.Move, origin, st.lists(group, min_size=1, max_size=2).map(tuple))
    plain = st.one_of(
        st.builds(bo.Recon, to), move, st.builds(bo.MainAttack, to, origin),
        st.builds(bo.Siege, origin, blocks),
        st.builds(bo.Politics, nation, st.lists(nation, max_size=2).map(tuple)),
        st.builds(bo.Reinforce, blocks), st.builds(bo.Pin, blocks, origin),
        st.builds(bo.Discontent, terrs),
        st.builds(bo.Replace, block, st.one_of(st.none(), st.integers(1, 4))),
        st.builds(bo.Embark, blocks, origin, blocks), st.builds(bo.Sail, blocks, waters, waters),
        st.builds(bo.Land, blocks, sea, terr), st.builds(bo.BattleOrder, terrs),
        st.builds(bo.HitsPrefer, blocks), st.builds(bo.Retreat, block, to),
        st.builds(bo.Regroup, block, to),
        st.builds(bo.Build, nation, st.integers(0, 4), st.lists(terr, max_size=2).map(tuple),
                  st.one_of(st.none(), st.integers(1, 4))),
        st.builds(bo.Reform, block), st.builds(bo.Cede, terr, nation),
        st.builds(bo.WinterCampaign, move), st.builds(bo.TruceOffer, nation),
        st.builds(bo.Solidarity, st.one_of(st.none(), nation)),
        st.builds(bo.Reroll, st.one_of(st.none(), st.integers(2, 6))),
    )
    cond = st.one_of(
        st.builds(Comparison, st.just(Quantity("round")), st.sampled_from(list(Op)),
                  st.integers(0, 4)),
        st.builds(Comparison, st.builds(lambda b: Quantity("strength", (b,)), block),
                  st.sampled_from(list(Op)), st.integers(0, 4)),
        st.builds(Comparison, st.builds(lambda t: Quantity("enemy_blocks", (t,)), terr),
                  st.sampled_from(list(Op)), st.integers(0, 6)),
        st.builds(MovesInto, st.sampled_from(POWERS), terr),
    )
    conds = st.one_of(cond, st.lists(cond, min_size=2, max_size=2).map(all_of))
    order = st.one_of(plain, st.builds(Conditional, plain, conds, st.sampled_from(list(Form))))
    return d.draw(st.lists(order, min_size=1, max_size=6))


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_no_valid_order_crashes_the_phase_or_the_next(d: st.DataObject) -> None:
    state = d.draw(st.sampled_from(phases()))
    info = MODULE.phase(state)
    power = d.draw(st.one_of(st.sampled_from(sorted(info.owing) or POWERS),
                             st.sampled_from(sorted(info.may_order) or POWERS)))
    lang = d.draw(st.sampled_from(("en", "fr")))
    texts = [o.echo(lang) if not isinstance(o, Conditional) else o.echo() for o in
             _orders(d, state, power)]
    parsed = MODULE.parse_orders(state, power, [SourceLine(i, t) for i, t in enumerate(texts, 1)])
    got = [r.order for r in parsed.lines if isinstance(r, ParsedOrder)]
    kept = [o for o, v in zip(got, MODULE.validate(state, power, got), strict=True)
            if v.verdict is not Verdict.REFUSED]
    for o in kept:
        event(f"{info.kind}: {type(getattr(o, 'order', o)).__name__}")
    stored = [MODULE.order_from_json(MODULE.order_to_json(o)) for o in kept]
    outcome = MODULE.adjudicate(state, {power: stored}, Dice(b"\x11" * 32, "prop", info.id))
    for p in (*POWERS, None):
        MODULE.view(outcome.state, p)
    if not outcome.state["ended"]:
        nxt = MODULE.phase(outcome.state)
        MODULE.adjudicate(outcome.state, {}, Dice(b"\x12" * 32, "prop", nxt.id))
