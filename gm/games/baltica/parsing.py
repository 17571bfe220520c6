"""Reading Pax Baltica order lines (orders.md §5, §8) into typed orders.

The grammar is ``orders_grammar/baltica.lark``; names are looked up only among
the things that fit their slot (orders.md §3): the power's own on-map blocks
where it moves, sieges, replaces or retreats blocks, every territory, sea zone
and nation by their data names and aliases (a garrison's name stands for its
territory). A condition on a block the power cannot see cannot name it.
"""

from __future__ import annotations

import itertools
import threading
import tomllib
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from gm.games.baltica.board import Board, data_root
from gm.games.baltica.conditions import MovesInto
from gm.games.baltica.orders import (
    BattleOrder,
    Build,
    Cede,
    Discontent,
    Embark,
    HitsPrefer,
    Land,
    MainAttack,
    Move,
    MoveGroup,
    Pin,
    Politics,
    Recon,
    Reform,
    Regroup,
    Reinforce,
    Replace,
    Reroll,
    Retreat,
    Sail,
    Siege,
    Solidarity,
    TruceOffer,
    WinterCampaign,
    place,
)
from gm.games.baltica.state import OFF_MAP
from gm.i18n import msg
from gm.kept import Kept
from gm.orders.grammar import (
    GameGrammar,
    OrderRejected,
    OrderTransformer,
    ParseContext,
    parse_order_lines,
)
from gm.orders.model import ErrorKind, ParseResult, SourceLine
from gm.orders.names import NameIndex


class _Via(tuple):
    """Marks the ``via`` territories of a group."""


class _Strength(int):
    """Marks the ``strength`` of a build."""


class BalticaTransformer(OrderTransformer):
    """Parse tree -> :mod:`gm.games.baltica.orders` dataclasses."""

    def territory(self, c: list[str]) -> str:
        return self.resolve("territory", c[0])

    def sea(self, c: list[str]) -> str:
        return self.resolve("sea", c[0])

    def waters(self, c: list[str]) -> str:
        return self.resolve("waters", c[0])

    def sea_name(self, c: list[Any]) -> str:
        """A sea zone's or a harbor's name, a "de" between its words kept ("Golfe de
        Finlande", baltica.lark ``sea_name``): read as any name is."""
        return self.name(c)

    def nation(self, c: list[str]) -> str:
        return self.resolve("nation", c[0])

    def block(self, c: list[str]) -> str:
        """One of the power's blocks on the map. A name that is none of them but names a
        block the player knows of is refused with why, not as an unknown name: the
        power's own block off the map (eliminated: back only through a build's draw,
        8.6), or an enemy block (a pin names the player's own blocks, 4.3). A block's
        name is printed on it: saying it is the enemy's tells nothing of where it is."""
        names = self.context.names
        own, mine, every = names.get("block"), names.get("army"), names.get("any_block")
        if own is not None and mine is not None and every is not None:
            found = own.lookup(c[0])
            if not isinstance(found, str) and not found.candidates:
                if isinstance(mine.lookup(c[0]), str):
                    raise OrderRejected(ErrorKind.UNKNOWN_NAME, msg(
                        "{block} is not on the map: an order names your blocks on the map "
                        "(an eliminated block comes back only through a build's draw, 8.6)",
                        block=mine.lookup(c[0])))
                theirs = every.lookup(c[0])
                if isinstance(theirs, str):
                    raise OrderRejected(ErrorKind.UNKNOWN_NAME, msg(
                        "{block} is not one of your blocks: orders and their conditions name "
                        "your own blocks only (a pin too: yours that the enemy's move pins, "
                        "4.3)",
                        block=theirs))
        return self.resolve("block", c[0])

    def blocks(self, c: list[str]) -> tuple[str, ...]:
        return tuple(c)

    def territories(self, c: list[str]) -> tuple[str, ...]:
        return tuple(c)

    def recon(self, c: list[Any]) -> Recon:
        return Recon(c[0])

    def via(self, c: list[Any]) -> _Via:
        return _Via(c[0])

    def force(self, c: list[Any]) -> bool:
        return True

    def group(self, c: list[Any]) -> MoveGroup:
        via = next((x for x in c[2:] if isinstance(x, _Via)), ())
        return MoveGroup(c[0], c[1], tuple(via), any(x is True for x in c[2:]))

    def move(self, c: list[Any]) -> Move:
        return Move(c[0], tuple(c[1:]))

    def move_blocks(self, c: list[Any]) -> Move:
        """``move BLOCKS from T to T``: the form Pax Britannica's moves and this game's
        ``sail``, ``embark`` and ``land`` take, read as the one group of
        ``move from T: BLOCKS to T`` (docs/orders.md: it saves a round of mail)."""
        return Move(c[1], (self.group([c[0], *c[2:]]),))

    def main_attack(self, c: list[Any]) -> MainAttack:
        return MainAttack(c[0], c[1])

    def siege(self, c: list[Any]) -> Siege:
        return Siege(c[0], c[1])

    def politics(self, c: list[Any]) -> Politics:
        return Politics(c[0], c[1] if len(c) > 1 else ())

    def targets(self, c: list[str]) -> tuple[str, ...]:
        return tuple(c)

    def reinforce(self, c: list[Any]) -> Reinforce:
        return Reinforce(c[0])

    def pin(self, c: list[Any]) -> Pin:
        return Pin(c[0], c[1])

    def discontent(self, c: list[Any]) -> Discontent:
        return Discontent(c[0])

    def replace(self, c: list[Any]) -> Replace:
        return Replace(c[0], c[1] if len(c) > 1 else None)

    def upto(self, c: list[Any]) -> int:
        return int(c[0])

    def build_strength(self, c: list[Any]) -> _Strength:
        return _Strength(int(c[0]))

    def army(self, c: list[str]) -> str:
        return self.resolve("army", c[0])

    def embark(self, c: list[Any]) -> Embark:
        return Embark(c[0], c[1], c[2])

    def sail(self, c: list[Any]) -> Sail:
        return Sail(c[0], c[1], c[2])

    def land(self, c: list[Any]) -> Land:
        return Land(c[0], c[1], c[2])

    def battle_order(self, c: list[Any]) -> BattleOrder:
        return BattleOrder(c[0])

    def hits_prefer(self, c: list[Any]) -> HitsPrefer:
        return HitsPrefer(c[0])

    def retreat(self, c: list[Any]) -> Retreat:
        return Retreat(c[0], c[1])

    def regroup(self, c: list[Any]) -> Regroup:
        return Regroup(tuple(c[0]), c[1])

    def deploy(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(c[0])

    def build(self, c: list[Any]) -> Build:
        strength = next((int(x) for x in c[2:] if isinstance(x, _Strength)), None)
        deploy = next((x for x in c[2:] if isinstance(x, tuple)), ())
        return Build(c[0], int(c[1]), deploy, strength)

    def reform(self, c: list[Any]) -> Reform:
        return Reform(c[0])

    def cede(self, c: list[Any]) -> Cede:
        return Cede(c[0], c[1])

    def truce_offer(self, c: list[Any]) -> TruceOffer:
        return TruceOffer(c[0])

    def solidarity(self, c: list[Any]) -> Solidarity:
        return Solidarity(c[0] if c else None)

    def reroll_limit(self, c: list[Any]) -> int | None:
        return int(c[0]) if c else None

    def reroll(self, c: list[Any]) -> Reroll:
        return Reroll(c[0])

    def winter_campaign(self, c: list[Any]) -> WinterCampaign:
        return WinterCampaign(c[0])

    def moves_into(self, c: list[Any]) -> MovesInto:
        return MovesInto(c[0], c[1])


GRAMMAR = GameGrammar(
    "baltica",
    BalticaTransformer,
    error_examples={  # labels are messages (a French seat reads them in French); examples
        # in both languages, as the parser's state after a keyword depends on its language
        msg("a move is written 'move from TERRITORY: BLOCKS to TERRITORY' or 'move BLOCKS "
            "from TERRITORY to TERRITORY'"): [
            "move Karl XII to Livland", "move from Skane Karl XII to Livland",
            "deplacer Karl XII vers Livland", "deplacer de Skane Karl XII vers Livland"],
        msg("a siege needs 'with' and the besieging blocks: 'siege TERRITORY with BLOCKS', "
            "e.g. 'siege Estland with Vellinck, Estländska'"): ["siege Estland"],
    },
)


def _index(entries: dict[str, list[str]], slot: str,
           shown: Callable[[str], str] | None = None) -> NameIndex:
    """``shown``: how a reply offers a name ("did you mean"): a sea zone as the reader's
    language names it ("Golfe de Finlande", map.toml ``words``)."""
    return NameIndex({spellings[0]: spellings[1:] for spellings in entries.values()}, slot,
                     shown=shown)


CONTEXTS_KEPT = 4096
"""How many parse contexts are kept (LRU): a running game needs one per power and language."""


@dataclass(frozen=True)
class _BoardSlots:
    """The slots that depend on the board only, and a number no other board gets."""

    board: weakref.ref[Board]
    token: int
    slots: dict[str, NameIndex]
    block_names: dict[str, list[str]]


_contexts: Kept[tuple[Any, ...], ParseContext] = Kept(CONTEXTS_KEPT)
_boards: dict[int, _BoardSlots] = {}
"""Per board, by id; the board is held weakly, and an entry whose board is gone is rebuilt
with a new token (so contexts of a dead board are never served for a new one)."""
_tokens = itertools.count()
_lock = threading.Lock()


@cache
def extra_aliases() -> dict[str, dict[str, list[str]]]:
    """``data/aliases.toml``: exonyms and French names of territories and sea zones."""
    with (data_root() / "aliases.toml").open("rb") as fh:
        return tomllib.load(fh)


def names_with_aliases(board: Board, kind: str) -> dict[str, list[str]]:
    """:meth:`Board.names` of ``kind`` ("territory" or "sea") with the exonyms of
    ``aliases.toml`` added (orders.md §3, issue 17)."""
    more = extra_aliases().get(kind, {})
    return {key: [*spellings, *more.get(key, ())] for key, spellings in board.names(kind).items()}


def _board_slots(board: Board) -> _BoardSlots:
    """Territories, seas, waters and nations of ``board``, built once per board."""
    with _lock:
        kept = _boards.get(id(board))
    if kept is not None and kept.board() is board:
        return kept
    land, seas = names_with_aliases(board, "territory"), names_with_aliases(board, "sea")
    territories = _index(land, "territory")
    powers = {n: [n.title()] for n in ("sweden", "coalition")}
    nations = {**board.names("nation"), **{k: v for k, v in powers.items() if k not in board.nations}}
    slots = {"territory": territories, "area": territories,
             "sea": _index(seas, "sea", place),
             # a sea zone or a harbor: "unknown place", not the untranslated slot "waters"
             "waters": _index({**seas, **land}, "place", place),
             "nation": _index(nations, "nation"),
             "any_block": _index(board.names("block"), "block")}  # what a refusal may name
    made = _BoardSlots(weakref.ref(board), next(_tokens), slots, board.names("block"))
    with _lock:
        _boards[id(board)] = made
    return made


def _reads(state: dict[str, Any]) -> tuple[Any, ...]:
    """What of ``state`` a parse context depends on: the nations that changed sides and the
    blocks on the map, and the step (its commands). Two states with the same value give the same context."""
    on_map = frozenset(b for b, bs in state["blocks"].items() if bs["location"] not in OFF_MAP)
    return tuple(state.get("defected", ())), on_map, state.get("step", "")


def context_for(board: Board, state: dict[str, Any], power: str, language: str = "en") -> ParseContext:
    """The name slots ``power`` may use now (own on-map blocks only).

    Built once per board, power, language and what of the state it reads (:func:`_reads`)
    and then reused (issue 21: rebuilding every name index per mail was 8% of ingest);
    a context is never changed after it is built, so sharing one between mails is safe."""
    fixed = _board_slots(board)
    key = (fixed.token, power, language, _reads(state))
    found = _contexts.get(key)
    if found is not None:
        return found
    side = {n: board.power_of_nation(n, state.get("defected", ())) for n in board.nations}  # 11.9
    own = {b: fixed.block_names[b] for b, bs in state["blocks"].items()
           if side[board.blocks[b].nation] == power and bs["location"] not in OFF_MAP}
    armies = {b: fixed.block_names[b] for b in state["blocks"] if side[board.blocks[b].nation] == power}
    context = ParseContext(
        names={**fixed.slots, "block": _index(own, "block"), "army": _index(armies, "block")},
        power=power, language=language, commands=phase_commands(str(state.get("step", ""))))
    _contexts.put(key, context)
    return context


@cache
def phase_commands(step: str) -> tuple[str, ...]:
    """The command words of the orders the phase of ``step`` takes (every order's in a
    phase that takes none): an unknown word is matched against these only (issue 17)."""
    from gm.games.baltica.module import PHASE_ORDERS  # the module imports this one
    from gm.games.baltica.sequence import step_row

    try:
        kinds = PHASE_ORDERS.get(step_row(step).kind)
    except StopIteration:
        kinds = None
    if not kinds:
        return GRAMMAR.command_words()
    return GRAMMAR.command_words([t.kind for t in (*kinds, Cede, Reroll)])


def parse_lines(board: Board, state: dict[str, Any], power: str,
                lines: Sequence[SourceLine], language: str = "en") -> ParseResult:
    """One result per line (orders.md §2), names resolved within ``power``'s knowledge."""
    return parse_order_lines(GRAMMAR, lines, context_for(board, state, power, language))


def reparse(text: str) -> Any:
    """The order an echo stands for, names taken as written (stored orders)."""
    return GRAMMAR.parse_line(text, ParseContext())
