"""A game's map layout: schematic coordinates per area, read from TOML data.

``gm/games/<game>/data/map_layout.toml`` (the module's ``map_layout()``)::

    [canvas]
    width = 1300
    height = 1050
    box = { width = 104, height = 44 }
    sea = { width = 128, height = 40 }
    wrap = false           # true for a world map (links round the back)
    source = "reconstructed"

    [colours]              # colour names used by the game's data, as screen colours
    blue = "#4f7cc0"

    [area.skane]           # one per territory, sea zone and off-map box
    x = 412
    y = 780
    source = "reconstructed (approximate geography)"

Coordinates are the centre of the area's box on the canvas. Every value cites
its source like the game's other data files; none is a printed map's.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

DEFAULT_COLOURS = {
    "neutral": "#d9d4c7", "sea": "#cfe3f2", "unknown": "#bdbdbd",
}


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    box: tuple[int, int]
    sea: tuple[int, int]
    positions: dict[str, tuple[int, int]]
    colours: dict[str, str] = field(default_factory=dict)
    wrap: bool = False  # a world map: links longer than half the width go round by the edges

    def colour(self, name: str | None, default: str = "neutral") -> str:
        """A colour name (or #hex) as #hex; unknown names fall back to ``default``."""
        if name and name.startswith("#"):
            return name
        if name and name in self.colours:
            return self.colours[name]
        return self.colours.get(default, DEFAULT_COLOURS.get(default, "#cccccc"))


class LayoutError(ValueError):
    """A layout file that cannot be used."""


@cache
def load_layout(path: Path) -> Layout:
    with path.open("rb") as f:
        raw = tomllib.load(f)
    return parse_layout(raw, str(path))


def parse_layout(raw: dict[str, Any], where: str = "layout") -> Layout:
    problems = check_layout(raw)
    if problems:
        raise LayoutError(f"{where}: " + "; ".join(problems))
    canvas = raw["canvas"]
    box = canvas.get("box", {"width": 104, "height": 44})
    sea = canvas.get("sea", box)
    return Layout(
        width=int(canvas["width"]), height=int(canvas["height"]),
        box=(int(box["width"]), int(box["height"])), sea=(int(sea["width"]), int(sea["height"])),
        positions={k: (int(v["x"]), int(v["y"])) for k, v in raw.get("area", {}).items()},
        wrap=bool(canvas.get("wrap", False)),
        colours={**DEFAULT_COLOURS, **{str(k): str(v) for k, v in raw.get("colours", {}).items()
                                       if k != "source"}},
    )


def check_layout(raw: dict[str, Any], area_ids: set[str] | None = None) -> list[str]:
    """Problems of a layout: missing canvas, areas without coordinates or source, off canvas;
    with ``area_ids``, also areas of the game the layout does not place (and unknown ones)."""
    out: list[str] = []
    canvas = raw.get("canvas")
    if not isinstance(canvas, dict) or not {"width", "height", "source"} <= set(canvas):
        return ["[canvas] needs width, height and source"]
    areas = raw.get("area", {})
    for k, v in areas.items():
        if not {"x", "y", "source"} <= set(v):
            out.append(f"area {k}: needs x, y and source")
        elif not (0 <= v["x"] <= canvas["width"] and 0 <= v["y"] <= canvas["height"]):
            out.append(f"area {k}: ({v['x']}, {v['y']}) is off the canvas")
    if area_ids is not None:
        out += [f"area {a}: not placed" for a in sorted(area_ids - set(areas))]
        out += [f"area {a}: not an area of the game" for a in sorted(set(areas) - area_ids)]
    return out
