"""Fixtures that start real mail servers on loopback for the mail tests."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from gm.mail.config import ImapSettings, SmtpSettings, TlsMode
from tests.support.servers import DOVECOT, DovecotServer, SmtpTestServer, dovecot_available

_users = itertools.count(1)


@pytest.fixture(scope="session")
def dovecot() -> Iterator[DovecotServer]:
    """One private Dovecot for the session (skipped if the binary is missing)."""
    if not dovecot_available():
        pytest.skip(f"{DOVECOT} not installed or not running as root (scripts/install --test)")
    server = DovecotServer()
    server.start()
    yield server
    server.cleanup()


@pytest.fixture
def imap_user(dovecot: DovecotServer) -> tuple[str, str]:
    """A fresh mailbox user per test, so tests never see each other's mail."""
    user = f"gm{next(_users)}"
    dovecot.add_user(user, "secret")
    return user, "secret"


@pytest.fixture
def imap_settings(dovecot: DovecotServer, imap_user: tuple[str, str]) -> ImapSettings:
    user, password = imap_user
    return ImapSettings(
        host=dovecot.host,
        port=dovecot.port,
        user=user,
        password=password,
        tls=TlsMode.NONE,
        timeout=10.0,
        poll_interval=0.2,
        reconnect_initial=0.1,
        reconnect_max=1.0,
    )


@pytest.fixture
def smtp_server() -> Iterator[SmtpTestServer]:
    """An aiosmtpd server on loopback collecting messages (switch ``mode`` to fail)."""
    server = SmtpTestServer()
    server.start()
    yield server
    server.hang_seconds = 0
    server.stop()


@pytest.fixture
def smtp_settings(smtp_server: SmtpTestServer) -> SmtpSettings:
    return SmtpSettings(
        host=smtp_server.host, port=smtp_server.port, tls=TlsMode.NONE, timeout=5.0
    )
