"""Schema check of the Pax Baltica data files (run by ``gm data check``).

:func:`check_data` returns a list of problems, each naming the file, the entry
and the field, e.g. ``map.toml: border livland|pskov: b: unknown territory 'pskov'``.
An empty list means the data loads and is playable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from gm.games.baltica.board import DEFAULT_RULESET, RULESETS, read_raw

Raw = Mapping[str, Mapping[str, Any]]
Problems = list[str]

SIDES = ("sweden", "coalition", "neutral")
KINDS = ("army", "regiment", "fleet")
TERRAINS = ("normal", "difficult")
STARS = ("hollow", "black")
SEASONS = ("spring", "summer", "autumn", "winter")
VICTORY_LEVELS = ("major", "minor", "historical")  # 3CG 12.x victory tables
RATING_LETTERS = "ABCD"


def check_data(ruleset: str = DEFAULT_RULESET) -> list[str]:
    """Every problem in the shipped data of ``ruleset``, or [] if it checks."""
    return check_raw(read_raw(ruleset))


def check_all() -> list[str]:
    """Problems of every shipped ruleset, each prefixed with its ruleset (for GameModule.data_check)."""
    return [f"{ruleset}: {problem}" for ruleset in RULESETS for problem in check_data(ruleset)]


def check_raw(raw: Raw) -> list[str]:
    """Every problem in already-parsed data files (see board.read_raw)."""
    problems: Problems = []
    for check in _CHECKS:
        check(raw, problems)
    return problems


# -- field helpers --------------------------------------------------------------


class _Entry:
    """One entry of one file, collecting problems that name file, entry and field."""

    def __init__(self, problems: Problems, filename: str, label: str, data: Any) -> None:
        self.problems = problems
        self.filename = filename
        self.label = label
        self.data = data if isinstance(data, Mapping) else {}
        if not isinstance(data, Mapping):
            self.bad("", "is not a table")

    def bad(self, fieldname: str, message: str) -> None:
        where = f"{self.filename}: {self.label}"
        self.problems.append(f"{where}: {fieldname}: {message}" if fieldname else f"{where}: {message}")

    def only(self, allowed: Iterable[str]) -> None:
        """Flag fields the schema does not know (usually a typo or a misplaced table)."""
        known = set(allowed) | {"source"}
        for fieldname in self.data:
            if fieldname not in known:
                self.bad(fieldname, "unknown field")

    def require(self, fieldname: str, kind: type | tuple[type, ...]) -> Any:
        if fieldname not in self.data:
            self.bad(fieldname, "missing")
            return None
        return self.optional(fieldname, kind)

    def optional(self, fieldname: str, kind: type | tuple[type, ...]) -> Any:
        value = self.data.get(fieldname)
        if value is None:
            return None
        if isinstance(value, bool) and kind in (int, (int,)):
            self.bad(fieldname, f"expected a number, got {value!r}")
            return None
        if not isinstance(value, kind):
            self.bad(fieldname, f"wrong type {type(value).__name__}")
            return None
        return value

    def choice(self, fieldname: str, allowed: Iterable[str], required: bool = True) -> Any:
        value = self.require(fieldname, str) if required else self.optional(fieldname, str)
        allowed = tuple(allowed)
        if value is not None and value not in allowed:
            self.bad(fieldname, f"{value!r} is not one of {', '.join(allowed)}")
        return value

    def number(self, fieldname: str, low: int, high: int, required: bool = True) -> Any:
        value = self.require(fieldname, int) if required else self.optional(fieldname, int)
        if value is not None and not low <= value <= high:
            self.bad(fieldname, f"{value} is outside {low}-{high}")
        return value

    def ref(self, fieldname: str, known: Iterable[str], what: str, value: Any = None) -> None:
        value = self.data.get(fieldname) if value is None else value
        if value is not None and value not in set(known):
            self.bad(fieldname, f"unknown {what} {value!r}")

    def sources(self, fields: Iterable[str]) -> None:
        """Every value cites a source: a `source` table with "default" or one key per field."""
        source = self.data.get("source")
        if isinstance(source, str) and source.strip():
            return
        if not isinstance(source, Mapping):
            self.bad("source", "missing (every entry cites its source, see docs/baltica-data.md)")
            return
        for key, text in source.items():
            if not isinstance(text, str) or not text.strip():
                self.bad(f"source.{key}", "empty citation")
        if "default" in source:
            return
        for name in fields:
            if name in self.data and name not in source:
                self.bad(name, "no source given (and no source.default)")


def _table(raw: Raw, filename: str, section: str, problems: Problems) -> Mapping[str, Any]:
    data = raw.get(filename)
    if data is None:
        problems.append(f"{filename}: missing file")
        return {}
    table = data.get(section, {})
    if not isinstance(table, Mapping):
        problems.append(f"{filename}: [{section}] is not a table")
        return {}
    return table


def _ids(raw: Raw, filename: str, section: str) -> set[str]:
    table = raw.get(filename, {}).get(section, {})
    return set(table) if isinstance(table, Mapping) else set()


def _places(raw: Raw) -> set[str]:
    return _ids(raw, "map.toml", "territory") | _ids(raw, "map.toml", "sea")


# -- checks ---------------------------------------------------------------------


def _check_nations(raw: Raw, problems: Problems) -> None:
    territories = _ids(raw, "map.toml", "territory")
    for key, data in _table(raw, "nations.toml", "nation", problems).items():
        e = _Entry(problems, "nations.toml", f"nation {key}", data)
        e.only(("name", "aliases", "side", "major", "colour", "capital", "proper", "rp_level", "pool",
                "activation", "deploy", "deploy_fleets", "self_sufficient", "never_enter",
                "only_enter", "attacks_only_in", "attacks_with", "words"))
        for language, words in (e.optional("words", Mapping) or {}).items():
            if not isinstance(words, Mapping) or not isinstance(words.get("name"), str):
                e.bad("words", f"{language}: a table with at least a name")
        _check_places(raw, e, ("deploy", "deploy_fleets", "never_enter", "only_enter",
                               "attacks_only_in"))
        for item in e.optional("attacks_with", list) or ():
            e.ref("attacks_with", _ids(raw, "nations.toml", "nation"), "nation", item)
        e.choice("self_sufficient", ("line", "inside"), required=False)
        e.require("name", str)
        e.choice("side", SIDES)
        e.require("colour", str)
        e.optional("major", bool)
        e.ref("capital", territories, "territory")
        for fieldname in ("territories", "proper"):
            for item in e.optional(fieldname, list) or ():
                e.ref(fieldname, territories, "territory", item)
        e.number("rp_level", 1, 60, required=False)
        pool = e.optional("pool", str)
        if pool:
            e.ref("pool", _ids(raw, "nations.toml", "nation"), "nation")
        activation = e.optional("activation", Mapping) or {}
        for flag in ("rolled_by", "defects_to"):
            if flag in activation:
                e.ref("activation", ("sweden", "coalition"), "side", activation[flag])
        if "needs" in activation and activation["needs"] not in range(1, 7):
            e.bad("activation", f"needs {activation['needs']!r} is not a die roll 1-6")
        e.sources(data.keys() if isinstance(data, Mapping) else ())


def _check_places(raw: Raw, e: _Entry, fieldnames: tuple[str, ...]) -> None:
    """Places (deployment 8.7, limits 11.x): each a territory, a region of map.toml or a
    nation."""
    known = _ids(raw, "map.toml", "territory") | _ids(raw, "nations.toml", "nation")
    for t in _table(raw, "map.toml", "territory", []).values():
        if isinstance(t, Mapping):
            known |= set(t.get("regions", ()))
    for fieldname in fieldnames:
        for item in e.optional(fieldname, list) or ():
            e.ref(fieldname, known, "deployment place", item)


def _check_territories(raw: Raw, problems: Problems) -> None:
    nations = _ids(raw, "nations.toml", "nation")
    seas = _ids(raw, "map.toml", "sea")
    for key, data in _table(raw, "map.toml", "territory", problems).items():
        e = _Entry(problems, "map.toml", f"territory {key}", data)
        e.only(("name", "aliases", "nation", "forage", "garrison", "upgrade", "capital", "sea",
                "transit", "box", "regions"))
        e.require("name", str)
        e.ref("nation", nations, "nation")
        e.number("forage", 1, 4, required=False)
        coastal = False
        for fieldname in ("garrison", "upgrade"):
            garrison = e.optional(fieldname, Mapping)
            if garrison is None:
                continue
            g = _Entry(problems, "map.toml", f"territory {key} {fieldname}", garrison)
            g.require("name", str)
            g.number("value", 1, 4)
            g.optional("port", bool)
            g.optional("harbor", bool)
            g.optional("aliases", list)
            coastal = coastal or bool(garrison.get("port") or garrison.get("harbor"))
        if coastal and "sea" not in data:
            e.bad("sea", "a port or harbor must name the one sea zone it touches (1.6)")
        if "sea" in data and not coastal:
            e.bad("sea", "only ports and harbors touch a sea zone (1.6)")
        e.ref("sea", seas, "sea zone")
        for fieldname in ("transit", "capital", "box"):
            e.optional(fieldname, bool)
        e.optional("regions", list)
        e.optional("aliases", list)
        e.sources(data.keys() if isinstance(data, Mapping) else ())


SEA_FORMS = ("name", "the", "in", "of")
"""A sea zone's forms in map.toml ``words.<language>`` (issue 20)."""


def _check_seas(raw: Raw, problems: Problems) -> None:
    seas = _table(raw, "map.toml", "sea", problems)
    for key, data in seas.items():
        e = _Entry(problems, "map.toml", f"sea {key}", data)
        e.only(("name", "aliases", "adjacent", "words"))
        e.require("name", str)
        for language, words in (e.optional("words", Mapping) or {}).items():
            if not isinstance(words, Mapping) or set(words) != set(SEA_FORMS):
                e.bad("words", f"{language}: a table with {', '.join(SEA_FORMS)}")
        for other in e.require("adjacent", list) or ():
            e.ref("adjacent", seas, "sea zone", other)
            if other in seas and key not in seas[other].get("adjacent", ()):
                e.bad("adjacent", f"{other!r} does not list {key!r} back")
        e.sources(data.keys() if isinstance(data, Mapping) else ())


def _check_borders(raw: Raw, problems: Problems) -> None:
    territories = _ids(raw, "map.toml", "territory")
    borders = raw.get("map.toml", {}).get("border", [])
    seen: set[frozenset[str]] = set()
    for data in borders:
        label = f"border {data.get('a')}|{data.get('b')}" if isinstance(data, Mapping) else "border"
        e = _Entry(problems, "map.toml", label, data)
        e.only(("a", "b", "terrain", "blocked", "lake"))
        a, b = e.require("a", str), e.require("b", str)
        e.ref("a", territories, "territory")
        e.ref("b", territories, "territory")
        e.choice("terrain", TERRAINS, required=False)
        e.optional("blocked", bool)
        e.optional("lake", str)
        if a == b and a is not None:
            e.bad("b", "a border needs two different territories")
        pair = frozenset((a, b))
        if pair in seen:
            e.bad("", "duplicate border")
        seen.add(pair)
        e.sources(data.keys() if isinstance(data, Mapping) else ())


def _check_blocks(raw: Raw, problems: Problems) -> None:
    nations = _ids(raw, "nations.toml", "nation")
    blocks = _table(raw, "blocks.toml", "block", problems)
    for key, data in blocks.items():
        e = _Entry(problems, "blocks.toml", f"block {key}", data)
        e.only(("name", "aliases", "nation", "kind", "max_strength", "rating", "movement", "trains",
                "royal", "red_dot", "star", "star_pair", "galley", "deploy", "deploy_adjacent",
                "deploy_else"))
        _check_places(raw, e, ("deploy", "deploy_else"))
        e.optional("deploy_adjacent", bool)
        e.require("name", str)
        e.ref("nation", nations, "nation")
        e.require("nation", str)
        kind = e.choice("kind", KINDS)
        top = e.number("max_strength", 1, 4)
        rating = e.require("rating", str)
        if rating is not None and (
            len(rating) != 2 or rating[0] not in RATING_LETTERS or rating[1] not in "123456"
        ):
            e.bad("rating", f"{rating!r} is not a letter A-D and a number 1-6")
        if kind == "fleet":
            if "movement" in data:  # one place for 9.1's numbers
                e.bad("movement", "a fleet moves tables.toml limits.fleet_movement "
                      "(galley_movement for a galley), 9.1")
        else:
            e.number("movement", 1, 6)
        if data.get("galley") and kind != "fleet":
            e.bad("galley", "only a fleet is a galley (9.1)")
        trains = e.number("trains", 0, 3, required=False)
        if trains and kind != "army":
            e.bad("trains", "only armies have baggage trains (2.1)")
        if kind == "regiment" and top is not None and top >= 4:
            e.bad("max_strength", "regiments always have a maximum strength below 4 (2.2)")
        e.optional("royal", bool)
        e.optional("red_dot", bool)
        e.optional("galley", bool)
        e.choice("star", STARS, required=False)
        if "star_pair" in data:
            e.ref("star_pair", blocks, "block")
        e.optional("aliases", list)
        e.sources(data.keys() if isinstance(data, Mapping) else ())


def _check_unique_names(raw: Raw, problems: Problems) -> None:
    """No spelling may stand for two entries of one kind, so the order parser can resolve it.

    The one exception is a Russian star pair (2.1): both blocks carry the
    general's name, and only one of them is ever in play (11.2).
    """
    from gm.games.baltica.board import fold

    for filename, section in (
        ("map.toml", "territory"),
        ("map.toml", "sea"),
        ("blocks.toml", "block"),
        ("nations.toml", "nation"),
    ):
        owner: dict[str, str] = {}
        entries = raw.get(filename, {}).get(section, {})
        for key, data in entries.items():
            if not isinstance(data, Mapping):
                continue
            for name in sorted({fold(n) for n in _spellings(data)}):
                other = owner.get(name)
                if other is not None and other != key and data.get("star_pair") != other:
                    problems.append(
                        f"{filename}: {section} {key}: name: {name!r} is also a name of "
                        f"{section} {other}"
                    )
                owner.setdefault(name, key)


def _spellings(data: Mapping[str, Any]) -> list[str]:
    names = [data.get("name", ""), *data.get("aliases", ())]
    for fieldname in ("garrison", "upgrade"):
        garrison = data.get(fieldname)
        if isinstance(garrison, Mapping):
            names += [garrison.get("name", ""), *garrison.get("aliases", ())]
    return [n for n in names if isinstance(n, str) and n]


def _check_scenarios(raw: Raw, problems: Problems) -> None:
    territories = raw.get("map.toml", {}).get("territory", {})
    seas = _ids(raw, "map.toml", "sea")
    blocks = raw.get("blocks.toml", {}).get("block", {})
    nations = _ids(raw, "nations.toml", "nation")
    for key, data in _table(raw, "scenarios.toml", "scenario", problems).items():
        e = _Entry(problems, "scenarios.toml", f"scenario {key}", data)
        e.only(("title", "start", "end", "setup", "reduced", "controlled", "allegiance", "active",
                "rp_levels", "first_turn_actions", "special", "victory", "out_of_play", "notes"))
        e.require("title", str)
        for edge in ("start", "end"):
            when = e.require(edge, Mapping)
            if when is not None:
                w = _Entry(problems, "scenarios.toml", f"scenario {key} {edge}", when)
                w.number("year", 1700, 1721)
                w.choice("season", SEASONS)
        placed = _check_setup(e, territories, seas, blocks)
        for block, steps in (e.optional("reduced", Mapping) or {}).items():
            top = blocks.get(block, {}).get("max_strength", 4)
            if block not in placed:
                e.bad(f"reduced.{block}", "block is not in the set-up")
            elif not isinstance(steps, int) or isinstance(steps, bool) or not 1 <= steps <= top:
                e.bad(f"reduced.{block}", f"strength {steps!r} is not 1-{top}")
        for territory, nation in (e.optional("controlled", Mapping) or {}).items():
            e.ref("controlled", territories, "territory", territory)
            e.ref("controlled", nations, "nation", nation)
        for nation, side in (e.optional("allegiance", Mapping) or {}).items():
            e.ref("allegiance", nations, "nation", nation)
            e.ref("allegiance", SIDES, "side", side)
        for nation in e.optional("rp_levels", Mapping) or {}:
            e.ref("rp_levels", nations, "nation", nation)
        for nation in e.optional("active", list) or ():
            e.ref("active", nations, "nation", nation)
        for side in e.optional("first_turn_actions", Mapping) or {}:
            e.ref("first_turn_actions", ("sweden", "coalition"), "side", side)
        for block in e.optional("out_of_play", list) or ():
            e.ref("out_of_play", blocks, "block", block)
            if block in placed:
                e.bad("out_of_play", f"{block!r} is also in the set-up")
        e.optional("special", Mapping)
        for row in e.optional("victory", list) or ():
            if not isinstance(row, Mapping) or not {"result", "condition"} <= set(row):
                e.bad("victory", "each row needs a result and a condition")
                continue
            if row.get("winner") not in SIDES[:2]:
                e.bad("victory", f"row {row['result']!r}: winner must be sweden or coalition")
            if row.get("level") not in VICTORY_LEVELS:
                e.bad("victory", f"row {row['result']!r}: level must be one of {VICTORY_LEVELS}")
            for territory in row.get("occupied", ()):
                e.ref("victory", territories, "territory", territory)
        e.sources(data.keys() if isinstance(data, Mapping) else ())


def _check_setup(
    e: _Entry, territories: Mapping[str, Any], seas: set[str], blocks: Mapping[str, Any]
) -> dict[str, str]:
    """Every placed block exists, once, on a place it may stand (fleets at sea or in harbor, 1.6)."""
    placed: dict[str, str] = {}
    upgraded = bool((e.data.get("special") or {}).get("sankt_peterburg_built"))
    for location, entries in (e.optional("setup", Mapping) or {}).items():
        if location not in territories and location not in seas:
            e.bad(f"setup.{location}", f"unknown territory or sea zone {location!r}")
            continue
        if not isinstance(entries, list):
            e.bad(f"setup.{location}", "expected a list of block ids")
            continue
        for block in entries:
            where = f"setup.{location}.{block}"
            if block not in blocks:
                e.bad(where, f"unknown block {block!r}")
                continue
            if block in placed:
                e.bad(where, f"block also placed in {placed[block]}")
            placed[block] = location
            fleet = blocks[block].get("kind") == "fleet"
            if fleet and location not in seas and not _harbor(territories[location], upgraded):
                e.bad(where, "a fleet sets up at sea or in a harbor (1.6, 9.1)")
            if not fleet and location in seas:
                e.bad(where, "army and regiment blocks set up on land")
    return placed


def _harbor(territory: Mapping[str, Any], upgraded: bool) -> bool:
    garrison = territory.get("upgrade") if upgraded and territory.get("upgrade") else territory.get("garrison")
    return isinstance(garrison, Mapping) and bool(garrison.get("harbor"))


def _check_graph(raw: Raw, problems: Problems) -> None:
    """The land map is connected through open borders, except off-map boxes (1.1)."""
    territories = raw.get("map.toml", {}).get("territory", {})
    land = {k for k, v in territories.items() if isinstance(v, Mapping) and not v.get("box")}
    links: dict[str, set[str]] = {k: set() for k in land}
    for b in raw.get("map.toml", {}).get("border", []):
        if isinstance(b, Mapping) and not b.get("blocked") and b.get("a") in land and b.get("b") in land:
            links[b["a"]].add(b["b"])
            links[b["b"]].add(b["a"])
    if not land:
        return
    start = sorted(land)[0]
    seen, todo = {start}, [start]
    while todo:
        for nxt in links[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    for key in sorted(land - seen):
        problems.append(f"map.toml: territory {key}: border: cannot be reached by land from {start}")


def _check_tables(raw: Raw, problems: Problems) -> None:
    """Die-roll tables hold one row per face 1-6 and cite their source."""
    tables = raw.get("tables.toml")
    if tables is None:
        problems.append("tables.toml: missing file")
        return
    for name in ("action_table", "event_table", "epidemic_regions"):
        if name not in tables:
            problems.append(f"tables.toml: {name}: missing table")
    for name, table in tables.items():
        e = _Entry(problems, "tables.toml", name, table)
        if "1" in table:
            for face in "123456":
                if not isinstance(table.get(face), Mapping):
                    e.bad(face, "missing row for this die face")
        e.sources(())
    _check_read_limits(tables, problems)


READ_LIMITS = {  # tables.toml limits the engine reads as numbers (board.Limits): lowest, highest
    "border_normal": (1, 99), "border_difficult": (1, 99), "force_march_extra": (0, 6),
    "force_march_loss_on": (0, 6), "forage_army": (0, 9), "forage_regiment": (0, 9),
    "fleet_movement": (1, 20), "galley_movement": (1, 20), "fleet_capacity_armies": (0, 9),
    "fleet_capacity_regiments": (0, 9), "rp_per_garrison": (0, 40),
    "battle_rounds": (1, 9), "activation_needs": (1, 6), "truce_years_ahead": (1, 20),
    "rp_per_ceded_territory": (0, 40), "rp_polish_capitals": (0, 40),
    "reform_years_ahead": (1, 20), "fleet_years_ahead": (1, 20),
    "austro_turkish_war_needs": (1, 6), "night_rider_needs": (1, 6),
    "night_rider_needs_drop": (0, 5),
}
"""2.3-11.6: the ``limits`` read into :class:`gm.games.baltica.board.Limits`."""


def _check_read_limits(tables: Mapping[str, Any], problems: Problems) -> None:
    """The action table's rows give whole actions or an event (3.1); the limits the
    engine reads (:data:`READ_LIMITS`, ``garrison_rating``) are there and well typed."""
    for face, row in tables.get("action_table", {}).items():
        if not face.isdigit() or not isinstance(row, Mapping):
            continue
        actions = row.get("actions", 0)
        if (not isinstance(actions, int) or isinstance(actions, bool) or actions < 0
                or (row.get("event") is not True) == (actions == 0)):
            problems.append(f"tables.toml: action_table: {face}: give actions (1 or more) "
                            "or event = true (3.1)")
    limits = tables.get("limits")
    if not isinstance(limits, Mapping):
        problems.append("tables.toml: limits: missing table")
        return
    for name, (low, high) in READ_LIMITS.items():
        value = limits.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            problems.append(f"tables.toml: limits: {name}: {value!r} is not a whole number "
                            f"from {low} to {high}")
    rating = limits.get("garrison_rating")
    if not (isinstance(rating, str) and len(rating) == 2 and rating[0] in RATING_LETTERS
            and rating[1] in "123456"):
        problems.append(f"tables.toml: limits: garrison_rating: {rating!r} is not a letter "
                        "A-D and a number 1-6 (6.3)")


ATTRITION_EFFECTS = {"activation": ("modifier", -6, 6), "defects": None, "rp": ("change", -40, 40)}
"""11.1: the effect kinds of the Swedish Attrition Track's boxes that rules/attrition.py
carries out, with the number each takes and its range."""


def _check_attrition_track(raw: Raw, problems: Problems) -> None:
    """11.1: the Swedish Attrition Track (tables.toml ``swedish_attrition_track``): boxes
    numbered 1, 2, ... in each row, effects of known kinds naming known nations, each box
    with its source (the map's boxes are reconstructed)."""
    track = raw.get("tables.toml", {}).get("swedish_attrition_track")
    if track is None:
        return
    label = "swedish_attrition_track"
    e = _Entry(problems, "tables.toml", label, track)
    e.only(("nation", "kind", "lower_regions", "upper", "lower"))
    nations = _ids(raw, "nations.toml", "nation")
    e.ref("nation", nations, "nation")
    e.choice("kind", ("army", "regiment", "fleet"))
    regions = {r for t in _table(raw, "map.toml", "territory", problems).values()
               if isinstance(t, Mapping) for r in t.get("regions", ())}
    for region in e.require("lower_regions", list) or ():
        e.ref("lower_regions", regions, "region", region)
    for row in ("upper", "lower"):
        boxes = e.require(row, list) or []
        for i, box in enumerate(boxes, start=1):
            b = _Entry(problems, "tables.toml", f"{label}.{row} box {i}", box)
            b.only(("box", "effects"))
            if b.number("box", i, i) is None:
                continue
            if not isinstance(b.data.get("source"), str) or not b.data["source"].strip():
                b.bad("source", "missing (each box says where it comes from, or why reconstructed)")
            for effect in b.require("effects", list) or ():
                f = _Entry(problems, "tables.toml", f"{label}.{row} box {i} effect", effect)
                kind = f.choice("kind", tuple(ATTRITION_EFFECTS))
                f.ref("nation", nations, "nation")
                f.require("nation", str)
                number = ATTRITION_EFFECTS.get(kind) if kind else None
                f.only(("kind", "nation", *((number[0],) if number else ())))
                if number:
                    f.number(number[0], number[1], number[2])


_CHECKS: tuple[Callable[[Raw, Problems], None], ...] = (
    _check_nations,
    _check_territories,
    _check_seas,
    _check_borders,
    _check_blocks,
    _check_unique_names,
    _check_scenarios,
    _check_graph,
    _check_tables,
    _check_attrition_track,
)
