"""The battle phase's standing orders (5.6 ``retreat``, 5.7 ``regroup``, 5.1 ``battle
order``) and why any of them was not carried out.

The engine hands the battle rules two things (an interface kept stable): ``wish(block,
round)``, where the owner's standing order retreats a block now, and ``regroups``
(block -> territory). :class:`BattleStanding` builds both from the players' orders and
remembers which were carried out; :meth:`BattleStanding.report` then gives each order
that was not a line in its owner's report (``order_failed``): not in a battle, the
condition never met, the block eliminated first, the battle over before its combat
turn, a lost battle or a siege (no regroup, 5.7, 6.4). An impossible retreat is told
when it happens (``retreat_refused``: the block fires instead, 5.6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gm.games.baltica.conditions import applies, unwrap
from gm.games.baltica.orders import BattleOrder, Regroup, Retreat
from gm.games.baltica.rules.limits import entry_problem
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.retreat import may_enter
from gm.games.baltica.rules.world import World
from gm.orders.conditions import Conditional


@dataclass
class Standing:
    """One standing order of the phase and what became of it."""

    power: str
    order: Any
    cond: Conditional | None
    block: str = ""
    to: str = ""
    asked: bool = False  # its condition held at a combat turn of the block
    done: bool = False  # carried out, or its failure already told


@dataclass
class BattleStanding:
    """The battle phase's retreats and regroups, as the battle rules ask for them."""

    world: World
    retreats: list[Standing] = field(default_factory=list)
    regroup_orders: list[Standing] = field(default_factory=list)
    battle_orders: list[Standing] = field(default_factory=list)
    in_battle: set[str] = field(default_factory=set)  # blocks that had a combat turn
    fought: dict[str, str] = field(default_factory=dict)  # block -> its battle territory
    besiegers: set[str] = field(default_factory=set)  # besieging when the phase began
    regroups: dict[str, str] = field(default_factory=dict)
    """block -> where its owner's standing order regroups it (5.7); the battle rules
    remove each regroup they carry out or refuse (and tell)."""

    @classmethod
    def collect(cls, world: World, orders: Mapping[str, Sequence[Any]]) -> BattleStanding:
        """Each power's ``retreat``, ``regroup`` and ``battle order`` orders (a later
        regroup of the same block replaces an earlier one)."""
        out = cls(world)
        regroups: dict[str, Standing] = {}
        for power, os in orders.items():
            for o in os:
                inner, cond = unwrap(o)
                if isinstance(inner, Retreat):
                    out.retreats.append(Standing(power, inner, cond, world.bid_block(inner.block),
                                                 world.bid_territory(inner.to)))
                elif isinstance(inner, Regroup):
                    for name in inner.blocks:
                        b = world.bid_block(name)
                        regroups[b] = Standing(power, inner, cond, b,
                                               world.bid_territory(inner.to))
                elif isinstance(inner, BattleOrder):
                    out.battle_orders.append(Standing(power, inner, cond))
        out.regroup_orders = list(regroups.values())
        out.regroups = {s.block: s.to for s in out.regroup_orders
                        if world.power_of(s.block) == s.power}
        out.besiegers = {b for siege in world.state.turn.sieges for b in siege.blocks}
        return out

    def before_battle(self, territory: str) -> None:
        """Note the blocks about to fight in ``territory`` (a land or sea battle)."""
        for b in self.world.state.at(territory):
            self.fought.setdefault(b, territory)

    # -- the interface of the battle rules -------------------------------------------
    def wish(self, block: str, round_: int) -> str | None:
        """Where the owner's first retreat order for ``block`` whose condition holds now
        sends it (None: it fires)."""
        self.in_battle.add(block)
        for s in self.retreats:
            if s.block != block or self.world.power_of(block) != s.power:
                continue
            if applies(self.world, s.power, s.cond, round_):
                s.asked = True
                s.done = True  # carried out, or refused and told by the battle (5.6)
                return s.to
        return None

    # -- the report ----------------------------------------------------------------------
    def report(self) -> None:
        """A line for every standing order not carried out (issue 18: "the player never has
        to guess")."""
        w, fought = self.world, self.fought
        first = w.state.turn.first or w.state.powers[0]
        fought_in = set(fought.values())
        for s in self.battle_orders:
            if s.power != first:
                self._failed(s, Why.FIRST_PLAYER_ORDERS)
                continue
            missing = [t for t in s.order.territories if w.bid_territory(t) not in fought_in]
            if missing:
                self._failed(s, Why.NO_BATTLE_THERE, BattleOrder(tuple(missing)).echo())
        for s in self.retreats:
            if s.done:
                continue
            gone = s.block in w.state.blocks and not w.state.on_map(s.block)
            if s.block not in fought:
                why = Why.NOT_IN_BATTLE
            elif gone:
                why = Why.ELIMINATED_FIRST
            elif s.cond is not None and not s.asked and s.block in self.in_battle:
                why = Why.CONDITION_FALSE
            elif w.state.blocks[s.block].location != fought[s.block]:
                why = Why.LEFT_THE_BATTLE
            else:
                why = Why.BATTLE_OVER
            self._failed(s, why)
        for s in self.regroup_orders:
            if s.block not in self.regroups:
                continue  # carried out, or refused and told (5.7)
            if s.block in self.besiegers and s.block not in fought:
                why = Why.NO_REGROUP_AFTER_SIEGE
            elif s.block not in fought:
                why = Why.NOT_IN_BATTLE
            elif s.block in w.state.blocks and not w.state.on_map(s.block):
                why = Why.ELIMINATED_FIRST
            elif w.state.blocks[s.block].location != fought[s.block]:
                why = Why.LEFT_THE_BATTLE
            else:
                why = Why.NOT_WINNER
            self._failed(s, why)

    def _failed(self, s: Standing, why: Why, text: str = "") -> None:
        """Tell ``s``'s owner (the order's echo is a message: said in the reader's
        language, :meth:`World.emit`)."""
        text = text or (s.cond.echo() if s.cond is not None else s.order.echo())
        self.world.emit("order_failed", [s.power], order=text, why=why.value, code=why.name)


def retreat_problem(world: World, block: str, territory: str, to: str,
                    allowed: set[str], count_room: int) -> Why:
    """Why ``block`` cannot retreat from ``territory`` to ``to`` (5.6, 9.5): the reason
    told to its owner when a standing retreat becomes fire. ``allowed``: the neighbours
    it may leave towards (5.6 borders); ``count_room``: room left on the border to ``to``
    this round (when adjacent)."""
    if to in world.board.seas:
        return Why.NO_SEA_RETREAT
    if to not in world.board.territories:
        return Why.NOT_A_TERRITORY
    why = entry_problem(world, [block], to)
    if why is not None:
        return why
    if not may_enter(world, world.power_of(block), to):
        return Why.NOT_FRIENDLY
    if to in world.board.neighbours(territory):
        if to not in allowed:
            return Why.BORDER_NOT_ALLOWED
        if count_room < 1:
            return Why.BORDER_FULL
    return Why.TOO_FAR_TO_RETREAT
