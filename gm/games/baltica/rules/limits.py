"""The movement limits of section 11: limited interests (11.3 Saxony, 11.5 Poland,
11.6 Ottoman Empire, 11.7 Prussia) and limited ambition (11.10 Holstein-Gottorp).

Which territories each nation may enter, attack or besiege is data (nations.toml
``never_enter``, ``only_enter``, ``attacks_only_in``, ``attacks_with``); the rules that
read it are here. They are checked when an order arrives (validation) and again when
it is carried out (movement, landing, retreat, regroup, siege).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from gm.games.baltica.rules.builds import places
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World

ENTRY_WHY = {  # the nation whose limit applies -> the reason given (11.3, 11.5-11.7)
    "saxony": Why.SAXON_INTERESTS,
    "poland": Why.SAXON_INTERESTS,
    "ottoman": Why.OTTOMAN_INTERESTS,
    "prussia": Why.PRUSSIAN_INTERESTS,
}


def barred(world: World, nation: str) -> frozenset[str]:
    """11.3/11.5/11.6/11.7 Limited Interests: the territories ``nation``'s blocks may not
    enter ("may never enter ...", "may only enter territories in ...")."""
    spec = world.board.nations[nation]
    out = set(places(world, spec.never_enter))
    if spec.only_enter:
        out |= set(world.board.territories) - set(places(world, spec.only_enter))
    return frozenset(out)


def group_barred(world: World, blocks: Sequence[str]) -> frozenset[str]:
    """The territories a group may not enter: the union of its nations' limits."""
    out: frozenset[str] = frozenset()
    for nation in sorted({world.spec(b).nation for b in blocks}):
        out |= barred(world, nation)
    return out


def entry_problem(world: World, blocks: Sequence[str], territory: str) -> Why | None:
    """Limited Interests (11.3, 11.5, 11.6, 11.7): may every block enter ``territory``?"""
    for nation in sorted({world.spec(b).nation for b in blocks}):
        if territory in barred(world, nation):
            return ENTRY_WHY.get(nation, Why.LIMITED_INTERESTS)
    return None


def path_problem(world: World, blocks: Sequence[str], path: Sequence[str]) -> Why | None:
    """Limited Interests along a path: entering a territory on the way is entering it."""
    for there in path:
        why = entry_problem(world, blocks, there)
        if why is not None:
            return why
    return None


def attack_place_problem(world: World, blocks: Sequence[str], territory: str) -> Why | None:
    """11.7: "The only territory where the Prussian block may attack or declare a siege
    is Pomorze. The Prussian block may defend itself in any territory." 3CG 10.6: "The
    only territory where the Prussian block may perform any attack, siege or combat is
    Pommern." (nations.toml ``attacks_only_in``, overlaid by the 3CG ruleset)"""
    for nation in sorted({world.spec(b).nation for b in blocks}):
        where = world.board.nations[nation].attacks_only_in
        if where and territory not in places(world, where):
            return Why.PRUSSIAN_ATTACK_POMMERN if tuple(where) == ("pommern",) else (
                Why.PRUSSIAN_ATTACK)
    return None


def attacks_alone_problem(world: World, power: str, blocks: Sequence[str], territory: str,
                          joining: Mapping[str, Collection[str]] | None = None) -> Why | None:
    """11.10 Limited Ambition: "The Holstein-Gottorp block may never attack alone, but
    only in conjunction with Swedish blocks."

    The attack is in conjunction when the moving group holds a block of the named
    nations, or such a block of ``power`` already stands in the territory (it attacked
    first). ``joining`` (validation only) maps a territory to the nations whose blocks
    earlier orders of the same mail send into it.
    """
    group_nations = {world.spec(b).nation for b in blocks}
    for nation in sorted(group_nations):
        partners = set(world.board.nations[nation].attacks_with)
        if not partners or group_nations & partners:
            continue
        there = {world.spec(b).nation for b in world.blocks_of(power, territory)}
        there |= set((joining or {}).get(territory, ()))
        if not there & partners:
            return Why.ATTACKS_ALONE
    return None


def attack_problem(world: World, power: str, blocks: Sequence[str], territory: str,
                   joining: Mapping[str, Collection[str]] | None = None) -> Why | None:
    """Moving into enemy blocks is an attack (4.1, 5.0): 11.7 and 11.10 apply."""
    if not world.enemy_blocks(power, territory):
        return None
    return (attack_place_problem(world, blocks, territory)
            or attacks_alone_problem(world, power, blocks, territory, joining))


def move_problem(world: World, power: str, blocks: Sequence[str], path: Sequence[str],
                 joining: Mapping[str, Collection[str]] | None = None) -> Why | None:
    """Every section 11 limit on one group's move along ``path`` (11.3-11.10)."""
    if not path:
        return None
    return (path_problem(world, blocks, path)
            or attack_problem(world, power, blocks, path[-1], joining))
