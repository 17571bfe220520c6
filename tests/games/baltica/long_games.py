"""Whole Pax Baltica games played by the engine with seeded random orders (issue 18).

Each phase: the powers that owe orders write them as text in their seat's language
(English or French, the orders' own ``echo``), some conditional (``retreat B to T if
round >= 2 and strength of B <= 1``); a power is silent now and then, and in some games
for the whole game (a drop-out: every default). The text is parsed and validated as the
service does (refused orders dropped), the phase adjudicated, and the report of every
power and of a spectator rendered in English and French from the fog-filtered view and
the events each may see. A phase that raises, does not move the game on, says orders are
due from others than those it waits for, or renders an untranslated event or a line of the
other language (an English line in a French report, or the reverse) fails the game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gm.dice import Dice
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.orders import (
    BattleOrder,
    Build,
    Discontent,
    HitsPrefer,
    MainAttack,
    Move,
    MoveGroup,
    Pin,
    Politics,
    Recon,
    Regroup,
    Reinforce,
    Replace,
    Retreat,
    Siege,
    WinterCampaign,
)
from gm.games.baltica.rules import battle
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POWERS, GameState
from gm.games.base import SPECTATOR, Verdict
from gm.orders.model import SourceLine
from gm.service.render import render
from tests.support.language_scan import data_names, english_lines, french_lines

MODULE = BalticaModule()
NAMES = data_names("baltica")
LANGUAGES = ("en", "fr")
MAX_PHASES = 1200  # 12.1 (1700-1721) closes in about 500 phases


class GameStuck(AssertionError):
    """A phase did not close or its report could not be rendered."""


@dataclass
class Played:
    """What one game did: for the test's assertions and the doc's figures."""

    phases: int = 0
    reports: int = 0
    events: Counter[str] = field(default_factory=Counter)
    orders: Counter[str] = field(default_factory=Counter)
    refused: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    last_reports: dict[str, str] = field(default_factory=dict)


def _cond(lang: str, block: str) -> str:
    if lang == "fr":
        return f" si round >= 2 et force de {block} <= 1"
    return f" if round >= 2 and strength of {block} <= 1"


class Player:
    """One seat's random but plausible orders, as text, in its language."""

    def __init__(self, power: str, lang: str, rng: random.Random, silence: float) -> None:
        self.power, self.lang, self.rng, self.silence = power, lang, rng, silence

    def lines(self, state: dict[str, Any], kind: str, acting: bool) -> list[str]:
        if self.rng.random() < self.silence:
            return []
        world = World(MODULE.board_of(state), GameState.from_json(state), Dice.scripted([]))
        make: dict[str, Callable[[World], list[Any]]] = {
            "actions": self.actions if acting else self.opponent,
            "battle": self.battles, "forage": self.forage, "interphase": self.interphase,
            "winter-campaign": self.winter}
        out: list[str] = []
        for order in make.get(kind, lambda w: [])(world):
            out.append(order if isinstance(order, str) else order.echo(self.lang))
        return out

    # -- helpers -------------------------------------------------------------------
    def own_ground(self, w: World) -> dict[str, list[str]]:
        where: dict[str, list[str]] = {}
        for b, bs in sorted(w.state.blocks.items()):
            if (w.state.on_map(b) and w.ground(b) and bs.aboard is None
                    and bs.location in w.board.territories and w.power_of(b) == self.power):
                where.setdefault(bs.location, []).append(b)
        return where

    def tn(self, w: World, t: str) -> str:
        return w.tname(t)

    def names(self, w: World, blocks: list[str]) -> tuple[str, ...]:
        return tuple(w.name(b) for b in blocks)

    # -- phases ------------------------------------------------------------------------
    def actions(self, w: World) -> list[Any]:
        rng, out = self.rng, []  # type: random.Random, list[Any]
        where = self.own_ground(w)
        origins = sorted(where)
        rng.shuffle(origins)
        for origin in origins[: w.state.turn.actions.get(self.power, 0) + 1]:
            blocks = [b for b in where[origin] if not w.state.blocks[b].pinned
                      and not w.state.blocks[b].moved]
            nbrs = [t for t in w.board.neighbours(origin) if not w.prohibited(t)]
            if not blocks or not nbrs:
                continue
            movers = blocks[: rng.randint(1, len(blocks))]
            to, force = rng.choice(sorted(nbrs)), False
            if rng.random() < 0.2:  # further: maybe a forced march (4.4)
                far = [t for t in w.board.neighbours(to) if t != origin and not w.prohibited(t)]
                if far:
                    to, force = rng.choice(sorted(far)), rng.random() < 0.7
            out.append(Move(self.tn(w, origin),
                            (MoveGroup(self.names(w, movers), self.tn(w, to), force=force),)))
            if w.enemy_controlled(to, self.power) and rng.random() < 0.8:
                out.append(Siege(self.tn(w, to), self.names(w, movers)))
            if w.enemy_blocks(self.power, to) and rng.random() < 0.4:  # 5.3, maybe wrong
                out.append(MainAttack(self.tn(w, to), self.tn(w, rng.choice(
                    sorted(w.board.neighbours(to))))))
        for t, blocks in where.items():  # a siege by blocks already there (6.1)
            if w.enemy_controlled(t, self.power) and rng.random() < 0.5:
                out.append(Siege(self.tn(w, t), self.names(w, blocks)))
        if where and rng.random() < 0.3:
            t = rng.choice(sorted(where))
            enemy = [n for n in w.board.neighbours(t) if w.enemy_blocks(self.power, n)]
            if enemy:
                out.insert(0, Recon(self.tn(w, rng.choice(sorted(enemy)))))
        hurt = [b for bs in where.values() for b in bs
                if w.state.blocks[b].strength < w.spec(b).max_strength]
        if hurt and rng.random() < 0.4:
            out.append(Replace(w.name(rng.choice(hurt))))
        if where and rng.random() < 0.2:  # for an event's steps (12.2 #6, 12.4 #4-5)
            out.append(Reinforce(self.names(w, where[rng.choice(sorted(where))])))
        if rng.random() < 0.25:
            majors = [n for n, spec in w.board.nations.items() if spec.major
                      and n in w.state.active and w.power_of_nation(n) == self.power]
            if majors:
                out.append(Politics(w.board.nations[rng.choice(sorted(majors))].name))
        return out

    def opponent(self, w: World) -> list[Any]:
        out: list[Any] = []
        where = self.own_ground(w)
        for t, blocks in sorted(where.items()):
            if self.rng.random() < 0.3:
                out.append(Pin(self.names(w, blocks[:1]), self.tn(w, t)))
        if where and self.rng.random() < 0.2:
            out.append(Discontent((self.tn(w, self.rng.choice(sorted(where))),)))
        return out

    def battles(self, w: World) -> list[Any]:
        rng, out = self.rng, []  # type: random.Random, list[Any]
        fights = battle.battle_territories(w)
        if fights and rng.random() < 0.5:
            rng.shuffle(fights)
            out.append(BattleOrder(tuple(self.tn(w, t) for t in fights)))
        for t in fights:
            mine = w.blocks_of(self.power, t)
            for b in mine:
                nbrs = sorted(w.board.neighbours(t))
                if not nbrs:
                    continue
                roll = rng.random()
                if roll < 0.35:  # a conditional retreat, often to somewhere impossible
                    out.append(Retreat(w.name(b), self.tn(w, rng.choice(nbrs))).echo(self.lang)
                               + _cond(self.lang, w.name(b)))
                elif roll < 0.45:
                    out.append(Retreat(w.name(b), self.tn(w, rng.choice(nbrs))))
                if rng.random() < 0.3:
                    out.append(Regroup((w.name(b),), self.tn(w, rng.choice(nbrs))))
            if mine and rng.random() < 0.4:
                out.append(HitsPrefer(self.names(w, mine[::-1])))
        return out

    def forage(self, w: World) -> list[Any]:
        where = self.own_ground(w)
        if where and self.rng.random() < 0.3:
            blocks = where[self.rng.choice(sorted(where))]
            return [HitsPrefer(self.names(w, blocks))]
        return []

    def interphase(self, w: World) -> list[Any]:
        rng, out = self.rng, []  # type: random.Random, list[Any]
        if rng.random() < 0.5:
            return out  # the defaults spend every RP (docs/baltica.md)
        for b, bs in sorted(w.state.blocks.items()):
            if (w.state.on_map(b) and w.power_of(b) == self.power
                    and bs.strength < w.spec(b).max_strength and rng.random() < 0.5):
                out.append(Replace(w.name(b)))
        for nation in sorted(w.state.rp):
            if (nation in w.state.active and w.power_of_nation(nation) == self.power
                    and rng.random() < 0.6):
                homes = [t for t, spec in w.board.territories.items() if spec.nation == nation]
                deploy = tuple(self.tn(w, t) for t in rng.sample(homes, min(2, len(homes))))
                out.append(Build(w.board.nations[nation].name, rng.randint(1, 2), deploy))
        return out

    def winter(self, w: World) -> list[Any]:
        karl = w.state.blocks.get("karl-xii")
        if (self.power != "sweden" or karl is None or not w.state.on_map("karl-xii")
                or karl.location not in w.board.territories or self.rng.random() < 0.5):
            return []
        nbrs = [t for t in w.board.neighbours(karl.location) if not w.prohibited(t)]
        if not nbrs:
            return []
        to = self.rng.choice(sorted(nbrs))
        return [WinterCampaign(Move(self.tn(w, karl.location),
                                    (MoveGroup((w.name("karl-xii"),), self.tn(w, to)),)))]


def reports(state: dict[str, Any], events: list[Any]) -> dict[str, str]:
    """Every report of the phase: each power's and a spectator's, in both languages."""
    out: dict[str, str] = {}
    waits_for = list(MODULE.phase(state).owing)
    for who in (*POWERS, SPECTATOR):
        view = (MODULE.public_view(state) if who == SPECTATOR else MODULE.view(state, who))
        if who != SPECTATOR and view["owing"] != waits_for:
            # "(orders due from ...)": a battles or forage step nobody has a decision in
            # closes at once (orders.md §5); a report naming powers then drew answers
            # that reached the phase after it
            raise GameStuck(f"{who}'s report says orders are due from {view['owing']}, "
                            f"the phase waits for {waits_for}")
        shown = [{"type": e.type, "data": e.data} for e in events
                 if e.visible_to is None or who in e.visible_to]
        for lang in LANGUAGES:
            text = render("report", lang, "baltica", game_only=True, view=view,
                          events=shown, power=who)
            if "[untranslated event" in text or not text.strip():
                raise GameStuck(f"{who}/{lang} report: {text[-400:]}")
            other = (english_lines if lang == "fr" else french_lines)(text, NAMES)
            if other:  # issue 20: a French report reads French, an English one English
                raise GameStuck(f"{who}/{lang} report has the other language: {other[:3]}")
            out[f"{who}/{lang}"] = text
    return out


def standing_untold(power: str, orders: list[Any], events: list[Any]) -> list[str]:
    """Issue 18: the power's ``retreat``, ``regroup`` and ``pin`` orders that were neither
    carried out (the block retreated, regrouped, was pinned) nor told to the power with
    the reason."""
    out: list[str] = []
    mine = frozenset({power})
    for o in orders:
        inner = getattr(o, "order", o)
        if isinstance(inner, Pin):  # 4.3: every listed block pinned, or told why not
            pinned = {b for e in events if e.type == "pinned" and e.visible_to == mine
                      for b in e.data["blocks"]}
            if not set(inner.blocks) <= pinned and not any(
                    e.type == "order_failed" and e.visible_to == mine
                    and e.data["order"] == inner.echo() for e in events):
                out.append(str(inner))
            continue
        if not isinstance(inner, (Retreat, Regroup)):
            continue
        for block in inner.blocks if isinstance(inner, Regroup) else (inner.block,):
            seen = any(e.data.get("block") == block and (
                e.type in ("retreated", "regrouped")
                or (e.type == "retreat_refused" and e.visible_to == frozenset({power})))
                or (e.type == "order_failed" and e.visible_to == frozenset({power})
                    and block in e.data.get("order", "")) for e in events)
            if not seen:
                out.append(f"{inner} ({block})")
    return out


def play(scenario: str, ruleset: str, seed: int, *, dropout: str | None = None,
         silence: float = 0.1, options: dict[str, str] | None = None) -> Played:
    """Play ``scenario`` under ``ruleset`` to its end; ``dropout`` never sends orders."""
    rng = random.Random(f"{scenario}/{ruleset}/{seed}")
    langs = {p: rng.choice(LANGUAGES) for p in POWERS}
    players = {p: Player(p, langs[p], random.Random(rng.random()),
                         1.0 if p == dropout else silence) for p in POWERS}
    state = MODULE.setup(scenario, {"ruleset": ruleset, **(options or {})})
    played = Played()
    while not state["ended"]:
        info = MODULE.phase(state)
        if played.phases >= MAX_PHASES:
            raise GameStuck(f"{scenario} {ruleset} seed {seed}: still at {info.id} "
                            f"after {played.phases} phases")
        orders: dict[str, list[Any]] = {}
        for p in info.may_order or info.owing:
            acting = p in info.owing
            if not acting and info.kind != "actions":
                continue
            texts = players[p].lines(state, info.kind, acting)
            parsed = MODULE.parse_orders(state, p, [SourceLine(i + 1, t)
                                                    for i, t in enumerate(texts)])
            got = [line.order for line in parsed.lines if line.order is not None]
            verdicts = MODULE.validate(state, p, got)
            kept = [o for o, v in zip(got, verdicts, strict=True)
                    if v.verdict is not Verdict.REFUSED]
            played.refused += len(got) - len(kept)
            played.orders.update(type(o).__name__ for o in kept)
            orders[p] = kept
        dice = Dice(seed=bytes([seed % 256]) * 32, game_id=f"{scenario}-{ruleset}",
                    phase_id=info.id)
        try:
            outcome = MODULE.adjudicate(state, orders, dice)
        except Exception as exc:
            raise GameStuck(f"{scenario} {ruleset} seed {seed}: {info.id} did not close: "
                            f"{exc!r}") from exc
        if MODULE.phase(outcome.state).id == info.id and not outcome.state["ended"]:
            raise GameStuck(f"{scenario} {ruleset} seed {seed}: {info.id} did not move on")
        for p, kept in orders.items():
            untold = standing_untold(p, kept, outcome.events)
            if untold:
                raise GameStuck(f"{scenario} {ruleset} seed {seed}: {info.id}: {p}'s "
                                f"standing orders neither carried out nor told: {untold}")
        played.last_reports = reports(outcome.state, outcome.events)
        played.reports += len(played.last_reports)
        played.events.update(e.type for e in outcome.events)
        played.phases += 1
        state = outcome.state
    played.state = state
    return played
