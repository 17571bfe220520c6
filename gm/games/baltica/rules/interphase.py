"""The Activation and Replacements Interphase (0.3), as an ordered list of sub-steps.

0.3: "Both players roll for entry into the war of their respective allies (10.1) and
then reinforce or build blocks with replacements (8.0). The Swedish player performs the
Interphase first, then the Coalition player does the same."

By mail the Interphase is one phase (``1701-interphase``) in which both players send
their orders at once (``build``, ``replace``, ``reform``, ...); the engine then runs
:data:`INTERPHASE_STEPS` in order. Each sub-step is a function of the World and both
players' orders; to add one (a truce offer, 10.2), insert a :class:`SubStep` where the
rules put it. What a player did not order is decided by the documented defaults
(docs/baltica.md, "The Interphase").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gm.games.baltica.conditions import unwrap
from gm.games.baltica.orders import TruceOffer
from gm.games.baltica.rules import activation, truce
from gm.games.baltica.rules.world import World

Orders = Mapping[str, Sequence[Any]]
"""Both players' orders for the Interphase, by power (conditions already unwrapped or not:
each sub-step reads what it needs)."""


@dataclass(frozen=True)
class SubStep:
    """One row of the Interphase: an id for logs and tests, the rule, what it does."""

    id: str
    rule: str
    run: Callable[[World, Orders], None]


def activation_rolls(world: World, orders: Orders) -> None:
    """10.1: "Roll a die for each nation that may activate: on a 6, that nation becomes
    active and enters the war" with the section 11 modifiers (Ottomans +1 and Ukraine +2
    with Karl XII in Ukraine, Prussia and Hannover -1). Sweden rolls first (0.3), each
    player's nations in data order."""
    for power in world.state.powers:
        for nation in world.board.nations:
            if activation.may_roll(world, nation, power) and activation.activation_roll(
                    world, nation):
                activation.activate(world, nation, "10.1")


def truce_offers(world: World, orders: Orders) -> None:
    """10.2: "Any nation (except Sweden, Ukraine, or Poland) may offer to submit to a
    truce during any Interphase. The offer must be accepted and goes into effect
    immediately." Each player's ``truce offer N`` orders, Sweden's first (0.3); the
    offers come before the activation rolls, so a nation that submits spends nothing."""
    for power in world.state.powers:
        for o in orders.get(power, ()):
            inner, _ = unwrap(o)
            if not isinstance(inner, TruceOffer):
                continue
            why = truce.offer_truce(world, power, world.bid_nation(inner.nation) or "")
            if why is not None:
                world.emit("order_failed", [power], order=inner.echo(), why=why.value,
                           code=why.name)


INTERPHASE_STEPS: tuple[SubStep, ...] = (
    SubStep("truce-offers", "10.2", truce_offers),
    SubStep("activation", "10.1, 11.x", activation_rolls),
)
"""What the Interphase does, in the rulebook's order (0.3, 2.3, 8.x, 10.1, 11.2)."""


def run_interphase(world: World, orders: Orders) -> None:
    """Carry out every sub-step of :data:`INTERPHASE_STEPS` in order."""
    for step in INTERPHASE_STEPS:
        step.run(world, orders)
