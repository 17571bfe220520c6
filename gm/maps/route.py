"""Route a border line around the boxes it would otherwise run under.

A map draws each border (a link between two areas) from centre to centre. When
another area's box lies on that straight line the border seems to touch that area,
and a player reads a connection the rules do not have. ``route`` keeps the straight
line when it is clear, else bends it around the corners of the boxes
in the way, taking the shortest clear path; when nothing clear is found it keeps the
straight line. Routes depend only on the layout, so they are cached.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom

CLEARANCE = 5.0  # how far a routed line keeps from a box's edge (px)


def hits(p: Point, q: Point, box: Box, margin: float = 0.0) -> bool:
    """Whether the segment ``p``-``q`` touches ``box`` grown by ``margin``
    (Liang-Barsky clipping)."""
    left, top, right, bottom = box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin
    lo, hi = 0.0, 1.0
    for d, e in ((p[0] - q[0], p[0] - left), (q[0] - p[0], right - p[0]),
                 (p[1] - q[1], p[1] - top), (q[1] - p[1], bottom - p[1])):
        if d == 0:
            if e < 0:
                return False
            continue
        t = e / d
        if d < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def _clear(points: tuple[Point, ...], obstacles: tuple[Box, ...], margin: float) -> bool:
    return not any(hits(p, q, box, margin) for p, q in pairwise(points) for box in obstacles)


def _length(points: tuple[Point, ...]) -> float:
    return sum(((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2) ** 0.5 for p, q in pairwise(points))


def _corners(box: Box, away: float) -> list[Point]:
    left, top, right, bottom = box[0] - away, box[1] - away, box[2] + away, box[3] + away
    return [(left, top), (right, top), (left, bottom), (right, bottom)]


@lru_cache(maxsize=8192)
def route(a: Point, b: Point, obstacles: tuple[Box, ...], margin: float = 1.0) -> tuple[Point, ...]:
    """The points of the border from ``a`` to ``b`` clear of every box in ``obstacles``
    (each grown by ``margin``, half the stroke): ``(a, b)`` when the straight line is
    clear, else the shortest clear path bending at the corners of the boxes near the
    line (a shortest path in their visibility graph), else ``(a, b)``."""
    straight = (a, b)
    if _clear(straight, obstacles, margin):
        return straight
    for pad in (PAD, 3 * PAD):
        near = tuple(box for box in obstacles if _near(box, a, b, pad))
        best = _shortest_path(a, b, near, margin)
        if best is not None and _clear(best, obstacles, margin):
            return best
    return straight


PAD = 80.0  # how far beside the straight line a bent border may go (px), tried then tripled


def _near(box: Box, a: Point, b: Point, pad: float) -> bool:
    """Whether ``box`` meets the rectangle spanned by ``a`` and ``b``, grown by ``pad``."""
    return (box[2] >= min(a[0], b[0]) - pad and box[0] <= max(a[0], b[0]) + pad
            and box[3] >= min(a[1], b[1]) - pad and box[1] <= max(a[1], b[1]) + pad)


def _shortest_path(a: Point, b: Point, boxes: tuple[Box, ...], margin: float) -> tuple[Point, ...] | None:
    """Dijkstra from ``a`` to ``b`` over the corners of ``boxes`` (set off by the
    clearance), moving only along segments clear of every box."""
    away = margin + CLEARANCE
    nodes = [a, b] + [c for box in boxes for c in _corners(box, away)
                      if not any(hits(c, c, other, margin) for other in boxes)]
    dist = {0: 0.0}
    prev: dict[int, int] = {}
    done: set[int] = set()
    while True:
        open_ = [(d, i) for i, d in dist.items() if i not in done]
        if not open_:
            return None
        d, i = min(open_)
        if i == 1:
            break
        done.add(i)
        for j, node in enumerate(nodes):
            if j in done or j == i:
                continue
            step = _length((nodes[i], node))
            if d + step < dist.get(j, float("inf")) and _clear((nodes[i], node), boxes, margin):
                dist[j], prev[j] = d + step, i
    path = [1]
    while path[-1] != 0:
        path.append(prev[path[-1]])
    return tuple(nodes[k] for k in reversed(path))
