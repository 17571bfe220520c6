"""The Movement / Status Change phase (seed, Movement / Status Change).

Decide, then merge: each acting power's orders are carried out top to bottom
on its own copy of the start-of-phase board (others' markers as they stood at
the start), then each power's own parts are merged back. Nothing a power does
in this phase can change what another power's order finds, so the result never
depends on the order in which powers are looked at (orders.md §4).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from gm.games.base import Event, copy_state
from gm.games.britannica import board as b
from gm.games.britannica import garrisons
from gm.games.britannica import orders as o
from gm.games.britannica.data import BritanniaData
from gm.i18n import vocabulary
from gm.orders.conditions import Predicate, Quantity, SubmittedOrders

State = dict[str, Any]


@vocabulary
class Refusal(Enum):
    """Why an order was not carried out (a closed vocabulary)."""

    CONDITION = "its condition was not met"
    FUNDS = "not enough money"
    FUNDS_EXHAUSTED = "skipped: money ran out on an earlier order"
    NO_LINK = "no communication link to the area"
    ILLEGAL_PLACEMENT = "the status rules forbid this marker there"
    HOME_COUNTRY = "no marker or unit may enter another power's home country"
    AT_SEA = "units end a Movement phase in an area or at home, not in a sea zone"
    NO_COUNTER = "no such piece left in the counter mix"
    NO_MARKER = "no marker of yours there to alter"
    NOT_HIGHER = "an upgrade must be to a higher status"
    NO_DOWNGRADE = "only Interest and Influence markers may be downgraded"
    NO_UNIT = "no such unit there"
    NO_PATH = "no legal path"
    NO_END = ("an army ends its move only at home, where you have a Control marker, or in an "
              "area in unrest with no other power's Control marker: place one there above this "
              "order")
    NO_FLEET_END = ("a naval unit goes only home or to a coastal area where your Control marker "
                    "is established")
    NOT_UNORGANIZED = ("a Protectorate or Possession goes only in an Unorganized or Chinese "
                       "Vassal area, or in an area in unrest")
    MERCHANT_TAKEN = "already a merchant fleet of yours in that sea zone"
    NO_NEW_MERCHANT = "no new merchant fleet is due to you this turn"
    NO_CANAL_RIGHT = "a canal needs an established Influence or Control marker there"
    CANAL_BUILT = "that canal is already built"
    TRANSFER_FORBIDDEN = "only Germany may transfer money, and only to Austria-Hungary"
    NOT_YOUR_POWER = "your seat does not control that power"
    WRONG_PHASE = "not an order of this phase"
    NO_TREATY = "no treaty of that name names you as a party"
    NOT_IMPLEMENTED = "not yet implemented"
    ALREADY_THERE = "you already have a marker there; use upgrade"
    SPECIAL_GARRISON = "the Indian Army / Western Garrison must keep three Army(10) in its zone"


class Unaffordable(Exception):
    pass


class Refused(Exception):
    def __init__(self, why: Refusal) -> None:
        super().__init__(why.value)
        self.why = why


@dataclass
class Ctx:
    """One power's working copy while its orders are carried out."""

    d: BritanniaData
    start: State
    mine: State
    actor: str
    submitted: Mapping[str, Sequence[o.AnyOrder]]
    eti: int = 0
    canal_built: list[str] | None = None
    transfers: list[tuple[str, int]] | None = None

    @property
    def funds(self) -> int:
        return int(self.mine["treasury"][self.actor])

    def quantity(self, q: Quantity) -> int:
        """``funds``: the acting power's money when the order is reached (orders.md §4)."""
        if q.name != "funds":
            raise LookupError(q.echo())
        return self.funds

    def holds(self, p: Predicate) -> bool:
        raise LookupError(p.echo())

    def pay(self, amount: int) -> None:
        if amount > self.funds:
            raise Unaffordable()
        self.mine["treasury"][self.actor] -= amount


def _cost(d: BritanniaData, kind: str) -> int:
    return int(d.rules["costs"][kind])


def _in_use(state: State, power: str, kind: str) -> int:
    return sum(1 for ms in state["markers"].values() for m in ms
               if m["power"] == power and m["kind"] == kind)


def _check_counter(c: Ctx, kind: str) -> None:
    limit = c.d.rules["counter_mix"][c.actor]["markers"].get(kind, 0)
    if _in_use(c.mine, c.actor, kind) >= limit:
        raise Refused(Refusal.NO_COUNTER)


def _legal_placement(c: Ctx, area: str, kind: str) -> None:
    """Status Change placement rules (seed, Status Change)."""
    a = c.d.areas[area]
    if a.type == "home":
        raise Refused(Refusal.HOME_COUNTRY)
    if area not in b.linked(c.d, c.mine, c.actor):
        raise Refused(Refusal.NO_LINK)
    others = {f"{m['kind']}_established" for m in b.others_established(c.start, area, c.actor)}
    group = "control" if kind in o.CONTROL_KINDS else kind
    for rule in c.d.charts["placement_effects"]:
        if rule["placed"] == group and rule["effect"] == "illegal" and others & set(rule["existing"]):
            raise Refused(Refusal.ILLEGAL_PLACEMENT)
    if kind in ("protectorate", "possession"):
        unrest = area in c.start.get("unrest", [])
        if b.area_type(c.d, c.start, area) not in ("unorganized", "chinese_vassal") and not unrest:
            raise Refused(Refusal.NOT_UNORGANIZED)
    if kind == "dominion":
        raise Refused(Refusal.ILLEGAL_PLACEMENT)


def do_place(c: Ctx, order: o.Place) -> dict[str, Any]:
    if b.marker_of(c.mine, order.area, c.actor):
        raise Refused(Refusal.ALREADY_THERE)
    _legal_placement(c, order.area, order.kind)
    _check_counter(c, order.kind)
    c.pay(_cost(c.d, order.kind))
    c.mine["markers"].setdefault(order.area, []).append(
        {"power": c.actor, "kind": order.kind, "established": False, "new": True})
    return {"area": order.area, "kind": order.kind}


def do_upgrade(c: Ctx, order: o.Upgrade) -> dict[str, Any]:
    """Upgrading Status: pay the difference; Protectorate to Possession/top needs no combat."""
    m = b.marker_of(c.mine, order.area, c.actor)
    if m is None:
        raise Refused(Refusal.NO_MARKER)
    if b.rank(order.kind) <= b.rank(m["kind"]):
        raise Refused(Refusal.NOT_HIGHER)
    top = c.d.rules["powers"][c.actor].get("top_areas", [])
    if order.kind == "dominion":
        if order.area not in top or m["kind"] != "possession" or not m["established"]:
            raise Refused(Refusal.ILLEGAL_PLACEMENT)
    elif m["kind"] not in o.CONTROL_KINDS:
        _legal_placement(c, order.area, order.kind)
    _check_counter(c, order.kind)
    c.pay(_cost(c.d, order.kind) - _cost(c.d, m["kind"]))
    no_combat = m["kind"] in o.CONTROL_KINDS and m["established"]
    m.update(kind=order.kind, established=no_combat, new=True, was=m["kind"])
    return {"area": order.area, "kind": order.kind}


def do_downgrade(c: Ctx, order: o.Downgrade) -> dict[str, Any]:
    """Downgrading Status: only Interest and Influence, no refund."""
    m = b.marker_of(c.mine, order.area, c.actor)
    if m is None:
        raise Refused(Refusal.NO_MARKER)
    if m["kind"] not in ("interest", "influence") or b.rank(m["kind"]) <= (
            -1 if order.kind == "none" else b.rank(order.kind)):
        if m["kind"] not in ("interest", "influence"):
            raise Refused(Refusal.NO_DOWNGRADE)
    if order.kind == "none":
        c.mine["markers"][order.area].remove(m)
    else:
        m["kind"] = "interest"
    return {"area": order.area, "kind": order.kind}


def do_buy(c: Ctx, order: o.Buy) -> dict[str, Any]:
    limit = c.d.rules["counter_mix"][c.actor][order.unit][str(order.strength)]
    have = sum(1 for u in c.mine["units"] if u["power"] == c.actor and u["type"] == order.unit
               and u["strength"] == order.strength)
    if have >= limit:
        raise Refused(Refusal.NO_COUNTER)
    c.pay(int(c.d.rules["costs"][order.unit][str(order.strength)]))
    c.mine["next_unit"] += 1
    c.mine["units"].append({"id": c.mine["next_unit"], "power": c.actor, "type": order.unit,
                            "strength": order.strength, "at": "home"})
    if order.unit == "fleet" and c.d.rules["powers"][c.actor]["navy_eti"]:
        eti = c.d.charts["eti"]
        c.eti += eti["navy_10_built"] if order.strength == 10 else eti["navy_small_built"]
    return {"unit": order.unit, "strength": order.strength}


def _find_unit(c: Ctx, unit: str, strength: int, origin: str) -> dict[str, Any]:
    for u in c.mine["units"]:
        if (u["power"], u["type"], u["strength"], u["at"]) == (c.actor, unit, strength, origin):
            return u
    raise Refused(Refusal.NO_UNIT)


def do_move(c: Ctx, order: o.Move) -> dict[str, Any]:
    """Movement: armies along a legal path, fleets to own established coastal control."""
    if order.dest not in c.d.areas and order.dest != "home":
        raise Refused(Refusal.AT_SEA)
    u = _find_unit(c, order.unit, order.strength, order.origin)
    if order.dest != "home" and c.d.areas[order.dest].type == "home":
        raise Refused(Refusal.HOME_COUNTRY)
    if order.unit == "fleet":
        if not b.fleet_may_reach(c.d, c.mine, c.actor, order.dest):
            raise Refused(Refusal.NO_FLEET_END)
        path: list[str] = [order.origin, order.dest]
    else:
        end = c.d.home(c.actor) if order.dest == "home" else order.dest
        if not b.may_end(c.d, c.mine, c.actor, end):
            raise Refused(Refusal.NO_END)
        found = b.army_path(c.d, c.mine, c.actor, order.origin, order.dest,
                            c.mine["merchants"].get(c.actor, []), order.via)
        if found is None:
            raise Refused(Refusal.NO_PATH)
        path = found
    if not garrisons.may_leave(c.d, c.mine, c.actor, u, order.dest):
        raise Refused(Refusal.SPECIAL_GARRISON)
    u["at"] = order.dest
    return {"unit": order.unit, "strength": order.strength, "from": order.origin,
            "to": order.dest, "path": path}


def do_garrison(c: Ctx, order: o.Garrison) -> dict[str, Any]:
    return do_move(c, o.Move(c.actor, "army", order.strength, "home", order.area))


def do_merchant(c: Ctx, order: o.Merchant) -> dict[str, Any]:
    """Merchant fleets: any distance, at most one per sea zone per power."""
    fleets = c.mine["merchants"].setdefault(c.actor, [])
    if order.dest in fleets:
        raise Refused(Refusal.MERCHANT_TAKEN)
    if order.origin is None:
        due = c.mine.get("merchants_due", {}).get(c.actor, 0)
        if due <= 0:
            raise Refused(Refusal.NO_NEW_MERCHANT)
        c.mine["merchants_due"][c.actor] = due - 1
    else:
        if order.origin not in fleets:
            raise Refused(Refusal.NO_UNIT)
        fleets.remove(order.origin)
    fleets.append(order.dest)
    return {"from": order.origin, "to": order.dest}


def do_canal(c: Ctx, order: o.Canal) -> dict[str, Any]:
    """Building a Caribbean - South Pacific canal (seed, Canals and Straits): £30."""
    pid = next((p.id for p in c.d.passages.values()
                if p.area == order.area and p.kind == "canal"), None)
    if pid is None:
        raise Refused(Refusal.NO_CANAL_RIGHT)
    if pid in c.start.get("canals", []):
        raise Refused(Refusal.CANAL_BUILT)
    m = b.marker_of(c.start, order.area, c.actor)
    if not m or not m["established"] or m["kind"] == "interest":
        raise Refused(Refusal.NO_CANAL_RIGHT)
    c.pay(c.d.passages[pid].cost)
    assert c.canal_built is not None
    c.canal_built.append(pid)
    return {"canal": pid}


def do_transfer(c: Ctx, order: o.Transfer) -> dict[str, Any]:
    """Germany may give £ to Austria-Hungary, never the reverse (seed, Austria-Hungary)."""
    if (c.actor, order.to) != ("germany", "austria-hungary"):
        raise Refused(Refusal.TRANSFER_FORBIDDEN)
    c.pay(order.amount)
    assert c.transfers is not None
    c.transfers.append((order.to, order.amount))
    return {"to": order.to, "amount": order.amount}


# order type -> what carries it out (each takes an order of its own type)
_DO: dict[type, Callable[[Ctx, Any], dict[str, Any]]] = {o.Place: do_place, o.Upgrade: do_upgrade, o.Downgrade: do_downgrade, o.Buy: do_buy,
       o.Move: do_move, o.Garrison: do_garrison, o.Merchant: do_merchant, o.Canal: do_canal,
       o.Transfer: do_transfer}


def acting_order(d: BritanniaData, actors: Iterable[str]) -> list[str]:
    """The order in which the acting powers' Movement orders are carried out: a power whose
    orders another seat gives (Austria-Hungary, "always controlled by Germany") after the
    seat's own power, so that the £ "the German player can transfer ... from the German
    treasury to Austria-Hungary" pay for Austria-Hungary's orders of the same phase (seed,
    Austria-Hungary); otherwise alphabetical. No other power's orders change what an order
    finds, so this order changes no result but that one."""
    return sorted(actors, key=lambda p: (d.seat_of(p) != p, p))


def run_power(d: BritanniaData, start: State, actor: str, seat: str,
              own: Sequence[o.AnyOrder], submitted: Mapping[str, Sequence[o.AnyOrder]],
              funds_after: list[int] | None = None, received: int = 0) -> tuple[Ctx, list[Event]]:
    """Carry out one acting power's orders top to bottom on its own copy of the board;
    ``funds_after``, when given, gets the power's money after each order; ``received``: the
    £ transferred to the power this phase (:func:`acting_order`), in its treasury first."""
    c = Ctx(d, start, copy_state(start), actor, submitted, canal_built=[], transfers=[])
    if received:
        c.mine["treasury"][actor] += received
    events: list[Event] = []
    exhausted_at: int | None = None
    for i, order in enumerate(own, 1):
        if funds_after is not None and i > 1:
            funds_after.append(c.funds)  # after order i - 1 (the branches below `continue`)
        base = o.base(order)
        if isinstance(base, o.SwitchPower):
            continue
        if exhausted_at is not None:
            events.append(_refused(seat, actor, i, order, Refusal.FUNDS_EXHAUSTED))
            continue
        if isinstance(order, o.Conditional) and not order.applies(SubmittedOrders(submitted, c)):
            events.append(_refused(seat, actor, i, order, Refusal.CONDITION))
            continue
        fn = _DO.get(type(base))
        if fn is None:
            why = Refusal.NOT_IMPLEMENTED if isinstance(base, o.NotYet) else Refusal.WRONG_PHASE
            events.append(_refused(seat, actor, i, order, why))
            continue
        try:
            data = fn(c, base)
        except Unaffordable:
            exhausted_at = i
            events.append(_refused(seat, actor, i, order, Refusal.FUNDS))
        except Refused as exc:
            events.append(_refused(seat, actor, i, order, exc.why))
        else:
            events.append(Event(f"{type(base).__name__.lower()}_done",
                                {"power": actor, **data}))
    if funds_after is not None and own:
        funds_after.append(c.funds)
    return c, events


def spending(d: BritanniaData, start: State, seat: str, orders: Sequence[o.AnyOrder]
             ) -> dict[int, tuple[int, int, int, bool]]:
    """What a seat's Movement orders will spend, known when the mail arrives (orders.md §2,
    §4: "funds is the power's money when the order is reached"): for each order (by index
    in ``orders``) that costs money or finds it gone, ``(cost, spent so far, funds, short)``
    per acting power, by carrying out the orders above it on a copy of the board exactly
    as :func:`run_power` will (conditions on other powers' orders read as if they sent
    none). ``short``: the money runs out there, so this order and those below it are
    skipped. One run per power, its money read after each order: an order is carried out
    from what the ones above it left, so that is what a run cut after it would end with
    (issue 21: one run per order copied the state and carried the list out n² / 2 times)."""
    out: dict[int, tuple[int, int, int, bool]] = {}
    by_actor: dict[str, list[tuple[int, o.AnyOrder]]] = {}
    for i, order in enumerate(orders):
        by_actor.setdefault(o.actor_of(order), []).append((i, order))
    received: dict[str, int] = {}
    for actor in acting_order(d, by_actor):
        items = by_actor[actor]
        if actor not in start.get("treasury", {}):
            continue
        funds = int(start["treasury"][actor]) + received.get(actor, 0)
        own = [x for _, x in items]
        after: list[int] = []
        c, events = run_power(d, start, actor, seat, own, {actor: own}, funds_after=after,
                              received=received.get(actor, 0))
        for to, amount in c.transfers or []:
            received[to] = received.get(to, 0) + amount
        before = 0
        for k, (i, _) in enumerate(items):
            short = any(e.data.get("number") == k + 1 and e.data.get("reason") in (
                Refusal.FUNDS.name, Refusal.FUNDS_EXHAUSTED.name) for e in events)
            spent = funds - after[k]
            if short or spent != before:
                out[i] = (spent - before, spent, funds, short)
            before = spent
    return out


UNSURE = "unsure"
"""What :func:`position_refusals` says of an order refused in some readings of the
conditional orders above it and carried out in others."""
MONEY = (Refusal.FUNDS.name, Refusal.FUNDS_EXHAUSTED.name, Refusal.CONDITION.name)
MAX_READINGS = 3  # conditional orders read both ways: 2**3 runs at most


def position_refusals(d: BritanniaData, start: State, seat: str, orders: Sequence[o.AnyOrder]
                      ) -> dict[int, Refusal | str]:
    """What the seat's own position forbids in its Movement orders, known when the mail
    arrives (orders.md §2, issue 17 class 4): each power's orders carried out on a copy of
    the start of the phase exactly as :func:`run_power` will (after the GM's rebuild of the
    special garrisons), since nothing another power does in this phase changes what an
    order finds (module docstring). A conditional order may or may not be carried out:
    the first :data:`MAX_READINGS` are read both ways (later orders are unsure). For each
    order index in ``orders`` refused in every reading: its :class:`Refusal`; refused in
    some readings only: :data:`UNSURE`. Money running out is not a refusal here (the
    warnings of :func:`spending` say it)."""
    from gm.games.britannica.dropout import abandoned

    by_actor: dict[str, list[tuple[int, o.AnyOrder]]] = {}
    for i, order in enumerate(orders):
        by_actor.setdefault(o.actor_of(order), []).append((i, order))
    # read only below: run_power carries the orders out on its own copy
    board = garrisons.rebuilt(d, start, {a: [x for _, x in xs] for a, xs in by_actor.items()},
                              abandoned(start))
    out: dict[int, Refusal | str] = {}
    for actor, items in by_actor.items():
        if actor not in board.get("treasury", {}):
            continue
        conditional = [k for k, (_, x) in enumerate(items) if isinstance(x, o.Conditional)]
        read = conditional[:MAX_READINGS]
        unsure_from = conditional[MAX_READINGS] if len(conditional) > MAX_READINGS else None
        seen: dict[int, list[Refusal | None]] = {}
        for mask in range(2 ** len(read)):
            holds = {k for n, k in enumerate(read) if mask >> n & 1}
            own: list[o.AnyOrder] = [
                (o.base(x) if k in holds else o.SwitchPower(actor, actor))
                if isinstance(x, o.Conditional) else x for k, (_, x) in enumerate(items)]
            _, events = run_power(d, board, actor, seat, own, {actor: own})
            refused = {e.data["number"] - 1: Refusal[e.data["reason"]] for e in events
                       if e.type == "order_not_carried_out"}
            for k, (_, x) in enumerate(items):
                if isinstance(x, o.Conditional) and k not in holds:
                    continue  # not carried out in this reading
                why = refused.get(k)
                seen.setdefault(k, []).append(None if why is None or why.name in MONEY else why)
        for k, whys in seen.items():
            i = items[k][0]
            if unsure_from is not None and k >= unsure_from:
                if any(whys):
                    out[i] = UNSURE
            elif whys and all(whys):
                out[i] = next(w for w in whys if w is not None)  # the first: all are refusals
            elif any(whys):
                out[i] = UNSURE
    return out


def _refused(seat: str, actor: str, i: int, order: o.AnyOrder, why: Refusal) -> Event:
    from gm.games.britannica.refusals import not_carried_out

    return not_carried_out(seat, actor, i, order, why.name, why.value)


def merge(d: BritanniaData, new: State, c: Ctx) -> None:
    """Copy one power's own parts of its working board into the shared new state."""
    p = c.actor
    new["treasury"][p] = c.mine["treasury"][p]
    new["units"] = [u for u in new["units"] if u["power"] != p] + [
        u for u in c.mine["units"] if u["power"] == p]
    new["merchants"][p] = list(c.mine["merchants"].get(p, []))
    new.setdefault("merchants_due", {})[p] = c.mine.get("merchants_due", {}).get(p, 0)
    for area in set(new["markers"]) | set(c.mine["markers"]):
        keep = [m for m in new["markers"].get(area, []) if m["power"] != p]
        mine = [m for m in c.mine["markers"].get(area, []) if m["power"] == p]
        merged = sorted(keep + mine, key=lambda m: m["power"])
        if merged:
            new["markers"][area] = merged
        else:
            new["markers"].pop(area, None)
    for to, amount in c.transfers or []:
        new["treasury"][to] += amount
    new["next_unit"] = max(new["next_unit"], c.mine["next_unit"])


def renumber_new_units(new: State, before: int) -> None:
    """Give units bought this phase ids in a fixed order (power, type, strength)."""
    fresh = sorted((u for u in new["units"] if u["id"] > before),
                   key=lambda u: (u["power"], u["type"], u["strength"], u["at"]))
    for i, u in enumerate(fresh, before + 1):
        u["id"] = i
    new["next_unit"] = before + len(fresh)
