"""When a mail reached the mailbox, and how far the mailbox has been read.

A player's orders count from the moment they reach gm's mailbox, not from the moment gm
reads them: a mail that came a second before the deadline, while gm was busy with other
mail, or an hour before it, while the IMAP server could not be reached, is on time, as it
would be for a human GamesMaster reading his mail after the deadline. The mail server
says when each mail arrived (IMAP INTERNALDATE, a Maildir file's modification time); gm
takes that word only where it can be checked:

* no later than the read that found the mail (``read_at``);
* no earlier than the read before it (``since``), which would have found it: a mail moved
  into the folder from another one keeps the date it first arrived anywhere.

``CLOCK_SKEW`` is allowed either way for the mail server's clock against gm's; a date
outside those bounds (a server whose clock is wrong, the test clock of a test) is not
believed, and the mail counts from the read that found it, as before.

For the same reason a deadline is kept only once the mailbox has been read as it stood
then: :class:`MailboxReads` tells the sweep (gm.schedule.sweep) up to when every mail has
been handled; a phase whose players owe orders closes only when its due time is not later
(docs/scheduling.md, "Mail that arrived in time").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from gm.clock import utc
from gm.mail.types import FetchedMail

CLOCK_SKEW = timedelta(minutes=5)
"""How far the mail server's clock may be from gm's before its dates are not believed."""

RESOLUTION = timedelta(seconds=1)
"""How finely a mail server dates a mail: IMAP's INTERNALDATE counts whole seconds, so a
mail dated ``t`` came between ``t`` and ``t + RESOLUTION``."""

NOTHING_READ = datetime.min.replace(tzinfo=UTC)
"""The read bound before the first read: no mail is known handled."""

MailKey = tuple[str, int | None, int | None, str]


def arrival(claimed: datetime | None, since: datetime | None, read_at: datetime) -> datetime:
    """When a mail found by a read at ``read_at`` counts as arrived: the server's
    ``claimed`` date if it lies between the read before (``since``; None: none known) and
    this one, give or take ``CLOCK_SKEW`` (never later than ``read_at``); else ``read_at``."""
    read_at = utc(read_at)
    if claimed is None:
        return read_at
    at = utc(claimed)
    if at > read_at + CLOCK_SKEW or (since is not None and at < utc(since) - CLOCK_SKEW):
        return read_at
    return min(at, read_at)


def mail_key(fetched: FetchedMail) -> MailKey:
    """A mail's place in its mailbox (the same across reads)."""
    return (fetched.source, fetched.uidvalidity, fetched.uid, fetched.key)


@dataclass
class MailboxReads:
    """One process's reads of its mailbox: the arrival of each mail found and not yet
    handled, and ``read``: every mail that reached the mailbox before it is handled."""

    read: datetime = NOTHING_READ
    last_start: datetime | None = None  # when the last read that worked began
    _waiting: dict[MailKey, datetime] = field(default_factory=dict)  # found, not handled: arrival

    def found(self, mails: list[FetchedMail], started: datetime, ended: datetime) -> list[FetchedMail]:
        """A read that began at ``started`` and returned ``mails`` at ``ended``: the mails,
        each with its :func:`arrival` (the one judged when it was first found)."""
        keys = [mail_key(f) for f in mails]
        waiting = {k: self._waiting[k] for k in keys if k in self._waiting}  # others: handled
        for key, fetched in zip(keys, mails, strict=True):
            if key not in waiting:
                waiting[key] = arrival(fetched.arrived, self.last_start, ended)
        self._waiting, self.last_start = waiting, utc(started)
        self._bound()
        return [replace(f, arrived=waiting[k]) for k, f in zip(keys, mails, strict=True)]

    @property
    def waiting(self) -> int:
        """How many mails found are not handled yet."""
        return len(self._waiting)

    def handled(self, mails: Iterable[FetchedMail]) -> None:
        """These mails are handled (or given up on): they no longer hold ``read`` back."""
        for fetched in mails:
            self._waiting.pop(mail_key(fetched), None)
        self._bound()

    def _bound(self) -> None:
        # a mail still waiting holds back every deadline at or after its arrival
        if self.last_start is not None:
            self.read = min([self.last_start,
                             *(at - timedelta.resolution for at in self._waiting.values())])
