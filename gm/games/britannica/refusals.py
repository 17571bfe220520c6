"""The private event telling a seat that one of its orders was not carried out."""

from __future__ import annotations

from gm.games.base import Event
from gm.games.britannica import orders as o
from gm.games.britannica.data import BritanniaData
from gm.i18n import as_data


def not_carried_out(seat: str, actor: str, i: int, order: o.AnyOrder, reason: str,
                    why: str) -> Event:
    """The event: ``order`` (number ``i`` of ``actor``) not carried out, seen by ``seat``
    only. ``order`` is its English echo; ``order_said`` the same echo as message data, so
    that a report says the order in its reader's language (``say``), as the reply did."""
    from gm.games.britannica.parser import echo

    said = echo(order)
    return Event("order_not_carried_out", {"power": actor, "number": i, "order": said,
                                           "order_said": as_data(said), "reason": reason,
                                           "why": why}, frozenset({seat}))


def refusal(d: BritanniaData, actor: str, i: int, order: o.AnyOrder, why: str,
            reason: str = "REFUSED") -> Event:
    """Order ``i`` of ``actor`` was refused for ``why`` (seen by the acting seat only)."""
    seat = d.seat_of(actor) if actor in d.great_powers else actor
    return not_carried_out(seat, actor, i, order, reason, why)
