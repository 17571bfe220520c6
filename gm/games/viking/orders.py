"""Pax Viking orders as typed values, their canonical text and their storage form.

One dataclass per order of ``orders_grammar/viking.lark``. Names are stored
canonical (the data's names); ``echo()`` is the English canonical line the
reply shows; ``to_json``/``from_json`` are what the service stores and replay
re-runs.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from gm.orders.conditions import Conditional


@dataclass(frozen=True)
class Item:
    """One thing given in a trade (Standard Actions B, Trade)."""

    kind: str  # silfr | tile | follower | longship | promise | nothing
    value: str = ""
    amount: int = 0

    def echo(self) -> str:
        if self.kind == "silfr":
            return f"{self.amount} silfr"
        if self.kind in ("follower", "longship"):
            return f"{self.kind} at {self.value}"
        if self.kind == "tile":
            return f"tile {self.value}"
        if self.kind == "promise":
            return f'promise "{self.value}"'
        return "nothing"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "value": self.value, "amount": self.amount}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Item:
        return cls(d["kind"], d.get("value", ""), int(d.get("amount", 0)))


def _items(items: tuple[Item, ...]) -> str:
    return ", ".join(i.echo() for i in items)


@dataclass(frozen=True)
class Order:
    kind: ClassVar[str] = ""
    action: ClassVar[bool] = True  # counts against the 4 actions of a turn

    def echo(self) -> str:  # pragma: no cover - every order overrides
        raise NotImplementedError


@dataclass(frozen=True)
class InvestDraw(Order):
    kind = "invest_draw"

    def echo(self) -> str:
        return "invest draw"


@dataclass(frozen=True)
class InvestBuy(Order):
    kind = "invest_buy"
    tile: str

    def echo(self) -> str:
        return f"invest buy {self.tile}"


@dataclass(frozen=True)
class Journey(Order):
    kind = "journey"
    start: str
    path: tuple[str, ...]

    def echo(self) -> str:
        return f"journey from {self.start} to {', '.join(self.path)}"


@dataclass(frozen=True)
class Offer(Order):
    kind = "offer"
    action = False  # part of the JOURNEY it follows
    to: str
    give: tuple[Item, ...]
    get: tuple[Item, ...]
    at: str = ""  # the step of the journey where it is made (default: the first colocated)

    def echo(self) -> str:
        at = f" at {self.at}" if self.at else ""
        return f"offer {self.to}{at}: give {_items(self.give)} for {_items(self.get)}"


@dataclass(frozen=True)
class Counter(Order):
    kind = "counter"
    action = False
    give: tuple[Item, ...]
    get: tuple[Item, ...]

    def echo(self) -> str:
        return f"counter: give {_items(self.give)} for {_items(self.get)}"


@dataclass(frozen=True)
class Play(Order):
    kind = "play"
    tile: str
    at: str = ""
    choices: tuple[str, ...] = ()

    def echo(self) -> str:
        at = f" at {self.at}" if self.at else ""
        ch = f": {', '.join(self.choices)}" if self.choices else ""
        return f"play {self.tile}{at}{ch}"


@dataclass(frozen=True)
class Activate(Order):
    kind = "activate"
    post: str
    choices: tuple[str, ...] = ()

    def echo(self) -> str:
        ch = f": {', '.join(self.choices)}" if self.choices else ""
        return f"activate {self.post}{ch}"


@dataclass(frozen=True)
class Parley(Order):
    kind = "parley"
    post: str
    rival: str = ""  # the rival challenged (PARLEY, Challenge); "" = the only one there

    def echo(self) -> str:
        return f"parley {self.post}" + (f" challenge {self.rival}" if self.rival else "")


@dataclass(frozen=True)
class JarldomAction(Order):
    kind = "jarldom"
    start: str
    post: str

    def echo(self) -> str:
        return f"jarldom from {self.start} to {self.post}"


@dataclass(frozen=True)
class SwedenAction(Order):
    kind = "sweden"

    def echo(self) -> str:
        return "sweden"


@dataclass(frozen=True)
class TheocracyAction(Order):
    kind = "theocracy"
    post: str

    def echo(self) -> str:
        return f"theocracy {self.post}"


@dataclass(frozen=True)
class RusAction(Order):
    kind = "rus"
    tile: str

    def echo(self) -> str:
        return f"rus take {self.tile}"


@dataclass(frozen=True)
class Keep(Order):
    kind = "keep"
    action = False
    tiles: tuple[str, ...]

    def echo(self) -> str:
        return f"keep {', '.join(self.tiles)}"


@dataclass(frozen=True)
class Pass(Order):
    kind = "pass"
    action = False

    def echo(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Vote(Order):
    kind = "vote"
    action = False
    yes: bool

    def echo(self) -> str:
        return f"vote {'yes' if self.yes else 'no'}"


@dataclass(frozen=True)
class Accept(Order):
    kind = "accept"
    action = False

    def echo(self) -> str:
        return "accept"


@dataclass(frozen=True)
class Refuse(Order):
    kind = "refuse"
    action = False

    def echo(self) -> str:
        return "refuse"


ORDER_TYPES: dict[str, type[Order]] = {
    c.kind: c for c in (InvestDraw, InvestBuy, Journey, Offer, Counter, Play, Activate, Parley,
                        JarldomAction, SwedenAction, TheocracyAction, RusAction, Keep, Pass, Vote,
                        Accept, Refuse)
}
TURN_ORDERS = (InvestDraw, InvestBuy, Journey, Offer, Play, Activate, Parley, JarldomAction,
               SwedenAction, TheocracyAction, RusAction, Keep, Pass)
INFLUENCE_ACTIONS = {"jarldom": JarldomAction, "sweden": SwedenAction,
                     "theocracy": TheocracyAction, "rus": RusAction}


def order_to_json(order: Any) -> dict[str, Any]:
    """Plain orders by field; a conditional one by its canonical text (re-parsed)."""
    if isinstance(order, Conditional):
        return {"type": "conditional", "text": order.echo(), "order": order_to_json(order.order)}
    out: dict[str, Any] = {"type": order.kind}
    for f in fields(order):
        v = getattr(order, f.name)
        if f.name in ("give", "get"):
            v = [i.to_json() for i in v]
        elif isinstance(v, tuple):
            v = list(v)
        out[f.name] = v
    return out


def order_from_json(data: dict[str, Any]) -> Any:
    if data["type"] == "conditional":
        from gm.games.viking.parsing import reparse

        return reparse(data["text"])
    cls = ORDER_TYPES[data["type"]]
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        v = data[f.name]
        if f.name in ("give", "get"):
            v = tuple(Item.from_json(i) for i in v)
        elif isinstance(v, list):
            v = tuple(v)
        kwargs[f.name] = v
    return cls(**kwargs)
