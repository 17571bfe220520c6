"""SVG to PNG with resvg (a Rust renderer shipped as a self-contained wheel: no Cairo,
no system libraries, the same pixels on every machine). Text needs a font on the
machine; scripts/install warns when there is none (Debian: fonts-dejavu-core).

The binding is ``svg2png-py``: it keeps one font database per process (the system's
fonts, read once), where ``resvg-py`` took about twice as long for the very same PNG bytes
(issue 21: 0.39 against 0.17 s for a Pax Baltica map, same resvg; checked byte for byte by
tests/maps/test_raster.py).
"""

from __future__ import annotations

import logging
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
    return bytes(svg2png_py.svg_to_png(svg, _fonts(), bg_color=WHITE))
