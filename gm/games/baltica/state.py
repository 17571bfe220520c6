"""The Pax Baltica game state: typed dataclasses <-> a JSON-compatible dict.

The service stores :meth:`GameState.to_json`; moderators edit it by dotted
path (``blocks.karl-xii.strength``), so keys are stable ids from the data
files. An adjudication works on a fresh :meth:`GameState.from_json` copy and
returns a new dict: the input is never changed.

Block locations: a territory or sea-zone id, or one of :data:`POOL`
(replacement pool, 8.6), :data:`REMOVED` (out of the game, 2.3) and
:data:`EXILE` (Karl XII's first elimination, 2.3), :data:`ASIDE` (taken out by an
event until a condition returns it to its pool, 12.2; the condition is kept in
``GameState.aside``) and :data:`YEAR_TRACK` (a reformed Russian army or a Russian fleet
waiting in a Year box, 11.2; the year is kept in ``GameState.year_track``).
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, cast

POOL = "pool"
REMOVED = "removed"
EXILE = "exile"
ASIDE = "aside"
YEAR_TRACK = "year-track"
OFF_MAP = (POOL, REMOVED, EXILE, ASIDE, YEAR_TRACK)

SEASONS = ("spring", "summer", "autumn", "winter")
POWERS = ("sweden", "coalition")


def other_power(power: str) -> str:
    """The opponent of ``power`` (two players, 0.0)."""
    return POWERS[1] if power == POWERS[0] else POWERS[0]


@dataclass
class BlockState:
    """One block's place and strength, plus what this game turn did to it.

    ``moved``, ``pinned``, ``entered_from`` (the border crossed last, 5.6),
    ``arrived`` (a counter: the order of arrival, for defender and reserve
    rules 5.1/5.3), ``forced`` (extra territories force-marched, 4.4) and
    ``reserve`` (5.3) are cleared when a new game turn begins. ``aboard``: the fleet
    carrying the block (9.2); the block then stands in the fleet's sea zone.
    """

    location: str
    strength: int
    moved: bool = False
    pinned: bool = False
    entered_from: str | None = None
    arrived: int = 0
    forced: int = 0
    reserve: bool = False
    aboard: str | None = None


@dataclass
class SiegeState:
    """A declared siege attempt (6.1), resolved in the battle phase (6.3)."""

    territory: str
    power: str
    blocks: list[str]


@dataclass
class Turn:
    """What the current game turn (season) has decided so far (3.1, 4.2, 5.1).

    ``standing``: each power's battle decisions given in advance with its actions
    (battle order, hits prefer, retreat, regroup: orders.md §5), as order JSON, for this
    season's battles and forage (gm/games/baltica/standing.py)."""

    rolls: dict[str, int] = field(default_factory=dict)
    actions: dict[str, int] = field(default_factory=dict)
    first: str | None = None
    events_due: list[str] = field(default_factory=list)
    borders_used: dict[str, dict[str, int]] = field(default_factory=dict)
    defenders: dict[str, str] = field(default_factory=dict)
    main_attacks: dict[str, str] = field(default_factory=dict)
    entries: dict[str, list[list[Any]]] = field(default_factory=dict)
    sieges: list[SiegeState] = field(default_factory=list)
    revealed: dict[str, dict[str, int]] = field(default_factory=dict)
    clock: int = 0
    allied_rerolls: int = 0
    standing: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


@dataclass
class GameState:
    """The whole game: date, step, blocks, garrison markers, nations, this turn.

    ``politics_used``: the year each major nation last took the National Politics
    action (3.3.4: once per year per nation). ``interphase_due``: what events and
    politics left for the next Interphase (8.8 RP changes, activations won by a
    Special Envoy, ...), each ``{"what": ..., "nation": ..., ...}``, until the
    Interphase carries them out. ``aside``: block -> the condition that returns it
    to its pool (12.2). ``mistrust_year``: the year of Coalition mistrust (12.2 #5).
    ``truces``: nation -> the Year Track box of its cube (10.2: the year from whose
    Interphase it may roll to reactivate, 10.3); a nation is under truce while listed.
    ``victory``: once decided (0.4), the result: ``winner``, ``level``, ``result`` (the
    table's words), ``condition``, ``reason`` and the Swedish ``rp`` counted.
    ``year_track``: block -> its Year box (11.2); ``reform_open``: Russian military
    reforms have been triggered (11.2); ``exile_rolls``: Interphase rolls Karl XII has
    failed in exile (2.3); ``upgraded``: territories whose garrison became their
    ``upgrade`` (Nyen -> Sankt-Peterburg, 11.2).
    ``ceded``: territory -> the nation Sweden ceded it to (11.1), which is then in
    ``permanently_inactive``; ``defected``: nations that changed sides (11.9);
    ``polish_capitals_lost``: Saxony's 4 RP levels are lost with both capitals (11.5).
    3CG ruleset: ``optional``: the 13.x optional rules chosen at set-up ("13.1", ...);
    ``national_events``: "YEAR:nation:roll" of each National Events result applied
    (14.2: once a year); ``nyen_turns``: consecutive game turns Russia has held Nyen
    (3CG 11.2); ``rerolls_used``: 13.3 re-rolls spent per power; ``reroll_below``: each
    power's standing ``reroll actions below N`` (13.2, 13.3), kept until ``reroll off``;
    ``turn.allied_rerolls``: the Coalition's 13.2 re-rolls this game turn.
    ``attrition``: Swedish army blocks eliminated so far, the Swedish Attrition Track's
    marker (11.1; it stays in the track's last box); ``attrition_row``: the row last
    announced, "upper" or "lower" (the row in force is derived from the map, 11.1).
    ``turkish_first_capture``: 3CG 10.2, the first Russian (or inactive Ukrainian)
    territory the Turks took by siege, which costs Russia 8 RP levels ("-" once retaken).
    """

    scenario: str
    ruleset: str
    year: int
    season: str
    step: str
    end_year: int
    end_season: str
    blocks: dict[str, BlockState]
    control: dict[str, str] = field(default_factory=dict)
    active: list[str] = field(default_factory=list)
    rp: dict[str, int] = field(default_factory=dict)
    turn: Turn = field(default_factory=Turn)
    last_second: str | None = None
    last_event: dict[str, bool] = field(default_factory=dict)
    first_turn: bool = True
    first_turn_actions: dict[str, int] = field(default_factory=dict)
    karl_exiled_once: bool = False
    ended: bool = False
    powers: list[str] = field(default_factory=lambda: list(POWERS))
    politics_used: dict[str, int] = field(default_factory=dict)
    interphase_due: list[dict[str, Any]] = field(default_factory=list)
    aside: dict[str, str] = field(default_factory=dict)
    mistrust_year: int | None = None
    truces: dict[str, int] = field(default_factory=dict)
    victory: dict[str, Any] | None = None
    year_track: dict[str, int] = field(default_factory=dict)
    reform_open: bool = False
    exile_rolls: int = 0
    upgraded: list[str] = field(default_factory=list)
    ceded: dict[str, str] = field(default_factory=dict)
    permanently_inactive: list[str] = field(default_factory=list)
    defected: list[str] = field(default_factory=list)
    polish_capitals_lost: bool = False
    optional: list[str] = field(default_factory=list)
    national_events: list[str] = field(default_factory=list)
    nyen_turns: int = 0
    rerolls_used: dict[str, int] = field(default_factory=dict)
    reroll_below: dict[str, int] = field(default_factory=dict)
    attrition: int = 0
    attrition_row: str = "upper"
    turkish_first_capture: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON-compatible dict the service stores: ``dataclasses.asdict``'s, made by
        :func:`_plain` (issue 21: ``asdict`` deep-copies each of a state's ~800 values
        through its generic path, 8% of closing a phase in a deadline storm)."""
        return cast(dict[str, Any], _plain(self))

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameState:
        """A fresh typed copy of a stored state (the dict is not shared)."""
        data = dict(d)
        data["blocks"] = {k: _block(v) for k, v in d["blocks"].items()}
        t = dict(d.get("turn", {}))
        t["sieges"] = [SiegeState(**s) for s in t.get("sieges", [])]
        t = {k: _copy(v) for k, v in t.items()}
        data["turn"] = Turn(**t)
        for key in ("control", "active", "rp", "last_event", "first_turn_actions", "powers",
                    "politics_used", "interphase_due", "aside", "truces", "victory",
                    "year_track", "upgraded", "ceded", "permanently_inactive", "defected",
                    "optional", "national_events", "rerolls_used", "reroll_below"):
            if key in data:
                data[key] = _copy(data[key])
        return cls(**data)

    def copy(self) -> GameState:
        """A deep copy, made faster than through pickle (issue 21: 140 us against 230 for
        a scenario's state): dataclasses, dicts, lists and tuples copied, immutable leaves
        shared, any other value deep-copied (:func:`_clone`)."""
        return cast(GameState, _clone(self))

    def on_map(self, block: str) -> bool:
        """True when ``block`` is on the board (not in a pool, exile or removed)."""
        return self.blocks[block].location not in OFF_MAP

    def at(self, location: str) -> list[str]:
        """The blocks in one territory or sea zone, sorted by id."""
        return sorted(b for b, s in self.blocks.items() if s.location == location)


_LEAVES = (str, int, float, bool, type(None))
_LEAF_TYPES = frozenset(_LEAVES)


_FIELDS: dict[type, tuple[str, ...]] = {}
_new = object.__new__


def _block(stored: dict[str, Any]) -> BlockState:
    """``BlockState(**stored)``; a stored block that names every field (as
    :meth:`GameState.to_json` writes them) takes them as its attributes at once, without
    the generated ``__init__`` (issue 21: half the time of the ~65 a state holds)."""
    if _BLOCK_PLAIN and type(stored) is dict and stored.keys() == _BLOCK_FIELDS:
        block = _new(BlockState)
        block.__dict__ = dict(stored)
        return block
    return BlockState(**stored)


def _field_names(cls: type) -> tuple[str, ...]:
    if cls not in _FIELDS:
        _FIELDS[cls] = tuple(f.name for f in fields(cls))
    return _FIELDS[cls]


def _plain(value: Any) -> Any:
    """What ``dataclasses.asdict`` makes of ``value``: dataclasses as dicts of their fields,
    lists, tuples and dicts copied, immutable leaves shared, any other leaf deep-copied."""
    kind = type(value)
    if kind in _LEAF_TYPES:
        return value
    if kind is dict:
        return {_plain(k): _plain(v) for k, v in value.items()}
    if kind is list:
        return [_plain(v) for v in value]
    if kind is tuple:
        return tuple(_plain(v) for v in value)
    if is_dataclass(value):
        names = _field_names(kind)
        own = getattr(value, "__dict__", None)
        if own is not None and tuple(own) == names:  # its fields, in their order, only
            for v in own.values():
                if type(v) not in _LEAF_TYPES:
                    break
            else:  # every field an immutable leaf (a block): the dict in one step (issue 21)
                return dict(own)
        return {name: _plain(getattr(value, name)) for name in names}
    return deepcopy(value)


def _clone(value: Any) -> Any:
    """A deep copy of a state's value: dicts, lists and tuples copied, dataclass instances
    (no slots) copied field by field (their ``__dict__``; one whose fields are all
    immutable leaves in one step), leaves shared, anything else through ``deepcopy``."""
    kind = type(value)
    if kind in _LEAF_TYPES:
        return value
    if kind is dict:
        return {k: _clone(v) for k, v in value.items()}
    if kind is list:
        return [_clone(v) for v in value]
    if kind is tuple:
        return tuple([_clone(v) for v in value])
    if kind in _CLONED or _plain_dataclass(kind):
        new = object.__new__(kind)
        own = value.__dict__
        for v in own.values():
            if type(v) not in _LEAF_TYPES:
                new.__dict__.update({k: _clone(v) for k, v in own.items()})
                break
        else:
            new.__dict__.update(own)
        return new
    return deepcopy(value)


_BLOCK_FIELDS = frozenset(_field_names(BlockState))
_BLOCK_PLAIN = not hasattr(BlockState, "__post_init__")  # its __init__ only sets the fields
_CLONED: set[type] = set()  # the dataclasses :func:`_clone` copies by their __dict__


def _plain_dataclass(kind: type) -> bool:
    """A dataclass whose instances are their ``__dict__`` (no slots, no copy or pickle
    hooks of its own): what pickle and ``deepcopy`` copy of it is that dict."""
    hooks = ("__slots__", "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__",
             "__copy__", "__deepcopy__")
    if not is_dataclass(kind) or any(h in vars(k) for k in kind.__mro__[:-1] for h in hooks):
        return False
    _CLONED.add(kind)
    return True


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
