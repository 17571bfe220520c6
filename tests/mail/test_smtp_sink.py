"""SmtpSink against a real aiosmtpd server on loopback."""

from __future__ import annotations

import asyncio
import dataclasses

from gm.mail.compose import build_message, make_message_id
from gm.mail.smtp_sink import SmtpSink
from gm.mail.types import FailureKind, SendStatus
from tests.support.servers import SmtpMode, SmtpTestServer, free_port

SECRET = b"test-secret-0123456789abcdef"  # the instance's Message-ID key (gm.service.secret)


def _raw(n: int = 1) -> bytes:
    return build_message(
        from_addr="gm@example.org",
        to=["anna@example.org"],
        subject=f"reply {n}",
        text="==== gm reply ====\nrecon Livland: accepted\n",
        message_id=make_message_id(f"reply:{n}", "example.org", SECRET),
        game_id="baltica42",
    )


def _send(sink: SmtpSink, raws: list[bytes], rcpts: list[str] | None = None):
    async def run():
        results = [await sink.send(r, "gm@example.org", rcpts or ["anna@example.org"]) for r in raws]
        await sink.close()
        return results

    return asyncio.run(run())


def test_sends_over_one_persistent_connection(smtp_server: SmtpTestServer, smtp_settings):
    sink = SmtpSink(smtp_settings)
    results = _send(sink, [_raw(1), _raw(2), _raw(3)])
    assert all(r.ok for r in results)
    assert sink.connections_opened == 1
    assert [m.recipients for m in smtp_server.received] == [["anna@example.org"]] * 3
    assert b"Auto-Submitted: auto-generated" in smtp_server.received[0].raw
    assert smtp_server.received[0].sender == "gm@example.org"


def test_4xx_is_temporary(smtp_server, smtp_settings):
    smtp_server.mode = SmtpMode.TEMPFAIL
    (result,) = _send(SmtpSink(smtp_settings), [_raw()])
    assert result.status is SendStatus.TEMPORARY
    assert result.failure.kind is FailureKind.SERVER_TEMPORARY
    assert result.failure.code == 451
    assert smtp_server.received == []


def test_5xx_is_permanent(smtp_server, smtp_settings):
    smtp_server.mode = SmtpMode.PERMFAIL
    (result,) = _send(SmtpSink(smtp_settings), [_raw()])
    assert result.status is SendStatus.PERMANENT
    assert result.failure.code == 554


def test_refused_recipient_is_permanent_when_all_are_refused(smtp_server, smtp_settings):
    smtp_server.mode = SmtpMode.REJECT_RCPT
    (all_refused,) = _send(SmtpSink(smtp_settings), [_raw()], ["reject@example.org"])
    assert all_refused.status is SendStatus.PERMANENT
    assert all_refused.failure.kind is FailureKind.RECIPIENTS_REFUSED
    (partly,) = _send(SmtpSink(smtp_settings), [_raw()], ["reject@example.org", "ok@example.org"])
    assert partly.ok and partly.refused == {"reject@example.org": 550}
    assert smtp_server.received[-1].recipients == ["ok@example.org"]


def test_a_hanging_server_times_out_as_temporary(smtp_server, smtp_settings):
    smtp_server.mode = SmtpMode.HANG
    smtp_server.hang_seconds = 5
    sink = SmtpSink(dataclasses.replace(smtp_settings, timeout=0.5))
    (result,) = _send(sink, [_raw()])
    assert result.status is SendStatus.TEMPORARY
    assert result.failure.kind is FailureKind.TIMEOUT


def test_connection_refused_is_temporary(smtp_settings):
    sink = SmtpSink(dataclasses.replace(smtp_settings, port=free_port()))
    (result,) = _send(sink, [_raw()])
    assert result.status is SendStatus.TEMPORARY
    assert result.failure.kind is FailureKind.CONNECTION_REFUSED


def test_recovers_after_a_failure_on_the_same_sink(smtp_server, smtp_settings):
    sink = SmtpSink(smtp_settings)

    async def run():
        smtp_server.mode = SmtpMode.TEMPFAIL
        first = await sink.send(_raw(1), "gm@example.org", ["anna@example.org"])
        smtp_server.mode = SmtpMode.ACCEPT
        second = await sink.send(_raw(1), "gm@example.org", ["anna@example.org"])
        await sink.close()
        return first, second

    first, second = asyncio.run(run())
    assert first.status is SendStatus.TEMPORARY and second.ok
    assert len(smtp_server.received) == 1


def test_auth_login(smtp_settings):
    server = SmtpTestServer(auth={"gm": "s3cret"})
    server.start()
    try:
        base = dataclasses.replace(smtp_settings, port=server.port, user="gm")
        (good,) = _send(SmtpSink(dataclasses.replace(base, password="s3cret")), [_raw()])
        (bad,) = _send(SmtpSink(dataclasses.replace(base, password="nope")), [_raw()])
    finally:
        server.stop()
    assert good.ok and len(server.received) == 1
    assert bad.status is SendStatus.TEMPORARY and bad.failure.kind is FailureKind.AUTH


def test_a_refused_smtp_login_is_logged_with_the_server_and_what_to_check(smtp_settings, caplog):
    """`gm serve` logged "smtp send failed: SendFailure(kind=<FailureKind.AUTH: 'auth'>,
    code=535, ...)": a dataclass's repr, no server, no word of the password."""
    import logging

    server = SmtpTestServer(auth={"gm": "s3cret"})
    server.start()
    try:
        sink = SmtpSink(dataclasses.replace(smtp_settings, port=server.port, user="gm",
                                            password="nope"))
        with caplog.at_level(logging.WARNING, logger="gm.mail.smtp"):
            _send(sink, [_raw()])
    finally:
        server.stop()
    [line] = [r.getMessage() for r in caplog.records]
    assert line.startswith(f"smtp send to 127.0.0.1:{server.port} failed (auth 535): ")
    assert "check [smtp] user and password or password_file" in line
    assert line.endswith("the mail stays queued and is tried again later")
