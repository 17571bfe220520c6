"""Truce (10.2) and reactivation (10.3).

A truce is called by a trigger during a phase (:func:`call_truce`) and takes effect
"at the end of the current phase" (:func:`impose_due_truces`), which also checks the
triggers that are states rather than moments: an RP level at zero (10.2) and the
Ottoman surrender (11.6). A truce offered in the Interphase (10.2) takes effect at once
(:func:`offer_truce`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection

from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import OFF_MAP, POOL

NO_OFFER = ("sweden", "ukraine", "poland")  # 10.2: "Any nation (except Sweden, Ukraine, or
# Poland) may offer to submit to a truce during any Interphase."


def truce_possible(world: World, nation: str) -> bool:
    """Whether a truce can be imposed on ``nation`` now: at war and not exempt (11.5:
    "Poland is never subject to truce"; 11.10: Holstein-Gottorp "is always an active
    Swedish ally"; 11.8: Ukraine is pacified, not truced)."""
    act = world.board.nations[nation].activation
    if act.get("never_truce") or act.get("always_active") or nation == "ukraine":
        return False
    return nation in world.state.active and nation not in world.state.truces


def call_truce(world: World, nation: str, reason: str) -> None:
    """10.2: "A truce is imposed on a nation at the end of the current phase": note it
    (``truce_due``, public) for :func:`impose_due_truces`."""
    if not truce_possible(world, nation) or any(n == nation for n, _ in world.truces_due):
        return
    world.truces_due.append((nation, reason))
    world.emit("truce_due", nation=nation, reason=reason)


def gmt_truce_triggers(world: World) -> bool:
    """GMT 10.2's list (last block eliminated, RP level at zero) applies; the 3CG book's
    truces (6.9, reading "3cg-6.9" of ``truce_triggers``) come only from a royal block
    eliminated, a capital taken, events, and for Turkey (10.5) "If all blocks are lost due
    to combat or all Turkish territories are occupied"."""
    return world.reading("truce_triggers") != "3cg-6.9"


def last_block_truce(world: World, nation: str) -> bool:
    """Whether losing its last block on the map brings ``nation`` a truce: GMT 10.2 every
    nation; 3CG only those its rules name (tables.toml ``limits.last_block_truce``: 10.5
    Turkey "If all blocks are lost due to combat", 10.8 "If the British warship block is
    lost in combat, Great Britain is forced to a TRUCE")."""
    if gmt_truce_triggers(world):
        return True
    return nation in world.board.tables["limits"].get("last_block_truce", ())


def state_triggers(world: World) -> None:
    """The truce triggers that are states: "when their RP level is reduced to zero"
    (10.2) and 11.6: "If enemy blocks solely occupy all Ottoman territories, a truce is
    imposed"."""
    gs = world.state
    for nation in list(gs.active):
        if nation in gs.rp and gs.rp[nation] <= 0 and gmt_truce_triggers(world):
            call_truce(world, nation, "rp_zero")
    if "ottoman" in gs.active:
        lands = world.board.nation_territories("ottoman")
        if lands and all(world.enemy_blocks("sweden", t)
                         and not world.blocks_of("sweden", t) for t in lands):
            call_truce(world, "ottoman", "surrender")


def impose_due_truces(world: World) -> None:
    """End of the phase: every truce called during it takes effect, in the order called."""
    state_triggers(world)
    while world.truces_due:
        nation, reason = world.truces_due.pop(0)
        impose_truce(world, nation, reason)


def impose_truce(world: World, nation: str, reason: str) -> None:
    """10.2: "When a truce is imposed on a nation: All of the nation's blocks are returned
    to their replacement pool and the nation becomes inactive. Remove all of the nation's
    garrison markers from captured territories. Also remove all enemy garrison markers
    from the nation's territories. Any blocks of another nation inside a nation under
    truce are immediately moved to the nearest friendly territory they are allowed to
    enter ... Place a cube of that nation's color on the Year Track four years ahead".

    11.5: "If a truce is imposed on Saxony, return Polish blocks on the map to the Saxon
    replacement pool." Removed markers give back the RP levels they cost (8.1, as a
    recapture would: interpretation).
    """
    gs = world.state
    if nation in gs.active:
        gs.active.remove(nation)
    until = gs.year + years_on_the_track(world)
    gs.truces[nation] = until
    world.emit("truce", nation=nation, reason=reason, until=until)
    followers = [n for n, v in world.board.nations.items()
                 if v.activation.get("follows") == nation]
    pooled = [b for b, bs in gs.blocks.items() if bs.location not in OFF_MAP
              and world.spec(b).nation in (nation, *followers)]
    _to_pool(world, pooled)
    lift_markers(world, nation)
    evict(world, world.board.nation_territories(nation))


def _to_pool(world: World, blocks: list[str]) -> None:
    """The blocks go to their pool; the owner learns which, the opponent how many where."""
    by_owner: dict[str, dict[str, list[str]]] = {}
    for b in sorted(blocks):
        bs = world.state.blocks[b]
        by_owner.setdefault(world.power_of(b), {}).setdefault(world.tname(bs.location),
                                                              []).append(world.name(b))
        bs.location, bs.strength, bs.aboard = POOL, 0, None
        bs.moved = bs.pinned = bs.reserve = False
    for power, places in sorted(by_owner.items()):
        for where, names in sorted(places.items()):
            world.emit("truce_to_pool", [power], territory=where, blocks=names)
            world.emit("truce_to_pool_count", power=power, territory=where, count=len(names))


def kept_by_victor(world: World, nation: str) -> set[str]:
    """3CG 6.9: "If the victor of the truce has conquered any garrisons, 1 may be kept.
    Loser's choice. Capitols are excluded." (tables.toml ``limits.truce_victor_keeps``;
    GMT 10.2 keeps none). The loser's choice by default: the enemy-held garrisons of
    lowest value, then by territory id (docs/baltica.md)."""
    keep = int(world.board.tables["limits"].get("truce_victor_keeps", 0))
    if keep <= 0:
        return set()
    held = [t for t, holder in world.state.control.items()
            if world.board.territories[t].nation == nation and holder != nation
            and not world.board.territories[t].capital
            and world.power_of_nation(holder) != world.power_of_nation(nation)]
    return set(sorted(held, key=lambda t: (world.garrison_value(t), t))[:keep])


def lift_markers(world: World, nation: str) -> None:
    """Remove the nation's markers from captured territories and the enemy's from its own
    (but those :func:`kept_by_victor`)."""
    gs = world.state
    kept = kept_by_victor(world, nation)
    for territory, holder in sorted(gs.control.items()):
        owner = world.board.territories[territory].nation
        if (holder != nation and owner != nation) or territory in kept:
            continue
        del gs.control[territory]
        if owner is not None and owner != holder and owner in gs.rp:
            gs.rp[owner] += world.board.limits.rp_per_garrison  # 8.1: regained
        world.emit("marker_removed", territory=world.tname(territory), nation=holder,
                   control=world.controller(territory))


def nearest_friendly(world: World, block: str, start: str, leaving: Collection[str]) -> str | None:
    """10.2: "the nearest friendly territory they are allowed to enter" (fewest land
    borders; not prohibited, 4.5; free of enemy blocks; outside the territories being
    left). Equidistant: "owner's choice"; default the first by territory id."""
    power = world.power_of(block)
    seen, frontier = {start}, deque([(start, 0)])
    found: list[tuple[int, str]] = []
    limit: int | None = None
    while frontier:
        here, dist = frontier.popleft()
        if limit is not None and dist > limit:
            break
        if (here not in leaving and world.controlled_by(here, power)
                and not world.prohibited(here) and not world.enemy_blocks(power, here)):
            found.append((dist, here))
            limit = dist
            continue
        for nxt in world.board.neighbours(here):
            if nxt not in seen:
                seen.add(nxt)
                frontier.append((nxt, dist + 1))
    return min(found)[1] if found else None


def evict(world: World, territories: Collection[str]) -> None:
    """Blocks inside the territories of a nation under truce move out (10.2; the nation's
    own blocks are in the pool already); a fleet anchored in a harbor there puts to sea in
    the harbor's zone; a block with nowhere to go returns to its pool (interpretation)."""
    gs = world.state
    lands = set(territories)
    moved: dict[tuple[str, str, str], list[str]] = {}
    for b in sorted(gs.blocks):
        bs = gs.blocks[b]
        if bs.location not in lands:
            continue
        here = bs.location
        if not world.ground(b):
            to: str | None = world.board.territories[here].sea
        else:
            to = nearest_friendly(world, b, here, lands)
        if to is None:
            _to_pool(world, [b])
            continue
        bs.location = to
        moved.setdefault((world.power_of(b), here, to), []).append(b)
    for (power, here, to), blocks in sorted(moved.items()):
        world.emit("evicted", [power], territory=world.tname(here), to=world.tname(to),
                   blocks=[world.name(b) for b in blocks])
        nations = sorted({world.spec(b).nation for b in blocks})
        world.emit("blocks_evicted", power=power, territory=world.tname(here),
                   to=world.tname(to), count=len(blocks), nations=nations)


def truce_offer_problem(world: World, power: str, nation: str | None) -> Why | None:
    """Why ``power`` may not offer a truce for ``nation`` now (10.2), or None. The 3CG
    book has no truce offers (reading "none" of ``truce_offers``)."""
    if world.reading("truce_offers") == "none":
        return Why.NO_TRUCE_OFFERS
    if nation in NO_OFFER:
        return Why.NO_TRUCE_OFFER
    if (nation is None or world.power_of_nation(nation) != power
            or not truce_possible(world, nation)):
        return Why.NOT_YOUR_NATION_AT_WAR
    return None


def offer_truce(world: World, power: str, nation: str) -> Why | None:
    """10.2: "Any nation (except Sweden, Ukraine, or Poland) may offer to submit to a
    truce during any Interphase. The offer must be accepted and goes into effect
    immediately." (The other player has no say: "must be accepted".) None when it took
    effect, else why not."""
    why = truce_offer_problem(world, power, nation)
    if why is not None:
        return why
    world.emit("truce_offered", power=power, nation=nation)
    impose_truce(world, nation, "offered")
    return None


def years_on_the_track(world: World) -> int:
    """How many years ahead a truce's cube goes (10.2: "on the Year Track four years
    ahead"; tables.toml ``limits.truce_years_ahead``). 3CG 6.9: "A truce is valid for 3
    years before you may start rolling for activation"; 6.10: the rolls are made "after
    the winter turn is finished but BEFORE the spring turn of the next year ... EXAMPLE:
    Denmark is out of the war in 1705. The allied player may start to roll for Denmark's
    activation after the winter turn 1708 but before 1709 spring turn starts", which is
    the Interphase the state counts as 1709: four years on (the 3CG ruleset's value)."""
    return world.board.limits.truce_years_ahead


def reactivation_needs(world: World, nation: str, needs: int) -> int:
    """The roll a nation under truce needs to reactivate: ``needs`` (10.3: a 6, 10.1) unless
    the ruleset has ``tables.truce``: 3CG 6.10: "The first year the nation starts on a 1D6
    result of 6. The next year on a result of 5 and 6, and so on." (down to 1: then any
    roll succeeds)."""
    table = world.board.tables.get("truce")
    until = world.state.truces.get(nation)
    if table is None or until is None:
        return needs
    late = max(0, world.state.year - until)
    return max(1, int(table["first_needs"]) - int(table["needs_drop_per_year"]) * late)


def may_reactivate(world: World, nation: str) -> bool:
    """10.3: "At the start of the Interphase of the Year with the nation's cube ... the
    nation may begin to roll for activation again" (needing a 6, 10.1)."""
    until = world.state.truces.get(nation)
    return until is not None and world.state.year >= until
