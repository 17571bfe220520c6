"""The Pax Baltica orders of orders.md §5, as frozen dataclasses.

Every order knows its canonical text (:meth:`echo`, English or French per
orders.md §8) which re-parses to the same order, and its JSON form. Names are
the canonical names of the data files (blocks, territories, sea zones,
nations). Conditions are not part of these orders: the shared layer wraps an
order as ``gm.orders.conditions.Conditional(order, cond, form)``.

Orders the engine does not carry out yet (part II of the rules: interphase,
fleets) are still typed here so that a mail naming them is
understood, and validation refuses them as "not yet implemented"
(:data:`NOT_YET_IMPLEMENTED`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from typing import Any, ClassVar

from gm.i18n import Echo, Name, Text, msg, name, translate


def _names(items: tuple[str, ...]) -> str:
    return ", ".join(items)


@cache
def _place_forms() -> dict[str, dict[str, str]]:
    """A sea zone's display name -> its names in other languages (map.toml ``words``:
    "Golfe de Finlande"); a territory keeps its name in every language."""
    from gm.games.baltica.board import load_board

    return {z.name: {lang: w["name"] for lang, w in z.words.items() if lang != "en" and "name" in w}
            for z in load_board().seas.values()}


def place(display: str) -> Name:
    """A territory or sea zone as an order names it, said in the reader's language
    ("naviguer Wachtmeister de Baltique méridionale vers Golfe de Finlande"), a name the
    grammar reads back as the same place (baltica.lark ``sea_name``; the parser knows the
    French names: map.toml and aliases.toml ``aliases``)."""
    return name(display, **_place_forms().get(display, {}))


def _places(items: tuple[str, ...]) -> Text:
    """Several places, ``Estland, Livland``, each said in the reader's language."""
    out: Text = place(items[0])
    for item in items[1:]:
        out = msg("{a}, {b}", a=out, b=place(item))
    return out


@cache
def _nation_forms() -> dict[str, dict[str, str]]:
    """A nation's display name -> its names in other languages (nations.toml ``words``)."""
    from gm.games.baltica.board import load_board

    return {n.name: {lang: w["name"] for lang, w in n.words.items() if lang != "en" and "name" in w}
            for n in load_board().nations.values()}


def _nation(display: str) -> Name:
    """A nation as an order names it, said in the reader's language ("politique Russie");
    the parser knows the French names (nations.toml ``aliases``)."""
    return name(display, **_nation_forms().get(display, {}))


def _nations(items: tuple[str, ...]) -> Text:
    """Several nations, ``Denmark, Prussia``, each said in the reader's language."""
    out: Text = _nation(items[0])
    for item in items[1:]:
        out = msg("{a}, {b}", a=out, b=_nation(item))
    return out


def _said(text: Text, lang: str) -> str:
    """An order's canonical text in ``lang``: the English :class:`Text` itself (so it
    can be stored and said again, :func:`gm.i18n.as_data`), else its translation from
    the catalogue, whose French uses the grammar's French keywords (orders.md §8); never
    elided (:class:`gm.i18n.Echo`: "déplacer de Estland", as the grammar reads it)."""
    echo = Echo(text)
    return echo if lang == "en" else translate(echo, lang)


def joined(parts: list[Text]) -> Text:
    """``a; b; c`` as one message (the French puts a space before the semicolon)."""
    out = parts[0]
    for part in parts[1:]:
        out = msg("{a}; {b}", a=out, b=part)
    return out


@dataclass(frozen=True)
class Recon:
    """``recon Livland`` (3.3.1)."""

    kind: ClassVar[str] = "recon"
    territory: str

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("recon {territory}", territory=place(self.territory))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class MoveGroup:
    """One destination of a group move: ``A, B to Y via P, Q force``."""

    blocks: tuple[str, ...]
    to: str
    via: tuple[str, ...] = ()
    force: bool = False

    def text(self) -> Text:
        """The canonical group as a message."""
        text = msg("{blocks} to {to}", blocks=_names(self.blocks), to=place(self.to))
        if self.via:
            text = msg("{group} via {path}", group=text, path=_places(self.via))
        if self.force:
            text = msg("{group} force", group=text)
        return text

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)

    def to_json(self) -> dict[str, Any]:
        return {"blocks": list(self.blocks), "to": self.to, "via": list(self.via),
                "force": self.force}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> MoveGroup:
        return cls(tuple(d["blocks"]), d["to"], tuple(d.get("via", ())), bool(d.get("force")))


@dataclass(frozen=True)
class Move:
    """``move from X: A, B to Y; C to Z`` (3.3.2, 4.1): one action, one origin."""

    kind: ClassVar[str] = "move"
    origin: str
    groups: tuple[MoveGroup, ...]

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("move from {origin}: {groups}", origin=place(self.origin),
                   groups=joined([g.text() for g in self.groups]))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)

    def blocks(self) -> tuple[str, ...]:
        return tuple(b for g in self.groups for b in g.blocks)


@dataclass(frozen=True)
class MainAttack:
    """``main attack Estland from Ingermanland`` (5.3)."""

    kind: ClassVar[str] = "main_attack"
    territory: str
    origin: str

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("main attack {territory} from {origin}", territory=place(self.territory),
                   origin=place(self.origin))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Siege:
    """``siege Estland with Vellinck, Estländska`` (3.3.3, 6.1)."""

    kind: ClassVar[str] = "siege"
    territory: str
    blocks: tuple[str, ...]

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("siege {territory} with {blocks}", territory=place(self.territory),
                   blocks=_names(self.blocks))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Politics:
    """``politics Russia target Denmark, Prussia`` (3.3.4, 12.4): roll on the National
    Politics Table for one major nation; ``targets`` is the player's choice, first that
    qualifies, where a result names another nation (Special Envoy's ally, 12.4 #3; Peter
    settles with the Ottomans or Ukraine, 12.3 #2). The same order names the nation when a
    rolled event sends the player to the table (12.1 #6); then it costs no action."""

    kind: ClassVar[str] = "politics"
    nation: str
    targets: tuple[str, ...] = ()

    def text(self) -> Text:
        """The canonical order as a message."""
        if self.targets:
            return msg("politics {nation} target {targets}", nation=_nation(self.nation),
                       targets=_nations(self.targets))
        return msg("politics {nation}", nation=_nation(self.nation))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Reinforce:
    """``reinforce Karl XII, Dalregementet`` (8.3 via 12.2 #6, 12.4 #4-5): which blocks
    receive steps first when an event or politics gives RPs to spend at once."""

    kind: ClassVar[str] = "reinforce"
    blocks: tuple[str, ...]

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("reinforce {blocks}", blocks=_names(self.blocks))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Pin:
    """``pin Dalregementet, Upplands in Livland`` (4.3: "The enemy player chooses which
    blocks are pinned"): sent by the defender during the mover's action phase."""

    kind: ClassVar[str] = "pin"
    blocks: tuple[str, ...]
    territory: str

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("pin {blocks} in {territory}", blocks=_names(self.blocks),
                   territory=place(self.territory))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Discontent:
    """``discontent Livland, Kurland`` (12.4 #2: "one non-national territory (opponent's
    choice)"): the opponent's choice, sent during the roller's action phase."""

    kind: ClassVar[str] = "discontent"
    territories: tuple[str, ...]

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("discontent {territories}", territories=_places(self.territories))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Replace:
    """``replace Karl XII`` (3.3.5, 8.4): one step for one action; in the Interphase (8.3)
    as many steps as the RPs pay, up to ``strength`` (``replace Karl XII to 3``) or full."""

    kind: ClassVar[str] = "replace"
    block: str
    strength: int | None = None

    def text(self) -> Text:
        """The canonical order as a message."""
        if self.strength is not None:
            return msg("replace {block} to {strength}", block=self.block,
                       strength=self.strength)
        return msg("replace {block}", block=self.block)

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Embark:
    """``embark Karl XII from Livland onto Wachtmeister`` (9.2)."""

    kind: ClassVar[str] = "embark"
    blocks: tuple[str, ...]
    origin: str
    fleets: tuple[str, ...]

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("embark {blocks} from {origin} onto {fleets}", blocks=_names(self.blocks),
                   origin=place(self.origin), fleets=_names(self.fleets))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Sail:
    """``sail Wachtmeister from Southern Baltic to Gulf of Finland`` (9.1); either end may
    be a harbor territory."""

    kind: ClassVar[str] = "sail"
    fleets: tuple[str, ...]
    origin: str
    to: str

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("sail {fleets} from {origin} to {to}", fleets=_names(self.fleets),
                   origin=place(self.origin), to=place(self.to))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Land:
    """``land Karl XII from Gulf of Finland to Ingermanland`` (9.2)."""

    kind: ClassVar[str] = "land"
    blocks: tuple[str, ...]
    origin: str
    to: str

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("land {blocks} from {origin} to {to}", blocks=_names(self.blocks),
                   origin=place(self.origin), to=place(self.to))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class BattleOrder:
    """``battle order Estland, Livland`` (5.1): the first player's battle sequence."""

    kind: ClassVar[str] = "battle_order"
    territories: tuple[str, ...]

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("battle order {territories}", territories=_places(self.territories))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class HitsPrefer:
    """``hits prefer Dalregementet, Karl XII`` (5.5, 7.3): who takes a tied loss."""

    kind: ClassVar[str] = "hits_prefer"
    blocks: tuple[str, ...]

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("hits prefer {blocks}", blocks=_names(self.blocks))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Retreat:
    """``retreat Karl XII to Livland`` (5.6), usually conditional."""

    kind: ClassVar[str] = "retreat"
    block: str
    to: str

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("retreat {block} to {to}", block=self.block, to=place(self.to))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Regroup:
    """``regroup Karl XII, Dalregementet to Livland`` (5.7): one or several blocks."""

    kind: ClassVar[str] = "regroup"
    blocks: tuple[str, ...]
    to: str

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("regroup {blocks} to {to}", blocks=_names(self.blocks), to=place(self.to))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Build:
    """``build Sweden: draw 3 strength 2; deploy Småland, Skåne`` (8.6, 8.7): in the
    Interphase, draw blocks one at a time from the nation's pool, each paid up to
    ``strength`` steps (default full) and deployed in the first listed territory open to
    it."""

    kind: ClassVar[str] = "build"
    nation: str
    draw: int
    deploy: tuple[str, ...] = ()
    strength: int | None = None

    def text(self) -> Text:
        """The canonical order as a message."""
        text = msg("build {nation}: draw {draw}", nation=_nation(self.nation), draw=self.draw)
        if self.strength is not None:
            text = msg("{build} strength {strength}", build=text, strength=self.strength)
        if self.deploy:
            text = msg("{build}; deploy {territories}", build=text,
                       territories=_places(self.deploy))
        return text

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Reform:
    """``reform Repnin`` (11.2): in the Interphase, the hollow-star army leaves the game
    and its reformed twin goes on the Year Track."""

    kind: ClassVar[str] = "reform"
    block: str

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("reform {block}", block=self.block)

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Cede:
    """``cede Bremen-Verden to Hannover`` (11.1): in any phase Sweden orders in."""

    kind: ClassVar[str] = "cede"
    territory: str
    to: str

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("cede {territory} to {nation}", territory=place(self.territory), nation=_nation(self.to))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class WinterCampaign:
    """``winter campaign: move from Livland: Karl XII to Ingermanland`` (3.4)."""

    kind: ClassVar[str] = "winter_campaign"
    move: Move

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("winter campaign: {move}", move=self.move.text())

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class TruceOffer:
    """``truce offer Denmark`` (10.2): in the Interphase, a nation submits to a truce."""

    kind: ClassVar[str] = "truce_offer"
    nation: str

    def text(self) -> Text:
        """The canonical order as a message."""
        return msg("truce offer {nation}", nation=_nation(self.nation))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Solidarity:
    """``solidarity truce`` / ``solidarity reactivate Russia`` (11.6 Christian solidarity):
    Sweden's Interphase choice, with Ottoman blocks in Poland while Russia or Saxony is
    under truce, between a truce on the Ottomans too and letting the named nation
    reactivate at once. ``reactivate`` None is the truce."""

    kind: ClassVar[str] = "solidarity"
    reactivate: str | None = None

    def text(self) -> Text:
        """The canonical order as a message."""
        if self.reactivate is None:
            return msg("solidarity truce")
        return msg("solidarity reactivate {nation}", nation=_nation(self.reactivate))

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


@dataclass(frozen=True)
class Reroll:
    """``reroll actions below 4`` / ``reroll off`` (3CG 13.2, 13.3): the standing order to
    re-roll one's own action die when it shows less than ``below`` (2 to 6), using the
    Coalition's allied re-roll (13.2) first, then one of the player's five (13.3).
    ``below`` None cancels it."""

    kind: ClassVar[str] = "reroll"
    below: int | None = None

    def text(self) -> Text:
        """The canonical order as a message."""
        if self.below is None:
            return msg("reroll off")
        return msg("reroll actions below {below}", below=self.below)

    def echo(self, lang: str = "en") -> str:
        return _said(self.text(), lang)


Order = (Recon | Move | MainAttack | Siege | Politics | Replace | Embark | Sail | Land
         | BattleOrder | HitsPrefer | Retreat | Regroup | Build | Reform | Cede | WinterCampaign
         | Reinforce | Pin | Discontent | TruceOffer | Solidarity | Reroll)

OrderType = type[Order]
"""An order class: each names its ``kind`` (its command word, its JSON ``type``)."""

ORDER_TYPES: tuple[OrderType, ...] = (
    Recon, Move, MainAttack, Siege, Politics, Replace, Embark, Sail, Land,
    BattleOrder, HitsPrefer, Retreat, Regroup, Build, Reform, Cede, WinterCampaign,
    Reinforce, Pin, Discontent, TruceOffer, Solidarity, Reroll,
)

OPPONENT_ORDERS: tuple[OrderType, ...] = (Pin, Discontent)
"""Standing orders the other player sends during an action phase (4.3, 12.4 #2)."""

ACTION_TYPES: tuple[OrderType, ...] = (Recon, Move, Siege, Politics, Replace, Embark, Sail, Land)
"""Orders that cost one action each (3.3); the others are standing orders."""

NOT_YET_IMPLEMENTED: tuple[OrderType, ...] = (
)
"""Understood, but refused at validation: their rules are part II (docs/baltica.md)."""

ACTION_SEQUENCE: tuple[OrderType, ...] = (Recon, Move, Siege, Politics, Replace)
"""3.3: "Actions must be performed in the order given" (recon, move, siege, politics,
replacements); fleets' embark/sail/land count as movement."""


def action_rank(order: object) -> int:
    """The position of an action in the 3.3 sequence (movement for fleet orders)."""
    if isinstance(order, (Embark, Sail, Land)):
        return 1
    for i, t in enumerate(ACTION_SEQUENCE):
        if isinstance(order, t):
            return i
    return len(ACTION_SEQUENCE)


def order_to_json(order: Order) -> dict[str, Any]:
    """The JSON form of one order: ``{"type": kind, field: value...}``."""
    out: dict[str, Any] = {"type": order.kind}
    for f in fields(order):
        value = getattr(order, f.name)
        if isinstance(value, Move):
            value = order_to_json(value)
        elif isinstance(value, tuple) and value and isinstance(value[0], MoveGroup):
            value = [g.to_json() for g in value]
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


def order_from_json(data: Mapping[str, Any]) -> Order:
    """Rebuild an order from :func:`order_to_json` (raises KeyError on an unknown type)."""
    cls = next((t for t in ORDER_TYPES if t.kind == data["type"]), None)
    if cls is None:
        raise KeyError(f"unknown Pax Baltica order type {data['type']!r}")
    if cls is Regroup and "block" in data:  # stored before a regroup took several blocks
        data = {**data, "blocks": [data["block"]]}
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        value = data[f.name] if f.name in data else None
        if value is None:
            continue
        if f.name == "groups":
            value = tuple(MoveGroup.from_json(g) for g in value)
        elif f.name == "move":
            value = order_from_json(value)
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[f.name] = value
    return cls(**kwargs)
