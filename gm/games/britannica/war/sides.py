"""Who is who in a war: alliances, combatants, units at a location, new wars (seed, War)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gm.games.britannica.data import BritanniaData

State = dict[str, Any]


War = dict[str, Any]


GM_POWERS = ("china", "ottoman")


CHINESE = ("chinese_empire", "chinese_vassal")


def side_of(war: War, power: str) -> int | None:
    for i, side in enumerate(war["sides"]):
        if power in side:
            return i
    return None


def gm_controlled(d: BritanniaData, power: str) -> bool:
    """China, the Ottoman Empire and minor powers are moved by the GM."""
    return power not in d.great_powers


def minor_controller(d: BritanniaData, war: War, minor: str) -> str | None:
    """The Great Power that moves a minor power's units in this war (seed, Declarations of
    War; Minor Power Movement): its one Great Power ally, or, with several, the first to
    support it (simultaneous mail: the first in the order the GM takes the declarations).
    None: the GM moves it."""
    s = side_of(war, minor)
    if s is None or minor not in d.minor_powers:
        return None
    allies = [p for p in war["declarers"] if p in war["sides"][s] and p in d.great_powers]
    allies += sorted(p for p in war["sides"][s] if p in d.great_powers and p not in allies)
    return allies[0] if allies else None


def side_seats(d: BritanniaData, war: War, s: int) -> list[str]:
    return sorted({d.seat_of(p) for p in war["sides"][s] if p in d.great_powers})


def combatants(war: War) -> list[str]:
    return sorted(p for side in war["sides"] for p in side)


def _units(state: State, powers: Iterable[str], where: str, kind: str | None = None
           ) -> list[dict[str, Any]]:
    ps = set(powers)
    return [u for u in state["units"] if u["power"] in ps and u["at"] == where
            and (kind is None or u["type"] == kind)]


def _home_area(d: BritanniaData, power: str) -> str | None:
    return None if power in GM_POWERS else d.home(power)


def _where(d: BritanniaData, power: str, at: str) -> str:
    """A unit's location as a map node (``home`` is the power's home area)."""
    return (_home_area(d, power) or at) if at == "home" else at


def _enemy(war: War, power: str) -> list[str]:
    s = side_of(war, power)
    return [] if s is None else list(war["sides"][1 - s])


def _friends(war: War, power: str) -> list[str]:
    s = side_of(war, power)
    return [] if s is None else list(war["sides"][s])


def _value(d: BritanniaData, loc: str) -> int:
    return -1 if loc == "home" or loc not in d.areas else d.areas[loc].value


def _new_war(state: State, kind: str, sides: list[list[str]], declarers: list[str]) -> War:
    state["war_counter"] = state.get("war_counter", 0) + 1
    return {"id": state["war_counter"], "kind": kind, "sides": sides, "declarers": declarers,
            "round": 0, "first": 0, "quiet": 0, "attacked": False, "conquered": {},
            "defeated": [], "retreat_orders": {}, "pending": [], "surrendered": [],
            "stage": "start"}


def _place_gm_army(state: State, power: str, strength: int, area: str) -> None:
    state["next_unit"] += 1
    state["units"].append({"id": state["next_unit"], "power": power, "type": "army",
                           "strength": strength, "at": area})


def phase_seats(d: BritanniaData, war: War, stage: str) -> list[str]:
    """Seats that send orders in ``war-first`` (First Alliance) or ``war-second`` (both)."""
    if stage == "first":
        return side_seats(d, war, war["first"])
    return sorted(set(side_seats(d, war, 0)) | set(side_seats(d, war, 1)))

