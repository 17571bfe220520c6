"""Reading Pax Viking order lines (``orders_grammar/viking.lark``) into typed orders.

Names are looked up only among what the player may know (orders.md §3):
tiles in their own hand, on the saga track, on the board and on jarlboards
(never a rival's hand), every post (a venture post also by its venture's
name), region and home, and the players (also by their jarl's name).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from gm.games.viking.conditions import AlthingPassed, TradeAccepted
from gm.games.viking.data import Data
from gm.games.viking.orders import (
    Accept,
    Activate,
    Counter,
    InvestBuy,
    InvestDraw,
    Item,
    JarldomAction,
    Journey,
    Keep,
    Offer,
    Parley,
    Pass,
    Play,
    Refuse,
    RusAction,
    SwedenAction,
    TheocracyAction,
    Vote,
)
from gm.i18n import msg
from gm.kept import Kept
from gm.orders.conditions import Quantity
from gm.orders.grammar import GameGrammar, OrderTransformer, ParseContext, parse_order_lines
from gm.orders.model import ParseResult, SourceLine
from gm.orders.names import NameIndex


class VikingTransformer(OrderTransformer):
    """Parse tree -> :mod:`gm.games.viking.orders`."""

    # name slots: resolved among what the player may know, or as written (reparse)
    def tile(self, c: list[str]) -> str:
        return self.resolve("tile", c[0])

    def post(self, c: list[str]) -> str:
        return self.resolve("post", c[0])

    def place(self, c: list[str]) -> str:
        return self.resolve("place", c[0])

    def power(self, c: list[str]) -> str:
        return self.resolve("power", c[0])

    def choice(self, c: list[str]) -> str:
        return self.resolve("choice", c[0])

    def choices(self, c: list[str]) -> tuple[str, ...]:
        return tuple(c)

    def tiles(self, c: list[str]) -> tuple[str, ...]:
        return tuple(c)

    def places(self, c: list[str]) -> tuple[str, ...]:
        return tuple(c)

    def items(self, c: list[Item]) -> tuple[Item, ...]:
        return tuple(c)

    def silfr_item(self, c: list[Any]) -> Item:
        return Item("silfr", amount=int(c[0]))

    def tile_item(self, c: list[str]) -> Item:
        return Item("tile", c[0])

    def follower_item(self, c: list[str]) -> Item:
        return Item("follower", c[0])

    def longship_item(self, c: list[str]) -> Item:
        return Item("longship", c[0])

    def promise_item(self, c: list[Any]) -> Item:
        return Item("promise", str(c[0])[1:-1].strip())

    def nothing_item(self, c: list[Any]) -> Item:
        return Item("nothing")

    def invest_draw(self, c: list[Any]) -> InvestDraw:
        return InvestDraw()

    def invest_buy(self, c: list[Any]) -> InvestBuy:
        return InvestBuy(c[0])

    def journey(self, c: list[Any]) -> Journey:
        return Journey(c[0], c[1])

    def offer(self, c: list[Any]) -> Offer:
        at = c[1] if len(c) == 4 else ""
        return Offer(c[0], c[-2], c[-1], at)

    def counter(self, c: list[Any]) -> Counter:
        return Counter(c[0], c[1])

    def play(self, c: list[Any]) -> Play:
        at = next((x for x in c[1:] if isinstance(x, str)), "")
        choices = next((x for x in c[1:] if isinstance(x, tuple)), ())
        return Play(c[0], at, choices)

    def activate(self, c: list[Any]) -> Activate:
        return Activate(c[0], c[1] if len(c) > 1 else ())

    def parley(self, c: list[Any]) -> Parley:
        return Parley(c[0], c[1] if len(c) > 1 else "")

    def jarldom(self, c: list[Any]) -> JarldomAction:
        return JarldomAction(c[0], c[1])

    def sweden(self, c: list[Any]) -> SwedenAction:
        return SwedenAction()

    def theocracy(self, c: list[Any]) -> TheocracyAction:
        return TheocracyAction(c[0])

    def rus(self, c: list[Any]) -> RusAction:
        return RusAction(c[0])

    def keep(self, c: list[Any]) -> Keep:
        return Keep(c[0])

    def pass_(self, c: list[Any]) -> Pass:
        return Pass()

    def yes(self, c: list[Any]) -> bool:
        return True

    def no(self, c: list[Any]) -> bool:
        return False

    def vote(self, c: list[Any]) -> Vote:
        return Vote(c[0])

    def accept(self, c: list[Any]) -> Accept:
        return Accept()

    def refuse(self, c: list[Any]) -> Refuse:
        return Refuse()

    # -- conditions (gm/games/viking/conditions.py) --------------------------------
    def trade_accepted(self, c: list[Any]) -> TradeAccepted:
        return TradeAccepted()

    def althing_passed(self, c: list[Any]) -> AlthingPassed:
        return AlthingPassed()

    def hand(self, c: list[Any]) -> Quantity:
        return Quantity("hand")

    def actions_left(self, c: list[Any]) -> Quantity:
        return Quantity("actions_left")

    def longships_at(self, c: list[str]) -> Quantity:
        return Quantity("longships_at", (c[0],))

    def rival_longships_at(self, c: list[str]) -> Quantity:
        return Quantity("rival_longships_at", (c[0],))


GRAMMAR = GameGrammar(
    "viking",
    VikingTransformer,
    error_examples={  # labels are messages (a French seat reads them in French); examples
        # in both languages, as the parser's state after a keyword depends on its language
        msg("a journey needs 'from PLACE to PLACE, PLACE'"): [
            "journey Svealand", "journey to Ladoga", "voyager Svealand", "voyager vers Ladoga"],
        msg("an offer needs 'PLAYER: give ITEMS for ITEMS'"): [
            "offer blue 3 silfr", "offer blue: 3 silfr", "offrir blue 3 silfr",
            "offrir blue : 3 silfr"],
        msg("invest needs 'draw' or 'buy TILE'"): ["invest", "invest Odin", "investir",
                                                   "investir Odin"],
        msg("parley needs 'POST' or 'POST challenge PLAYER'"): [
            "parley", "parley Birka challenge", "parlementer", "parlementer Birka défier"],
    },
)


def _index(entries: dict[str, list[str]], slot: str) -> NameIndex:
    return NameIndex({k: [a for a in v if a and a != k] for k, v in entries.items()}, slot)


def known_tiles(data: Data, state: dict[str, Any], power: str | None) -> list[str]:
    """Tile ids ``power`` may name: own hand, track, board, jarlboards, discard."""
    s = state
    out = [x for x in s.get("track", []) if x] + list(s.get("discard", []))
    out += [st["venture"] for st in s.get("posts", {}).values() if st.get("venture")]
    for p, pl in s.get("players", {}).items():
        out += pl["advocates"] + pl["gods"]
        if p == power or power is None or s.get("options", {}).get("open_information"):
            out += pl["hand"]
    trade = s.get("trade")
    if trade and power in (trade["from"], trade["to"]):  # the proposal shows its tiles
        names = {i["value"] for i in trade["give"] + trade["get"] if i["kind"] == "tile"}
        out += [x for pl in s["players"].values() for x in pl["hand"]
                if data.tiles[x].name in names]
    return out


CONTEXTS_KEPT = 4096
"""How many parse contexts are kept (LRU)."""

_contexts: Kept[tuple[Any, ...], tuple[Data, ParseContext]] = Kept(CONTEXTS_KEPT)


def context_for(data: Data, state: dict[str, Any], power: str | None,
                language: str = "en") -> ParseContext:
    """The names ``power`` may use now: known tiles, posts and their ventures, places, powers.

    Built once per data set, power, language and what of the state it reads (issue 21),
    then shared: a context is never changed after it is built."""
    known = tuple(known_tiles(data, state, power))
    ventures = tuple(sorted((pid, st.get("venture")) for pid, st in state.get("posts", {}).items()
                            if st.get("venture")))
    jarls = tuple((p, state.get("players", {}).get(p, {}).get("jarl")) for p in state.get("powers", []))
    step = str(state.get("step", ""))
    key = (id(data), power, language, known, ventures, jarls, step)
    found = _contexts.get(key)
    if found is not None and found[0] is data:
        return found[1]
    tiles: dict[str, list[str]] = {data.tiles[x].name: [] for x in known}
    posts: dict[str, list[str]] = {p.name: [p.name_fr, *data.aliases.get(p.id, ())]
                                   for p in data.posts.values()}
    for pid, venture in ventures:
        posts[data.posts[pid].name].append(data.tiles[venture].name)
    places = {**posts, **{r.name: [r.name_fr, *data.aliases.get(r.id, ())]
                          for r in data.regions.values()},
              "home": ["jarlboard", "foyer", "plateau"]}
    powers: dict[str, list[str]] = {p: [data.jarls[jarl].name] if jarl else [] for p, jarl in jarls}
    choice = {**places, **powers, **tiles}
    context = ParseContext(
        names={"tile": _index(tiles, "tile"), "post": _index(posts, "post"),
               "place": _index(places, "place"), "power": _index(powers, "power"),
               "choice": _index(choice, "choice")},
        power=power, language=language, commands=phase_commands(step))
    _contexts.put(key, (data, context))  # the data is kept alive: its id stays its own
    return context


@cache
def phase_commands(step: str) -> tuple[str, ...]:
    """The command words of the orders a ``step`` takes (all orders' for a step that takes
    none): an unknown word is matched against these only (issue 17)."""
    from gm.games.viking.module import PHASE_ORDERS  # the module imports this one

    kinds = PHASE_ORDERS.get(step, ())
    if not kinds:
        return GRAMMAR.command_words()
    return GRAMMAR.command_words([k.kind if k.kind != "pass" else "pass_" for k in kinds])


def parse_lines(data: Data, state: dict[str, Any], power: str, lines: Sequence[SourceLine],
                language: str = "en") -> ParseResult:
    """One result per line (orders.md §2), names within ``power``'s knowledge."""
    return parse_order_lines(GRAMMAR, lines, context_for(data, state, power, language))


def reparse(text: str) -> Any:
    """The order a canonical echo stands for (names taken as written)."""
    return GRAMMAR.parse_line(text, ParseContext())
