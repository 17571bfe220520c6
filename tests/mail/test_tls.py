"""TLS to the mail servers: implicit TLS and STARTTLS, with the certificate checked.

A private certificate authority (trustme) signs a certificate for 127.0.0.1;
Dovecot serves IMAP with STARTTLS on its plain port and implicit TLS on its
IMAPS port, aiosmtpd serves SMTP either way. gm trusts the CA through
``ca_file`` and must refuse the same servers when it does not.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Iterator
from pathlib import Path

import pytest
import trustme

from gm.mail.compose import build_message, make_message_id
from gm.mail.config import ImapSettings, SmtpSettings, TlsMode
from gm.mail.imap_source import ImapSource
from gm.mail.smtp_sink import SmtpSink
from gm.mail.types import FailureKind, SendStatus
from tests.support.servers import DOVECOT, DovecotServer, SmtpTestServer, dovecot_available

SECRET = b"test-secret-0123456789abcdef"  # the instance's Message-ID key (gm.service.secret)

ORDER_MAIL = (b"From: anna@example.org\r\nTo: gm@example.org\r\nMessage-ID: <tls1@example.org>\r\n"
              b"Subject: orders\r\n\r\nrecon Livland\r\n")


@pytest.fixture(scope="module")
def ca(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[trustme.CA, Path, Path]]:
    """The test CA, its certificate file, and a chain+key file pair for 127.0.0.1."""
    root = tmp_path_factory.mktemp("tls")
    authority = trustme.CA()
    cert = authority.issue_cert("127.0.0.1", "localhost")
    ca_file, chain, key = root / "ca.pem", root / "server.pem", root / "server.key"
    authority.cert_pem.write_to_path(str(ca_file))
    cert.private_key_pem.write_to_path(str(key))
    with chain.open("wb") as f:
        for blob in cert.cert_chain_pems:
            f.write(blob.bytes())
    yield authority, ca_file, chain  # the key is chain.with_suffix(".key")


@pytest.fixture(scope="module")
def tls_dovecot(ca) -> Iterator[DovecotServer]:  # type: ignore[no-untyped-def]
    if not dovecot_available():
        pytest.skip(f"{DOVECOT} not installed or not running as root")
    _, _, chain = ca
    server = DovecotServer(tls=(chain, chain.with_suffix(".key")))
    server.start()
    server.add_user("anna", "secret")
    server.append("anna", "secret", [ORDER_MAIL])
    yield server
    server.cleanup()


def _imap(server: DovecotServer, mode: TlsMode, ca_file: Path | str) -> ImapSettings:
    return ImapSettings(host="127.0.0.1", port=server.tls_port if mode is TlsMode.TLS else server.port,
                        user="anna", password="secret", tls=mode, ca_file=str(ca_file), timeout=10.0,
                        idle=False, poll_interval=0.2, reconnect_initial=0.1, reconnect_max=0.5)


@pytest.mark.parametrize("mode", [TlsMode.TLS, TlsMode.STARTTLS])
def test_imap_over_tls_fetches_the_order_mail(tls_dovecot, ca, mode) -> None:  # type: ignore[no-untyped-def]
    source = ImapSource(_imap(tls_dovecot, mode, ca[1]))
    try:
        assert [f.raw for f in source.fetch_new()] == [ORDER_MAIL]
    finally:
        source.close()


@pytest.mark.parametrize("mode", [TlsMode.TLS, TlsMode.STARTTLS])
def test_imap_refuses_a_server_whose_certificate_it_cannot_check(tls_dovecot, mode, tmp_path) -> None:  # type: ignore[no-untyped-def]
    stranger = tmp_path / "other-ca.pem"
    trustme.CA().cert_pem.write_to_path(str(stranger))
    source = ImapSource(_imap(tls_dovecot, mode, stranger), max_attempts=1)
    with pytest.raises(ssl.SSLCertVerificationError):
        source.fetch_new()
    source.close()


def _server(ca, implicit: bool) -> SmtpTestServer:  # type: ignore[no-untyped-def]
    authority, _, chain = ca
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(chain), str(chain.with_suffix(".key")))
    server = SmtpTestServer(tls_context=context, implicit_tls=implicit)
    server.start()
    return server


def _send(settings: SmtpSettings):  # type: ignore[no-untyped-def]
    raw = build_message(from_addr="gm@example.org", to=["anna@example.org"], subject="reply",
                        text="==== gm reply ====\n", message_id=make_message_id("tls", "example.org", SECRET),
                        game_id="baltica42")

    async def run():  # type: ignore[no-untyped-def]
        sink = SmtpSink(settings)
        try:
            return await sink.send(raw, "gm@example.org", ["anna@example.org"])
        finally:
            await sink.close()

    return asyncio.run(run())


@pytest.mark.parametrize(("mode", "implicit"), [(TlsMode.TLS, True), (TlsMode.STARTTLS, False)])
def test_smtp_over_tls_delivers_the_reply(ca, mode, implicit) -> None:  # type: ignore[no-untyped-def]
    server = _server(ca, implicit)
    try:
        result = _send(SmtpSettings(host="127.0.0.1", port=server.port, tls=mode, ca_file=str(ca[1]),
                                    timeout=10.0))
        assert result.ok, result
        assert [m.recipients for m in server.received] == [["anna@example.org"]]
    finally:
        server.stop()


@pytest.mark.parametrize(("mode", "implicit"), [(TlsMode.TLS, True), (TlsMode.STARTTLS, False)])
def test_smtp_refuses_an_unverified_server_and_keeps_the_mail_for_later(ca, mode, implicit, tmp_path) -> None:  # type: ignore[no-untyped-def]
    stranger = tmp_path / "other-ca.pem"
    trustme.CA().cert_pem.write_to_path(str(stranger))
    server = _server(ca, implicit)
    try:
        result = _send(SmtpSettings(host="127.0.0.1", port=server.port, tls=mode, ca_file=str(stranger),
                                    timeout=10.0))
        assert result.status is SendStatus.TEMPORARY
        assert result.failure.kind is FailureKind.TLS
        assert server.received == []
    finally:
        server.stop()
