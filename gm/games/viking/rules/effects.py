"""The effect primitives saga tiles and powerful allies compose (docs/viking.md, tile format).

``effects`` of a tile are carried out in order by :func:`run_effects`. A
primitive that needs a decision (which post, which rival longship, which
ability to COPY, where to move) takes the next of the order's *choices* if it
fits, else applies the documented default. Events "must be performed as fully
as possible" (Key Concepts, Soft Requirements): the defaults always act when
something can be done; ``move`` is the only primitive with no default (it
moves nothing without choices), and no event uses it.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from gm.games.viking.table import HOME, Refusal, Table
from gm.i18n import Text, msg


class Choices:
    """The order's choices, consumed in order by the primitives that fit them."""

    def __init__(self, t: Table, names: list[str] | tuple[str, ...]) -> None:
        self.t = t
        self.names = deque(names)

    def take(self, accept: Any) -> Any:
        """The next choice if ``accept(name)`` gives a value (it is then used up)."""
        if not self.names:
            return None
        try:
            value = accept(self.names[0])
        except Refusal:
            value = None
        if value is not None:
            self.names.popleft()
        return value


def run_effects(t: Table, p: str, effects: Any, tile: str | None, post: str | None,
                choices: Any) -> None:
    """Carry out ``effects`` for ``p``; ``tile``/``post`` are where they come from."""
    ch = choices if isinstance(choices, Choices) else Choices(t, choices)
    for effect in effects:
        PRIMITIVES[effect["do"]](t, p, effect, tile, post, ch)


def _location(t: Table, tile: str | None, post: str | None) -> str:
    if tile is not None:
        return t.tile(tile).location
    return t.post(post).region if post else "anywhere"


def _who(t: Table, p: str, effect: dict[str, Any]) -> list[str]:
    who = effect.get("who", "self")
    if who == "self":
        return [p]
    if who == "rivals":
        return t.rivals(p)
    return [p, *t.rivals(p)]


def _source(t: Table, tile: str | None, post: str | None) -> Text:
    """Where an effect's silfr or saga tile comes from, as a report says it: the saga tile ("tile
    Wax Market", an Althing or a venture's tile), else the printed post ("post
    Normandy"), each in the reader's language; "ability" for neither."""
    if tile is not None:
        return msg("tile {tile}", tile=t.data.said(t.tile(tile).name))
    if post:
        return msg("post {post}", post=t.name(post))
    return msg("ability")


def gain_silfr(t: Table, p: str, effect: dict[str, Any], tile: Any, post: Any, ch: Choices) -> None:
    """GAIN silfr (``who``: self, rivals or all, clockwise from ``p``)."""
    for q in _who(t, p, effect):
        t.gain(q, int(effect["amount"]), _source(t, tile, post))


def pay_silfr(t: Table, p: str, effect: dict[str, Any], tile: Any, post: Any, ch: Choices) -> None:
    """Pay silfr to the supply; "if you are forced by game effects to pay Silfr and
    do not have enough, pay as much as you can" (Economy Limits)."""
    for q in _who(t, p, effect):
        t.pay(q, int(effect["amount"]), _source(t, tile, post), forced=True)


def draw(t: Table, p: str, effect: dict[str, Any], tile: Any, post: Any, ch: Choices) -> None:
    """DRAW ``count`` tiles from the saga pile (no track discard: not INVEST)."""
    for _ in range(int(effect.get("count", 1))):
        t.draw(p, _source(t, tile, post))


def place_longship(t: Table, p: str, effect: dict[str, Any], tile: Any, post: Any,
                   ch: Choices) -> None:
    """Place a longship from the jarlboard: on ``this`` post, on a post in the tile's
    location (choice; default the first post with no rival longship, else the
    first), or next to a home (choice; default the first home entry)."""
    if t.ship_supply(p) <= 0:
        t.emit("no_effect", power=p, what="place_longship", why=msg("no longship on the jarlboard"))
        return
    at = effect.get("at", "this")
    if at == "this" and post:
        node = post
    elif at == "home":
        entries = sorted(t.home_entries(p))
        node = ch.take(lambda n: t.node(n) if t.node(n) in entries else None) or entries[0]
    else:
        posts = [x.id for x in t.data.posts_in(_location(t, tile, post))]
        node = ch.take(lambda n: t.post_id(n) if t.post_id(n) in posts else None)
        if node is None:
            free = [x for x in posts if not [q for q in t.count_at(x) if q != p]]
            node = (free or posts)[0] if (free or posts) else None
        if node is None:
            return
    t.launch(p, node)
    t.emit("longship_placed", power=p, at=t.name(node))


def establish(t: Table, p: str, effect: dict[str, Any], tile: Any, post: Any, ch: Choices) -> None:
    """ESTABLISH on ``this`` post or on a post in the location / anywhere (choice;
    default the first post, in map order, where ``p`` can establish), paying its cost."""
    from gm.games.viking.rules.establish import establish as do_establish
    from gm.games.viking.rules.establish import establish_check

    where = effect.get("where", "location")
    if where == "this" and post:
        candidates = [post]
    else:
        loc = "anywhere" if where == "anywhere" else _location(t, tile, post)
        candidates = [x.id for x in t.data.posts_in(loc)]

    def fits(pid: str) -> bool:
        try:
            establish_check(t, p, pid)
            return True
        except Refusal:
            return False

    chosen = ch.take(lambda n: t.post_id(n) if t.post_id(n) in candidates
                     and fits(t.post_id(n)) else None)
    chosen = chosen or next((c for c in candidates if fits(c)), None)
    if chosen is None:
        t.emit("no_effect", power=p, what="establish", why=msg("no post to establish on"))
        return
    do_establish(t, p, chosen)


def move(t: Table, p: str, effect: dict[str, Any], tile: Any, post: Any, ch: Choices) -> None:
    """Move one of your longships up to ``steps`` steps (choices: from, to).

    The move does not exhaust the longship. Without both choices nothing moves.
    """
    start = ch.take(lambda n: t.node(n) if t.ships_of(p, t.node(n)) else None)
    if start is None:
        t.emit("no_effect", power=p, what="move", why=msg("no longship named to move"))
        return
    end = ch.take(lambda n: t.node(n) if t.node(n) != HOME else None)
    if end is None or distance(t, start, end) > int(effect["steps"]):
        t.emit("no_effect", power=p, what="move", why=msg("no destination within reach"))
        return
    ship = t.ships_of(p, start)[0]
    ship["at"] = end
    t.emit("moved", power=p, start=t.name(start), to=t.name(end))


def remove_longship(t: Table, p: str, effect: dict[str, Any], tile: Any, post: Any,
                    ch: Choices) -> None:
    """Remove (RETURN) one rival longship on ``this`` post, in the tile's location or
    anywhere (choices: the place, then the rival; default the first rival
    longship in turn order on the first such place in map order)."""
    where = effect.get("where", "location")
    if where == "this" and post:
        places = [post]
    else:
        loc = "anywhere" if where == "anywhere" else _location(t, tile, post)
        posts = [x.id for x in t.data.posts_in(loc)]
        regions = sorted({t.post(x).region for x in posts} | {t.post(x).access for x in posts})
        places = posts + [r for r in regions if r in t.data.regions]
    place = ch.take(lambda n: t.node(n) if t.node(n) in places else None)
    rival = ch.take(lambda n: n if n in t.rivals(p) else None)
    for node in [place] if place else places:
        for q in [rival] if rival else t.rivals(p):
            ships = t.ships_of(q, node)
            if ships:
                t.return_ship(ships[0])
                t.emit("longship_removed", power=p, rival=q, at=t.name(node))
                return
    t.emit("no_effect", power=p, what="remove_longship", why=msg("no rival longship there"))


def copy(t: Table, p: str, effect: dict[str, Any], tile: Any, post: Any, ch: Choices) -> None:
    """COPY: use a rival's ability (choice: the rival's tile; default the first rival
    venture post, advocate or god with effects, in turn order and map order).
    Persistent abilities and other copies are not copied, nor a ONCE ability
    already used this turn (copying it uses it)."""
    kinds = ("venture", "advocate", "god") if effect["of"] == "any" else (effect["of"],)
    options: list[tuple[str, str | None]] = []
    for q in t.rivals(p):
        for pid in t.owned_posts(q, "venture"):
            options.append((t.s["posts"][pid]["venture"], pid))
        for tid in t.player(q)["advocates"] + t.player(q)["gods"]:
            options.append((tid, None))
    options = [(tid, pid) for tid, pid in options
               if t.tile(tid).type in kinds and t.tile(tid).effects and not t.once_used(tid)
               and not any(e["do"] == "copy" for e in t.tile(tid).effects)]
    names = {t.tile(tid).name.lower(): (tid, pid) for tid, pid in options}
    chosen = ch.take(lambda n: names.get(n.lower())) or (options[0] if options else None)
    if chosen is None:
        t.emit("no_effect", power=p, what="copy", why=msg("no rival ability to copy"))
        return
    chosen_tile, chosen_post = chosen
    t.use_once(chosen_tile)
    t.emit("copied", power=p, tile=t.tile(chosen_tile).name)
    run_effects(t, p, t.tile(chosen_tile).effects, chosen_tile, chosen_post, ch)


PRIMITIVES = {"gain_silfr": gain_silfr, "pay_silfr": pay_silfr, "draw": draw,
              "place_longship": place_longship, "establish": establish, "move": move,
              "remove_longship": remove_longship, "copy": copy}


def distance(t: Table, start: str, end: str) -> int:
    """Steps from ``start`` to ``end`` through white borders and posts (breadth first)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if node == end:
            return seen[node]
        for nxt in t.data.adjacent.get(node, ()):
            if nxt not in seen:
                seen[nxt] = seen[node] + 1
                queue.append(nxt)
    return 10**6
