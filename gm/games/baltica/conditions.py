"""Conditional Pax Baltica orders: the facts their conditions may ask about.

The shared layer (:mod:`gm.orders.conditions`) wraps an order as
``Conditional(order, cond, form)``. Pax Baltica phases are sequential, so a
condition sees the board at the moment the order is carried out (orders.md §4):
:class:`BalticaFacts` answers from what the ordering power may know then: its
own blocks' strengths (or a block revealed to it), how many enemy or own
blocks stand in a territory, the combat round, and whether a power moved into
a territory this turn (:class:`MovesInto`, public: blocks move in plain sight).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POWERS
from gm.orders.conditions import Conditional, Predicate, Quantity


def unwrap(order: Any) -> tuple[Any, Conditional | None]:
    """(the plain order, its Conditional wrapper or None)."""
    if isinstance(order, Conditional):
        return order.order, order
    return order, None


@dataclass(frozen=True)
class MovesInto(Predicate):
    """``russia moves into Livland``: that power moved blocks into that territory this turn."""

    power: str
    territory: str

    def echo(self) -> str:
        return f"{self.power} moves into {self.territory}"


@dataclass
class BalticaFacts:
    """What ``power`` may know now, in the words of the condition language."""

    world: World
    power: str
    round: int = 0

    def quantity(self, q: Quantity) -> int:
        """``round``, ``strength of B``, ``enemy blocks in T``, ``my blocks in T``.

        The strength of a block the power may not see counts as 0 (parse-time checks
        refuse such conditions; this keeps the engine from leaking them).
        """
        w = self.world
        if q.name == "round":
            return self.round
        if q.name == "strength":
            b = w.bid_block(q.args[0])
            if b not in w.state.blocks or not w.state.on_map(b):
                return 0
            if w.power_of(b) == self.power:
                return w.state.blocks[b].strength
            return w.state.turn.revealed.get(self.power, {}).get(b, 0)
        t = w.bid_territory(q.args[0])
        if t not in w.board.territories:
            return 0
        if q.name == "enemy_blocks":
            return len(w.enemy_blocks(self.power, t))
        if q.name == "own_blocks":
            return len(w.blocks_of(self.power, t))
        return 0

    def holds(self, p: Predicate) -> bool:
        """``X moves into T``: X's blocks entered T this game turn."""
        if isinstance(p, MovesInto):
            t = self.world.bid_territory(p.territory)
            who = p.power.lower()
            if who not in POWERS:
                nation = self.world.bid_nation(p.power)
                who = self.world.power_of_nation(nation) if nation else who
            return any(e[0] == who for e in self.world.state.turn.entries.get(t, []))
        return False


def applies(world: World, power: str, wrapper: Conditional | None, round_: int = 0) -> bool:
    """Whether a (possibly conditional) order is to be carried out now (``unless``: not)."""
    if wrapper is None:
        return True
    return wrapper.applies(BalticaFacts(world, power, round_))
