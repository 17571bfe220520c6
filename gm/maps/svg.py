"""Draw a :class:`Scene` on a :class:`Layout` as SVG (written with ElementTree, so every
name is escaped). Nothing here knows a game: positions come from the layout, what
stands where from the scene. Elements carry ``data-*`` attributes naming what they
show (area, owner, block, strength, count), so tests and browsers can read the map
back without parsing pixels.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from typing import Any, NamedTuple

from gm.maps.layout import Layout
from gm.maps.route import route
from gm.maps.scene import Area, Piece, Scene

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
CHIP_H = 13
CHIPS_SHOWN = 4
TITLE_H = 44
LINK_STYLE = {
    "land": {"stroke": "#8d8677", "stroke-width": "1.5"},
    "difficult": {"stroke": "#5b4a2e", "stroke-width": "2.5", "stroke-dasharray": "7 4"},
    "blocked": {"stroke": "#9fb8cc", "stroke-width": "1", "stroke-dasharray": "2 3"},
    "sea": {"stroke": "#6d9cc5", "stroke-width": "1.2", "stroke-dasharray": "4 3"},
    "impassable": {"stroke": "#111111", "stroke-width": "4"},
}
MARK_STYLE = {
    "battle": ("#c0271d", "#ffffff"), "siege": ("#e08a00", "#ffffff"),
    "recon": ("#2c6fb5", "#ffffff"), "captured": ("#6b3fa0", "#ffffff"),
    "unrest": ("#4d4d4d", "#ffffff"),
}
MARK_LETTER = {"battle": "B", "siege": "S", "recon": "R", "captured": "C", "unrest": "U"}


@lru_cache(maxsize=1024)  # a board's few colours, on every map
def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


@lru_cache(maxsize=1024)  # a board's few colours, on every map
def tint(colour: str, amount: float = 0.55) -> str:
    """``colour`` mixed with white (``amount`` of white)."""
    r, g, b = _rgb(colour)
    return _hex(round(v + (255 - v) * amount) for v in (r, g, b))


@lru_cache(maxsize=1024)  # a board's few colours, on every map
def ink(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = _rgb(colour)
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def _el(parent: ET.Element, tag: str, **attrs: Any) -> ET.Element:
    return ET.SubElement(parent, tag, {k.replace("_", "-"): str(v) for k, v in attrs.items()
                                       if v is not None})


def _text(parent: ET.Element, x: float, y: float, text: str, size: float, anchor: str = "middle",
          **attrs: Any) -> ET.Element:
    """A ``<text>``: its attributes in the order ``_el`` gives them, built directly (a map
    has 150 texts; issue 21)."""
    attrib = {"x": f"{x:.1f}", "y": f"{y:.1f}", "font-size": str(size), "font-family": FONT,
              "text-anchor": anchor}
    for k, v in attrs.items():
        if v is not None:
            attrib[k.replace("_", "-")] = str(v)
    t = ET.SubElement(parent, "text", attrib)
    t.text = text
    return t


def _fit(text: str, width: float, size: float) -> str:
    """Shorten ``text`` to about ``width`` pixels at ``size`` (average glyph 0.56 em)."""
    room = max(3, int(width / (size * 0.56)))
    return text if len(text) <= room else text[: room - 1] + "…"


class _Drawing:
    def __init__(self, scene: Scene, layout: Layout) -> None:
        self.scene, self.layout = scene, layout
        self.root = ET.Element("svg", {
            "xmlns": "http://www.w3.org/2000/svg", "version": "1.1",
            "width": str(layout.width), "height": str(layout.height + TITLE_H),
            "viewBox": f"0 0 {layout.width} {layout.height + TITLE_H}",
            "role": "img", "font-family": FONT,
        })

    def colour(self, owner: str | None) -> str:
        if owner is None:
            return self.layout.colour("neutral")
        return self.layout.colour(self.scene.palette.get(owner, owner), "unknown")

    def centre(self, area: str) -> tuple[float, float] | None:
        p = self.layout.positions.get(area)
        return None if p is None else (p[0], p[1] + TITLE_H)

    def size(self, area: str) -> tuple[int, int]:
        a = self.scene.areas.get(area)
        return self.layout.sea if a is not None and a.kind == "sea" else self.layout.box

    def boxes(self) -> dict[str, tuple[float, float, float, float]]:
        """Each drawn area's box (left, top, right, bottom), for routing the borders."""
        out = {}
        for area in self.scene.areas:
            c = self.centre(area)
            if c is not None:
                w, h = self.size(area)
                out[area] = (c[0] - w / 2, c[1] - h / 2, c[0] + w / 2, c[1] + h / 2)
        return out

    def draw(self) -> ET.Element:
        s = self.scene
        _el(self.root, "title").text = f"{s.title} {s.subtitle}".strip()
        _el(self.root, "rect", x=0, y=0, width=self.layout.width,
            height=self.layout.height + TITLE_H, fill="#eef4f8")
        self.defs()
        self.title()
        links = _el(self.root, "g", data_layer="links")
        ends = tuple((link.a, link.b, link.style, self.centre(link.a), self.centre(link.b))
                     for link in s.links)
        for tag, attrs in _link_shapes(ends, tuple(self.boxes().items()), self.layout.wrap,
                                       self.layout.width):
            ET.SubElement(links, tag, dict(attrs))
        areas = _el(self.root, "g", data_layer="areas")
        for area in s.areas.values():
            self.area(areas, area)
        pieces = _el(self.root, "g", data_layer="pieces")
        by_area: dict[str, list[Piece]] = {}
        for p in s.pieces:
            by_area.setdefault(p.area, []).append(p)
        for area_id, group in by_area.items():
            self.chips(pieces, area_id, group)
        arrows = _el(self.root, "g", data_layer="moves")
        for arrow in s.arrows:
            self.arrow(arrows, arrow.path, arrow.owner, arrow.style)
        self.legend()
        return self.root

    def defs(self) -> None:
        defs = _el(self.root, "defs")
        owners = {a.owner for a in self.scene.arrows}
        for owner in sorted(o for o in owners if o):
            m = _el(defs, "marker", id=f"head-{_safe_id(owner)}", viewBox="0 0 10 10", refX=8,
                    refY=5, markerWidth=5, markerHeight=5, orient="auto")
            _el(m, "path", d="M0,0 L10,5 L0,10 z", fill=_darker(self.colour(owner)))

    def title(self) -> None:
        bar = _el(self.root, "g", data_layer="title")
        _el(bar, "rect", x=0, y=0, width=self.layout.width, height=TITLE_H, fill="#20324a")
        _text(bar, 12, 19, self.scene.title, 16, anchor="start", fill="#ffffff", font_weight="bold")
        _text(bar, 12, 37, self.scene.subtitle, 13, anchor="start", fill="#ffe9a8",
              data_role="deadline")

    def area(self, parent: ET.Element, area: Area) -> None:
        c = self.centre(area.id)
        if c is None:
            return
        w, h = self.size(area.id)
        g = _el(parent, "g", data_area=area.id, data_owner=area.owner or "")
        _el(g, "title").text = " ".join(x for x in (area.label, area.note) if x)
        if area.kind == "sea":
            fill, stroke, rx = self.layout.colour("sea"), "#6d9cc5", h / 2
        else:
            base = self.colour(area.owner)
            fill, stroke, rx = tint(base), _darker(base), 5
        dash = "5 3" if area.kind == "box" else None
        _el(g, "rect", x=c[0] - w / 2, y=c[1] - h / 2, width=w, height=h, rx=rx, fill=fill,
            stroke=stroke, stroke_width=1.5, stroke_dasharray=dash)
        label_y = c[1] - (3 if area.note else -4)
        _text(g, c[0], label_y, _fit(area.label, w - 6, 12), 12, font_weight="bold",
              fill="#1a2430" if area.kind != "sea" else "#24506f",
              font_style="italic" if area.kind == "sea" else None)
        if area.note:
            _text(g, c[0], c[1] + 12, _fit(area.note, w - 6, 9.5), 9.5, fill="#333333",
                  data_role="garrison")
        for i, mark in enumerate(area.marks):
            bg, fg = MARK_STYLE.get(mark, ("#444444", "#ffffff"))
            mx, my = c[0] + w / 2 - 2 - i * 15, c[1] - h / 2 + 1
            m = _el(g, "g", data_mark=mark)
            _el(m, "circle", cx=mx, cy=my, r=7, fill=bg, stroke="#ffffff", stroke_width=1.2)
            _text(m, mx, my + 3.5, MARK_LETTER.get(mark, "?"), 9.5, fill=fg, font_weight="bold")

    def chips(self, parent: ET.Element, area_id: str, pieces: list[Piece]) -> None:
        c = self.centre(area_id)
        if c is None:
            return
        w, h = self.size(area_id)
        shown = pieces if len(pieces) <= CHIPS_SHOWN else pieces[: CHIPS_SHOWN - 1]
        y = c[1] + h / 2 + 1
        for p in shown:
            self.chip(parent, c[0] - w / 2 + 4, y, w - 8, p)
            y += CHIP_H + 1
        if len(shown) < len(pieces):
            rest = pieces[len(shown):]
            g = _el(parent, "g", data_more=sum(p.count for p in rest), data_area=area_id)
            _el(g, "rect", x=c[0] - w / 2 + 4, y=y, width=w - 8, height=CHIP_H, rx=3,
                fill="#ffffff", stroke="#999999", stroke_width=0.8)
            _text(g, c[0], y + 10, self.scene.words.get("more", "+{n} more").replace(
                "{n}", str(len(rest))), 9, fill="#333333")

    def chip(self, parent: ET.Element, x: float, y: float, w: float, p: Piece) -> None:
        base = self.colour(p.owner)
        attrs: dict[str, Any] = {"data_kind": p.kind, "data_owner": p.owner, "data_area": p.area}
        if p.kind == "hidden":
            attrs["data_count"] = p.count
            kind = "fleet" if p.fleet else "block"  # the count is at least 1
            word = self.scene.words.get(kind if p.count == 1 else kind + "s") or \
                self.scene.words.get(kind + "s", "?")
            text = f"{p.count} × {word}"
        else:
            attrs["data_block"] = p.label
            if p.detail:
                attrs["data_strength"] = p.detail
            text = f"{p.label} {p.detail}".strip()
        g = _el(parent, "g", **attrs)
        _el(g, "rect", x=x, y=y, width=w, height=CHIP_H, rx=3,
            fill=base if p.kind != "hidden" else tint(base, 0.25),
            stroke=_darker(base), stroke_width=0.9,
            stroke_dasharray="3 2" if p.kind in ("revealed", "hidden") else None)
        _text(g, x + w / 2, y + 10, _fit(text, w - 4, 9), 9,
              fill=ink(base if p.kind != "hidden" else tint(base, 0.25)),
              font_weight="bold" if p.kind == "own" else None)

    def arrow(self, parent: ET.Element, path: list[str], owner: str, style: str) -> None:
        points = [self.centre(a) for a in path]
        if len(points) < 2 or any(p is None for p in points):
            return
        pts = [p for p in points if p is not None]
        pts[0] = _edge(pts[0], pts[1], self.size(path[0]))
        pts[-1] = _edge(pts[-1], pts[-2], self.size(path[-1]))
        colour = _darker(self.colour(owner))
        _el(parent, "polyline", points=" ".join(f"{x:.1f},{y:.1f}" for x, y in pts), fill="none",
            stroke=colour, stroke_width=3.5, stroke_opacity=0.85, stroke_linecap="round",
            stroke_linejoin="round", stroke_dasharray="8 4" if style == "retreat" else None,
            marker_end=f"url(#head-{_safe_id(owner)})", data_path=" ".join(path),
            data_owner=owner)

    def legend(self) -> None:
        s = self.scene
        rows: list[tuple[str, str, str]] = [("swatch", self.colour(k), label) for k, label in s.legend]
        used = {m for a in s.areas.values() for m in a.marks}
        rows += [(f"mark:{m}", MARK_STYLE[m][0], s.words[m]) for m in MARK_STYLE
                 if m in s.words and m in used]
        drawn = {link.style for link in s.links}
        rows += [(f"link:{k}", LINK_STYLE[k]["stroke"], s.words[k]) for k in ("impassable",)
                 if k in drawn and k in s.words]
        if not rows:
            return
        width = 190
        height = 16 * len(rows) + 10
        x0, y0 = 8, self.layout.height + TITLE_H - height - 8
        g = _el(self.root, "g", data_layer="legend")
        _el(g, "rect", x=x0, y=y0, width=width, height=height, rx=4, fill="#ffffff",
            fill_opacity=0.9, stroke="#999999")
        for i, (kind, colour, label) in enumerate(rows):
            y = y0 + 8 + 16 * i
            if kind == "swatch":
                _el(g, "rect", x=x0 + 8, y=y, width=14, height=11, fill=tint(colour), stroke=_darker(colour))
            elif kind.startswith("link:"):
                _el(g, "line", x1=x0 + 6, y1=y + 6, x2=x0 + 24, y2=y + 6, data_link=kind[5:],
                    **LINK_STYLE[kind[5:]])
            else:
                _el(g, "circle", cx=x0 + 15, cy=y + 6, r=6, fill=colour)
                _text(g, x0 + 15, y + 9.5, MARK_LETTER[kind[5:]], 8.5, fill="#ffffff", font_weight="bold")
            _text(g, x0 + 30, y + 10, _fit(label, width - 36, 11), 11, anchor="start", fill="#222222")


Point = tuple[float, float]


@lru_cache(maxsize=64)
def _link_shapes(ends: tuple[tuple[str, str, str, Point | None, Point | None], ...],
                 boxes: tuple[tuple[str, tuple[float, float, float, float]], ...], wrap: bool,
                 width: int) -> tuple[tuple[str, dict[str, str]], ...]:
    """The lines of the borders (tag and attributes), from each link's areas, style and
    centres and every area's box: the same on every map of a board (issue 21: 150 borders
    routed round 70 boxes were a fifth of a map's SVG), so kept for a few boards."""
    out: list[tuple[str, dict[str, str]]] = []

    def shape(tag: str, **attrs: Any) -> None:
        out.append((tag, {k.replace("_", "-"): str(v) for k, v in attrs.items() if v is not None}))

    for link_a, link_b, kind, a, b in ends:
        if not (a and b):
            continue
        if wrap and abs(a[0] - b[0]) > width / 2:
            a, b = (a, b) if a[0] < b[0] else (b, a)  # round the world: leave by the edges
            for end, edge in ((a, 0), (b, width)):
                shape("line", x1=end[0], y1=end[1], x2=edge, y2=(a[1] + b[1]) / 2,
                      **LINK_STYLE[kind])
            continue
        style = LINK_STYLE[kind]
        others = tuple(box for area, box in boxes if area not in (link_a, link_b))
        points = route(a, b, others, float(style["stroke-width"]) / 2)
        if len(points) == 2:
            shape("line", x1=a[0], y1=a[1], x2=b[0], y2=b[1], data_link=kind,
                  data_between=f"{link_a} {link_b}", **style)
        else:
            shape("polyline", points=" ".join(f"{x:.1f},{y:.1f}" for x, y in points),
                  fill="none", stroke_linejoin="round", data_link=kind,
                  data_between=f"{link_a} {link_b}", **style)
    return tuple(out)


def _edge(p: tuple[float, float], towards: tuple[float, float], size: tuple[int, int]) -> tuple[float, float]:
    """Where the segment from the centre ``p`` towards ``towards`` leaves the box around ``p``."""
    dx, dy = towards[0] - p[0], towards[1] - p[1]
    if dx == 0 and dy == 0:
        return p
    w, h = size[0] / 2 + 2, size[1] / 2 + 2
    t = min(w / abs(dx) if dx else 1e9, h / abs(dy) if dy else 1e9, 1.0)
    return (p[0] + dx * t, p[1] + dy * t)


@lru_cache(maxsize=1024)  # a board's few colours, on every map
def _darker(colour: str, amount: float = 0.35) -> str:
    r, g, b = _rgb(colour)
    return _hex(round(v * (1 - amount)) for v in (r, g, b))


def _hex(values: Any) -> str:
    return "#" + "".join(f"{v:02x}" for v in values)


def _safe_id(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text)


def render_svg(scene: Scene, layout: Layout) -> str:
    """The SVG document of ``scene`` (UTF-8 text with an XML declaration)."""
    return render_svg_tree(scene, layout)[0]


class Drawn(NamedTuple):
    """A map's SVG text, the tree it was written from, and that text in the pieces it was
    written in with where each element's markup stands among them (gm.maps.raster draws
    the PNG from these rather than parse or write the text again)."""

    svg: str
    root: ET.Element
    parts: list[str]
    spans: dict[ET.Element, tuple[int, int]]


def render_svg_tree(scene: Scene, layout: Layout) -> Drawn:
    """:func:`render_svg`, the tree it was written from and how (:class:`Drawn`)."""
    root = _Drawing(scene, layout).draw()
    ET.indent(root, space=" ")
    spans: dict[ET.Element, tuple[int, int]] = {}
    parts = written(root, spans)
    if parts is None:  # not a tree of gm's own: never so here
        parts, spans = [ET.tostring(root, encoding="unicode")], {}
    svg = '<?xml version="1.0" encoding="UTF-8"?>\n' + "".join(parts) + "\n"
    return Drawn(svg, root, parts, spans)


_ATTRIBUTE_SPECIAL = re.compile('[&<>"\r\n\t]')
_TEXT_SPECIAL = re.compile("[&<>]")


class _NotPlain(Exception):
    """A tree :func:`to_text` leaves to ElementTree."""


def to_text(root: ET.Element) -> str:
    """``ET.tostring(root, encoding="unicode")``, the very same text, in half the time for
    a tree as gm.maps.svg builds it (issue 21: a Baltica map was written twice, 2.4 ms
    each, its attached SVG and the tree its PNG is drawn from): plain tags, string values,
    escaped as ElementTree escapes them (tests/maps/test_svg_text.py compares the two on
    every game's maps). A namespaced tag (``{uri}name``), a comment or a value that is not
    a string is left to ``ET.tostring``."""
    parts = written(root)
    return ET.tostring(root, encoding="unicode") if parts is None else "".join(parts)


def written(root: ET.Element, spans: dict[ET.Element, tuple[int, int]] | None = None) -> list[str] | None:
    """:func:`to_text` in pieces (None for a tree left to ElementTree); with ``spans``, each
    element's pieces (start, end), its tail left out, go there."""
    out: list[str] = []
    write = out.append
    attribute_special, text_special = _ATTRIBUTE_SPECIAL.search, _TEXT_SPECIAL.search

    def element(e: ET.Element) -> None:
        tag = e.tag
        if "{" in tag:  # a TypeError for a comment's or a PI's tag (a function)
            raise _NotPlain
        start = len(out)
        attrib = e.attrib
        if attrib:
            values = "".join(attrib.values())  # a TypeError for a value not a string
            if attribute_special(values) is None:
                write(f"<{tag}" + "".join([f' {k}="{v}"' for k, v in attrib.items()]))
            else:
                write(f"<{tag}" + "".join([f' {k}="{_escape_attribute(v)}"' for k, v in attrib.items()]))
        else:
            write("<" + tag)
        text = e.text
        if text or len(e):
            write(">")
            if text:
                write(text if text_special(text) is None else _escape_text(text))
            for child in e:
                element(child)
            write(f"</{tag}>")
        else:
            write(" />")
        if spans is not None:
            spans[e] = (start, len(out))
        tail = e.tail
        if tail:
            write(tail if text_special(tail) is None else _escape_text(tail))

    try:
        element(root)
    except (_NotPlain, TypeError):
        return None
    return out


def _escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _escape_attribute(value: str) -> str:
    return (_escape_text(value).replace('"', "&quot;").replace("\r", "&#13;")
            .replace("\n", "&#10;").replace("\t", "&#09;"))
