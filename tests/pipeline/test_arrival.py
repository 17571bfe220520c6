"""When a mail counts as arrived, and how far the mailbox counts as read (gm.pipeline.arrival)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gm.mail.types import FetchedMail
from gm.pipeline.arrival import CLOCK_SKEW, NOTHING_READ, MailboxReads, arrival

T = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def found(uid: int, arrived: datetime | None) -> FetchedMail:
    return FetchedMail(b"raw", "imap:INBOX", 7, uid, str(uid), arrived)


def test_the_servers_date_counts_between_the_read_before_and_the_read_that_found_it() -> None:
    assert arrival(T - 3 * MINUTE, since=T - 10 * MINUTE, read_at=T) == T - 3 * MINUTE
    assert arrival(T - 3 * MINUTE, since=None, read_at=T) == T - 3 * MINUTE  # first read


def test_a_date_the_read_contradicts_is_not_believed() -> None:
    """A server clock far ahead, or a test's clock far from the real one: the mail counts
    from the read that found it, as before."""
    assert arrival(T + CLOCK_SKEW + MINUTE, since=T - MINUTE, read_at=T) == T
    # a mail moved into the folder keeps the date it first arrived anywhere
    assert arrival(T - CLOCK_SKEW - 2 * MINUTE, since=T - MINUTE, read_at=T) == T
    assert arrival(None, since=T - MINUTE, read_at=T) == T


def test_a_date_a_little_after_the_read_counts_as_the_read() -> None:
    """The server's clock a minute ahead of gm's: never later than the read that found it."""
    assert arrival(T + MINUTE, since=T - MINUTE, read_at=T) == T


def test_the_mailbox_counts_as_read_up_to_the_earliest_mail_not_yet_handled() -> None:
    reads = MailboxReads()
    assert reads.read == NOTHING_READ
    early, late = found(1, T - 5 * MINUTE), found(2, T - MINUTE)
    judged = reads.found([early, late], started=T, ended=T + timedelta(seconds=1))
    assert [m.arrived for m in judged] == [T - 5 * MINUTE, T - MINUTE]
    assert reads.read < T - 5 * MINUTE  # neither is handled: a deadline at their arrival waits
    reads.handled([judged[0]])
    assert T - 5 * MINUTE < reads.read < T - MINUTE
    reads.handled([judged[1]])
    assert reads.read == T  # all handled: read as it stood when the read began


def test_a_mail_left_for_the_next_round_keeps_its_arrival_and_holds_the_read_back() -> None:
    reads = MailboxReads()
    reads.found([found(1, T - 5 * MINUTE)], started=T, ended=T)
    # read again an hour later (held by another instance meanwhile): same arrival
    [again] = reads.found([found(1, T - 5 * MINUTE)], started=T + 60 * MINUTE, ended=T + 60 * MINUTE)
    assert again.arrived == T - 5 * MINUTE
    assert reads.read < T - 5 * MINUTE
    reads.found([], started=T + 61 * MINUTE, ended=T + 61 * MINUTE)  # handled by the other
    assert reads.read == T + 61 * MINUTE
