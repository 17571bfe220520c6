"""SVG to PNG with resvg (a Rust renderer shipped as a self-contained wheel: no Cairo,
no system libraries, the same pixels on every machine). Text needs a font on the
machine; scripts/install warns when there is none (Debian: fonts-dejavu-core).

The binding is ``svg2png-py``: it keeps one font database per process (the system's
fonts, read once), where ``resvg-py`` took about twice as long for the very same PNG bytes
(issue 21: 0.39 against 0.17 s for a Pax Baltica map, same resvg; checked byte for byte by
tests/maps/test_raster.py).

resvg's own PNG encoder took 40% of a map (66 of 153 ms of CPU for a Pax Baltica map):
gm takes resvg's pixels and writes the PNG itself (:func:`png_opaque`: no filter,
zlib level 3; 21 ms), the same pixels in a smaller file (176 KB against 230 KB). It
writes them as they come, RGBA (colour type 6, every alpha 255): dropping the alpha
channel (three strided copies) cost 5 ms of a Baltica map's ~8 ms of PNG for a file 5%
smaller (204 KB against 215 KB at ISA-L's level 1).

Lettering is most of what is left: resvg shapes every ``<text>`` anew, about half a
millisecond each, and a map has 150 of them, most of them the areas' names and
garrisons, the same on every map of a board in one language. So before rasterising,
:func:`with_lettering_tiles` puts in place of each area's texts a picture of them (a tile
the size of the area's box and a margin, drawn once by resvg with those very texts at
the same pixel offsets, kept in a bounded cache keyed by the texts' markup; the legend
likewise, the same on every map that shows the same nations): the same
z-order, the same glyphs, composited once more (a colour channel differs by at most 2
of 255 on the edges of letters; tests/maps/test_raster.py). The SVG a player receives is
untouched; only its rasterising reads the tiles. A report's map is rasterised from the
very pieces its SVG was written in, pictures put in place of the texts' markup
(:func:`lettered_text`), not from its tree changed and written again.

The texts left (the pieces' chips, the marks' letters, "+n more", the title bar) cost as
much again: resvg took 13 of a Baltica map's 27 ms for its last 16 texts, most of a
millisecond each. All but the title bar's first are sprites (:func:`_sprite`): a text is drawn
once where it first stands and cropped to its pixels, kept keyed by its markup without its
position (but with the position's fraction of a pixel), and put at any whole-pixel place:
the same chip "2 × blocks" under any area, the same letter on any mark. A glyph drawn at
another whole-pixel place may round its outline otherwise in resvg's 32-bit floats: a few
pixels may differ by more than the tiles' 2 of 255 (tests/maps/test_raster.py). The title
bar's first text names the game and the power: different on every map, a sprite of it
would cost more than it saves; its first words, the game's name ("Pax Baltica, "), are a
sprite, and the rest a text placed where resvg places it in the whole title
(:func:`_split_title`). Its second names the phase and the deadline,
the same on every power's map of a phase and on every game with that deadline (the
storm's thousand): a sprite, drawn where it stands. Each glyph resvg draws opens and
maps the font file anew (fontdb reads a system font from its file for each glyph: ~4 page
faults each), so the deadline's 68 glyphs were ~3 ms of a map's CPU, most of it the
kernel's.

A map's big buffers (resvg's canvas and the copy it hands back, 5.7 MB each for a
1300x1098 map; the RGB rows; the PNG) are each above glibc's threshold for a fresh
``mmap``: every map paid for its buffers' pages anew, the kernel zeroing and mapping
about 2,800 pages (5 of a bare canvas's 5.2 ms of CPU were the kernel's, 9 of a report
mail's ~40). :func:`_keep_freed_memory` has glibc serve them from its heap and keep what
is freed for the next map: the bare canvas 0.23 ms.

The PNG is compressed with ISA-L (``isal``, a self-contained wheel) at its level 1 when it
is installed: 1.4 ms against zlib's 7.8 ms at level 3 for a Baltica map, a file 16% larger
(204 KB against 176 KB), the same pixels; without it, zlib at level 3 as before.
"""

from __future__ import annotations

import base64
import copy
import ctypes
import logging
import math
import platform
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Literal

from gm.kept import Kept

log = logging.getLogger(__name__)
WHITE = (255, 255, 255, 255)


@cache
def _fonts() -> Any:
    import svg2png_py

    _keep_freed_memory()
    return svg2png_py.FontDatabase.system()  # the process's own, read once


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's malloc.h
MMAP_ABOVE = 32 << 20  # glibc's largest: a buffer this big is mapped anew, as before
TRIM_ABOVE = 64 << 20  # at most this much freed memory kept at the heap's top


@cache
def _keep_freed_memory() -> bool:
    """Once per process, on glibc: serve buffers up to :data:`MMAP_ABOVE` from the heap
    (rather than a fresh ``mmap`` each, zeroed page by page by the kernel: glibc's default
    above 128 KB until a bigger block is freed) and keep up to :data:`TRIM_ABOVE` freed at
    its top, so the next map reuses the last map's pages. True if glibc took both."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_ABOVE)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_ABOVE))


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
    return png_opaque(rgba, width, height)


def tree_to_png(root: ET.Element, parts: list[str] | None = None,
                spans: Mapping[ET.Element, tuple[int, int]] | None = None) -> bytes:
    """:func:`svg_to_png` of the document gm.maps.svg built as ``root`` (the tree the SVG
    attached to the mail was written from, so it is not parsed again). With the ``parts``
    and ``spans`` it was written in (gm.maps.svg.written) the text resvg reads is those
    with pictures in place of the texts (:func:`lettered_text`); without, ``root`` is
    changed (:func:`lettering_tiles`) and written again."""
    try:
        import svg2png_py
    except ImportError:
        return svg_to_png(ET.tostring(root, encoding="unicode"))
    from gm.maps.svg import to_text

    if parts is not None and spans is not None:
        text = lettered_text(root, parts, spans)
    else:
        lettering_tiles(root)
        text = to_text(root)
    rgba, width, height = svg2png_py.svg_to_rgba(text, _fonts(),
                                                 bg_color=None if _covered(root) else WHITE)
    return png_opaque(rgba, width, height)


_OPAQUE = re.compile(r"#[0-9a-fA-F]{6}")


def _covered(root: ET.Element) -> bool:
    """Whether the first thing ``root`` draws is an opaque rectangle over its whole canvas
    (gm.maps.svg's background): then the white under it is not painted first (a 1300 px
    map: 1.4 million pixels less to fill, the same picture)."""
    q = root.tag[:-3] if root.tag.endswith("svg") else _Q
    first = next((e for e in root if e.tag not in (f"{q}title", f"{q}desc", f"{q}defs")), None)
    if first is None or first.tag != f"{q}rect" or \
            root.get("viewBox", f"0 0 {root.get('width')} {root.get('height')}").split() != \
            ["0", "0", root.get("width"), root.get("height")]:
        return False
    wanted = {"x": "0", "y": "0", "width": root.get("width"), "height": root.get("height")}
    return (set(first.attrib) == {*wanted, "fill"} and all(first.get(k) == v for k, v in wanted.items())
            and _OPAQUE.fullmatch(first.get("fill", "")) is not None)


@cache
def _fast_deflate() -> Callable[[bytes | bytearray], bytes]:
    """ISA-L's zlib stream at its level 1 when ``isal`` is installed, else zlib's level 3."""
    try:
        from isal import isal_zlib
    except ImportError:
        return lambda data: zlib.compress(data, 3)
    return lambda data: isal_zlib.compress(data, 1)


def png_opaque(rgba: bytes, width: int, height: int, level: int | None = None) -> bytes:
    """An opaque RGBA picture (alpha 255 everywhere, so premultiplied or not is the same)
    as an RGBA PNG: each row unfiltered (filter type 0), the whole compressed at zlib
    ``level``, or by default with :func:`_fast_deflate`."""
    if len(rgba) != width * height * 4:
        raise ValueError(f"{len(rgba)} bytes is not a {width}x{height} RGBA picture")
    return _png(rgba, width, height, 6, level)


def _png(pixels: bytes | bytearray, width: int, height: int, colour: int,
         level: int | None = None) -> bytes:
    """A PNG of 8-bit ``pixels`` (``colour``: 2 RGB, 6 RGBA), rows unfiltered."""
    stride, view = width * (3 if colour == 2 else 4), memoryview(pixels)
    parts: list[bytes | memoryview] = [b"\0"] * (2 * height)  # each row after its filter byte, 0
    parts[1::2] = [view[i:i + stride] for i in range(0, stride * height, stride)]
    rows = b"".join(parts)  # one copy (a bytearray filled row by row: 1.4 against 0.5 ms)
    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)  # no interlace
    data = _fast_deflate()(rows) if level is None else zlib.compress(rows, level)
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header), _chunk(b"IDAT", data),
                     _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


SVG_NS = "http://www.w3.org/2000/svg"
_Q = f"{{{SVG_NS}}}"
ET.register_namespace("", SVG_NS)  # once: registering changes a map other threads read
TILE_MARGIN = 8  # px round an area's box: a long name or an accent may stand out of it
Picture = tuple[int, int, int, int, str]
"""A drawn tile or sprite: (x, y, width, height, data: URL of its PNG) on the canvas."""

TILES_KEPT = 2048  # a tile is a few KB: a few MB at most
SPRITES_KEPT = 4096  # a sprite is one short text, under 2 KB: 8 MB at most


# the areas' lettering and the legend: (window, texts) -> picture
_tiles: Kept[tuple[Any, ...], Picture] = Kept(TILES_KEPT)
# any other text: markup less position -> (dx, dy, w, h, URL), False when it stays as text
_sprites: Kept[tuple[Any, ...], Picture | Literal[False]] = Kept(SPRITES_KEPT)


def with_lettering_tiles(svg: str) -> str:
    """``svg`` to rasterise, each area's texts (gm.maps.svg: the ``<text>`` children of a
    ``data-area`` group in the ``areas`` layer) and the legend's contents replaced by a
    tile of them, every other text but the title bar's name by a sprite of it, in place."""
    try:
        root = ET.fromstring(svg.encode("utf-8"))
    except ET.ParseError:
        return svg  # resvg says what is wrong
    lettering_tiles(root)
    return ET.tostring(root, encoding="unicode")


def lettering_tiles(root: ET.Element) -> None:
    """:func:`with_lettering_tiles` on a document's tree: parsed (its tags in the SVG
    namespace) or as gm.maps.svg builds it (plain tags, an ``xmlns`` attribute). In the
    title bar only the deadline (``data-role="deadline"``) is a sprite."""
    q = root.tag[:-3] if root.tag.endswith("svg") else _Q
    for parent, elements, (x, y, w, h, href), after in _lettering(root):
        at = list(parent).index(elements[0])
        for e in elements:
            parent.remove(e)
        if after is not None:
            parent.insert(at, after)
        if href:
            parent.insert(at, _image(x, y, w, h, href, q))


def lettered_text(root: ET.Element, parts: list[str], spans: Mapping[ET.Element, tuple[int, int]]) -> str:
    """:func:`lettering_tiles` on the text ``root`` was written to (gm.maps.svg.written:
    ``parts``, and where each element's markup stands among them, its tail left out), the
    tree left as it is: each picture's markup in place of the first element it stands
    for, the others' markup left out (issue 21: the tree changed was written again in full,
    1.4 ms a Baltica map). The text differs from the changed tree's only in the blanks
    between elements, which draw nothing."""
    from gm.maps.svg import to_text

    out = list(parts)
    for _, elements, (x, y, w, h, href), after in _lettering(root):
        for i, e in enumerate(elements):
            start, end = spans[e]
            out[start:end] = [""] * (end - start)
            if i == 0 and href:
                out[start] = (f'<image x="{x}" y="{y}" width="{w}" height="{h}" href="{href}" '
                              'image-rendering="optimizeSpeed" />')
            if i == 0 and after is not None:
                out[start] += to_text(after)
    return "".join(out)


Lettering = tuple[ET.Element, list[ET.Element], Picture, ET.Element | None]
"""A parent, the elements of it that a picture stands for (in order), the picture, put in
place of the first (nothing when its URL is empty: they draw nothing), and an element to
put after it (the rest of a title drawn partly from a sprite: :func:`_split_title`)."""


def _lettering(root: ET.Element) -> list[Lettering]:
    """What :func:`lettering_tiles` changes, in the order it changes it, ``root`` left as
    it is."""
    q = root.tag[:-3] if root.tag.endswith("svg") else _Q
    family = root.get("font-family", "")
    layers = [g for g in root.iter(f"{q}g") if g.get("data-layer")]
    out: list[Lettering] = []
    for layer in layers:
        if layer.get("data-layer") == "areas":
            for group in layer:
                texts = [e for e in group if e.tag == f"{q}text"]
                _replace(out, group, texts, group.find(f"{q}rect"), family)
        elif layer.get("data-layer") == "legend":  # the same for every map of its nations
            _replace(out, layer, list(layer), layer.find(f"{q}rect"), family)
    tiled = {e for _, elements, _, _ in out for e in elements}
    for layer in layers:
        if not _plain(layer, q):
            continue
        if layer.get("data-layer") != "title":
            _sprite_texts(out, layer, family, _sprites, q, tiled)
            continue
        for text in [e for e in layer if e.tag == f"{q}text"]:
            if text.get("data-role") == "deadline":
                _sprite(out, layer, text, family, _sprites)
            else:  # the game's name from a sprite, its number and the power a text
                _split_title(out, layer, text, family)
    return out


def _plain(group: ET.Element, q: str) -> bool:
    """Whether ``group`` changes nothing of how its texts are drawn (only data-* attributes)."""
    return group.tag == f"{q}g" and all(k.startswith("data-") for k in group.attrib)


def _replace(out: list[Lettering], parent: ET.Element, elements: list[ET.Element],
             box: ET.Element | None, family: str) -> None:
    """A tile of ``elements`` (siblings in ``parent``, in order) in place of the first, the
    others removed; the tile is what they draw in the window of ``box`` with a margin,
    cropped to its pixels."""
    if not elements or box is None:
        return
    left = int(float(box.get("x", 0))) - TILE_MARGIN
    top = int(float(box.get("y", 0))) - TILE_MARGIN
    width = int(float(box.get("width", 0))) + 2 * TILE_MARGIN + 2
    height = int(float(box.get("height", 0))) + 2 * TILE_MARGIN + 2
    key = (left, top, width, height, family, tuple(_key(e) for e in elements))
    tile = _tiles.get(key)
    if tile is None:
        markup = "".join(ET.tostring(e, encoding="unicode") for e in elements)
        tile = _picture(markup, family, left, top, width, height, clip=True)
        assert tile is not None  # clip: cut at the window's edge, never left out
        _tiles.put(key, tile)
    out.append((parent, elements, tile, None))


def _image(left: int, top: int, width: int, height: int, href: str, q: str) -> ET.Element:
    return ET.Element(f"{q}image", {
        "x": str(left), "y": str(top), "width": str(width), "height": str(height),
        "href": href, "image-rendering": "optimizeSpeed"})


def _key(e: ET.Element) -> tuple[Any, ...]:
    """What an element draws: its tag, attributes, text and children, as a hashable key."""
    return (e.tag.rpartition("}")[2], tuple(e.attrib.items()), e.text, e.tail and e.tail.strip(),
            tuple(_key(c) for c in e))


def _sprite_texts(out: list[Lettering], parent: ET.Element, family: str,
                  kept: Kept[tuple[Any, ...], Picture | Literal[False]], q: str,
                  tiled: set[ET.Element]) -> None:
    """Each ``<text>`` in ``parent`` and its plain groups (but those in ``tiled``) in place
    of a sprite of it."""
    for child in parent:
        if child in tiled:
            continue
        if child.tag == f"{q}text":
            _sprite(out, parent, child, family, kept)
        elif _plain(child, q):
            _sprite_texts(out, child, family, kept, q, tiled)


NO_PIXELS = (0, 0, 0, 0, "")
SPRITE_ATTRIBUTES = frozenset({"x", "y", "font-size", "font-family", "font-weight", "font-style",
                               "text-anchor", "fill"})
"""What a text may say to be drawn from a sprite (and ``data-*``): anything else (dx, a
transform, an opacity, a tspan...) leaves it to resvg."""


def _sprite(out: list[Lettering], parent: ET.Element, text: ET.Element, family: str,
            kept: Kept[tuple[Any, ...], Any]) -> None:
    """A sprite of ``text`` in its place (a blank text goes): the same glyphs on the
    same pixels, resvg drawing them once per process rather than per map. A text that says
    more than :data:`SPRITE_ATTRIBUTES`, whose place or size is not plain numbers, or that
    stands out of the window it is tried in, stays."""
    if len(text) or any(k not in SPRITE_ATTRIBUTES and not k.startswith("data-") for k in text.attrib):
        return
    try:
        x, y = float(text.get("x", "0")), float(text.get("y", "0"))
        size = float(text.get("font-size", "12"))
    except ValueError:
        return
    if not (math.isfinite(x) and math.isfinite(y) and 0 < size < 200):
        return
    left, top = math.floor(x), math.floor(y)
    fx, fy = round(x - left, 6), round(y - top, 6)
    attrib = tuple((k, v) for k, v in text.attrib.items() if k not in ("x", "y"))
    key = (family, fx, fy, attrib, text.text)
    sprite = kept.get(key)
    if sprite is None:
        drawn = _draw_sprite(text, left, top, size, family)
        if drawn is None:
            kept.put(key, False)  # it stays as text
            return
        kept.put(key, drawn)
        sprite = drawn
    if sprite is False:
        return
    dx, dy, width, height, href = sprite
    out.append((parent, [text], (left + dx, top + dy, width, height, href), None))


TITLE_SHIFT_STEPS = 16  # 1/32 px steps either side of the estimate
# the title's first words and the next character -> (their sprite, where the rest starts), or False
_title_splits: Kept[tuple[Any, ...], tuple[Picture, str] | Literal[False]] = Kept(SPRITES_KEPT)


def _split_title(out: list[Lettering], parent: ET.Element, text: ET.Element, family: str) -> None:
    """The title's first words, up to its first ", " (the game's name: "Pax Baltica, ",
    the same on every map of the board in a language), from a sprite, and the rest as a
    text that starts where resvg starts it in the whole title: each glyph resvg outlines
    opens and maps the font file anew (issue 21: the 32 glyphs of "Pax Baltica, game
    b00024: Sweden" were ~3 ms of a map, most of it the kernel's). Where the rest starts is
    found once for those words and the next character, by drawing the rest after the words
    made invisible (resvg places it, kerning and all) and finding the ``x`` that draws it
    alone on the same pixels; when none does (within 2 of 255), the title stays a text. The
    same title is always drawn the same way, whatever was drawn before."""
    title = text.text or ""
    cut = title.find(", ") + 2
    if cut < 2 or cut >= len(title) or title[cut] == " " or len(text) or \
            text.get("text-anchor", "start") != "start" or \
            any(k not in SPRITE_ATTRIBUTES and not k.startswith("data-") for k in text.attrib):
        return
    try:
        x, y, size = float(text.get("x", "0")), float(text.get("y", "0")), float(text.get("font-size", "12"))
    except ValueError:
        return
    if not (math.isfinite(x) and math.isfinite(y) and 0 < size < 200):
        return
    words, rest = title[:cut], title[cut:]
    key = (family, tuple(text.attrib.items()), words, rest[0])
    split = _title_splits.get(key)
    if split is None:
        split = _measure_split(text, words, rest, x, y, size, family) or False
        _title_splits.put(key, split)
    if split is False:
        return
    picture, start = split
    after = ET.Element(text.tag, {k: start if k == "x" else v for k, v in text.attrib.items()})
    if "x" not in after.attrib:
        after.set("x", start)
    after.text, after.tail = rest, text.tail
    out.append((parent, [text], picture, after))


def _measure_split(text: ET.Element, words: str, rest: str, x: float, y: float, size: float,
                   family: str) -> tuple[Picture, str] | None:
    """The sprite of ``words`` where ``text`` stands, and the ``x`` (as written) at which
    ``rest`` drawn alone falls on the pixels it falls on after them; None if there is none."""
    left, top = math.floor(x), math.floor(y)
    alone = copy.copy(text)
    alone.text, alone.tail = words, None
    sprite = _draw_sprite(alone, left, top, size, family)
    if sprite is None or sprite == NO_PIXELS:
        return None
    width, height = int(size * (len(words) + len(rest) + 4)) + 16, int(size * 4) + 16
    wleft, wtop = left - int(2 * size) - 8, top - int(2 * size) - 8
    attrs = "".join(f' {k}="{_attr(v)}"' for k, v in text.attrib.items() if k != "x")

    def drawn(inner: str) -> bytes:
        import svg2png_py

        window = (f'<svg xmlns="{SVG_NS}" width="{width}" height="{height}" '
                  f'viewBox="{wleft} {wtop} {width} {height}" font-family="{_attr(family)}">{inner}</svg>')
        return bytes(svg2png_py.svg_to_rgba(window, _fonts())[0][3::4])

    def centre(alpha: bytes) -> float:
        total = sum(alpha)
        return sum(v * (i % width) for i, v in enumerate(alpha) if v) / total if total else 0.0

    plain = rest.replace("&", "&amp;").replace("<", "&lt;")
    target = drawn(f'<text x="{x}"{attrs}><tspan visibility="hidden">'
                   f'{words.replace("&", "&amp;").replace("<", "&lt;")}</tspan>{plain}</text>')
    if not any(target):
        return None
    estimate = x + centre(target) - centre(drawn(f'<text x="{x}"{attrs}>{plain}</text>'))

    def off(start: float) -> tuple[int, int, str]:
        """How far ``rest`` drawn alone at ``start`` is from the target: (the largest
        difference, the sum of them, ``start`` as written)."""
        written = f"{start:.4f}"
        alpha = drawn(f'<text x="{written}"{attrs}>{plain}</text>')
        differ = [abs(a - b) for a, b in zip(alpha, target, strict=True) if a != b]
        return max(differ, default=0), sum(differ), written

    # the centre of the pixels is off by up to ~0.25 px: 1/32 px steps, then 1/256
    coarse = min((off(estimate + k / 32) for k in range(-TITLE_SHIFT_STEPS, TITLE_SHIFT_STEPS + 1)),
                 key=lambda o: o[1])
    fine = [off(float(coarse[2]) + k / 256) for k in range(-8, 9)]
    worst, _, start = min([coarse, *fine], key=lambda o: (o[0], o[1]))
    if worst > 2:
        return None
    dx, dy, w, h, href = sprite
    return (left + dx, top + dy, w, h, href), start


def _draw_sprite(text: ET.Element, left: int, top: int, size: float,
                 family: str) -> tuple[int, int, int, int, str] | None:
    """(dx, dy, width, height, data: URL) of ``text``, drawn where it stands: its pixels'
    box relative to (left, top), the whole-pixel part of its origin; :data:`NO_PIXELS` when
    it draws nothing; None when it stands out of a window of about twice its size."""
    chars = len(text.text or "")
    width, height = int(size * (chars + 4)) + 16, int(size * 4) + 16
    ox = {"start": int(2 * size) + 8, "middle": width // 2,
          "end": width - int(2 * size) - 8}.get(text.get("text-anchor", "start"))
    if ox is None:
        return None
    oy = int(2 * size) + 8
    picture = _picture(ET.tostring(text, encoding="unicode"), family, left - ox, top - oy,
                       width, height, clip=False)
    if picture is None or picture == NO_PIXELS:
        return None if picture is None or (text.text or "").strip() else NO_PIXELS
    x, y, w, h, href = picture
    return x - left, y - top, w, h, href


def _picture(markup: str, family: str, left: int, top: int, width: int, height: int,
             clip: bool) -> tuple[int, int, int, int, str] | None:
    """What ``markup`` draws in the canvas window at (left, top), cropped to its pixels:
    (x, y, width, height, data: URL of a transparent PNG) on the canvas, whole pixels, so
    each glyph falls on the pixels it falls on in the map. :data:`NO_PIXELS` when it draws
    nothing; one touching the window's edge is cut there with ``clip``, else None."""
    import svg2png_py

    window = (f'<svg xmlns="{SVG_NS}" width="{width}" height="{height}" '
              f'viewBox="{left} {top} {width} {height}" font-family="{_attr(family)}">{markup}</svg>')
    rgba, w, h = svg2png_py.svg_to_rgba(window, _fonts())  # premultiplied, transparent
    alpha = rgba[3::4]
    rows = [y for y in range(h) if alpha[y * w:(y + 1) * w].strip(b"\0")]
    if not rows:
        return NO_PIXELS
    lines = [alpha[y * w:(y + 1) * w] for y in rows]
    x0 = min(len(r) - len(r.lstrip(b"\0")) for r in lines)
    x1 = max(len(r.rstrip(b"\0")) for r in lines)  # one past the last
    y0, y1 = rows[0], rows[-1] + 1
    if not clip and (x0 == 0 or y0 == 0 or x1 == w or y1 == h):
        return None  # it may go on past the window
    pixels = bytearray()
    for y in range(y0, y1):
        pixels += _demultiplied(rgba[(y * w + x0) * 4:(y * w + x1) * 4])
    png = _png(pixels, x1 - x0, y1 - y0, 6, level=9)  # once per process; resvg reads it on every map
    return (left + x0, top + y0, x1 - x0, y1 - y0,
            "data:image/png;base64," + base64.b64encode(png).decode("ascii"))


def _demultiplied(row: bytes) -> bytearray:
    """Premultiplied RGBA pixels with their colours divided by their alpha, rounded as
    resvg's own PNG encoder (tiny-skia) rounds them, so resvg reads back what it drew."""
    out = bytearray(row)
    for i in range(3, len(out), 4):
        a = out[i]
        if 0 < a < 255:
            f = a / 255
            out[i - 3] = min(255, int(out[i - 3] / f + 0.5))
            out[i - 2] = min(255, int(out[i - 2] / f + 0.5))
            out[i - 1] = min(255, int(out[i - 1] / f + 0.5))
    return out


def _attr(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
