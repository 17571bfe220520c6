"""The PNG of a report's map: the same bytes as the renderer gm used before (resvg-py), drawn
by svg2png-py (the same resvg, its font database read once per process; issue 21)."""

from __future__ import annotations

import pytest

from gm.games import registry
from gm.maps.draw import draw_svg
from gm.maps.raster import svg_to_png
from gm.maps.source import MapSource


def test_every_real_map_is_the_same_png_as_resvg_py_draws(baltica_sources: list[MapSource]) -> None:
    resvg_py = pytest.importorskip("resvg_py")  # a test extra, kept for this comparison
    for source in baltica_sources:
        svg = draw_svg(registry.get(source.game), source.view, source.events, source.words)
        assert svg is not None
        png = svg_to_png(svg)
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000
        assert png == bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff")), \
            source.words.get("title")
