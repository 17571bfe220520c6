"""What events do (12.0) and the two side tables: Swedish (12.2) and Coalition (12.3).

The tables (rows, numbers, nations named) are data in ``tables.toml``; the effects are
here, keyed by the row's ``id``. The Event Table (12.1) is :mod:`.events`, the National
Politics Table (12.4) :mod:`.politics`.

What the engine carries out later (the Interphase's share) is recorded in
``GameState.interphase_due`` and announced, never dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gm.games.baltica.rules.draws import draw
from gm.games.baltica.rules.replacements import spend_on_map
from gm.games.baltica.rules.truce import call_truce
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import ASIDE, POOL, other_power
from gm.i18n import N_, Name, languages, msg, name, translate

#: A table or an event result a dice purpose names by its id (tables.toml), named as the
#: report names it (templates/baltica/_events.txt.j2 ``TABLES``, ``RESULTS``).
_LABELS = {
    "swedish_event_table": N_("Swedish Event Table (12.2)"),
    "coalition_event_table": N_("Coalition Event Table (12.3)"),
    "forced_recruitment": N_("forced recruitment"),
    "reinforcements": N_("reinforcements"),
    "emergency_recruitment": N_("emergency recruitment"),
    "denmark_loans_troops": N_("Denmark loans troops to Austria"),
    "emperor_demands_troops": N_("the Emperor demands troops"),
}


def said_id(key: str) -> Name:
    """A table's or an event's id in a dice purpose, said by its name in every language
    ("forced recruitment RPs", "PR de l'événement recrutement forcé"); the purpose's own
    text keeps the id, as logged and compared by gm verify (:meth:`World.said`)."""
    label = _LABELS.get(key)
    if label is None:
        return name(key)
    return name(key, **{lang: translate(msg(label), lang) for lang in languages()})


@dataclass(frozen=True)
class Choices:
    """A player's standing choices for what events and politics leave to them
    (docs/baltica.md): ``nation`` for 12.1 #6 (a ``politics`` order), ``targets`` (the
    nations a result may name, first that qualifies), ``reinforce`` (blocks to receive
    steps first), and the opponent's ``discontent`` territories (12.4 #2)."""

    nation: str | None = None
    targets: tuple[str, ...] = ()
    reinforce: tuple[str, ...] = ()
    discontent: tuple[str, ...] = ()


def row(world: World, table: str, roll: int) -> dict[str, Any]:
    """One row of a die-roll table in tables.toml."""
    return dict(world.board.tables[table][str(roll)])


def event_loss(world: World, blocks: Sequence[str], steps: int, cause: str) -> None:
    """12.0: "No army or regiment block may be eliminated by losses due to events. Fleet
    blocks, and any blocks transported by them, ignore all losses due to events."

    Each block loses up to ``steps`` but never its last one. The owner learns which
    blocks; the other player how many steps each side lost where.
    """
    lost: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for b in sorted(blocks):
        bs = world.state.blocks[b]
        if not world.ground(b) or bs.location not in world.board.territories:
            continue
        n = min(steps, bs.strength - 1)
        if n <= 0:
            continue
        bs.strength -= n
        lost.setdefault((world.power_of(b), bs.location), []).append(
            {"block": world.name(b), "steps": n, "strength": bs.strength})
    for (power, territory), items in sorted(lost.items()):
        world.emit("event_losses", [power], territory=world.tname(territory), cause=cause,
                   blocks=items)
        world.emit("event_shortfall", None, power=power, territory=world.tname(territory),
                   cause=cause, steps=sum(i["steps"] for i in items))


def to_pool(world: World, blocks: Sequence[str], cause: str) -> None:
    """Blocks an event returns to their replacement pool (12.1 #1, 12.3 #2 and #6)."""
    moved: dict[str, list[str]] = {}
    for b in sorted(blocks):
        bs = world.state.blocks[b]
        if bs.location == POOL:
            continue
        bs.location, bs.strength = POOL, 0
        bs.moved = bs.pinned = bs.reserve = False
        moved.setdefault(world.power_of(b), []).append(world.name(b))
    for power, names in sorted(moved.items()):
        world.emit("sent_to_pool", [power], cause=cause, blocks=names)
        world.emit("sent_to_pool_count", None, power=power, cause=cause, count=len(names))


def pool_of(world: World, pool: str) -> list[str]:
    """The blocks in one nation's replacement pool (8.6; Polish blocks in the Saxon)."""
    return [b for b, bs in sorted(world.state.blocks.items())
            if bs.location == POOL and world.board.nations[world.spec(b).nation].pool == pool]


def set_aside(world: World, block: str, returns: str, cause: str) -> None:
    """12.2 #1, #2, #4: take a block out of play until ``returns`` comes true."""
    bs = world.state.blocks[block]
    bs.location, bs.strength = ASIDE, 0
    bs.moved = bs.pinned = bs.reserve = False
    world.state.aside[block] = returns
    owner = world.power_of(block)
    world.emit("set_aside", [owner], cause=cause, block=world.name(block))
    world.emit("block_set_aside", None, cause=cause, nation=world.spec(block).nation)
    check_returns(world)


def _invaded(world: World, places: str) -> bool:
    wanted = set(places.split(","))
    for b, bs in world.state.blocks.items():
        t = world.board.territories.get(bs.location)
        if t is None or world.power_of(b) != "sweden" or not world.ground(b):
            continue
        if t.nation in wanted or wanted & set(t.regions):
            return True
    return False


def _holds_polish_capitals(world: World) -> bool:
    caps = [t for t, v in world.board.territories.items() if v.capital and v.nation == "poland"]
    return bool(caps) and all(world.controlled_by(t, "sweden") for t in caps)


def condition_met(world: World, returns: str) -> bool:
    """The return conditions of tables.toml (12.2): ``sweden-invades:N1,N2`` (a Swedish
    block in such a territory), ``sweden-holds-polish-capitals``, ``inactive:N1,N2``;
    9.3's ``controls-harbor:POWER``; 3CG 14.2's ``from-year:YEAR``; ``|`` means either."""
    for cond in returns.split("|"):
        kind, _, arg = cond.partition(":")
        if kind == "sweden-invades" and _invaded(world, arg):
            return True
        if kind == "sweden-holds-polish-capitals" and _holds_polish_capitals(world):
            return True
        if kind == "inactive" and not set(arg.split(",")) & set(world.state.active):
            return True
        if kind == "from-year" and world.state.year >= int(arg):  # 3CG 14.2: loans end
            return True
        if kind == "controls-harbor" and any(  # 9.3: fleets lost for want of a harbor
                v.harbor and world.controlled_by(t, arg)
                for t, v in world.board.territories.items()):
            return True
    return False


def check_returns(world: World) -> None:
    """12.2: "Return it to the pool if ..." checked after every phase (and at once)."""
    for b, returns in sorted(world.state.aside.items()):
        if condition_met(world, returns):
            del world.state.aside[b]
            world.state.blocks[b].location = POOL
            world.emit("returned_from_aside", [world.power_of(b)], block=world.name(b))
            world.emit("block_returned", None, nation=world.spec(b).nation)


def immediate_rp(world: World, power: str, nation: str | None, dice: int, cause: str,
                 choices: Choices, *, build_rest: bool = False) -> None:
    """12.2 #6 and 12.4 #4: "Roll one die and receive that many RPs to immediately add
    steps to any of your blocks (8.3)"; 12.4 #5 (``build_rest``): two dice, "spent
    immediately in the same manner as the Interphase": on-map steps first (8.2), the rest
    is recorded for building from ``nation``'s pool (8.6), which the Interphase carries out.

    Without ``build_rest`` the RPs go to any of the player's blocks and what cannot be
    spent is lost (8.2); with it, to the blocks ``nation``'s RPs pay for.
    """
    rp = world.dice.d6_sum(dice, msg("{cause} RPs", cause=said_id(cause)))
    if build_rest and nation is not None:
        blocks = [b for b in world.state.blocks
                  if world.board.nations[world.spec(b).nation].pool == nation]
    else:
        blocks = [b for b in world.state.blocks if world.power_of(b) == power]
    prefer = [b for b in choices.reinforce if b in blocks]
    left = spend_on_map(world, power, blocks, rp, prefer)
    world.emit("rp_spent", power=power, cause=cause, rp=rp, left=left)
    if build_rest and left > 0 and nation is not None:
        due(world, "build", nation, rp=left)


def due(world: World, what: str, nation: str | None, **data: Any) -> None:
    """Record something for the next Interphase (8.8) and announce it."""
    item = {"what": what, "nation": nation, **data}
    world.state.interphase_due.append(item)
    world.emit("interphase_due", **item)


def side_event(world: World, power: str, choices: Choices) -> None:
    """12.1 #5 and 12.4 #6: "Roll on the Swedish Event Table (12.2) if you are Sweden, or
    the Coalition Event Table (12.3) if you are the Coalition." """
    table = "swedish_event_table" if power == "sweden" else "coalition_event_table"
    roll = world.dice.d6(msg("{table} {power}", table=said_id(table), power=world.said(power)))
    r = row(world, table, roll)
    world.emit("event_rolled", power=power, table=table, roll=roll, result=r["id"])
    SIDE_EFFECTS[r["id"]](world, power, r, choices)


# -- 12.2 Swedish Event Table ---------------------------------------------------------


def pool_loan(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.2 #1 "Denmark loans troops to Austria" and #2 "The Emperor demands troops": the
    nation (active or not) removes one block at random from its pool (non-Polish for #2),
    returned when the row's condition comes true."""
    spared = set(r.get("spared", ()))
    pool = [b for b in pool_of(world, r["pool"]) if world.spec(b).nation not in spared]
    if not pool:
        world.emit("no_effect", power=power, result=r["id"], reason="empty_pool")
        return
    block = draw(world, pool, msg("{event}: block drawn", event=said_id(r["id"])), visible_to=[other_power(power)])
    set_aside(world, block, r["returns"], r["id"])


def cossack_betrayal(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.2 #3: "Place an Ottoman garrison marker on Kremenchuk." """
    t = r["territory"]
    if t not in world.board.territories:
        world.emit("no_effect", power=power, result=r["id"], reason="not_on_board")
        return
    world.state.control[t] = "ottoman"
    world.emit("captured", territory=world.tname(t), control="ottoman")


def cossacks_go_home(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.2 #4: "Remove the Russian Cossack block from play. If and when both Ukraine and
    the Ottoman Empire are inactive, return it to the Russian replacement pool (this may
    be immediate)." """
    block = r["block"]
    if block not in world.state.blocks:
        world.emit("no_effect", power=power, result=r["id"], reason="not_on_board")
        return
    if world.state.blocks[block].location == ASIDE:
        world.emit("no_effect", power=power, result=r["id"], reason="already_aside")
        return
    set_aside(world, block, r["returns"], r["id"])


def coalition_mistrust(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.2 #5: "For the remainder of the year, Coalition blocks of different colors may
    not move or attack together." (Checked by movement, :func:`mistrust_problem`.)"""
    world.state.mistrust_year = world.state.year
    world.emit("mistrust", year=world.state.year)


def forced_recruitment(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.2 #6: "Roll one die and receive that many RPs to immediately add steps to any of
    your blocks (8.3)." """
    immediate_rp(world, power, None, int(r["dice"]), r["id"], choices)


# -- 12.3 Coalition Event Table -------------------------------------------------------


def russian_nature(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.3 #1: "Each block in Russia (including Ukraine) loses two steps. Russian and
    Ukrainian blocks are not affected." """
    places = {t for reg in r["regions"] for t in world.board.region(reg)}
    spared = set(r["spared"])
    hit = [b for b, bs in world.state.blocks.items()
           if bs.location in places and world.spec(b).nation not in spared]
    event_loss(world, hit, int(r["steps"]), r["id"])


def peter_settles(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.3 #2: "You may impose a truce (10.2) on the Ottoman Empire or deactivate Ukraine
    (11.8). The blocks of the chosen nation are returned to their replacement pool."

    Choice: the player's ``target`` list; default the one of the two with more blocks on
    the map (the Ottomans on a tie). Neither at war: no effect. The Ottoman truce takes
    effect at the end of the phase (10.2, rules/truce.py).
    """
    options = [n for n in ("ottoman", "ukraine") if n in world.state.active]
    chosen = next((n for n in choices.targets if n in options), None)
    if chosen is None and options:
        chosen = max(options, key=lambda n: (sum(
            1 for b, bs in world.state.blocks.items()
            if world.spec(b).nation == n and world.state.on_map(b)), n == "ottoman"))
    if chosen is None:
        world.emit("no_effect", power=power, result=r["id"], reason="neither_at_war")
        return
    if chosen == "ottoman":
        call_truce(world, chosen, "peter_settles")
        return
    deactivate(world, chosen, r["id"])


def deactivate(world: World, nation: str, cause: str) -> None:
    """Put ``nation`` out of the war without a truce (Ukraine, 11.8, which the truce
    rules spare): its blocks on the map return to its pool and it is no longer active."""
    to_pool(world, [b for b in world.state.blocks if world.spec(b).nation == nation
                    and world.state.on_map(b)], cause)
    world.state.active.remove(nation)
    world.emit("nation_deactivated", nation=nation, cause=cause)
    check_returns(world)


def reforms_accelerated(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.3 #3: "Move one reformed Russian army on the Year track to the next lower Year box
    (but not into the current year)." The Year Track (11.2) is part II: recorded."""
    due(world, "reform_accelerated", "russia")


def rp_bonus(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.3 #4 and #5: "receives 4 additional RPs in next year's Interphase" (8.8: not a
    change of RP level)."""
    due(world, "rp_bonus", r["nation"], rp=int(r["rp"]))


def german_diplomacy(world: World, power: str, r: dict[str, Any], choices: Choices) -> None:
    """12.3 #6: "Return the Holstein-Gottorp block (and Hannover block, if a Swedish ally)
    to the Swedish replacement pool." """
    nations = [n for n in r["nations"] if n in world.board.nations
               and world.power_of_nation(n) == "sweden"
               and (n == "holstein-gottorp" or n in world.state.active)]
    blocks = [b for b, bs in world.state.blocks.items()
              if world.spec(b).nation in nations and bs.location != POOL]
    if not blocks:
        world.emit("no_effect", power=power, result=r["id"], reason="no_block_in_play")
        return
    to_pool(world, blocks, r["id"])


SIDE_EFFECTS = {
    "denmark_loans_troops": pool_loan,
    "emperor_demands_troops": pool_loan,
    "cossack_betrayal": cossack_betrayal,
    "cossacks_go_home": cossacks_go_home,
    "coalition_mistrust": coalition_mistrust,
    "forced_recruitment": forced_recruitment,
    "russian_nature": russian_nature,
    "peter_settles": peter_settles,
    "reforms_accelerated": reforms_accelerated,
    "denmark_prospers": rp_bonus,
    "germany_prospers": rp_bonus,
    "german_diplomacy": german_diplomacy,
}


def mistrust_problem(world: World, power: str, blocks: Sequence[str], dest: str) -> bool:
    """12.2 #5: during a year of Coalition mistrust, a Coalition group of different colours
    may not move, nor enter enemy blocks where another colour already attacks."""
    if power != "coalition" or world.state.mistrust_year != world.state.year:
        return False
    colours = {world.board.nations[world.spec(b).nation].colour for b in blocks}
    if len(colours) > 1:
        return True
    if not world.enemy_blocks(power, dest):
        return False
    there = {world.board.nations[world.spec(b).nation].colour
             for b in world.blocks_of(power, dest)}
    return bool(there - colours)
