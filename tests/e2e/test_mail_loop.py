"""A robot that answers every mail, against the real daemon (issue 22, items 5 and 7).

The daemon reads a Maildir inbox and sends through SMTP to a real aiosmtpd on
loopback. The robot is a mail client: every mail the SMTP server received for
it is answered, without ``Auto-Submitted`` or ``Precedence`` (a misconfigured
vacation responder, a ticket system), by a new mail written into the inbox.
Before issue 22 this never ended (30 replies to 30 mails); now the robot gets
the budget's replies, one notice, then nothing, and the moderator is told once.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import col, select

from gm.clock import FakeClock
from gm.daemon import Daemon
from gm.db.engine import session_scope
from gm.db.models import InboundMail, OutboundMail
from gm.mail.config import MaildirSettings, SmtpSettings
from gm.mail.file_sink import FileSink
from gm.mail.maildir_source import MaildirSource
from gm.mail.mime import decode
from gm.mail.smtp_sink import SmtpSink
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game
from tests.e2e.conftest import header
from tests.support.servers import SmtpTestServer

ROBOT = "tickets@helpdesk.example"
MODERATOR = "mod@example.org"  # the ctx fixture's service moderator


class Robot:
    """Answers every mail the SMTP server received for it, once, into the daemon's inbox."""

    def __init__(self, smtp: SmtpTestServer, inbox: Path) -> None:
        self.smtp, self.inbox, self.answered, self.sent = smtp, inbox, 0, 0

    def received(self) -> list[bytes]:
        return [m.raw for m in self.smtp.received if ROBOT in m.recipients]

    def write(self, subject: str, body: str, in_reply_to: str = "") -> None:
        self.sent += 1
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = ROBOT, "gm@example.org", subject
        msg["Message-ID"] = f"<ticket-{self.sent}@helpdesk.example>"
        if in_reply_to:
            msg["In-Reply-To"] = in_reply_to
        msg.set_content(body)
        tmp = self.inbox / "tmp" / f"robot.{self.sent}.eml"  # as an MTA delivers: never a
        tmp.write_bytes(bytes(msg))  # half-written file in new/ for the daemon to read
        tmp.rename(self.inbox / "new" / tmp.name)

    def answer_all(self) -> int:
        """Answer what came since the last call, as a ticket system would; return how many."""
        new = self.received()[self.answered:]
        for raw in new:
            quoted = "\n".join(f"> {line}" for line in decode(raw).text.splitlines()[:5])
            self.write(f"[Ticket #{self.sent + 1}] {header(raw, 'Subject')}",
                       f"Thank you for contacting us. Your request #{self.sent + 1} was received.\n\n"
                       f"{quoted}\n", in_reply_to=header(raw, "Message-ID"))
        self.answered += len(new)
        return len(new)


def run_loop(daemon: Daemon, robot: Robot, rounds: int = 60) -> int:
    """Daemon rounds, the robot answering after each, until the robot has nothing to answer.

    Returns the rounds it took; ``rounds`` is a bound on a loop that would never end."""
    async def loop() -> int:
        try:
            for n in range(rounds):
                await daemon.step()
                if robot.answer_all() == 0:
                    return n + 1
            return rounds
        finally:
            await daemon.sink.close()
    return asyncio.run(loop())


def test_a_robot_that_answers_every_mail_gets_the_budget_one_notice_then_silence(
    ctx: ServiceContext, tmp_path: Path, smtp_server: SmtpTestServer, smtp_settings: SmtpSettings,
) -> None:
    inbox = MaildirSettings(inbox=str(tmp_path / "inbox"))
    source = MaildirSource(inbox)
    robot = Robot(smtp_server, tmp_path / "inbox")
    robot.write("Hello", "Is this the help desk?\n")
    daemon = Daemon(ctx, source, SmtpSink(smtp_settings), sweep_seconds=3600)
    rounds = run_loop(daemon, robot)
    assert rounds < 60, "the mail loop did not end"
    got = robot.received()
    assert len(got) == 11  # the budget (10 replies), then one notice
    assert all("ticket" in header(raw, "In-Reply-To") for raw in got)
    notice = decode(got[-1]).text
    assert "will not answer further mails" in notice and "switch it off" in notice
    assert robot.sent == 12  # the robot answered the notice too; that mail got nothing
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(InboundMail).order_by(col(InboundMail.id))).all()
        assert [r.status for r in rows] == ["handled"] * 12  # read, every one
        assert "not answered" in rows[-1].note
    told = [m for m in smtp_server.received if MODERATOR in m.recipients]
    assert len(told) == 1 and ROBOT in decode(told[0].raw).text
    # An hour later the address is answered again (a budget, not a ban).
    assert isinstance(ctx.clock, FakeClock)
    ctx.clock.advance(timedelta(hours=1, minutes=1))
    robot.answered = len(robot.received())
    robot.write("New question", "Hello again?\n")
    daemon2 = Daemon(ctx, source, SmtpSink(smtp_settings), sweep_seconds=3600)

    async def one() -> None:
        try:
            await daemon2.step()
        finally:
            await daemon2.sink.close()
    asyncio.run(one())
    assert len(robot.received()) == 12


def test_signed_on_mails_are_never_held_back_by_the_budget(race: ServiceContext, tmp_path: Path) -> None:
    """A player who sends many order mails in an hour gets every reply: only mails in which
    no sign-on held are charged (a robot cannot sign on: replies never repeat a password)."""
    from tests.pipeline.conftest import deliver, mail, outbox

    for n in range(15):
        deliver(race, mail(f"GAME race1\nPOWER north n-secret\nadvance {n % 3 + 1}\n"))
    assert len(outbox(race, kind="reply", to="north@example.org")) == 15


def test_one_address_spending_its_budget_leaves_other_addresses_answered(race: ServiceContext) -> None:
    """The budget is per address, in any case of it: a robot's loop never silences a newcomer."""
    from tests.pipeline.conftest import deliver, mail, outbox

    race.settings["reply_budget"] = 2
    for sender in ("bot@example.net", "Bot@Example.NET", "BOT@example.net"):
        deliver(race, mail("GAME race1\nadvance 1\n", sender=sender))
    deliver(race, mail("GAME race1\nadvance 1\n", sender="newcomer@example.com"))
    to_bot = [r for r, _ in outbox(race) if r.recipients and r.recipients[0].lower() == "bot@example.net"]
    assert [r.kind for r in to_bot] == ["reply", "reply", "notice"]
    assert len(outbox(race, kind="reply", to="newcomer@example.com")) == 1


def test_a_budget_spent_on_mail_to_a_game_is_told_to_that_games_moderator(race: ServiceContext) -> None:
    """When the mail that spends the budget names a game, that game's moderator is told, once."""
    from tests.pipeline.conftest import deliver, mail, outbox

    race.settings["reply_budget"] = 1
    for _ in range(3):
        deliver(race, mail("GAME race1\nadvance 1\n", sender="bot@example.net"))
    [(told, text)] = outbox(race, kind="notice", to="mod@example.org")
    assert told.game_id == "race1" and "bot@example.net" in text


@pytest.mark.parametrize(("language", "subject", "words"), [
    ("en", "replies to bot@example.net stopped for an hour",
     ["1 reply went to bot@example.net within an hour", "answers nothing more"]),
    ("fr", "réponses à bot@example.net suspendues pour une heure",
     ["1 réponse est partie vers bot@example.net en une heure", "ne répond plus à cette adresse"])])
def test_the_games_moderator_is_told_of_a_spent_budget_in_their_language(
        race: ServiceContext, language: str, subject: str, words: list[str]) -> None:
    from tests.pipeline.conftest import deliver, mail, outbox
    from tests.support.moderator_notice import assert_in, moderator_speaks

    moderator_speaks(race, "race1", language)
    race.settings["reply_budget"] = 1
    for _ in range(3):
        deliver(race, mail("GAME race1\nadvance 1\n", sender="bot@example.net"))
    [(told, text)] = outbox(race, kind="notice", to="mod@example.org")
    assert told.subject == f"[race1] {subject}"
    assert all(w in text for w in words), text
    assert_in(language, text)


def test_our_own_mail_coming_back_is_never_answered(race: ServiceContext) -> None:
    from tests.pipeline.conftest import deliver, mail, outbox

    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 1\n", message_id="<p1@player.example>"))
    [(ours, _)] = outbox(race, kind="reply")
    # our reply, returned whole (a forwarder that keeps headers but drops Auto-Submitted)
    deliver(race, mail("OK advance 1", sender="north@example.org", message_id=ours.message_id))
    # a robot's echo of our reply: it answers our mail and says nothing of its own
    deliver(race, mail("\n> ==== gm reply race1 ====\n> OK advance 1\n", sender="bot@example.net",
                       in_reply_to=ours.message_id, message_id="<echo@example.net>"))
    # mail from our own address is read but never answered (nor is a reply sent to it)
    deliver(race, mail("GAME race1\nMODERATOR mod-secret\nEXTEND 1d\n", sender="gm@example.org",
                       message_id="<self@example.org>"))
    deliver(race, mail("GAME race1\nPOWER south s-secret\nadvance 1\n", sender="south@example.org",
                       Reply_To="gm+race1@example.org", message_id="<rt@player.example>"))
    assert len(outbox(race, kind="reply")) == 1
    with session_scope(race.engine) as s:
        rows = s.exec(select(InboundMail).order_by(col(InboundMail.id))).all()
    assert [r.status for r in rows] == ["handled", "ignored", "ignored", "handled", "handled"]
    assert "Message-ID" in rows[1].note and "In-Reply-To" in rows[2].note
    assert "our own address" in rows[3].note and "our own address" in rows[4].note
    # a player who answers our reply with orders of their own is answered as usual
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 2\n\n> OK advance 1\n",
                       in_reply_to=ours.message_id))
    assert len(outbox(race, kind="reply")) == 2


def test_a_welcome_keeps_its_password_only_until_it_is_sent(ctx: ServiceContext, tmp_path: Path) -> None:
    """The welcome mail is sent whole; the outbox's stored copy is masked once sent."""
    from gm.pipeline.dispatch import drain
    from tests.security.test_secrets import assert_no_password_in_database
    from tests.support import toygame  # noqa: F401  (registers "race")

    with session_scope(ctx.engine) as s:
        made = create_game(ctx, s, game_id="race9", module_name="race", scenario="duel",
                           seats=[SeatSpec("north", "north@example.org"),
                                  SeatSpec("south", "south@example.org")],
                           moderator_address=MODERATOR)
    passwords = tuple(made.passwords.values())
    with session_scope(ctx.engine) as s:
        welcomes = s.exec(select(OutboundMail).where(OutboundMail.kind == "welcome")).all()
        assert len(welcomes) == 2 and all(any(p.encode() in w.raw for p in passwords) for w in welcomes)
    sink = FileSink(tmp_path / "out")
    asyncio.run(drain(ctx, sink))
    sent = [p.read_bytes() for p in (tmp_path / "out" / "new").iterdir()]
    for power, password in made.passwords.items():
        assert any(f"POWER {power} {password}" in decode(raw).text for raw in sent)
    with session_scope(ctx.engine) as s:
        welcomes = s.exec(select(OutboundMail).where(OutboundMail.kind == "welcome")).all()
        assert {w.status for w in welcomes} == {"sent"}
        assert all("POWER north ********" in decode(w.raw).text or "POWER south ********"
                   in decode(w.raw).text for w in welcomes)
    assert_no_password_in_database(ctx, passwords + (made.moderator_password,))


SERVE_CONFIG = """\
[mail]
address = "gm@example.org"
inbound = "maildir"
outbound = "smtp"

[service]
moderator_address = "{moderator}"
reply_budget = 4

[database]
path = "gm.db"

[maildir]
inbox = "inbox"
poll_interval = 0.1

[smtp]
host = "127.0.0.1"
port = {smtp_port}
tls = "none"
timeout = 5.0

[scheduler]
sweep_seconds = 3600
"""


def test_a_real_gm_serve_ends_the_loop_with_a_robot(tmp_path: Path, smtp_server: SmtpTestServer) -> None:
    """The same robot against a `gm serve` process, its budget set to 4 in gm.toml."""
    import subprocess
    import sys
    import threading
    import time

    from gm.db.engine import make_engine, sqlite_url
    from gm.db.migrate import upgrade

    config = tmp_path / "gm.toml"
    config.write_text(SERVE_CONFIG.format(moderator=MODERATOR, smtp_port=smtp_server.port))
    engine = make_engine(sqlite_url(tmp_path / "gm.db"))
    upgrade(engine)
    for sub in ("new", "cur", "tmp"):
        (tmp_path / "inbox" / sub).mkdir(parents=True, exist_ok=True)
    robot = Robot(smtp_server, tmp_path / "inbox")
    stop = threading.Event()

    def answer() -> None:  # the robot's mail client, polling its mailbox
        while not stop.is_set():
            robot.answer_all()
            stop.wait(0.05)

    def inbound() -> list[InboundMail]:
        with session_scope(engine) as s:
            return list(s.exec(select(InboundMail).order_by(col(InboundMail.id))).all())

    def settled() -> bool:  # the robot's last mail handled, nothing left to send or answer
        rows = inbound()
        with session_scope(engine) as s:
            queued = s.exec(select(OutboundMail).where(OutboundMail.status == "queued")).all()
        return (len(rows) == robot.sent and all(r.status != "new" for r in rows) and not queued
                and robot.answered == len(robot.received()) and len(robot.received()) >= 5)

    robot.write("Hello", "Is this the help desk?\n")
    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    proc = subprocess.Popen([sys.executable, "-c", "from gm.cli.main import cli; cli(prog_name='gm')",
                             "--config", str(config), "serve"],
                            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=open(tmp_path / "serve.log", "ab"),
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120  # a bound on a loop that never ends, not a timing
        while time.monotonic() < deadline and not settled():
            time.sleep(0.1)
        assert settled(), (tmp_path / "serve.log").read_text()[-3000:]
    finally:
        stop.set()
        proc.terminate()
        proc.wait(30)
        thread.join(5)
    got = robot.received()
    assert len(got) == 5  # 4 replies, then the notice; then silence
    assert "will not answer further mails" in decode(got[-1]).text
    assert robot.sent == 6 and [r.status for r in inbound()] == ["handled"] * 6
    told = [m for m in smtp_server.received if MODERATOR in m.recipients]
    assert len(told) == 1
    engine.dispose()
