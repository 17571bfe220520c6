"""Schema check of the Pax Baltica data files (run by ``gm data check``).

:func:`check_data` returns a list of problems, each naming the file, the entry
and the field, e.g. ``map.toml: border livland|pskov: b: unknown territory 'pskov'``.
An empty list means the data loads and is playable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from gm.games.baltica.board import DEFAULT_RULESET, read_raw

Raw = Mapping[str, Mapping[str, Any]]
Problems = list[str]

SIDES = ("sweden", "coalition", "neutral")
KINDS = ("army", "regiment", "fleet")
TERRAINS = ("normal", "difficult")
STARS = ("hollow", "black")
SEASONS = ("spring", "summer", "autumn", "winter")
RATING_LETTERS = "ABCD"


def check_data(ruleset: str = DEFAULT_RULESET) -> list[str]:
    """Every problem in the shipped data of ``ruleset``, or [] if it checks."""
    return check_raw(read_raw(ruleset))


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
        e.require("name", str)
        e.choice("side", SIDES)
        e.require("colour", str)
        e.optional("major", bool)
        e.ref("capital", territories, "territory")
        for fieldname in ("territories", "proper"):
            for item in e.optional(fieldname, list) or ():
                e.ref(fieldname, territories, "territory", item)
        e.number("rp_level", 0, 30, required=False)
        e.sources(data.keys() if isinstance(data, Mapping) else ())


def _check_territories(raw: Raw, problems: Problems) -> None:
    nations = _ids(raw, "nations.toml", "nation")
    seas = _ids(raw, "map.toml", "sea")
    for key, data in _table(raw, "map.toml", "territory", problems).items():
        e = _Entry(problems, "map.toml", f"territory {key}", data)
        e.require("name", str)
        e.ref("nation", nations, "nation")
        e.number("forage", 1, 4, required=False)
        garrison = e.optional("garrison", Mapping)
        if garrison is not None:
            g = _Entry(problems, "map.toml", f"territory {key}", garrison)
            g.label = f"territory {key} garrison"
            g.require("name", str)
            g.number("value", 1, 4)
            g.optional("port", bool)
            g.optional("harbor", bool)
            if (garrison.get("port") or garrison.get("harbor")) and "sea" not in data:
                e.bad("sea", "a port or harbor must name the one sea zone it touches (1.6)")
        if "sea" in data and not (garrison or {}).get("port") and not (garrison or {}).get("harbor"):
            e.bad("sea", "only ports and harbors touch a sea zone (1.6)")
        e.ref("sea", seas, "sea zone")
        for fieldname in ("transit", "capital", "box"):
            e.optional(fieldname, bool)
        e.optional("regions", list)
        e.optional("aliases", list)
        e.sources(data.keys() if isinstance(data, Mapping) else ())


def _check_seas(raw: Raw, problems: Problems) -> None:
    seas = _table(raw, "map.toml", "sea", problems)
    for key, data in seas.items():
        e = _Entry(problems, "map.toml", f"sea {key}", data)
        e.require("name", str)
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
        e.number("movement", 1, 6)
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
    """No spelling may stand for two entries of the same kind (the parser must resolve it)."""
    from gm.games.baltica.board import fold

    kinds = (
        ("map.toml", "territory", _place_names),
        ("map.toml", "sea", _place_names),
        ("blocks.toml", "block", _place_names),
        ("nations.toml", "nation", _place_names),
    )
    for filename, section, spell in kinds:
        owner: dict[str, str] = {}
        for key, data in raw.get(filename, {}).get(section, {}).items():
            if not isinstance(data, Mapping):
                continue
            for name in {fold(n) for n in spell(data)}:
                if name in owner and owner[name] != key:
                    problems.append(
                        f"{filename}: {section} {key}: name: {name!r} is also a name of "
                        f"{section} {owner[name]}"
                    )
                owner.setdefault(name, key)


def _place_names(data: Mapping[str, Any]) -> list[str]:
    names = [data.get("name", ""), *data.get("aliases", ())]
    garrison = data.get("garrison")
    if isinstance(garrison, Mapping) and garrison.get("name"):
        names.append(garrison["name"])
    return [n for n in names if isinstance(n, str) and n]


def _check_scenarios(raw: Raw, problems: Problems) -> None:
    places = _places(raw)
    territories = _ids(raw, "map.toml", "territory")
    blocks = raw.get("blocks.toml", {}).get("block", {})
    nations = _ids(raw, "nations.toml", "nation")
    for key, data in _table(raw, "scenarios.toml", "scenario", problems).items():
        e = _Entry(problems, "scenarios.toml", f"scenario {key}", data)
        e.require("title", str)
        for edge in ("start", "end"):
            when = e.require(edge, Mapping)
            if when is not None:
                w = _Entry(problems, "scenarios.toml", f"scenario {key} {edge}", when)
                w.number("year", 1700, 1721)
                w.choice("season", SEASONS)
        placed: dict[str, str] = {}
        for location, entries in (e.optional("setup", Mapping) or {}).items():
            e.ref("setup", places, "territory or sea zone", location)
            for block, strength in entries.items():
                where = f"setup.{location}.{block}"
                if block not in blocks:
                    e.bad(where, f"unknown block {block!r}")
                elif not isinstance(strength, int) or not 1 <= strength <= blocks[block].get(
                    "max_strength", 4
                ):
                    e.bad(where, f"strength {strength!r} is not 1-{blocks[block].get('max_strength')}")
                if block in placed:
                    e.bad(where, f"block also placed in {placed[block]}")
                placed[block] = location
        for territory, nation in (e.optional("controlled", Mapping) or {}).items():
            e.ref("controlled", territories, "territory", territory)
            e.ref("controlled", nations, "nation", nation)
        for nation in (e.optional("rp_levels", Mapping) or {}):
            e.ref("rp_levels", nations, "nation", nation)
        for nation in e.optional("active", list) or ():
            e.ref("active", nations, "nation", nation)
        for side in (e.optional("first_turn_actions", Mapping) or {}):
            e.ref("first_turn_actions", ("sweden", "coalition"), "side", side)
        for block in e.optional("out_of_play", list) or ():
            e.ref("out_of_play", blocks, "block", block)
        for row in e.optional("victory", list) or ():
            if not isinstance(row, Mapping) or not {"result", "condition"} <= set(row):
                e.bad("victory", "each row needs a result and a condition")
        e.sources(data.keys() if isinstance(data, Mapping) else ())


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


_CHECKS: tuple[Callable[[Raw, Problems], None], ...] = (
    _check_nations,
    _check_territories,
    _check_seas,
    _check_borders,
    _check_blocks,
    _check_unique_names,
    _check_scenarios,
    _check_graph,
)
