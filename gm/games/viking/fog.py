"""What one player may know of a Pax Viking position (Key Concepts, Public and Private Information).

"All information in the game is public except Saga Tiles in your hand." A
player sees their own hand, the number of tiles in each rival's hand, and
everything on the table; nobody sees the order of the saga pile (only its
size) nor a face-down victory card (Bragi's Variant). With the game setting
``open_information`` every hand is shown to everyone, and so are a trade
proposal's items and the tiles traded; otherwise a trade proposal is shown in
full to its two parties only. ``power=None`` is the moderator; a power that does not play (``SPECTATOR``, the
archive's public view) sees what every player sees of the others and holds no hand.
"""

from __future__ import annotations

from typing import Any

from gm.games.base import FULL_STATE
from gm.games.viking.data import Data, Post
from gm.games.viking.engine import owing, phase_id
from gm.games.viking.orders import Item, gives_nothing
from gm.games.viking.table import Table


def listed_longships(t: Table) -> list[tuple[str, str, bool, str]]:
    """Every longship on the map as a report lists them, one entry per longship:
    ``(controller, place name, exhausted, node)`` by controller (an uncontrolled ally
    fleet as "(Dublin)"), place name, the unexhausted first. ``journey longship N``
    (orders.md §7) counts a player's longships in this order."""
    data = t.data
    return sorted((t.controller(sh) or f"({data.fleets[sh['fleet']]['name']})",
                   data.place_name(sh["at"]), sh["exhausted"], sh["at"]) for sh in t.ships())


def _tile(data: Data, tid: str) -> dict[str, Any]:
    t = data.tiles[tid]
    return {"name": t.name, "type": t.type, "location": _where(data, t.location),
            "follower": t.follower, "trigger": t.trigger, "cost": t.cost,
            "effects": [dict(e) for e in t.effects], "modifiers": [dict(m) for m in t.modifiers]}


def _where(data: Data, loc: str) -> str:
    if loc in data.winds:
        return data.winds[loc]["name"]
    return data.place_name(loc) if loc != "anywhere" else "anywhere"


def view(data: Data, state: dict[str, Any], power: str | None) -> dict[str, Any]:
    s = state
    out: dict[str, Any] = {"game": "viking", "power": power, "phase": phase_id(s),
                           "step": s["step"], "round": s["round"], "owing": list(owing(s)),
                           "ended": s["ended"], "winners": list(s["winners"]),
                           "end_reason": s["end_reason"], "options": dict(s["options"])}
    if s["step"] == "setup":
        out.update(players=list(s["powers"]), turn_of=None)
        return out
    t = Table(data, s)
    open_info = s["options"].get("open_information")
    out["turn_of"] = s["powers"][s["current"]]
    out["order"] = list(s["powers"])
    players = []
    for p in s["powers"]:
        pl = s["players"][p]
        est = t.established(p)
        entry = {"power": p, "jarl": data.jarls[pl["jarl"]].name, "silfr": pl["silfr"],
                 "hand_size": len(pl["hand"]),
                 "advocates": [data.tiles[x].name for x in pl["advocates"]],
                 "gods": [data.tiles[x].name for x in pl["gods"]],
                 "followers": {f: est[f] for f in data.rule("follower_types")},
                 "longships_in_supply": t.ship_supply(p),
                 "influence": [k for k, v in s["influence"].items() if v == p],
                 "duchies": [data.regions[r].name for r in t.duchies(p)],
                 "home": data.homes[data.jarls[pl["jarl"]].home].name,
                 # Jarlboard Anatomy, C: "Each Jarl has a unique special ability"
                 "ability": {"start_silfr": data.jarls[pl["jarl"]].start_silfr,
                             "modifiers": [dict(m) for m in data.jarls[pl["jarl"]].modifiers]}}
        if open_info or power is None or p == power:
            entry["hand"] = [_tile(data, x) for x in pl["hand"]]
        players.append(entry)
    out["players"] = players
    if power in s["players"]:  # a spectator (the archive) or the moderator has no hand
        out["hand"] = [_tile(data, x) for x in s["players"][power]["hand"]]
    out["posts"] = [{"post": data.posts[pid].name, "region": data.regions[data.posts[pid].region].name,
                     "kind": data.posts[pid].kind,
                     "venture": data.tiles[st["venture"]].name if st.get("venture") else None,
                     # what the venture does (Posts 2: "It provides the ability written on
                     # the tile when ACTIVATED"): no player holds the tile to read it
                     **({"venture_tile": _tile(data, st["venture"])} if st.get("venture") else {}),
                     "owner": st.get("owner"), "followers": st.get("followers", 0),
                     **_printed(data, data.posts[pid])}
                    for pid, st in s["posts"].items()
                    if st.get("venture") or st.get("owner") or data.posts[pid].kind != "empty"]
    ships: dict[tuple[str, str, bool], int] = {}
    for who, at, exhausted, _ in listed_longships(t):
        ships[who, at, exhausted] = ships.get((who, at, exhausted), 0) + 1
    out["longships"] = [{"power": k[0], "at": k[1], "exhausted": k[2], "count": n}
                        for k, n in ships.items()]
    costs = data.rule("track_costs")
    out["track"] = [{"cost": c, "tile": _tile(data, x) if x else None}
                    for c, x in zip(costs, s["track"], strict=True)]
    out["pile"] = len(s["pile"])
    out["discard"] = [data.tiles[x].name for x in s["discard"]]
    out["influence"] = dict(s["influence"])
    out["victory_cards"] = [
        {"name": data.cards[c].name, "difficulty": data.cards[c].difficulty,
         "requires": [dict(r) for r in data.cards[c].requires]}
        if up or power is None else {"name": None, "difficulty": data.cards[c].difficulty}
        for c, up in zip(s["victory"]["cards"], s["victory"]["faceup"], strict=True)]
    out["actions_taken"] = s["turn"].get("actions", 0)
    if s.get("althing"):
        out["althing"] = {"tile": _tile(data, s["althing"]["tile"]), "power": s["althing"]["power"]}
    tr = s.get("trade")
    if tr:
        parties = (tr["from"], tr["to"])
        # the offer's number (the K of the phase id, public like it) and how many counter-
        # offers it had: "trade accept K" is written from the report (orders.md §7)
        out["trade"] = {"from": tr["from"], "to": tr["to"], "number": tr["k"],
                        "counters": tr["counters"]}
        if power is None or power in parties or open_info:
            give = [Item.from_json(i) for i in tr["give"]]
            out["trade"].update(give=[i.echo() for i in give], gives_nothing=gives_nothing(give),
                                get=[Item.from_json(i).echo() for i in tr["get"]])
    if power is None:
        out[FULL_STATE] = state
    return out


def _printed(data: Data, post: Post) -> dict[str, Any]:
    """What a printed post asks and gives, as its circle on the board shows it (Game Board
    Anatomy, Posts 3 and 4: a Trade Center "provides a persistent ability ... once
    Established with a Follower (type and number shown)"; a Powerful Ally "provides
    immediate gains ... costs the Silfr listed on the bottom of the Post"): players have
    no printed board to read it from. {} for an empty post."""
    if post.kind == "empty":
        return {}
    fleet = data.fleets.get(post.ally_ships, {})
    return {"asks": {"follower": post.follower, "count": post.followers, "cost": post.cost},
            "key": post.key, "gains": [dict(g) for g in post.gains],
            "modifiers": [dict(m) for m in post.modifiers],
            "fleet": {"name": fleet["name"], "count": fleet["count"]} if fleet else None}
