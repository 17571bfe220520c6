"""Fault injection (issue 8): the database goes away under a running daemon and comes back.

PostgreSQL is reached through a TCP proxy the test cuts: every open connection
drops and new ones are refused, as in a server restart or a network cut. The
daemon must neither die nor flag a mail it could not store, and when the
database is back every mail is answered exactly once.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url
from sqlmodel import select

from gm.clock import FakeClock
from gm.daemon import Daemon
from gm.db.engine import make_engine, session_scope
from gm.db.migrate import upgrade
from gm.db.models import InboundMail, OrderSet
from gm.mail.config import MaildirSettings
from gm.mail.file_sink import FileSink
from gm.mail.maildir_source import MaildirSource
from gm.service.context import ServiceContext
from gm.service.games import create_game
from tests.conftest import PG_URL, _postgres_database
from tests.e2e.conftest import header
from tests.pipeline.conftest import SEATS, mail
from tests.support.tcpproxy import TcpProxy


@pytest.fixture
def behind_proxy() -> Iterator[tuple[ServiceContext, TcpProxy]]:
    if not PG_URL:
        pytest.skip("needs PostgreSQL (GM_TEST_DATABASE_URL): the cut is a TCP connection's")
    databases = _postgres_database()
    url = make_url(next(databases))
    proxy = TcpProxy(url.host or "127.0.0.1", url.port or 5432)
    engine = make_engine(url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False))
    upgrade(engine)
    ctx = ServiceContext(engine=engine, clock=FakeClock(), instance="test",
                         settings={"address": "gm@example.org", "moderator_address": "mod@example.org"})
    with session_scope(engine) as s:
        create_game(ctx, s, game_id="race1", module_name="race", scenario="duel", seats=SEATS,
                    moderator_address="mod@example.org", moderator_password="mod-secret",
                    seed=b"\x02" * 32)
    try:
        yield ctx, proxy
    finally:
        proxy.close()
        engine.dispose()
        next(databases, None)


def _until(check: Callable[[], bool], seconds: float = 30.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return False


def test_the_database_gone_for_a_while_loses_nothing_and_does_nothing_twice(
        behind_proxy, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    ctx, proxy = behind_proxy
    settings = MaildirSettings(inbox=str(tmp_path / "inbox"), outbox=str(tmp_path / "outbox"),
                               poll_interval=0.1)
    source = MaildirSource(settings)
    daemon = Daemon(ctx, source, FileSink(settings.outbox), sweep_seconds=3600, wait_seconds=0.1)
    thread = threading.Thread(target=asyncio.run, args=(daemon.run(),), daemon=True)
    new, sent = tmp_path / "inbox" / "new", tmp_path / "outbox" / "new"

    def replies_to(message_id: str) -> list[bytes]:
        return [p.read_bytes() for p in sent.iterdir()
                if header(p.read_bytes(), "In-Reply-To") == message_id] if sent.exists() else []

    caplog.set_level(logging.WARNING, logger="gm.daemon")
    (new / "1.1.host").write_bytes(mail("GAME race1\nPOWER north n-secret\nadvance 2\n",
                                        message_id="<before@player.example>"))
    thread.start()
    try:
        assert _until(lambda: len(replies_to("<before@player.example>")) == 1)

        proxy.cut()
        (new / "2.1.host").write_bytes(mail("GAME race1\nPOWER north n-secret\nadvance 3\n",
                                            message_id="<during@player.example>"))
        assert _until(lambda: "database unavailable" in caplog.text, 20)
        time.sleep(1.0)
        assert thread.is_alive(), "the daemon must outlive the database"
        assert [p.name for p in new.iterdir()] == ["2.1.host"], "not flagged: it was not stored"
        assert replies_to("<during@player.example>") == []

        proxy.restore()
        assert _until(lambda: len(replies_to("<during@player.example>")) == 1, 90)
    finally:
        daemon.stop()
        thread.join(timeout=30)
    assert list(new.iterdir()) == []
    assert len(replies_to("<before@player.example>")) == 1
    assert len(replies_to("<during@player.example>")) == 1
    with session_scope(ctx.engine) as s:
        assert len(s.exec(select(InboundMail)).all()) == 2
        current = s.exec(select(OrderSet).where(OrderSet.power == "north",
                                                OrderSet.current == True)).all()  # noqa: E712
        assert [o.text for o in current] == ["advance 3"]
