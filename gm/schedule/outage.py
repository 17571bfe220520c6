"""Outages: a deadline that fell while no instance of the service was alive.

Every sweep writes the instance's heartbeat. The service's last-alive time is
the latest heartbeat of any instance; when a sweep finds it older than a
game's ``outage_threshold``, each deadline of that game that fell in the gap
is handled by the game's ``on_outage`` policy, once, and the moderator is
told either way:

* ``adjudicate``: the phase is adjudicated now (by the sweep's due loop);
* ``extend``: the deadline moves by the length of the outage, as the old
  email judges did, so players whose orders could not be acknowledged are
  not punished.

Detection, the extensions and the new heartbeat commit in one transaction
that concurrent sweeps run one after another (``serialize_writers``), so a
second instance starting at the same moment sees the first one's heartbeat
and the moved deadlines, and does nothing twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, func, select

from gm.clock import utc
from gm.db.claims import lock_open_phase, marker, serialize_writers, stamp
from gm.db.engine import session_scope
from gm.db.schedule_tables import Heartbeat
from gm.i18n import msg, when
from gm.l10n import duration
from gm.schedule.phases import OpenPhase, open_phases
from gm.service.context import ServiceContext
from gm.service.deadlines import OutagePolicy
from gm.service.games import get_game
from gm.service.notify import moderator_language, notify_moderator
from gm.service.reports import queue_deadline_moved

HEARTBEAT_LOCK = 0x676D_6862  # "gmhb": the advisory lock key of the heartbeat transaction
GRACE_BOUND = timedelta(days=30)  # no game's grace period is longer than this


@dataclass(frozen=True)
class Outage:
    """No instance was alive from ``since`` until ``until``."""

    since: datetime
    until: datetime

    @property
    def length(self) -> timedelta:
        return self.until - self.since


@dataclass(frozen=True)
class OutageAct:
    """What the outage policy did to one phase."""

    game_id: str
    seq: int
    policy: OutagePolicy
    old_deadline: datetime
    new_deadline: datetime


def last_alive(session: Session) -> datetime | None:
    """The latest heartbeat of any instance (``None``: the service never ran)."""
    value = session.exec(select(func.max(Heartbeat.alive_at))).one()
    return utc(value) if value is not None else None


def beat_and_handle(ctx: ServiceContext) -> tuple[Outage | None, list[OutageAct]]:
    """Write this instance's heartbeat; apply the outage policies if the service was down."""
    now = ctx.clock.now()
    with session_scope(ctx.engine) as session:
        serialize_writers(session, HEARTBEAT_LOCK)
        since = last_alive(session)
        _write_heartbeat(session, ctx.instance, now)
        if since is None or since >= now:
            return None, []
        outage = Outage(since, now)
        rows = open_phases(session, deadline_from=since - GRACE_BOUND, deadline_to=now)
        acts = [act for row in rows if (act := _apply(ctx, session, outage, row))]
        return outage, acts


def _write_heartbeat(session: Session, instance: str, now: datetime) -> None:
    row = session.get(Heartbeat, instance)
    if row is None:
        row = Heartbeat(instance=instance, started_at=now, alive_at=now)
    row.alive_at = now
    session.add(row)
    session.flush()


def _apply(ctx: ServiceContext, session: Session, outage: Outage, row: OpenPhase) -> OutageAct | None:
    pol = row.policy
    fell_in_gap = outage.since < row.due_at() <= outage.until
    if not fell_in_gap or outage.length <= pol.outage_threshold:
        return None
    phase = lock_open_phase(session, row.pk)
    tag = marker("outage", row.deadline)
    if phase is None or phase.deadline is None or tag in (phase.reminders_sent or []):
        return None
    new_deadline = row.deadline
    if pol.on_outage is OutagePolicy.EXTEND:
        new_deadline = row.deadline + outage.length
        phase.deadline = new_deadline
    phase.reminders_sent = [*(phase.reminders_sent or []), tag]
    session.add(phase)
    _tell(ctx, session, row, outage, pol.on_outage, new_deadline)
    if new_deadline != row.deadline:
        queue_deadline_moved(ctx, session, get_game(session, row.game_id), phase,
                             msg("the service was down when the deadline fell; it moves by the "
                                 "length of the outage"))
    return OutageAct(row.game_id, row.seq, pol.on_outage, row.deadline, new_deadline)


def _tell(ctx: ServiceContext, session: Session, row: OpenPhase, outage: Outage,
          pol: OutagePolicy, new_deadline: datetime) -> None:
    game = get_game(session, row.game_id)
    done = (msg("it is adjudicated now, once") if pol is OutagePolicy.ADJUDICATE else
            msg("the deadline moves by the length of the outage to {deadline}",
                deadline=when(utc(new_deadline))))
    text = [msg("The service was down from {since} to {until} ({length}).",
                since=when(utc(outage.since)), until=when(utc(outage.until)),
                length=duration(outage.length, moderator_language(game))),
            msg("The deadline of {phase} ({deadline}) fell in that time; by the game's on_outage "
                "policy ({policy}) {done}.", phase=row.phase_id, deadline=when(utc(row.deadline)),
                policy=pol.value, done=done),
            msg("Use EXTEND or ADJUDICATE NOW to decide otherwise.")]
    notify_moderator(ctx, session, game, msg("outage: deadline of {phase}", phase=row.phase_id), text,
                     key=f"outage:{row.game_id}:{row.seq}:{stamp(row.deadline)}")
