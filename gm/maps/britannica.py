"""Pax Britannica's view as a map scene (view.py's view: the map is public in this game).

Areas and seas are named in the reader's language (``place:<id>`` of the map words).
Areas are coloured by the power whose marker holds them (home countries by their
power), with the marker's kind; units stand as "army 10" under their area,
merchant fleets as a count per power in each sea zone. This phase's moves and
merchant voyages are arrows; colonial combats and unrest are marked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from gm.games.britannica.data import load
from gm.maps.scene import Area, Arrow, Link, Piece, Scene


def scene(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
          words: Mapping[str, str]) -> Scene:
    d = load()
    powers = (*d.great_powers, *d.minor_powers)
    homes = {d.home(p): p for p in powers if d.home(p) in d.areas}
    sc = Scene(palette={p: p for p in powers}, words=dict(words))
    markers = view.get("markers") or {}
    for a in d.areas.values():
        held = [m for m in markers.get(a.id, []) if m.get("established", True)]
        owner = homes.get(a.id) or (held[0]["power"] if held else None)
        note = " ".join(str(m.get("kind", "")) for m in held[:2]) if held else (
            f"{a.value}/{a.strength}" if a.type != "home" else "")
        sc.areas[a.id] = Area(a.id, words.get(f"place:{a.id}", a.name), "land", owner, note)
    seen: set[frozenset[str]] = set()
    for s, sea in d.seas.items():
        sc.areas[s] = Area(s, words.get(f"place:{s}", sea.name), "sea")
        for other in sea.adjacent:
            if frozenset((s, other)) not in seen:
                seen.add(frozenset((s, other)))
                sc.links.append(Link(s, other, "sea"))
    for a in d.areas.values():
        for other in sorted(d.neighbours(a.id)):
            if frozenset((a.id, other)) not in seen and other in sc.areas:
                seen.add(frozenset((a.id, other)))
                sc.links.append(Link(a.id, other, "land"))
        sc.links += [Link(a.id, s, "sea") for s in a.seas if s in sc.areas]
    units: Counter[tuple[str, str, str]] = Counter()
    for u in view.get("units") or []:
        where = homes_of(d, u["power"]) if u.get("at") == "home" else u.get("at")
        if where in sc.areas:
            units[(str(where), u["power"], f"{u['type']} {u['strength']}")] += 1
    for (where, power, label), n in units.items():  # three Army(10) at home: one chip "army 10 ×3"
        sc.pieces.append(Piece(where, power, "public", label, f"×{n}" if n > 1 else "", count=n))
    fleets: Counter[tuple[str, str]] = Counter()
    for power, seas in (view.get("merchants") or {}).items():
        fleets.update((s, power) for s in seas)
    for (s, power), n in sorted(fleets.items()):
        sc.pieces.append(Piece(s, power, "public", words.get("merchants", "merchant"), f"×{n}"
                               if n > 1 else "", count=n))
    for area in view.get("unrest") or []:
        _mark(sc, area if isinstance(area, str) else area.get("area"), "unrest")
    for e in events:
        data = e.get("data") or {}
        if e.get("type") in ("move_done", "garrison_done", "merchant_done"):
            start = data.get("from")
            start = homes_of(d, data.get("power", "")) if start in (None, "home") else start
            path = [start, *(data.get("path") or [data.get("to")])]
            path = [p for p in path if p in sc.areas]
            if len(path) >= 2:
                sc.arrows.append(Arrow(path, str(data.get("power"))))
        elif e.get("type") == "colonial_combat":
            _mark(sc, data.get("area"), "battle")
        elif e.get("type") in ("marker_established", "marker_removed"):
            _mark(sc, data.get("area"), "captured")
    shown = {a.owner for a in sc.areas.values()} | {p.owner for p in sc.pieces}
    homes_shown = {p: homes_of(d, p) for p in powers if p in shown}
    sc.legend = [(p, sc.areas[h].label if h is not None and h in d.areas else p)
                 for p, h in homes_shown.items()]
    return sc


def homes_of(d: Any, power: str) -> str | None:
    try:
        return str(d.home(power))
    except (KeyError, TypeError):
        return None


def _mark(sc: Scene, where: Any, mark: str) -> None:
    if where in sc.areas and mark not in sc.areas[where].marks:
        sc.areas[where].marks.append(mark)
