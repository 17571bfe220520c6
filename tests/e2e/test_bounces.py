"""Mail that bounces after the SMTP hand-over, through the real daemon (gm/service/bounces.py).

The daemon reads gm's mailbox in a private Dovecot over IMAP and sends through a real
aiosmtpd on loopback. That server plays the players' mail system: it takes every mail,
and for a mailbox that is gone (``Bouncer.dead``) it later writes a Postfix delivery
status notification, with the mail returned whole, into gm's mailbox, as a real MTA
does once the hand-over is over. The moderator must hear of a seat's address that fails
for good once (its first bounce marks it; later ones are recorded, not told), and of
nothing else: not of a delay, not of a forged bounce, not of the same bounce again, not
of a bounce of his own notice (his own mailbox gone must make no loop).
"""

from __future__ import annotations

import asyncio
from email.utils import make_msgid

from sqlmodel import col, select

from gm.daemon import Daemon
from gm.db.engine import session_scope
from gm.db.models import InboundMail
from gm.mail.config import ImapSettings, SmtpSettings
from gm.mail.imap_source import ImapSource
from gm.mail.mime import decode
from gm.mail.smtp_sink import SmtpSink
from gm.service.context import ServiceContext
from tests.e2e.conftest import header
from tests.mail.test_dsn import postfix_dsn
from tests.support.servers import DovecotServer, ReceivedMail, SmtpTestServer

MODERATOR = "mod@example.org"  # race1's moderator


class Bouncer:
    """The players' mail system: each mail for a ``dead`` address is taken, then bounced
    into gm's mailbox (a DSN from mx.example.org, the mail returned whole)."""

    def __init__(self, dovecot: DovecotServer, user: tuple[str, str], dead: set[str]) -> None:
        self.dovecot, self.user, self.dead = dovecot, user, dead
        self.bounced: list[ReceivedMail] = []

    def __call__(self, mail: ReceivedMail) -> None:
        for address in mail.recipients:
            if address in self.dead:
                self.bounced.append(mail)
                self.dovecot.append(*self.user, [dsn(mail, address)])


def dsn(mail: ReceivedMail, address: str, *, action: str = "failed", status: str = "5.1.1") -> bytes:
    return postfix_dsn(mail.raw.decode("utf-8", "replace").replace("\r\n", "\n"), action=action,
                       status=status, recipient=address, original=address,
                       dsn_id=make_msgid(domain="mx.example.org"))


def run_until_quiet(daemon: Daemon, smtp: SmtpTestServer, rounds: int = 12) -> int:
    """Daemon rounds until one sends nothing; the rounds it took (a loop never ends)."""
    async def loop() -> int:
        try:
            for n in range(rounds):
                before = len(smtp.received)
                await daemon.step()
                if len(smtp.received) == before and n:
                    return n + 1
            return rounds
        finally:
            await daemon.sink.close()
            daemon.source.close()
    return asyncio.run(loop())


def notices_at(smtp: SmtpTestServer) -> list[ReceivedMail]:
    """The bounce notices the mail server took (for the moderator)."""
    return [m for m in smtp.received if " bounced: " in header(m.raw, "Subject")]


def sent_to(smtp: SmtpTestServer, address: str, subject: str) -> ReceivedMail:
    return next(m for m in smtp.received
                if address in m.recipients and header(m.raw, "Subject").endswith(subject))


def notes(ctx: ServiceContext) -> list[str]:
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(InboundMail).order_by(col(InboundMail.id))).all()
        assert {r.status for r in rows} == {"ignored"}
        return [r.note for r in rows]


def daemon_for(race: ServiceContext, imap_settings: ImapSettings, smtp_settings: SmtpSettings) -> Daemon:
    return Daemon(race, ImapSource(imap_settings), SmtpSink(smtp_settings), sweep_seconds=3600)


def test_a_report_the_player_s_server_bounced_reaches_the_moderator_once(
        race: ServiceContext, dovecot: DovecotServer, imap_user: tuple[str, str],
        imap_settings: ImapSettings, smtp_server: SmtpTestServer, smtp_settings: SmtpSettings) -> None:
    bouncer = Bouncer(dovecot, imap_user, {"south@example.org"})
    smtp_server.deliver = bouncer
    run_until_quiet(daemon_for(race, imap_settings, smtp_settings), smtp_server)

    # south's welcome and turn-1 report were taken, then bounced for good (5.1.1): the
    # first marks south's address and is told; the second is recorded, not told again
    assert sorted(header(m.raw, "Subject") for m in bouncer.bounced) == [
        "[race1] bienvenue : vous jouez south", "[race1] turn-1: report for south"]
    first = header(bouncer.bounced[0].raw, "Subject").removeprefix("[race1] ")
    [notice] = notices_at(smtp_server)
    assert header(notice.raw, "Subject") == f"[race1] mail to south@example.org bounced: {first}"
    assert notice.recipients == [MODERATOR]
    text = decode(notice.raw).text
    assert f'"[race1] {first}"' in text
    assert "To: south@example.org" in text and "Seat: south in race1" in text
    assert "Status: 5.1.1" in text
    assert ("The server said: 550 5.1.1 <south@example.org>: Recipient address rejected: User "
            "unknown in local recipient table") in text
    assert "gm mod replace race1 south <address>" in text
    assert "marked as bouncing" in text
    told, quiet = notes(race)
    assert all(n.startswith("bounce of mail ") and " to south@example.org: 5.1.1 550 5.1.1" in n
               for n in (told, quiet))
    assert quiet.endswith(": not told again)")

    # Then: a second relay's bounce of the same report, the very same bounce again, a
    # delay warning for north's report, and a bounce forged for a mail gm never sent.
    bounced_report = sent_to(smtp_server, "south@example.org", "turn-1: report for south")
    same = dsn(bounced_report, "south@example.org")
    north = sent_to(smtp_server, "north@example.org", "turn-1: report for north")
    forged = dsn(bounced_report, "south@example.org").replace(
        header(bounced_report.raw, "Message-ID").encode(), b"<gm.0000000000000000@example.org>")
    dovecot.append(*imap_user, [same, same, dsn(north, "north@example.org", action="delayed",
                                                status="4.4.1"), forged])
    run_until_quiet(daemon_for(race, imap_settings, smtp_settings), smtp_server)

    assert len(notices_at(smtp_server)) == 1  # nobody told anything more
    later = notes(race)[2:]
    assert len(later) == 4, later
    assert later[0].endswith("(told before)")
    assert later[1].startswith("duplicate of mail ")  # the very same bounce: stored, not read again
    assert later[2].endswith("north@example.org delayed (4.4.1); nobody told")
    assert later[3].startswith("bounce (")  # not gm's mail: stored, nothing more


def test_the_moderator_s_own_mailbox_gone_makes_no_loop(
        race: ServiceContext, dovecot: DovecotServer, imap_user: tuple[str, str],
        imap_settings: ImapSettings, smtp_server: SmtpTestServer, smtp_settings: SmtpSettings) -> None:
    bouncer = Bouncer(dovecot, imap_user, {"south@example.org", MODERATOR})
    smtp_server.deliver = bouncer
    rounds = run_until_quiet(daemon_for(race, imap_settings, smtp_settings), smtp_server)

    assert rounds < 12, "gm and the mail server kept bouncing mail at each other"
    assert len(notices_at(smtp_server)) == 1  # south's address, told once, bounced in turn
    assert sum(MODERATOR in m.recipients for m in bouncer.bounced) == 1
    bounced_notices = [n for n in notes(race) if n.endswith("(a bounce notice: nobody told)")]
    assert len(bounced_notices) == 1
