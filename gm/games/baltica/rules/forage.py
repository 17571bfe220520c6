"""Forage (7.1-7.3), after all combat, first player first."""

from __future__ import annotations

from collections import Counter

from gm.games.baltica.board import BlockKind
from gm.games.baltica.rules.losses import strongest, take_step
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import other_power

ARMY_FP = 2  # 7.1: "Army blocks require 2 FP each"
REGIMENT_FP = 1  # 7.1: "regiments 1 FP each"


def requirement(world: World, blocks: list[str]) -> int:
    """7.1/7.2: forage needed by a group, after baggage trains feed same-nation regiments.

    7.2: "Each symbol provides one additional FP that can be used only to support
    regiments from the same nationality (not armies and not allies) in the same territory."
    """
    armies = [b for b in blocks if world.spec(b).kind is BlockKind.ARMY]
    regiments = [b for b in blocks if world.spec(b).kind is BlockKind.REGIMENT]
    trains = Counter()  # type: Counter[str]
    for a in armies:
        trains[world.spec(a).nation] += world.spec(a).trains
    fed = sum(min(trains[n], c) for n, c in
              Counter(world.spec(r).nation for r in regiments).items())
    return ARMY_FP * len(armies) + REGIMENT_FP * (len(regiments) - fed)


def forage_check(world: World, power: str, territory: str) -> None:
    """7.1/7.3: "A group of blocks loses one step per unmet FP required in a territory. The
    first step loss ... must always be taken from the strongest block (owner chooses if
    tied) ... Blocks are never eliminated due to insufficient forage." Later losses go
    to the strongest too unless ``hits prefer`` says otherwise (docs/baltica.md).
    Fleets (and blocks they carry) need no forage."""
    blocks = world.blocks_of(power, territory)
    if not blocks:
        return
    fp = world.board.territories[territory].forage or 0
    short = requirement(world, blocks) - fp
    if short <= 0:
        return
    lost: list[str] = []
    for _ in range(short):
        target = strongest(world, blocks, floor=1)
        if target is None:
            break
        take_step(world, target)
        lost.append(world.name(target))
    world.emit("forage_losses", [power], territory=world.tname(territory), short=short,
               blocks=lost)
    world.emit("forage_shortfall", None, power=power, territory=world.tname(territory),
               steps=len(lost))


def forage_phase(world: World, first: str) -> None:
    """0.3/7.0: "Both sides, beginning with the First Player, perform forage checks"."""
    for power in (first, other_power(first)):
        for t in sorted(world.board.territories):
            forage_check(world, power, t)
