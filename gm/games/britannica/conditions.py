"""Conditions of Pax Britannica orders under the simultaneous-phase rule.

orders.md §4: a condition about another power's orders sees every order that
power submitted for the phase, conditional or not; so two orders each
conditional on the other's absence both fail (seed, Movement / Status Change:
the Tunis example), and the result never depends on the order in which powers
are looked at. ``funds`` is the acting power's money when the order is reached.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gm.games.britannica import orders as o

_KIND_SETS = {"control": set(o.CONTROL_KINDS), "any": set(o.MARKER_KINDS)}


def _placed_kinds(submitted: Sequence[o.AnyOrder], area: str) -> set[str]:
    out: set[str] = set()
    for order in submitted:
        b = o.base(order)
        if isinstance(b, o.Place | o.Upgrade) and b.area == area:
            out.add(b.kind)
    return out


def evaluate(cond: o.Cond, submitted: Mapping[str, Sequence[o.AnyOrder]], funds: int) -> bool:
    """Truth of ``cond`` given every power's submitted orders (keyed by acting power)."""
    match cond:
        case o.Places(power, kind, area, negated):
            want = _KIND_SETS.get(kind, {kind})
            hit = bool(_placed_kinds(submitted.get(power, ()), area) & want)
            return not hit if negated else hit
        case o.MovesInto(power, area):
            return any(isinstance(b, o.Move | o.Garrison) and getattr(b, "dest", getattr(b, "area", None)) == area
                       for b in map(o.base, submitted.get(power, ())))
        case o.BuysFleet(power):
            return any(isinstance(b, o.Buy) and b.unit == "fleet"
                       for b in map(o.base, submitted.get(power, ())))
        case o.Funds(op, amount):
            return {">=": funds >= amount, "<=": funds <= amount, ">": funds > amount,
                    "<": funds < amount, "=": funds == amount}[op]
        case o.Not(inner):
            return not evaluate(inner, submitted, funds)
        case o.All(conds):
            return all(evaluate(c, submitted, funds) for c in conds)
        case o.Any_(conds):
            return any(evaluate(c, submitted, funds) for c in conds)
    raise TypeError(cond)


def holds(order: o.AnyOrder, submitted: Mapping[str, Sequence[o.AnyOrder]], funds: int) -> bool:
    """Whether a (possibly conditional) order's condition lets it be carried out."""
    if not isinstance(order, o.Conditional):
        return True
    value = evaluate(order.cond, submitted, funds)
    return not value if order.form == "unless" else value
