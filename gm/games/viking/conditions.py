"""Conditional Pax Viking orders: what their conditions may ask (orders.md §4).

A player's turn is sequential, so a condition is judged when its order is
reached, on the board of that moment (orders.md §4: "Conditions about the
board see the board at the moment the order is carried out"); ``funds`` is
the silfr left after the orders above. What makes a condition worth writing
in a game by mail is what the player cannot know when they write: the
answer to a trade offer and the result of an Althing vote, both settled by
other players in the middle of the turn (the orders after them wait, and
their conditions see the answer). So a player can write::

    journey from Ladoga to Holmgard
    offer blue: give 3 silfr for tile Odin
    play Odin if trade accepted
    invest draw unless trade accepted

Quantities: ``round``, ``funds`` (= ``silfr``), ``hand`` (tiles in your
hand), ``actions left``, ``longships at PLACE`` (yours, a region or a post,
ally longships you command included) and ``rival longships at PLACE``.
Predicates: ``trade accepted`` (the last offer of this turn, yours or a
counter-offer, was accepted and carried out) and ``althing passed`` (the last
Althing of this turn resolved its event). Every one of them is public or the
player's own: a condition never reads a rival's hand or the saga pile.

Votes and trade answers are not conditional: a vote is cast blind (the votes
are secret until the Althing closes) and nothing changes while an offer waits
for its answer, so a condition there could only restate what the player
already sees; such lines are refused with that reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gm.games.viking.table import Refusal, Table
from gm.i18n import msg
from gm.orders.conditions import Conditional, Predicate, Quantity


@dataclass(frozen=True)
class TradeAccepted(Predicate):
    """``trade accepted``: the last trade of this turn was accepted and carried out."""

    def echo(self) -> str:
        return msg("trade accepted")


@dataclass(frozen=True)
class AlthingPassed(Predicate):
    """``althing passed``: the last Althing of this turn resolved its event."""

    def echo(self) -> str:
        return msg("althing passed")


@dataclass
class VikingFacts:
    """What ``power`` may know now, in the words of the condition language."""

    t: Table
    power: str

    def quantity(self, q: Quantity) -> int:
        t, p = self.t, self.power
        if q.name == "round":
            return int(t.s["round"])
        if q.name == "funds":
            return t.silfr(p)
        if q.name == "hand":
            return len(t.player(p)["hand"])
        if q.name == "actions_left":
            return int(t.rule("max_actions")) - int(t.s["turn"].get("actions", 0))
        if q.name in ("longships_at", "rival_longships_at"):
            try:
                node = t.node(q.args[0])
            except Refusal:
                return 0
            counts = t.count_at(node)
            if q.name == "longships_at":
                return counts[p]
            return sum(n for who, n in counts.items() if who != p)
        raise LookupError(f"no Pax Viking quantity {q.name}")

    def holds(self, pred: Predicate) -> bool:
        turn = self.t.s["turn"]
        if isinstance(pred, TradeAccepted):
            return bool(turn.get("trade_results")) and turn["trade_results"][-1]
        if isinstance(pred, AlthingPassed):
            return bool(turn.get("althing_results")) and turn["althing_results"][-1]
        raise LookupError(f"no Pax Viking condition {pred.echo()}")


def applies(t: Table, power: str, order: Any) -> bool:
    """Whether a (possibly conditional) order is to be carried out now."""
    if not isinstance(order, Conditional):
        return True
    return order.applies(VikingFacts(t, power))
