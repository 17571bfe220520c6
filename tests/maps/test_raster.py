"""The PNG of a report's map: the same picture as the renderer gm used before (resvg-py)
drew, pixel for pixel, now drawn by svg2png-py (the same resvg, its font database read once
per process) and written by gm.maps.raster.png_rgb; with the areas' lettering drawn from
tiles, the same picture within 2 of 255 on a colour channel (issue 21)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from gm.games import registry
from gm.maps import raster
from gm.maps.draw import draw_svg
from gm.maps.raster import png_rgb, svg_to_png, with_lettering_tiles
from gm.maps.source import MapSource
from tests.maps.pngread import read_rgb

SVG = "{http://www.w3.org/2000/svg}"


def svg_of(source: MapSource) -> str:
    svg = draw_svg(registry.get(source.game), source.view, source.events, source.words)
    assert svg is not None
    return svg


def one_per_language(sources: list[MapSource]) -> list[MapSource]:
    """The last map of each language (reading resvg-py's PNG back is slow in pure Python)."""
    languages = {"fr" if "Suède" in s.words.values() else "en": s for s in sources}
    assert set(languages) == {"en", "fr"}
    return list(languages.values())


def test_every_real_map_is_the_same_picture_as_resvg_py_draws(baltica_sources: list[MapSource]) -> None:
    resvg_py = pytest.importorskip("resvg_py")  # a test extra, kept for this comparison
    for source in one_per_language(baltica_sources):
        svg = svg_of(source)
        png = svg_to_png(svg, tiles=False)
        before = bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff"))
        width, height, pixels = read_rgb(png)
        assert (width, height) == (1300, 1098)
        assert (width, height, pixels) == read_rgb(before), source.words.get("title")
        assert len(png) < len(before), "a smaller file for the same picture"


def test_lettering_from_tiles_is_the_same_picture_within_2_of_255(baltica_sources: list[MapSource]) -> None:
    for source in baltica_sources:
        svg = svg_of(source)
        width, height, direct = read_rgb(svg_to_png(svg, tiles=False))
        assert read_rgb(svg_to_png(svg))[:2] == (width, height)
        tiled = read_rgb(svg_to_png(svg))[2]
        differ = [abs(a - b) for a, b in zip(direct, tiled, strict=True) if a != b]
        assert max(differ, default=0) <= 2, source.words.get("title")
        assert len(differ) < len(direct) / 20, "only the edges of letters, the legend's translucent box"


def test_tiles_take_the_place_of_the_areas_texts_and_nothing_else(baltica_sources: list[MapSource]) -> None:
    svg = svg_of(baltica_sources[0])
    before, after = ET.fromstring(svg.encode()), ET.fromstring(with_lettering_tiles(svg).encode())
    for old, new in zip(before, after, strict=True):
        if old.get("data-layer") == "legend":
            assert [e.tag.removeprefix(SVG) for e in new] == ["image"] and old.attrib == new.attrib
            continue
        if old.get("data-layer") != "areas":
            assert ET.tostring(old) == ET.tostring(new)  # title, borders, pieces, moves
            continue
        assert len(old) == len(new)
        for a, b in zip(old, new, strict=True):
            kinds = [e.tag.removeprefix(SVG) for e in a]
            texts = [i for i, k in enumerate(kinds) if k == "text"]
            assert texts, a.get("data-area")  # every area has its name
            expected = kinds[:texts[0]] + ["image"] + kinds[texts[-1] + 1:]
            assert [e.tag.removeprefix(SVG) for e in b] == expected, a.get("data-area")
            assert "text" not in kinds[texts[-1] + 1:]


def test_a_tile_is_drawn_once_for_every_map_that_shows_it(baltica_sources: list[MapSource],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    svg = svg_of(baltica_sources[0])
    with_lettering_tiles(svg)
    drawn: list[str] = []
    monkeypatch.setattr(raster, "_tile", lambda *args: drawn.append(args[-1]) or "data:,")
    with_lettering_tiles(svg)
    assert drawn == []
    raster._tiles.clear()
    with_lettering_tiles(svg)
    assert len(drawn) == len(ET.fromstring(svg.encode()).find(f"{SVG}g[@data-layer='areas']")) + 1
    raster._tiles.clear()


def test_png_rgb_writes_the_given_pixels_and_refuses_a_wrong_size() -> None:
    rgba = bytes([10, 20, 30, 255, 40, 50, 60, 255, 70, 80, 90, 255,
                  1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255])
    png = png_rgb(rgba, 3, 2)
    assert read_rgb(png) == (3, 2, bytes([10, 20, 30, 40, 50, 60, 70, 80, 90, 1, 2, 3, 4, 5, 6, 7, 8, 9]))
    assert png_rgb(rgba, 3, 2, level=9) != png and read_rgb(png_rgb(rgba, 3, 2, level=9)) == read_rgb(png)
    with pytest.raises(ValueError):
        png_rgb(rgba, 4, 2)
