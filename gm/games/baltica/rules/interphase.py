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

from gm.games.baltica.conditions import applies, unwrap
from gm.games.baltica.orders import TruceOffer
from gm.games.baltica.rules import (
    activation,
    attrition,
    entry_3cg,
    nations,
    reforms,
    spending,
    truce,
)
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World

Orders = Mapping[str, Sequence[Any]]
"""Both players' orders for the Interphase, by power."""


@dataclass(frozen=True)
class SubStep:
    """One row of the Interphase: an id for logs and tests, the rule, what it does."""

    id: str
    rule: str
    run: Callable[[World, Orders], None]


def orders_of(world: World, orders: Orders, power: str, kind: type) -> list[Any]:
    """``power``'s orders of one type whose condition (if any) holds, in the order given."""
    out = []
    for o in orders.get(power, ()):
        inner, cond = unwrap(o)
        if not isinstance(inner, kind):
            continue
        if applies(world, power, cond):
            world.unmet.pop(id(o), None)
            out.append(inner)
        else:
            world.unmet[id(o)] = (power, cond)
    return out


def tell_unmet(world: World, orders: Orders) -> None:
    """Issue 18: a line for each conditional order whose condition did not hold when the
    Interphase came to it ("condition not met")."""
    for power, cond in world.unmet.values():
        world.emit("order_failed", [power], order=cond.echo(), why=Why.CONDITION_FALSE.value,
                   code=Why.CONDITION_FALSE.name)
    world.unmet.clear()


def due_activations(world: World, orders: Orders) -> None:
    """12.4 #3: an ally won by a Special Envoy "enters the war during the next
    Interphase" (3CG 14.2 Saxony #5: Saxony back from Aurora's truce in the item's
    ``year``); 12.3 #3 (reforms accelerated) moves a reformed army on the Year Track.
    The RP changes left for this Interphase (8.8) are read by the spending sub-step."""
    for item in list(world.state.interphase_due):
        if item["what"] == "activate" and int(item.get("year", 0)) <= world.state.year:
            world.state.interphase_due.remove(item)
            activation.activate(world, item["nation"], "12.4")
        elif item["what"] == "reform_accelerated":
            world.state.interphase_due.remove(item)
            reforms.accelerate(world)


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


def christian_solidarity(world: World, orders: Orders) -> None:
    """11.6: Sweden's choice between a truce on the Ottomans and letting Russia or Saxony
    reactivate, by its first ``solidarity`` order (default: the truce)."""
    from gm.games.baltica.orders import Solidarity

    chosen = orders_of(world, orders, "sweden", Solidarity)[:1]
    if chosen and not nations.solidarity_under_truce(world):  # issue 18: say so
        world.emit("order_failed", ["sweden"], order=chosen[0].echo(),
                   why=Why.NO_SOLIDARITY_CHOICE.value, code=Why.NO_SOLIDARITY_CHOICE.name)
    nation = world.bid_nation(chosen[0].reactivate) if chosen and chosen[0].reactivate else None
    nations.christian_solidarity_choice(world, nation, bool(chosen))


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


def reform_orders(world: World, orders: Orders) -> None:
    """11.2: "At the start of every following Interphase, the Coalition player may choose
    an army to reform" (the ``reform`` order; default: none)."""
    from gm.games.baltica.orders import Reform

    for power in world.state.powers:
        given = orders_of(world, orders, power, Reform)
        for order in given[:1]:
            reforms.reform(world, power, world.bid_block(order.block), order)
        for order in given[1:]:  # issue 18: say why the others were not carried out
            world.emit("order_failed", [power], order=order.echo(),
                       why=Why.ONE_REFORM.value, code=Why.ONE_REFORM.name)


def year_track(world: World, orders: Orders) -> None:
    """11.2: the Year Track at the start of the Interphase (armies and fleets arrive)."""
    reforms.year_track_arrivals(world)


def night_rider(world: World, orders: Orders) -> None:
    """2.3: Karl XII's return from exile, to the first territory of Sweden's ``build``
    ``deploy`` lists that qualifies (else the default)."""
    from gm.games.baltica.orders import Build

    wanted = [world.bid_territory(t) for power in world.state.powers
              for o in orders_of(world, orders, power, Build) for t in o.deploy]
    reforms.karl_returns(world, wanted)


def self_sufficient(world: World, orders: Orders) -> None:
    """11.7, 11.8, 11.9: blocks that use no RPs are restored (and Mazepa deployed)."""
    spending.self_sufficient(world)


def replacements_and_builds(world: World, orders: Orders) -> None:
    """8.1-8.7: each nation's RPs, spent on on-map replacements first, then builds;
    Sweden first (0.3)."""
    for power in world.state.powers:
        spending.spend_power(world, power, orders, orders_of)


INTERPHASE_STEPS: tuple[SubStep, ...] = (
    SubStep("truce-offers", "10.2", truce_offers),
    SubStep("due", "8.8, 12.3 #3, 12.4 #3", due_activations),
    SubStep("reform", "11.2", reform_orders),
    SubStep("year-track", "11.2", year_track),
    SubStep("night-rider", "2.3", night_rider),
    SubStep("christian-solidarity", "11.6", christian_solidarity),
    SubStep("3cg-dates", "3CG 9.7, 9.9, 10.5", lambda world, orders: entry_3cg.entry_dates(world)),
    SubStep("attrition-track", "11.1, 11.9", lambda world, orders: attrition.check_track(world)),
    SubStep("activation", "10.1, 11.x", activation_rolls),
    SubStep("austro-turkish-war", "11.6", lambda world, orders: nations.austro_turkish_war(world)),
    SubStep("british-fleet", "11.11", lambda world, orders: nations.british_fleet_interphase(world)),
    SubStep("self-sufficient", "11.7, 11.8, 11.9", self_sufficient),
    SubStep("spending", "8.1-8.7, 11.x", replacements_and_builds),
)
"""What the Interphase does, in the rulebook's order (0.3, 2.3, 8.x, 10.1, 11.2)."""


def run_interphase(world: World, orders: Orders) -> None:
    """Carry out every sub-step of :data:`INTERPHASE_STEPS` in order."""
    for step in INTERPHASE_STEPS:
        step.run(world, orders)
    tell_unmet(world, orders)
