"""The private event telling a seat that one of its orders was not carried out."""

from __future__ import annotations

from gm.games.base import Event
from gm.games.britannica import orders as o
from gm.games.britannica.data import BritanniaData


def refusal(d: BritanniaData, actor: str, i: int, order: o.AnyOrder, why: str,
            reason: str = "REFUSED") -> Event:
    """Order ``i`` of ``actor`` was refused for ``why`` (seen by the acting seat only)."""
    from gm.games.britannica.parser import echo

    seat = d.seat_of(actor) if actor in d.great_powers else actor
    return Event("order_not_carried_out", {"power": actor, "number": i, "order": echo(order),
                                           "reason": reason, "why": why}, frozenset({seat}))
