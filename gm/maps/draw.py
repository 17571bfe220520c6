"""One map, from a game module and a power's view to SVG text and PNG bytes."""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from gm.maps.games import builtin_scene
from gm.maps.layout import load_layout
from gm.maps.raster import svg_to_png, tree_to_png
from gm.maps.svg import Drawn, render_svg_tree

log = logging.getLogger(__name__)


def draw_svg(module: Any, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
             words: Mapping[str, str]) -> str | None:
    """The SVG of ``view`` (None when the game has no map layout or scene)."""
    drawn = _draw_svg_tree(module, view, events, words)
    return None if drawn is None else drawn[0]


def _draw_svg_tree(module: Any, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
                   words: Mapping[str, str]) -> Drawn | None:
    """:func:`draw_svg`, the tree it was written from and how."""
    path = module.map_layout()
    if path is None:
        return None
    scene = module.map_scene(view, events, words)  # a game's own scene wins
    if scene is None:
        scene = builtin_scene(module, view, events, words)
    if scene is None:
        return None
    scene.title, scene.subtitle = words.get("title", ""), words.get("subtitle", "")
    return render_svg_tree(scene, load_layout(path))


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
    drawn = _draw_svg_tree(registry.get(source.game), source.view, source.events, source.words)
    if drawn is None:
        raise ValueError(f"no map for {source.game}")
    svg = drawn.svg.encode("utf-8")
    _last.drawn = (svg, drawn)
    return svg


_last = threading.local()  # this thread's last SVG from svg_from_source and how it was drawn


def png_from_svg(data: bytes) -> bytes:
    """The PNG of the SVG ``data``: drawn from its tree when it is the SVG this thread drew
    last (a queued report's map.svg, then its map.png: issue 21), else parsed."""
    last, _last.drawn = getattr(_last, "drawn", None), None
    if last is not None and last[0] == data:
        return tree_to_png(last[1].root, last[1].parts, last[1].spans)
    return svg_to_png(data.decode("utf-8"))


def draw(module: Any, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
         words: Mapping[str, str]) -> tuple[bytes, str] | None:
    """(PNG, SVG) of the map at once (the archive); None without a map."""
    svg = draw_svg(module, view, events, words)
    return None if svg is None else (svg_to_png(svg), svg)
