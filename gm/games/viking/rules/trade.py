"""Trade during a JOURNEY, played by mail as a proposal (Standard Actions B, Trade; trade examples).

"Move 1 Unexhausted Longship you control up to 3 Steps then Exhaust with the
option to Trade before or after any step if Colocated with a Rival." "During
your JOURNEY, when your Longship is in the same Region as a Rival's
Longship (Posts within the Region included) you may Trade Saga Tiles,
Longships, Followers, Silfr, or non-binding promises." By mail the offer is
a proposal: the rival answers ``accept``, ``refuse`` or ``counter`` before a
short deadline (no answer: refused). A counter-offer goes back to the
proposer the same way, at most ``trade_counters`` times. Nothing changes
hands until a proposal is accepted, and then only if every item can still be
given; promises are recorded, never enforced.
"""

from __future__ import annotations

from typing import Any

from gm.games.viking.orders import Item, gives_nothing
from gm.games.viking.rules import journey
from gm.games.viking.table import Refusal, Table
from gm.i18n import Text, msg


def propose(t: Table, p: str, rival: str, give: tuple[Item, ...], get: tuple[Item, ...],
            at: str = "") -> None:
    """Open a trade proposal from ``p`` to ``rival`` during ``p``'s journey (the trade
    phase waits on ``rival``): the journeying longship first goes on to the step
    where the offer is made (:func:`journey.trade_point`)."""
    if rival == p or rival not in t.powers:
        raise Refusal(msg("{rival} is not a rival", rival=t.who(rival)))
    _check(t, p, give)
    journey.advance(t, p, journey.trade_point(t, p, rival, at))
    k = t.s["turn"].get("trades", 0) + 1
    t.s["turn"]["trades"] = k
    t.s["trade"] = {"from": p, "to": rival, "give": [i.to_json() for i in give],
                    "get": [i.to_json() for i in get], "counters": 0, "k": k}
    _announce(t, "trade_proposed")


def _announce(t: Table, kind: str) -> None:
    tr = t.s["trade"]
    parties = [tr["from"], tr["to"]]
    open_info = t.s["options"].get("open_information")
    give = [Item.from_json(i) for i in tr["give"]]
    t.emit(kind, visible_to=None if open_info else parties, power=tr["from"], rival=tr["to"],
           give=[i.echo() for i in give], gives_nothing=gives_nothing(give),
           get=[Item.from_json(i).echo() for i in tr["get"]])
    if not open_info:
        t.emit("trade_negotiating", power=tr["from"], rival=tr["to"])


def answer(t: Table, response: Any) -> None:
    """Close the trade phase with the receiver's answer (default: refuse)."""
    from gm.games.viking.orders import Accept, Counter

    tr = t.s["trade"]
    parties = [tr["from"], tr["to"]]
    if isinstance(response, Counter) and tr["counters"] < t.rule("trade_counters"):
        t.s["trade"] = {"from": tr["to"], "to": tr["from"], "counters": tr["counters"] + 1,
                        "give": [i.to_json() for i in response.give],
                        "get": [i.to_json() for i in response.get], "k": tr["k"]}
        _announce(t, "trade_countered")
        return
    t.s["trade"] = None
    results = t.s["turn"].setdefault("trade_results", [])  # for conditions
    results.append(False)
    if not isinstance(response, Accept):
        t.emit("trade_refused", visible_to=None, power=tr["from"], rival=tr["to"])
        return
    give = tuple(Item.from_json(i) for i in tr["give"])
    get = tuple(Item.from_json(i) for i in tr["get"])
    try:
        _check(t, tr["from"], give)
        _check(t, tr["to"], get)
        _check_receive(t, tr["to"], give)
        _check_receive(t, tr["from"], get)
    except Refusal as why:
        t.emit("trade_failed", power=tr["from"], rival=tr["to"], why=why.reason)
        return
    _transfer(t, tr["from"], tr["to"], give)
    _transfer(t, tr["to"], tr["from"], get)
    results[-1] = True
    if t.s["options"].get("open_information"):  # hands are public: so is what changed hands
        t.emit("trade_done", power=tr["from"], rival=tr["to"], gives_nothing=gives_nothing(give),
               give=[i.echo() for i in give], get=[i.echo() for i in get])
        return
    t.emit("trade_done", power=tr["from"], rival=tr["to"], gives_nothing=gives_nothing(give),
           give=[_public(i) for i in give], get=[_public(i) for i in get])
    t.emit("trade_tiles", visible_to=parties, power=tr["from"], rival=tr["to"],
           give=[i.echo() for i in give], get=[i.echo() for i in get])


def _public(item: Item) -> Text:
    """What everyone learns of an item: a traded tile is not named (hands are private,
    unless the game makes all information public)."""
    return msg("a saga tile") if item.kind == "tile" else item.echo()


def _check(t: Table, giver: str, items: tuple[Item, ...]) -> None:
    """Can ``giver`` hand over every item now (Economy Limits: no debt)?"""
    silfr = sum(i.amount for i in items if i.kind == "silfr")
    if silfr > t.silfr(giver):
        raise Refusal(msg("{power} has {have} silfr, not {n}", power=t.who(giver), have=t.silfr(giver),
                               n=silfr))
    for i in items:
        if i.kind == "tile" and t.tile_named(i.value, t.player(giver)["hand"]) is None:
            raise Refusal(msg("{power} does not hold {tile}", power=t.who(giver),
                              tile=t.data.said(i.value)))
        if i.kind == "follower" and t.s["posts"][t.post_id(i.value)].get("owner") != giver:
            raise Refusal(msg("{power} has no follower at {place}", power=t.who(giver),
                               place=t.data.said(i.value)))
        if i.kind == "longship" and not [sh for sh in t.ships_of(giver, t.node(i.value))
                                         if "fleet" not in sh]:
            raise Refusal(msg("{power} has no longship {at}", power=t.who(giver),
                               at=t.at(t.node(i.value))))


def _check_receive(t: Table, taker: str, items: tuple[Item, ...]) -> None:
    """Component Limits: the taker needs the followers and longships in supply."""
    ships = sum(1 for i in items if i.kind == "longship")
    if ships > t.ship_supply(taker):
        raise Refusal(msg("{power} has not enough longships on the jarlboard", power=t.who(taker)))
    for i in items:
        if i.kind == "follower":
            ftype, n, _ = t.follower_type(t.post_id(i.value))
            if t.supply(taker, ftype) < n:
                raise Refusal(msg("{power} has no {follower} follower left", power=t.who(taker),
                                   follower=t.data.said(ftype)))


def _transfer(t: Table, giver: str, taker: str, items: tuple[Item, ...]) -> None:
    for i in items:
        if i.kind == "silfr" and i.amount:
            t.player(giver)["silfr"] -= i.amount
            t.player(taker)["silfr"] += i.amount
        elif i.kind == "tile":
            tid = t.tile_named(i.value, t.player(giver)["hand"])
            t.player(giver)["hand"].remove(tid)
            t.player(taker)["hand"].append(tid)
        elif i.kind == "follower":
            t.s["posts"][t.post_id(i.value)]["owner"] = taker
        elif i.kind == "longship":
            node = t.node(i.value)
            ship = [sh for sh in t.ships_of(giver, node) if "fleet" not in sh][0]
            ship["owner"] = taker
