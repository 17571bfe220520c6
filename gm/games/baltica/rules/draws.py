"""Random draws with the GM's six-sided dice (8.6: pools are "shuffled before drawing";
12.2: "remove one block randomly")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from gm.games.baltica.rules.world import World

T = TypeVar("T")


def draw(world: World, items: Sequence[T], purpose: str,
         visible_to: Sequence[str] | None = None) -> T:
    """One of ``items`` at random, every item equally likely, every die logged.

    Up to six items: one die, re-rolled above the count. More: two dice read as 1-36,
    re-rolled above the largest multiple of the count (no bias).
    """
    n = len(items)
    if n == 0:
        raise ValueError("nothing to draw from")
    if n == 1:
        return items[0]
    if n <= 6:
        while True:
            roll = world.dice.d6(purpose, visible_to)
            if roll <= n:
                return items[roll - 1]
    if n > 36:
        raise ValueError("draw from at most 36 items")
    top = 36 - 36 % n
    while True:
        a = world.dice.d6(purpose, visible_to)
        b = world.dice.d6(purpose, visible_to)
        value = (a - 1) * 6 + b
        if value <= top:
            return items[(value - 1) % n]
