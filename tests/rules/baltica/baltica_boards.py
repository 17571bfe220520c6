"""Small Pax Baltica boards for rule tests, built without the map and block data files
(the die-roll tables and limits are the shipped tables.toml: they are rules).

Territory spec: ``id: (nation, forage, garrison value or None)``; every block
spec: ``id: (nation, kind, max, rating, movement, trains)``. Names are the ids
with the first letter upper-cased, so tests read like the rulebook.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from gm.dice import Dice
from gm.games.baltica.board import (
    BlockKind,
    BlockType,
    Board,
    Border,
    Garrison,
    Nation,
    Rating,
    Side,
    Terrain,
    Territory,
    load_board,
)
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import BlockState, GameState

SIDES = {"sweden": Side.SWEDEN, "russia": Side.COALITION, "denmark": Side.COALITION,
         "saxony": Side.COALITION, "poland": Side.COALITION}


def make_board(territories: dict[str, tuple[str | None, int | None, int | None]],
               borders: list[tuple[str, str] | tuple[str, str, str]],
               blocks: dict[str, tuple[str, str, int, str, int, int]],
               capitals: tuple[str, ...] = (), ruleset: str = "gmt-2012") -> Board:
    """A Board from compact specs; a third border item "difficult" or "lake" marks it.
    The tables (and so the rules' readings, tables ``rules``) are ``ruleset``'s."""
    terr = {
        t: Territory(id=t, name=t.replace("-", " ").title(), nation=n, forage=fp,
                     garrison=Garrison(f"{t} garrison", g) if g else None,
                     capital=t in capitals, transit=n is None)
        for t, (n, fp, g) in territories.items()
    }
    bord = tuple(Border(b[0], b[1],
                        Terrain.DIFFICULT if b[2:] == ("difficult",) else Terrain.NORMAL,
                        blocked=b[2:] == ("lake",)) for b in borders)
    blk = {
        b: BlockType(id=b, name=_title(b), nation=n, kind=BlockKind(k), max_strength=m,
                     rating=Rating.parse(r), movement=mv, trains=tr,
                     royal=b in ("karl-xii", "pyotr-i", "august-ii", "frederik-iv"))
        for b, (n, k, m, r, mv, tr) in blocks.items()
    }
    nations = {n: Nation(id=n, name=n.title(), side=s, major=True, colour="x", capital=None,
                         territories=tuple(t for t, v in territories.items() if v[0] == n))
               for n, s in SIDES.items()}
    return Board("test", MappingProxyType(nations), MappingProxyType(terr),
                 MappingProxyType({}), bord, MappingProxyType(blk), MappingProxyType({}),
                 load_board(ruleset).tables)


def _title(block_id: str) -> str:
    words = block_id.split("-")
    return " ".join(w.upper() if set(w) <= set("ivx") else w.title() for w in words)


def make_state(board: Board, placements: dict[str, tuple[str, int]], **kw: Any) -> GameState:
    """A state in the given step with blocks where placed (others in the pool)."""
    blocks = {b: BlockState(location="pool", strength=0) for b in board.blocks}
    for b, (where, strength) in placements.items():
        blocks[b] = BlockState(location=where, strength=strength)
    gs = GameState(scenario="test", ruleset="test", year=1701, season="summer",
                   step=kw.pop("step", "actions-first"), end_year=1721, end_season="winter",
                   blocks=blocks, active=list(SIDES), **kw)
    gs.turn.first = "sweden"
    gs.turn.actions = {"sweden": 3, "coalition": 3}
    return gs


def make_world(board: Board, gs: GameState, dice: list[int] | None = None) -> World:
    """A World with scripted dice."""
    return World(board, gs, Dice.scripted(dice or []))
