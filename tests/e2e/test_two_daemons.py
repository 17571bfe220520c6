"""Two ``gm serve`` processes on one PostgreSQL database and one inbox (issue 22).

Two real daemons, ``alpha`` and ``beta``, share a PostgreSQL database and one mailbox:
a private Dovecot's INBOX (and an aiosmtpd server for what they send), or one Maildir
inbox (and one Maildir outbox). Five Pax Baltica games on immediate deadlines
(tests/e2e/baltica_table.py) are played to their ends by scripted players whose order
mails arrive as the game goes: over fifty order mails, each read by both daemons. At the
end:

* every order mail is stored once and answered once: one row in the database, and one
  delivery at the mail server (deliveries are counted, not Message-IDs);
* every outgoing mail (replies, reports, notices) is delivered exactly once;
* no power ever has two current order sets for one phase;
* both daemons are alive and stop cleanly on SIGTERM, and each of them did part of the work.

The SQLite half of the promise: a second ``gm serve`` on the same SQLite file is refused
with a clear message and a non-zero exit, and the first one carries on.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlmodel import select

from gm.db.engine import make_engine, session_scope
from gm.db.migrate import upgrade
from gm.db.models import InboundMail, OutboundMail
from gm.service.context import ServiceContext
from tests.conftest import PG_URL, _postgres_database
from tests.e2e.baltica_table import MOD, Players, new_games
from tests.e2e.conftest import header
from tests.e2e.test_crash import ROOT
from tests.pipeline.conftest import mail
from tests.support.servers import DovecotServer, SmtpTestServer

GAMES = {f"pb125{c}": "12.5" for c in "abcde"}  # five games, over fifty order mails
SERVE = "from gm.cli.main import cli; cli(prog_name='gm')"
IMAP = """\
[imap]
host = "127.0.0.1"
port = {imap_port}
user = "{user}"
password = "{password}"
tls = "none"
idle = false
poll_interval = 0.1
timeout = 10.0
fetch_batch = 5
reconnect_initial = 0.1
reconnect_max = 0.5
"""
SMTP = """\
[smtp]
host = "127.0.0.1"
port = {smtp_port}
tls = "none"
timeout = 5.0
"""
MAILDIR = """\
[maildir]
inbox = "{inbox}"
outbox = "{outbox}"
poll_interval = 0.1
"""
CONFIG = """\
[mail]
address = "gm@example.org"
inbound = "{inbound}"
outbound = "{outbound}"

[service]
moderator_address = "mod@example.org"
instance = "{instance}"

[database]
{database}

[scheduler]
sweep_seconds = 1

{mail}
"""


@pytest.fixture
def pg_url() -> Iterator[str]:
    if not PG_URL:
        pytest.skip("GM_TEST_DATABASE_URL is not set: two daemons share a PostgreSQL database")
    yield from _postgres_database()


def start(config: Path, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", SERVE, "--config", str(config), "serve"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=open(log, "ab"),
                            start_new_session=True)


def stop(proc: subprocess.Popen[bytes]) -> int:
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(5)
        return -signal.SIGKILL


def deliver_to_maildir(inbox: Path, raws: list[bytes], counter: list[int]) -> None:
    """Drop mails into a Maildir as a delivery agent does: write in tmp/, rename into new/."""
    for raw in raws:
        counter[0] += 1
        name = f"{time.time_ns()}.{counter[0]}.test"
        (inbox / "tmp" / name).write_bytes(raw)
        os.replace(inbox / "tmp" / name, inbox / "new" / name)


@pytest.mark.parametrize("mailbox", ["imap", "maildir"])
def test_two_daemons_on_one_postgres_and_one_inbox_do_everything_once(
    mailbox: str, pg_url: str, tmp_path: Path, dovecot: DovecotServer,
    imap_user: tuple[str, str], smtp_server: SmtpTestServer,
) -> None:
    engine = make_engine(pg_url)
    upgrade(engine)
    ctx = ServiceContext(engine=engine, settings={"address": "gm@example.org",
                                                  "moderator_address": MOD}, instance="setup")
    new_games(ctx, GAMES)
    user, password = imap_user
    inbox, outbox = tmp_path / "inbox", tmp_path / "outbox"
    for box in (inbox, outbox):
        for sub in ("tmp", "new", "cur"):
            (box / sub).mkdir(parents=True, exist_ok=True)
    if mailbox == "imap":
        mail_cfg = (IMAP.format(imap_port=dovecot.port, user=user, password=password)
                    + SMTP.format(smtp_port=smtp_server.port))
    else:
        mail_cfg = MAILDIR.format(inbox=inbox, outbox=outbox)
    procs, logs = {}, {}
    for name in ("alpha", "beta"):
        config = tmp_path / f"{name}.toml"
        config.write_text(CONFIG.format(inbound=mailbox, outbound="smtp" if mailbox == "imap"
                                        else "maildir", instance=name,
                                        database=f'url = "{pg_url}"', mail=mail_cfg))
        logs[name] = tmp_path / f"{name}.log"
        procs[name] = start(config, logs[name])

    def deliveries() -> list[bytes]:
        if mailbox == "imap":
            return [m.raw for m in smtp_server.received]
        return [p.read_bytes() for p in sorted((outbox / "new").iterdir())]

    def settled() -> bool:
        with session_scope(engine) as s:
            new = s.exec(select(InboundMail).where(InboundMail.status == "new")).all()
            unsent = s.exec(select(OutboundMail).where(OutboundMail.status != "sent")).all()
        return not new and not unsent

    players = Players(GAMES)
    counter = [0]
    started = time.monotonic()
    try:
        while not (players.ended() and settled()):
            assert time.monotonic() - started < 600, "the games did not end in 10 minutes"
            for name, proc in procs.items():
                assert proc.poll() is None, f"{name} exited {proc.returncode}:\n" + \
                    logs[name].read_text()[-3000:]
            players.read(deliveries())
            mails = players.write()
            if mailbox == "imap" and mails:
                dovecot.append(user, password, mails)
            elif mails:
                deliver_to_maildir(inbox, mails, counter)
            time.sleep(0.05)
        time.sleep(1.5)  # further rounds of both must send nothing new
        alive = {name: proc.poll() is None for name, proc in procs.items()}
    finally:
        codes = {name: stop(proc) for name, proc in procs.items()}
    elapsed = time.monotonic() - started
    assert alive == {"alpha": True, "beta": True}
    assert codes == {"alpha": 0, "beta": 0}, {n: logs[n].read_text()[-3000:] for n in logs}
    for name in logs:
        assert "Traceback" not in logs[name].read_text(), logs[name].read_text()[-3000:]

    received = deliveries()
    sent = players.sent
    assert len(sent) >= 40
    with session_scope(engine) as s:
        inbound = s.exec(select(InboundMail)).all()
        outbound = s.exec(select(OutboundMail)).all()
        doubled = s.execute(text(
            "SELECT game_id, phase_seq, power FROM orderset WHERE current "
            "GROUP BY game_id, phase_seq, power HAVING count(*) > 1")).all()
    # Stored once: one row per order mail, each handled.
    assert Counter(r.message_id for r in inbound) == Counter({mid: 1 for mid in sent})
    assert {r.status for r in inbound} == {"handled"}
    # Answered once: one delivery per order mail.
    answers = Counter(header(raw, "In-Reply-To") for raw in received)
    assert {mid: answers[mid] for mid in sent} == {mid: 1 for mid in sent}
    # Every outgoing mail delivered exactly once, and nothing delivered that is not in the outbox.
    delivered = Counter(header(raw, "Message-ID") for raw in received)
    assert delivered == Counter({r.message_id: 1 for r in outbound})
    assert doubled == []
    assert players.ended()
    handled = {n: sum(line.endswith(" handled") for line in logs[n].read_text().splitlines())
               for n in logs}
    print(f"\n{mailbox}: {len(sent)} order mails, {len(received)} deliveries for "
          f"{len(outbound)} outgoing mails in {elapsed:.0f} s; mails handled per daemon: {handled}")
    assert all(handled.values()), handled  # both took part
    if mailbox == "imap":
        client = dovecot.client(user, password)
        try:
            client.select_folder("INBOX", readonly=True)
            assert len(client.search("ALL")) == len(sent)
            assert client.search(["UNKEYWORD", "$GmHandled"]) == []
        finally:
            client.logout()
    else:
        assert list((inbox / "new").iterdir()) == []
        assert len(list((inbox / "cur").iterdir())) == len(sent)
    engine.dispose()


def test_a_second_gm_serve_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    """SQLite cannot share its outbox between two daemons: the second one says so and exits 1;
    the first is untouched, and once it is gone (even killed) a new one starts."""
    config = tmp_path / "gm.toml"
    config.write_text(CONFIG.format(inbound="maildir", outbound="maildir", instance="solo",
                                    database='path = "gm.db"',
                                    mail=MAILDIR.format(inbox=tmp_path / "inbox",
                                                        outbox=tmp_path / "outbox")))
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    first = start(config, first_log)
    try:
        deadline = time.monotonic() + 60
        while "gm serving" not in first_log.read_text() and time.monotonic() < deadline:
            assert first.poll() is None, first_log.read_text()
            time.sleep(0.05)
        second = subprocess.run([sys.executable, "-c", SERVE, "--config", str(config), "serve"],
                                cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert second.returncode == 1
        assert f"another gm serve (pid {first.pid}) is running on the SQLite database" in second.stderr
        assert "SQLite allows one daemon per database file" in second.stderr
        assert "use PostgreSQL to run several instances" in second.stderr
        assert first.poll() is None
        # The second one touched nothing: the first still answers a mail.
        deliver_to_maildir(tmp_path / "inbox", [mail("HELP\n", message_id="<help@player.example>")],
                           [0])
        deadline = time.monotonic() + 60
        while not list((tmp_path / "outbox" / "new").glob("*")) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(list((tmp_path / "outbox" / "new").glob("*"))) == 1
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    third = start(config, second_log)  # the lock went with the killed process
    try:
        deadline = time.monotonic() + 60
        while "gm serving" not in second_log.read_text() and time.monotonic() < deadline:
            assert third.poll() is None, second_log.read_text()
            time.sleep(0.05)
        assert third.poll() is None
    finally:
        assert stop(third) == 0
