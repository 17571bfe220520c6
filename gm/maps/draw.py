"""One map, from a game module and a power's view to SVG text and PNG bytes."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from gm.maps.games import builtin_scene
from gm.maps.layout import load_layout
from gm.maps.raster import svg_to_png
from gm.maps.svg import render_svg

log = logging.getLogger(__name__)


def draw_svg(module: Any, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
             words: Mapping[str, str]) -> str | None:
    """The SVG of ``view`` (None when the game has no map layout or scene)."""
    path = module.map_layout()
    if path is None:
        return None
    scene = module.map_scene(view, events, words)  # a game's own scene wins
    if scene is None:
        scene = builtin_scene(module, view, events, words)
    if scene is None:
        return None
    scene.title, scene.subtitle = words.get("title", ""), words.get("subtitle", "")
    return render_svg(scene, load_layout(path))


def draw_svg_safely(module: Any, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
                    words: Mapping[str, str]) -> str | None:
    """:func:`draw_svg`, but a drawing failure is logged, never raised: a report goes
    out without its picture rather than not at all."""
    try:
        return draw_svg(module, view, events, words)
    except Exception:
        log.exception("map of %s could not be drawn", getattr(module, "name", "?"))
        return None


def svg_from_source(data: bytes) -> bytes:
    """The SVG of a queued report's map (:class:`gm.maps.source.MapSource`), drawn when the
    mail is first sent; a map that cannot be drawn raises (the part is then dropped)."""
    from gm.games import registry
    from gm.maps.source import MapSource

    source = MapSource.from_bytes(data)
    svg = draw_svg(registry.get(source.game), source.view, source.events, source.words)
    if svg is None:
        raise ValueError(f"no map for {source.game}")
    return svg.encode("utf-8")


def draw(module: Any, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
         words: Mapping[str, str]) -> tuple[bytes, str] | None:
    """(PNG, SVG) of the map at once (the archive); None without a map."""
    svg = draw_svg(module, view, events, words)
    return None if svg is None else (svg_to_png(svg), svg)
