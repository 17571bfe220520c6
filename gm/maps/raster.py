"""SVG to PNG with resvg (a Rust renderer shipped as a self-contained wheel: no Cairo,
no system libraries, the same pixels on every machine). Text needs a font on the
machine; scripts/install warns when there is none (Debian: fonts-dejavu-core).
"""

from __future__ import annotations

import resvg_py


def svg_to_png(svg: str, *, zoom: float = 1.0) -> bytes:
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom, background="#ffffff"))
