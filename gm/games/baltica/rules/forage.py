"""Forage (7.1-7.3), after all combat, first player first."""

from __future__ import annotations

from collections import Counter

from gm.games.baltica.board import BlockKind
from gm.games.baltica.rules.losses import strongest, take_step
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import other_power


def requirement(world: World, blocks: list[str]) -> int:
    """7.1: forage needed by a group: "Army blocks require 2 FP each, regiments 1 FP each"
    (tables.toml ``limits.forage_army``, ``limits.forage_regiment``), less what baggage
    trains (internal forage points) feed, per nation, in the ruleset's reading:

    GMT 7.2 ("regiments"): "Each symbol provides one additional FP that can be used only
    to support regiments from the same nationality (not armies and not allies) in the
    same territory as the army."
    3CG 7.4 ("same-nation"): an army's internal forage point "can be used to support
    themselves or other blocks of the same nationality, in the same territory".
    """
    army_fp, regiment_fp = world.board.limits.forage_army, world.board.limits.forage_regiment
    armies = [b for b in blocks if world.spec(b).kind is BlockKind.ARMY]
    regiments = [b for b in blocks if world.spec(b).kind is BlockKind.REGIMENT]
    trains = Counter()  # type: Counter[str]
    for a in armies:
        trains[world.spec(a).nation] += world.spec(a).trains
    fed_need = Counter(world.spec(r).nation for r in regiments)  # type: Counter[str]
    if world.reading("baggage_trains_feed") == "same-nation":
        for a in armies:
            fed_need[world.spec(a).nation] += army_fp
    fed = sum(min(trains[n], need) for n, need in fed_need.items())
    return army_fp * len(armies) + regiment_fp * len(regiments) - fed


def short_of_forage(world: World, power: str) -> list[str]:
    """7.1: the territories where ``power``'s blocks need more FP than the territory's
    forage value, so that they will lose steps in the Forage Phase (territory-id order)."""
    out: list[str] = []
    for t, v in sorted(world.board.territories.items()):
        blocks = world.blocks_of(power, t)
        if blocks and requirement(world, blocks) > (v.forage or 0):
            out.append(t)
    return out


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
