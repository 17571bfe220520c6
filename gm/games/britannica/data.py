"""Typed access to the Pax Britannica data files (``data/*.toml``).

Every rules fact that is a number or a name lives in those files, each value
citing the seed section it comes from or marked "reconstructed". This module
only reads and checks them; :func:`load` is cached per process (the files are
read-only data, not mutable state).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from gm.i18n import Name

DATA_DIR = Path(__file__).resolve().parent / "data"
AREA_TYPES = frozenset(
    {"home", "independent", "ottoman", "chinese_empire", "chinese_vassal", "unorganized"}
)
CRT_RESULTS = frozenset({"AE", "AR", "EX", "HEX", "DR", "DE"})


@dataclass(frozen=True)
class Area:
    id: str
    name: str
    type: str
    value: int
    strength: int
    seas: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class SeaZone:
    id: str
    name: str
    number: int
    adjacent: tuple[str, ...]


@dataclass(frozen=True)
class Passage:
    id: str
    area: str
    seas: tuple[str, str]
    kind: str  # "strait" or "canal"
    cost: int


@dataclass(frozen=True)
class BritanniaData:
    """The whole rule data set, as read from the TOML files."""

    areas: Mapping[str, Area]
    seas: Mapping[str, SeaZone]
    passages: Mapping[str, Passage]
    routes: frozenset[frozenset[str]]
    raw_map: Mapping[str, Any]
    rules: Mapping[str, Any]
    charts: Mapping[str, Any]
    setups: Mapping[str, Mapping[str, Any]]
    balkan_wars: int = 0  # how many Balkan wars (event 1-1) the routes reflect, at most 2
    _neighbours: dict[str, frozenset[str]] = field(
        init=False, repr=False, compare=False, default_factory=dict)
    _areas_on: dict[str, frozenset[str]] = field(
        init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        """Index the overland routes and the areas on each sea zone once; the data never
        change afterwards (issue 21: a communication link's search asked them of every
        route and area at each step)."""
        joined: dict[str, set[str]] = {}
        for r in self.routes:
            for a in r:
                joined.setdefault(a, set()).update(b for b in r if b != a)
        self._neighbours.update((a, frozenset(bs)) for a, bs in joined.items())
        on: dict[str, set[str]] = {}
        for area in self.areas.values():
            for sea in area.seas:
                on.setdefault(sea, set()).add(area.id)
        self._areas_on.update((sea, frozenset(xs)) for sea, xs in on.items())

    # -- convenience lookups -------------------------------------------------
    @property
    def great_powers(self) -> tuple[str, ...]:
        return tuple(self.rules["powers"])

    @property
    def minor_powers(self) -> tuple[str, ...]:
        return tuple(self.rules["minor_powers"])

    @property
    def seats(self) -> tuple[str, ...]:
        """The seven player seats (seed, Introduction)."""
        seen: list[str] = []
        for p in self.rules["powers"].values():
            if p["seat"] not in seen:
                seen.append(p["seat"])
        return tuple(seen)

    def said(self, key: str) -> Name:
        """A power or a place (by id) as a dice purpose names it, said by its name in every
        language, English too (``name`` and ``words``, rules.toml, map.toml: "colonial
        office U.S.A.", "colonial combat Cape Colony"); the purpose's own text keeps the id
        ("colonial office usa"), as logged and compared by ``gm verify``, as Pax Baltica's
        ``World.said`` does."""
        table = (self.rules["powers"].get(key) or self.rules["minor_powers"].get(key)
                 or self.rules["non_players"].get(key) or self.raw_map["areas"].get(key)
                 or self.raw_map["sea_zones"].get(key) or {})
        forms = {"en": str(table["name"])} if "name" in table else {}
        forms.update({lang: str(w["name"]) for lang, w in table.get("words", {}).items()
                      if "name" in w})
        return Name(key, **forms)

    def home(self, power: str) -> str:
        table = self.rules["powers"].get(power) or self.rules["minor_powers"][power]
        return str(table["home"])

    def seat_of(self, power: str) -> str:
        return str(self.rules["powers"][power]["seat"])

    def neighbours(self, area: str) -> set[str]:
        """Areas joined to ``area`` by one overland route (seed, Overland Routes)."""
        return set(self._neighbours.get(area, ()))

    def areas_on(self, sea: str) -> set[str]:
        """Areas whose coast touches the sea zone ``sea`` (map.toml ``seas`` of each area)."""
        return set(self._areas_on.get(sea, ()))

    def turn_years(self) -> list[int]:
        return [int(t["year"]) for t in self.rules["turns"]]

    def turn(self, year: int) -> Mapping[str, Any]:
        for t in self.rules["turns"]:
            if t["year"] == year:
                return t
        raise KeyError(year)


def _read(name: str) -> dict[str, Any]:
    with open(DATA_DIR / name, "rb") as fh:
        return tomllib.load(fh)


@cache
def aliases() -> dict[str, dict[str, list[str]]]:
    """Other names of the areas and sea zones (``aliases.toml``: exonyms, French names), by
    section (``areas``, ``seas``) and id; for the order parser only (orders.md §3)."""
    return _read("aliases.toml")


@cache
def load() -> BritanniaData:
    """Read and type the data files (cached: they do not change while running)."""
    m = _read("map.toml")
    areas = {
        k: Area(k, v["name"], v["type"], int(v["value"]), int(v["strength"]),
                tuple(v.get("seas", ())), v.get("source", ""))
        for k, v in m["areas"].items()
    }
    seas = {k: SeaZone(k, v["name"], int(v["number"]), tuple(v["adjacent"]))
            for k, v in m["sea_zones"].items()}
    passages = {k: Passage(k, v["area"], (v["seas"][0], v["seas"][1]), v["kind"], int(v["cost"]))
                for k, v in m["passages"].items()}
    routes = frozenset(frozenset(p) for g in m["routes"] for p in g["pairs"])
    setups = {"1880": _read("setup_1880.toml")}
    return BritanniaData(areas, seas, passages, routes, m, _read("rules.toml"),
                         _read("charts.toml"), setups)


_BALKAN: dict[tuple[int, int], tuple[BritanniaData, BritanniaData]] = {}


def after_balkan_wars(d: BritanniaData, count: int) -> BritanniaData:
    """The map after ``count`` Balkan wars (seed, War in the Balkans (1-1)): the first creates
    a link between Serbia and Greece; the second one between Bulgaria and Greece, severs
    Serbia-Anatolia and puts Bulgaria on the Mediterranean. Later rolls change nothing more.
    The changes are data (``map.toml [balkan_war]``); results are cached per data set."""
    count = min(count, 2)
    if count <= d.balkan_wars:
        return d
    key = (id(d), count)
    if key not in _BALKAN:
        stages = d.raw_map["balkan_war"]
        routes = set(d.routes)
        areas = dict(d.areas)
        for n in range(d.balkan_wars + 1, count + 1):
            stage = stages["first" if n == 1 else "second"]
            routes |= {frozenset(r) for r in stage.get("add", [])}
            routes -= {frozenset(r) for r in stage.get("remove", [])}
            for area, seas in stage.get("seas", {}).items():
                areas[area] = replace(areas[area], seas=tuple(dict.fromkeys((*areas[area].seas, *seas))))
        _BALKAN[key] = (d, replace(d, routes=frozenset(routes), areas=areas, balkan_wars=count))
    return _BALKAN[key][1]


WORD_FORMS = ("name", "the", "of", "to")
PLACE_FORMS = ("name", "the", "in", "of")
"""The forms of an area's or a sea zone's name in map.toml ``words.<language>`` (issue 20):
bare (lists: "Perse"), with its article ("la Perse", "le Japon", "Aden"), with "in" ("en
Perse", "au Japon", "aux Indes néerlandaises", "à Aden"), with "of" ("de la Perse", "du
Japon", "d'Aden"). English, unless words.en says otherwise: the name, the name, "in <name>",
"of <name>"."""
"""The forms of a power's name in rules.toml ``words.<language>``: bare, with its article,
with "of", with "to" (French folds the article in: "du Japon", "aux États-Unis"); besides
them, ``plural = true`` where the name is plural in that language ("les États-Unis")."""


def check_data(data: BritanniaData | None = None) -> list[str]:
    """Schema problems in the data files; an empty list when all is well."""
    d = data or load()
    problems: list[str] = []
    problems += _check_map(d)
    problems += _check_rules(d)
    problems += _check_charts(d)
    problems += _check_setup(d)
    return problems


def _check_map(d: BritanniaData) -> list[str]:
    out: list[str] = []
    if len(d.areas) != 104:
        out.append(f"map: {len(d.areas)} areas, the seed says 104")
    if len(d.seas) != 12:
        out.append(f"map: {len(d.seas)} sea zones, the seed says 12")
    for a in d.areas.values():
        if a.type not in AREA_TYPES:
            out.append(f"map: area {a.id} has unknown type {a.type!r}")
        if not a.source:
            out.append(f"map: area {a.id} cites no source")
        out += [f"map: area {a.id} touches unknown sea {s}" for s in a.seas if s not in d.seas]
    for s in d.seas.values():
        for o in s.adjacent:
            if o not in d.seas:
                out.append(f"map: sea {s.id} adjacent to unknown sea {o}")
            elif s.id not in d.seas[o].adjacent:
                out.append(f"map: sea adjacency {s.id}-{o} is one-way")
    for group in ("areas", "sea_zones"):
        for k, t in d.raw_map[group].items():
            for lang, forms in t.get("words", {}).items():
                if lang != "en" and set(forms) != set(PLACE_FORMS):
                    out.append(f"map: {group}.{k} words.{lang} must give {', '.join(PLACE_FORMS)}")
    for r in d.routes:
        out += [f"map: route to unknown area {a}" for a in r if a not in d.areas]
    for p in d.passages.values():
        if p.area not in d.areas:
            out.append(f"map: passage {p.id} in unknown area {p.area}")
    return out


def _check_rules(d: BritanniaData) -> list[str]:
    out: list[str] = []
    r = d.rules
    if len(d.seats) != 7:
        out.append(f"rules: {len(d.seats)} seats, the game has 7 players")
    for p in d.great_powers:
        co = r["colonial_office"].get(p)
        if co is None or len(co["income"]) != 6:
            out.append(f"rules: colonial office table for {p} must have 6 entries")
        if p not in r["counter_mix"]:
            out.append(f"rules: no counter mix for {p}")
        if d.home(p) not in d.areas:
            out.append(f"rules: home of {p} is not an area")
    for group in ("powers", "minor_powers", "non_players"):
        for p, t in r[group].items():
            for lang, forms in t.get("words", {}).items():
                if lang != "en" and set(forms) - {"plural"} != set(WORD_FORMS):
                    out.append(f"rules: {group}.{p} words.{lang} must give {', '.join(WORD_FORMS)}")
    if len(r["turns"]) != 10:
        out.append("rules: the turn track must have 10 turns")
    for t in r["turns"]:
        out += [f"rules: turn {t['year']} gives a merchant to unknown {p}"
                for p in t["merchants"] if p not in r["powers"]]
    return out


def _check_charts(d: BritanniaData) -> list[str]:
    out: list[str] = []
    c = d.charts
    table = c["random_events"]["table"]
    keys = {f"{a}-{b}" for a in range(1, 7) for b in range(1, 7)}
    if set(table) != keys:
        out.append("charts: random events must cover 1-1 .. 6-6")
    for name, t in c["unrest_tables"].items():
        if name == "source":
            continue
        need = 6 if t["dice"] == 1 else 11
        if len(t["areas"]) != need:
            out.append(f"charts: unrest table {name} needs {need} entries")
        out += [f"charts: unrest table {name} names unknown area {a}"
                for a in t["areas"] if a not in d.areas]
    for mp in d.minor_powers:
        t = c["minor_activity"][mp]
        if len(t["areas"]) != 11:
            out.append(f"charts: minor activity for {mp} needs 11 entries (rolls 2..12)")
        out += [f"charts: minor activity {mp} names unknown area {a}"
                for a in t["areas"][1:] if a not in d.areas]
    for n in ("table1", "table2"):
        for col in c["crt"]["columns"]:
            row = c["crt"][n].get(col, [])
            if len(row) != 6 or not set(row) <= CRT_RESULTS:
                out.append(f"charts: CRT {n} column {col} must be 6 known results")
    return out


def _check_setup(d: BritanniaData) -> list[str]:
    out: list[str] = []
    owners = set(d.great_powers) | set(d.minor_powers)
    for sid, s in d.setups.items():
        for area, ms in s["markers"].items():
            if area not in d.areas:
                out.append(f"setup {sid}: marker in unknown area {area}")
            out += [f"setup {sid}: unknown power {p}" for p, _ in ms if p not in owners]
        for p, kind, strength, loc in s["units"]:
            if p not in owners or kind not in ("army", "fleet") or strength not in (1, 3, 10):
                out.append(f"setup {sid}: bad unit {p} {kind} {strength}")
            if loc != "home" and loc not in d.areas:
                out.append(f"setup {sid}: unit in unknown area {loc}")
        for zs in s["merchants"].values():
            out += [f"setup {sid}: merchant in unknown sea {z}" for z in zs if z not in d.seas]
        out += _check_minor_links(d, sid, s)
    return out


def _check_minor_links(d: BritanniaData, sid: str, s: Mapping[str, Any]) -> list[str]:
    """A minor power never buys nor moves a merchant fleet: its set-up fleets must give it a
    Communication Link to areas of its activity table, or it could never place a marker
    (seed, Determining Minor Power Activity: "The Minor Power must have a Communication Link")."""
    from gm.games.britannica.board import linked  # board reads this module's data

    if any(mp not in s["merchants"] for mp in d.minor_powers) or any(
            z not in d.seas for zs in s["merchants"].values() for z in zs):
        return []
    state = {"markers": {a: [{"power": p, "kind": k, "established": True} for p, k in ms]
                         for a, ms in s["markers"].items() if a in d.areas},
             "merchants": s["merchants"], "unrest": [], "canals": []}
    out = []
    for mp in d.minor_powers:
        reach = linked(d, state, mp)
        if not set(d.charts["minor_activity"][mp]["areas"][1:]) & reach:
            out.append(f"setup {sid}: {mp}'s merchant fleets link it to no area of its activity table")
    return out
