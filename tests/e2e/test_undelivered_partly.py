"""A mail some of whose addresses did not get it, sent again to those alone
(gm/service/undelivered.py), as the moderator and the players see it:

* the SMTP server (the real aiosmtpd on loopback) refuses one recipient of two for good
  (550 5.1.1 to RCPT) and takes the mail for the other;
* the SMTP server takes the mail, and the player's mail system bounces it later (a
  Postfix DSN written into gm's mailbox in the private Dovecot, read by the daemon as
  tests/e2e/test_bounces.py does).

Before: both stayed "sent": the first told nobody, the second's notice pointed to `gm mod
resend` (the current report, not the mail that bounced); neither was listed by `gm mod
mails GAME --undelivered`, and `gm mod requeue` / REQUEUE refused them ("was sent").
Now the moderator is told once, with the mail's number and how to send it again; the
mail is listed with the addresses that did not get it; the requeue sends it once, to the
seat's new address alone: the player who got it gets it once in all."""

from __future__ import annotations

from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import Seat
from gm.mail.config import ImapSettings, SmtpSettings
from gm.mail.mime import decode
from gm.service.adjudicate import close_phase
from gm.service.context import ServiceContext
from gm.service.games import current_phase
from gm.service.outbox import queue_mail
from tests.e2e.conftest import header
from tests.e2e.test_bounces import Bouncer, daemon_for, notices_at, run_until_quiet
from tests.e2e.test_faults import clear, rows
from tests.e2e.test_undelivered_requeue import (
    DEAD,
    NEW,
    cli_time_reached,
    gm,
    moderate,
    refused_while_queued,
    send_due,
    sink_of,
    state,
    text_of,
)
from tests.pipeline.conftest import outbox
from tests.support.servers import DovecotServer, SmtpMode, SmtpTestServer

NORTH = "north@example.org"
SOUTH = "south@example.org"  # race1's south, whose mailbox the bounce test takes away


def move_south_to(ctx: ServiceContext, address: str) -> None:
    with session_scope(ctx.engine) as s:
        seat = s.exec(select(Seat).where(Seat.game_id == "race1", Seat.power == "south")).one()
        seat.address = address
        s.add(seat)


def got(smtp_server: SmtpTestServer, address: str, subject: str) -> list[bytes]:
    """What ``address`` received of the mail ``subject``."""
    return [m.raw for m in smtp_server.received
            if address in m.recipients and header(m.raw, "Subject") == subject]


def test_a_mail_refused_to_one_recipient_of_two_is_told_listed_and_requeued_to_him_alone(
        race: ServiceContext, smtp_server: SmtpTestServer) -> None:
    move_south_to(race, DEAD)
    clear(race)
    subject = "[race1] press from the moderator"
    with session_scope(race.engine) as s:
        press = queue_mail(race, s, game_id="race1", kind="press", to=[NORTH, DEAD],
                           subject=subject, text="The border talks start on Monday.\n",
                           key="press-to-both")
        mail_id = press.id
    smtp_server.mode = SmtpMode.REJECT_RCPT
    send_due(race, sink_of(smtp_server))
    assert len(got(smtp_server, NORTH, subject)) == 1 and not got(smtp_server, DEAD, subject)

    # the moderator is told once, with the mail's number and how to send it again
    [text] = [t for n, t in outbox(race, kind="notice")
              if n.subject == "[race1] a mail could not be delivered"]
    said = " ".join(text.split())
    assert f"To {DEAD}: {subject}" in said
    assert f"Error: {DEAD}: 550 5.1.1 no such user" in said
    assert f"The mail server took it for the others, who got it: {NORTH}" in said
    assert (f"This is mail {mail_id} of the outbox. Once the seat's address is right" in said
            and f"gm mod requeue {mail_id} (by mail: REQUEUE {mail_id}) sends it again, once, "
                "to the current address of each seat that did not get it, and to no other"
            in said)

    [row] = [r for r in rows(race) if r.id == mail_id]
    listed = gm(race, "mod", "mails", "race1", "--undelivered")
    assert listed.exit_code == 0, listed.output
    assert listed.output.splitlines() == [
        f"#{mail_id:<5} {row.created_at:%Y-%m-%d %H:%M}  press  to {DEAD} (south)  "
        f"\"{subject}\"  failed: 550 5.1.1 no such user  ({NORTH} got it)",
        f"       not sent again: gm mod requeue {mail_id}"]

    assert gm(race, "mod", "address", "race1", "south", NEW).exit_code == 0
    done = gm(race, "mod", "requeue", str(mail_id))
    assert done.exit_code == 0, done.output
    [copy] = [r for r in rows(race) if r.kind == "press" and r.id != mail_id]
    assert copy.recipients == [NEW]
    assert done.output == (f"mail {mail_id} (press \"{subject}\") is queued again as mail "
                           f"{copy.id}, to {NEW} (it failed at {DEAD})\n")

    refused_while_queued(race, mail_id, copy.id)

    smtp_server.mode = SmtpMode.ACCEPT
    cli_time_reached(race)
    send_due(race, sink_of(smtp_server))
    send_due(race, sink_of(smtp_server))
    [sent_again] = got(smtp_server, NEW, subject)
    assert header(sent_again, "To") == NEW
    assert text_of(sent_again) == text_of(row.raw)
    assert len(got(smtp_server, NORTH, subject)) == 1  # north got it once in all
    listed = gm(race, "mod", "mails", "race1", "--undelivered")
    assert f"       queued again as mail {copy.id} to {NEW}: sent " in listed.output
    assert "not sent again" not in listed.output


def test_a_report_that_bounced_after_the_hand_over_is_requeued_by_mail_to_the_new_address(
        race: ServiceContext, dovecot: DovecotServer, imap_user: tuple[str, str],
        imap_settings: ImapSettings, smtp_server: SmtpTestServer,
        smtp_settings: SmtpSettings) -> None:
    clear(race)  # the welcomes went before south's mailbox was gone
    with session_scope(race.engine) as s:
        seq = current_phase(s, "race1").seq
    assert close_phase(race, "race1", seq, by="test").closed
    bouncer = Bouncer(dovecot, imap_user, {SOUTH})
    smtp_server.deliver = bouncer
    run_until_quiet(daemon_for(race, imap_settings, smtp_settings), smtp_server)

    [report] = [r for r in rows(race) if r.kind == "report" and r.recipients == [SOUTH]]
    assert report.status == "sent"  # the server took it; the bounce came later
    subject = report.subject
    north_subject = subject.replace("for south", "for north")
    [notice] = notices_at(smtp_server)
    text = " ".join(decode(notice.raw).text.split())
    assert f"(mail {report.id} of the outbox, sent " in text
    assert (f"gm mod requeue {report.id} (by mail: REQUEUE {report.id}) sends this very mail "
            "again, once, to the seat's current address, and to no address that got it; gm "
            "mod mails race1 --undelivered (by mail: SHOW MAILS UNDELIVERED) lists the mails that "
            "did not arrive, with their numbers.") in text
    assert "gm mod resend" not in text

    listed = gm(race, "mod", "mails", "race1", "--undelivered")
    assert listed.exit_code == 0, listed.output
    assert listed.output.splitlines() == [
        f"#{report.id:<5} {report.created_at:%Y-%m-%d %H:%M}  report  to {SOUTH} (south)  "
        f"\"{subject}\"  bounced: 5.1.1 550 5.1.1 <{SOUTH}>: Recipient address rejected: "
        "User unknown in local recipient table",
        f"       not sent again: gm mod requeue {report.id}"]

    reply = moderate(race, f"POWER south\nSET ADDRESS {NEW}\nREQUEUE {report.id}\n"
                           f"REQUEUE {report.id}\n")
    [copy] = [r for r in rows(race) if r.kind == "report" and r.recipients == [NEW]]
    assert (f"OK REQUEUE {report.id}: mail {report.id} is queued again as mail {copy.id}, to "
            f"{NEW} (it failed at {SOUTH}; a private act)") in reply
    assert (f"REQUEUE {report.id}: mail {report.id} is queued again already, as mail "
            f"{copy.id} to {NEW}; nothing changed") in reply
    run_until_quiet(daemon_for(race, imap_settings, smtp_settings), smtp_server)

    [sent_again] = got(smtp_server, NEW, subject)
    assert text_of(sent_again) == text_of(report.raw)  # the very report that bounced
    assert len(got(smtp_server, SOUTH, subject)) == 1  # not to the dead address again
    assert len(got(smtp_server, NORTH, north_subject)) == 1
    about = f"[race1] mail to {SOUTH} bounced: {subject.removeprefix('[race1] ')}"
    assert [header(n.raw, "Subject") for n in notices_at(smtp_server)].count(about) == 1

    before = state(race)
    after = gm(race, "mod", "requeue", str(report.id))
    assert after.exit_code == 1
    assert (f"mail {report.id} was sent again already, as mail {copy.id} to {NEW} (") in (
        after.output)
    assert state(race) == before
