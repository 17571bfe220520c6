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
"""

from __future__ import annotations

import logging
import struct
import zlib
from functools import cache
from typing import Any

log = logging.getLogger(__name__)
WHITE = (255, 255, 255, 255)


@cache
def _fonts() -> Any:
    import svg2png_py

    return svg2png_py.FontDatabase.system()  # the process's own, read once


def svg_to_png(svg: str) -> bytes:
    """The PNG of ``svg`` at its own size, on white."""
    try:
        import svg2png_py
    except ImportError:  # an install from before svg2png-py: the same PNG, slower
        log.warning("svg2png-py is not installed (scripts/install): maps drawn with resvg-py")
        import resvg_py

        return bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff"))
    rgba, width, height = svg2png_py.svg_to_rgba(svg, _fonts(), bg_color=WHITE)
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
