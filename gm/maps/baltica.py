"""Pax Baltica's view as a map scene (fog.py's view only: never the full state).

Territories are coloured by the nation holding their garrison (1.2; the view's
``control``, else the territory's own nation), with the garrison's name and
value; a power's own blocks show name and strength, enemy blocks only as the
view gives them: revealed ones (3.3.1, 5.1, 6.1) by name and strength, the rest
as a count per nation and territory. This phase's moves, retreats, battles,
sieges and reconnaissance come from the events the power may see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from gm.games.baltica.board import Board, fold
from gm.maps.scene import Area, Arrow, Link, Piece, Scene

SIDES = ("sweden", "coalition")

_folded = lru_cache(maxsize=4096)(fold)  # the board's few hundred names, on every map
_kept_ids: dict[int, tuple[Board, dict[str, str]]] = {}


def _ids(board: Board) -> dict[str, str]:
    """Area display names (and ids) folded -> id: events and parts of the view give names.
    Kept per board (a loaded board is one object per process: gm.games.baltica.board's
    load_board): 144 names folded for every map were a tenth of drawing its SVG (issue 21)."""
    kept = _kept_ids.get(id(board))
    if kept is not None and kept[0] is board:
        return kept[1]
    out = {fold(t.name): t.id for t in board.territories.values()}
    out.update({fold(s.name): s.id for s in board.seas.values()})
    out.update({fold(i): i for i in (*board.territories, *board.seas)})
    if len(_kept_ids) >= 8:  # a few rulesets at most
        _kept_ids.clear()
    _kept_ids[id(board)] = (board, out)
    return out


def scene(board: Board, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
          words: Mapping[str, str]) -> Scene:
    ids = _ids(board)

    def area_id(name: Any) -> str | None:
        return ids.get(_folded(str(name))) if name else None

    control = {area_id(k): v for k, v in (view.get("control") or {}).items()}
    sc = Scene(palette={n.id: n.colour for n in board.nations.values()}, words=dict(words))
    for t in board.territories.values():
        owner = control.get(t.id, t.nation) if t.garrison else t.nation
        note = f"{t.garrison.name} {t.garrison.value}" if t.garrison else ""
        sc.areas[t.id] = Area(t.id, t.name, "box" if t.box else "land", owner, note)
    for s in board.seas.values():
        sc.areas[s.id] = Area(s.id, s.name, "sea")
    sc.links += [Link(b.a, b.b, "blocked" if b.blocked else
                      "difficult" if b.terrain.value == "difficult" else "land") for b in board.borders]
    sc.links += [Link(t.id, t.sea, "sea") for t in board.territories.values() if t.sea]
    seen: set[frozenset[str]] = set()
    for s in board.seas.values():
        for other in s.adjacent:
            if frozenset((s.id, other)) not in seen:
                seen.add(frozenset((s.id, other)))
                sc.links.append(Link(s.id, other, "sea"))
    _pieces(sc, view, area_id)
    _events(sc, board, view, events, area_id)
    owners = {a.owner for a in sc.areas.values() if a.owner} | {p.owner for p in sc.pieces}
    sc.legend = [(n.id, words.get(f"nation:{n.id}", n.name)) for n in board.nations.values()
                 if n.id in owners]  # the nation's name in the reader's language (issue 20)
    return sc


def _pieces(sc: Scene, view: Mapping[str, Any], area_id: Any) -> None:
    for b in view.get("own_blocks") or []:
        sc.pieces.append(Piece(b["location"], b["nation"], "own", b["name"],
                               f"{b['strength']}/{b['max']}", fleet=b.get("kind") == "fleet"))
    for b in view.get("revealed") or []:
        where = area_id(b.get("where"))
        if where:
            sc.pieces.append(Piece(where, b["nation"], "revealed", b["name"], str(b["strength"])))
    for g in view.get("enemy_blocks") or []:
        sc.pieces.append(Piece(g["location"], g["nation"], "hidden", count=int(g["count"]),
                               fleet=bool(g.get("fleets"))))


def _mark(sc: Scene, where: str | None, mark: str) -> None:
    if where in sc.areas and mark not in sc.areas[where].marks:
        sc.areas[where].marks.append(mark)


def _events(sc: Scene, board: Board, view: Mapping[str, Any],
            events: Sequence[Mapping[str, Any]], area_id: Any) -> None:
    me = view.get("power")
    for s in view.get("sieges") or []:
        _mark(sc, area_id(s.get("where")), "siege")
    for e in events:
        d = e.get("data") or {}
        kind = e.get("type")
        if kind in ("moved", "blocks_moved"):
            path = [area_id(d.get("origin"))] + [area_id(p) for p in d.get("path") or []]
            if kind == "moved" and me is None:
                continue  # the moderator sees the same move as blocks_moved
            owner = me if kind == "moved" else d.get("power")
            if all(path) and len(path) > 1:
                sc.arrows.append(Arrow([p for p in path if p], str(owner or "unknown")))
        elif kind in ("retreated", "regrouped", "block_retreated"):
            a, b = area_id(d.get("territory")), area_id(d.get("to"))
            owner = me if kind != "block_retreated" else _side(board, d.get("nation"))
            if a and b:
                sc.arrows.append(Arrow([a, b], str(owner or "unknown"), "retreat"))
        elif kind == "battle":
            _mark(sc, area_id(d.get("territory")), "battle")
        elif kind in ("siege_declared", "siege"):
            _mark(sc, area_id(d.get("territory")), "siege")
        elif kind == "recon":
            _mark(sc, area_id(d.get("territory")), "recon")
        elif kind == "captured":
            _mark(sc, area_id(d.get("territory")), "captured")


def _side(board: Board, nation: Any) -> str | None:
    n = board.nations.get(str(nation)) if nation else None
    return n.side.value if n else None
