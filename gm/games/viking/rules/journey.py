"""JOURNEY step by step, with its trades on the way (Standard Actions B).

"Move 1 Unexhausted Longship you control up to 3 Steps then Exhaust with the
option to Trade before or after any step if Colocated with a Rival." By mail
the journey is carried out one step at a time: :func:`start` checks the whole
path and spends the action, an ``offer`` that follows moves the longship on to
the step where it is made (:func:`advance`) and waits for the rival's answer,
and :func:`finish` takes the rest of the steps and exhausts the longship once
no offer of the journey is left. The journey in progress is
``state.turn.journey``: ``{"left": [nodes still to go], "nodes": [nodes stood
on], "start": node, "home": bool, "order": its echo}``; the journeying longship carries
``"journeying": true`` while it waits for an answer.
"""

from __future__ import annotations

from typing import Any

from gm.games.viking.orders import Journey
from gm.games.viking.table import HOME, Refusal, Table
from gm.i18n import as_data, from_data, msg


def start(t: Table, p: str, order: Journey) -> None:
    """Begin a JOURNEY: check every step before anything moves.

    Steps: into or out of a post is one step; crossing a white border is one
    step; black borders are impassable; harbor posts are entered only from their
    sea region; a longship leaving the jarlboard first steps next to a home
    marker. The longship is the first unexhausted one of ``p`` at the start (its
    own before an ally longship).
    """
    begin = t.node(order.start)
    path = [t.node(n) for n in order.path]
    steps = t.rule("journey_steps") + t.modifier(p, "journey", "steps")
    if len(path) > steps:
        raise Refusal(msg("a journey is at most {n} steps", n=steps))
    if HOME in path:
        raise Refusal(msg("a longship cannot journey back onto the jarlboard"))
    ship = None
    if begin == HOME:
        if t.ship_supply(p) <= 0:
            raise Refusal(msg("no longship left on your jarlboard"))
        if path[0] not in t.home_entries(p):
            if harbor_region(t, path[0]):
                raise not_a_step(t, path[0], begin)
            raise Refusal(msg("{place} is not next to one of your homes: a longship leaving your "
                              "jarlboard steps first into {places}", place=t.name(path[0]),
                              places=t.names(sorted(t.home_entries(p), key=t.data.place_name))))
    else:
        ready = sorted((sh for sh in t.ships_of(p, begin) if not sh["exhausted"]),
                       key=lambda sh: "fleet" in sh)
        if not ready:
            raise t.no_unexhausted(begin, msg("you have no unexhausted longship {at}",
                                              at=t.at(begin)))
        if path[0] not in t.data.adjacent[begin]:
            raise not_a_step(t, path[0], begin)
        ship = ready[0]
    for a, b in zip(path, path[1:], strict=False):
        if b not in t.data.adjacent[a]:
            raise not_a_step(t, b, a)
    if ship is not None:
        ship["journeying"] = True
    if len(path) > t.rule("journey_steps"):
        t.modifier(p, "journey", "steps", use=True)  # the extra steps are used
    t.s["turn"]["journey"] = {"start": begin, "left": path, "home": begin == HOME,
                              "nodes": [] if begin == HOME else [begin],
                              "order": as_data(order.echo())}
    t.action_bonus(p, "journey")


def harbor_region(t: Table, node: str) -> bool:
    """Game Board Anatomy, D: "Harbor Regions ... consist of Posts accessible by sea based
    Harbors": the region itself is no step of a journey."""
    region = t.data.regions.get(node)
    return region is not None and region.type == "harbor"


def not_a_step(t: Table, place: str, start: str) -> Refusal:
    """Why ``place`` cannot be the step after ``start``. A harbor region (Gotland, Crimea)
    is drawn on the map like a place to go, so its refusal names the posts a longship
    steps into instead and the seas they are entered from (Game Board Anatomy, Posts:
    "Harbor ... you can only move into and out of the Post from the Sea Region where the
    Harbor is located")."""
    if harbor_region(t, place):
        posts = sorted((p for p in t.data.posts.values() if p.region == place),
                       key=lambda p: p.name)
        seas = sorted({p.harbor for p in posts if p.harbor}, key=t.data.place_name)
        return Refusal(msg("{place} is a harbor region: a longship does not enter it but one "
                           "of its posts, {posts}, from {seas}", place=t.name(place),
                           posts=t.names([p.id for p in posts]), seas=t.names(seas)))
    return Refusal(msg("{place} is not one step from {start}", place=t.name(place),
                       start=t.name(start)))


def current(t: Table) -> dict[str, Any] | None:
    """The journey in progress this turn, if any."""
    j = t.s["turn"].get("journey")
    return j if isinstance(j, dict) and j else None


def where(j: dict[str, Any]) -> str:
    """The node the journeying longship stands on now (``home`` before its first step)."""
    return j["nodes"][-1] if j["nodes"] else HOME


def trade_point(t: Table, p: str, rival: str, at: str) -> int:
    """How many steps the longship takes before the trade with ``rival``.

    ``at``: the place named in the offer (where the longship is now or a step
    still to go); without it, the first such place where ``p`` is COLOCATED
    with ``rival`` (Trade: "when your Longship is in the same Region as a
    Rival's Longship"). Nothing has moved when this refuses.
    """
    j = current(t)
    if j is None:
        raise Refusal(msg("an offer is made during a JOURNEY: write it right after the journey"))
    ahead = [where(j), *j["left"]]
    if at:
        node = t.node(at)
        if node not in ahead:
            raise Refusal(msg("{place} is not on the rest of your journey", place=t.name(node)))
        candidates = [ahead.index(node)]
    else:
        candidates = list(range(len(ahead)))
    for i in candidates:
        if ahead[i] != HOME and rival in t.colocated_rivals(p, ahead[i]):
            return i
    if at:
        raise Refusal(msg("{at} your journeying longship is not colocated with {rival}",
                          at=t.at(t.node(at)), rival=t.who(rival)))
    raise Refusal(msg("your journeying longship is never colocated with {rival}", rival=t.who(rival)))


def advance(t: Table, p: str, steps: int) -> None:
    """Move the journeying longship ``steps`` steps on (it stays unexhausted)."""
    j = current(t)
    assert j is not None
    if steps <= 0:
        return
    leg, j["left"] = j["left"][:steps], j["left"][steps:]
    _move(t, p, j, leg)


def finish(t: Table, p: str) -> None:
    """The rest of the journey, then Exhaust the longship (no offer left)."""
    j = current(t)
    if j is None:
        return
    t.s["turn"]["journey"] = {}
    ship = _ship(t)
    if j["left"]:
        ship = _move(t, p, j, j["left"])
    if ship is not None:
        ship.pop("journeying", None)
        if t.controller(ship) == p:
            t.exhaust(ship, from_data(j.get("order")) or msg("journey"))


def _ship(t: Table) -> dict[str, Any] | None:
    return next((sh for sh in t.ships() if sh.get("journeying")), None)


def _move(t: Table, p: str, j: dict[str, Any], leg: list[str]) -> dict[str, Any] | None:
    ship = _ship(t)
    here = where(j)
    if ship is None and j["home"] and not j["nodes"]:
        ship = t.launch(p, leg[-1])
        ship["journeying"] = True
    elif ship is None or t.controller(ship) != p:
        t.emit("no_effect", power=p, what="journey", why=msg("the longship changed hands"))
        j["left"] = []
        return ship
    ship["at"] = leg[-1]
    j["nodes"] += leg
    t.emit("journey", power=p, start=t.name(here), path=[t.name(n) for n in leg],
           fleet=t.data.fleets[ship["fleet"]]["name"] if "fleet" in ship else "")
    return ship
