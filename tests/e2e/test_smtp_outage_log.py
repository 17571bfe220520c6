"""The log while the SMTP server is down: said once, and once when it is back.

A host's journal showed a WARNING about every 5 seconds while the mail server was down:
each round of the daemon tried the next queued mail that had not failed yet, and each
got a failure of its own. Now the first failure ends the round and the rounds after it
leave the server alone until its backoff runs out (30 s, doubling, as a mail's own); the
log says once how many mails wait, and once that they go when the server answers. The
real ``Daemon`` rounds (an empty Maildir inbox), a race game's four opening mails, a real
SMTP server (aiosmtpd): first nothing listens on its port, then it does. Nothing is
lost, nothing is sent twice.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import col, select

from gm.clock import FakeClock
from gm.daemon import Daemon
from gm.db.engine import session_scope
from gm.db.models import OutboundMail
from gm.mail.config import MaildirSettings, SmtpSettings
from gm.mail.maildir_source import MaildirSource
from gm.mail.smtp_sink import SmtpSink
from gm.service.context import ServiceContext
from tests.e2e.conftest import header
from tests.support.servers import SmtpTestServer, free_port


def _attempts(ctx: ServiceContext) -> list[tuple[str, int]]:
    with session_scope(ctx.engine) as s:
        return [(m.status, m.attempts) for m in
                s.exec(select(OutboundMail).order_by(col(OutboundMail.id))).all()]


def test_a_mail_server_down_is_logged_once_with_the_mails_waiting_and_once_when_it_is_back(
        race: ServiceContext, tmp_path: Path, smtp_settings: SmtpSettings,
        caplog: pytest.LogCaptureFixture) -> None:
    race.settings["draw_workers"] = 0
    clock = race.clock
    assert isinstance(clock, FakeClock)
    queued = len(_attempts(race))
    assert queued == 4  # the welcomes and the opening reports of north and south
    port = free_port()
    daemon = Daemon(race, MaildirSource(MaildirSettings(inbox=str(tmp_path / "inbox"))),
                    SmtpSink(replace(smtp_settings, port=port)), sweep_seconds=3600)
    server = SmtpTestServer(port=port)

    async def rounds(n: int) -> None:
        for _ in range(n):
            await daemon.step()
            clock.advance(timedelta(seconds=5))  # the idle daemon's wait between rounds

    async def outage_then_back() -> None:
        try:
            await rounds(12)  # a minute of rounds with nothing listening: two tries
            server.start()
            await rounds(24)  # the next try (two minutes after the first) finds it back
        finally:
            await daemon.sink.close()

    with caplog.at_level(logging.DEBUG, logger="gm"):
        try:
            asyncio.run(outage_then_back())
        finally:
            server.stop()
    said = [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name in ("gm.dispatch", "gm.mail.smtp") and r.levelno >= logging.INFO]
    assert [level for level, _ in said] == ["WARNING", "WARNING", "INFO", "INFO"], said
    assert said[0][1].startswith(f"smtp send to 127.0.0.1:{port} failed (connection_refused")
    assert said[1][1].startswith(f"the mail server is down: {queued} queued mails wait "
                                 "(nothing is lost")
    assert said[2][1] == f"smtp server 127.0.0.1:{port} answers again"
    assert said[3][1] == (f"the mail server answers again after 1 minute: the {queued - 1} "
                          "queued mails still waiting go now")  # the first one went
    # every mail sent once; the first one alone met the server down, twice
    assert sorted(_attempts(race)) == [("sent", 1)] * (queued - 1) + [("sent", 3)]
    ids = [header(m.raw, "Message-ID") for m in server.received]
    assert len(ids) == len(set(ids)) == queued
