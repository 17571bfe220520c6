"""The Pax Baltica board: map, nations, blocks and scenarios as typed, frozen data.

Everything here is read from the TOML files under ``gm/games/baltica/data/``
(see docs/baltica-data.md); nothing is computed from rules. Rule numbers refer
to the GMT 2012 rule book unless a value says "3CG".

Use :func:`load_board` to get a :class:`Board`; it is immutable and cached per
ruleset, so engines may hold on to it.
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cache, cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

from gm.games.base import DataError

DEFAULT_RULESET = "gmt-2012"
RULESETS = ("gmt-2012", "3cg-1.1")


def data_root() -> Path:
    """The folder holding the shipped Pax Baltica data files."""
    return Path(__file__).resolve().parent / "data"


class Side(Enum):
    """The two players (0.0) and the nations that sit out."""

    SWEDEN = "sweden"
    COALITION = "coalition"
    NEUTRAL = "neutral"


class BlockKind(Enum):
    """The three block types (2.2)."""

    ARMY = "army"
    REGIMENT = "regiment"
    FLEET = "fleet"


class Terrain(Enum):
    """Border types (1.1, 4.2): thick dashed borders are difficult terrain."""

    NORMAL = "normal"
    DIFFICULT = "difficult"


class Star(Enum):
    """Russian reform stars (2.1, 11.2): hollow = can reform, black = enters on reform."""

    HOLLOW = "hollow"
    BLACK = "black"


class Season(Enum):
    """The four game turns of a year (0.3)."""

    SPRING = "spring"
    SUMMER = "summer"
    AUTUMN = "autumn"
    WINTER = "winter"


Sources = Mapping[str, str]
"""Where each field's value comes from, keyed by field name ("default" for the rest)."""


def _source_of(sources: Sources, fieldname: str) -> str:
    return sources.get(fieldname, sources.get("default", "reconstructed"))


@dataclass(frozen=True)
class Rating:
    """A combat rating (2.1): the letter sets firing order, the number the highest hit."""

    letter: str
    number: int

    @classmethod
    def parse(cls, text: str) -> Rating:
        """Read "A3" style ratings; raise ValueError on anything else."""
        if len(text) != 2 or text[0] not in "ABCD" or text[1] not in "123456":
            raise ValueError(f"bad combat rating {text!r}")
        return cls(text[0], int(text[1]))

    def __str__(self) -> str:
        return f"{self.letter}{self.number}"


@dataclass(frozen=True)
class Garrison:
    """A territory's garrison (1.2): name, value 1-4, and whether it is a port or harbor (1.6)."""

    name: str
    value: int
    port: bool = False
    harbor: bool = False
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Nation:
    """A nation (1.1, 11.x): its side, colour, territories and how it enters the war."""

    id: str
    name: str
    side: Side
    major: bool
    colour: str
    capital: str | None
    territories: tuple[str, ...]
    proper: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    active_at_start: bool = True
    rp_level: int | None = None
    pool: str | None = None
    activation: Mapping[str, Any] = field(default_factory=dict)
    deploy: tuple[str, ...] = ()
    deploy_fleets: tuple[str, ...] = ()
    self_sufficient: str | None = None
    never_enter: tuple[str, ...] = ()
    only_enter: tuple[str, ...] = ()
    attacks_only_in: tuple[str, ...] = ()
    attacks_with: tuple[str, ...] = ()
    words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    sources: Sources = field(default_factory=dict)

    def source(self, fieldname: str) -> str:
        """The citation for one field."""
        return _source_of(self.sources, fieldname)


@dataclass(frozen=True)
class Territory:
    """A land territory (1.1) or off-map box such as Portsmouth (11.11).

    ``sea`` is the one sea zone its port or harbor touches (1.6), ``transit``
    marks transit territories (1.5), ``forage`` is None where the map prints none.
    """

    id: str
    name: str
    nation: str | None
    forage: int | None
    garrison: Garrison | None
    capital: bool = False
    sea: str | None = None
    transit: bool = False
    box: bool = False
    regions: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    upgrade: Garrison | None = None
    sources: Sources = field(default_factory=dict)

    @property
    def port(self) -> bool:
        """A port allows sea transport (1.6); every harbor is a port."""
        return self.garrison is not None and (self.garrison.port or self.garrison.harbor)

    @property
    def harbor(self) -> bool:
        """Fleets deploy and take replacements only at harbors (1.6)."""
        return self.garrison is not None and self.garrison.harbor

    def source(self, fieldname: str) -> str:
        """The citation for one field."""
        return _source_of(self.sources, fieldname)


@dataclass(frozen=True)
class Border:
    """A land border (1.1, 4.2). ``blocked`` borders (lakes, 1.0) cannot be crossed."""

    a: str
    b: str
    terrain: Terrain = Terrain.NORMAL
    blocked: bool = False
    lake: str | None = None
    sources: Sources = field(default_factory=dict)

    def other(self, territory: str) -> str:
        """The territory on the other side from ``territory``."""
        return self.b if territory == self.a else self.a

    def source(self, fieldname: str) -> str:
        """The citation for one field."""
        return _source_of(self.sources, fieldname)


@dataclass(frozen=True)
class SeaZone:
    """A sea zone (1.1, 9.1) and the zones fleets may move to from it."""

    id: str
    name: str
    adjacent: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    sources: Sources = field(default_factory=dict)
    words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Its name's forms per language (map.toml ``words``: name, the, in, of)."""

    def source(self, fieldname: str) -> str:
        """The citation for one field."""
        return _source_of(self.sources, fieldname)


@dataclass(frozen=True)
class BlockType:
    """One wooden block (2.1-2.3, 11.x) as printed on its label."""

    id: str
    name: str
    nation: str
    kind: BlockKind
    max_strength: int
    rating: Rating
    movement: int
    trains: int = 0
    royal: bool = False
    red_dot: bool = False
    star: Star | None = None
    star_pair: str | None = None
    galley: bool = False
    aliases: tuple[str, ...] = ()
    deploy: tuple[str, ...] = ()
    deploy_adjacent: bool = False
    deploy_else: tuple[str, ...] = ()
    sources: Sources = field(default_factory=dict)

    def source(self, fieldname: str) -> str:
        """The citation for one field."""
        return _source_of(self.sources, fieldname)


@dataclass(frozen=True)
class Placement:
    """A block set up in a territory (or sea zone) at a strength, per a scenario."""

    block: str
    location: str
    strength: int


@dataclass(frozen=True)
class VictoryLevel:
    """One row of a scenario's victory table (3CG 12.x), checked top-down at game end.

    A row holds when the Swedish RP level lies in [rp_min, rp_max] (None = open),
    Sweden occupies every territory in ``occupied``, and, if ``karl_xii_lost``,
    the Karl XII block is out of the game. ``winner``: the side the row favours;
    ``level``: major, minor or historical (the words reports use).
    """

    result: str
    condition: str
    winner: str = ""
    level: str = ""
    rp_min: int | None = None
    rp_max: int | None = None
    occupied: tuple[str, ...] = ()
    karl_xii_lost: bool = False


@dataclass(frozen=True)
class Scenario:
    """A 3CG scenario (12.1-12.5): dates, set-up, special rules and victory table."""

    id: str
    title: str
    start_year: int
    start_season: Season
    end_year: int
    end_season: Season
    placements: tuple[Placement, ...]
    rp_levels: Mapping[str, int] = field(default_factory=dict)
    controlled: Mapping[str, str] = field(default_factory=dict)
    active: tuple[str, ...] = ()
    first_turn_actions: Mapping[str, int] = field(default_factory=dict)
    special: Mapping[str, Any] = field(default_factory=dict)
    victory: tuple[VictoryLevel, ...] = ()
    out_of_play: tuple[str, ...] = ()
    allegiance: Mapping[str, str] = field(default_factory=dict)
    notes: str = ""
    sources: Sources = field(default_factory=dict)

    def placed(self) -> tuple[str, ...]:
        """Every block the set-up puts on the map."""
        return tuple(p.block for p in self.placements)

    def source(self, fieldname: str) -> str:
        """The citation for one field."""
        return _source_of(self.sources, fieldname)


@dataclass(frozen=True)
class Limits:
    """The numbers of tables.toml ``action_table`` and ``limits`` that the rules read in
    the hot loops of adjudication, typed once per board (issue 21). Each rule's code cites
    its rule; the number is the data's, so a GM's correction of one line takes effect."""

    actions: Mapping[int, int]
    """3.1: the actions each die face gives (0 on an event face)."""
    event_rolls: frozenset[int]
    """3.1: the faces that bring an event (12.1) instead of actions."""
    border_normal: int
    """4.2: blocks that may cross a normal border per action phase."""
    border_difficult: int
    """4.2: blocks that may cross a Difficult Terrain border per action phase."""
    force_march_extra: int
    """4.4: the extra territories a force-marching group may move."""
    force_march_loss_on: int
    """4.4: a force-march die at or below this loses a step per extra territory."""
    forage_army: int
    """7.1: the forage points an army needs."""
    forage_regiment: int
    """7.1: the forage points a regiment needs."""
    garrison_rating: Rating
    """6.3: the rating a garrison defends with."""
    fleet_movement: int
    """9.1: the sea zones a fleet may move."""
    galley_movement: int
    """9.1: the sea zones the Russian galley fleet may move."""
    fleet_capacity_armies: int
    """9.2: the army blocks one fleet carries."""
    fleet_capacity_regiments: int
    """9.2: the regiment blocks one fleet carries."""
    rp_per_garrison: int
    """8.1: the RP levels a captured garrison costs its owner."""
    battle_rounds: int
    """5.4 (3CG 6.2): the most combat rounds a battle lasts."""
    activation_needs: int
    """10.1: the roll that activates a nation whose activation names none."""
    truce_years_ahead: int
    """10.2 (3CG 6.9, 6.10): how many years ahead a truce's cube goes on the Year Track."""
    rp_per_ceded_territory: int
    """11.1 (3CG 10.1): Sweden's RP level lost for each territory ceded."""
    rp_polish_capitals: int
    """11.5: Saxony's RP level lost while both Polish capitals are lost."""
    reform_years_ahead: int
    """11.2: the fewest years ahead a reformed Russian army goes on the Year Track."""
    fleet_years_ahead: int
    """11.2: the years ahead the Russian fleets go on the Year Track when Nyen falls."""
    austro_turkish_war_needs: int
    """11.6: the roll that starts the Austro-Turkish War."""
    night_rider_needs: int
    """2.3 (3CG 11.1): the roll that brings Karl XII back from exile the first time."""
    night_rider_needs_drop: int
    """2.3 (3CG 11.1): how much lower that roll is after each failed one."""

    @classmethod
    def read(cls, tables: Mapping[str, Any]) -> Limits:
        """The typed numbers of checked tables (see datacheck ``LIMITS``)."""
        lim = tables["limits"]
        rows = {int(face): row for face, row in tables["action_table"].items() if face.isdigit()}
        return cls(
            actions=MappingProxyType({face: int(row.get("actions", 0)) for face, row in rows.items()}),
            event_rolls=frozenset(face for face, row in rows.items() if row.get("event")),
            border_normal=int(lim["border_normal"]),
            border_difficult=int(lim["border_difficult"]),
            force_march_extra=int(lim["force_march_extra"]),
            force_march_loss_on=int(lim["force_march_loss_on"]),
            forage_army=int(lim["forage_army"]),
            forage_regiment=int(lim["forage_regiment"]),
            garrison_rating=Rating.parse(lim["garrison_rating"]),
            fleet_movement=int(lim["fleet_movement"]),
            galley_movement=int(lim["galley_movement"]),
            fleet_capacity_armies=int(lim["fleet_capacity_armies"]),
            fleet_capacity_regiments=int(lim["fleet_capacity_regiments"]),
            rp_per_garrison=int(lim["rp_per_garrison"]),
            battle_rounds=int(lim["battle_rounds"]),
            activation_needs=int(lim["activation_needs"]),
            truce_years_ahead=int(lim["truce_years_ahead"]),
            rp_per_ceded_territory=int(lim["rp_per_ceded_territory"]),
            rp_polish_capitals=int(lim["rp_polish_capitals"]),
            reform_years_ahead=int(lim["reform_years_ahead"]),
            fleet_years_ahead=int(lim["fleet_years_ahead"]),
            austro_turkish_war_needs=int(lim["austro_turkish_war_needs"]),
            night_rider_needs=int(lim["night_rider_needs"]),
            night_rider_needs_drop=int(lim["night_rider_needs_drop"]),
        )


def fold(text: str) -> str:
    """A name folded for matching: lower case, accents dropped, ø/æ/ł spelled out."""
    special = {"ø": "o", "æ": "ae", "ł": "l", "ß": "ss", "å": "a"}
    text = "".join(special.get(ch, ch) for ch in text.lower())
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass(frozen=True)
class Board:
    """The whole static game data of one ruleset, with lookups for engines and parsers."""

    ruleset: str
    nations: Mapping[str, Nation]
    territories: Mapping[str, Territory]
    seas: Mapping[str, SeaZone]
    borders: tuple[Border, ...]
    blocks: Mapping[str, BlockType]
    scenarios: Mapping[str, Scenario]
    tables: Mapping[str, Any] = field(default_factory=dict)
    _by_pair: dict[frozenset[str], Border] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )
    _open: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False, default_factory=dict)
    _folded: dict[str, dict[str, str]] = field(init=False, repr=False, compare=False, default_factory=dict)
    _blocks_named: dict[str, tuple[str, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        """Index borders and folded names once; the board never changes afterwards."""
        for border in self.borders:
            self._by_pair[frozenset((border.a, border.b))] = border
        for territory in self.territories:
            self._open[territory] = tuple(
                b.other(territory) for b in self._borders_of(territory) if not b.blocked
            )
        for kind in ("territory", "sea", "block", "nation"):
            index: dict[str, str] = {}
            for key, spellings in self.names(kind).items():
                for name in (key, *spellings):
                    index.setdefault(fold(name), key)
            self._folded[kind] = index
        for key, block in self.blocks.items():
            self._blocks_named[block.name] = (*self._blocks_named.get(block.name, ()), key)

    @cached_property
    def limits(self) -> Limits:
        """The action table and the limits the rules read (3.1, 4.2, 4.4, 5.4, 6.3, 7.1,
        2.3, 8.1, 9.1, 9.2, 10.1, 10.2, 11.1, 11.2, 11.5, 11.6), typed once from ``tables`` (issue 21: no dict lookup per call)."""
        return Limits.read(self.tables)

    # -- graph -------------------------------------------------------------
    def border(self, a: str, b: str) -> Border | None:
        """The border between two territories, or None if they do not touch."""
        return self._by_pair.get(frozenset((a, b)))

    def neighbours(self, territory: str, *, include_blocked: bool = False) -> tuple[str, ...]:
        """Territories a block can move to from ``territory`` (4.1); lakes block (1.0)."""
        if include_blocked:
            return tuple(b.other(territory) for b in self._borders_of(territory))
        return self._open.get(territory, ())

    def _borders_of(self, territory: str) -> Iterator[Border]:
        return (b for b in self.borders if territory in (b.a, b.b))

    def ports_on(self, sea: str) -> tuple[str, ...]:
        """Territories whose port or harbor touches ``sea`` (1.6)."""
        return tuple(t.id for t in self.territories.values() if t.port and t.sea == sea)

    def power_of_nation(self, nation: str, defected: Collection[str] = ()) -> str:
        """The player a nation fights for: its side, or once listed in ``defected`` the side
        it went over to (11.9: nations.toml ``activation.defects_to``; else the other side,
        3CG 14.2 Saxony #3); neutral nations count as nobody's."""
        n = self.nations[nation]
        if n.side is Side.NEUTRAL:
            return "neutral"
        if nation in defected:  # 11.9: defects_to; 3CG 14.2 Saxony #3: the other side
            other = "coalition" if n.side is Side.SWEDEN else "sweden"
            return str(n.activation.get("defects_to", other))
        return n.side.value

    def nation_territories(self, nation: str) -> tuple[str, ...]:
        """The territories coloured for ``nation`` (1.1)."""
        return tuple(t.id for t in self.territories.values() if t.nation == nation)

    def region(self, region: str) -> tuple[str, ...]:
        """Named territory sets: "sweden-proper", "denmark-proper", "germany" (1.1), ..."""
        return tuple(t.id for t in self.territories.values() if region in t.regions)

    def scenario(self, scenario_id: str) -> Scenario:
        """A scenario by id ("12.1"); raises UnknownScenario."""
        from gm.games.base import UnknownScenario

        try:
            return self.scenarios[scenario_id]
        except KeyError:
            raise UnknownScenario(f"no Pax Baltica scenario {scenario_id!r}") from None

    def star_partner(self, block: str) -> str | None:
        """The other block of a Russian hollow/black star pair (2.1, 11.2), if any."""
        return self.blocks[block].star_pair

    def initial_pools(self, scenario_id: str) -> dict[str, tuple[str, ...]]:
        """Replacement pools at the start of a scenario, keyed by the pool's nation.

        3CG 12, applies to all scenarios: the blocks of the nations at war that
        the set-up does not place form their pools (Polish blocks join the
        Saxon pool, 11.5; Holstein-Gottorp the Swedish, 11.10). Nations not yet
        at war form theirs on entry (:meth:`entry_pool`). Blocks listed
        out_of_play and nations that never use a pool (Britain, Hannover,
        Prussia, Ukraine) are left out.
        """
        scenario = self.scenario(scenario_id)
        pools: dict[str, tuple[str, ...]] = {}
        for nation in scenario.active:
            owner = self.nations[nation].pool
            if owner is None or owner not in scenario.active:
                continue
            if owner == "sweden" and scenario.special.get("sweden_pool_setup_only"):
                pools.setdefault(owner, ())
                continue
            pools[owner] = pools.get(owner, ()) + self._unplaced(scenario, nation)
        return pools

    def entry_pool(self, scenario_id: str, nation: str) -> tuple[str, ...]:
        """The blocks that form ``nation``'s pool when it enters the war (3CG 12)."""
        return self._unplaced(self.scenario(scenario_id), nation)

    def _unplaced(self, scenario: Scenario, nation: str) -> tuple[str, ...]:
        skip = set(scenario.placed()) | set(scenario.out_of_play)
        return tuple(b.id for b in self.blocks.values() if b.nation == nation and b.id not in skip)

    # -- names -------------------------------------------------------------
    def names(self, kind: str) -> dict[str, list[str]]:
        """Names for the order parser: canonical id -> every accepted spelling.

        ``kind`` is "territory", "sea", "block" or "nation". Garrison names are
        aliases of their territory ("siege Grodno" = "siege Trakai", 1.2). The
        list holds the display name first, then aliases, then accent-folded forms.
        """
        entries: Mapping[str, Any]
        entries = {
            "territory": self.territories,
            "sea": self.seas,
            "block": self.blocks,
            "nation": self.nations,
        }[kind]
        return {key: _spellings(entry) for key, entry in entries.items()}

    def blocks_named(self, name: str) -> tuple[str, ...]:
        """The blocks whose display name is exactly ``name``, in the board's order (two
        for a Russian star pair, 11.2); indexed once, not searched per order (issue 21)."""
        return self._blocks_named.get(name, ())

    def resolve(self, kind: str, text: str) -> str | None:
        """The canonical id a name (any spelling, any case, accents optional) stands for.

        Returns None for an unknown name. Of a Russian star pair (shared name)
        the hollow-star block is returned; see :meth:`star_partner`.
        """
        return self._folded[kind].get(fold(" ".join(text.split())))


def _spellings(entry: Any) -> list[str]:
    out: list[str] = [entry.name, *entry.aliases]
    for garrison in (getattr(entry, "garrison", None), getattr(entry, "upgrade", None)):
        if garrison is None:
            continue
        for name in (garrison.name, *garrison.aliases):
            if name not in out:
                out.append(name)
    for name in list(out):
        folded = fold(name)
        if folded not in (s.lower() for s in out):
            out.append(folded)
    return out


# -- loading ------------------------------------------------------------------

DATA_FILES = ("nations.toml", "map.toml", "blocks.toml", "scenarios.toml", "tables.toml")


def read_raw(ruleset: str = DEFAULT_RULESET, root: Path | None = None) -> dict[str, dict[str, Any]]:
    """The parsed TOML of every data file, with the ruleset's overlay applied.

    The overlay ``rulesets/<ruleset>.toml`` replaces single fields of entries
    (``[file.section.entry] field = value``) and may add entries.
    """
    if ruleset not in RULESETS:
        raise DataError(f"unknown Pax Baltica ruleset {ruleset!r} (known: {', '.join(RULESETS)})")
    root = root or data_root()
    raw: dict[str, dict[str, Any]] = {}
    for name in DATA_FILES:
        path = root / name
        if path.exists():
            raw[name] = _read_toml(path)
    overlay = root / "rulesets" / f"{ruleset}.toml"
    if overlay.exists():
        _apply_overlay(raw, _read_toml(overlay))
    return raw


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path.name}: not valid TOML: {exc}") from exc


def _apply_overlay(raw: dict[str, dict[str, Any]], overlay: dict[str, Any]) -> None:
    for filename, sections in overlay.items():
        if filename == "ruleset":
            continue
        target = raw.setdefault(f"{filename}.toml", {})
        for section, entries in sections.items():
            table = target.setdefault(section, {})
            for key, fields in entries.items():
                if isinstance(fields, dict) and isinstance(table.get(key), dict):
                    table[key].update(fields)
                else:
                    table[key] = fields


@cache
def player_words(language: str) -> dict[str, dict[str, str]]:
    """The players that are not a nation (the Coalition), named in ``language`` (English
    where the language gives none): nations.toml ``[player.*]`` ``words``."""
    players = _read_toml(data_root() / "nations.toml").get("player", {})
    out = {}
    for key, entry in players.items():
        words = entry.get("words", {})
        said = {**words.get("en", {}), **words.get(language, {})}
        out[key] = {form: str(said[form]) for form in ("name", "the") if form in said}
    return out


@cache
def load_board(ruleset: str = DEFAULT_RULESET) -> Board:
    """Load, check and return the board of ``ruleset`` ("gmt-2012" or "3cg-1.1").

    Raises DataError listing every schema problem if the data does not check.
    """
    return build_board(ruleset, read_raw(ruleset))


def build_board(ruleset: str, raw: Mapping[str, Mapping[str, Any]]) -> Board:
    """Check raw TOML tables (see :func:`read_raw`) and build the typed board."""
    from gm.games.baltica.boardbuild import build
    from gm.games.baltica.datacheck import check_raw

    problems = check_raw(raw)
    if problems:
        raise DataError("Pax Baltica data does not check:\n" + "\n".join(problems))
    return build(ruleset, raw)
