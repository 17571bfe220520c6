"""ImapSource against a real Dovecot on loopback."""

from __future__ import annotations

import dataclasses
import threading

import pytest

from gm.mail.config import TlsMode
from gm.mail.imap_source import ImapLoginError, ImapSource
from gm.mail.types import MailSource
from tests.support.servers import DovecotServer

pytestmark = pytest.mark.imap


def _mail(n: int) -> bytes:
    return (
        f"From: player{n}@example.org\r\nTo: gm@example.org\r\n"
        f"Message-ID: <m{n}@example.org>\r\nSubject: orders {n}\r\n\r\nrecon Livland\r\n"
    ).encode()


def _flags(dovecot: DovecotServer, user: tuple[str, str], folder: str = "INBOX") -> dict:
    client = dovecot.client(*user)
    try:
        client.select_folder(folder, readonly=True)
        return {uid: set(d[b"FLAGS"]) for uid, d in client.fetch(client.search("ALL"), ["FLAGS"]).items()}
    finally:
        client.logout()


def test_is_a_mail_source(imap_settings):
    assert isinstance(ImapSource(imap_settings), MailSource)


def test_fetch_peeks_and_marks_only_after_mark_handled(dovecot, imap_user, imap_settings):
    dovecot.append(*imap_user, [_mail(1), _mail(2)])
    source = ImapSource(imap_settings)
    fetched = source.fetch_new()
    assert [f.raw for f in fetched] == [_mail(1), _mail(2)]
    assert all(b"\\Seen" not in fl and b"$GmHandled" not in fl for fl in _flags(dovecot, imap_user).values())
    assert len(source.fetch_new()) == 2  # still there: nothing marked yet
    source.mark_handled(fetched[:1])
    assert [f.raw for f in source.fetch_new()] == [_mail(2)]
    assert b"$GmHandled" in _flags(dovecot, imap_user)[fetched[0].uid]
    source.close()


def test_fetched_mail_carries_uidvalidity_and_uid_for_dedup(dovecot, imap_user, imap_settings):
    dovecot.append(*imap_user, [_mail(1), _mail(2)])
    source = ImapSource(imap_settings)
    first, second = source.fetch_new()
    client = dovecot.client(*imap_user)
    info = client.select_folder("INBOX", readonly=True)
    client.logout()
    assert first.uidvalidity == second.uidvalidity == int(info[b"UIDVALIDITY"])
    assert (first.uid, second.uid) == (1, 2)
    assert first.source == "imap:INBOX"
    source.close()


def test_processed_folder_moves_handled_mail(dovecot, imap_user, imap_settings):
    settings = dataclasses.replace(imap_settings, processed_folder="gm-processed")
    dovecot.append(*imap_user, [_mail(1), _mail(2)])
    source = ImapSource(settings)
    fetched = source.fetch_new()
    source.mark_handled(fetched[:1])
    assert [f.raw for f in source.fetch_new()] == [_mail(2)]
    assert len(_flags(dovecot, imap_user, "gm-processed")) == 1
    source.close()


def test_seen_flag_can_be_the_handled_flag(dovecot, imap_user, imap_settings):
    source = ImapSource(dataclasses.replace(imap_settings, handled_flag="\\Seen"))
    dovecot.append(*imap_user, [_mail(1)])
    source.mark_handled(source.fetch_new())
    assert source.fetch_new() == []
    assert b"\\Seen" in _flags(dovecot, imap_user)[1]
    source.close()


def test_idle_wakes_on_a_new_append(dovecot, imap_user, imap_settings):
    source = ImapSource(imap_settings)
    assert source.fetch_new() == []
    assert source.uses_idle
    timer = threading.Timer(0.5, dovecot.append, args=(*imap_user, [_mail(7)]))
    timer.start()
    try:
        woke = source.wait(timeout=20)
    finally:
        timer.join()
    assert woke is True
    assert [f.raw for f in source.fetch_new()] == [_mail(7)]
    source.close()


def test_a_mail_that_came_before_the_wait_is_seen_without_idling(dovecot, imap_user, imap_settings,
                                                                  monkeypatch):
    """A mail appended after the last fetch and before IDLE begins (while the daemon drained
    its outbox, say) is told by Dovecot only when IDLE ends, at the timeout: the NOOP before
    IDLE sees it, and the wait returns at once."""
    from imapclient import IMAPClient

    idled = []
    idle = IMAPClient.idle
    monkeypatch.setattr(IMAPClient, "idle", lambda client: idled.append(client) or idle(client))
    source = ImapSource(imap_settings)
    assert source.fetch_new() == []
    assert source.uses_idle
    dovecot.append(*imap_user, [_mail(7)])
    assert source.wait(timeout=10) is True
    assert idled == [], "seen before IDLE"
    assert [f.raw for f in source.fetch_new()] == [_mail(7)]
    source.close()


def test_idle_times_out_without_mail(imap_settings):
    source = ImapSource(imap_settings)
    source.fetch_new()
    assert source.wait(timeout=0.3) is False
    source.close()


def test_polling_when_idle_is_off(dovecot, imap_user, imap_settings):
    sleeps: list[float] = []
    source = ImapSource(dataclasses.replace(imap_settings, idle=False), sleep=sleeps.append)
    assert not source.uses_idle
    assert source.fetch_new() == []
    dovecot.append(*imap_user, [_mail(3)])
    assert source.wait(timeout=5) is True
    assert sleeps == [0.2]  # slept one poll interval instead of IDLE
    assert [f.raw for f in source.fetch_new()] == [_mail(3)]
    source.close()


def test_server_restart_mid_session_loses_nothing(dovecot, imap_user, imap_settings):
    source = ImapSource(imap_settings)
    dovecot.append(*imap_user, [_mail(1)])
    first = source.fetch_new()
    dovecot.restart()
    dovecot.append(*imap_user, [_mail(2)])
    again = source.fetch_new()  # the old connection is dead: reconnects
    assert source.reconnects >= 1
    assert [f.raw for f in again] == [_mail(1), _mail(2)]
    assert again[0].uidvalidity == first[0].uidvalidity
    dovecot.restart()
    source.mark_handled(again)  # marking after another restart also reconnects
    assert source.fetch_new() == []
    source.close()


def test_wrong_password_is_not_retried(imap_settings):
    source = ImapSource(dataclasses.replace(imap_settings, password="wrong"))
    with pytest.raises(ImapLoginError):
        source.fetch_new()


def test_server_down_gives_up_after_max_attempts(imap_settings):
    from tests.support.servers import free_port

    sleeps: list[float] = []
    settings = dataclasses.replace(imap_settings, port=free_port())
    source = ImapSource(settings, sleep=sleeps.append, max_attempts=4)
    with pytest.raises(OSError):
        source.fetch_new()
    assert sleeps == [0.1, 0.2, 0.4]  # exponential backoff between attempts


def test_a_mail_still_unhandled_is_fetched_again_without_its_body_being_downloaded_again(
        dovecot, imap_user, imap_settings):
    """Each round asks for every unhandled mail; only the new ones' bodies cross the wire,
    and every mail comes back whole, handled ones left out."""
    dovecot.append(*imap_user, [_mail(1), _mail(2)])
    source = ImapSource(imap_settings)
    first = source.fetch_new()
    assert source._client is not None
    asked: list[list[int]] = []
    real = source._client.fetch
    source._client.fetch = lambda uids, parts: asked.append(list(uids)) or real(uids, parts)  # type: ignore[method-assign]
    dovecot.append(*imap_user, [_mail(3)])
    source.mark_handled(first[:1])
    again = source.fetch_new()
    assert [(f.uid, f.raw) for f in again] == [(2, _mail(2)), (3, _mail(3))]
    assert asked == [[3]]
    source.close()
    assert [f.raw for f in source.fetch_new()] == [_mail(2), _mail(3)]  # a new connection: same mails
    source.close()


def test_a_server_gm_cannot_connect_to_is_logged_with_its_settings_and_the_doctor(
        imap_settings, caplog):
    """`gm serve` with tls = "tls" on a plain port logged "imap connection lost ([SSL:
    WRONG_VERSION_NUMBER] ...)": no connection was ever made, and neither the server, the
    setting nor where to learn more was named."""
    import logging

    settings = dataclasses.replace(imap_settings, tls=TlsMode.TLS, timeout=5.0)
    source = ImapSource(settings, sleep=lambda s: None, max_attempts=2)
    with caplog.at_level(logging.WARNING, logger="gm.mail.imap"), pytest.raises(OSError):
        source.fetch_new()
    [line] = [r.getMessage() for r in caplog.records]
    assert line.startswith(f'imap cannot connect to {settings.host}:{settings.port} (tls = "tls"): ')
    assert "WRONG_VERSION_NUMBER" in line and "`gm doctor` names the cause and the fix" in line
