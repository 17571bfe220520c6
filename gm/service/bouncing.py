"""A seat's address that bounces for good: marked once, shown, cleared when it works again.

A human GM who gets a player's mail back with "user unknown" notes it next to the
player's name, and does not need telling again with every later mail. gm does the same:

* **Marked** by gm.service.bounces when a mail gm sent to a seat's address comes back
  with a permanent failure (a ``5.x.x`` status, RFC 3463): the address, when, the outbox
  mail that came back, the server's words. The moderator is told of that first bounce;
  later hard bounces to the same address only count (``bounce_count``) and are logged.
* **Shown** where the moderator looks: ``gm game show``, the moderator's report (and
  STATUS), and the missing-orders summary of a power that has not ordered.
* **Cleared** when the seat's address changes (SET ADDRESS, REPLACE POWER / ``gm mod
  replace``, ``gm mod address``, a forming seat given or taken back), or when the player shows the mailbox
  works: a mail from that address that signs on as the seat (right password), whatever it
  asks; or when the moderator knows it works again (UNBOUNCE / ``gm mod unbounce``,
  gm.service.moderator.unbounce). A bounce after that is told again.

gm goes on sending to a marked address: a mailbox can come back.

The mark is only good for the address it was made for (:func:`bouncing`): a seat whose
address changed by any path holds no stale mark.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gm.db.models import Seat


@dataclass(frozen=True)
class Bouncing:
    """What the mark says: the address, since when, which mail, the server's words."""

    address: str
    since: datetime | None
    mail: int | None  # the outbox id of the first mail that bounced
    said: str  # the status and the server's words ("5.1.1 550 ... User unknown")
    count: int  # gm's mails to it that bounced for good since (the first one included)


def permanent(status: str) -> bool:
    """Whether a bounce's status says the failure is for good (RFC 3463 class 5)."""
    return status.startswith("5.")


def bouncing(seat: Seat) -> Bouncing | None:
    """The seat's mark, if it holds for the seat's current address."""
    marked = seat.bounce_address or ""
    if not marked or not seat.address or marked.lower() != seat.address.lower():
        return None
    return Bouncing(marked, seat.bounce_at, seat.bounce_mail, seat.bounce_said,
                    seat.bounce_count or 1)


def mark(seat: Seat, *, at: datetime, mail: int, said: str) -> None:
    """Mark the seat's address as bouncing (its first hard bounce: the one told)."""
    seat.bounce_address, seat.bounce_at, seat.bounce_mail = seat.address, at, mail
    seat.bounce_said, seat.bounce_count = said[:500], 1


def count_again(seat: Seat) -> None:
    """One more of gm's mails to the marked address bounced (logged, not told)."""
    seat.bounce_count = (seat.bounce_count or 1) + 1


def clear(seat: Seat) -> bool:
    """Take the mark off; whether there was one for the seat's address."""
    held = bouncing(seat) is not None
    seat.bounce_address, seat.bounce_at, seat.bounce_mail = "", None, None
    seat.bounce_said, seat.bounce_count = "", 0
    return held
