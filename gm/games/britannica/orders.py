"""The typed orders of Pax Britannica (orders.md §6) and their JSON form.

Every order names the power that acts (``actor``): the section's power, or
the power chosen by a ``FOR`` line for a seat that controls two (Germany also
plays Austria-Hungary, seed "Austria-Hungary"). Conditions are the shared ones
(:mod:`gm.orders.conditions`: ``Conditional``, ``All``/``Any_``/``Not``, the
``funds`` comparison) plus this game's order predicates (orders.md §4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from enum import Enum
from typing import Any

from gm.i18n import msg
from gm.orders.conditions import (
    All,
    Any_,
    Comparison,
    Condition,
    Conditional,
    Form,
    Not,
    Op,
    OrderPredicate,
    Quantity,
    unwrap,
)

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
class Volunteer:
    """``volunteer coaling AREA to POWER``: a neutral's Control area for that power's coaling
    use for the war (seed, Coaling Rights)."""

    actor: str
    area: str
    to: str


@dataclass(frozen=True)
class Deny:
    """``deny AREA to POWER``: a strait or canal closed to that power in war (seed, Canals
    and Straits); AREA may be named by the passage (Suez, Bosporus, Panama)."""

    actor: str
    area: str
    to: str


@dataclass(frozen=True)
class NoOrders:
    """No orders received from the seat ``actor`` (its default): the engine counts these
    for the drop-out rules (gm/games/britannica/dropout.py)."""

    actor: str

    def echo(self) -> str:
        return "(no orders received)"


@dataclass(frozen=True)
class SwitchPower:
    """``FOR austria-hungary``: the lines below act for that power (orders.md §1)."""

    actor: str
    to: str



# -- conditions (orders.md §4 and §6): the shared layer, Britannica's predicates -----
KIND_SETS = {"control": frozenset(CONTROL_KINDS), "any": frozenset(MARKER_KINDS)}


def _area_name(ident: str) -> str:
    from gm.games.britannica.data import load

    d = load()
    if ident in d.areas:
        return d.areas[ident].name
    if ident in d.seas:
        return d.seas[ident].name
    cape = d.raw_map.get("cape_zones", {}).get(ident)
    return str(cape["name"]) if cape else ident


@dataclass(frozen=True)
class Places(OrderPredicate):
    """``italy places [no] control in Tunis``: among the orders that power submitted."""

    power: str
    kind: str  # a marker kind, "control" or "any"
    area: str
    negated: bool = False

    def matches(self, order: Any) -> bool:
        return (isinstance(order, Place | Upgrade) and order.area == self.area
                and order.kind in KIND_SETS.get(self.kind, frozenset({self.kind})))

    def echo(self) -> str:
        from gm.games.britannica.parser import said_place, said_power, said_word

        said = {"power": said_power(self.power), "kind": said_word(self.kind),
                "area": said_place(self.area)}
        if self.negated:
            return msg("{power} places no {kind} in {area}", **said)
        return msg("{power} places {kind} in {area}", **said)


@dataclass(frozen=True)
class MovesInto(OrderPredicate):
    """``russia moves into Manchuria``: a move or garrison order of that power ending there."""

    power: str
    area: str
    negated: bool = False

    def matches(self, order: Any) -> bool:
        return ((isinstance(order, Move) and order.dest == self.area)
                or (isinstance(order, Garrison) and order.area == self.area))

    def echo(self) -> str:
        from gm.games.britannica.parser import said_place, said_power

        return msg("{power} moves into {area}", power=said_power(self.power),
                   area=said_place(self.area))


@dataclass(frozen=True)
class BuysFleet(OrderPredicate):
    """``germany buys fleet``: a fleet purchase among that power's orders."""

    power: str
    negated: bool = False

    def matches(self, order: Any) -> bool:
        return isinstance(order, Buy) and order.unit == "fleet"

    def echo(self) -> str:
        from gm.games.britannica.parser import said_power

        return msg("{power} buys fleet", power=said_power(self.power))


Cond = Condition


# -- Congress of Europe and War orders (seed, Congress of Europe; War) -------------
@dataclass(frozen=True)
class CallCongress:
    """``congress in Italy``: call a Congress of Europe at that site (needs a Casus Belli)."""

    actor: str
    site: str
    about: tuple[int, ...] = ()  # CB numbers as the reports list them; () = every one


@dataclass(frozen=True)
class Attend:
    """``attend``: attend the Congress announced (parties attend unless they ``stay away``)."""

    actor: str
    attend: bool = True


@dataclass(frozen=True)
class Propose:
    """``propose 1: Britain keeps Egypt; France takes Tunis`` or, marker by marker,
    ``propose "Name": italy protectorate in Tunis; france none in Tunis``."""

    actor: str
    name: str
    clauses: tuple[tuple[str, str, str], ...]  # (power, kind / "none" / "keeps" / "takes", area)


@dataclass(frozen=True)
class Vote:
    """``vote "Name" yes|no|abstain``: a secret ballot, revealed after the deadline."""

    actor: str
    name: str
    choice: str


@dataclass(frozen=True)
class Defy:
    """``defy "Name"``: refuse to sign the resolution adopted by Congress."""

    actor: str
    name: str


@dataclass(frozen=True)
class Breach:
    """``breach "Name" by France``: a party lodges another party's breach of a ratified treaty."""

    actor: str
    name: str
    violator: str


@dataclass(frozen=True)
class Object:
    """``object to USA``: a European power objects to the USA's or Japan's attendance at
    the Congress (seed, order of the Congress for email play)."""

    actor: str
    power: str


@dataclass(frozen=True)
class Declare:
    """``declare war on France``: needs a Casus Belli against that power."""

    actor: str
    target: str


@dataclass(frozen=True)
class Support:
    """``support Italy``: join that power's alliance in its war (a declaration of war)."""

    actor: str
    ally: str


@dataclass(frozen=True)
class Attack:
    """``attack in Manchuria`` (armies) or ``attack fleet in North Atlantic`` (naval units)."""

    actor: str
    unit: str  # "army" | "fleet"
    where: str


@dataclass(frozen=True)
class Retreat:
    """``retreat army 3 from Manchuria to Formosa``: a standing retreat order for this war
    round (without a strength: every unit of that kind retreating from there)."""

    actor: str
    unit: str
    origin: str
    dest: str
    strength: int | None = None


@dataclass(frozen=True)
class Peace:
    """``peace``: agree to end the war now (it ends when every combatant agrees)."""

    actor: str


Order = (Buy | Place | Upgrade | Downgrade | Move | Merchant | Canal | Garrison | Transfer
         | TreatyText | Sign | NotYet | NoOrders | Volunteer | Deny | SwitchPower | CallCongress | Attend | Propose | Vote
         | Defy | Declare | Support | Attack | Retreat | Peace | Breach | Object)
AnyOrder = Order | Conditional

_TYPES: dict[str, type] = {c.__name__: c for c in (
    Buy, Place, Upgrade, Downgrade, Move, Merchant, Canal, Garrison, Transfer, TreatyText,
    Sign, NotYet, NoOrders, Volunteer, Deny, SwitchPower, CallCongress, Attend, Propose, Vote, Defy, Declare, Support,
    Attack, Retreat, Peace, Breach, Object, Places, MovesInto, BuysFleet, Not, All, Any_, Conditional,
    Comparison, Quantity)}
_ENUMS: dict[str, type[Enum]] = {"Form": Form, "Op": Op}


def actor_of(order: AnyOrder) -> str:
    """The power that acts (the plain order's, for a conditional one)."""
    return base(order).actor


def to_json(obj: Any) -> dict[str, Any]:
    """Serialise an order or condition as ``{"type": ..., fields...}``."""
    out: dict[str, Any] = {"type": type(obj).__name__}
    for f in fields(obj):
        v = getattr(obj, f.name)
        if isinstance(v, tuple) and v and isinstance(v[0], tuple):
            v = [list(x) for x in v]
        elif isinstance(v, tuple) and v and hasattr(v[0], "__dataclass_fields__"):
            v = [to_json(x) for x in v]
        elif isinstance(v, tuple):
            v = list(v)
        elif isinstance(v, Enum):
            v = {"enum": type(v).__name__, "value": v.value}
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
        if isinstance(v, dict) and "enum" in v:
            v = _ENUMS[v["enum"]](v["value"])
        elif isinstance(v, dict):
            v = from_json(v)
        elif isinstance(v, list):
            v = tuple(from_json(x) if isinstance(x, dict) else tuple(x) if isinstance(x, list)
                      else x for x in v)
        kwargs[f.name] = v
    return cls(**kwargs)


def base(order: AnyOrder) -> Order:
    """The order inside a conditional (or the order itself)."""
    return unwrap(order)


__all__ = [n for n in _TYPES] + ["Cond", "Order", "AnyOrder", "to_json", "from_json", "base", "actor_of", "Form", "Op",
                                 "MARKER_KINDS", "CONTROL_KINDS", "asdict", "field"]

