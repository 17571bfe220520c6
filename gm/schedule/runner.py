"""The daemon's scheduler: APScheduler 3.x as a wake-up clock, never the source of truth.

Deadlines live in the phases table. The runner keeps one APScheduler job per
wake-up, in a SQLAlchemy job store in the game database under a table of its
own instance (``gm_jobs_<instance>``: APScheduler's FAQ forbids sharing one job
store between schedulers, each would run every job):

* ``adjudicate:{game}:{seq}`` at the phase's deadline plus grace;
* ``remind:{game}:{seq}:{label}`` at each reminder time;
* ``sweep`` every ``sweep_seconds``: covers whatever the jobs missed
  (deadlines that passed while the service was down, phases opened or
  extended by another instance or by mail) and resynchronises the jobs.

Every job only wakes the service: it runs :func:`gm.schedule.sweep.sweep`,
which is idempotent and decides by row claims. A duplicated, late or lost job
therefore costs at most a wasted sweep, never a double or skipped deadline.
At start the store is rebuilt from the phases table.

Jobs must be stored by reference, so the stored callable is the module-level
:func:`wake`, which only returns its job id; the runner's listener (not
stored) receives that and does the work with its own context. APScheduler
fires by the real clock; the runner maps the context's clock onto it (a job
for time T fires when the context's clock, running at real speed from now,
would reach T), so with the system clock the two agree, and tests with a
fake clock can also call :meth:`Runner.fire` directly.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_EXECUTED, JobExecutionEvent
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.jobstores.base import JobLookupError
from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers.background import BackgroundScheduler

from gm.db.engine import session_scope
from gm.schedule.deadlines import reminder_times
from gm.schedule.phases import OpenPhase, open_phases
from gm.schedule.sweep import SweepReport, sweep
from gm.service.context import ServiceContext

log = logging.getLogger(__name__)

SWEEP_JOB = "sweep"
REMOVE_MARGIN = timedelta(seconds=5)


def wake(job_id: str) -> str:
    """The stored job callable: it only names the job; the runner's listener acts."""
    return job_id


def jobs_table(instance: str) -> str:
    """This instance's job-store table (a valid identifier on SQLite and PostgreSQL)."""
    slug = re.sub(r"[^a-z0-9]+", "_", instance.lower()).strip("_")[:32]
    digest = hashlib.blake2b(instance.encode(), digest_size=4).hexdigest()
    return f"gm_jobs_{slug}_{digest}"


def wanted_jobs(rows: list[OpenPhase]) -> dict[str, datetime]:
    """Job id -> when it should fire, for every open phase with a deadline."""
    jobs: dict[str, datetime] = {}
    for row in rows:
        jobs[f"adjudicate:{row.game_id}:{row.seq}"] = row.due_at()
        for label, at in reminder_times(row.settings, row.deadline):
            jobs[f"remind:{row.game_id}:{row.seq}:{label}"] = at
    return jobs


def game_of(job_id: str) -> str | None:
    """The game a job is about (``None`` for the periodic sweep)."""
    kind, _, rest = job_id.partition(":")
    return rest.split(":", 1)[0] if kind in ("adjudicate", "remind") and rest else None


@dataclass
class Runner:
    """One instance's scheduler. ``start()``, then ``stop()``; jobs call the sweep."""

    ctx: ServiceContext
    sweep_seconds: float = 30.0
    scheduler: BackgroundScheduler = field(init=False)
    reports: list[SweepReport] = field(default_factory=list, init=False)
    fired: threading.Event = field(default_factory=threading.Event, init=False)
    _scheduled: dict[str, datetime] = field(default_factory=dict, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def __post_init__(self) -> None:
        store = SQLAlchemyJobStore(engine=self.ctx.engine, tablename=jobs_table(self.ctx.instance))
        self.scheduler = BackgroundScheduler(
            jobstores={"default": store},
            executors={"default": ThreadPoolExecutor(1)},
            job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None},
            timezone=UTC,
        )
        self.scheduler.add_listener(self._on_event, EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)

    def start(self, *, paused: bool = False) -> None:
        """Start the scheduler; its job store is rebuilt from the phases table."""
        self.scheduler.start(paused=paused)
        self.scheduler.remove_all_jobs()
        self._scheduled.clear()
        self.scheduler.add_job(wake, "interval", seconds=self.sweep_seconds, args=[SWEEP_JOB],
                               id=SWEEP_JOB, replace_existing=True)
        self.resync()

    def stop(self) -> None:
        self.scheduler.shutdown(wait=True)

    def real_time(self, at: datetime) -> datetime:
        """The real time at which the context's clock (running at real speed) shows ``at``."""
        return at - (self.ctx.clock.now() - datetime.now(UTC))

    def resync(self) -> int:
        """Bring the stored jobs in line with the open phases; return how many changed."""
        with session_scope(self.ctx.engine) as session:
            wanted = wanted_jobs(open_phases(session))
        changed = 0
        with self._lock:
            for job_id in set(self._scheduled) - set(wanted):
                self._remove_unless_due(job_id)
                del self._scheduled[job_id]
                changed += 1
            for job_id, at in wanted.items():
                if self._scheduled.get(job_id) == at:
                    continue
                self.scheduler.add_job(wake, "date", run_date=self.real_time(at), args=[job_id],
                                       id=job_id, replace_existing=True)
                self._scheduled[job_id] = at
                changed += 1
        return changed

    def _remove_unless_due(self, job_id: str) -> None:
        """Remove a job that is not due yet; a due one is APScheduler's to run and remove.

        APScheduler fires by the real clock and removes a fired date job itself:
        removing it under its feet would stop its thread. A stale due job only
        costs one wasted sweep.
        """
        job = self.scheduler.get_job(job_id)
        if job is None or job.next_run_time is None:
            return
        if job.next_run_time > datetime.now(UTC) + REMOVE_MARGIN:
            try:
                self.scheduler.remove_job(job_id)
            except JobLookupError:  # fired and removed meanwhile
                pass

    def planned(self) -> dict[str, datetime]:
        """The wake-ups this runner scheduled, by job id, in the context's clock."""
        with self._lock:
            return dict(self._scheduled)

    def stored_ids(self) -> set[str]:
        """The ids of the jobs in this instance's job store."""
        return {job.id for job in self.scheduler.get_jobs()}

    def fire(self, job_id: str) -> SweepReport:
        """What a job does when it fires: sweep (its game, or all), then resync the jobs."""
        report = sweep(self.ctx, game_id=game_of(job_id))
        with self._lock:
            self._scheduled.pop(job_id, None)
            if job_id != SWEEP_JOB:
                self._remove_unless_due(job_id)  # fired by hand: the stored job is stale
        self.resync()
        self.reports.append(report)
        self.fired.set()
        return report

    def _on_event(self, event: JobExecutionEvent) -> None:
        if event.exception is not None:
            log.error("scheduler job %s failed: %s", event.job_id, event.exception)
            return
        try:
            self.fire(str(event.retval))
        except Exception:  # the next sweep retries; the daemon must keep running
            log.exception("handling scheduler job %s failed", event.job_id)
