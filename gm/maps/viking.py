"""Pax Viking's view as a map scene (fog.py's view only: never the full state, never a hand).

"All information in the game is public except Saga Tiles in your hand" (Key
Concepts, Public and Private Information), and a map shows only the table:
regions coloured by the player holding them as a duchy (Key Concepts, Duchies),
else by their type (river, harbor; seas drawn as sea); every post with its kind,
the venture on it and the followers of its owner; the homes of the jarls in
play; longships as the view counts them, by controller (an uncontrolled ally
fleet in grey), exhausted ones apart. The hand the view carries for its own
player is never drawn. This turn's journeys and longship moves are arrows; a
journey "from home" starts at the player's home; a removed longship marks its
place as a battle. Borders: white borders (one step) thin, sea lanes dashed,
black borders (impassable, Standard Actions B) a thick black line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.games.viking.data import Data, load
from gm.maps.scene import Area, Arrow, Link, Piece, Scene

TYPES = ("river", "harbor")


def _ids(data: Data) -> dict[str, str]:
    """Place names (as the view gives them) and ids -> id."""
    out: dict[str, str] = {}
    for table in (data.regions, data.homes, data.posts):  # a post named like its region wins
        out.update({t.name.casefold(): i for i, t in table.items()})
    out.update({i: i for table in (data.regions, data.homes, data.posts) for i in table})
    return out


def scene(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
          words: Mapping[str, str]) -> Scene:
    data = load()
    ids = _ids(data)

    def area_id(name: Any) -> str | None:
        return ids.get(str(name).casefold()) if name else None

    def local(node: str, name: str) -> str:  # in the reader's language (board.toml name_fr)
        return words.get(f"place:{node}", name)

    listed = view.get("players") or []  # names only before set-up is done
    players = [p for p in listed if isinstance(p, Mapping)]
    powers = [str(p["power"]) if isinstance(p, Mapping) else str(p) for p in listed]
    sc = Scene(palette={**{p: p for p in powers}, "river": "river", "harbor": "harbor",
                        "ally": "ally"}, words=dict(words))
    duchy = {area_id(r): p["power"] for p in players for r in p.get("duchies") or []}
    for r in data.regions.values():
        if r.type == "sea":
            sc.areas[r.id] = Area(r.id, local(r.id, r.name), "sea")
        else:
            sc.areas[r.id] = Area(r.id, local(r.id, r.name), "land", duchy.get(r.id, r.type),
                                  words.get(r.type, r.type))
    home_of = {area_id(p.get("home")): p["power"] for p in players}
    for h in data.homes.values():
        sc.areas[h.id] = Area(h.id, local(h.id, h.name), "box", home_of.get(h.id),
                              words.get("home", "home"))
        sc.links += [Link(h.id, a, "sea" if data.regions[a].type == "sea" else "land")
                     for a in h.adjacent if a in data.regions]
    on_post = {area_id(p.get("post")): p for p in view.get("posts") or []}
    for pid, post in data.posts.items():
        st = on_post.get(pid) or {}
        note = st.get("venture") or words.get(post.kind, post.kind.replace("_", " "))
        sc.areas[pid] = Area(pid, local(pid, post.name), "box", st.get("owner"), str(note))
        sc.links.append(Link(pid, post.access, "sea" if post.harbor else "land"))
        if st.get("owner"):
            n = int(st.get("followers") or 0)
            sc.pieces.append(Piece(pid, str(st["owner"]), "public",
                                   words.get("followers", "followers"), str(n), count=max(n, 1)))
    for pair in sorted(data.white | data.black, key=sorted):
        a, b = sorted(pair)
        sea = "sea" in (data.regions[a].type, data.regions[b].type)
        style = "impassable" if pair in data.black else "sea" if sea else "land"
        sc.links.append(Link(a, b, style))
    for s in view.get("longships") or []:
        where = area_id(s.get("at"))
        if where is None:
            continue
        owner = str(s["power"]) if s["power"] in powers else "ally"
        label = words.get("longship", "longship")
        if owner == "ally":
            fleet = str(s["power"]).strip("()")  # named like its ally post: "Dublin"
            label = f"{label} {local(area_id(fleet) or '', fleet)}"
        n = int(s.get("count", 1))
        detail = words.get("exhausted", "exhausted") if s.get("exhausted") else ""
        sc.pieces.append(Piece(where, owner, "public", label,
                               f"{detail} ×{n}".strip() if n > 1 else detail, count=n, fleet=True))
    homes = {power: h for h, power in home_of.items() if h}
    _events(sc, events, lambda name, p=None: homes.get(p) if name == "home" else area_id(name),
            powers)
    shown = {a.owner for a in sc.areas.values()} | {p.owner for p in sc.pieces}
    jarl = {p["power"]: p.get("jarl", "") for p in players}
    said = {p: words.get(f"color:{p}", p) for p in powers}  # in the reader's language (issue 20)
    sc.legend = [(p, f"{said[p]} ({jarl[p]})" if jarl.get(p) else said[p]) for p in powers
                 if p in shown]
    sc.legend += [(k, words.get(k, k)) for k in (*TYPES, "ally") if k in shown]
    return sc


def _events(sc: Scene, events: Sequence[Mapping[str, Any]], area_id: Any,
            powers: Sequence[str]) -> None:
    for e in events:
        kind = str(e.get("type", "")).removeprefix("viking.")
        d = e.get("data") or {}
        owner = str(d.get("power")) if d.get("power") in powers else "ally"
        if kind == "journey":
            path = [area_id(d.get("start"), d.get("power")),
                    *(area_id(n, d.get("power")) for n in d.get("path") or [])]
        elif kind == "moved":
            path = [area_id(d.get("start"), d.get("power")), area_id(d.get("to"), d.get("power"))]
        else:
            if kind == "longship_removed" and area_id(d.get("at")) in sc.areas:
                marks = sc.areas[area_id(d.get("at"))].marks
                if "battle" not in marks:
                    marks.append("battle")
            continue
        path = [a for a in path if a in sc.areas]
        if len(path) >= 2:
            sc.arrows.append(Arrow(path, owner))
