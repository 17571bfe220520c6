"""SVG to PNG with resvg (a Rust renderer shipped as a self-contained wheel: no Cairo,
no system libraries, the same pixels on every machine). Text needs a font on the
machine; scripts/install warns when there is none (Debian: fonts-dejavu-core).

The binding is ``svg2png-py``: it keeps one font database per process (the system's
fonts, read once), where ``resvg-py`` took about twice as long for the very same PNG bytes
(issue 21: 0.39 against 0.17 s for a Pax Baltica map, same resvg; checked byte for byte by
tests/maps/test_raster.py).

resvg's own PNG encoder took 40% of a map (66 of 153 ms of CPU for a Pax Baltica map):
gm takes resvg's pixels and writes the PNG itself (:func:`png_rgb`: RGB, no filter,
zlib level 3; 21 ms), the same pixels in a smaller file (176 KB against 230 KB).

Lettering is most of what is left: resvg shapes every ``<text>`` anew, about half a
millisecond each, and a map has 150 of them, most of them the areas' names and
garrisons, the same on every map of a board in one language. So before rasterising,
:func:`with_lettering_tiles` puts in place of each area's texts a picture of them (a tile
the size of the area's box and a margin, drawn once by resvg with those very texts at
the same pixel offsets, kept in a bounded cache keyed by the texts' markup; the legend
likewise, the same on every map that shows the same nations): the same
z-order, the same glyphs, composited once more (a colour channel differs by at most 2
of 255 on the edges of letters; tests/maps/test_raster.py). The SVG a player receives is
untouched; only its rasterising reads the tiles.
"""

from __future__ import annotations

import base64
import logging
import struct
import threading
import xml.etree.ElementTree as ET
import zlib
from collections import OrderedDict
from functools import cache
from typing import Any

log = logging.getLogger(__name__)
WHITE = (255, 255, 255, 255)


@cache
def _fonts() -> Any:
    import svg2png_py

    return svg2png_py.FontDatabase.system()  # the process's own, read once


@cache
def _warn_once() -> None:
    log.warning("svg2png-py is not installed (scripts/install): maps drawn with resvg-py, slower")


def svg_to_png(svg: str, *, tiles: bool = True) -> bytes:
    """The PNG of ``svg`` at its own size, on white (``tiles``: the areas' lettering from
    :func:`with_lettering_tiles`)."""
    try:
        import svg2png_py
    except ImportError:  # an install from before svg2png-py: the same PNG, slower
        _warn_once()
        import resvg_py

        return bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff"))
    rgba, width, height = svg2png_py.svg_to_rgba(with_lettering_tiles(svg) if tiles else svg,
                                                 _fonts(), bg_color=WHITE)
    return png_rgb(rgba, width, height)


def png_rgb(rgba: bytes, width: int, height: int, level: int = 3) -> bytes:
    """An opaque RGBA picture (premultiplied or not: alpha is 255 everywhere) as an RGB PNG:
    each row unfiltered (filter type 0), the whole compressed at zlib ``level``."""
    if len(rgba) != width * height * 4:
        raise ValueError(f"{len(rgba)} bytes is not a {width}x{height} RGBA picture")
    rgb = bytearray(width * height * 3)
    rgb[0::3], rgb[1::3], rgb[2::3] = rgba[0::4], rgba[1::4], rgba[2::4]
    stride, pixels = width * 3, memoryview(rgb)
    rows = b"".join(b"\0" + pixels[y * stride:(y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, RGB, no interlace
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header),
                     _chunk(b"IDAT", zlib.compress(rows, level)), _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


SVG_NS = "http://www.w3.org/2000/svg"
_Q = f"{{{SVG_NS}}}"
ET.register_namespace("", SVG_NS)  # once: registering changes a map other threads read
TILE_MARGIN = 8  # px round an area's box: a long name or an accent may stand out of it
TILES_KEPT = 2048  # a tile is a few KB: a few MB at most


def with_lettering_tiles(svg: str) -> str:
    """``svg`` to rasterise, each area's texts (gm.maps.svg: the ``<text>`` children of a
    ``data-area`` group in the ``areas`` layer) and the legend's contents replaced by a
    tile of them, in place."""
    try:
        root = ET.fromstring(svg.encode("utf-8"))
    except ET.ParseError:
        return svg  # resvg says what is wrong
    family = root.get("font-family", "")
    for layer in root.iter(f"{_Q}g"):
        if layer.get("data-layer") == "areas":
            for group in layer:
                texts = [e for e in group if e.tag == f"{_Q}text"]
                _replace(group, texts, group.find(f"{_Q}rect"), family)
        elif layer.get("data-layer") == "legend":  # the same for every map of its nations
            _replace(layer, list(layer), layer.find(f"{_Q}rect"), family)
    return ET.tostring(root, encoding="unicode")


def _replace(parent: ET.Element, elements: list[ET.Element], box: ET.Element | None,
             family: str) -> None:
    """Put a tile of ``elements`` (siblings in ``parent``, in order) in place of the first,
    remove the others; the tile's window is ``box`` with a margin."""
    if not elements or box is None:
        return
    left = int(float(box.get("x", 0))) - TILE_MARGIN
    top = int(float(box.get("y", 0))) - TILE_MARGIN
    width = int(float(box.get("width", 0))) + 2 * TILE_MARGIN + 2
    height = int(float(box.get("height", 0))) + 2 * TILE_MARGIN + 2
    key = (left, top, width, height, family, tuple(_key(e) for e in elements))
    with _lock:
        href = _tiles.get(key)
        if href is not None:
            _tiles.move_to_end(key)
    if href is None:
        markup = "".join(ET.tostring(e, encoding="unicode") for e in elements)
        href = _tile(left, top, width, height, family, markup)
        with _lock:
            _tiles[key] = href
            while len(_tiles) > TILES_KEPT:
                _tiles.popitem(last=False)
    at = list(parent).index(elements[0])
    for e in elements:
        parent.remove(e)
    parent.insert(at, ET.Element(f"{_Q}image", {
        "x": str(left), "y": str(top), "width": str(width), "height": str(height),
        "href": href, "image-rendering": "optimizeSpeed"}))


def _key(e: ET.Element) -> tuple[Any, ...]:
    """What an element draws: its tag, attributes, text and children, as a hashable key."""
    return (e.tag, tuple(e.attrib.items()), e.text, e.tail and e.tail.strip(),
            tuple(_key(c) for c in e))


_tiles: OrderedDict[tuple[Any, ...], str] = OrderedDict()  # least recently used first
_lock = threading.Lock()


def _tile(left: int, top: int, width: int, height: int, family: str, markup: str) -> str:
    """A transparent PNG (as a data: URL) of ``markup`` seen through the canvas window at
    (left, top): whole pixels, so each glyph falls on the pixels it falls on in the map."""
    import svg2png_py

    tile = (f'<svg xmlns="{SVG_NS}" width="{width}" height="{height}" '
            f'viewBox="{left} {top} {width} {height}" font-family="{_attr(family)}">{markup}</svg>')
    png = bytes(svg2png_py.svg_to_png(tile, _fonts()))
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _attr(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
