"""The standard actions INVEST, PLAY, ACTIVATE, PARLEY (Standard Actions A, C-E; JOURNEY: rules/journey.py).

Each function carries out one action for player ``p`` or raises
:class:`Refusal` before changing anything it cannot finish; the turn engine
then reports the order as not carried out and does not spend the action.
"""

from __future__ import annotations

from gm.games.viking.orders import Activate, InvestBuy, Parley, Play
from gm.games.viking.rules.effects import run_effects
from gm.games.viking.rules.establish import (
    challenge,
    challenged_rival,
    establish,
    establish_check,
    place_venture,
    rivals_present,
)
from gm.games.viking.table import Refusal, Table
from gm.i18n import msg


def invest_draw(t: Table, p: str) -> None:
    """INVEST, draw (Standard Actions A): "Draw from the top of the Saga Pile for no
    cost and immediately Discard the Saga Tile on the 1 Silfr cost space (if any) of
    the Saga Track. Slide the other Saga Tiles within the Saga Track down, and
    refill the uppermost space on the Saga Track from the Saga Pile."""
    if not t.s["pile"]:
        raise Refusal(msg("the saga pile is empty: buy from the saga track instead"))
    t.draw(p, "invest")
    track = t.s["track"]
    if track[0] is not None:
        t.s["discard"].append(track[0])
        t.emit("track_discarded", tile=t.tile(track[0]).name)
    track[:] = track[1:] + [t.s["pile"].pop(0) if t.s["pile"] else None]
    t.action_bonus(p, "invest")


def invest_buy(t: Table, p: str, order: InvestBuy) -> None:
    """INVEST, buy (Standard Actions A): "Buy from the Saga Track for the listed
    Silfr cost on the gameboard without refilling the Saga Track." (BUY)."""
    track = t.s["track"]
    tid = t.tile_named(order.tile, [x for x in track if x])
    if tid is None:
        raise Refusal(msg("{tile} is not on the saga track", tile=t.data.said(order.tile)))
    i = track.index(tid)
    price = t.rule("track_costs")[i]
    discounts = t.discounts(p, "invest")
    cost = max(0, price - t.modifier(p, "invest", "discount"))
    t.pay(p, cost, msg("buying {tile}", tile=t.data.said(order.tile)))
    t.modifier(p, "invest", "discount", use=True)
    track[i] = None
    t.player(p)["hand"].append(tid)
    # the price on the track and what lowered it: the report says why it cost less
    t.emit("bought", power=p, tile=t.tile(tid).name, cost=cost, price=price,
           discounts=discounts if price else [])
    t.action_bonus(p, "invest")


def requirement_posts(t: Table, p: str, location: str) -> list[str]:
    """REQUIREMENT: posts in ``location`` where ``p`` has only its own longship(s)."""
    return [x.id for x in t.data.posts_in(location) if t.alone(p, x.id)]


def play(t: Table, p: str, order: Play) -> str | None:
    """PLAY (Standard Actions C): with a longship alone on a post in the tile's
    location, (re)place and establish the tile or resolve an event.

    Ventures go onto an empty post or replace a venture post where ``p`` is
    alone (``at``; default: an empty post, then a rival's venture, then one of
    ``p``'s own). Advocates and gods go to the jarlboard, replacing the oldest
    when its circles are full (default). Events resolve at once (immediate) or go
    to the Althing (returns ``"althing"``).
    """
    hand = t.player(p)["hand"]
    tid = t.tile_named(order.tile, hand)
    if tid is None:
        raise Refusal(msg("{tile} is not in your hand", tile=t.data.said(order.tile)))
    tile = t.tile(tid)
    alone = requirement_posts(t, p, tile.location)
    if not alone:
        raise Refusal(msg("you need a longship alone on a post {where}",
                          where=_in(t, tile.location)))
    if tile.type == "venture":
        pid = venture_post(t, p, alone, order.at)
        place_venture(t, p, tid, pid)
        t.action_bonus(p, "play")
        return None
    if tile.type in ("advocate", "god"):
        slots = "advocates" if tile.type == "advocate" else "gods"
        establish_check_tile(t, p, tid)
        board = t.player(p)[slots]
        if len(board) >= t.rule("advocate_slots" if slots == "advocates" else "god_slots"):
            old = board.pop(0)
            t.s["discard"].append(old)
            t.emit("replaced", power=p, tile=t.tile(old).name)
        hand.remove(tid)
        board.append(tid)
        t.emit("played", power=p, tile=tile.name, type=tile.type)
        if tile.trigger == "immediate":
            run_effects(t, p, tile.effects, tid, None, order.choices)
        t.action_bonus(p, "play")
        return None
    hand.remove(tid)
    t.emit("event_played", power=p, tile=tile.name, trigger=tile.trigger)
    reveal_bragi(t)
    t.action_bonus(p, "play")
    if tile.trigger == "althing":
        t.s["althing"] = {"tile": tid, "power": p, "choices": list(order.choices)}
        return "althing"
    run_effects(t, p, tile.effects, tid, None, order.choices)
    t.s["removed"].append(tid)
    return "event"


def establish_check_tile(t: Table, p: str, tid: str) -> None:
    tile = t.tile(tid)
    if t.supply(p, tile.follower) < 1:
        raise Refusal(msg("no {follower} follower left on your jarlboard", follower=tile.follower))


def venture_post(t: Table, p: str, alone: list[str], at: str) -> str:
    """The post a venture goes onto (PLAY, Ventures; default documented in :func:`play`)."""
    usable = [pid for pid in alone if t.post(pid).kind == "empty"]
    if at:
        pid = t.post_id(at)
        if pid not in usable:
            raise Refusal(msg("you need a longship alone on {place}, an empty or venture post in "
                              "the tile's location", place=t.name(pid)))
        return pid
    if not usable:
        raise Refusal(msg("your longships there are alone only on pre-printed posts"))

    def rank(pid: str) -> int:
        owner = t.s["posts"][pid].get("owner")
        venture = t.s["posts"][pid].get("venture")
        return 0 if not venture else 1 if owner != p else 2

    return sorted(usable, key=rank)[0]


def reveal_bragi(t: Table) -> None:
    """Bragi's Variant (Set-up D): reveal one face-down victory card per event played."""
    faceup = t.s["victory"]["faceup"]
    if False in faceup:
        i = faceup.index(False)
        faceup[i] = True
        t.emit("card_revealed", card=t.data.cards[t.s["victory"]["cards"][i]].name)


def activate(t: Table, p: str, order: Activate) -> None:
    """ACTIVATE (Standard Actions D): "Perform the written ability on a Venture Post if
    you have a Follower and an Unexhausted Longship on the Post, then Exhaust that
    Longship." The same venture may be activated again with another longship."""
    pid = t.post_id(order.post)
    st = t.s["posts"][pid]
    if not st.get("venture") or st.get("owner") != p:
        raise Refusal(msg("{place} is not one of your venture posts", place=t.name(pid)))
    tile = t.tile(st["venture"])
    if tile.trigger != "activate":
        raise Refusal(msg("{tile} has no ability to activate", tile=t.data.said(tile.name)))
    if t.once_used(st["venture"]):
        raise Refusal(msg("{tile} is used once a turn (ONCE) and was used this turn",
                          tile=t.data.said(tile.name)))
    ready = sorted((sh for sh in t.ships_of(p, pid) if not sh["exhausted"]),
                   key=lambda sh: "fleet" in sh)
    if not ready:
        raise t.no_unexhausted(pid, msg("you have no unexhausted longship on {place}",
                                        place=t.name(pid)))
    t.exhaust(ready[0], order.echo())
    t.use_once(st["venture"])
    t.emit("activated", power=p, post=t.name(pid), tile=tile.name)
    run_effects(t, p, tile.effects, st["venture"], pid, order.choices)
    t.action_bonus(p, "activate")


def parley(t: Table, p: str, order: Parley) -> None:
    """PARLEY (Standard Actions E): "You may PARLEY as long as a Longship you control
    is Alone in the Post or you have more Longships, including special abilities,
    in the Post than a Rival." Alone, establish your follower, paying the post's
    cost. Not alone, challenge one rival with fewer longships (the one the order
    names, else the only one: :func:`challenged_rival`), then establish if no
    rival is left on the post; with another rival still there, the PARLEY ends
    with the challenge (as the Jarldom action: "If you are now the only player
    who has a Longship(s) on this Post, Establish"). Either way the player must
    be able to establish there (follower, cost) for the PARLEY to begin.
    """
    pid = t.post_id(order.post)
    if not t.ships_of(p, pid):
        raise Refusal(msg("you have no longship on {place}", place=t.name(pid)))
    establish_check(t, p, pid)
    if rivals_present(t, p, pid) or order.rival:
        challenge(t, p, pid, challenged_rival(t, p, pid, order.rival))
    if not rivals_present(t, p, pid):
        establish(t, p, pid)
    t.action_bonus(p, "parley")


def _in(t: Table, location: str) -> str:
    """"in LOCATION", a tile's location (a wind, a region or anywhere), in the reader's
    language: « dans l'Ouest », « en Courlande » (:meth:`Data.at_said`)."""
    if location in t.data.winds:
        return msg("in the {wind}", wind=t.data.wind_said(location))
    if location == "anywhere":
        return msg("in any region")
    return t.data.at_said(location, "in")
