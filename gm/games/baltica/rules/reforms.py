"""Russia's military reforms and the Year Track (11.2), Nyen and Sankt-Peterburg (11.2),
and Karl XII's return from exile, the Night Rider (2.3)."""

from __future__ import annotations

from collections.abc import Sequence

from gm.games.baltica.board import BlockKind, Star
from gm.games.baltica.orders import Reform
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import EXILE, POOL, REMOVED, YEAR_TRACK
from gm.i18n import msg

RUSSIA = "russia"
KARL_XII = "karl-xii"


def reform_problem(world: World, power: str, block: str) -> Why | None:
    """11.2: who may reform now: a Russian army with a hollow star still in the game whose
    reformed twin waits in the Reform box, once reform has been triggered."""
    if world.reading("military_reforms") == "none":
        return Why.NO_REFORMS
    if block not in world.state.blocks or world.power_of(block) != power:
        return Why.NOT_YOURS
    spec = world.spec(block)
    if spec.nation != RUSSIA or spec.star is not Star.HOLLOW or spec.star_pair is None:
        return Why.NOT_REFORMABLE
    if not world.state.reform_open:
        return Why.REFORM_NOT_OPEN
    twin = world.state.blocks.get(spec.star_pair)
    if (world.state.blocks[block].location == REMOVED or twin is None
            or twin.location != REMOVED or spec.star_pair in world.state.year_track):
        return Why.ALREADY_REFORMED
    return None


def reform_open(world: World) -> None:
    """11.2: "If at least one Russian army has been eliminated in a battle (including
    retreat), or if a territory in Russia has been captured, four Russian army blocks
    ... become eligible for reform" (from the following Interphase on). The 3CG book has
    no such rule (reading "none" of ``military_reforms``)."""
    if world.reading("military_reforms") == "none":
        return
    if not world.state.reform_open:
        world.state.reform_open = True
        world.emit("reform_open")


def free_year(world: World, earliest: int) -> int:
    """The first Year box from ``earliest`` on "without a Russian block already in it"."""
    taken = {y for b, y in world.state.year_track.items() if world.spec(b).nation == RUSSIA}
    year = earliest
    while year in taken:
        year += 1
    return year


def reform(world: World, power: str, block: str, order: Reform) -> None:
    """11.2: "Remove the original Russian army block from the game (whether on the map or
    in the replacement pool), then take the matching reformed army from the Reform box and
    place it in any Year box without a Russian block already in it, at least two years
    ahead." The Year box: the first free one (docs/baltica.md)."""
    why = reform_problem(world, power, block)
    if why is not None:
        world.emit("order_failed", [power], order=order.echo(), why=why.value, code=why.name)
        return
    bs = world.state.blocks[block]
    where = bs.location
    bs.location, bs.strength, bs.aboard = REMOVED, 0, None
    twin = world.spec(block).star_pair
    assert twin is not None
    year = free_year(world, world.state.year + world.board.limits.reform_years_ahead)
    world.state.blocks[twin].location = YEAR_TRACK
    world.state.year_track[twin] = year
    world.emit("reformed", [power], block=world.name(block), territory=world.tname(where),
               year=year)
    world.emit("army_reformed", None, year=year)


def accelerate(world: World) -> None:
    """12.3 #3: "Move one reformed Russian army on the Year track to the next lower Year box
    (but not into the current year)." Carried out at the Interphase after the event: the
    earliest army that can move (the year of the event was the one before)."""
    event_year = world.state.year - 1
    for b, year in sorted(world.state.year_track.items(), key=lambda kv: (kv[1], kv[0])):
        spec = world.spec(b)
        if spec.nation == RUSSIA and spec.kind is BlockKind.ARMY and year - 1 > event_year:
            world.state.year_track[b] = year - 1
            world.emit("reform_accelerated", year=year - 1)
            return
    world.emit("no_effect", power="coalition", result="reforms_accelerated",
               reason="no_reformed_army")


def year_track_arrivals(world: World) -> None:
    """11.2: "At the start of every Interphase ..., move any Russian army block in the
    current year's box to the replacement pool." "If the Russian fleets are in the current
    Year box at the start of the Interphase, Nyen is converted into Sankt-Peterburg, a
    4-strength harbor. Add the Russian fleets to the Russian replacement pool." """
    arrived = sorted(b for b, y in world.state.year_track.items() if y <= world.state.year)
    for b in arrived:
        del world.state.year_track[b]
        world.state.blocks[b].location = POOL
        world.emit("year_track_arrival", [world.power_of(b)], block=world.name(b))
    fleets = [b for b in arrived if world.spec(b).kind is BlockKind.FLEET]
    if fleets:
        world.emit("fleets_arrive", nation=RUSSIA, count=len(fleets))
        for t, v in world.board.territories.items():
            if v.upgrade is not None and t not in world.state.upgraded:
                world.state.upgraded.append(t)
                world.emit("upgraded", territory=v.name, to=v.upgrade.name,
                           value=v.upgrade.value)
    armies = len(arrived) - len(fleets)
    if armies:
        world.emit("reformed_armies_arrive", count=armies)


def russian_fleets(world: World) -> list[str]:
    """The Russian fleet blocks (11.2)."""
    return sorted(b for b, s in world.board.blocks.items()
                  if s.nation == RUSSIA and s.kind is BlockKind.FLEET)


def nyen_changed_hands(world: World, territory: str) -> None:
    """11.2: "If Russia captures Nyen, immediately place the two Russian fleet blocks on
    the Year Track two years ahead. Remove the Russian fleets from the Year Track if Russia
    loses control of Nyen." (Only before it becomes Sankt-Peterburg.)"""
    t = world.board.territories[territory]
    if t.upgrade is None or territory in world.state.upgraded:
        return
    if nyen_turns_needed(world) is not None:  # 3CG 11.2: the Nyen track instead
        if world.controller(territory) != RUSSIA and world.state.nyen_turns:
            world.state.nyen_turns = 0
            world.emit("nyen_track_reset", territory=t.name)
        return
    fleets = russian_fleets(world)
    ahead = world.board.limits.fleet_years_ahead  # 11.2: "two years ahead"
    if world.controller(territory) == RUSSIA:
        placed = [b for b in fleets if world.state.blocks[b].location == REMOVED]
        for b in placed:
            world.state.blocks[b].location = YEAR_TRACK
            world.state.year_track[b] = world.state.year + ahead
        if placed:
            world.emit("fleets_on_year_track", year=world.state.year + ahead,
                       count=len(placed))
    else:
        back = [b for b in fleets if b in world.state.year_track]
        for b in back:
            del world.state.year_track[b]
            world.state.blocks[b].location = REMOVED
        if back:
            world.emit("fleets_off_year_track", count=len(back))


def nyen_turns_needed(world: World) -> int | None:
    """3CG 11.2: the consecutive turns Russia must hold Nyen (``limits.nyen_turns`` of the
    3CG ruleset); None under the GMT rules (the Year Track, 11.2)."""
    needed = world.board.tables.get("limits", {}).get("nyen_turns")
    return int(needed) if needed is not None else None


def nyen_track(world: World) -> None:
    """3CG 11.2: "Sweden may never use the Nyen track to upgrade Nyen into a Harbour 4. Only
    the Russian can perform this transformation. If Nyen is conquered by the Russians, a
    marker is placed on the Nyen track. Then Nyen have to stay Russian for 8 consecutive
    turns to transform in to St Petersburg, otherwise they have to re-start the process
    of construction all over again. If successful, the Russians have founded St.
    Peterburg and may start building a Navy. Even if lost due to a siege, Nyen/
    St.Petersburg stay a Harbour 4."

    Checked at the end of every game turn (after forage): a turn ending with Nyen Russian
    moves the marker on, the turn of the capture included (interpretation); any other
    turn end takes it off. On the last step Nyen becomes its ``upgrade`` for good and the
    Russian fleets join the Russian replacement pool."""
    needed = nyen_turns_needed(world)
    if needed is None:
        return
    for t, v in world.board.territories.items():
        if v.upgrade is None or t in world.state.upgraded:
            continue
        if world.controller(t) != RUSSIA:
            if world.state.nyen_turns:
                world.state.nyen_turns = 0
                world.emit("nyen_track_reset", territory=v.name)
            continue
        world.state.nyen_turns += 1
        world.emit("nyen_track", territory=v.name, turns=world.state.nyen_turns, needed=needed)
        if world.state.nyen_turns < needed:
            continue
        world.state.upgraded.append(t)
        world.emit("upgraded", territory=v.name, to=v.upgrade.name, value=v.upgrade.value)
        fleets = [b for b in russian_fleets(world) if world.state.blocks[b].location == REMOVED]
        for b in fleets:
            world.state.blocks[b].location = POOL
        if fleets:
            world.emit("navy_founded", nation=RUSSIA, count=len(fleets))


def night_rider_needs(world: World) -> int:
    """2.3: "On a roll of 6 ... If the roll fails, roll again in the following Interphase;
    he now arrives on a 5 or 6. Continue rolling each Interphase, increasing the chances by
    1." (3CG 11.1 likewise; tables.toml ``limits.night_rider_needs``,
    ``night_rider_needs_drop``), never above a 1."""
    lim = world.board.limits
    return max(1, lim.night_rider_needs - lim.night_rider_needs_drop * world.state.exile_rolls)


def night_rider_3cg(world: World) -> None:
    """3CG 11.1 KARL XII - THE NIGHT RIDER, in a scenario whose special rules name it
    (12.4): "Start rolling 1D6 for the Karl XII block on game turn 2. On a roll of 6 he
    enters the most southern non-occupied Swedish territory. If die-roll fails re-roll on
    game turn 3. He now arrives on a 5 or 6. And so on."

    Reading (docs/baltica.md): the roll is made at the start of every game turn but the
    scenario's first while Karl XII is in the Ottoman Empire (12.4 starts him in
    Besarabya) or in exile; he arrives with his strength (from exile at full strength,
    2.3) in the first territory of ``limits.night_rider_south_to_north`` held by Sweden's
    side and free of enemy blocks. Under the GMT rules (2.3) the Interphase rolls instead.
    """
    order = world.board.tables["limits"].get("night_rider_south_to_north")
    sc = world.board.scenarios.get(world.state.scenario)
    karl = world.state.blocks.get(KARL_XII)
    if (not order or sc is None or not sc.special.get("night_rider") or karl is None
            or world.state.first_turn):
        return
    where = world.board.territories.get(karl.location)
    if karl.location != EXILE and (where is None or where.nation != "ottoman"):
        return
    needs = night_rider_needs(world)
    roll = world.dice.d6(msg("3CG 11.1 the Night Rider"))
    success = roll >= needs
    world.emit("night_rider_roll", roll=roll, needs=needs, success=success, rule="3CG 11.1")
    if not success:
        world.state.exile_rolls += 1
        return
    power = world.power_of(KARL_XII)
    to = next((t for t in order if t in world.board.territories
               and world.controlled_by(t, power) and not world.enemy_blocks(power, t)), None)
    if to is None:
        world.emit("night_rider_waits")
        return
    if karl.location == EXILE:
        karl.strength = world.spec(KARL_XII).max_strength
    karl.location, karl.moved, karl.pinned, karl.aboard = to, False, False, None
    world.state.exile_rolls = 0
    world.emit("night_rider_returns", block=world.name(KARL_XII), territory=world.tname(to),
               rule="3CG 11.1")


def karl_returns(world: World, deploy: Sequence[str]) -> None:
    """2.3 The Night Rider: "Beginning with the next Interphase, roll a die. On a roll of
    6, deploy the Karl XII block at full strength in any territory in Sweden proper
    containing no enemy blocks. If the roll fails, roll again in the following Interphase;
    he now arrives on a 5 or 6. Continue rolling each Interphase, increasing the chances
    by 1." The territory: the first of Sweden's ``deploy`` list that qualifies, else the
    capital, else the first in map order. (3CG 11.1 rolls every game turn instead:
    :func:`night_rider_3cg`.)"""
    if KARL_XII not in world.state.blocks or world.state.blocks[KARL_XII].location != EXILE:
        return
    if world.reading("night_rider") == "scenario":
        return
    needs = night_rider_needs(world)
    roll = world.dice.d6(msg("2.3 Karl XII returns from exile"))
    success = roll >= needs
    world.emit("night_rider_roll", roll=roll, needs=needs, success=success)
    if not success:
        world.state.exile_rolls += 1
        return
    sweden = world.spec(KARL_XII).nation
    proper = list(world.board.nations[sweden].proper) or list(world.board.region("sweden-proper"))
    power = world.power_of(KARL_XII)
    open_ = [t for t in proper if not world.enemy_blocks(power, t)]
    capital = world.board.nations[sweden].capital
    where = next((t for t in deploy if t in open_), None) or (
        capital if capital in open_ else (open_[0] if open_ else None))
    if where is None:
        world.emit("night_rider_waits")
        return
    bs = world.state.blocks[KARL_XII]
    bs.location, bs.strength = where, world.spec(KARL_XII).max_strength
    world.emit("night_rider_returns", block=world.name(KARL_XII), territory=world.tname(where))
