"""The PNG of a report's map: the same picture as the renderer gm used before (resvg-py)
drew, pixel for pixel, now drawn by svg2png-py (the same resvg, its font database read once
per process) and written by gm.maps.raster.png_rgb (issue 21)."""

from __future__ import annotations

import pytest

from gm.games import registry
from gm.maps.draw import draw_svg
from gm.maps.raster import png_rgb, svg_to_png
from gm.maps.source import MapSource
from tests.maps.pngread import read_rgb


def test_every_real_map_is_the_same_picture_as_resvg_py_draws(baltica_sources: list[MapSource]) -> None:
    resvg_py = pytest.importorskip("resvg_py")  # a test extra, kept for this comparison
    languages: dict[str, MapSource] = {}
    for source in baltica_sources:  # the last map of each language (reading a PNG is slow here)
        languages["fr" if "Suède" in source.words.values() else "en"] = source
    assert set(languages) == {"en", "fr"}
    for source in languages.values():
        svg = draw_svg(registry.get(source.game), source.view, source.events, source.words)
        assert svg is not None
        png = svg_to_png(svg)
        before = bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff"))
        width, height, pixels = read_rgb(png)
        assert (width, height) == (1300, 1098)
        assert (width, height, pixels) == read_rgb(before), source.words.get("title")
        assert len(png) < len(before), "a smaller file for the same picture"


def test_png_rgb_writes_the_given_pixels_and_refuses_a_wrong_size() -> None:
    rgba = bytes([10, 20, 30, 255, 40, 50, 60, 255, 70, 80, 90, 255,
                  1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255])
    png = png_rgb(rgba, 3, 2)
    assert read_rgb(png) == (3, 2, bytes([10, 20, 30, 40, 50, 60, 70, 80, 90, 1, 2, 3, 4, 5, 6, 7, 8, 9]))
    assert png_rgb(rgba, 3, 2, level=9) != png and read_rgb(png_rgb(rgba, 3, 2, level=9)) == read_rgb(png)
    with pytest.raises(ValueError):
        png_rgb(rgba, 4, 2)
