"""gm.maps.svg.to_text writes a map's tree as ElementTree writes it, byte for byte: the SVG
a player receives and the tree its PNG is drawn from (issue 21: ElementTree's writer was
a tenth of a report mail's CPU)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from gm.games import registry
from gm.maps import draw, raster
from gm.maps.source import MapSource
from gm.maps.svg import to_text, written


def trees(sources: list[MapSource]) -> list[ET.Element]:
    out = []
    for source in sources:
        drawn = draw._draw_svg_tree(registry.get(source.game), source.view, source.events, source.words)
        assert drawn is not None
        out.append(drawn[1])
    return out


def other_games_trees() -> list[ET.Element]:
    from gm.dice import Dice
    from gm.games.britannica import module as britannica
    from gm.games.viking import module as viking

    out = []
    for players in ("3p", "4p", "5p", "6p"):
        state = viking.setup(players, {})
        state = viking.adjudicate(state, {}, Dice(seed=b"\x03" * 32, game_id="t", phase_id="setup")).state
        for power in sorted(state["powers"]) if isinstance(state.get("powers"), dict) else ["red"]:
            drawn = draw._draw_svg_tree(viking, viking.view(state, power), [],
                                        {"impassable": "impassable border", "title": f"Viking {players}",
                                         "subtitle": "a & b <c> \"d\""})
            if drawn is not None:
                out.append(drawn[1])
    state = britannica.setup("1880", {})
    for power in ("britain", "france", "germany", "russia"):
        drawn = draw._draw_svg_tree(britannica, britannica.view(state, power), [],
                                    {"title": "Britannica", "subtitle": power})
        if drawn is not None:
            out.append(drawn[1])
    return out


def test_every_real_map_and_its_tiled_tree_are_written_as_elementtree_writes_them(
        baltica_sources: list[MapSource]) -> None:
    baltica, others = trees(baltica_sources), other_games_trees()
    assert len(baltica) >= 6 and len(others) >= 4
    assert {root.get("viewBox") for root in others} != {baltica[0].get("viewBox")}, "other boards"
    for root in baltica + others:
        assert to_text(root) == ET.tostring(root, encoding="unicode")
        raster.lettering_tiles(root)  # the tree the PNG is drawn from: images in place of texts
        assert root.find(".//image") is not None
        assert to_text(root) == ET.tostring(root, encoding="unicode")


@pytest.mark.parametrize("value", ['a & b', 'x < y > z', 'say "hi"', "tab\there", "two\nlines\r\n",
                                   "Suède", "&amp;", ""])
def test_names_are_escaped_as_elementtree_escapes_them(value: str) -> None:
    root = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "data-name": value})
    title = ET.SubElement(root, "title", {"data-x": value})
    title.text, title.tail = value, value
    ET.SubElement(root, "g").text = value
    ET.SubElement(root, "rect", {})
    assert to_text(root) == ET.tostring(root, encoding="unicode")


def test_a_tree_that_is_not_plain_is_left_to_elementtree() -> None:
    parsed = ET.fromstring('<svg xmlns="http://www.w3.org/2000/svg"><g data-a="1"><rect /></g></svg>')
    assert to_text(parsed) == ET.tostring(parsed, encoding="unicode")
    root = ET.Element("svg")
    root.append(ET.Comment("a comment"))
    assert to_text(root) == ET.tostring(root, encoding="unicode") == "<svg><!--a comment--></svg>"
    number = ET.Element("svg", {"width": 3})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        ET.tostring(number, encoding="unicode")
    with pytest.raises(TypeError):
        to_text(number)


def test_each_element_s_pieces_are_its_markup(baltica_sources: list[MapSource]) -> None:
    """The spans the PNG's text is cut from: each element's pieces are its markup as
    ElementTree writes it, its tail left out."""
    for root in trees(baltica_sources[:2]) + other_games_trees()[::3]:
        spans: dict[ET.Element, tuple[int, int]] = {}
        parts = written(root, spans)
        assert parts is not None and set(spans) == set(root.iter())
        for e, (start, end) in spans.items():
            tail = e.tail
            e.tail = None
            assert "".join(parts[start:end]) == ET.tostring(e, encoding="unicode")
            e.tail = tail


def test_the_png_cut_from_the_written_text_is_the_png_of_the_changed_tree(
        baltica_sources: list[MapSource]) -> None:
    """resvg reads the SVG's own pieces with pictures in place of the texts
    (raster.lettered_text), not the tree changed and written again: the same PNG bytes, on
    every game's maps; the tree is left as it was."""
    for source in baltica_sources[:3]:
        drawn = draw._draw_svg_tree(registry.get(source.game), source.view, source.events, source.words)
        assert drawn is not None
        cut = raster.tree_to_png(drawn.root, drawn.parts, drawn.spans)
        assert to_text(drawn.root) == "".join(drawn.parts), "the tree is unchanged"
        assert cut == raster.tree_to_png(drawn.root)
    for root in other_games_trees()[::3]:
        spans: dict[ET.Element, tuple[int, int]] = {}
        parts = written(root, spans)
        assert parts is not None
        assert raster.tree_to_png(root, parts, spans) == raster.tree_to_png(root)
