"""Winning the game (0.4) and the scenarios' victory tables (3CG 12.1-12.5).

Sudden death (0.4) is checked at the end of every phase, after the truces due have
taken effect (10.2); the scenario's table at the end of its last game turn. Either
way the result is kept in ``GameState.victory``, the game ends, and a public
``victory`` event announces it.
"""

from __future__ import annotations

from typing import Any

from gm.games.baltica.board import VictoryLevel
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POWERS

KARL_XII = "karl-xii"


def declare(world: World, winner: str, level: str, reason: str, *, result: str = "",
            condition: str = "", rp: int | None = None, occupied: list[str] | None = None,
            karl_xii_lost: bool = False) -> None:
    """End the game with ``winner``'s victory of ``level`` (0.4) and announce it.

    ``rp``: the Swedish RP level the table counted (None when the row is not about RPs);
    ``occupied``: the territories the row names (3CG 12.5)."""
    gs = world.state
    gs.victory = {"winner": winner, "level": level, "result": result, "condition": condition,
                  "reason": reason, "rp": rp, "occupied": occupied or [],
                  "karl_xii_lost": karl_xii_lost}
    gs.ended = True
    world.emit("victory", **gs.victory)


def coalition_majors(world: World) -> list[str]:
    """The Coalition's major nations (1.1), in data order."""
    return [n for n, v in world.board.nations.items()
            if v.major and world.power_of_nation(n) == "coalition"]


def sudden_death(world: World) -> bool:
    """0.4: "If at any time all Coalition major nations (1.1) are under truce, the game
    ends immediately with a Swedish Triumphant Victory ... If a truce is imposed on
    Sweden, the game ends immediately with a Coalition Triumphant Victory."

    Interpretation (docs/baltica.md): a Coalition major nation not at war counts as under
    truce (Denmark, knocked out before 12.1 starts, has no cube); at least one must be
    under truce by 10.2. True when the game ended here.
    """
    gs = world.state
    if gs.victory is not None:
        return True
    if "sweden" in gs.truces:
        declare(world, "coalition", "triumphant", "sweden_truce")
        return True
    majors = coalition_majors(world)
    if (majors and not any(n in gs.active for n in majors)
            and any(n in gs.truces for n in majors)):
        declare(world, "sweden", "triumphant", "coalition_truce")
        return True
    return False


def held(world: World, territory: str, by: str) -> bool:
    """Whether the garrison of ``territory`` is held by ``by`` (a side or a nation, 1.2)."""
    nation = world.controller(territory)
    if nation is None:
        return False
    return nation == by or (by in POWERS and world.power_of_nation(nation) == by)


def penalties(world: World) -> list[dict[str, Any]]:
    """3CG 11.3-11.5: the further Swedish RP losses of the scenario's special rules
    (``tables.toml`` victory_penalties), each ``{"key", "rule", "rp", "held"}``."""
    special = world.board.scenario(world.state.scenario).special
    out = []
    for key, p in world.board.tables.get("victory_penalties", {}).items():
        if key == "source" or not special.get(key):
            continue
        places = list(p.get("territories", ()))
        if "proper" in p:
            places += list(world.board.nations[p["proper"]].proper)
        lost = [t for t in places if t in world.board.territories and held(world, t, p["held_by"])]
        if len(lost) >= int(p["at_least"]):
            out.append({"key": key, "rule": p["rule"], "rp": int(p["rp"]),
                        "held": [world.tname(t) for t in lost]})
    return out


def occupied(world: World, territory: str) -> bool:
    """3CG 12.5 "Sweden have occupied": Sweden's side holds the garrison (1.2), or
    Swedish blocks stand there alone (interpretation, docs/baltica.md)."""
    if world.controlled_by(territory, "sweden"):
        return True
    return bool(world.blocks_of("sweden", territory)) and not world.enemy_blocks("sweden",
                                                                                   territory)


def row_holds(world: World, row: VictoryLevel, rp: int) -> bool:
    """One row of the table: RP range, territories occupied, Karl XII lost."""
    if row.rp_min is not None and rp < row.rp_min:
        return False
    if row.rp_max is not None and rp > row.rp_max:
        return False
    if any(not occupied(world, t) for t in row.occupied):
        return False
    return not row.karl_xii_lost or not world.state.on_map(KARL_XII)


def table_row(world: World, rp: int) -> VictoryLevel | None:
    """The first row that holds, top-down. A level between two rows' ranges (the tables
    step by 4) counts as the lower row: the first row whose minimum it reaches."""
    rows = world.board.scenario(world.state.scenario).victory
    found = next((r for r in rows if row_holds(world, r, rp)), None)
    if found is None:
        found = next((r for r in rows if r.rp_min is not None and rp >= r.rp_min
                      and not r.occupied and not r.karl_xii_lost), None)
    return found


def scenario_victory(world: World) -> None:
    """0.4: "if no player has won by the end of the last turn of the scenario, victory is
    usually determined by ... the Swedish RP level": the scenario's table (3CG 12.x),
    after its special rules' further losses (3CG 11.3-11.5). Event RP changes (8.8) are
    not RP levels and do not count (3CG 5.8)."""
    if world.state.victory is not None:
        return
    rp = world.state.rp.get("sweden", 0)
    rows = world.board.scenario(world.state.scenario).victory
    by_rp = any(r.rp_min is not None or r.rp_max is not None for r in rows)
    for p in penalties(world) if by_rp else ():
        rp -= p["rp"]
        world.emit("victory_penalty", key=p["key"], rule=p["rule"], rp=p["rp"],
                   territories=p["held"])
    rp = max(0, rp)
    row = table_row(world, rp)
    if row is None:  # a table without a row for this level: nobody wins
        declare(world, "tie", "none", "no_row", rp=rp)
        return
    by_rp = row.rp_min is not None or row.rp_max is not None
    declare(world, row.winner, row.level, "scenario_end", result=row.result,
            condition=row.condition, rp=rp if by_rp else None,
            occupied=[world.tname(t) for t in row.occupied], karl_xii_lost=row.karl_xii_lost)
