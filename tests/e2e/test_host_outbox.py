"""A host whose SMTP server was down asks `gm doctor` what is waiting.

With the mail server down, the replies and reports gm had made stayed queued, and
nothing a host runs said so: `gm doctor` named the SMTP server's failure only, and
`gm mod mails GAME --undelivered` said "no mail gm sent has failed to be delivered".
The doctor now counts the mails waiting for a retry, with the last error and what to
do. The real `gm game new` and `gm serve --once` processes, a real Pax Viking game, an
SMTP port nothing listens on.
"""

from __future__ import annotations

from pathlib import Path

from tests.e2e.daemon_support import gm_cli as gm
from tests.support.servers import free_port

CONFIG = """\
[mail]
address = "gm@example.org"
inbound = "maildir"
outbound = "smtp"

[maildir]
inbox = "inbox"

[smtp]
host = "127.0.0.1"
port = {port}
tls = "none"
timeout = 5.0

[service]
moderator_address = "mod@example.org"
draw_workers = 0

[database]
path = "gm.db"
"""




def _viking_game_with_no_smtp_server(root: Path) -> None:
    """A host's directory: a Maildir inbox, a config whose SMTP port nothing listens on,
    and a one-seat Pax Viking game made by the real CLI (its welcome and reports queued)."""
    for sub in ("new", "cur", "tmp"):
        (root / "inbox" / sub).mkdir(parents=True)
    (root / "gm.toml").write_text(CONFIG.format(port=free_port()))
    made = gm(root, "game", "new", "vik1", "--module", "viking", "--scenario", "1p",
              "--seat", "red=red@example.org", "--moderator", "mod@example.org")
    assert made.returncode == 0, made.stderr


def test_gm_doctor_counts_the_mails_waiting_while_the_smtp_server_is_down(tmp_path: Path) -> None:
    _viking_game_with_no_smtp_server(tmp_path)
    before = gm(tmp_path, "doctor", "--no-send")
    assert "ok    outbox          no mail waits for a retry" in before.stdout, before.stdout

    assert gm(tmp_path, "serve", "--once").returncode == 0  # the server refuses each mail
    doctor = gm(tmp_path, "doctor", "--no-send")
    lines = doctor.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("warn  outbox"))
    assert " mails wait to be sent, 1 of them tried and failed; the oldest queued " in lines[at]
    assert "the last error: connection_refused" in lines[at]
    assert lines[at + 1].strip().startswith("fix: mend what the smtp check says, then restart gm")
    assert "FAIL  smtp            nothing answers at 127.0.0.1:" in doctor.stdout


def test_gm_mod_mails_undelivered_says_the_mails_still_waiting_while_the_smtp_server_is_down(
        tmp_path: Path) -> None:
    """Before, it said only "vik1: no mail gm sent has failed to be delivered" while the
    welcome and the first reports had not gone."""
    _viking_game_with_no_smtp_server(tmp_path)
    assert gm(tmp_path, "serve", "--once").returncode == 0  # the server refuses the first mail
    shown = gm(tmp_path, "mod", "mails", "vik1", "--undelivered")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines() == [
        "vik1: no mail gm sent has failed to be delivered",
        "1 mail waits to be sent: the mail server has not taken it yet, and gm tries again by "
        "itself"]


def test_the_missing_orders_notice_and_reminder_queued_while_smtp_is_down_are_not_sent_after_the_phase(
        tmp_path: Path) -> None:
    """With the mail server down, the moderator's "[vik1] 1 missing for ... left" went out
    once it was back, after the phase it counted had closed (the reminder beside it was
    withdrawn). Real `gm game new`, `gm serve --once` (the reminder due at once), `gm
    adjudicate` (the phase closed), then a real SMTP server on the port: the report goes,
    neither the count nor the reminder does."""
    import email
    from email.policy import default

    from tests.support.servers import SmtpTestServer

    for sub in ("new", "cur", "tmp"):
        (tmp_path / "inbox" / sub).mkdir(parents=True)
    port = free_port()
    (tmp_path / "gm.toml").write_text(CONFIG.format(port=port))
    made = gm(tmp_path, "game", "new", "vik1", "--module", "viking", "--scenario", "1p",
              "--seat", "red=red@example.org", "--moderator", "mod@example.org",
              "--set", 'deadlines={"default": "48h", "reminders": ["72h"]}')
    assert made.returncode == 0, made.stderr
    assert gm(tmp_path, "serve", "--once").returncode == 0  # reminder queued; nothing listens
    closed = gm(tmp_path, "adjudicate", "vik1")
    assert closed.returncode == 0, closed.stderr
    server = SmtpTestServer(port=port)
    server.start()
    try:
        served = gm(tmp_path, "serve", "--once")
    finally:
        server.stop()
    assert served.returncode == 0, served.stderr
    subjects = [str(email.message_from_bytes(m.raw, policy=default)["Subject"])
                for m in server.received]
    assert "[vik1] round-2-red: report for red" in subjects, subjects  # round-1-red closed
    about_first = [s for s in subjects if "round-1-red" in s]
    assert about_first == ["[vik1] round-1-red: report for red",
                           "[vik1] round-1-red: report for moderator"], subjects
    # what the next serve found due for the phase open now is sent, as always
    assert "[vik1] reminder: round-2-red closes in 2 days" in subjects
