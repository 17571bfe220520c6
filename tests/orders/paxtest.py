"""The typed orders of the test grammar (paxtest.lark) and its transformer."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lark import Token

from gm.orders.conditions import OrderPredicate
from gm.orders.grammar import GameGrammar, OrderTransformer, ParseContext
from gm.orders.names import NameIndex

KINDS = {
    "interet": "interest",
    "protectorat": "protectorate",
    "controle": "control",
}
UNITS = {"armee": "army", "flotte": "fleet"}
CONTROL = frozenset({"protectorate", "possession"})  # markers that control an area


def kind_matches(asked: str, placed: str) -> bool:
    return asked == "any" or asked == placed or (asked == "control" and placed in CONTROL)


@dataclass(frozen=True)
class Place:
    kind: str
    area: str

    def echo(self) -> str:
        return f"place {self.kind} in {self.area}"


@dataclass(frozen=True)
class Buy:
    unit: str
    size: int

    def echo(self) -> str:
        return f"buy {self.unit} {self.size}"


@dataclass(frozen=True)
class Upgrade:
    area: str
    kind: str

    def echo(self) -> str:
        return f"upgrade {self.area} to {self.kind}"


@dataclass(frozen=True)
class Transfer:
    amount: int
    power: str

    def echo(self) -> str:
        return f"transfer {self.amount} to {self.power}"


@dataclass(frozen=True)
class Places(OrderPredicate):
    power: str
    kind: str
    area: str
    negated: bool = False

    def matches(self, order: Any) -> bool:
        return isinstance(order, Place) and order.area == self.area and kind_matches(
            self.kind, order.kind
        )

    def echo(self) -> str:
        no = "no " if self.negated else ""
        return f"{self.power} places {no}{self.kind} in {self.area}"


@dataclass(frozen=True)
class Buys(OrderPredicate):
    power: str
    unit: str
    negated: bool = False

    def matches(self, order: Any) -> bool:
        return isinstance(order, Buy) and order.unit == self.unit

    def echo(self) -> str:
        return f"{self.power} buys {self.unit}"


@dataclass(frozen=True)
class Retreat:
    block: str
    to: str

    def echo(self) -> str:
        return f"retreat {self.block} to {self.to}"


@dataclass(frozen=True)
class Move:
    origin: str
    blocks: tuple[str, ...]
    to: str

    def echo(self) -> str:
        return f"move from {self.origin}: {', '.join(self.blocks)} to {self.to}"


@dataclass(frozen=True)
class Siege:
    area: str

    def echo(self) -> str:
        return f"siege {self.area}"


@dataclass(frozen=True)
class MovesInto(OrderPredicate):
    power: str
    area: str
    negated: bool = False

    def matches(self, order: Any) -> bool:
        return isinstance(order, Move) and order.to == self.area

    def echo(self) -> str:
        return f"{self.power} moves into {self.area}"


class PaxTransformer(OrderTransformer):
    def retreat(self, c: list[Any]) -> Retreat:
        return Retreat(c[0], c[1])

    def move(self, c: list[Any]) -> Move:
        return Move(c[0], tuple(c[1:-1]), c[-1])

    def siege(self, c: list[Any]) -> Siege:
        return Siege(c[0])

    def moves_into(self, c: list[Any]) -> MovesInto:
        return MovesInto(c[0], c[1])

    def place(self, c: list[Any]) -> Place:
        return Place(c[0], c[1])

    def buy(self, c: list[Any]) -> Buy:
        return Buy(c[0], int(c[1]))

    def upgrade(self, c: list[Any]) -> Upgrade:
        return Upgrade(c[0], c[1])

    def transfer(self, c: list[Any]) -> Transfer:
        return Transfer(int(c[0]), c[1])

    def kind(self, c: list[Token]) -> str:
        word = str(c[0]).lower()
        return KINDS.get(word, word)

    def unit(self, c: list[Token]) -> str:
        word = str(c[0]).lower()
        return UNITS.get(word, word)

    def places(self, c: list[Any]) -> Places:
        return Places(c[0], c[1], c[2])

    def places_no(self, c: list[Any]) -> Places:
        return Places(c[0], c[1], c[2], negated=True)

    def buys(self, c: list[Any]) -> Buys:
        return Buys(c[0], c[1])


GRAMMAR = GameGrammar(
    "paxtest",
    PaxTransformer,
    error_examples={
        "place needs a kind of marker and an area: place KIND in AREA": [
            "place in Tunis",
            "place protectorate Tunis",
            "place protectorate in",
        ],
        "buy needs a unit and its size: buy army 3": ["buy 3", "buy army", "buy army three"],
    },
    path=Path(__file__).with_name("paxtest.lark"),
)

POWERS = NameIndex.of(["britain", "france", "germany", "italy", "russia", "austria-hungary"], "power")
AREAS = NameIndex(
    {
        "Tunis": [],
        "Egypt": [],
        "Morocco": [],
        "Serbia": [],
        "Kongo": [],
        "Tripoli": [],
        "Livland": [],
        "Estland": [],
        "Ingermanland": [],
        "Skåne": [],
        "Småland": [],
        "Trakai": ["Grodno"],
    },
    "area",
)
BLOCKS = NameIndex({"Karl XII": [], "Vellinck": [], "Dalregementet": [], "Pyotr I": ["Pjotr I"]}, "block")


def context(power: str = "britain") -> ParseContext:
    return ParseContext(names={"power": POWERS, "area": AREAS, "block": BLOCKS}, power=power)
