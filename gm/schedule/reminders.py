"""Reminders before a deadline, to the powers that still owe orders.

At each offset of ``deadlines.reminders`` (default ``["24h", "2h"]``, data
file deadline_defaults.json; ``[]`` turns them off) every
power that owes orders and has none current (with ``remind = "not_ready"``:
or whose orders are not READY) gets one reminder, in its seat's language,
and the moderator gets a summary of who is missing. Each reminder goes once
per deadline: the phase row is locked, its marker ``"2h@<deadline>"`` checked
and recorded in ``Phase.reminders_sent`` in the same transaction that queues
the mails. After a pause in the service only the latest due reminder goes
out (the earlier ones are marked, not sent), and it states the time really
left, not its label. A moved deadline gets fresh
reminders (the markers name the deadline).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session

from gm.clock import utc
from gm.db.claims import lock_open_phase, marker
from gm.db.engine import session_scope
from gm.db.models import Game, Phase, Seat
from gm.i18n import msg, plural, translate
from gm.l10n import duration
from gm.schedule.phases import OpenPhase, Owed, owed
from gm.service.bouncing import bouncing
from gm.service.context import ServiceContext
from gm.service.deadlines import RemindWho, format_duration, rounded_left
from gm.service.games import get_game, seat_for_power
from gm.service.notify import moderator_address, moderator_language
from gm.service.outbox import queue_mail
from gm.service.render import render, render_html


@dataclass(frozen=True)
class ReminderSent:
    """One reminder round of one phase: its label and the powers reminded."""

    game_id: str
    seq: int
    label: str
    powers: tuple[str, ...]


def pending(row: OpenPhase, now: datetime) -> list[str]:
    """Markers of the reminders of ``row`` that are due and not yet sent, earliest first."""
    if utc(now) >= row.deadline:
        return []
    times = [(format_duration(off), row.deadline - off) for off in row.policy.reminders]
    due = [marker(label, row.deadline) for label, at in times if at <= utc(now)]
    return [m for m in due if m not in row.marks]


def send_reminders(ctx: ServiceContext, row: OpenPhase) -> ReminderSent | None:
    """Send the latest due reminder of ``row`` once (``None``: nothing due, or already sent)."""
    now = ctx.clock.now()
    if not pending(row, now):
        return None
    with session_scope(ctx.engine) as session:
        phase = lock_open_phase(session, row.pk)
        if phase is None or phase.deadline is None or utc(phase.deadline) != row.deadline:
            return None
        tags = [t for t in pending(row, now) if t not in (phase.reminders_sent or [])]
        if not tags:
            return None
        label = tags[-1].partition("@")[0]
        game = get_game(session, row.game_id)
        who = _to_remind(session, phase, row)
        for item in who:
            _remind_power(ctx, session, game, phase, item, label)
        _summary(ctx, session, game, phase, who, label)
        phase.reminders_sent = [*(phase.reminders_sent or []), *tags]
        session.add(phase)
        return ReminderSent(row.game_id, row.seq, label, tuple(o.power for o in who))


def _to_remind(session: Session, phase: Phase, row: OpenPhase) -> list[Owed]:
    not_ready = row.policy.remind is RemindWho.NOT_READY
    return [o for o in owed(session, phase) if not o.has_orders or (not_ready and not o.ready)]


def _remind_power(ctx: ServiceContext, session: Session, game: Game, phase: Phase, item: Owed,
                  label: str) -> None:
    seat = seat_for_power(session, game.id, item.power)
    if seat is None or not seat.active or not seat.address:
        return
    deadline = utc(phase.deadline) if phase.deadline else None
    left = duration(rounded_left(deadline - utc(ctx.clock.now())), seat.language) if deadline \
        else label
    words: dict[str, Any] = dict(game_id=game.id, power=item.power, phase=phase.phase_id, deadline=deadline,
                 timezone=seat.timezone, left=left, has_orders=item.has_orders,
                 game_module=game.module)  # the templates name the power: say_power
    subject = msg("reminder: {phase} closes in {left}", phase=phase.phase_id, left=left)
    queue_mail(ctx, session, game_id=game.id, kind="reminder", to=[seat.address], phase_bound=True,
               subject=f"[{game.id}] {translate(subject, seat.language)}",
               text=render("reminder", seat.language, game.module, **words),
               html=render_html("reminder", seat.language, game.module, **words),
               key=f"reminder:{game.id}:{phase.seq}:{item.power}:{marker(label, deadline or ctx.clock.now())}")


def _summary(ctx: ServiceContext, session: Session, game: Game, phase: Phase, who: list[Owed],
             label: str) -> None:
    to = moderator_address(ctx, game)
    if not to or not who:
        return
    rows = []
    for item in who:
        seat = seat_for_power(session, game.id, item.power)
        rows.append({"power": item.power, "has_orders": item.has_orders,
                     "address": seat.address if seat else "",
                     "missed_in_row": seat.missed_in_row if seat else 0,
                     "bouncing": _bouncing(seat, item)})
    lang = moderator_language(game)
    deadline = utc(phase.deadline) if phase.deadline else None
    left = duration(rounded_left(deadline - utc(ctx.clock.now())), lang) if deadline else label
    text = render("missing_summary", lang, game.module, game_id=game.id, phase=phase.phase_id,
                  deadline=deadline, left=left, missing=rows)
    queue_mail(ctx, session, game_id=game.id, kind="notice", to=[to], phase_bound=True,
               subject=f"[{game.id}] " + translate(plural(
                   "{n} missing for {phase} ({left} left)", "{n} missing for {phase} ({left} left)",
                   len(rows), phase=phase.phase_id, left=left), lang),
               text=text, key=f"missing:{game.id}:{phase.seq}:{marker(label, utc(phase.deadline or ctx.clock.now()))}")



def _bouncing(seat: Seat | None, item: Owed) -> dict[str, Any] | None:
    """A power with no orders whose address is marked as bouncing: usually why; since when
    and the server's words (gm.service.bouncing)."""
    mark = bouncing(seat) if seat is not None and not item.has_orders else None
    if mark is None or mark.since is None:
        return None
    return {"since": utc(mark.since), "said": mark.said, "count": mark.count}
