"""A player's order mail through the whole daemon: IMAP in, database, SMTP out (issue 11)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from imapclient import IMAPClient
from sqlmodel import select

from gm.daemon import Daemon
from gm.db.engine import session_scope
from gm.db.models import InboundMail, OrderSet
from gm.mail.config import ImapSettings, MaildirSettings, SmtpSettings
from gm.mail.file_sink import FileSink
from gm.mail.imap_source import ImapSource
from gm.mail.maildir_source import MaildirSource
from gm.mail.smtp_sink import SmtpSink
from gm.service.context import ServiceContext
from tests.e2e.conftest import header, replies_to
from tests.pipeline.conftest import mail
from tests.support.servers import DovecotServer, SmtpTestServer


def current_orders(ctx: ServiceContext, power: str) -> list[str]:
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(OrderSet).where(OrderSet.power == power,
                                             OrderSet.current == True)).all()  # noqa: E712
        return [r.text for r in rows]


def inbound_statuses(ctx: ServiceContext) -> list[str]:
    with session_scope(ctx.engine) as s:
        return [r.status for r in s.exec(select(InboundMail)).all()]


def flags_of_inbox(client: IMAPClient) -> list[set[bytes]]:
    client.select_folder("INBOX", readonly=True)
    data = client.fetch(client.search("ALL"), ["FLAGS"])
    return [set(v[b"FLAGS"]) for v in data.values()]


def test_order_mail_via_imap_is_answered_once_over_smtp(
    race: ServiceContext, dovecot: DovecotServer, imap_user: tuple[str, str],
    imap_settings: ImapSettings, smtp_server: SmtpTestServer, smtp_settings: SmtpSettings,
) -> None:
    """APPENDed order mail -> stored orders, one threaded reply at the SMTP server, IMAP flag set."""
    user, password = imap_user
    dovecot.append(user, password, [mail("GAME race1\nPOWER north n-secret\nadvance 2\n",
                                         message_id="<e2e-1@player.example>")])
    daemon = Daemon(race, ImapSource(imap_settings), SmtpSink(smtp_settings), sweep_seconds=3600)

    async def two_rounds() -> None:
        try:
            await daemon.step()
            await daemon.step()
        finally:
            await daemon.sink.close()
            daemon.source.close()

    asyncio.run(two_rounds())

    assert current_orders(race, "north") == ["advance 2"]
    assert inbound_statuses(race) == ["handled"]
    [reply] = replies_to(smtp_server.received, "<e2e-1@player.example>")
    assert reply.recipients == ["north@example.org"]
    assert "advance 2" in reply.raw.decode("utf-8", "replace")
    # only welcomes (sent at game creation) and this one reply went out, each once
    ids = [header(m.raw, "Message-ID") for m in smtp_server.received]
    assert len(ids) == len(set(ids))
    client = dovecot.client(user, password)
    try:
        [flags] = flags_of_inbox(client)
        assert b"$GmHandled" in flags
    finally:
        client.logout()


def test_daemon_against_maildir_inbox_and_outbox(race: ServiceContext, tmp_path: Path) -> None:
    """The embedded default: a mail file in inbox/new -> reply file in outbox/new, mail moved to cur with S."""
    settings = MaildirSettings(inbox=str(tmp_path / "inbox"), outbox=str(tmp_path / "outbox"))
    source = MaildirSource(settings)
    (tmp_path / "inbox" / "new" / "1700000000.1.host").write_bytes(
        mail("GAME race1\nPOWER south s-secret\nadvance 3\n", sender="south@example.org",
             message_id="<e2e-md@player.example>"))
    daemon = Daemon(race, source, FileSink(settings.outbox), sweep_seconds=3600)
    asyncio.run(daemon.step())
    asyncio.run(daemon.step())

    assert current_orders(race, "south") == ["advance 3"]
    sent = [p.read_bytes() for p in sorted((tmp_path / "outbox" / "new").iterdir())]
    replies = [raw for raw in sent if header(raw, "In-Reply-To") == "<e2e-md@player.example>"]
    assert len(replies) == 1
    assert "advance 3" in replies[0].decode("utf-8", "replace")
    assert list((tmp_path / "inbox" / "new").iterdir()) == []
    [handled] = list((tmp_path / "inbox" / "cur").iterdir())
    assert handled.name.endswith(":2,S")
