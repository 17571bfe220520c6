"""The Pax Viking report map: drawn from the player's view, never naming a rival's hand.

A seeded 3-player game is played by mail (the plan of tests/games/viking/
test_viking_by_mail.py); after every turn, the map each player receives must show
exactly the longships and followers the view gives, colour duchies by their
holder, draw the turn's journeys as arrows, and name no saga tile only a rival holds anywhere in the SVG.
"""

from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ET
from collections import Counter
from itertools import combinations, pairwise
from typing import Any

from gm.games.viking import module
from gm.maps.layout import check_layout, load_layout
from gm.maps.svg import LINK_STYLE
from tests.games.viking.conftest import pv  # noqa: F401 (the game fixture)
from tests.games.viking.test_viking_by_mail import ADDR, DATA, LANG, now, plan, secret_names
from tests.pipeline.conftest import deliver, mail
from tests.present.support import mails, sent_svg

__all__ = ["pv"]  # the seeded 3-player game fixture
SVG = "{http://www.w3.org/2000/svg}"


def test_layout_places_every_region_post_and_home_without_overlap() -> None:
    path = module.map_layout()
    assert path is not None and path.name == "map_layout.toml"
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    places = set(DATA.regions) | set(DATA.posts) | set(DATA.homes)
    assert check_layout(raw, places) == []
    assert all("reconstructed" in a["source"] for a in raw["area"].values())
    layout = load_layout(path)
    for a, b in combinations(layout.positions, 2):
        (ax, ay), (bx, by) = layout.positions[a], layout.positions[b]
        assert abs(ax - bx) >= layout.box[0] or abs(ay - by) >= layout.box[1], (a, b)


def _g(svg: str) -> list[dict[str, str]]:
    return [dict(g.attrib) for g in ET.fromstring(svg.encode()).iter(f"{SVG}g")]


def assert_map_is_the_view(svg: str, state: dict[str, Any], viewer: str) -> int:
    """Checks the map against the view; returns how many longship chips it draws."""
    view = module.view(state, viewer)
    ids = {DATA.place_name(i): i for t in (DATA.regions, DATA.homes, DATA.posts) for i in t}
    groups = _g(svg)
    chips = [g for g in groups if g.get("data-kind") == "public"]
    more = sum(int(g.get("data-more", 0)) for g in groups)
    ships = Counter((c["data-area"], c["data-owner"]) for c in chips
                    if c["data-block"].startswith(("longship", "drakkar")))
    told = Counter((ids[s["at"]], s["power"] if s["power"] in state["powers"] else "ally")
                   for s in view["longships"])
    assert set(ships) <= set(told) and len(told) - len(ships) <= more, (ships, told)
    followers = {(c["data-area"], c["data-owner"], c.get("data-strength")) for c in chips
                 if c["data-block"] in ("followers", "partisans")}
    expected = {(ids[p["post"]], p["owner"], str(p["followers"])) for p in view["posts"]
                if p["owner"]}
    assert followers <= expected and len(expected - followers) <= more, (followers, expected)
    secret, _ = secret_names(state, viewer)
    text = svg.replace("&amp;", "&")
    for name in secret:
        assert name not in text, f"{viewer}'s map names {name}, a tile only a rival holds"
    areas = {g["data-area"]: g for g in groups if "data-area" in g and "data-kind" not in g}
    for p in view["players"]:
        for r in p["duchies"]:
            assert areas[ids[r]].get("data-owner") == p["power"], (r, p["power"])
    return sum(ships.values())


def test_map_of_a_three_player_game_is_the_view(pv) -> None:  # type: ignore[no-untyped-def]
    checked = drawn = arrows = 0
    for _ in range(9):
        _, state, owing = now(pv)
        if state["ended"]:
            break
        p = owing[0]
        deliver(pv, mail(f"GAME pv1\nPOWER {p} {p}-pw\n" + "\n".join(plan(state, p))
                         + ("\nPRET\n" if LANG[p] == "fr" else "\nREADY\n"), sender=ADDR[p]))
        _, state, _ = now(pv)
        for viewer in state["powers"]:
            _, msg = mails(pv, kind="report", to=ADDR[viewer])[-1]
            svg = sent_svg(msg)
            drawn += assert_map_is_the_view(svg, state, viewer)
            arrows += sum(1 for line in ET.fromstring(svg.encode()).iter(f"{SVG}polyline")
                          if line.get("data-owner") == p and line.get("data-path"))
            checked += 1
    assert checked == 27
    assert drawn > 0, "longships were launched and drawn"
    assert arrows > 0, "the journeys from home are drawn as arrows"


def test_black_borders_are_drawn_as_impassable() -> None:
    """Standard Actions B, Steps: "White borders count as one step to cross. Black
    borders, which indicate a land-locked area not accessible by river, are
    impassable." Every black border of board.toml is a thick black line, marked
    data-link="impassable" and named in the legend; no white border is."""
    drawn, svg = _drawn_borders()
    assert DATA.black and all(pair in drawn for pair in DATA.black)
    for pair, line in drawn.items():
        black = pair in DATA.black
        assert (line["data-link"] == "impassable") == black, sorted(pair)
        if black:
            assert line["stroke"] == LINK_STYLE["impassable"]["stroke"] == "#111111"
            assert float(line["stroke-width"]) > max(
                float(s["stroke-width"]) for k, s in LINK_STYLE.items() if k != "impassable")
    legend = [dict(x.attrib) for x in ET.fromstring(svg.encode()).iter(f"{SVG}line")
              if x.get("data-link") == "impassable" and "data-between" not in x.attrib]
    assert len(legend) == 1 and "impassable border" in svg


def test_no_border_runs_under_another_box() -> None:
    """A border drawn under a third post or region would seem to connect it (or, black,
    to cut it off): every border, white, sea lane or black, keeps clear of every box but
    its two ends', bending around the boxes in its way."""
    drawn, svg = _drawn_borders()
    boxes = _boxes(svg)
    assert len(drawn) > 80
    bent = 0
    for pair, line in drawn.items():
        points = _points(line)
        bent += len(points) > 2
        under = sorted(a for a, box in boxes.items() if a not in pair
                       and any(_crosses(p, q, float(line["stroke-width"]), box)
                               for p, q in pairwise(points)))
        assert under == [], f"the border {sorted(pair)} runs under {under}"
    assert bent > 0, "some borders had to bend around a box"


def _drawn_borders() -> tuple[dict[frozenset[str], dict[str, str]], str]:
    """The drawn borders by the pair of areas they join, and the SVG they are in."""
    from gm.dice import Dice
    from gm.maps.draw import draw_svg

    state = module.setup("3p", {})
    state = module.adjudicate(state, {}, Dice(seed=b"\x03" * 32, game_id="t",
                                              phase_id="setup")).state
    svg = draw_svg(module, module.view(state, "red"), [], {"impassable": "impassable border"})
    assert svg is not None
    root = ET.fromstring(svg.encode())
    lines = [dict(x.attrib) for tag in ("line", "polyline") for x in root.iter(f"{SVG}{tag}")]
    return {frozenset(x["data-between"].split()): x for x in lines if "data-between" in x}, svg


def _points(line: dict[str, str]) -> list[tuple[float, float]]:
    if "points" in line:
        return [(float(x), float(y)) for x, y in (p.split(",") for p in line["points"].split())]
    return [(float(line["x1"]), float(line["y1"])), (float(line["x2"]), float(line["y2"]))]


def _boxes(svg: str) -> dict[str, tuple[float, float, float, float]]:
    """Each area's box as drawn: (left, top, right, bottom)."""
    out = {}
    for g in ET.fromstring(svg.encode()).iter(f"{SVG}g"):
        rect = g.find(f"{SVG}rect")
        if "data-area" in g.attrib and "data-kind" not in g.attrib and rect is not None:
            x, y, w, h = (float(rect.attrib[k]) for k in ("x", "y", "width", "height"))
            out[g.attrib["data-area"]] = (x, y, x + w, y + h)
    return out


def _crosses(p: tuple[float, float], q: tuple[float, float], stroke_width: float,
             box: tuple[float, float, float, float]) -> bool:
    """Whether the segment p-q, its stroke's width included, touches the box
    (Liang-Barsky clipping of the segment against the box grown by half the stroke;
    written here again, not imported from gm.maps.route, so the test checks it)."""
    m = stroke_width / 2
    left, top, right, bottom = box[0] - m, box[1] - m, box[2] + m, box[3] + m
    lo, hi = 0.0, 1.0
    for d, e in ((p[0] - q[0], p[0] - left), (q[0] - p[0], right - p[0]), (p[1] - q[1], p[1] - top),
                 (q[1] - p[1], bottom - p[1])):
        if d == 0:
            if e < 0:
                return False
            continue
        t = e / d
        lo, hi = (max(lo, t), hi) if d < 0 else (lo, min(hi, t))
        if lo > hi:
            return False
    return True
