"""Retreats (5.6) and regroups (5.7): where a block may go from a battle territory."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from gm.games.baltica.rules.limits import entry_problem
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import other_power


@dataclass
class BorderCount:
    """5.6: "Border restrictions for retreats apply to each combat round" (4.2 limits)."""

    used: dict[tuple[str, str], int] = field(default_factory=dict)

    def room(self, world: World, a: str, b: str) -> int:
        return world.border_limit(a, b) - self.used.get((a, b), 0) - self.used.get((b, a), 0)

    def use(self, a: str, b: str) -> None:
        self.used[(a, b)] = self.used.get((a, b), 0) + 1


def exits(world: World, power: str, territory: str, attacker: str) -> set[str]:
    """5.6: "The attacker can only retreat from the battle territory via borders used to
    attack into the territory. The defender may not retreat through borders that were
    used by the attacker to enter the battle territory. If both players entered the
    territory through the same border, only the last player to enter may retreat via
    that border." Returns the neighbours ``power`` may leave towards."""
    entries = world.state.turn.entries.get(territory, [])
    last_by_border: dict[str, str] = {}
    for who, came_from, _tick in sorted(entries, key=lambda e: e[2]):
        last_by_border[came_from] = who
    attack_borders = {e[1] for e in entries if e[0] == attacker}
    if power == attacker:
        allowed = attack_borders
    else:
        allowed = set(world.board.neighbours(territory)) - attack_borders
    shared = {b for b in attack_borders
              if any(e[1] == b and e[0] != attacker for e in entries)}
    allowed -= {b for b in shared if last_by_border.get(b) != power}
    allowed |= {b for b in shared if last_by_border.get(b) == power}
    return allowed


def may_enter(world: World, power: str, territory: str) -> bool:
    """5.6/5.7/1.2: "into or through friendly or transit territories free of enemy
    blocks ... never ... into or through enemy-controlled or battle territories"."""
    return (territory in world.board.territories
            and world.friendly_or_transit(territory, power)
            and not world.enemy_blocks(power, territory)
            and not world.prohibited(territory))


def retreat_path(world: World, block: str, territory: str, attacker: str, to: str | None,
                 count: BorderCount) -> tuple[str, ...] | None:
    """A legal retreat for ``block`` out of ``territory`` (5.6), to ``to`` or, when ``to``
    is None, to the nearest legal territory (own garrison before transit, then by id).

    "Blocks retreat by moving up to their full movement allowance"; a Difficult Terrain
    border stops them (4.2); forced marches are not allowed (4.4).
    """
    power = world.power_of(block)
    rating = world.spec(block).movement
    first = exits(world, power, territory, attacker)
    seen: dict[str, tuple[str, ...]] = {territory: ()}
    queue = deque([territory])
    found: list[tuple[str, ...]] = []
    while queue:
        here = queue.popleft()
        path = seen[here]
        if len(path) >= rating or (path and world.difficult(path[-2] if len(path) > 1
                                                              else territory, here)):
            continue
        for there in sorted(world.board.neighbours(here)):
            if there in seen or (here == territory and there not in first):
                continue
            if (not may_enter(world, power, there) or count.room(world, here, there) < 1
                    or entry_problem(world, [block], there) is not None):  # 11.x
                continue
            seen[there] = path + (there,)
            queue.append(there)
            if to is None or there == to:
                found.append(seen[there])
    if to is not None:
        return found[0] if found else None
    if not found:
        return None
    shortest = min(len(p) for p in found)
    best = [p for p in found if len(p) == shortest]
    return min(best, key=lambda p: (not world.controlled_by(p[-1], power), p[-1]))


def carry_out_retreat(world: World, block: str, territory: str, path: tuple[str, ...],
                      count: BorderCount) -> None:
    """Move a retreating block along its path, counting the borders of this round."""
    here = territory
    for there in path:
        count.use(here, there)
        here = there
    bs = world.state.blocks[block]
    bs.location, bs.reserve, bs.pinned = path[-1], False, False


def regroup_why(world: World, block: str, territory: str, to: str,
                count: BorderCount) -> Why | None:
    """Why ``block`` may not regroup from ``territory`` to ``to``, or None if it may.

    5.7: "Regrouping blocks may move to any adjacent friendly or transit territories
    that are free of enemy blocks. Border restrictions apply for regroup moves."
    3CG 6.6 (reading "friendly" of ``regroup_into``): "Maximum movement distance is 1
    territory away to any friendly territories free of enemy blocks" (no transit land).
    """
    power = world.power_of(block)
    if world.state.blocks[block].location != territory:
        return Why.LEFT_THE_BATTLE
    if to not in world.board.neighbours(territory):
        return Why.REGROUP_ADJACENT
    if not may_enter(world, power, to):
        return Why.NOT_FRIENDLY
    if world.reading("regroup_into") == "friendly" and not world.controlled_by(to, power):
        return Why.REGROUP_FRIENDLY
    why = entry_problem(world, [block], to)  # 11.3-11.7
    if why is not None:
        return why
    if count.room(world, territory, to) < 1:
        return Why.BORDER_FULL
    return None


def opponent(power: str) -> str:
    """The other player."""
    return other_power(power)
