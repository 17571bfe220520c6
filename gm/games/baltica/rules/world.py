"""The board and the state of one adjudication, with the questions rules ask.

:class:`World` is the working copy an adjudication changes: the board
(static data), a fresh :class:`GameState`, the dice and the events emitted so
far. Rules modules are functions of a World; only they write to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gm.dice import Dice
from gm.games.baltica.board import BlockKind, BlockType, Board, Rating, Terrain, player_words
from gm.games.baltica.state import POWERS, REMOVED, GameState, other_power
from gm.games.base import Event
from gm.i18n import Name, Text, as_data, languages, name


def border_key(a: str, b: str) -> str:
    """The state's key for a border, crossed from ``a`` into ``b``."""
    return f"{a}>{b}"


@dataclass
class World:
    """Board + state + dice + events for one adjudication."""

    board: Board
    state: GameState
    dice: Dice
    events: list[Event] = field(default_factory=list)
    prefer: dict[str, list[str]] = field(default_factory=dict)
    pins: dict[str, list[str]] = field(default_factory=dict)
    truces_due: list[tuple[str, str]] = field(default_factory=list)  # 10.2: (nation, reason)
    triggers: set[str] = field(default_factory=set)  # moments section 11 reacts to (11.8)
    unmet: dict[int, tuple[str, Any]] = field(default_factory=dict)
    """Conditional orders whose condition did not hold when last asked (id -> (power,
    the Conditional)); told to their owner at the end of the Interphase."""

    # -- events --------------------------------------------------------------
    def emit(self, type_: str, visible_to: Iterable[str] | None = None, **data: Any) -> None:
        """Record an event; ``visible_to`` None means every power may know it. A value
        that is a message (:class:`gm.i18n.Text`, an order's ``echo()``) is stored as
        English under its key and as data under ``KEY_msg``, so a report says it in the
        reader's language (templates: ``d.get("order_msg", d.order) | say(lang)``)."""
        vis = frozenset(visible_to) if visible_to is not None else None
        for key, value in list(data.items()):
            if isinstance(value, Text):
                data[key], data[f"{key}_msg"] = str(value), as_data(value)
        self.events.append(Event(type_, data, vis))

    # -- the ruleset ---------------------------------------------------------------
    def reading(self, rule: str) -> str:
        """Which reading of ``rule`` the game's ruleset plays where the GMT 2012 and 3CG
        v1.1 books differ (tables.toml ``rules``, overlaid by the 3CG ruleset); "" when
        the data does not name it (boards built without it play the GMT reading)."""
        return str(self.board.tables.get("rules", {}).get(rule, ""))

    # -- names ---------------------------------------------------------------
    def bid_block(self, name: str) -> str:
        """The id of a block given its id or display name (orders carry names). Of a
        Russian star pair (same name, 11.2) the one still in the game."""
        if name in self.board.blocks:
            return name
        found = self.board.blocks_named(name)
        live = [k for k in found if k in self.state.blocks
                and self.state.blocks[k].location != REMOVED]
        return (live or found or [self.board.resolve("block", name)
                                  or _lookup(self.board.blocks, name)])[0]

    def bid_territory(self, name: str) -> str:
        """The id of a territory or sea zone given its id or display name."""
        if name in self.board.territories or name in self.board.seas:
            return name
        for key, t in self.board.territories.items():
            if t.name == name:
                return key
        found = _lookup(self.board.seas, name)
        if found in self.board.seas:
            return found
        return self.board.resolve("territory", name) or self.board.resolve("sea", name) or name

    def bid_nation(self, name: str) -> str | None:
        """The id of a nation given its id or display name (None if unknown)."""
        found = _lookup(self.board.nations, name)
        return found if found in self.board.nations else None

    # -- blocks ----------------------------------------------------------------
    def spec(self, block: str) -> BlockType:
        """The printed data of a block (2.1)."""
        return self.board.blocks[block]

    def power_of(self, block: str) -> str:
        """The player who commands ``block`` (its nation's side)."""
        return self.power_of_nation(self.spec(block).nation)

    def power_of_nation(self, nation: str) -> str:
        """The player a nation fights for; neutral nations count as nobody's. A nation in
        the state's ``defected`` list fights for the side it went over to (11.9 Hannover:
        nations.toml ``activation.defects_to``; 3CG 14.2 Saxony #3: the other side)."""
        return self.board.power_of_nation(nation, self.state.defected)

    def said(self, key: str) -> Name:
        """A nation or a player (``sweden``, ``coalition``) as written in a message (a dice
        purpose), said by its name in every language, English too ("action roll Sweden",
        "jet d'actions Suède"): the nation's from nations.toml ``name`` and ``words``
        (issue 20), the Coalition's from ``[player.coalition]`` ``words``, as the rest of
        the report names them. The message's own text keeps the key ("action roll
        sweden"): it is what the log holds and ``gm verify`` compares."""
        n = self.board.nations.get(key)
        if n is not None:
            forms = {"en": n.name, **{lang: str(w["name"]) for lang, w in n.words.items()
                                      if "name" in w}}
        else:
            forms = {lang: player_words(lang).get(key, {}).get("name", key.capitalize())
                     for lang in languages()}
        return name(key, **forms)

    def name(self, block: str) -> str:
        """A block's display name (for events)."""
        return self.spec(block).name

    def tname(self, territory: str) -> str:
        """A territory's display name (for events)."""
        t = self.board.territories.get(territory)
        if t is not None:
            return t.name
        sea = self.board.seas.get(territory)
        return sea.name if sea is not None else territory

    def rating(self, block: str) -> Rating:
        """The combat rating a block fires with (2.1); 3CG 10.2: "From 1711 all Russian Army
        blocks rated C receives Combat rating B" (the nation's ``c_armies_become_b_from_year``)."""
        spec = self.spec(block)
        since = self.board.nations[spec.nation].activation.get("c_armies_become_b_from_year")
        if (since is not None and self.state.year >= int(since) and spec.rating.letter == "C"
                and spec.kind is BlockKind.ARMY):
            return Rating("B", spec.rating.number)
        return spec.rating

    def ground(self, block: str) -> bool:
        """Army or regiment (not a fleet)."""
        return self.spec(block).kind is not BlockKind.FLEET

    def blocks_of(self, power: str, territory: str, *, ground_only: bool = True) -> list[str]:
        """``power``'s blocks in ``territory`` (fleets anchored in harbor excluded, 9.4)."""
        return [b for b in self.state.at(territory)
                if self.power_of(b) == power and (self.ground(b) or not ground_only)]

    def enemy_blocks(self, power: str, territory: str) -> list[str]:
        """The enemy's ground blocks in ``territory``."""
        return self.blocks_of(other_power(power), territory)

    def occupied_by_both(self, territory: str) -> bool:
        """A battle territory (5.0): ground blocks of both players."""
        return all(self.blocks_of(p, territory) for p in POWERS)

    # -- territories -----------------------------------------------------------
    def owner(self, territory: str) -> str | None:
        """The nation a territory belongs to now: its colour's (1.1), except while that
        nation is inactive and part of another (nations.toml ``activation.part_of``; 11.8:
        "Ukraine begins the game inactive, as part of Russia"; 3CG 4.8: "it belongs to
        Russia until activated"): the other's. None for a territory of no nation."""
        nation = self.board.territories[territory].nation
        n = self.board.nations.get(nation) if nation is not None else None
        if n is not None and n.activation.get("part_of") and nation not in self.state.active:
            return str(n.activation["part_of"])
        return nation

    def controller(self, territory: str) -> str | None:
        """The nation controlling a territory's garrison (1.2): the garrison marker's, else
        the territory's :meth:`owner`; None without a garrison."""
        t = self.board.territories[territory]
        if t.garrison is None:
            return None
        return self.state.control.get(territory, self.owner(territory))

    def controlled_by(self, territory: str, power: str) -> bool:
        """Friendly (1.2): the garrison is held by ``power``'s nations or allies."""
        nation = self.controller(territory)
        return nation is not None and self.power_of_nation(nation) == power

    def enemy_controlled(self, territory: str, power: str) -> bool:
        """The garrison is held by the other player's nations."""
        nation = self.controller(territory)
        return nation is not None and self.power_of_nation(nation) == other_power(power)

    def harbor(self, territory: str) -> bool:
        """A harbor (1.6), counting a garrison upgraded in play (Sankt-Peterburg, 11.2)."""
        t = self.board.territories[territory]
        if territory in self.state.upgraded and t.upgrade is not None:
            return t.upgrade.harbor
        return t.harbor

    def garrison_value(self, territory: str) -> int:
        """A garrison's value (1.2), upgraded in play (Sankt-Peterburg is 4, 11.2)."""
        t = self.board.territories[territory]
        if territory in self.state.upgraded and t.upgrade is not None:
            return t.upgrade.value
        return t.garrison.value if t.garrison is not None else 0

    def transit(self, territory: str) -> bool:
        """1.5: Mecklenburg, Schlesien and Polish territories without a garrison marker."""
        t = self.board.territories[territory]
        if t.transit:
            return True
        return t.nation == "poland" and territory not in self.state.control

    def friendly_or_transit(self, territory: str, power: str) -> bool:
        """Where retreats, regroups and lines of communication may go (1.2, 1.5). 3CG
        10.4: "If Poland changes side, it ends the ability for Saxon blocks to draw supply
        from Polish territories and freely move in to and through it ... The same rule
        applies to Sweden": a Poland at war (the nation with
        ``allies_with_capturer_of_both_capitals``) is no transit land for its enemy."""
        if self.controlled_by(territory, power):
            return True
        nation = self.board.territories[territory].nation
        if (nation is not None and nation in self.state.active and self.board.nations[
                nation].activation.get("allies_with_capturer_of_both_capitals")
                and self.power_of_nation(nation) != power):
            return False
        return self.transit(territory)

    def prohibited(self, territory: str) -> bool:
        """4.5: territories of inactive nations may not be entered (Ukraine with Russia)."""
        t = self.board.territories[territory]
        if territory in self.state.ceded:  # 11.1: now the inactive receiver's
            return self.state.ceded[territory] not in self.state.active
        if t.transit or t.nation is None or t.box:
            return False
        active = set(self.state.active)
        if t.nation == "ukraine" and "ukraine" not in active:
            return "russia" not in active
        return t.nation not in active and not self.entry_triggered(t.nation)

    def entry_triggered(self, nation: str) -> bool:
        """3CG 4.8: "Territories that have triggers that activate them do not count as
        prohibited": the nation's ``triggers`` include entering its own lands (Poland,
        3CG 9.5)."""
        triggers = self.board.nations[nation].activation.get("triggers", ())
        return any(str(t).endswith(f"-enters-{nation}") for t in triggers)

    def difficult(self, a: str, b: str) -> bool:
        """True for a Difficult Terrain border (4.2)."""
        border = self.board.border(a, b)
        return border is not None and border.terrain is Terrain.DIFFICULT

    def border_limit(self, a: str, b: str) -> int:
        """4.2: blocks per player per border per game turn: "Normal border: 6 blocks.
        Difficult Terrain border: 2 blocks." (tables.toml ``limits.border_normal``,
        ``limits.border_difficult``)."""
        limits = self.board.limits
        return limits.border_difficult if self.difficult(a, b) else limits.border_normal

    def border_room(self, power: str, a: str, b: str) -> int:
        """How many more of ``power``'s blocks may cross from ``a`` to ``b`` this turn (4.2)."""
        used = self.state.turn.borders_used.get(power, {})
        crossed = used.get(border_key(a, b), 0) + used.get(border_key(b, a), 0)
        return self.border_limit(a, b) - crossed

    def use_border(self, power: str, a: str, b: str, n: int = 1) -> None:
        """Count ``n`` crossings of a border by ``power`` (4.2)."""
        used = self.state.turn.borders_used.setdefault(power, {})
        used[border_key(a, b)] = used.get(border_key(a, b), 0) + n

    def tick(self) -> int:
        """The next arrival number (orders events within a turn)."""
        self.state.turn.clock += 1
        return self.state.turn.clock

    def reveal(self, power: str, block: str) -> None:
        """Show ``block`` (name and strength) to ``power`` until the phase ends."""
        self.state.turn.revealed.setdefault(power, {})[block] = self.state.blocks[block].strength


def _lookup(entries: Mapping[str, Any], name: str) -> str:
    if name in entries:
        return name
    for key, entry in entries.items():
        if entry.name == name:
            return key
    return name
