"""Adjudication of one Pax Baltica phase: pure, ``(board, state, orders, dice) -> Outcome``.

Decide-then-execute within each rule: rules read the working copy of the state
and only they change it; the input dict is never touched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.dice import Dice
from gm.games.baltica.board import Board
from gm.games.baltica.conditions import unwrap
from gm.games.baltica.orders import BattleOrder, Cede, HitsPrefer
from gm.games.baltica.rules import battle, forage, nations, siege, victory
from gm.games.baltica.rules.action_phase import run_action_phase
from gm.games.baltica.rules.actions import action_roll, set_rerolls
from gm.games.baltica.rules.event_effects import Choices, check_returns
from gm.games.baltica.rules.events import resolve_event
from gm.games.baltica.rules.fleet_battle import fight_at_sea, fleet_battle_zones
from gm.games.baltica.rules.interphase import run_interphase
from gm.games.baltica.rules.losses import eliminate
from gm.games.baltica.rules.reforms import night_rider_3cg, nyen_track
from gm.games.baltica.rules.retreat import BorderCount, carry_out_retreat, retreat_path
from gm.games.baltica.rules.standing import BattleStanding
from gm.games.baltica.rules.truce import impose_due_truces
from gm.games.baltica.rules.winter_campaign import winter_campaign
from gm.games.baltica.rules.world import World
from gm.games.baltica.sequence import acting_power, next_step, phase_id
from gm.games.baltica.standing import record as record_standing
from gm.games.baltica.standing import with_standing
from gm.games.baltica.state import GameState, other_power
from gm.games.base import Outcome, State


def adjudicate(board: Board, state: State, orders: Mapping[str, Sequence[Any]],
               dice: Dice) -> Outcome:
    """Close the phase ``state`` waits in and return the next state and the events."""
    gs = GameState.from_json(state)
    world = World(board, gs, dice)
    gs.turn.revealed = {}
    given = orders
    if gs.step in ("battles", "forage"):  # orders.md §5: the decisions given in advance
        orders = with_standing(world, orders)
    world.prefer = _prefer(world, orders)
    world.emit("phase", None, phase=phase_id(gs))
    cessions(world, orders.get("sweden", ()))
    set_rerolls(world, orders)  # 3CG 13.2/13.3: standing, for the next action rolls
    step = gs.step
    if step == "interphase":
        run_interphase(world, orders)
    elif step == "action-roll":
        night_rider_3cg(world)  # 3CG 11.1: "on game turn 2 ... And so on"
        if action_roll(world):
            gs.step = "battles"  # 3.1: both events: "proceeds to the Forage Phase"
            turn_ends = world.reading("both_events") == "turn-ends"
            world.emit("straight_to_forage", turn_ends=turn_ends)
            first = gs.turn.first or gs.powers[0]
            for p in (first, other_power(first)):
                gs.turn.events_due.remove(p)
                resolve_event(world, p, Choices())
            if turn_ends:  # 3CG: "Then the game turn ends": no Supply Phase
                gs.step = "forage"
                nyen_track(world)  # 3CG 11.2: at the end of every game turn
    elif step.startswith("actions-"):
        power = acting_power(gs)
        assert power is not None
        run_action_phase(world, power, orders.get(power, ()),
                         orders.get(other_power(power), ()))
        record_standing(world, orders)
    elif step == "battles":
        battle_phase(world, orders)
        record_standing(world, given)  # orders.md §5: a hits prefer given here holds for the forage
    elif step == "forage":
        forage.forage_phase(world, gs.turn.first or gs.powers[0])
        nyen_track(world)  # 3CG 11.2: at the end of every game turn
    elif step == "winter-campaign":
        if winter_campaign(world, orders.get("sweden", ()), orders.get("coalition", ())):
            battle_phase(world, orders)  # 3.4: "the move may cause a battle as normal"
    check_returns(world)
    end_of_phase(world)
    return Outcome(gs.to_json(), world.events)


def cessions(world: World, orders: Sequence[Any]) -> None:
    """11.1: "The Swedish player may at any time cede" Bremen-Verden or Pommern: ``cede``
    orders, in any phase Sweden orders in, are carried out first."""
    for o in orders:
        inner, _ = unwrap(o)
        if isinstance(inner, Cede):
            why = nations.cede(world, world.bid_territory(inner.territory),
                               world.bid_nation(inner.to))
            if why is not None:
                world.emit("order_failed", ["sweden"], order=inner.echo(), why=why.value,
                           code=why.name)


def end_of_phase(world: World) -> None:
    """What happens "at the end of the current phase": the truces called (10.2), then
    sudden death (0.4), else the next step; past the scenario's last game turn, its
    victory table (0.4, 3CG 12.x)."""
    nations.end_of_phase_triggers(world)
    impose_due_truces(world)
    if victory.sudden_death(world):
        return
    next_step(world.state)
    if world.state.ended:
        victory.scenario_victory(world)


def _prefer(world: World, orders: Mapping[str, Sequence[Any]]) -> dict[str, list[str]]:
    """5.5/7.3: each power's ``hits prefer`` list (the last one given wins)."""
    out: dict[str, list[str]] = {}
    for power, os in orders.items():
        for o in os:
            inner, _ = unwrap(o)
            if isinstance(inner, HitsPrefer):
                out[power] = [world.bid_block(n) for n in inner.blocks]
    return out


def battle_order(world: World, orders: Mapping[str, Sequence[Any]]) -> list[str]:
    """5.1: "The First Player determines the order battles will be fought"; battles he
    did not list follow in territory-id order (the default)."""
    pending = battle.battle_territories(world)
    first = world.state.turn.first or world.state.powers[0]
    listed: list[str] = []
    for o in orders.get(first, ()):
        inner, _ = unwrap(o)
        if isinstance(inner, BattleOrder):
            listed = [world.bid_territory(t) for t in inner.territories]
    return [t for t in listed if t in pending] + [t for t in pending if t not in listed]


def battle_phase(world: World, orders: Mapping[str, Sequence[Any]]) -> None:
    """0.3: battles one at a time: fleet battles (9.3) in sea-zone order, then land battles
    in the First Player's order, then every siege (6.0); then a line for each standing
    order not carried out (rules/standing.py)."""
    standing = BattleStanding.collect(world, orders)
    for sea in fleet_battle_zones(world):  # 9.3, before the land battles (docs/baltica.md)
        standing.before_battle(sea)
        fight_at_sea(world, sea, standing.wish)
    for territory in battle_order(world, orders):
        if world.occupied_by_both(territory):
            standing.before_battle(territory)
            winner = battle.fight(world, territory, standing.wish, standing.regroups)
            _siege_after_battle(world, territory, winner)
    siege.resolve_sieges(world)
    standing.report()


def _siege_after_battle(world: World, territory: str, winner: str | None) -> None:
    """6.5: "If the besieging side loses, the besieging blocks must immediately retreat
    and the siege is not resolved." (They retreat as the battle's losers: forced.)"""
    for s in list(world.state.turn.sieges):
        if s.territory == territory and winner is not None and winner != s.power:
            world.state.turn.sieges.remove(s)
            world.emit("siege_abandoned", None, territory=world.tname(territory))
            count = BorderCount()
            for b in s.blocks:
                if world.state.blocks[b].location != territory:
                    continue
                path = retreat_path(world, b, territory, other_power(s.power), None, count)
                if path is None:
                    eliminate(world, b)
                else:
                    carry_out_retreat(world, b, territory, path, count)
                    world.emit("retreated", None, block=world.name(b),
                               territory=world.tname(territory), to=world.tname(path[-1]),
                               round=0, forced=True)
