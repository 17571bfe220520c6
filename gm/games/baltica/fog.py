"""Fog of war: what one player may know of a Pax Baltica position (0.0, 2.1, 3.3.1, 5.1, 6.1).

A player sees their own blocks fully; enemy blocks only as "N blocks of nation X"
in a territory (and which are fleets at sea), except blocks revealed to them this
phase (reconnaissance, 3.3.1) and besiegers, which stand face up until their
siege is resolved (6.1). Nobody sees a replacement pool (8.6). ``power=None`` is
the moderator's full view. Once the game has ended (0.4) both players see everything:
every block by name and strength, and where each block off the map is (spectators
keep the counts; the archive's reveal page shows the rest).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from gm.games.baltica.board import BlockKind, Board
from gm.games.baltica.rules import attrition
from gm.games.baltica.sequence import owing, phase_id
from gm.games.baltica.state import OFF_MAP, POOL, POWERS, GameState
from gm.games.base import FULL_STATE


def _block(board: Board, gs: GameState, b: str) -> dict[str, Any]:
    spec = board.blocks[b]
    bs = gs.blocks[b]
    return {"id": b, "name": spec.name, "nation": spec.nation, "kind": spec.kind.value,
            "location": bs.location, "strength": bs.strength, "max": spec.max_strength,
            "rating": str(spec.rating), "movement": spec.movement, "pinned": bs.pinned,
            "moved": bs.moved}


def _where(board: Board, location: str) -> str:
    if location in board.territories:
        return board.territories[location].name
    if location in board.seas:
        return board.seas[location].name
    return location


def _owing(board: Board, gs: GameState) -> list[str]:
    """Who owes orders now: in a battles or forage phase only a power with a decision
    left (gm/games/baltica/standing.py), as the service counts them."""
    if gs.step in ("battles", "forage") and not gs.ended:
        from gm.dice import Dice
        from gm.games.baltica.rules.world import World
        from gm.games.baltica.standing import deciding_powers

        return list(deciding_powers(World(board, gs, Dice.scripted([])), gs.step))
    return list(owing(gs))


def _battles(board: Board, gs: GameState) -> list[str]:
    """5.0/9.3: where the battles of a battles phase will be fought (public: both sides
    see which territories and sea zones hold blocks of both players)."""
    if gs.step != "battles" or gs.ended:
        return []
    from gm.dice import Dice
    from gm.games.baltica.rules.battle import battle_territories
    from gm.games.baltica.rules.fleet_battle import fleet_battle_zones
    from gm.games.baltica.rules.world import World

    world = World(board, gs, Dice.scripted([]))
    return [_where(board, t) for t in fleet_battle_zones(world) + battle_territories(world)]


def _forage(board: Board, gs: GameState, power: str | None) -> list[str]:
    """7.1: in a forage phase, where ``power``'s own blocks will lose steps to forage (its
    own blocks: no enemy count is told), so the report says where a ``hits prefer``
    (7.3) is in question."""
    if gs.step != "forage" or gs.ended or power not in POWERS:
        return []
    from gm.dice import Dice
    from gm.games.baltica.rules.forage import short_of_forage
    from gm.games.baltica.rules.world import World

    return [_where(board, t) for t in short_of_forage(World(board, gs, Dice.scripted([])), power)]


def view(board: Board, state: dict[str, Any], power: str | None) -> dict[str, Any]:
    """What ``power`` may know; ``None`` gives the moderator everything."""
    gs = GameState.from_json(state)
    side = {n: board.power_of_nation(n, gs.defected) for n in board.nations}  # 11.9
    mine = {b for b in gs.blocks if power is None or side[board.blocks[b].nation] == power}
    shown = dict(gs.turn.revealed.get(power, {})) if power is not None else {}
    for s in gs.turn.sieges:
        if s.power != power:
            shown.update({b: gs.blocks[b].strength for b in s.blocks})
    final = gs.ended and (power is None or power in POWERS)  # the players' last report
    if final:  # 0.4: the game is over; the players see everything
        shown = {b: bs.strength for b, bs in gs.blocks.items() if b not in mine}
    own = [_block(board, gs, b) for b in sorted(mine)
           if power is None or gs.blocks[b].location not in OFF_MAP]
    for entry in own:
        entry["where"] = _where(board, entry["location"])
    revealed = [{"name": board.blocks[b].name, "nation": board.blocks[b].nation,
                 "strength": strength, "where": _where(board, gs.blocks[b].location)}
                for b, strength in sorted(shown.items())
                if b not in mine and gs.blocks[b].location not in OFF_MAP]
    hidden: Counter[tuple[str, str, bool]] = Counter()
    for b, bs in gs.blocks.items():
        if b in mine or b in shown or bs.location in OFF_MAP:
            continue
        fleet = board.blocks[b].kind is BlockKind.FLEET
        hidden[(bs.location, board.blocks[b].nation, fleet)] += 1
    enemy = [{"where": _where(board, loc), "location": loc, "nation": nation, "count": n,
              "fleets": fleet}
             for (loc, nation, fleet), n in sorted(hidden.items())]
    out: dict[str, Any] = {
        "game": "baltica", "ruleset": gs.ruleset, "optional": list(gs.optional),
        "power": power, "phase": phase_id(gs), "owing": _owing(board, gs),
        "battles": _battles(board, gs), "forage": _forage(board, gs, power),
        "year": gs.year, "season": gs.season, "step": gs.step, "ended": gs.ended,
        "first": gs.turn.first, "rolls": dict(gs.turn.rolls), "actions": dict(gs.turn.actions),
        "own_blocks": own, "revealed": revealed, "enemy_blocks": enemy,
        "control": {_where(board, t): n for t, n in sorted(gs.control.items())},
        "sieges": [{"where": _where(board, s.territory), "power": s.power,
                    "blocks": [board.blocks[b].name for b in s.blocks]}
                   for s in gs.turn.sieges],
        "active": list(gs.active), "rp": dict(gs.rp), "truces": dict(sorted(gs.truces.items())),
        "defected": list(gs.defected),
        "attrition": attrition.public_view(board, gs),  # 11.1: printed on the map, public
        # 8.6: a player knows the blocks in their own pools; 11.2: the Year Track is public
        # as counts per year, the owner sees which armies wait there.
        "pool": sorted(board.blocks[b].name for b in mine if gs.blocks[b].location == POOL),
        "year_track": {str(y): sorted(board.blocks[b].name if b in mine else "?"
                                      for b, yb in gs.year_track.items() if yb == y)
                       for y in sorted(set(gs.year_track.values()))},
    }
    if gs.ended:
        out["victory"] = gs.victory
    if final:  # spectators keep the counts: the archive's reveal page has everything
        off: dict[tuple[str, str], list[str]] = {}
        for b, bs in sorted(gs.blocks.items(), key=lambda kv: board.blocks[kv[0]].name):
            if bs.location in OFF_MAP:
                off.setdefault((board.blocks[b].nation, bs.location), []).append(
                    board.blocks[b].name)
        out["off_map"] = [{"nation": n, "location": loc, "blocks": names}
                          for (n, loc), names in sorted(off.items())]
    if power is None:
        out[FULL_STATE] = state
    return out
