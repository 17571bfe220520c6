"""The Swedish Attrition Track (GMT 2012 11.1) and what it brings about: Hannover's
defection (11.9) and the activation modifiers that bring Prussia and Hannover into the
war (11.7, 11.9 design notes: "have a look at the Swedish Attrition Track...").

11.1: "Each time a Swedish army block (not regiment) is eliminated, advance the marker on
this track one space. As long as Sweden has at least one block in Russia (including
Ukraine), the marker on this track is moved to the lower row; move it back to the upper
row if no Swedish blocks are in Russia. Apply the effects of the box containing the
marker, and all effects of lower-numbered boxes in the same row only."

The boxes are printed on the map and reconstructed as data (tables.toml
``swedish_attrition_track``, docs/baltica-data.md); this module carries out their effect
kinds: ``activation`` (a modifier to a nation's activation rolls), ``defects`` (11.9) and
``rp`` (a change to the RPs a nation receives in the Interphase). The marker is a count in
the state (``attrition``); the row is derived from the map whenever it matters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.games.baltica.board import Board
from gm.games.baltica.rules.truce import evict, lift_markers
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import OFF_MAP, POOL, GameState

UPPER, LOWER = "upper", "lower"


def track(board: Board) -> Mapping[str, Any]:
    """The track's data (empty when the ruleset has none)."""
    return board.tables.get("swedish_attrition_track", {})


def counts(world: World, block: str) -> bool:
    """11.1: "Each time a Swedish army block (not regiment) is eliminated" (the track's
    ``nation`` and ``kind``: allies such as Holstein-Gottorp do not count)."""
    t = track(world.board)
    spec = world.spec(block)
    return bool(t) and spec.nation == t.get("nation") and spec.kind.value == t.get("kind")


def row_of(board: Board, gs: GameState) -> str:
    """11.1: the lower row "as long as Sweden has at least one block in Russia (including
    Ukraine)" (the track's ``lower_regions``), else the upper row."""
    t = track(board)
    lands = {x for r in t.get("lower_regions", ()) for x in board.region(r)}
    nation = t.get("nation")
    return LOWER if any(bs.location in lands and board.blocks[b].nation == nation
                        for b, bs in gs.blocks.items()) else UPPER


def box_of(board: Board, gs: GameState, row: str) -> int:
    """The box holding the marker in ``row``: one space per army eliminated, staying in the
    row's last box; 0 before the first."""
    return min(gs.attrition, len(track(board).get(row, ())))


def in_force(board: Board, gs: GameState, row: str | None = None) -> list[dict[str, Any]]:
    """11.1: "the effects of the box containing the marker, and all effects of
    lower-numbered boxes in the same row only", in box order."""
    row = row or row_of(board, gs)
    n = box_of(board, gs, row)
    return [dict(e) for box in track(board).get(row, ()) if int(box["box"]) <= n
            for e in box.get("effects", ())]


def summary(effects: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The effects in force added up per kind and nation (for reports): activation
    modifiers and RP changes summed, each defection once."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for e in effects:
        key = (str(e["kind"]), str(e["nation"]))
        item = out.setdefault(key, {"kind": key[0], "nation": key[1]})
        for number in ("modifier", "change"):
            if number in e:
                item[number] = item.get(number, 0) + int(e[number])
    return list(out.values())


def public_view(board: Board, gs: GameState) -> dict[str, Any]:
    """What both players see of the track (it is printed on the map: public)."""
    row = row_of(board, gs)
    return {"count": gs.attrition, "row": row, "box": box_of(board, gs, row),
            "boxes": len(track(board).get(row, ())),
            "effects": summary(in_force(board, gs, row))}


def activation_modifier(world: World, nation: str) -> int:
    """The ``activation`` effects in force for ``nation`` (11.7, 11.9 design notes)."""
    return sum(int(e.get("modifier", 0)) for e in in_force(world.board, world.state)
               if e["kind"] == "activation" and e["nation"] == nation)


def rp_change(world: World, nation: str) -> int:
    """The ``rp`` effects in force for ``nation``: added to the RPs it receives in the
    Interphase (8.2); the RP level is not adjusted (reconstructed, as 11.2's Year Track)."""
    return sum(int(e.get("change", 0)) for e in in_force(world.board, world.state)
               if e["kind"] == "rp" and e["nation"] == nation)


def advance(world: World, block: str) -> None:
    """11.1: an eliminated Swedish army advances the marker one space (public: the track
    is on the map; the event names no block). Its effects take hold at once for rolls and
    RPs; a defection at the end of the phase (:func:`check_track`)."""
    if not counts(world, block):
        return
    gs = world.state
    gs.attrition += 1
    row = row_of(world.board, gs)
    world.emit("attrition_marker", count=gs.attrition, row=row,
               box=box_of(world.board, gs, row),
               effects=summary(in_force(world.board, gs, row)))


def check_track(world: World) -> None:
    """At the end of every phase, and in the Interphase before the activation rolls: the
    marker changes row when Swedish blocks enter or leave Russia (11.1, announced), and
    the defections of the boxes in force take place (11.9)."""
    gs = world.state
    row = row_of(world.board, gs)
    if row != gs.attrition_row:
        gs.attrition_row = row
        world.emit("attrition_row", row=row, box=box_of(world.board, gs, row),
                   effects=summary(in_force(world.board, gs, row)))
    for e in in_force(world.board, gs, row):
        if e["kind"] == "defects" and e["nation"] in world.board.nations:
            defect(world, e["nation"])


def defect(world: World, nation: str) -> None:
    """11.9: "When so indicated by the Swedish Attrition Track, Hannover defects
    permanently to the Coalition and becomes inactive (if not already). The Coalition
    player may then start rolling every Interphase to activate Hannover as a Coalition
    ally (10.1), subtracting 1 from the roll."

    The nation now fights for nations.toml ``activation.defects_to`` (World.power_of).
    Interpretations (docs/baltica.md): its blocks on the map go to its pool; as in a
    truce (10.2) its garrison markers in captured territories and the enemy's in its own
    are removed and other blocks in its territories (now prohibited, 4.5) leave; a truce
    on it ends (it rolls from the next Interphase); a nation made permanently inactive by
    a concession (11.1) does not defect (Bremen-Verden stays out of the war)."""
    gs = world.state
    to = world.board.nations[nation].activation.get("defects_to")
    if not to or nation in gs.defected or nation in gs.permanently_inactive:
        return
    on_map = [b for b, bs in sorted(gs.blocks.items())
              if world.spec(b).nation == nation and bs.location not in OFF_MAP]
    was_active = nation in gs.active
    for b in on_map:
        bs = gs.blocks[b]
        bs.location, bs.strength, bs.aboard = POOL, 0, None
        bs.moved = bs.pinned = bs.reserve = False
    if was_active:
        gs.active.remove(nation)
    gs.truces.pop(nation, None)
    world.truces_due = [(n, r) for n, r in world.truces_due if n != nation]
    gs.defected.append(nation)
    world.emit("nation_defected", nation=nation, to=to, was_active=was_active,
               blocks=len(on_map))
    lift_markers(world, nation)
    evict(world, world.board.nation_territories(nation))
