"""Battles (5.0-5.7): sides, reserves, three combat rounds, fire, retreat, regroup."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gm.games.baltica.orders import Regroup
from gm.games.baltica.rules.fleets import sea_retreat_fleet
from gm.games.baltica.rules.losses import strongest, take_step
from gm.games.baltica.rules.retreat import (
    BorderCount,
    carry_out_retreat,
    exits,
    regroup_why,
    retreat_path,
)
from gm.games.baltica.rules.standing import retreat_problem
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POWERS, other_power
from gm.i18n import msg

LETTERS = "ABCD"  # 5.4: "A blocks go before B blocks, which go before C ... D blocks going last"

RetreatWish = Callable[[str, int], str | None]
"""(block, round) -> where its owner's standing order retreats it now, or None."""


@dataclass
class Battle:
    """One battle in progress: the territory, the two sides and who takes part."""

    territory: str
    defender: str
    attacker: str
    fighting: set[str] = field(default_factory=set)
    reserves: set[str] = field(default_factory=set)
    told: set[str] = field(default_factory=set)  # blocks whose refused retreat was told

    def side(self, world: World, power: str) -> list[str]:
        """``power``'s blocks still in the battle (not retreated, not eliminated)."""
        return sorted(b for b in self.fighting
                      if world.power_of(b) == power
                      and world.state.blocks[b].location == self.territory)


def battle_territories(world: World) -> list[str]:
    """5.0: "Any territory occupied by blocks from both players is a battle territory."
    Fleets anchored in a harbor never fight (9.4); they are not ground blocks."""
    return sorted(t for t in world.board.territories if world.occupied_by_both(t))


def defender_of(world: World, territory: str) -> str:
    """5.1: "The last side to solely have blocks in the territory is the defender."
    Recorded when the territory became contested; else the side there longest."""
    known = world.state.turn.defenders.get(territory)
    if known is not None:
        return known
    return min(POWERS, key=lambda p: min((world.state.blocks[b].arrived
                                          for b in world.blocks_of(p, territory)),
                                         default=10**9))


def set_up(world: World, territory: str) -> Battle:
    """5.3/6.5: who fights in round 1 and who is in reserve.

    Attacking blocks that crossed a border other than the main attack, defending blocks
    that entered the battle territory after it became one, and force-marched blocks
    (4.4) are reserves. Besieging blocks fight only if pinned by the attacker (6.5);
    those lift the siege.
    """
    defender = defender_of(world, territory)
    attacker = other_power(defender)
    battle = Battle(territory, defender, attacker)
    besiegers = _lift_pinned_besiegers(world, territory)
    main = world.state.turn.main_attacks.get(territory)
    contested = min((e[2] for e in world.state.turn.entries.get(territory, [])
                     if e[0] == attacker), default=0)
    for p in POWERS:
        for b in world.blocks_of(p, territory):
            if b in besiegers:
                continue
            battle.fighting.add(b)
            bs = world.state.blocks[b]
            late = (p == attacker and main is not None and bs.entered_from != main) or (
                p == defender and bs.arrived > contested and contested > 0)
            if late or bs.forced > 0:
                battle.reserves.add(b)
                bs.reserve = True
    return battle


def _lift_pinned_besiegers(world: World, territory: str) -> set[str]:
    """6.5: "any besieging blocks pinned (4.3) by the attacker must lift the siege and
    fight in the battle instead." 3CG 3.42 (reading "broken-off" of ``siege_attacked``):
    "When moving into a territory where the enemy have declared a siege, the siege
    attempt is broken off and replaced by a regular battle": every besieger fights and
    the siege is gone. Returns the besiegers that stay out of the battle."""
    out: set[str] = set()
    broken_off = world.reading("siege_attacked") == "broken-off"
    for siege in list(world.state.turn.sieges):
        if siege.territory != territory:
            continue
        if broken_off:  # 3CG 3.42: "the siege attempt is broken off and replaced by a
            world.state.turn.sieges.remove(siege)  # regular battle"
            world.emit("siege_lifted", None, territory=world.tname(territory),
                       blocks=[world.name(b) for b in siege.blocks])
            continue
        lifted = [b for b in siege.blocks if world.state.blocks[b].pinned]
        siege.blocks = [b for b in siege.blocks if b not in lifted]
        out |= set(siege.blocks)
        if lifted:
            world.emit("siege_lifted", None, territory=world.tname(territory),
                       blocks=[world.name(b) for b in lifted])
    return out


def _public(world: World, blocks: Sequence[str]) -> list[dict[str, object]]:
    return [{"block": world.name(b), "nation": world.spec(b).nation,
             "strength": world.state.blocks[b].strength, "rating": str(world.rating(b))}
            for b in blocks]


def active(world: World, battle: Battle, power: str, round_: int) -> list[str]:
    """Blocks that may fire, retreat or take hits now (reserves only from round 2, 5.3)."""
    return [b for b in battle.side(world, power) if round_ > 1 or b not in battle.reserves]


def turn_order(world: World, battle: Battle, round_: int) -> list[str]:
    """5.4: A before B before C before D; "Within each rating, defending blocks go before
    attacking ones"."""
    order: list[str] = []
    for letter in LETTERS:
        for p in (battle.defender, battle.attacker):
            order += [b for b in active(world, battle, p, round_)
                      if world.rating(b).letter == letter]
    return order


def fire(world: World, battle: Battle, block: str, round_: int) -> None:
    """5.5: "roll as many dice as the block's current strength. A hit is scored for each
    roll equal to or lower than the block's combat rating ... Each hit is applied
    individually to the enemy block with the highest current strength ... All hits are
    applied immediately." """
    spec = world.spec(block)
    strength = world.state.blocks[block].strength
    dice = world.dice.roll(strength, msg("{territory} round {round}: {block} fires",
                                         territory=world.tname(battle.territory), round=round_,
                                         block=spec.name))
    rating = world.rating(block)
    hits = sum(1 for d in dice if d <= rating.number)
    world.emit("fire", None, territory=world.tname(battle.territory), round=round_,
               block=spec.name, rating=str(rating), dice=dice, hits=hits)
    enemy = other_power(world.power_of(block))
    for _ in range(hits):
        target = strongest(world, active(world, battle, enemy, round_))
        if target is None:
            return
        eliminated = take_step(world, target)
        world.emit("hit", None, territory=world.tname(battle.territory), round=round_,
                   block=world.name(target), strength=world.state.blocks[target].strength,
                   eliminated=eliminated)


def retreat_block(world: World, battle: Battle, block: str, to: str | None,
                  count: BorderCount, round_: int, *, forced: bool) -> bool:
    """5.6: retreat one block (to ``to`` or, forced, to the nearest legal territory).
    ``to`` a sea zone: a retreat to sea onto a fleet there (9.5). A forced retreat with
    no land retreat left goes to sea if it can (interpretation), else it destroys the
    block ("retreat or be destroyed"). Returns True if the block left the battle."""
    owner = world.power_of(block)
    hidden = block in battle.reserves and round_ == 1
    home_sea = world.board.territories[battle.territory].sea
    path, fleet = None, None
    if to is not None and to in world.board.seas:
        fleet = sea_retreat_fleet(world, block, battle.territory, to)
    else:
        path = retreat_path(world, block, battle.territory, battle.attacker, to, count)
    if to is not None and path is None and fleet is None:
        _refused(world, battle, block, to, count, round_, forced=forced)
    if path is None and fleet is None and forced:
        path = retreat_path(world, block, battle.territory, battle.attacker, None, count)
        if path is None and home_sea is not None:
            fleet = sea_retreat_fleet(world, block, battle.territory, home_sea)
    if fleet is not None:
        bs = world.state.blocks[block]  # 9.5: aboard, as if embarked (9.2)
        bs.location, bs.aboard = world.state.blocks[fleet].location, fleet
        bs.reserve = bs.pinned = False
        _announce_retreat(world, block, battle.territory, bs.location, round_, forced, hidden)
        return True
    if path is None:
        if forced:
            world.emit("retreat_impossible", [owner] if hidden else None,
                       territory=world.tname(battle.territory), block=world.name(block))
            while not take_step(world, block, hidden=hidden):
                pass
        return forced
    carry_out_retreat(world, block, battle.territory, path, count)
    _announce_retreat(world, block, battle.territory, path[-1], round_, forced, hidden)
    return True


def _refused(world: World, battle: Battle, block: str, to: str, count: BorderCount,
             round_: int, *, forced: bool) -> None:
    """Tell the owner, once a battle, why the retreat its standing order asks for is
    impossible: the block fires instead (5.6: "If a block cannot retreat, it must stay
    and fight"), or, forced to retreat, goes to the nearest legal territory."""
    if block in battle.told:
        return
    battle.told.add(block)
    owner = world.power_of(block)
    allowed = exits(world, owner, battle.territory, battle.attacker)
    room = count.room(world, battle.territory, to) if to in world.board.territories else 0
    why = retreat_problem(world, block, battle.territory, to, allowed, room)
    world.emit("retreat_refused", [owner], block=world.name(block), to=world.tname(to),
               territory=world.tname(battle.territory), round=round_, forced=forced,
               why=why.value, code=why.name)


def _announce_retreat(world: World, block: str, territory: str, to: str, round_: int,
                      forced: bool, hidden: bool) -> None:
    """The owner learns which block retreated where; others only its nation when hidden."""
    owner = world.power_of(block)
    data = {"territory": world.tname(territory), "round": round_, "to": world.tname(to),
            "forced": forced}
    if hidden:
        world.emit("retreated", [owner], block=world.name(block), **data)
        world.emit("block_retreated", None, nation=world.spec(block).nation, **data)
    else:
        world.emit("retreated", None, block=world.name(block), **data)


def over(world: World, battle: Battle, round_: int) -> bool:
    """A battle ends when one side has no block left that can fight this round."""
    return any(not active(world, battle, p, round_) for p in POWERS)


def fight(world: World, territory: str, wish: RetreatWish,
          regroups: dict[str, str]) -> str | None:
    """5.1-5.7: fight one battle to its end; return the winner (None if nobody is left)."""
    battle = set_up(world, territory)
    world.emit("battle", None, territory=world.tname(territory), defender=battle.defender,
               attacker=battle.attacker,
               blocks={p: _public(world, [b for b in battle.side(world, p)
                                          if b not in battle.reserves]) for p in POWERS},
               reserves={p: sum(1 for b in battle.side(world, p) if b in battle.reserves)
                         for p in POWERS})
    round_ = 1
    for round_ in range(1, world.board.limits.battle_rounds + 1):  # 5.4 (limits.battle_rounds)
        if round_ == 2 and battle.reserves:
            world.emit("reserves_revealed", None, territory=world.tname(territory),
                       blocks=_public(world, sorted(b for b in battle.reserves
                                                    if b in battle.side(world, world.power_of(b)))))
        count = BorderCount()
        for block in turn_order(world, battle, round_):
            if world.state.blocks[block].location != territory:
                continue
            to = wish(block, round_)
            if to is None or not retreat_block(world, battle, block, to, count, round_,
                                               forced=False):
                fire(world, battle, block, round_)
            if over(world, battle, round_):
                break
        world.emit("round_end", None, territory=world.tname(territory), round=round_)
        if over(world, battle, round_):
            break
    return _conclude(world, battle, round_, regroups, wish)


def must_retreat_after_round_3(world: World, battle: Battle) -> str:
    """The side that retreats from a battle not concluded by the end of the third round.

    GMT 5.4 (reading "side-without-garrison"): "the side that does not control the
    garrison must retreat (the attacking side if neither controls the garrison)".
    3CG 6.2 (reading "attacker"): "The attacker (the player who moved into the
    territory) must retreat if a battle is not concluded by the end of the third round."
    """
    if world.reading("after_third_round") == "attacker":
        return battle.attacker
    if world.controlled_by(battle.territory, battle.attacker):
        return battle.defender
    return battle.attacker


def _conclude(world: World, battle: Battle, round_: int, regroups: dict[str, str],
              wish: RetreatWish | None = None) -> str | None:
    """5.3: reserves retreat if the battle ends in round 1; 5.4/5.6 (3CG 6.2): after round 3
    the side :func:`must_retreat_after_round_3` names retreats or is destroyed; 5.7.
    A forced retreat goes where the owner's standing retreat order says if it can
    (``wish``), else to the nearest legal territory (docs/baltica.md)."""
    count = BorderCount()

    def forced(b: str) -> None:
        to = wish(b, round_) if wish is not None else None
        retreat_block(world, battle, b, to, count, round_, forced=True)

    if round_ == 1:
        for b in sorted(battle.reserves):
            if world.state.blocks[b].location == battle.territory:
                forced(b)
    if all(battle.side(world, p) for p in POWERS):
        loser = must_retreat_after_round_3(world, battle)
        for b in battle.side(world, loser):
            forced(b)
    left = [p for p in POWERS if battle.side(world, p)]
    winner = left[0] if len(left) == 1 else None
    for b in battle.fighting:
        world.state.blocks[b].reserve = False
    world.emit("battle_end", None, territory=world.tname(battle.territory), winner=winner,
               rounds=round_)
    if winner is not None:
        regroup(world, battle, winner, regroups)
    return winner


def regroup(world: World, battle: Battle, winner: str, regroups: dict[str, str]) -> None:
    """5.7: "the winning side may regroup at the instant of victory ... to any adjacent
    friendly or transit territories that are free of enemy blocks." (3CG 6.6: "to any
    friendly territories free of enemy blocks".) Default: stay. Each regroup carried out
    or refused (with its reason, to the owner) is removed from ``regroups``."""
    count = BorderCount()
    for b in battle.side(world, winner):
        to = regroups.pop(b, None)
        if to is None:
            continue
        why = regroup_why(world, b, battle.territory, to, count)
        if why is not None:
            order = Regroup((world.name(b),), world.tname(to))
            world.emit("order_failed", [winner], order=order.echo(),
                       why=why.value, code=why.name)
            continue
        count.use(battle.territory, to)
        world.state.blocks[b].location = to
        world.emit("regrouped", None, block=world.name(b), territory=world.tname(battle.territory),
                   to=world.tname(to))
