"""Turn checked TOML tables into the frozen model of :mod:`gm.games.baltica.board`.

Only :func:`gm.games.baltica.board.build_board` calls this, after the schema check.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from gm.games.baltica.board import (
    BlockKind,
    BlockType,
    Board,
    Border,
    Garrison,
    Limits,
    Nation,
    Placement,
    Rating,
    Scenario,
    Season,
    SeaZone,
    Side,
    Sources,
    Star,
    Terrain,
    Territory,
    VictoryLevel,
)


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


def _sources(v: Mapping[str, Any]) -> Sources:
    """An entry's ``source``: a string cites every field, a table cites field by field."""
    source = v.get("source", {})
    return _frozen({"default": source} if isinstance(source, str) else source)


def build(ruleset: str, raw: Mapping[str, Mapping[str, Any]]) -> Board:
    """The typed board of already-checked raw data."""
    mapdata = raw.get("map.toml", {})
    territories = {k: _territory(k, v) for k, v in mapdata.get("territory", {}).items()}
    nations = {
        k: _nation(k, v, tuple(t.id for t in territories.values() if t.nation == k))
        for k, v in raw.get("nations.toml", {}).get("nation", {}).items()
    }
    limits = Limits.read(raw.get("tables.toml", {}))
    blocks = {k: _block(k, v, limits)
              for k, v in raw.get("blocks.toml", {}).get("block", {}).items()}
    scenarios = raw.get("scenarios.toml", {}).get("scenario", {})
    return Board(
        ruleset=ruleset,
        nations=_frozen(nations),
        territories=_frozen(territories),
        seas=_frozen({k: _sea(k, v) for k, v in mapdata.get("sea", {}).items()}),
        borders=tuple(_border(v) for v in mapdata.get("border", [])),
        blocks=_frozen(blocks),
        scenarios=_frozen({k: _scenario(k, v, blocks) for k, v in scenarios.items()}),
        tables=_frozen(raw.get("tables.toml", {})),
    )


def _nation(key: str, v: Mapping[str, Any], territories: tuple[str, ...]) -> Nation:
    activation = v.get("activation", {})
    return Nation(
        id=key,
        name=v["name"],
        side=Side(v["side"]),
        major=v.get("major", False),
        colour=v["colour"],
        capital=v.get("capital"),
        territories=territories,
        proper=tuple(v.get("proper", ())),
        aliases=tuple(v.get("aliases", ())),
        active_at_start=activation.get("active_at_start", True),
        rp_level=v.get("rp_level"),
        pool=v.get("pool") or None,
        activation=_frozen(activation),
        deploy=tuple(v.get("deploy", ())),
        deploy_fleets=tuple(v.get("deploy_fleets", ())),
        self_sufficient=v.get("self_sufficient"),
        never_enter=tuple(v.get("never_enter", ())),
        only_enter=tuple(v.get("only_enter", ())),
        attacks_only_in=tuple(v.get("attacks_only_in", ())),
        attacks_with=tuple(v.get("attacks_with", ())),
        words=_frozen(v.get("words", {})),
        sources=_sources(v),
    )


def _garrison(g: Mapping[str, Any] | None) -> Garrison | None:
    if not g:
        return None
    return Garrison(
        g["name"], g["value"], g.get("port", False), g.get("harbor", False), tuple(g.get("aliases", ()))
    )


def _territory(key: str, v: Mapping[str, Any]) -> Territory:
    return Territory(
        id=key,
        name=v["name"],
        nation=v.get("nation"),
        forage=v.get("forage"),
        garrison=_garrison(v.get("garrison")),
        capital=v.get("capital", False),
        sea=v.get("sea"),
        transit=v.get("transit", False),
        box=v.get("box", False),
        regions=tuple(v.get("regions", ())),
        aliases=tuple(v.get("aliases", ())),
        upgrade=_garrison(v.get("upgrade")),
        sources=_sources(v),
    )


def _sea(key: str, v: Mapping[str, Any]) -> SeaZone:
    return SeaZone(
        id=key,
        name=v["name"],
        adjacent=tuple(v.get("adjacent", ())),
        aliases=tuple(v.get("aliases", ())),
        sources=_sources(v),
        words=_frozen(v.get("words", {})),
    )


def _border(v: Mapping[str, Any]) -> Border:
    return Border(
        a=v["a"],
        b=v["b"],
        terrain=Terrain(v.get("terrain", "normal")),
        blocked=v.get("blocked", False),
        lake=v.get("lake"),
        sources=_sources(v),
    )


def _block(key: str, v: Mapping[str, Any], limits: Limits) -> BlockType:
    """A block label; a fleet's movement is 9.1's, not its label's: "Fleet blocks may move
    up to six sea zones as an action (Exception: the Russian galley fleet may move up to
    only three sea zones)" (tables.toml ``limits.fleet_movement``, ``galley_movement``)."""
    movement: int
    if v["kind"] == BlockKind.FLEET.value:
        movement = limits.galley_movement if v.get("galley", False) else limits.fleet_movement
    else:
        movement = v["movement"]
    return BlockType(
        id=key,
        name=v["name"],
        nation=v["nation"],
        kind=BlockKind(v["kind"]),
        max_strength=v["max_strength"],
        rating=Rating.parse(v["rating"]),
        movement=movement,
        trains=v.get("trains", 0),
        royal=v.get("royal", False),
        red_dot=v.get("red_dot", False),
        star=Star(v["star"]) if v.get("star") else None,
        star_pair=v.get("star_pair"),
        galley=v.get("galley", False),
        aliases=tuple(v.get("aliases", ())),
        deploy=tuple(v.get("deploy", ())),
        deploy_adjacent=v.get("deploy_adjacent", False),
        deploy_else=tuple(v.get("deploy_else", ())),
        sources=_sources(v),
    )


def _victory(r: Mapping[str, Any]) -> VictoryLevel:
    return VictoryLevel(
        result=r["result"],
        condition=r["condition"],
        winner=r.get("winner", ""),
        level=r.get("level", ""),
        rp_min=r.get("rp_min"),
        rp_max=r.get("rp_max"),
        occupied=tuple(r.get("occupied", ())),
        karl_xii_lost=r.get("karl_xii_lost", False),
    )


def _scenario(key: str, v: Mapping[str, Any], blocks: Mapping[str, BlockType]) -> Scenario:
    """A scenario; blocks are set up at full strength unless ``reduced`` says (3CG 12.0)."""
    reduced: Mapping[str, int] = v.get("reduced", {})
    placements = tuple(
        Placement(block, location, reduced.get(block, blocks[block].max_strength))
        for location, placed in v.get("setup", {}).items()
        for block in placed
    )
    return Scenario(
        id=key,
        title=v["title"],
        start_year=v["start"]["year"],
        start_season=Season(v["start"]["season"]),
        end_year=v["end"]["year"],
        end_season=Season(v["end"]["season"]),
        placements=placements,
        rp_levels=_frozen(v.get("rp_levels", {})),
        controlled=_frozen(v.get("controlled", {})),
        active=tuple(v.get("active", ())),
        first_turn_actions=_frozen(v.get("first_turn_actions", {})),
        special=_frozen(v.get("special", {})),
        victory=tuple(_victory(r) for r in v.get("victory", ())),
        out_of_play=tuple(v.get("out_of_play", ())),
        allegiance=_frozen(v.get("allegiance", {})),
        notes=v.get("notes", ""),
        sources=_sources(v),
    )
