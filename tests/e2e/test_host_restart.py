"""A host mends the mail server (or gm's login to it) and restarts `gm serve`.

deploy/README.md, "Rotating passwords": between the password's change on the mail
server and gm's restart "the outbox keeps unsent mail queued ... nothing is lost; it
only waits". It waited longer than that: after the restart each queued mail still
waited out its backoff (up to two hours after a long outage), so a host who had fixed
everything saw no report go and could not tell why. The real `gm serve` process, a
Maildir inbox, the real aiosmtpd on loopback.
"""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlmodel import select

from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.models import OutboundMail
from tests.e2e.daemon_support import SERVE, stop, wait_until
from tests.e2e.test_crash import ROOT
from tests.e2e.test_daemon_robust import context, new_race, order_mail
from tests.support.servers import DovecotServer, SmtpTestServer, free_port

CONFIG = """\
[mail]
address = "gm@example.org"
inbound = "maildir"
outbound = "smtp"

[service]
moderator_address = "mod@example.org"
draw_workers = 0

[database]
path = "gm.db"

[maildir]
inbox = "inbox"
poll_interval = 0.1

[smtp]
host = "127.0.0.1"
port = {port}
tls = "none"
timeout = 5.0

[scheduler]
sweep_seconds = 1
"""


def serve(root: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", SERVE, "--config", str(root / "gm.toml"),
                             "serve"], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=open(root / "serve.log", "ab"), start_new_session=True)


def replies(root: Path) -> list[OutboundMail]:
    with session_scope(make_engine(sqlite_url(root / "gm.db"))) as s:
        return list(s.exec(select(OutboundMail).where(OutboundMail.kind == "reply")).all())


def test_restarting_gm_after_mending_the_mail_server_sends_the_queued_mail_at_once(
        tmp_path: Path) -> None:
    for sub in ("new", "cur", "tmp"):
        (tmp_path / "inbox" / sub).mkdir(parents=True)
    (tmp_path / "gm.toml").write_text(CONFIG.format(port=free_port()))  # nothing listens
    setup = context(sqlite_url(tmp_path / "gm.db"))
    new_race(setup, "race1")
    proc = serve(tmp_path)
    try:
        (tmp_path / "inbox" / "new" / "orders").write_bytes(
            order_mail("race1", "north", "advance 2", "<orders@player.example>"))
        assert wait_until(lambda: bool(replies(tmp_path)) and "the mail server is down: " in
                          (tmp_path / "serve.log").read_text(), 30), \
            (tmp_path / "serve.log").read_text()
    finally:
        stop(proc)
    # hours of outage later, the next attempt of the mail that met the server down is two
    # hours away (the longest backoff); the others, the reply among them, waited untried
    with session_scope(make_engine(sqlite_url(tmp_path / "gm.db"))) as s:
        for row in s.exec(select(OutboundMail).where(OutboundMail.status == "queued",
                                                     OutboundMail.attempts > 0)).all():
            row.next_attempt_at = datetime.now(UTC) + timedelta(hours=2)
            s.add(row)
    server = SmtpTestServer()
    server.start()
    try:
        (tmp_path / "gm.toml").write_text(CONFIG.format(port=server.port))  # the host's fix
        proc = serve(tmp_path)
        try:
            to_north = lambda: [m for m in server.received if "north-race1@example.org" in m.recipients  # noqa: E731
                                and b"In-Reply-To: <orders@player.example>" in m.raw]
            assert wait_until(lambda: bool(to_north()), 20), (tmp_path / "serve.log").read_text()
        finally:
            stop(proc)
    finally:
        server.stop()
    assert len(to_north()) == 1
    assert [r.status for r in replies(tmp_path)] == ["sent"]
    log = (tmp_path / "serve.log").read_text()
    assert "queued mails waiting for a retry are tried now" in log
    # the start says where mail goes, not a Maildir outbox the config does not use
    assert f"replies sent through 127.0.0.1:{server.port}" in log and "var/mail/sent" not in log
    # what the host read in the log while the server was down
    assert "smtp send to 127.0.0.1" in log and "the mail stays queued and is tried again later" in log


IMAP_CONFIG = """\
[mail]
address = "gm@example.org"
inbound = "imap"
outbound = "smtp"

[service]
moderator_address = "mod@example.org"
draw_workers = 0

[database]
path = "gm.db"

[imap]
host = "127.0.0.1"
port = {imap_port}
tls = "none"
user = "{user}"
password_file = "imap-password"
timeout = 5.0
poll_interval = 0.2

[smtp]
host = "127.0.0.1"
port = {smtp_port}
tls = "none"
timeout = 5.0

[scheduler]
sweep_seconds = 1
"""


def test_a_refused_imap_login_is_one_line_saying_what_to_do_and_the_outbox_still_goes(
        tmp_path: Path, dovecot: DovecotServer, imap_user: tuple[str, str],
        smtp_server: SmtpTestServer) -> None:
    """A wrong IMAP password logged a 50-line traceback every round ("the round failed"),
    with no word of the password, and nothing queued was sent meanwhile: the welcomes of
    a new game waited for the mailbox's login. Once the host writes the right password
    and restarts, the order mail that waited in the mailbox is answered once."""
    user, password = imap_user
    (tmp_path / "imap-password").write_text("not-the-password\n")
    (tmp_path / "gm.toml").write_text(IMAP_CONFIG.format(
        imap_port=dovecot.port, user=user, smtp_port=smtp_server.port))
    new_race(context(sqlite_url(tmp_path / "gm.db")), "race1")  # its welcomes are queued
    dovecot.append(user, password, [order_mail("race1", "north", "advance 2",
                                               "<waits@player.example>")])
    log = tmp_path / "serve.log"
    proc = serve(tmp_path)
    try:
        assert wait_until(lambda: "refused gm's login" in log.read_text()
                          and len(smtp_server.received) >= 2, 30), log.read_text()
    finally:
        stop(proc)
    text = log.read_text()
    assert f"the IMAP server 127.0.0.1:{dovecot.port} (user {user}) refused gm's login" in text
    assert "check [imap] user and password or password_file" in text
    assert "restart gm after changing it" in text and "Traceback" not in text
    assert {m.recipients[0] for m in smtp_server.received} >= {"north-race1@example.org",
                                                               "south-race1@example.org"}
    (tmp_path / "imap-password").write_text(password + "\n")  # the host's fix, then a restart
    proc = serve(tmp_path)
    try:
        answered = lambda: [m for m in smtp_server.received  # noqa: E731
                            if b"In-Reply-To: <waits@player.example>" in m.raw]
        assert wait_until(lambda: bool(answered()), 30), log.read_text()
    finally:
        stop(proc)
    assert len(answered()) == 1


def test_a_missing_imap_folder_is_one_line_saying_what_to_do_and_the_outbox_still_goes(
        tmp_path: Path, dovecot: DovecotServer, imap_user: tuple[str, str],
        smtp_server: SmtpTestServer) -> None:
    """`[imap] folder = "Orders"` on a server without it: a traceback every round
    ("select failed: Mailbox doesn't exist"), and nothing queued was sent."""
    user, password = imap_user
    (tmp_path / "imap-password").write_text(password + "\n")
    (tmp_path / "gm.toml").write_text(IMAP_CONFIG.format(
        imap_port=dovecot.port, user=user, smtp_port=smtp_server.port).replace(
            'password_file = "imap-password"', 'password_file = "imap-password"\nfolder = "Orders"'))
    new_race(context(sqlite_url(tmp_path / "gm.db")), "race1")  # its welcomes are queued
    log = tmp_path / "serve.log"
    proc = serve(tmp_path)
    try:
        assert wait_until(lambda: "refused the folder" in log.read_text()
                          and len(smtp_server.received) >= 2, 30), log.read_text()
    finally:
        stop(proc)
    text = log.read_text()
    assert f"the IMAP server 127.0.0.1:{dovecot.port} (user {user}) refused the folder (folder " \
        "'Orders'" in text
    assert "check [imap] folder: it must exist on the server" in text and "Traceback" not in text
