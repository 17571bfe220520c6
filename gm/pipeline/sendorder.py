"""The order a game's mails go out in, whatever the number of instances sending them.

Each drain sends the mails it claims in :data:`SEND_ORDER` (a game's welcomes first, then
as they were queued). With two instances draining one outbox that was not enough: one
claimed "game paused" and was still sending it when the other, its claim of that mail
refused, claimed and sent the next one, "game resumed", which arrived first.

A mail is therefore claimed only when no earlier mail of its game (earlier in
:data:`SEND_ORDER`) is still to go before it: queued and either held by another sender
now (its claim's lease running) or due and held by nobody (the drain that claims in order
takes it first). Mails of other games are not held up: a thousand games still drain in
parallel, each game's mails by one sender at a time. An earlier mail waiting out a
backoff (its server refused it for now: a greylisted recipient) holds nothing up; nor
does a mail of no game (an answer to a stranger).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BindParameter, ColumnElement, Exists, and_, bindparam, case, or_, select
from sqlalchemy.orm import aliased
from sqlmodel import col

from gm.db.models import OutboundMail

SEND_ORDER = (col(OutboundMail.kind) != "welcome", col(OutboundMail.id))
"""The order mails are sent in: a game's welcomes first (queued after the reports of its
opening die rolls, they carry the sign-on those reports assume), then as they were queued."""


def _rank(kind: Any) -> ColumnElement[int]:
    return case((kind == "welcome", 0), else_=1)


def waits_for_earlier() -> Exists:
    """True for a mail (the ``outboundmail`` row of the statement it is used in) that an
    earlier mail of its game must go before: queued, and held by another sender (the
    ``holder`` parameter is this one) whose lease runs at ``now``, or due and nobody's."""
    other = aliased(OutboundMail)
    this_rank, other_rank = _rank(col(OutboundMail.kind)), _rank(col(other.kind))
    earlier = or_(other_rank < this_rank,
                  and_(other_rank == this_rank, col(other.id) < col(OutboundMail.id)))
    now: BindParameter[datetime] = bindparam("now")
    held_by_another = and_(col(other.claimed_until) > now,
                           col(other.claimed_by) != bindparam("holder"))
    due_and_free = and_(or_(col(other.claimed_until) == None,  # noqa: E711
                            col(other.claimed_until) <= now),
                        or_(col(other.next_attempt_at) == None,  # noqa: E711
                            col(other.next_attempt_at) <= now))
    return select(col(other.id)).where(
        col(other.game_id) == col(OutboundMail.game_id), col(other.status) == "queued",
        earlier, or_(held_by_another, due_and_free)).exists()
