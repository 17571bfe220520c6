"""Actions (3.1-3.3): the action roll, reconnaissance, siege declaration, replacement.

Movement itself is in :mod:`.movement`; the order of a player's actions and the
counting of actions in :mod:`.action_phase`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.games.baltica.board import BlockKind
from gm.games.baltica.conditions import applies, unwrap
from gm.games.baltica.orders import Recon, Replace, Reroll, Siege
from gm.games.baltica.rules.limits import attack_place_problem
from gm.games.baltica.rules.replacements import replacement_problem
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POWERS, SiegeState, other_power
from gm.i18n import msg

HIGHEST_FACE = 6  # a die's highest face: 13.2 "A 6 may never be re-rolled"


def actions_for_roll(world: World, roll: int) -> int:
    """The Action Table (3CG 3.1; printed on the GMT map): 1: 1 action, 2-3: 2 actions,
    4-5: 3 actions, 6: an event instead of actions (0 actions). The table is tables.toml
    ``action_table``."""
    return world.board.limits.actions[roll]


def is_event(world: World, roll: int) -> bool:
    """3.1 (3CG 3.1 table): "6: Roll on the Event table" (tables.toml ``action_table``:
    the faces with ``event = true``)."""
    return roll in world.board.limits.event_rolls


def no_two_events(world: World) -> bool:
    """3.2 (GMT) always; in the 3CG ruleset only with the optional rule 13.1: "A player can
    never be the victim of 2 events in a row. A player that rolls a 6 on 2 consecutive
    game turns may re-roll the second die roll until receiving a die roll that equals an
    action number." (``limits.two_events_optional`` names the optional rule.)"""
    optional = world.board.tables.get("limits", {}).get("two_events_optional")
    return optional is None or optional in world.state.optional


def roll_for(world: World, power: str) -> int:
    """3.2: "A player can never roll an event two turns in a row ... If a player rolls
    a 6 for a second consecutive game turn, re-roll until receiving a result that is not 6."

    Then the player's own re-roll (3CG 13.2, 13.3: :func:`player_reroll`) of the die 3.2
    (13.1) left; a 6 that re-roll brings on a second consecutive event turn is re-rolled
    by 3.2 (13.1) again, which is the rules' re-roll, not the player's.
    """
    roll = _no_second_event(world, power, world.dice.d6(msg("action roll {power}", power=world.said(power))))
    return player_reroll(world, power, roll)


def _no_second_event(world: World, power: str, roll: int) -> int:
    """3.2 (3CG 13.1): a second consecutive 6 is re-rolled until it is not a 6."""
    while (is_event(world, roll) and world.state.last_event.get(power, False)
           and no_two_events(world)):
        world.emit("event_reroll", power=power, roll=roll)
        roll = world.dice.d6(msg("action roll {power} (3.2 re-roll)",
                                                      power=world.said(power)))
    return roll


def _limits(world: World) -> dict[str, Any]:
    return dict(world.board.tables.get("limits", {}))


def allied_reroll_ready(world: World, power: str) -> bool:
    """3CG 13.2 ALLIED PLAYER RE-ROLL (optional): "If Russia, Saxony and Denmark all are
    activated, the allied player has one re-roll per turn. It may only be used to re-roll
    against the action table" (``limits.allied_reroll_*``). True when ``power`` has it
    left this game turn."""
    lim = _limits(world)
    rule = lim.get("allied_reroll_optional")
    if rule is None or rule not in world.state.optional or power != lim.get(
            "allied_reroll_power"):
        return False
    nations = lim.get("allied_reroll_nations", [])
    if not all(n in world.state.active and world.power_of_nation(n) == power
               for n in nations):
        return False
    return world.state.turn.allied_rerolls < int(lim.get("allied_rerolls_per_turn", 0))


def rerolls_left(world: World, power: str) -> int:
    """3CG 13.3 RE-ROLLS (optional): "Both players receive 5 re-rolls each to freely use
    as they see fit during the game" (``limits.rerolls_per_game``); 0 without the rule."""
    lim = _limits(world)
    rule = lim.get("rerolls_optional")
    if rule is None or rule not in world.state.optional:
        return 0
    return max(0, int(lim.get("rerolls_per_game", 0)) - world.state.rerolls_used.get(power, 0))


def reroll_problem(world: World, power: str, below: int | None) -> Why | None:
    """Why ``reroll actions below N`` (``reroll off``: ``below`` None) is refused: the
    game has neither rule for ``power`` (13.2 is the allied player's, 13.3 both players'),
    or N is not 2 to 6 (a die of 6 is never below N: 13.2 "A 6 may never be re-rolled")."""
    lim = _limits(world)
    optional = world.state.optional
    has_13_2 = (lim.get("allied_reroll_optional") in optional
                and power == lim.get("allied_reroll_power"))
    has_13_3 = lim.get("rerolls_optional") in optional
    if not (has_13_2 or has_13_3):
        return Why.NO_REROLLS
    if below is not None and not 2 <= below <= HIGHEST_FACE:
        return Why.REROLL_BELOW
    return None


def player_reroll(world: World, power: str, roll: int) -> int:
    """3CG 13.2/13.3: the player's standing ``reroll actions below N`` re-rolls an action
    die showing less than N, with the allied re-roll of this turn (13.2) first, else one
    of the player's re-rolls for the game (13.3), if any is left. "A die-roll may only be
    re-rolled once" (13.3) and "the result of the re-roll is non-negotiable" (13.2): the
    new die stands."""
    below = world.state.reroll_below.get(power)
    if below is None or roll >= below or is_event(world, roll):
        return roll
    left: int | None = None
    if allied_reroll_ready(world, power):
        rule = "13.2"
        world.state.turn.allied_rerolls += 1
    elif rerolls_left(world, power) > 0:
        rule = "13.3"
        world.state.rerolls_used[power] = world.state.rerolls_used.get(power, 0) + 1
        left = rerolls_left(world, power)
    else:  # issue 18: the standing order is not carried out; say why
        world.emit("order_failed", [power], order=f"reroll actions below {below}",
                   why=Why.NO_REROLL_LEFT.value, code=Why.NO_REROLL_LEFT.name)
        return roll
    new = _no_second_event(world, power,
                           world.dice.d6(msg("action roll {power} ({rule} re-roll)",
                                             power=world.said(power), rule=rule)))
    world.emit("action_reroll", power=power, roll=roll, new=new, rule=rule, left=left)
    return new


def set_rerolls(world: World, orders: Mapping[str, Sequence[Any]]) -> None:
    """3CG 13.2/13.3: each power's ``reroll actions below N`` (or ``reroll off``), given in
    any phase it orders in, stands from the end of that phase until changed; the next
    action rolls use it. The last one given in a phase wins."""
    for power, os in orders.items():
        for o in os:
            inner, cond = unwrap(o)
            if not isinstance(inner, Reroll) or not applies(world, power, cond):
                continue
            why = reroll_problem(world, power, inner.below)
            if why is not None:
                world.emit("order_failed", [power], order=inner.echo(), why=why.value,
                           code=why.name)
                continue
            if inner.below is None:
                world.state.reroll_below.pop(power, None)
            else:
                world.state.reroll_below[power] = inner.below
            has_13_3 = _limits(world).get("rerolls_optional") in world.state.optional
            world.emit("reroll_order", [power], power=power, below=inner.below,
                       left=rerolls_left(world, power) if has_13_3 else None)


def action_roll(world: World) -> bool:
    """3.1: "Each player simultaneously rolls one die ... The player with the highest die
    result becomes the First Player this turn. Ties go to the player who was Second Player
    last turn. If a tie is rolled on the first turn of the game, both players roll again."

    Returns True when both rolled events: "the turn immediately proceeds to the Forage
    Phase". Events (12.1) are resolved by :mod:`.events` (``turn.events_due``).
    """
    turn = world.state.turn
    while True:
        rolls = {p: roll_for(world, p) for p in POWERS}
        if rolls[POWERS[0]] != rolls[POWERS[1]] or not world.state.first_turn:
            break
        world.emit("action_tie_reroll", rolls=rolls)
    if rolls[POWERS[0]] == rolls[POWERS[1]]:
        first = world.state.last_second or POWERS[0]
    else:
        first = max(POWERS, key=lambda p: rolls[p])
    turn.rolls, turn.first = rolls, first
    turn.actions = {p: actions_for_roll(world, r) for p, r in rolls.items()}
    if world.state.first_turn:
        for p, n in world.state.first_turn_actions.items():
            if not is_event(world, rolls[p]):
                turn.actions[p] = n
    for p in POWERS:
        world.state.last_event[p] = is_event(world, rolls[p])
        if world.state.last_event[p]:
            turn.events_due.append(p)
            world.emit("event_due", power=p)
    world.state.last_second = other_power(first)
    world.state.first_turn = False
    world.emit("action_roll", rolls=rolls, actions=dict(turn.actions), first=first)
    return all(is_event(world, r) for r in rolls.values())


def recon_problem(world: World, power: str, territory: str) -> Why | None:
    """3.3.1: "Reconnaissance may only be performed in a territory adjacent to a friendly
    army or regiment block."""
    if territory not in world.board.territories:
        return Why.NOT_A_TERRITORY
    for t in world.board.neighbours(territory):
        if any(world.spec(b).kind is not BlockKind.FLEET for b in world.blocks_of(power, t)):
            return None
    return Why.NOT_ADJACENT


def recon(world: World, power: str, order: Recon) -> Why | None:
    """3.3.1: "The opponent must reveal all blocks within that territory" (to that player
    only, until the phase's report)."""
    territory = world.bid_territory(order.territory)
    why = recon_problem(world, power, territory)
    if why is not None:
        return why
    seen = world.blocks_of(other_power(power), territory, ground_only=False)
    for b in seen:
        world.reveal(power, b)
    world.emit("recon", [power], territory=world.tname(territory),
               blocks=[{"block": world.name(b), "nation": world.spec(b).nation,
                        "strength": world.state.blocks[b].strength} for b in seen])
    world.emit("recon_made", None, power=power, territory=world.tname(territory))
    return None


def siege_problem(world: World, power: str, territory: str,
                  blocks: Sequence[str]) -> Why | None:
    """6.1/6.2: who may declare a siege attempt, where. 6.1: "a siege attempt may be
    declared in a territory by any and all unpinned blocks that have not moved this
    turn"; 3CG 3.43: "When performing a Siege attempt by paying 1 action, the attacker
    must already have one block in the territory" (pinned blocks too: reading "allowed"
    of ``siege_by_pinned``)."""
    if territory not in world.board.territories:
        return Why.NOT_A_TERRITORY
    if not world.enemy_controlled(territory, power):
        return Why.NOT_ENEMY_GARRISON
    if any(s.territory == territory and s.power == power for s in world.state.turn.sieges):
        return Why.ALREADY_BESIEGED
    for b in blocks:
        bs = world.state.blocks[b]
        if world.power_of(b) != power:
            return Why.NOT_YOURS
        if bs.location != territory:
            return Why.NOT_THERE
        if not bs.moved and bs.pinned and world.reading("siege_by_pinned") != "allowed":
            return Why.PINNED  # 6.1 "any and all unpinned blocks"; 3CG 3.43 names no such limit
    if len({world.spec(b).nation for b in blocks}) > 1:
        return Why.MIXED_NATIONS
    return attack_place_problem(world, blocks, territory)  # 11.7


def siege_is_free(world: World, power: str, territory: str, blocks: Sequence[str]) -> bool:
    """6.1: "Moving blocks may declare a siege attempt immediately upon ending their move
    in an enemy territory with no enemy blocks. This does not require an additional
    action. If any friendly blocks were already in the territory, they must spend an
    action to join the siege attempt." (Every block that moved this turn moved this phase.)
    """
    return (all(world.state.blocks[b].moved for b in blocks)
            and not world.enemy_blocks(power, territory))


def siege_eligible(world: World, territory: str, blocks: Sequence[str]) -> list[str]:
    """6.2: "Regiment blocks cannot participate in a siege against a garrison of strength
    2 or greater." Fleets never besiege."""
    garrison = world.board.territories[territory].garrison
    value = garrison.value if garrison else 0
    return [b for b in blocks if world.spec(b).kind is BlockKind.ARMY
            or (world.spec(b).kind is BlockKind.REGIMENT and value < 2)]


def declare_siege(world: World, power: str, order: Siege) -> tuple[Why | None, bool]:
    """3.3.3/6.1: declare a siege attempt; returns (problem, free of an action).

    The besieging blocks are revealed ("tipping them face up", 6.1) to both players.
    """
    territory = world.bid_territory(order.territory)
    blocks = [world.bid_block(n) for n in order.blocks]
    why = siege_problem(world, power, territory, blocks)
    if why is not None:
        return why, False
    able = siege_eligible(world, territory, blocks)
    if not able:
        return Why.REGIMENTS_EXCLUDED, False
    free = siege_is_free(world, power, territory, blocks)
    world.state.turn.sieges.append(SiegeState(territory, power, able))
    for b in able:
        world.reveal(other_power(power), b)
    world.emit("siege_declared", None, power=power, territory=world.tname(territory),
               blocks=[{"block": world.name(b), "strength": world.state.blocks[b].strength}
                       for b in able], free=free,
               excluded=[world.name(b) for b in blocks if b not in able])
    return None, free


def replace(world: World, power: str, order: Replace) -> Why | None:
    """3.3.5/8.4: "you may rebuild one step of one of your on-map blocks, provided the
    block can trace a valid line of communications"; 8.3: "Blocks in a Battle territory
    cannot receive replacements." No RPs are spent. Fleets only in harbor (8.3)."""
    block = world.bid_block(order.block)
    bs = world.state.blocks.get(block)
    if bs is None or world.power_of(block) != power:
        return Why.NOT_YOURS
    if world.reading("action_rebuild_fleets") == "never" and not world.ground(block):
        return Why.NO_WARSHIP_REBUILD  # 3CG 3.45: "except warships"
    why = replacement_problem(world, block)
    if why is not None:
        return why
    bs.strength += 1
    world.emit("replaced", [power], block=world.name(block), strength=bs.strength)
    world.emit("replacement_made", None, power=power, territory=world.tname(bs.location))
    return None
