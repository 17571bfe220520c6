"""Fault injection (issue 8): SMTP refusing and timing out, a full disk, a locked database,
the IMAP server restarted mid-fetch. The service waits, retries, tells the moderator,
and loses nothing."""

from __future__ import annotations

import asyncio
import errno
import sqlite3
import threading
import time
from datetime import timedelta
from pathlib import Path

from sqlmodel import col, select

from gm.daemon import process_one
from gm.db.engine import session_scope
from gm.db.models import InboundMail, OutboundMail
from gm.mail.file_sink import FileSink
from gm.mail.imap_source import ImapSource
from gm.mail.mime import decode
from gm.mail.smtp_sink import SmtpSink
from gm.pipeline.dispatch import TELL_AFTER_ATTEMPTS, drain
from gm.service.context import ServiceContext
from tests.pipeline.conftest import deliver, mail
from tests.security.test_secrets import assert_no_password_in_database
from tests.support.servers import DovecotServer, SmtpMode, SmtpTestServer

ORDERS = "GAME race1\nPOWER north n-secret\nadvance 2\n"


def rows(ctx: ServiceContext) -> list[OutboundMail]:
    with session_scope(ctx.engine) as s:
        return list(s.exec(select(OutboundMail).order_by(col(OutboundMail.id))).all())


def clear(ctx: ServiceContext) -> None:
    """Drop the game's welcome mails: each test watches the mails it causes."""
    with session_scope(ctx.engine) as s:
        for r in s.exec(select(OutboundMail)).all():
            s.delete(r)


def test_smtp_4xx_then_5xx_retries_then_tells_the_moderator(race, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    clear(race)
    deliver(race, mail(ORDERS))
    sink = SmtpSink(smtp_settings)
    smtp_server.mode = SmtpMode.TEMPFAIL
    assert asyncio.run(drain(race, sink)) == 0
    [row] = rows(race)
    assert (row.status, row.attempts) == ("queued", 1) and row.next_attempt_at is not None
    assert asyncio.run(drain(race, sink)) == 0
    assert rows(race)[0].attempts == 1, "not due yet: no hammering"  # (a drain that tried
    # again would also send nothing: the server still refuses)
    race.clock.advance(timedelta(minutes=5))
    smtp_server.mode = SmtpMode.PERMFAIL
    asyncio.run(drain(race, sink))
    reply, *notices = rows(race)
    assert reply.status == "failed" and "554" in reply.last_error
    assert [n.recipients for n in notices] == [["mod@example.org"]]
    smtp_server.mode = SmtpMode.ACCEPT
    assert asyncio.run(drain(race, sink)) == 1  # the notice goes; the failed reply is kept, not lost
    assert rows(race)[0].raw and rows(race)[0].status == "failed"


def test_a_welcome_refused_for_good_keeps_no_password(race, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    """Given up (5xx), a welcome is never sent: its stored copy is masked all the same."""
    smtp_server.mode = SmtpMode.PERMFAIL
    asyncio.run(drain(race, SmtpSink(smtp_settings)))
    welcomes = [r for r in rows(race) if r.kind == "welcome"]
    assert len(welcomes) == 2 and {r.status for r in welcomes} == {"failed"}
    assert all("POWER north ********" in decode(r.raw).text or "POWER south ********"
               in decode(r.raw).text for r in welcomes)
    assert_no_password_in_database(race, ("n-secret", "s-secret"))  # the HTML part too


def test_a_long_4xx_outage_tells_the_moderator_once_and_the_mail_goes_when_it_ends(race, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    clear(race)
    deliver(race, mail(ORDERS))
    deliver(race, mail(ORDERS.replace("advance 2", "advance 1"), message_id="<second@example.org>"))
    sink = SmtpSink(smtp_settings)
    smtp_server.mode = SmtpMode.TEMPFAIL
    for _ in range(TELL_AFTER_ATTEMPTS + 2):  # each drain waits for the backoff to pass
        asyncio.run(drain(race, sink))
        race.clock.advance(timedelta(hours=1))
    replies = [r for r in rows(race) if r.kind == "reply"]
    notices = [r for r in rows(race) if r.kind == "notice"]
    assert len(replies) == 2 and all(r.status == "queued" for r in replies)
    assert all(r.attempts == TELL_AFTER_ATTEMPTS + 2 for r in replies)
    # one notice for the game's two delayed mails, queued (it goes when the server is back)
    assert [(n.recipients, n.status) for n in notices] == [(["mod@example.org"], "queued")]
    assert "mail is delayed" in notices[0].subject and "451" in notices[0].raw.decode()
    smtp_server.mode = SmtpMode.ACCEPT
    assert asyncio.run(drain(race, sink)) == 3
    assert [r.status for r in rows(race)] == ["sent"] * 3


def test_smtp_timeout_is_a_temporary_failure(race, smtp_settings, smtp_server: SmtpTestServer) -> None:  # type: ignore[no-untyped-def]
    clear(race)
    deliver(race, mail(ORDERS))
    smtp_server.mode = SmtpMode.HANG
    try:
        settings = type(smtp_settings)(**{**smtp_settings.__dict__, "timeout": 1.0})
        assert asyncio.run(drain(race, SmtpSink(settings))) == 0
    finally:
        smtp_server.mode = SmtpMode.ACCEPT
        getattr(smtp_server, "release", lambda: None)()
    [row] = rows(race)
    assert row.status == "queued" and row.attempts == 1


def test_a_full_disk_on_the_maildir_sink_is_retried_and_nothing_lost(race, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    clear(race)
    deliver(race, mail(ORDERS))
    sink = FileSink(tmp_path / "out")
    real = Path.write_bytes

    def full(self: Path, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(Path, "write_bytes", full)
    import builtins
    real_open = builtins.open
    monkeypatch.setattr(builtins, "open", lambda f, m="r", *a, **k: (_ for _ in ()).throw(
        OSError(errno.ENOSPC, "No space left on device")) if "w" in m or "x" in m else real_open(f, m, *a, **k))
    assert asyncio.run(drain(race, sink)) == 0
    [row] = rows(race)
    assert row.status == "queued" and "space" in row.last_error.lower()
    monkeypatch.setattr(Path, "write_bytes", real)
    monkeypatch.setattr(builtins, "open", real_open)
    race.clock.advance(timedelta(minutes=5))
    assert asyncio.run(drain(race, sink)) == 1
    assert len(list((tmp_path / "out" / "new").iterdir())) == 1


def test_a_database_locked_for_a_while_delays_but_loses_nothing(race, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    url = str(race.engine.url)
    if not url.startswith("sqlite"):
        return  # the lock below is SQLite's; PostgreSQL row locks are covered by the claim tests
    clear(race)
    lock = sqlite3.connect(url.split("///", 1)[1], timeout=1, check_same_thread=False,
                           isolation_level=None)
    lock.execute("BEGIN IMMEDIATE")
    lock.execute("UPDATE game SET status = status")  # a write lock held by another process
    threading.Timer(2.0, lambda: lock.execute("ROLLBACK")).start()  # ... for two seconds
    start = time.monotonic()
    deliver(race, mail(ORDERS, message_id="<locked@x>"))  # waits on busy_timeout, then works
    assert time.monotonic() - start >= 1.5
    with session_scope(race.engine) as s:
        [row] = s.exec(select(InboundMail)).all()
    assert row.status == "handled" and len(rows(race)) == 1
    lock.close()


def test_imap_server_restarted_mid_fetch_loses_and_doubles_nothing(race, dovecot: DovecotServer, imap_user, imap_settings) -> None:  # type: ignore[no-untyped-def]
    clear(race)
    user, password = imap_user
    dovecot.append(user, password, [mail(ORDERS, message_id=f"<r{i}@x>") for i in range(6)])
    source = ImapSource(imap_settings)
    first = source.fetch_new()
    process_one(race, source, first[0])
    dovecot.restart()  # the connection dies with mails fetched but not handled or flagged
    for fetched in first[1:]:
        try:
            process_one(race, source, fetched)
        except Exception:
            break
    for _ in range(20):  # the source reconnects; the unflagged mails come again
        try:
            again = source.fetch_new()
        except Exception:
            time.sleep(0.2)
            continue
        for fetched in again:
            process_one(race, source, fetched)
        if not again:
            break
    source.close()
    with session_scope(race.engine) as s:
        inbound = s.exec(select(InboundMail)).all()
    assert sorted(r.message_id for r in inbound) == sorted(f"<r{i}@x>" for i in range(6))
    assert all(r.status == "handled" for r in inbound)
    assert len([r for r in rows(race) if r.kind == "reply"]) == 6
