"""A mail gm could not deliver, sent again once the moderator mended the address
(gm/service/undelivered.py): on the race game, through the real aiosmtpd on loopback
refusing south's dead address (550 5.1.1 to RCPT), as the moderator and the player see it:
the notice naming the mail, ``gm mod mails GAME --undelivered``, ``gm mod requeue MAIL`` and
``REQUEUE MAIL`` by mail, the report arriving at the new address once, and every refusal
leaving the outbox, the history and the mail server as they were.

Before: the failed report could not be queued again; the player never got it unless the
moderator found another way."""

from __future__ import annotations

import email
from datetime import UTC, datetime, timedelta
from email.policy import default as default_policy
from typing import Any

from click.testing import CliRunner, Result
from sqlmodel import select

from gm.clock import FakeClock
from gm.db.engine import session_scope
from gm.db.models import ModeratorAct, OutboundMail, Seat
from gm.mail.smtp_sink import SmtpSink
from gm.service.adjudicate import close_phase
from gm.service.context import ServiceContext
from gm.service.games import current_phase
from gm.service.history import history_rows, history_text
from tests.e2e.conftest import header
from tests.e2e.test_faults import clear, rows
from tests.e2e.test_outbound_delivery import send_due
from tests.pipeline.conftest import deliver, mail, outbox
from tests.support.moderator_notice import assert_in, moderator_speaks
from tests.support.servers import SmtpMode, SmtpTestServer

DEAD = "south@reject.example"  # the test server refuses every address holding "reject"
NEW = "sud@new.example"
MOD = "mod@example.org"


def refused_while_queued(race: ServiceContext, mail_id: int, copy_id: int | None) -> None:
    """``gm mod requeue`` asked again while the copy waits: refused, and nothing changes."""
    before = state(race)
    again = gm(race, "mod", "requeue", str(mail_id))
    assert again.exit_code == 1
    assert (f"mail {mail_id} is queued again already, as mail {copy_id} to {NEW}; nothing "
            "changed") in again.output
    assert state(race) == before

def gm(ctx: ServiceContext, *args: str) -> Result:
    """``gm ARGS`` as the moderator runs it on the game's database."""
    from gm.cli.main import cli

    return CliRunner().invoke(cli, ["--db", ctx.engine.url.render_as_string(hide_password=False),
                                    *args])


def moderate(ctx: ServiceContext, body: str) -> str:
    """A moderator's mail for race1; the moderator's reply, its lines joined."""
    deliver(ctx, mail(f"GAME race1\nMODERATOR mod-secret\n{body}", sender=MOD))
    return " ".join(outbox(ctx, kind="reply", to=MOD)[-1][1].split())


def south_lost_a_report(race: ServiceContext, smtp_server: SmtpTestServer) -> OutboundMail:
    """South's mailbox is gone (the server refuses the address for good) when turn-1
    closes: his report fails, the moderator is told. The report's outbox row."""
    with session_scope(race.engine) as s:
        seat = s.exec(select(Seat).where(Seat.game_id == "race1", Seat.power == "south")).one()
        seat.address = DEAD
        s.add(seat)
        seq = current_phase(s, "race1").seq
    clear(race)
    assert close_phase(race, "race1", seq, by="test").closed
    smtp_server.mode = SmtpMode.REJECT_RCPT
    send_due(race, sink_of(smtp_server))
    [report] = [r for r in rows(race) if r.kind == "report" and DEAD in (r.recipients or [])]
    assert report.status == "failed" and "550" in report.last_error
    return report


def sink_of(smtp_server: SmtpTestServer) -> SmtpSink:
    from gm.mail.config import SmtpSettings, TlsMode

    return SmtpSink(SmtpSettings(host=smtp_server.host, port=smtp_server.port,
                                 tls=TlsMode.NONE, timeout=5.0))


def cli_time_reached(ctx: ServiceContext) -> None:
    """The race game runs on a fake clock; ``gm`` on the real one: the mail a command
    queued is due once the game's clock reaches the real time."""
    assert isinstance(ctx.clock, FakeClock)
    ctx.clock.set(max(ctx.clock.now(), datetime.now(UTC) + timedelta(minutes=1)))


def received_by(smtp_server: SmtpTestServer, address: str, subject: str) -> list[Any]:
    return [m for m in smtp_server.received
            if address in m.recipients and header(m.raw, "Subject") == subject]


def text_of(raw: bytes) -> str:
    message = email.message_from_bytes(raw, policy=default_policy)
    part = message.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


def state(ctx: ServiceContext) -> tuple[list[tuple[int | None, str, str]], list[str]]:
    """What a refusal must leave as it was: the outbox rows and the moderator's acts."""
    with session_scope(ctx.engine) as s:
        acts = [a.command for a in s.exec(select(ModeratorAct))]
    return [(r.id, r.status, ",".join(r.recipients or [])) for r in rows(ctx)], acts


def history(ctx: ServiceContext, *, private: bool) -> str:
    with session_scope(ctx.engine) as s:
        return history_text(history_rows(s, "race1", private=private))


def test_the_moderator_s_notice_names_the_mail_and_how_to_send_it_again(
        race: ServiceContext, smtp_server: SmtpTestServer) -> None:
    report = south_lost_a_report(race, smtp_server)
    [(notice, text)] = [(n, t) for n, t in outbox(race, kind="notice")
                        if n.subject == "[race1] a mail could not be delivered"]
    said = " ".join(text.split())
    assert f"To {DEAD}: {report.subject}" in said
    assert (f"This is mail {report.id} of the outbox. Once the seat's address is right (gm mod "
            "address race1 <power> <address>; by mail POWER <power>, then SET ADDRESS "
            f"<address>), gm mod requeue {report.id} (by mail: REQUEUE {report.id}) sends it "
            "again, once, to the current address of each seat that did not get it, and to no "
            "other; gm mod mails race1 --undelivered (by mail: SHOW MAILS UNDELIVERED) lists "
            "the mails that could not be delivered, with their numbers.") in said


def test_gm_mod_requeue_sends_the_failed_report_to_the_corrected_address_once(
        race: ServiceContext, smtp_server: SmtpTestServer) -> None:
    report = south_lost_a_report(race, smtp_server)
    listed = gm(race, "mod", "mails", "race1", "--undelivered")
    assert listed.exit_code == 0, listed.output
    assert listed.output.splitlines()[:2] == [
        f"#{report.id:<5} {report.created_at:%Y-%m-%d %H:%M}  report  to {DEAD} (south)  "
        f"\"{report.subject}\"  failed: {report.last_error}",
        f"       not sent again: gm mod requeue {report.id}"]

    assert gm(race, "mod", "address", "race1", "south", NEW).exit_code == 0
    done = gm(race, "mod", "requeue", str(report.id), "--reason", "he phoned")
    assert done.exit_code == 0, done.output
    [copy] = [r for r in rows(race) if r.kind == "report" and r.recipients == [NEW]]
    assert done.output == (f"mail {report.id} (report \"{report.subject}\") is queued again "
                           f"as mail {copy.id}, to {NEW} (it failed at {DEAD})\n")

    refused_while_queued(race, report.id, copy.id)

    smtp_server.mode = SmtpMode.ACCEPT
    cli_time_reached(race)
    send_due(race, sink_of(smtp_server))
    [got] = received_by(smtp_server, NEW, report.subject)
    assert header(got.raw, "To") == NEW
    assert header(got.raw, "Message-ID") == copy.message_id != report.message_id
    assert text_of(got.raw) == text_of(report.raw)  # the very report south missed

    before = state(race)  # and after it went
    after = gm(race, "mod", "requeue", str(report.id))
    assert after.exit_code == 1
    assert (f"mail {report.id} was sent again already, as mail {copy.id} to {NEW} (") in (
        after.output)
    assert state(race) == before
    send_due(race, sink_of(smtp_server))
    assert len(received_by(smtp_server, NEW, report.subject)) == 1  # exactly once

    listed = gm(race, "mod", "mails", "race1", "--undelivered")
    assert f"       queued again as mail {copy.id} to {NEW}: sent " in listed.output
    private = history(race, private=True)
    assert (f"moderator requeue by moderator (cli): mail {report.id}, copy {copy.id}, kind "
            f"report, old_address {DEAD}, new_address {NEW} (he phoned) [private]") in private
    assert "requeue" not in history(race, private=False)


def test_requeue_by_mail_after_set_address_sends_the_report_to_the_new_address_once(
        race: ServiceContext, smtp_server: SmtpTestServer) -> None:
    report = south_lost_a_report(race, smtp_server)
    reply = moderate(race, f"POWER south\nSET ADDRESS {NEW}\nREQUEUE {report.id}: moved\n"
                           f"REQUEUE {report.id}\n")
    [copy] = [r for r in rows(race) if r.kind == "report" and r.recipients == [NEW]]
    assert (f"OK REQUEUE {report.id}: moved: mail {report.id} is queued again as mail "
            f"{copy.id}, to {NEW} (it failed at {DEAD}; a private act)") in reply
    assert (f"REQUEUE {report.id}: mail {report.id} is queued again already, as mail {copy.id} "
            f"to {NEW}; nothing changed") in reply
    smtp_server.mode = SmtpMode.ACCEPT
    send_due(race, sink_of(smtp_server))
    send_due(race, sink_of(smtp_server))
    [got] = received_by(smtp_server, NEW, report.subject)
    assert text_of(got.raw) == text_of(report.raw)


def test_a_french_moderator_is_told_and_answered_in_french(
        race: ServiceContext, smtp_server: SmtpTestServer) -> None:
    moderator_speaks(race, "race1", "fr")
    report = south_lost_a_report(race, smtp_server)
    [text] = [t for n, t in outbox(race, kind="notice")
              if n.subject == "[race1] un mail n'a pas pu être distribué"]
    said = " ".join(text.split())
    assert (f"C'est le mail {report.id} de la boîte d'envoi. Une fois l'adresse du siège "
            "corrigée (gm mod address race1 <puissance> <adresse> ; par mail PUISSANCE "
            f"<puissance>, puis DEFINIR ADRESSE <adresse>), gm mod requeue {report.id} (par "
            f"mail : RENVOYER {report.id}) l'envoie de nouveau, une seule fois, à l'adresse "
            "actuelle de chaque siège qui ne l'a pas reçu, et à nul autre") in said
    assert_in("fr", text, allow=[DEAD, "Erreur", report.subject])
    reply = moderate(race, f"PUISSANCE south\nDÉFINIR ADRESSE {NEW}\nRENVOYER {report.id}\n")
    [copy] = [r for r in rows(race) if r.kind == "report" and r.recipients == [NEW]]
    assert (f"le mail {report.id} est de nouveau en file d'envoi, comme mail {copy.id}, vers "
            f"{NEW} (il avait échoué à {DEAD} ; un acte privé)") in reply


def test_what_cannot_be_queued_again_is_refused_and_changes_nothing(
        race: ServiceContext, smtp_server: SmtpTestServer) -> None:
    report = south_lost_a_report(race, smtp_server)
    [delivered] = [r for r in rows(race) if r.kind == "report" and r.status == "sent"
                   and r.recipients == ["north@example.org"]]
    before = state(race)
    refused = gm(race, "mod", "requeue", str(delivered.id))
    assert refused.exit_code == 1
    assert f"mail {delivered.id} was sent (" in refused.output
    assert "only a mail that could not be delivered is queued again; nothing changed" in (
        refused.output)
    missing = gm(race, "mod", "requeue", "9999")
    assert missing.exit_code == 1 and "there is no mail 9999 in the outbox" in missing.output
    assert state(race) == before

    # by mail: a player may not; the moderator of race1 only its own mails
    deliver(race, mail(f"GAME race1\nPOWER north n-secret\nREQUEUE {report.id}\n"))
    answer = outbox(race, kind="reply", to="north@example.org")[-1][1]
    assert "only the moderator may use this command" in answer
    reply = moderate(race, "REQUEUE 9999\n")
    assert "REQUEUE 9999: game race1 has no mail 9999 in its outbox" in reply
    assert not [r for r in rows(race) if r.kind == "report" and r.status == "queued"]
    assert "requeue" not in state(race)[1]


def test_a_welcome_that_failed_is_not_sent_again_send_password_is_named(
        race: ServiceContext, smtp_server: SmtpTestServer) -> None:
    """Its stored copy lost the password when it failed: sending it again would mail a
    sign-on that cannot work."""
    from gm.service.games import get_game
    from gm.service.moderator import replace_power

    clear(race)
    with session_scope(race.engine) as s:
        replace_power(race, s, get_game(s, "race1"), actor="mod", power="south", address=DEAD)
    smtp_server.mode = SmtpMode.REJECT_RCPT
    send_due(race, sink_of(smtp_server))
    [welcome] = [r for r in rows(race) if r.kind == "welcome"]
    assert welcome.status == "failed"
    before = state(race)
    refused = gm(race, "mod", "requeue", str(welcome.id))
    assert refused.exit_code == 1
    assert (f"mail {welcome.id} carried a password, which gm does not keep once the mail "
            "failed: SEND PASSWORD south (after the line GAME race1) mails a new one to the "
            "seat's address; nothing was queued") in " ".join(refused.output.split())
    assert state(race) == before
