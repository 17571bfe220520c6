"""Pax Viking data: the board, jarlboards, victory cards, rule tables and saga tiles.

Everything here is read from ``data/*.toml`` and ``data/tiles/*.toml`` (schema:
:mod:`gm.games.viking.datacheck`, ``gm data check``). The rules code never
spells a region, a cost or a tile: it asks :class:`Data`. A tile set is one
file in ``data/tiles/``; a GM adds printed tiles by adding a file there
(docs/viking.md, "Saga tile format").
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from gm.i18n import Name, translate
from gm.l10n import elide

DATA_DIR = Path(__file__).parent / "data"

TILE_TYPES = ("venture", "advocate", "god", "event")
TRIGGERS = ("activate", "immediate", "persistent", "althing")
PRIMITIVES: dict[str, dict[str, type | tuple[Any, ...]]] = {
    # primitive -> its parameters (type, or the allowed values)
    "gain_silfr": {"amount": int, "who": ("self", "rivals", "all")},
    "pay_silfr": {"amount": int, "who": ("self", "rivals", "all")},
    "draw": {"count": int},
    "place_longship": {"at": ("this", "location", "home")},
    "establish": {"where": ("this", "location", "anywhere")},
    "move": {"steps": int},
    "remove_longship": {"where": ("this", "location", "anywhere")},
    "copy": {"of": ("venture", "advocate", "god", "any")},
}
"""The effect primitives a tile's ``effects`` compose (docs/viking.md)."""

MODIFIER_ACTIONS = ("invest", "journey", "play", "activate", "parley", "jarldom", "sweden",
                    "theocracy", "rus", "establish", "solstice", "althing")
MODIFIER_KINDS = {
    "longships": ("parley",),
    "follower_longships": ("parley",),
    "steps": ("journey",),
    "discount": ("invest", "establish"),
    "silfr": MODIFIER_ACTIONS,
    "income": ("solstice",),
    "hand_limit": ("solstice",),
    "votes": ("althing",),
}
"""Persistent modifiers: kind -> the named actions it may apply to."""


@dataclass(frozen=True)
class Region:
    id: str
    name: str
    type: str  # sea | river | harbor
    wind: str
    name_fr: str = ""
    article_fr: str = ""  # a sea's: « le », « la » (« dans le Golfe de Finlande »)


@dataclass(frozen=True)
class Post:
    id: str
    name: str
    region: str
    kind: str  # empty | trade_center | ally
    harbor: str = ""  # the sea region it is entered from, if a harbor post
    follower: str = ""
    followers: int = 1
    cost: int = 0
    key: bool = False
    gains: tuple[dict[str, Any], ...] = ()
    modifiers: tuple[dict[str, Any], ...] = ()
    ally_ships: str = ""
    name_fr: str = ""

    @property
    def access(self) -> str:
        """The region a longship enters this post from (Posts: Harbor / River Region)."""
        return self.harbor or self.region


@dataclass(frozen=True)
class Home:
    id: str
    name: str
    wind: str
    adjacent: tuple[str, ...]
    name_fr: str = ""


@dataclass(frozen=True)
class Jarl:
    id: str
    name: str
    home: str
    start_silfr: int = 0
    modifiers: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    difficulty: str
    requires: tuple[dict[str, Any], ...]
    name_fr: str = ""


@dataclass(frozen=True)
class Tile:
    id: str
    number: int
    name: str
    type: str
    location: str
    trigger: str
    tileset: str
    follower: str = ""
    cost: int = 0
    effects: tuple[dict[str, Any], ...] = ()
    modifiers: tuple[dict[str, Any], ...] = ()
    starter: int | None = None
    once: bool = False  # ONCE: the ability applies only once per any player's turn
    name_fr: str = ""


@dataclass
class Data:
    winds: dict[str, dict[str, Any]]
    regions: dict[str, Region]
    posts: dict[str, Post]
    white: set[frozenset[str]]
    black: set[frozenset[str]]
    homes: dict[str, Home]
    fleets: dict[str, dict[str, Any]]
    jarls: dict[str, Jarl]
    cards: dict[str, Card]
    tiles: dict[str, Tile]
    rules: dict[str, Any]
    adjacent: dict[str, set[str]] = field(default_factory=dict)
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Other names of regions and posts, by id (aliases.toml: exonyms, issue 17)."""
    names_said: dict[str, Name] = field(default_factory=dict)
    """Each region, post, home and ally fleet by its English name, as a :class:`Name` with
    its forms in other languages (board.toml ``name_fr``): :meth:`said`."""
    tiles_said: dict[str, Name] = field(default_factory=dict)
    """Each saga tile and victory card by its English name, as a :class:`Name` with its
    French form (tiles/*.toml and victory.toml ``name_fr``): :meth:`said`."""
    words_said: dict[str, Name] = field(default_factory=dict)
    """Each player colour and follower type by its id, as a :class:`Name` with its forms
    in other languages (rules.toml ``colors`` and ``follower_types``, ``display_<language>``:
    "green" is "Vert" to a French seat): :meth:`said`."""

    def rule(self, key: str) -> Any:
        return self.rules[key]["value"]

    def posts_in(self, location: str) -> list[Post]:
        """The posts in a tile's location: a region, a wind, or ``anywhere``."""
        if location == "anywhere":
            return list(self.posts.values())
        if location in self.winds:
            return [p for p in self.posts.values() if self.regions[p.region].wind == location]
        return [p for p in self.posts.values() if p.region == location]

    def wind_of(self, node: str) -> str:
        region = self.posts[node].region if node in self.posts else node
        return self.regions[region].wind if region in self.regions else ""

    def tileset(self, name: str) -> list[Tile]:
        return sorted((t for t in self.tiles.values() if t.tileset == name),
                      key=lambda t: t.number)

    def wind_name(self, wind: str, language: str = "en") -> str:
        """A wind's name in ``language`` (board.toml ``name_<language>``; ``name`` otherwise)."""
        w = self.winds[wind]
        return str(w.get(f"name_{language}") or w["name"])

    def wind_said(self, wind: str) -> Name:
        """A wind's name as a message says it in each reader's language (``in the {wind}``)."""
        w = self.winds[wind]
        return Name(str(w["name"]), **{k.removeprefix("name_"): str(v) for k, v in w.items()
                                        if k.startswith("name_")})

    def place_name(self, node: str) -> str:
        for table in (self.posts, self.regions, self.homes):
            if node in table:
                return table[node].name
        return node

    def place_said(self, node: str) -> str:
        """A region, post or home (by id) as a message names it in each reader's language:
        "Norway", "Norvège" to a French seat (:meth:`said`)."""
        return self.said(self.place_name(node))

    def said(self, name: str) -> str:
        """A place or an ally fleet by its English name (as orders, views and events carry
        it), a saga tile or a victory card, as a :class:`gm.i18n.Name` that a message says
        in the reader's language (``name_fr``: "Mer Baltique", "Chantier naval"); a player's
        colour or a follower type by its id ("green": "Vert", rules.toml ``display_fr``); any
        other name as it is."""
        said = self.names_said.get(name) or self.tiles_said.get(name)
        return said if said is not None else self.words_said.get(name, name)

    def the_said(self, node: str) -> str:
        """A place (by id) as a sentence names it after a preposition such as « vers »: a
        sea with its French article (board.toml ``article_fr``: « le Golfe de Finlande »,
        « l'Océan Germanique »), any other place as :meth:`place_said` names it."""
        said = self.place_said(node)
        region = self.regions.get(node)
        if region is None or not region.article_fr:
            return said
        french = translate(said, "fr")
        return Name(str(said), fr=elide(f"{region.article_fr} ", french, "fr") + french)

    def at_said(self, node: str, english: str = "at") -> Name:
        """"at PLACE" (or ``english`` "in PLACE") for a region, post or home (by id), said in
        the reader's language: one rule for French, « à Birka » for a post or a home (a
        town, a settlement), « dans » and its article for a sea (« dans le Golfe de
        Finlande », :meth:`the_said`), « en Svealand » for any other region (a land, a
        river)."""
        said = self.place_said(node)
        french = translate(said, "fr")
        if node in self.regions and self.regions[node].article_fr:
            french = f"dans {translate(self.the_said(node), 'fr')}"
        elif node in self.regions:
            french = f"en {french}"
        else:
            french = f"à {french}"
        return Name(f"{english} {said}", fr=french)

    def said_all(self, names: Iterable[str]) -> str:
        """``A, B, C`` (places, or any names) as one :class:`Name`, each said in the
        reader's language: a journey's path, a tile's choices."""
        said = [self.said(n) for n in names]
        english = ", ".join(said)
        languages = {lang for x in said if isinstance(x, Name) for lang in x.forms}
        if not languages:
            return english
        return Name(english, **{lang: ", ".join(translate(x, lang) for x in said)
                                for lang in sorted(languages)})

    def place_names(self, language: str) -> dict[str, str]:
        """Every place and ally fleet, English name -> its name in ``language``."""
        return {english: translate(said, language) for english, said in self.names_said.items()}

    def place_names_after(self, language: str) -> dict[str, str]:
        """Every region, English name -> its name in ``language`` after a preposition such
        as « vers » (:meth:`the_said`: « le Golfe de Finlande »); a post is named as it is."""
        return {r.name: translate(self.the_said(r.id), language) for r in self.regions.values()}

    def tile_names(self, language: str) -> dict[str, str]:
        """Every saga tile and victory card, English name -> its name in ``language``."""
        return {english: translate(said, language) for english, said in self.tiles_said.items()}


def _read(path: Path) -> dict[str, Any]:
    with path.open("rb") as f:
        return tomllib.load(f)


def _tuple(rows: Any) -> tuple[dict[str, Any], ...]:
    return tuple(dict(r) for r in rows or ())


def raw_files(data_dir: Path = DATA_DIR) -> dict[str, dict[str, Any]]:
    """Every data file as parsed TOML, keyed by its path under data/."""
    files = {p.name: _read(p) for p in sorted(data_dir.glob("*.toml"))}
    files.update({f"tiles/{p.name}": _read(p) for p in sorted((data_dir / "tiles").glob("*.toml"))})
    return files


def build(files: dict[str, dict[str, Any]]) -> Data:
    """Data from parsed files (run :func:`datacheck.check` first for clear errors)."""
    board, jarls, victory, rules = (files["board.toml"], files["jarls.toml"],
                                    files["victory.toml"], files["rules.toml"])
    regions = {r["id"]: Region(r["id"], r["name"], r["type"], r["wind"], r.get("name_fr", ""),
                         r.get("article_fr", ""))
               for r in board["region"]}
    posts = {p["id"]: Post(p["id"], p["name"], p["region"], p["kind"], p.get("harbor", ""),
                           p.get("follower", ""), p.get("followers", 1), p.get("cost", 0),
                           p.get("key", False), _tuple(p.get("gains")),
                           _tuple(p.get("modifiers")), p.get("ally_ships", ""),
                           p.get("name_fr", ""))
             for p in board["post"]}
    white = {frozenset(b["between"]) for b in board["border"] if b["color"] == "white"}
    black = {frozenset(b["between"]) for b in board["border"] if b["color"] == "black"}
    tiles: dict[str, Tile] = {}
    for name, content in files.items():
        if not name.startswith("tiles/"):
            continue
        tileset = name.removeprefix("tiles/").removesuffix(".toml")
        for t in content.get("tile", ()):
            tid = f"{tileset}-{t['number']:03d}"
            tiles[tid] = Tile(tid, t["number"], t["name"], t["type"], t["location"],
                              t["trigger"], tileset, t.get("follower", ""), t.get("cost", 0),
                              _tuple(t.get("effects")), _tuple(t.get("modifiers")),
                              t.get("starter"), bool(t.get("once", False)),
                              t.get("name_fr", ""))
    data = Data(
        winds={w["id"]: dict(w) for w in board["wind"]},
        regions=regions, posts=posts, white=white, black=black,
        homes={h["id"]: Home(h["id"], h["name"], h["wind"], tuple(h["adjacent"]),
                             h.get("name_fr", "")) for h in board["home"]},
        fleets={f["id"]: dict(f) for f in board["ally_fleet"]},
        jarls={j["id"]: Jarl(j["id"], j["name"], j["home"], j.get("start_silfr", 0),
                             _tuple(j.get("modifiers"))) for j in jarls["jarl"]},
        cards={c["id"]: Card(c["id"], c["name"], c["difficulty"], _tuple(c["requires"]),
                             c.get("name_fr", "")) for c in victory["card"]},
        tiles=tiles, rules=rules,
        aliases={k: tuple(v) for k, v in files.get("aliases.toml", {}).get("place", {}).items()},
    )
    data.adjacent = _adjacency(data)
    data.names_said = _names_said(data)
    named: list[Tile | Card] = [*data.tiles.values(), *data.cards.values()]
    data.tiles_said = {x.name: Name(x.name, **({"fr": x.name_fr} if x.name_fr else {}))
                       for x in named}
    data.words_said = {**_words_said(rules["colors"]), **_words_said(rules["follower_types"])}
    return data


def _words_said(entry: dict[str, Any]) -> dict[str, Name]:
    """Id -> :class:`Name` with its ``display_<language>`` forms, for a rules.toml table of
    names (``colors``, ``follower_types``)."""
    shown = {k.removeprefix("display_"): v for k, v in entry.items() if k.startswith("display_")}
    return {ident: Name(ident, **{lang: str(names[i]) for lang, names in shown.items()})
            for i, ident in enumerate(entry["value"])}


def _names_said(data: Data) -> dict[str, Name]:
    """English name -> :class:`Name` with its French form, for every region, post, home
    and ally fleet (an ally fleet is named like its post: "Dublin")."""
    out: dict[str, Name] = {}
    named = [(x.name, x.name_fr) for table in (data.regions, data.posts, data.homes)
             for x in table.values()]
    named += [(str(f["name"]), str(f.get("name_fr", ""))) for f in data.fleets.values()]
    for english, french in named:
        out.setdefault(english, Name(english, **({"fr": french} if french else {})))
    return out


def _adjacency(data: Data) -> dict[str, set[str]]:
    """One-step neighbours among regions and posts (Standard Actions B, Steps).

    A post connects to the region it is entered from; a white border (or two
    touching seas, listed as white borders) connects two regions.
    """
    adj: dict[str, set[str]] = {n: set() for n in (*data.regions, *data.posts)}
    for pair in data.white:
        a, b = tuple(pair)
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    for p in data.posts.values():
        adj[p.id].add(p.access)
        adj.setdefault(p.access, set()).add(p.id)
    return adj


@cache
def load() -> Data:
    """The shipped data (cached)."""
    return build(raw_files())
