"""While the mail server is down: try it again with backoff, not each queued mail.

When a send meets the server down (refused, timed out, its login refused:
``gm.mail.types.SERVER_DOWN``), the drain stops (the other mails would fail the same
way) and the queued mails wait, untouched: none given up, none marked. Before this,
each round of the daemon (every few seconds) tried the next mail that had not failed
yet, so each queued mail got a failure of its own and the log a warning each time. A
:class:`MailServerWatch`, kept by the daemon across its rounds, now holds the drains
back until the server's own backoff (30 s, doubling, as each mail's, but at most
``LONGEST_WAIT``) runs out, and says once per outage how many mails wait, and once
that they go when the server answers again: the mails that met it down are then due
at once (``retry_now``), not at the end of their own backoff. A restarted daemon tries
at once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from gm.clock import utc
from gm.l10n import duration

log = logging.getLogger("gm.dispatch")

LONGEST_WAIT = timedelta(minutes=5)
"""The longest the server is left alone between two tries: a mail's own backoff grows to
2 hours, but the whole outbox waits on these tries (and the mails it went down with are
made due at once when it answers: gm.pipeline.dispatch)."""


@dataclass
class MailServerWatch:
    """The mail server as this process's drains found it: down since when, tried how many
    times, and when to try it again."""

    down_since: datetime | None = None
    failures: int = 0
    retry_at: datetime | None = None

    def may_try(self, now: datetime) -> bool:
        """Whether a drain should send now: the server is not known down, or its next
        try is due."""
        return self.retry_at is None or utc(now) >= self.retry_at

    def failed(self, now: datetime, retry_in: timedelta, waiting: int) -> None:
        """A send met the server down; ``waiting``: the mails still queued."""
        if self.down_since is None:
            self.down_since = utc(now)
            log.warning("the mail server is down: %d queued mails wait (nothing is lost: gm "
                        "tries the server again with backoff and sends them once it answers; "
                        "restarting gm tries at once)", waiting)
        self.failures += 1
        self.retry_at = utc(now) + min(retry_in, LONGEST_WAIT)

    def answered(self, now: datetime, waiting: int) -> None:
        """A send reached the server (it took the mail or answered about it)."""
        if self.down_since is not None:
            log.info("the mail server answers again after %s: the %d queued mails still waiting "
                     "go now", duration(utc(now) - self.down_since, "en"), waiting)
        self.down_since, self.failures, self.retry_at = None, 0, None
