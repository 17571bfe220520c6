"""Schema of the Pax Viking data files (``gm data check``).

Checks every table's fields and types, that every entry cites a ``source``,
that references resolve (regions, winds, posts, homes, fleets, follower
types), that the map is sound (harbor posts open on a sea, river posts sit in
river regions, no border both white and black), that every wind, region, post,
home and ally fleet has its French name (``name_fr``: a French seat reads it,
docs/viking.md "French"), that names, English and French, are unique and hold
no order keyword (a player must be able to write them), and that each
tile set is well formed: types, triggers, effect primitives and modifiers
(docs/viking.md). The starter set must give 12 tiles per player for 2-6
players, use every primitive, and leave enough ventures outside each pile for
the starting venture posts (Set-up E, F).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from gm.games.viking.data import (
    MODIFIER_KINDS,
    PRIMITIVES,
    TILE_TYPES,
    TRIGGERS,
    build,
    raw_files,
)
from gm.orders.names import fold, strip_accents
from gm.resources import grammar_root

REQUIRED: dict[str, dict[str, type]] = {
    "wind": {"id": str, "name": str, "name_fr": str, "color": str},
    "region": {"id": str, "name": str, "name_fr": str, "type": str, "wind": str},
    "post": {"id": str, "name": str, "name_fr": str, "region": str, "kind": str},
    "border": {"between": list, "color": str},
    "home": {"id": str, "name": str, "name_fr": str, "wind": str, "adjacent": list},
    "ally_fleet": {"id": str, "name": str, "name_fr": str, "count": int, "at": str},
    "jarl": {"id": str, "name": str, "home": str},
    "card": {"id": str, "name": str, "difficulty": str, "requires": list},
    "tile": {"number": int, "name": str, "type": str, "location": str, "trigger": str},
}
RULE_TABLES = ("follower_types", "colors", "starting_silfr", "starting_ventures",
               "tiles_per_player", "custom_starter", "track_costs", "hand_limit", "max_actions",
               "journey_steps", "longships", "followers_per_type", "home_markers",
               "advocate_slots", "god_slots", "income_per_type", "income_max", "victory_cards",
               "difficulties", "althing_share", "trade_counters")
FRENCH_NAME_WORDS = frozenset({"de"})
"""Keywords a French name may hold ("Golfe de Botnie"): "de" opens the first place of a
journey or a jarldom order only, never follows a name, so a name read word by word goes on
past it (tests/games/viking/test_viking_french_places.py reads every French name back)."""
CARD_KINDS = {"followers": ("type", "count"), "total_followers": ("count",),
              "trade_centers": ("count",), "key_trade_centers": ("count",),
              "allies": ("count",), "duchies": ("count",), "winds": ("count",),
              "influence": ("count",), "silfr": ("count",), "jarlboard_tiles": ("count",)}


def order_keywords() -> set[str]:
    """Every keyword of orders_grammar/viking.lark (names must not contain one)."""
    text = (grammar_root() / "viking.lark").read_text(encoding="utf-8")
    return {w.lower() for w in re.findall(r'"([A-Za-z\'-]+)"i', text)}


def check_all() -> list[str]:
    """Problems in the shipped data (empty when all is well)."""
    try:
        files = raw_files()
    except Exception as exc:  # a TOML syntax error names the file
        return [f"cannot read the data: {exc}"]
    return check(files)


def check(files: dict[str, dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    for name in ("board.toml", "jarls.toml", "victory.toml", "rules.toml"):
        if name not in files:
            problems.append(f"{name}: missing")
    if problems:
        return problems
    for fname, content in files.items():
        for table, rows in content.items():
            if table in REQUIRED:
                problems += _fields(fname, table, rows)
    rules = files["rules.toml"]
    for key in RULE_TABLES:
        if key not in rules or "value" not in rules[key] or "source" not in rules[key]:
            problems.append(f"rules.toml: [{key}] needs value and source")
    if problems:
        return problems
    return problems + _references(files) + _aliases(files) + _articles(files)


def _articles(files: dict[str, dict[str, Any]]) -> list[str]:
    """board.toml: each sea its French article (``article_fr``, « le » or « la »: French
    says « dans le Golfe de Finlande », :meth:`Data.the_said`); no other region one."""
    out = []
    for row in files["board.toml"].get("region", ()):
        article = row.get("article_fr")
        if row["type"] == "sea" and article not in ("le", "la"):
            out.append(f"board.toml: sea {row['id']!r} needs article_fr 'le' or 'la'")
        elif row["type"] != "sea" and article is not None:
            out.append(f"board.toml: {row['id']!r} is no sea: article_fr is for seas")
    return out


def _aliases(files: dict[str, dict[str, Any]]) -> list[str]:
    """aliases.toml: each key a region or post, each alias one place's only (issue 17)."""
    from gm.orders.names import fold

    board = files["board.toml"]
    names: dict[str, str] = {}
    for row in (*board.get("region", ()), *board.get("post", ())):
        for n in (row["name"], row.get("name_fr", "")):
            if n:
                names.setdefault(fold(n), row["id"])
    out = []
    for place, aliases in files.get("aliases.toml", {}).get("place", {}).items():
        if place not in {r["id"] for r in (*board.get("region", ()), *board.get("post", ()))}:
            out.append(f"aliases.toml: {place!r} is no region or post")
            continue
        for alias in aliases:
            owner = names.setdefault(fold(alias), place)
            if owner != place:
                out.append(f"aliases.toml: {alias!r} of {place!r} already names {owner!r}")
    return out


def _fields(fname: str, table: str, rows: Any) -> list[str]:
    out = []
    for i, row in enumerate(rows):
        label = f"{fname}: {table} #{i + 1} ({row.get('id') or row.get('name', '?')})"
        for key, typ in REQUIRED[table].items():
            if key == "name_fr":
                if not isinstance(row.get(key), str) or not row[key].strip():
                    out.append(f"{label}: no French name 'name_fr' (a French seat reads it; "
                               "the English name where French has no name of its own)")
            elif not isinstance(row.get(key), typ):
                out.append(f"{label}: '{key}' must be a {typ.__name__}")
        if not isinstance(row.get("source"), str) or not row["source"].strip():
            out.append(f"{label}: no source")
        if table == "tile" and not isinstance(row.get("once", False), bool):
            out.append(f"{label}: 'once' must be true or false")
    return out


def _references(files: dict[str, dict[str, Any]]) -> list[str]:
    out: list[str] = []
    data = build(files)
    types = set(data.rule("follower_types"))
    winds = set(data.winds)
    for r in data.regions.values():
        if r.type not in ("sea", "river", "harbor"):
            out.append(f"region {r.id}: unknown type {r.type!r}")
        if r.wind not in winds:
            out.append(f"region {r.id}: unknown wind {r.wind!r}")
    for p in data.posts.values():
        region = data.regions.get(p.region)
        if region is None:
            out.append(f"post {p.id}: unknown region {p.region!r}")
            continue
        if p.kind not in ("empty", "trade_center", "ally"):
            out.append(f"post {p.id}: unknown kind {p.kind!r}")
        if p.harbor:
            if data.regions.get(p.harbor, None) is None or data.regions[p.harbor].type != "sea":
                out.append(f"post {p.id}: harbor {p.harbor!r} is not a sea region")
            if region.type != "harbor":
                out.append(f"post {p.id}: a harbor post must be in a harbor region")
        elif region.type != "river":
            out.append(f"post {p.id}: a post without a harbor must be in a river region")
        if p.kind != "empty":
            if p.follower not in types:
                out.append(f"post {p.id}: follower {p.follower!r} is not a follower type")
            if p.cost < 0 or p.followers < 1:
                out.append(f"post {p.id}: cost and followers must be positive")
        if p.key and p.followers != 2:
            out.append(f"post {p.id}: a key trade center takes 2 followers (PARLEY)")
        if p.ally_ships and p.ally_ships not in data.fleets:
            out.append(f"post {p.id}: unknown ally fleet {p.ally_ships!r}")
        out += [f"post {p.id}: {e}" for e in _effects(p.gains) + _modifiers(p.modifiers)]
    if sum(1 for p in data.posts.values() if p.kind == "trade_center") != 7:
        out.append("board: there must be 7 trade centers (Components)")
    keys = {p.name for p in data.posts.values() if p.key}
    if keys != {"Miklagard", "Chang'an", "India", "Damascus"}:
        out.append(f"board: key trade centers are {sorted(keys)} (Rosetta Stone: "
                   "Miklagard, Chang'an, India, Damascus)")
    for pair in data.white | data.black:
        for end in pair:
            if end not in data.regions:
                out.append(f"border {sorted(pair)}: unknown region {end!r}")
            elif data.regions[end].type == "harbor":
                out.append(f"border {sorted(pair)}: harbor regions have no borders")
        if len(pair) != 2:
            out.append(f"border {sorted(pair)}: needs two different regions")
    for pair in data.white & data.black:
        out.append(f"border {sorted(pair)}: both white and black")
    for h in data.homes.values():
        out += [f"home {h.id}: unknown neighbour {a!r}" for a in h.adjacent
                if a not in data.regions and a not in data.posts]
    for f in data.fleets.values():
        if f["at"] not in data.regions:
            out.append(f"ally_fleet {f['id']}: unknown region {f['at']!r}")
    for j in data.jarls.values():
        if j.home not in data.homes:
            out.append(f"jarl {j.id}: unknown home {j.home!r}")
        out += [f"jarl {j.id}: {e}" for e in _modifiers(j.modifiers)]
    if len(data.jarls) != 9:
        out.append("jarls.toml: there are 9 jarlboards (Components)")
    levels = data.rule("difficulties")
    per_level = Counter(c.difficulty for c in data.cards.values())
    for c in data.cards.values():
        if c.difficulty not in levels:
            out.append(f"card {c.id}: unknown difficulty {c.difficulty!r}")
        for req in c.requires:
            need = CARD_KINDS.get(req.get("kind", ""))
            if need is None:
                out.append(f"card {c.id}: unknown requirement {req.get('kind')!r}")
            elif any(k not in req for k in need) or (
                    "type" in need and req["type"] not in types):
                out.append(f"card {c.id}: requirement {req} needs {', '.join(need)}")
    for level in levels:
        if per_level[level] < data.rule("victory_cards"):
            out.append(f"victory.toml: fewer than 4 {level} cards (Set-up D)")
    out += _names(data)
    out += _tiles(data)
    return out


def _effects(effects: Any) -> list[str]:
    out = []
    for e in effects:
        params = PRIMITIVES.get(e.get("do", ""))
        if params is None:
            out.append(f"unknown effect {e.get('do')!r} (primitives: {', '.join(PRIMITIVES)})")
            continue
        for key, value in e.items():
            if key == "do":
                continue
            spec = params.get(key)
            if spec is None:
                out.append(f"effect {e['do']}: unknown parameter {key!r}")
            elif isinstance(spec, tuple) and value not in spec:
                out.append(f"effect {e['do']}: {key} must be one of {', '.join(spec)}")
            elif spec is int and (not isinstance(value, int) or value < 1):
                out.append(f"effect {e['do']}: {key} must be a positive number")
        needed = [k for k, s in params.items() if s is int]
        out += [f"effect {e['do']}: needs {k}" for k in needed if k not in e]
    return out


def _modifiers(mods: Any) -> list[str]:
    out = []
    for m in mods:
        actions = MODIFIER_KINDS.get(m.get("kind", ""))
        if actions is None:
            out.append(f"unknown modifier kind {m.get('kind')!r}")
        elif m.get("action") not in actions:
            out.append(f"modifier {m['kind']}: action must be one of {', '.join(actions)}")
        if not isinstance(m.get("amount"), int):
            out.append(f"modifier {m.get('kind')}: amount must be a number")
    return out


def _names(data: Any) -> list[str]:
    """Names, English and French (``name_fr``), each naming one thing and holding no order
    keyword (a French name may hold :data:`FRENCH_NAME_WORDS`)."""
    out = []
    keywords = order_keywords()
    seen: dict[str, str] = {}
    named: list[tuple[str, str, str, frozenset[str]]] = []
    for kind, table in (("region", data.regions), ("post", data.posts), ("home", data.homes)):
        named += [(kind, x.id, x.name, frozenset()) for x in table.values()]
        named += [(kind, x.id, x.name_fr, FRENCH_NAME_WORDS) for x in table.values() if x.name_fr]
    named += [("tile", t.id, t.name, frozenset()) for t in data.tiles.values()]
    named += [("tile", t.id, t.name_fr, FRENCH_NAME_WORDS) for t in data.tiles.values() if t.name_fr]
    for kind, ident, name, allowed in named:
        key = fold(name)
        owner = f"{kind} {ident}"
        if key in seen and seen[key] != owner and not (
                kind == "tile" and seen[key].startswith("tile")):
            out.append(f"{owner}: name {name!r} already used by {seen[key]}")
        seen.setdefault(key, owner)
        words = re.split(r"\s+", strip_accents(name).lower())  # keywords are read accent-free
        bad = sorted({w for w in words if w in keywords - allowed})
        if bad:
            out.append(f"{owner}: name {name!r} holds the order keyword(s) {bad}")
    return out


def _tiles(data: Any) -> list[str]:
    out = []
    types = set(data.rule("follower_types"))
    locations = set(data.regions) | set(data.winds) | {"anywhere"}
    for t in data.tiles.values():
        label = f"tile {t.id} ({t.name})"
        if t.type not in TILE_TYPES:
            out.append(f"{label}: unknown type {t.type!r}")
        if t.trigger not in TRIGGERS:
            out.append(f"{label}: unknown trigger {t.trigger!r}")
        if t.location not in locations:
            out.append(f"{label}: unknown location {t.location!r}")
        if t.type == "event":
            if t.trigger not in ("immediate", "althing"):
                out.append(f"{label}: an event is immediate or althing")
        else:
            if t.follower not in types:
                out.append(f"{label}: needs a follower type")
            if t.trigger == "althing":
                out.append(f"{label}: only events go to the Althing")
        if t.type == "venture":
            region = data.regions.get(t.location)
            if region is None or not any(p.kind == "empty" for p in data.posts_in(t.location)):
                out.append(f"{label}: a venture names a region with an empty post")
        if t.once and t.trigger not in ("activate", "persistent"):
            out.append(f"{label}: once is for activate or persistent abilities "
                       "(the others happen once anyway)")
        if t.trigger == "persistent" and not t.modifiers:
            out.append(f"{label}: a persistent ability needs modifiers")
        if t.trigger != "persistent" and not t.effects:
            out.append(f"{label}: needs effects")
        out += [f"{label}: {e}" for e in _effects(t.effects) + _modifiers(t.modifiers)]
    starter = [t for t in data.tiles.values() if t.tileset == "starter"]
    if starter:
        out += _starter(data, starter)
    return out


def _starter(data: Any, tiles: list[Any]) -> list[str]:
    out = []
    per = data.rule("tiles_per_player")
    marks = Counter(t.starter for t in tiles)
    for n in range(2, 7):
        size = sum(c for m, c in marks.items() if m is not None and m <= n)
        if size != per * n:
            out.append(f"starter set: {size} tiles for {n} players, expected {per * n}")
        outside = {t.location for t in tiles if t.type == "venture" and (t.starter or 99) > n}
        need = data.rule("starting_ventures")[str(n)]
        if len(outside) < need:
            out.append(f"starter set: {n} players need {need} ventures of distinct regions "
                       "outside the pile (Set-up F)")
    used = {e["do"] for t in tiles for e in t.effects}
    out += [f"starter set: primitive {p!r} is never used" for p in PRIMITIVES if p not in used]
    if not any(t.modifiers for t in tiles):
        out.append("starter set: no persistent modifier")
    if not any(t.once for t in tiles):
        out.append("starter set: no ONCE ability")
    if not any(t.trigger == "althing" for t in tiles):
        out.append("starter set: no Althing event")
    return out
