"""Movement (4.1-4.5): group moves, border limits, pinning, force-marching."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from gm.games.baltica.board import Board
from gm.games.baltica.orders import Move, MoveGroup
from gm.games.baltica.rules.event_effects import mistrust_problem
from gm.games.baltica.rules.fleets import SeaRoute, landing_problem, sea_route
from gm.games.baltica.rules.limits import attack_problem, entry_problem, move_problem
from gm.games.baltica.rules.losses import take_step
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import other_power
from gm.i18n import msg


@dataclass(frozen=True)
class PathCheck:
    """A checked path (without the origin), or why it cannot be taken."""

    path: tuple[str, ...] = ()
    why: Why | None = None
    at: str = ""  # NO_PATH: where the shortest land route is barred, and why
    barred: Why | None = None
    sea: SeaRoute | None = None  # BY_SEA, TOO_FAR: the sea transport to order instead (9.2)
    closed: Why | None = None  # BY_SEA, TOO_FAR: why no landing there either (4.5, 11.x)


def step_problem(world: World, power: str, a: str, b: str, blocks: Sequence[str],
                 final: bool) -> Why | None:
    """Whether ``power``'s ``blocks`` may step from ``a`` into ``b`` (4.1, 4.2, 4.5, 1.0,
    11.3-11.7).

    4.1: blocks "must stop and fight when they move into a territory ... containing
    one or more enemy blocks"; 4.2: "Blocks crossing a Difficult Terrain border must
    stop in the entered territory"; 4.5: inactive nations' territories are prohibited;
    11.x: limited interests bar some nations from some territories.
    """
    n = len(blocks)
    if b not in world.board.territories:
        return Why.NOT_A_TERRITORY
    if b not in world.board.neighbours(a):
        return Why.NO_BORDER
    if world.prohibited(b):
        return Why.PROHIBITED
    limit = entry_problem(world, blocks, b)
    if limit is not None:
        return limit
    if world.border_room(power, a, b) < n:
        return Why.BORDER_FULL
    if not final and world.difficult(a, b):
        return Why.MUST_STOP_DIFFICULT
    if not final and world.enemy_blocks(power, b):
        return Why.MUST_STOP_ENEMY
    return None


def check_path(world: World, power: str, origin: str, path: Sequence[str],
               blocks: Sequence[str]) -> Why | None:
    """The first problem along an explicit path, or None (4.1-4.5, 11.x)."""
    here = origin
    for i, there in enumerate(path):
        why = step_problem(world, power, here, there, blocks, i == len(path) - 1)
        if why is not None:
            return why
        here = there
    return None


def shortest_path(world: World, power: str, origin: str, to: str, blocks: Sequence[str],
                  limit: int) -> PathCheck:
    """4.1: "Without via, the engine picks a shortest legal path" (orders.md §5).

    Breadth-first over legal steps, neighbours in name order, at most ``limit`` long.
    """
    seen = {origin: ()}  # type: dict[str, tuple[str, ...]]
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        path = seen[here]
        if len(path) >= limit:
            continue
        for there in sorted(world.board.neighbours(here)):
            if there in seen:
                continue
            final = there == to
            if step_problem(world, power, here, there, blocks, final) is not None:
                if not final or step_problem(world, power, here, there, blocks,
                                             True) is not None:
                    continue
            if final:
                return PathCheck(path + (there,))
            seen[there] = path + (there,)
            queue.append(there)
    return PathCheck(why=Why.NO_PATH)


def no_path(world: World, power: str, origin: str, to: str, blocks: Sequence[str],
            limit: int) -> PathCheck:
    """Why no legal path of at most ``limit`` territories (the blocks' rating and a force
    march, 4.4) leads from ``origin`` to ``to``, as a player can act on it: no land route
    at all (1.0: across the sea, blocks go by sea with embark, sail and land, 9.2); a land
    route longer than a force march reaches (4.4: "too far even force-marching"); or one
    within reach that the rules bar now, with where and why (an inactive nation's
    territory, 4.5; enemy blocks to stop at, 4.1; ...). Each was "no legal path" before: a
    Swedish player moving Karl XII from Skåne to Sjælland could not tell which.

    When the land will not do (no route, or too far), the sea may: the sea transport
    the player can order now (:func:`fleets.sea_route`, 9.2: embark, sail, land), or why
    the blocks may not land there either (4.5, 11.x): Karl XII goes from Skåne to Estland
    on the fleets at sea off Malmö, not to Sjælland while Denmark is out of the war."""
    route = _land_route(world.board, origin, to)
    if route is None or len(route) > limit:
        return PathCheck(why=Why.BY_SEA if route is None else Why.TOO_FAR,
                         sea=sea_route(world, power, origin, blocks, to),
                         closed=landing_problem(world, power, blocks, to))
    here = origin
    for i, there in enumerate(route):
        why = step_problem(world, power, here, there, blocks, i == len(route) - 1)
        if why is not None:
            return PathCheck(why=Why.NO_PATH, at=there, barred=why)
        here = there
    return PathCheck(why=Why.NO_PATH)


def _land_route(board: Board, origin: str, to: str) -> tuple[str, ...] | None:
    """The shortest route over open borders (1.0: not across a lake) from ``origin`` to
    ``to`` whatever stands on it, neighbours in name order (as :func:`shortest_path`);
    None when there is none."""
    seen: dict[str, tuple[str, ...]] = {origin: ()}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for there in sorted(board.neighbours(here)):
            if there not in seen:
                seen[there] = seen[here] + (there,)
                if there == to:
                    return seen[there]
                queue.append(there)
    return None


def group_problem(world: World, power: str, origin: str, blocks: Sequence[str]) -> Why | None:
    """4.1/4.3: the group is the power's, in ``origin``, unmoved, unpinned, all ground blocks,
    and not leaving over a border used by enemy blocks that pinned it."""
    for b in blocks:
        bs = world.state.blocks[b]
        if world.power_of(b) != power:
            return Why.NOT_YOURS
        if bs.location != origin:
            return Why.NOT_THERE
        if not world.ground(b):
            return Why.FLEET_SAILS
        if bs.aboard is not None:
            return Why.ABOARD
        if bs.moved:
            return Why.ALREADY_MOVED
        if bs.pinned:
            return Why.PINNED
    return None


def order_limits_problem(world: World, power: str, order: Move,
                         joining: dict[str, set[str]]) -> Why | None:
    """Section 11's limits on a move order as it arrives (11.3-11.10): the named
    destination and ``via`` territories, and the attack on the destination as the board
    stands now. ``joining`` (territory -> nations moving in) gathers the mail's earlier
    moves for 11.10 and is extended with this order's groups."""
    why: Why | None = None
    for g in order.groups:
        blocks = [world.bid_block(b) for b in g.blocks]
        path = tuple(world.bid_territory(t) for t in (*g.via, g.to))
        why = why or move_problem(world, power, blocks, path, joining)
        joining.setdefault(path[-1], set()).update(world.spec(b).nation for b in blocks)
    return why


def pinners_borders(world: World, power: str, territory: str) -> set[str]:
    """4.3: borders (given by the territory on the other side) used by the enemy to enter."""
    return {e[1] for e in world.state.turn.entries.get(territory, []) if e[0] != power}


def plan_group(world: World, power: str, origin: str, group: MoveGroup,
               blocks: Sequence[str]) -> PathCheck:
    """The path one group will take, checked against 4.1-4.5 (movement and force march).
    4.4: "Any moving group may force-march up to two extra territories" (tables.toml
    ``limits.force_march_extra``)."""
    rating = min(world.spec(b).movement for b in blocks)
    extra = world.board.limits.force_march_extra
    limit = rating + (extra if group.force else 0)
    to = world.bid_territory(group.to)
    barred = entry_problem(world, blocks, to)  # 11.3-11.7, rather than "no legal path"
    if barred is not None:
        return PathCheck(why=barred)
    if group.via:
        path = tuple(world.bid_territory(v) for v in group.via) + (to,)
        why = check_path(world, power, origin, path, blocks)
        if why is not None:
            return PathCheck(why=why)
    else:
        found = shortest_path(world, power, origin, to, blocks, rating + extra)
        if found.why is not None:
            return no_path(world, power, origin, to, blocks, rating + extra)
        path = found.path
    if len(path) > limit:
        return PathCheck(why=Why.TOO_FAR if group.force else Why.FORCE_NEEDED)
    if path[0] in pinners_borders(world, power, origin):
        return PathCheck(why=Why.PINNERS_BORDER)
    why = attack_problem(world, power, blocks, path[-1])  # 11.7, 11.10
    return PathCheck(why=why) if why else PathCheck(path)


def carry_out_move(world: World, power: str, order: Move) -> list[tuple[MoveGroup, Why | None]]:
    """One movement action (3.3.2, 4.1): every group from one origin, split as ordered.

    Each group is checked and carried out in turn; a group that cannot go stays and
    its reason is returned (the action is spent once any group moved).
    """
    origin = world.bid_territory(order.origin)
    results: list[tuple[MoveGroup, Why | None]] = []
    for group in order.groups:
        blocks = [world.bid_block(n) for n in group.blocks]
        why = group_problem(world, power, origin, blocks)
        if why is None and mistrust_problem(world, power, blocks, world.bid_territory(group.to)):
            why = Why.MISTRUST
        plan = PathCheck(why=why) if why else plan_group(world, power, origin, group, blocks)
        if plan.why is None:
            move_blocks(world, power, origin, plan.path, blocks)
        results.append((group, plan.why))
    return results


def move_blocks(world: World, power: str, origin: str, path: Sequence[str],
                blocks: Sequence[str]) -> None:
    """Carry a group along a checked path: borders counted (4.2), stop, pin (4.3)."""
    here = origin
    for there in path:
        world.use_border(power, here, there, len(blocks))
        here = there
    dest = path[-1]
    came_from = path[-2] if len(path) > 1 else origin
    rating = min(world.spec(b).movement for b in blocks)
    enemy_there = world.enemy_blocks(power, dest)
    was_sole_enemy = bool(enemy_there) and not world.blocks_of(power, dest)
    tick = world.tick()
    for b in blocks:
        bs = world.state.blocks[b]
        bs.location, bs.moved, bs.entered_from, bs.arrived = dest, True, came_from, tick
        bs.forced = max(0, len(path) - rating)
    world.state.turn.entries.setdefault(dest, []).append([power, came_from, tick])
    if was_sole_enemy:
        world.state.turn.defenders[dest] = other_power(power)
        world.state.turn.main_attacks.setdefault(dest, came_from)
    world.emit("moved", [power], origin=world.tname(origin),
               path=[world.tname(t) for t in path], blocks=[world.name(b) for b in blocks],
               forced=max(0, len(path) - rating))
    world.emit("blocks_moved", None, power=power, origin=world.tname(origin),
               path=[world.tname(t) for t in path], count=len(blocks),
               nations=sorted({world.spec(b).nation for b in blocks}))
    if enemy_there:
        pin(world, power, dest, len(blocks))


def pin_rank(world: World, block: str, territory: str) -> tuple[int, int, int, str]:
    """Which blocks the owner pins first (4.3, docs/baltica.md): those the defender's
    ``pin ... in`` orders name for the territory, in their order; then by default blocks
    that already moved this turn, then the weakest, then by id (keeping the strong free)."""
    chosen = world.pins.get(territory, [])
    listed = chosen.index(block) if block in chosen else len(chosen)
    bs = world.state.blocks[block]
    return (listed, 0 if bs.moved else 1, bs.strength, block)


def pin(world: World, mover: str, territory: str, n: int) -> None:
    """4.3: "When blocks move into a territory with enemy blocks, they pin an equal
    number of enemy blocks ... The enemy player chooses which blocks are pinned."""
    owner = other_power(mover)
    free = sorted((b for b in world.blocks_of(owner, territory)
                   if not world.state.blocks[b].pinned),
                  key=lambda b: pin_rank(world, b, territory))
    chosen = free[:n]
    for b in chosen:
        world.state.blocks[b].pinned = True
    if chosen:
        world.emit("pinned", [owner], territory=world.tname(territory),
                   blocks=[world.name(b) for b in chosen])
        world.emit("blocks_pinned", None, territory=world.tname(territory), count=len(chosen))


def force_march_losses(world: World, power: str) -> None:
    """4.4: "After all movement is completed, roll a die for each force-marching block:
    1-3: Lose one step per extra territory moved; 4-6: No loss." Blocks may be eliminated.
    (The 3 is tables.toml ``limits.force_march_loss_on``.)

    The rolls and losses are shown to the owner only: the blocks are hidden.
    """
    loss_on = world.board.limits.force_march_loss_on
    for b in sorted(world.state.blocks):
        bs = world.state.blocks[b]
        if bs.forced <= 0 or not world.state.on_map(b) or world.power_of(b) != power:
            continue
        roll = world.dice.d6(msg("force march {block}", block=world.name(b)), visible_to=[power])
        lost = bs.forced if roll <= loss_on else 0
        world.emit("force_march", [power], block=world.name(b), roll=roll, steps_lost=lost)
        for _ in range(lost):
            if take_step(world, b, hidden=True):
                break
