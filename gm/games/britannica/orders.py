"""The typed orders of Pax Britannica (orders.md §6) and their JSON form.

Every order names the power that acts (``actor``): the section's power, or
the power chosen by a ``FOR`` line for a seat that controls two (Germany also
plays Austria-Hungary, seed "Austria-Hungary"). ``Conditional`` wraps an order
with its condition (orders.md §4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

MARKER_KINDS = ("interest", "influence", "protectorate", "possession", "dominion")
CONTROL_KINDS = ("protectorate", "possession", "dominion")


@dataclass(frozen=True)
class Buy:
    actor: str
    unit: str  # "army" | "fleet"
    strength: int


@dataclass(frozen=True)
class Place:
    actor: str
    kind: str
    area: str


@dataclass(frozen=True)
class Upgrade:
    actor: str
    area: str
    kind: str


@dataclass(frozen=True)
class Downgrade:
    actor: str
    area: str
    kind: str  # "interest" or "none" (remove)


@dataclass(frozen=True)
class Move:
    actor: str
    unit: str
    strength: int
    origin: str  # "home" or an area id
    dest: str
    via: tuple[str, ...] = ()


@dataclass(frozen=True)
class Merchant:
    actor: str
    origin: str | None  # None: a new merchant fleet
    dest: str


@dataclass(frozen=True)
class Canal:
    actor: str
    area: str


@dataclass(frozen=True)
class Garrison:
    actor: str
    area: str
    strength: int


@dataclass(frozen=True)
class Transfer:
    actor: str
    amount: int
    to: str


@dataclass(frozen=True)
class TreatyText:
    actor: str
    name: str
    public: bool
    parties: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class Sign:
    actor: str
    name: str


@dataclass(frozen=True)
class NotYet:
    """An order of a phase or rule not yet implemented: parsed, always refused."""

    actor: str
    verb: str
    text: str


@dataclass(frozen=True)
class SwitchPower:
    """``FOR austria-hungary``: the lines below act for that power (orders.md §1)."""

    actor: str
    to: str



# -- conditions (orders.md §4 and §6) -----------------------------------------
@dataclass(frozen=True)
class Places:
    power: str
    kind: str  # a marker kind, "control" or "any"
    area: str
    negated: bool = False


@dataclass(frozen=True)
class MovesInto:
    power: str
    area: str


@dataclass(frozen=True)
class BuysFleet:
    power: str


@dataclass(frozen=True)
class Funds:
    op: str  # ">=", "<=", ">", "<", "="
    amount: int


@dataclass(frozen=True)
class Not:
    cond: Cond


@dataclass(frozen=True)
class All:
    conds: tuple[Cond, ...]


@dataclass(frozen=True)
class Any_:
    conds: tuple[Cond, ...]


Cond = Places | MovesInto | BuysFleet | Funds | Not | All | Any_


@dataclass(frozen=True)
class Conditional:
    order: Order
    cond: Cond
    form: str = "if"  # "if", "unless", "if-then"

    @property
    def actor(self) -> str:
        return self.order.actor


Order = (Buy | Place | Upgrade | Downgrade | Move | Merchant | Canal | Garrison | Transfer
         | TreatyText | Sign | NotYet | SwitchPower)
AnyOrder = Order | Conditional

_TYPES: dict[str, type] = {c.__name__: c for c in (
    Buy, Place, Upgrade, Downgrade, Move, Merchant, Canal, Garrison, Transfer, TreatyText,
    Sign, NotYet, SwitchPower, Places, MovesInto, BuysFleet, Funds, Not, All, Any_, Conditional)}


def to_json(obj: Any) -> dict[str, Any]:
    """Serialise an order or condition as ``{"type": ..., fields...}``."""
    out: dict[str, Any] = {"type": type(obj).__name__}
    for f in fields(obj):
        v = getattr(obj, f.name)
        if isinstance(v, tuple) and v and not isinstance(v[0], str):
            v = [to_json(x) for x in v]
        elif isinstance(v, tuple):
            v = list(v)
        elif hasattr(v, "__dataclass_fields__"):
            v = to_json(v)
        out[f.name] = v
    return out


def from_json(data: Mapping[str, Any]) -> Any:
    """Rebuild what :func:`to_json` wrote."""
    cls = _TYPES[data["type"]]
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        v = data[f.name]
        if isinstance(v, dict):
            v = from_json(v)
        elif isinstance(v, list):
            v = tuple(from_json(x) if isinstance(x, dict) else x for x in v)
        kwargs[f.name] = v
    return cls(**kwargs)


def base(order: AnyOrder) -> Order:
    """The order inside a conditional (or the order itself)."""
    return order.order if isinstance(order, Conditional) else order


__all__ = [n for n in _TYPES] + ["Cond", "Order", "AnyOrder", "to_json", "from_json", "base",
                                 "MARKER_KINDS", "CONTROL_KINDS", "asdict", "field"]

