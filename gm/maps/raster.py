"""SVG to PNG with resvg (a Rust renderer shipped as a self-contained wheel: no Cairo,
no system libraries, the same pixels on every machine). Text needs a font on the
machine; scripts/install warns when there is none (Debian: fonts-dejavu-core).

Two costs are kept down (issue 21: a deadline storm draws thousands of maps):

* fonts: by default resvg loads every system font at every call; the maps use one
  family (gm.maps.svg.FONT, DejaVu Sans first), so its four faces are looked up once per
  process and handed to resvg alone. Without them, the system fonts are loaded as before.
* size: the PNG is drawn at the width a report mail shows it (``PNG_WIDTH``, the
  ``width`` of the ``<img>`` in templates/mail/_report.html.j2), not the SVG's own
  size; the full-size SVG is attached to the same mail.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import resvg_py

PNG_WIDTH = 680
"""The width, in pixels, of the map as a report mail shows it (templates/mail/_report.html.j2)."""

FONT_FACES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
              "DejaVuSans-BoldOblique.ttf")
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
             "/usr/share/fonts/TTF", "/usr/local/share/fonts", "/Library/Fonts")


@lru_cache(maxsize=1)
def map_fonts() -> tuple[str, ...]:
    """The font files the maps need (DejaVu Sans, its faces found), looked up once; empty
    when the regular face is not found (resvg then loads the system fonts)."""
    for folder in FONT_DIRS:
        found = [Path(folder) / name for name in FONT_FACES if (Path(folder) / name).is_file()]
        if found and found[0].name == FONT_FACES[0]:
            return tuple(str(p) for p in found)
    return ()


def svg_to_png(svg: str, *, zoom: float = 1.0, width: int | None = None) -> bytes:
    """The PNG of ``svg``: ``width`` pixels wide (its height in proportion), else at ``zoom``."""
    fonts = map_fonts()
    size = {"width": width} if width else {"zoom": zoom}
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff",
                                       skip_system_fonts=bool(fonts),
                                       font_files=list(fonts) or None, **size))
