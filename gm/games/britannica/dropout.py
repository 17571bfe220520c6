"""Rules to cover for drop-outs (seed, "Rules to cover for drop-outs", rules 1-11).

A seat that sends no orders gets :class:`~gm.games.britannica.orders.NoOrders` from
``default_orders``. The engine counts those phases in a row (``state["missed"]``); from
the game's drop-out threshold on (``state["dropout_after"]``, rules.toml ``[dropout]``,
a game option overrides it) the seat's powers are *abandoned* and the GM gives their
orders by the numbered rules, each phase; before that a missing set gets the ordinary
defaults (docs/britannica.md). Orders from the seat again (its player back, or a
replacement) end the drop-out at once. Higher rules take priority over lower ones.

Where each rule lives:

* 1 (never cause the Great War) and 2 (abide by treaties: never declare war on a treaty
  partner): :func:`may_declare`, used for rule 4's declarations.
* 3 (sign what Congress adopted) and the neutrality of 4 (no declaration, support,
  Casus Belli or coaling rights offered): the GM sends nothing else for the power; the
  ``congress-sign`` default is to sign.
* 4: :func:`war_orders` (a war on a minor power, bought up to 3:2) and
  :func:`negotiation_orders` (every other dispute: the power downgrades its marker).
* 5 (new merchant fleets), 6 (Britain's and Russia's special garrisons: the Indian Army's
  site), 7 (garrisons and unrest) and 8 (excess garrisons home): :func:`movement_orders`.
* 9-11 (in war, moved like a minor power; Chinese, Ottoman and minor-power wars):
  ``war.manoeuvre.dropout_moves`` and the 3:2 attack rule in ``war.attack``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gm.games.britannica import board as b
from gm.games.britannica import orders as o
from gm.games.britannica.congress import STATUS_CAUSES
from gm.games.britannica.data import BritanniaData
from gm.games.britannica.garrisons import garrison_order
from gm.games.britannica.tensions import european_count

State = dict[str, Any]
CHINESE = ("chinese_empire", "chinese_vassal")
SIZES = (10, 3, 1)


# -- who has dropped out ----------------------------------------------------------------
def threshold(d: BritanniaData, state: State) -> int:
    """Missed phases in a row after which a seat is abandoned (a game setting)."""
    return int(state.get("dropout_after") or d.rules["dropout"]["after_missed"])


def track(d: BritanniaData, state: State, orders: Mapping[str, Sequence[Any]]) -> None:
    """Count each owing seat's missed phases; set ``state["abandoned"]`` (powers)."""
    missed = state.setdefault("missed", {})
    for seat, own in orders.items():
        none = bool(own) and all(isinstance(x, o.NoOrders) for x in own)
        missed[seat] = missed.get(seat, 0) + 1 if none else 0
    seats = {s for s, n in missed.items() if n >= threshold(d, state)}
    state["abandoned"] = sorted(p for p in d.great_powers if d.seat_of(p) in seats)


def abandoned(state: State) -> list[str]:
    return list(state.get("abandoned") or [])


def gm_orders(d: BritanniaData, state: State, orders: Mapping[str, Sequence[Any]]
              ) -> dict[str, list[Any]]:
    """The phase's orders with every ``NoOrders`` replaced: by the drop-out rules for an
    abandoned seat, else by nothing (the ordinary defaults)."""
    out: dict[str, list[Any]] = {}
    step = state["step"]
    for seat, own in orders.items():
        real = [x for x in own if not isinstance(x, o.NoOrders)]
        if real or not own:
            out[seat] = real
            continue
        out[seat] = []
        for p in abandoned(state):
            if d.seat_of(p) != seat:
                continue
            if step == "movement":
                out[seat] += movement_orders(d, state, p)
            elif step == "negotiation":
                out[seat] += negotiation_orders(d, state, p)
            elif step == "war":
                out[seat] += war_orders(d, state, p)
    return out


# -- rules 5-8: the Movement / Status Change phase ------------------------------------------
def _cost(d: BritanniaData, kind: str, strength: int | None = None) -> int:
    c = d.rules["costs"][kind]
    return int(c[str(strength)] if strength is not None else c)


def _buy(d: BritanniaData, unit: str, need: int, funds: int, power: str) -> tuple[list[Any], int, int]:
    """Units of ``unit`` bought largest first until ``need`` strength is covered (or funds end)."""
    out: list[Any] = []
    got = 0
    while got < need:
        size = next((s for s in SIZES if s <= max(need - got, 1) and _cost(d, unit, s) <= funds), 0)
        if not size:
            break
        funds -= _cost(d, unit, size)
        got += size
        out.append(o.Buy(power, unit, size))
    return out, got, funds


def merchant_sea(d: BritanniaData, state: State, power: str, taken: Sequence[str]) -> str | None:
    """Rule 5: the sea zone giving access to the highest economic value the power can reach
    (the values of its coastal areas not yet under the power's Control), then the larger
    number of such areas, then the name."""
    reach = b.linked(d, state, power)

    def offer(sea: str) -> tuple[int, int, str]:
        areas = [a for a in d.areas.values() if sea in a.seas and a.type != "home"
                 and not b.controls(state, a.id, power) and a.id in reach]
        return (-sum(a.value for a in areas), -len(areas), sea)

    free = [s for s in d.seas if s not in taken]
    return min(free, key=offer) if free else None


def indian_army_site(d: BritanniaData, state: State) -> str:
    """Rule 6: ungarrisoned areas, suppression of unrest, next to an area where Britain has a
    Casus Belli, next to China; highest economic value first (among India's areas)."""
    zone = sorted(d.charts["special_garrisons"]["india"], key=lambda a: (-d.areas[a].value, a))
    cb = {c["area"] for c in state["casus_belli"] if c["holder"] == "britain" and c.get("area")}
    china = {a.id for a in d.areas.values() if a.type in CHINESE}
    tests: list[Callable[[str], bool]] = [
        lambda a: b.controls(state, a, "britain") and not _armies(state, "britain", a),
        lambda a: a in state.get("unrest", []) and b.marker_of(state, a, "britain") is not None,
        lambda a: bool(d.neighbours(a) & cb),
        lambda a: bool(d.neighbours(a) & china)]
    for test in tests:
        hit = [a for a in zone if test(a)]
        if hit:
            return hit[0]
    return zone[0]


def _armies(state: State, power: str, where: str) -> list[dict[str, Any]]:
    return [u for u in b.units_at(state, power, where) if u["type"] == "army"]


def movement_orders(d: BritanniaData, state: State, power: str) -> list[Any]:
    """Rules 5, 7 and 8 as Movement orders (rule 6 is the GM's special garrison rebuild)."""
    funds = int(state["treasury"].get(power, 0))
    out: list[Any] = []
    taken = list(state["merchants"].get(power, []))
    for _ in range(state.get("merchants_due", {}).get(power, 0)):
        sea = merchant_sea(d, state, power, taken)
        if sea is None:
            break
        taken.append(sea)
        out.append(o.Merchant(power, None, sea))
    home = sorted(_armies(state, power, "home"), key=lambda u: (u["strength"], u["id"]))
    unrest = set(state.get("unrest", []))
    # Rule 7c: ungarrisoned controlled areas, then unrest in controlled areas, then unrest in
    # Influence areas; highest economic value first within each.
    ctrl = b.controlled_areas(state, power)
    need = garrison_order(d, (a for a in ctrl if not _armies(state, power, a) and a not in unrest))
    calm = [(a, "garrison") for a in need]
    riots = sorted((a for a in unrest if (m := b.marker_of(state, a, power))
                    and m["kind"] in (*o.CONTROL_KINDS, "influence")),
                   key=lambda a: ((b.marker_of(state, a, power) or {}).get("kind") == "influence",
                                  -d.areas[a].value, a))
    for area, job in calm + [(a, "suppress") for a in riots]:
        if job == "garrison":
            # Rule 7b: a 1-strength unit bought rather than a 3 or 10 moved abroad.
            if (not home or home[0]["strength"] > 1) and funds >= _cost(d, "army", 1):
                funds -= _cost(d, "army", 1)
                out += [o.Buy(power, "army", 1), o.Move(power, "army", 1, "home", area)]
            elif home:
                u = home.pop(0)
                out.append(o.Move(power, "army", u["strength"], "home", area))
            continue
        # Rule 7a: at least 3:2 over the indigenous combat strength; an Influence area gets
        # a Protectorate marker, or is left alone when the marker cannot be paid.
        here = sum(u["strength"] for u in _armies(state, power, area))
        want = -(-3 * d.areas[area].strength // 2) - here
        marker = b.marker_of(state, area, power)
        upgrade: list[Any] = []
        if marker and marker["kind"] == "influence":
            if funds < _cost(d, "protectorate"):
                continue
            funds -= _cost(d, "protectorate")
            upgrade = [o.Upgrade(power, area, "protectorate")]
        sent: list[Any] = []
        while want > 0 and home:
            u = home.pop()
            sent.append(o.Move(power, "army", u["strength"], "home", area))
            want -= u["strength"]
        bought, got, funds = _buy(d, "army", max(want, 0), funds, power)
        sent = bought + sent + [o.Move(power, "army", x.strength, "home", area) for x in bought]
        out += upgrade + sent
    # Rule 8: excess garrisons go home (those in Chinese areas stay).
    for area in ctrl:
        armies = sorted(_armies(state, power, area), key=lambda u: (-u["strength"], u["id"]))
        if len(armies) > 1 and d.areas[area].type not in CHINESE and area not in unrest:
            out += [o.Move(power, "army", u["strength"], area, "home") for u in armies[1:]]
    return out


# -- rule 4: disputes ------------------------------------------------------------------
def _war_target(d: BritanniaData, state: State, power: str, cb: Mapping[str, Any]) -> bool:
    """A Casus Belli against a minor power owning an area of value over 4 the power reaches."""
    minor = cb["against"]
    if minor not in d.minor_powers:
        return False
    reach = b.linked(d, state, power)
    return any(d.areas[a].value > 4 and a in reach and any(
        m["power"] == minor and m["kind"] in o.CONTROL_KINDS for m in ms)
        for a, ms in state["markers"].items())


def negotiation_orders(d: BritanniaData, state: State, power: str) -> list[Any]:
    """Rule 4: every other unresolved dispute: the power downgrades its status marker (the
    Influence beside a Protectorate becomes Interest, beside a Possession it goes)."""
    out: list[Any] = []
    for cb in state["casus_belli"]:
        if cb["holder"] != power or cb["cause"] not in STATUS_CAUSES or _war_target(d, state, power, cb):
            continue
        theirs = b.marker_of(state, cb["area"], cb["against"])
        if b.marker_of(state, cb["area"], power) and theirs:
            out.append(o.Downgrade(power, cb["area"], "interest" if theirs["kind"] == "protectorate" else "none"))
    return out


def may_declare(d: BritanniaData, state: State, power: str, target: str,
                wars: Sequence[Mapping[str, Any]]) -> bool:
    """Rules 1 and 2: no declaration that would make the power the fourth European power in
    a war (the Great War), none on a treaty partner."""
    members = {target, power}
    for w in wars:
        ps = {p for side in w["sides"] for p in side}
        if ps & members:
            members |= ps
    if european_count(sorted(members)) >= 4:
        return False
    return not any(t["ratified"] and {power, target} <= set(t["parties"]) for t in state["treaties"])


def war_orders(d: BritanniaData, state: State, power: str) -> list[Any]:
    """Rule 4: units bought up to 3:2 over the minor power's armies and naval units, then
    war declared (the purchase is made at the declaration: :func:`buy_for_war`)."""
    out: list[Any] = []
    for cb in state["casus_belli"]:
        if cb["holder"] != power or not _war_target(d, state, power, cb):
            continue
        if any(isinstance(x, o.Declare) and x.target == cb["against"] for x in out):
            continue
        out.append(o.Declare(power, cb["against"]))
    return out


def buy_for_war(d: BritanniaData, state: State, power: str, minor: str) -> list[dict[str, Any]]:
    """Rule 4's purchase: armies and naval units (at home) until each reaches 3:2 over the
    minor power's; returns the units bought (nothing when the treasury cannot pay)."""
    bought: list[dict[str, Any]] = []
    for unit in ("army", "fleet"):
        theirs = sum(u["strength"] for u in state["units"] if u["power"] == minor and u["type"] == unit)
        mine = sum(u["strength"] for u in state["units"] if u["power"] == power and u["type"] == unit)
        need = max(0, -(-3 * theirs // 2) - mine)
        orders, _, funds = _buy(d, unit, need, int(state["treasury"][power]), power)
        state["treasury"][power] = funds
        for x in orders:
            state["next_unit"] += 1
            u = {"id": state["next_unit"], "power": power, "type": unit, "strength": x.strength, "at": "home"}
            state["units"].append(u)
            bought.append(u)
    return bought


# -- rules 10-11: marching on the enemy empire -------------------------------------------------
def distances(d: BritanniaData, targets: set[str]) -> dict[str, int]:
    """Land distance (areas) from every area to the nearest of ``targets``."""
    dist = dict.fromkeys(targets, 0)
    queue = deque(targets)
    while queue:
        x = queue.popleft()
        for y in d.neighbours(x):
            if y not in dist:
                dist[y] = dist[x] + 1
                queue.append(y)
    return dist
