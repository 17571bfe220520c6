"""Steps lost and blocks eliminated (2.1, 2.3, 5.5, 7.3)."""

from __future__ import annotations

from collections.abc import Sequence

from gm.games.baltica.board import BlockKind
from gm.games.baltica.rules import attrition
from gm.games.baltica.rules.truce import call_truce, last_block_truce
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import EXILE, POOL, REMOVED

KARL_XII = "karl-xii"


def tie_rank(world: World, block: str) -> tuple[int, int, int, str]:
    """The owner's choice among tied blocks (5.5, 7.3): ``hits prefer`` first.

    Default when the owner gave no ``hits prefer`` naming them (docs/baltica.md):
    a regiment before an army, a non-royal block before a royal one, then by name.
    """
    power = world.power_of(block)
    prefer = world.prefer.get(power, [])
    listed = prefer.index(block) if block in prefer else len(prefer)
    spec = world.spec(block)
    return (listed, 0 if spec.kind is BlockKind.REGIMENT else 1, int(spec.royal), block)


def strongest(world: World, blocks: Sequence[str], *, floor: int = 0) -> str | None:
    """5.5: "each hit is applied ... to the enemy block with the highest current strength.
    When two or more blocks share the highest strength, the owner chooses."

    Blocks at or below ``floor`` cannot take the loss (7.3 uses floor 1).
    """
    able = [b for b in blocks if world.state.blocks[b].strength > floor]
    if not able:
        return None
    top = max(world.state.blocks[b].strength for b in able)
    return min((b for b in able if world.state.blocks[b].strength == top),
               key=lambda b: tie_rank(world, b))


def take_step(world: World, block: str, *, hidden: bool = False) -> bool:
    """2.1: reduce ``block`` one step; at strength 1 it is eliminated. True if eliminated.

    ``hidden``: only the owner learns which block it was (losses to unrevealed blocks).
    """
    bs = world.state.blocks[block]
    if bs.strength > 1:
        bs.strength -= 1
        return False
    eliminate(world, block, hidden=hidden)
    return True


def night_rider(world: World) -> bool:
    """Whether Karl XII goes into exile the first time he is eliminated: GMT 2.3 ("The
    Night Rider") always; 3CG 2.21 ("if lost, is dead and out of the game") unless the
    scenario's special rules include 3CG 11.1 KARL XII - THE NIGHT RIDER (scenarios.toml
    ``special.night_rider``: 12.4)."""
    if world.reading("night_rider") != "scenario":
        return True
    sc = world.board.scenarios.get(world.state.scenario)
    return bool(sc is not None and sc.special.get("night_rider"))


def eliminate(world: World, block: str, *, hidden: bool = False) -> None:
    """2.1/2.3: an eliminated block goes to its replacement pool; a royal block is removed
    from the game, except Karl XII, who goes into exile the first time (the Night Rider).

    10.2: a truce follows "when their royal block is eliminated (Coalition only)" and
    "when their last block on the map is eliminated" (at the end of the phase). 11.1: a
    Swedish army advances the Swedish Attrition Track.
    """
    bs = world.state.blocks[block]
    spec = world.spec(block)
    where = bs.location
    if block == KARL_XII and not world.state.karl_exiled_once and night_rider(world):
        bs.location = EXILE
        world.state.karl_exiled_once = True
    elif spec.royal:
        bs.location = REMOVED
    else:
        bs.location = POOL
    bs.strength = 0
    bs.moved = bs.pinned = bs.reserve = False
    bs.forced, bs.aboard = 0, None
    owner = world.power_of(block)
    world.emit("eliminated", [owner] if hidden else None, block=spec.name, nation=spec.nation,
               territory=world.tname(where), fate=bs.location)
    if hidden:
        world.emit("block_lost", nation=spec.nation, territory=world.tname(where))
    if spec.royal and owner == "coalition":
        call_truce(world, spec.nation, "royal")
    if spec.nation == "ukraine":
        world.triggers.add("mazepa-eliminated")  # 11.8: pacification
    if not any(world.spec(b).nation == spec.nation and world.state.on_map(b)
               for b in world.state.blocks) and last_block_truce(world, spec.nation):
        call_truce(world, spec.nation, "last_block")
    attrition.advance(world, block)  # 11.1: a Swedish army eliminated
    if spec.nation == "russia" and spec.kind is BlockKind.ARMY:
        # 11.2: a Russian army eliminated in a battle (events and forage never eliminate)
        from gm.games.baltica.rules.reforms import reform_open

        reform_open(world)
    if spec.kind is BlockKind.FLEET:  # 9.3: "Blocks aboard destroyed fleets are also destroyed"
        for b in sorted(c for c, cs in world.state.blocks.items() if cs.aboard == block):
            eliminate(world, b, hidden=hidden)
