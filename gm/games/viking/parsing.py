"""Reading Pax Viking order lines (``orders_grammar/viking.lark``) into typed orders.

Names are looked up only among what the player may know (orders.md §3):
tiles in their own hand, on the saga track, on the board and on jarlboards
(never a rival's hand), every post (a venture post also by its venture's
name), region and home, and the players (also by their jarl's name).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from gm.games.viking.conditions import AlthingPassed, TradeAccepted
from gm.games.viking.data import Data
from gm.games.viking.fog import listed_longships
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
    said_place,
)
from gm.games.viking.rules.actions import requirement_posts
from gm.games.viking.table import Table
from gm.i18n import msg, translate
from gm.kept import Kept
from gm.orders.conditions import Quantity
from gm.orders.grammar import (
    GameGrammar,
    OrderRejected,
    OrderTransformer,
    ParseContext,
    parse_order_lines,
)
from gm.orders.model import ErrorKind, ParseResult, SourceLine
from gm.orders.names import NameIndex, fold


class VikingTransformer(OrderTransformer):
    """Parse tree -> :mod:`gm.games.viking.orders`."""

    # name slots: resolved among what the player may know, or as written (reparse)
    def tile(self, c: list[str]) -> str:
        """A tile, by its name or its number in the data (orders.md §7: ``play 117``). A
        number no known tile has, where the saga track holds a tile in that slot ("invest
        buy 1", the report numbering the track "1. New Settlers"), is refused with the
        order that buys that slot, not with names picked by spelling."""
        tiles = self.context.names.get("tile")
        written = str(c[0]).strip()
        if tiles is not None and written.isdigit() and not isinstance(tiles.lookup(written), str):
            track: tuple[str, ...] = self.context.extra.get("track", ())
            n = int(written)
            if 1 <= n <= len(track) and track[n - 1]:
                raise OrderRejected(ErrorKind.UNKNOWN_NAME, msg(
                    "no tile you know has the number {n}; the tile in saga-track slot {n} is "
                    "{tile}: 'invest {n}' buys it", n=n,
                    tile=self.context.extra.get("track_said", {}).get(track[n - 1], track[n - 1])))
        return self.resolve("tile", c[0])

    def post(self, c: list[str]) -> str:
        """A post; a region written where a post is asked for ("parley Holmgard") is
        refused with the region's posts (Game Board Anatomy: a region holds posts, and
        PARLEY, ACTIVATE, THEOCRACY and the jarldom action name a post), so the player
        writes the post next time instead of reading "unknown post"."""
        posts, places = self.context.names.get("post"), self.context.names.get("place")
        if posts is not None and places is not None and not isinstance(
                posts.lookup(c[0]), str):
            region = places.lookup(c[0])
            said = self.context.extra.get("region_posts", {}).get(region)
            if isinstance(region, str) and said:
                raise OrderRejected(ErrorKind.UNKNOWN_NAME, msg(
                    "{place} is a region, not a post: its posts are {posts}",
                    place=said[0], posts=said[1]))
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

    def invest_slot(self, c: list[Any]) -> InvestBuy:
        """``invest 3`` (orders.md §7): buy the tile in saga-track slot 3, counted from 1
        as the report lists the track."""
        track: tuple[str, ...] = self.context.extra.get("track", ())
        n = int(c[0])
        if not 1 <= n <= len(track) or not track[n - 1]:
            held = ", ".join(str(i) for i, x in enumerate(track, 1) if x)
            raise OrderRejected(ErrorKind.INVALID, msg(
                "no tile in saga-track slot {n}: the slots holding tiles are {slots}",
                n=n, slots=held or msg("none")))
        return InvestBuy(track[n - 1])

    def journey(self, c: list[Any]) -> Journey:
        return Journey(c[0], c[1])

    def journey_longship(self, c: list[Any]) -> Journey:
        """``journey longship 2 to ...`` (orders.md §7): the journey from where your second
        longship stands, counting your longships as your report lists them."""
        ships: tuple[str, ...] = self.context.extra.get("longships", ())
        n = int(c[0])
        if not 1 <= n <= len(ships):
            raise OrderRejected(ErrorKind.INVALID, msg(
                "you have no longship {n} on the map: you have {count}", n=n, count=len(ships)))
        return Journey(ships[n - 1], c[1])

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

    def influence_rus(self, c: list[Any]) -> RusAction:
        """``influence take Rus`` (orders.md §7): the Rus influence action; without a tile,
        the one rival advocate you can take when the mail arrives."""
        if c:
            return RusAction(c[0])
        can: tuple[str, ...] = self.context.extra.get("rus", ())
        if len(can) == 1:
            return RusAction(can[0])
        if can:
            raise OrderRejected(ErrorKind.AMBIGUOUS, msg(
                "several advocates can be taken: {tiles}; write 'rus take TILE'",
                tiles=", ".join(can)), can)
        raise OrderRejected(ErrorKind.INVALID, msg(
            "no rival advocate can be taken now (a longship of yours alone on a post in its "
            "location); write 'rus take TILE' to take one after a journey"))

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
        self._offer_number(c)
        return Accept()

    def refuse(self, c: list[Any]) -> Refuse:
        self._offer_number(c)
        return Refuse()

    def _offer_number(self, c: list[Any]) -> None:
        """``trade accept 7`` (orders.md §7): 7 must be the number of the offer waiting for
        the answer, the K of its phase ``round-R-PLAYER-trade-K-C``."""
        waiting = self.context.extra.get("offer")
        if c and waiting is not None and int(c[0]) != waiting:
            raise OrderRejected(ErrorKind.INVALID, msg(
                "the offer waiting for your answer is number {k}, not {n}", k=waiting,
                n=int(c[0])))

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
        return Quantity("longships_at", (said_place(c[0]),))

    def rival_longships_at(self, c: list[str]) -> Quantity:
        return Quantity("rival_longships_at", (said_place(c[0]),))


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


def _index(entries: dict[str, list[str]], slot: str,
           shown: Callable[[str], str] | None = None) -> NameIndex:
    """``shown``: how a reply offers a name ("did you mean"): a place as the reader's
    language names it ("Norvège", board.toml ``name_fr``)."""
    return NameIndex({k: [a for a in v if a and a != k] for k, v in entries.items()}, slot,
                     shown=shown)


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


def _numbered(data: Data, state: dict[str, Any], power: str | None) -> dict[str, Any]:
    """What the numbered forms of orders.md §7 read, as the report shows it to ``power``:
    ``track`` (the tile name in each saga-track slot, "" when empty), ``longships`` (where
    each of the player's longships stands, as the report lists them), ``offer`` (the
    number of the trade offer waiting for the player's answer) and ``rus`` (the rival
    advocates the Rus action could take now)."""
    if power is None or power not in state.get("players", {}) or "track" not in state:
        return {}
    t = Table(data, state)
    home = set(data.homes)
    trade = state.get("trade")
    rus = tuple(data.tiles[x].name for q in t.rivals(power)
                for x in state["players"][q]["advocates"]
                if requirement_posts(t, power, data.tiles[x].location)
                and t.supply(power, data.tiles[x].follower) > 0)
    return {"track": tuple(data.tiles[x].name if x else "" for x in state["track"]),
            "longships": tuple("home" if node in home else node_name
                               for who, node_name, _, node in listed_longships(t) if who == power),
            "offer": trade["k"] if trade and trade.get("to") == power else None,
            "rus": rus}


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
    extra = _numbered(data, state, power)
    key = (id(data), power, language, known, ventures, jarls, step, tuple(extra.items()))
    found = _contexts.get(key)
    if found is not None and found[0] is data:
        return found[1]
    tiles: dict[str, list[str]] = {}
    for x in known:  # a tile is also named by its number (orders.md §7: play 117), and
        # by its French name (``name_fr``), as a French report names it
        tiles.setdefault(data.tiles[x].name, []).extend(
            [str(data.tiles[x].number), data.tiles[x].name_fr])
    posts: dict[str, list[str]] = {p.name: [p.name_fr, *data.aliases.get(p.id, ())]
                                   for p in data.posts.values()}
    for pid, venture in ventures:
        posts[data.posts[pid].name] += [data.tiles[venture].name, data.tiles[venture].name_fr]
    # a sea is also named with its French article, as French writes it after « dans »
    # (« drakkar dans le Golfe de Finlande », Data.the_said)
    places = {**posts, **{r.name: [r.name_fr, translate(data.the_said(r.id), "fr"),
                                   *data.aliases.get(r.id, ())]
                          for r in data.regions.values()},
              "home": ["jarlboard", "foyer", "plateau"]}
    own = dict(jarls).get(power) if power else None
    if own:  # the report says "home Truso": the player's printed home names the jarlboard
        printed = data.homes[data.jarls[own].home]
        places["home"] += [printed.name, printed.name_fr]
    powers: dict[str, list[str]] = {p: [*([data.jarls[jarl].name] if jarl else []),
                                        *colour_names(data, p)] for p, jarl in jarls}
    choice = {**places, **powers, **tiles}

    def said(name: str) -> str:  # a choice offered: a place, a player's colour or a tile
        return said_colour(data, name) if name in powers else data.said(name)

    context = ParseContext(
        names={"tile": _index(tiles, "tile", data.said), "post": _index(posts, "post", data.said),
               "place": _index(places, "place", data.said),
               "power": NameIndex({k: [a for a in v if a and a != k] for k, v in powers.items()},
                                  "power", shown=lambda p: said_colour(data, p)),
               "choice": _index(choice, "choice", said)},
        power=power, language=language, commands=phase_commands(step),
        extra={**extra, "region_posts": region_posts(data),
               "track_said": {x: data.said(x) for x in extra.get("track", ()) if x}})
    _contexts.put(key, (data, context))  # the data is kept alive: its id stays its own
    return context


def region_posts(data: Data) -> dict[str, tuple[str, str]]:
    """Each region that holds posts, by its English name: (the region, its posts), as a
    reply names them in the reader's language (:meth:`Data.said`, :meth:`Data.said_all`);
    built with the parse context, which is kept (:func:`context_for`)."""
    out: dict[str, tuple[str, str]] = {}
    for region in data.regions.values():
        names = sorted(p.name for p in data.posts.values() if p.region == region.id)
        if names:
            out[region.name] = (data.said(region.name), data.said_all(names))
    return out


def said_colour(data: Data, power: str) -> str:
    """A player offered in a reply ("did you mean"), as the reader's reports show it: a
    :class:`gm.i18n.Name`, "Rouge" to a French seat (rules.toml ``colors``, :meth:`Data.said`)."""
    return data.said(power)


def colour_names(data: Data, power: str) -> list[str]:
    """A player's colour as every report language shows it (rules.toml ``colors``,
    ``display_<language>``): a French report says "Rouge", so "défier Rouge" names red."""
    entry = data.rules["colors"]
    if power not in entry["value"]:
        return []
    i = entry["value"].index(power)
    return [shown[i] for key, shown in entry.items()
            if key.startswith("display_") and fold(shown[i]) != fold(power)]


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
