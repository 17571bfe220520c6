"""Pax Viking orders as typed values, their canonical text and their storage form.

One dataclass per order of ``orders_grammar/viking.lark``. Names are stored
canonical (the data's names); ``echo()`` is the canonical line the reply shows: a
:class:`gm.i18n.Text` holding the English, which the reply says again in the seat's
language through the catalogue, whose French uses the grammar's French keywords so
that it re-parses too (orders.md §8); ``to_json``/``from_json`` are what the
service stores and replay re-runs.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from gm.games.viking.data import load
from gm.i18n import Echo, Text, msg
from gm.orders.conditions import Conditional


@dataclass(frozen=True)
class Item:
    """One thing given in a trade (Standard Actions B, Trade)."""

    kind: str  # silfr | tile | follower | longship | promise | nothing
    value: str = ""
    amount: int = 0

    def echo(self) -> Text:
        if self.kind == "silfr":
            return msg("{amount} silfr", amount=self.amount)
        if self.kind == "follower":
            return msg("follower at {post}", post=said_place(self.value))
        if self.kind == "longship":
            return msg("longship at {place}", place=_place(self.value))
        if self.kind == "tile":
            return msg("tile {tile}", tile=said_place(self.value))
        if self.kind == "promise":
            return msg('promise "{promise}"', promise=self.value)
        return msg("nothing")

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "value": self.value, "amount": self.amount}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Item:
        return cls(d["kind"], d.get("value", ""), int(d.get("amount", 0)))


def gives_nothing(items: Any) -> bool:
    """Whether a side of a trade gives nothing (no item, or "nothing"): French says it
    « Vert ne donne rien à Bleu », not « donne rien » (the events' and the report's trade
    sentences)."""
    return all(i.kind == "nothing" for i in items)


def said_place(name: str) -> str:
    """A place or a saga tile (its English name, as an order stores it) as an echo names
    it: a :class:`gm.i18n.Name` said in the reader's language, "Norvège", "Chantier naval"
    to a French seat (``name_fr``), a name the grammar reads back as the same one."""
    return load().said(name)


def said_power(power: str) -> str:
    """A player (their colour id, as an order stores it) as an echo names them: a
    :class:`gm.i18n.Name`, "Vert" to a French seat (rules.toml ``colors``,
    ``display_fr``), the colour the report shows and the grammar reads back."""
    return load().said(power)


def _said_all(names: tuple[str, ...]) -> str:
    """``A, B, C`` (a journey's path, a tile's choices), places in the reader's language."""
    return load().said_all(names)


def _place(place: str) -> str:
    """A place as an echo names it: ``home`` is a word of the language ("foyer")."""
    return msg("home") if place == "home" else said_place(place)


def _items(items: tuple[Item, ...]) -> Text:
    """``2 silfr, tile Odin`` as one message, each item said in the reader's language."""
    out = items[0].echo() if items else msg("nothing")
    for item in items[1:]:
        out = msg("{a}, {b}", a=out, b=item.echo())
    return out


@dataclass(frozen=True)
class Order:
    kind: ClassVar[str] = ""
    action: ClassVar[bool] = True  # counts against the 4 actions of a turn

    def echo(self) -> Echo:
        """The canonical order (orders.md §2), said as the grammar reads it back: never
        elided ("voyager de Islande", :class:`gm.i18n.Echo`)."""
        return Echo(self.text())

    def text(self) -> Text:  # pragma: no cover - every order overrides
        """The canonical order as a message."""
        raise NotImplementedError


@dataclass(frozen=True)
class InvestDraw(Order):
    kind = "invest_draw"

    def text(self) -> Text:
        return msg("invest draw")


@dataclass(frozen=True)
class InvestBuy(Order):
    kind = "invest_buy"
    tile: str

    def text(self) -> Text:
        return msg("invest buy {tile}", tile=said_place(self.tile))


@dataclass(frozen=True)
class Journey(Order):
    kind = "journey"
    start: str
    path: tuple[str, ...]

    def text(self) -> Text:
        return msg("journey from {start} to {path}", start=_place(self.start),
                   path=_said_all(self.path))


@dataclass(frozen=True)
class Offer(Order):
    kind = "offer"
    action = False  # part of the JOURNEY it follows
    to: str
    give: tuple[Item, ...]
    get: tuple[Item, ...]
    at: str = ""  # the step of the journey where it is made (default: the first colocated)

    def text(self) -> Text:
        if self.at:
            return msg("offer {power} at {place}: give {give} for {get}", power=said_power(self.to),
                       place=_place(self.at), give=_items(self.give), get=_items(self.get))
        return msg("offer {power}: give {give} for {get}", power=said_power(self.to),
                   give=_items(self.give), get=_items(self.get))


@dataclass(frozen=True)
class Counter(Order):
    kind = "counter"
    action = False
    give: tuple[Item, ...]
    get: tuple[Item, ...]

    def text(self) -> Text:
        return msg("counter: give {give} for {get}", give=_items(self.give), get=_items(self.get))


@dataclass(frozen=True)
class Play(Order):
    kind = "play"
    tile: str
    at: str = ""
    choices: tuple[str, ...] = ()

    def text(self) -> Text:
        choices = _said_all(self.choices)
        if self.at and self.choices:
            return msg("play {tile} at {post}: {choices}", tile=said_place(self.tile),
                       post=said_place(self.at), choices=choices)
        if self.at:
            return msg("play {tile} at {post}", tile=said_place(self.tile), post=said_place(self.at))
        if self.choices:
            return msg("play {tile}: {choices}", tile=said_place(self.tile), choices=choices)
        return msg("play {tile}", tile=said_place(self.tile))


@dataclass(frozen=True)
class Activate(Order):
    kind = "activate"
    post: str
    choices: tuple[str, ...] = ()

    def text(self) -> Text:
        if self.choices:
            return msg("activate {post}: {choices}", post=said_place(self.post),
                       choices=_said_all(self.choices))
        return msg("activate {post}", post=said_place(self.post))


@dataclass(frozen=True)
class Parley(Order):
    kind = "parley"
    post: str
    rival: str = ""  # the rival challenged (PARLEY, Challenge); "" = the only one there

    def text(self) -> Text:
        if self.rival:
            return msg("parley {post} challenge {power}", post=said_place(self.post),
                       power=said_power(self.rival))
        return msg("parley {post}", post=said_place(self.post))


@dataclass(frozen=True)
class JarldomAction(Order):
    kind = "jarldom"
    start: str
    post: str

    def text(self) -> Text:
        return msg("jarldom from {place} to {post}", place=_place(self.start),
                   post=said_place(self.post))


@dataclass(frozen=True)
class SwedenAction(Order):
    kind = "sweden"

    def text(self) -> Text:
        return msg("sweden")


@dataclass(frozen=True)
class TheocracyAction(Order):
    kind = "theocracy"
    post: str

    def text(self) -> Text:
        return msg("theocracy {post}", post=said_place(self.post))


@dataclass(frozen=True)
class RusAction(Order):
    kind = "rus"
    tile: str

    def text(self) -> Text:
        return msg("rus take {tile}", tile=said_place(self.tile))


@dataclass(frozen=True)
class Keep(Order):
    kind = "keep"
    action = False
    tiles: tuple[str, ...]

    def text(self) -> Text:
        return msg("keep {tiles}", tiles=_said_all(self.tiles))


@dataclass(frozen=True)
class Pass(Order):
    kind = "pass"
    action = False

    def text(self) -> Text:
        return msg("pass")


@dataclass(frozen=True)
class Vote(Order):
    kind = "vote"
    action = False
    yes: bool

    def text(self) -> Text:
        return msg("vote yes") if self.yes else msg("vote no")


@dataclass(frozen=True)
class Accept(Order):
    kind = "accept"
    action = False

    def text(self) -> Text:
        return msg("accept")


@dataclass(frozen=True)
class Refuse(Order):
    kind = "refuse"
    action = False

    def text(self) -> Text:
        return msg("refuse")


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
