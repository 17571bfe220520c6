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

Mail delivered twice (two copies of one mail in the mailbox, under two UIDs: a player's
mail reaching the service through two aliases, a client that sends again) is stored twice
and answered once, whichever daemon takes which copy when (orders.md §2, duplicates).

The SQLite half of the promise: a second ``gm serve`` on the same SQLite file is refused
with a clear message and a non-zero exit, and the first one carries on.
"""

from __future__ import annotations

import os
import random
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
from tests.e2e.baltica_table import MOD, Players, new_games, sweden
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


TWICE_GAMES = {f"pbtw{c}": "12.5" for c in "abc"}
BURSTS = 8
"""Rounds of mail delivered twice: each a new race between the two daemons."""
RECONS = ("Skåne", "Småland")
"""Orders Sweden may give in its first action phase of these games (accepted, stored)."""


def serving(log: Path) -> bool:
    return log.exists() and "gm serving" in log.read_text()


def test_two_daemons_store_both_copies_of_a_mail_delivered_twice_and_answer_it_once(
    pg_url: str, tmp_path: Path, dovecot: DovecotServer, imap_user: tuple[str, str],
    smtp_server: SmtpTestServer,
) -> None:
    """orders.md §2: "Every mail gets one reply ... except: duplicates (same Message-ID)
    ... those are stored and never answered". Two real ``gm serve`` on one PostgreSQL
    database and one Dovecot INBOX; in each burst, every order mail is APPENDed twice (each
    copy with the Delivered-To of its own alias, so two mailbox messages that differ in
    bytes and share their Message-ID), all copies in one seeded random order and released
    together to both daemons. Over every burst: each copy stored (its own row), each
    Message-ID answered by exactly one delivery and its orders stored once, the other copy
    ignored as a duplicate of the answered one; every copy flagged."""
    engine = make_engine(pg_url)
    upgrade(engine)
    ctx = ServiceContext(engine=engine, settings={"address": "gm@example.org",
                                                  "moderator_address": MOD}, instance="setup")
    new_games(ctx, TWICE_GAMES)
    user, password = imap_user
    mail_cfg = (IMAP.format(imap_port=dovecot.port, user=user, password=password)
                + SMTP.format(smtp_port=smtp_server.port))
    procs, logs = {}, {}
    for name in ("alpha", "beta"):
        config = tmp_path / f"{name}.toml"
        config.write_text(CONFIG.format(inbound="imap", outbound="smtp", instance=name,
                                        database=f'url = "{pg_url}"', mail=mail_cfg))
        logs[name] = tmp_path / f"{name}.log"
        procs[name] = start(config, logs[name])

    def check_alive() -> None:
        for name, proc in procs.items():
            assert proc.poll() is None, f"{name} exited {proc.returncode}:\n" + \
                logs[name].read_text()[-3000:]

    def settled() -> bool:
        """Every copy flagged in the mailbox, none left new, nothing left to send."""
        client = dovecot.client(user, password)
        try:
            client.select_folder("INBOX", readonly=True)
            unflagged = client.search(["UNKEYWORD", "$GmHandled"])
        finally:
            client.logout()
        with session_scope(engine) as s:
            new = s.exec(select(InboundMail).where(InboundMail.status == "new")).all()
            unsent = s.exec(select(OutboundMail).where(OutboundMail.status != "sent")).all()
        return not unflagged and not new and not unsent

    rng = random.Random(2026)
    sent: list[str] = []
    started = time.monotonic()
    try:
        while not all(serving(log) for log in logs.values()):  # both take part from the start
            assert time.monotonic() - started < 120, "the daemons did not start in 2 minutes"
            check_alive()
            time.sleep(0.05)
        for burst in range(BURSTS):
            copies = []
            for game_id in TWICE_GAMES:
                for n, land in enumerate(RECONS):
                    mid = f"<twice-{burst}-{n}-{game_id}@player.example>"
                    raw = mail(f"GAME {game_id}\nPOWER sweden sw-secret\nrecon {land}\n",
                               sender=sweden(game_id), message_id=mid)
                    copies += [b"Delivered-To: gm@example.org\n" + raw,
                               b"Delivered-To: gm-orders@example.org\n" + raw]
                    sent.append(mid)
            rng.shuffle(copies)
            dovecot.append(user, password, copies)
            while not settled():
                assert time.monotonic() - started < 600, "the mails were not settled in 10 minutes"
                check_alive()
                time.sleep(0.05)
        time.sleep(1.5)  # further rounds of both must send nothing new
        alive = {name: proc.poll() is None for name, proc in procs.items()}
    finally:
        codes = {name: stop(proc) for name, proc in procs.items()}
    assert alive == {"alpha": True, "beta": True}
    assert codes == {"alpha": 0, "beta": 0}, {n: logs[n].read_text()[-3000:] for n in logs}
    for name in logs:
        assert "Traceback" not in logs[name].read_text(), logs[name].read_text()[-3000:]

    received = [m.raw for m in smtp_server.received]
    with session_scope(engine) as s:
        inbound = s.exec(select(InboundMail)).all()
        outbound = s.exec(select(OutboundMail)).all()
        versions = Counter(s.execute(text(
            "SELECT game_id FROM orderset WHERE power = 'sweden'")).scalars())
    # Answered once: one delivery per Message-ID; its orders stored once.
    answers = Counter(header(raw, "In-Reply-To") for raw in received)
    assert {mid: answers[mid] for mid in sent} == {mid: 1 for mid in sent}
    delivered = Counter(header(raw, "Message-ID") for raw in received)
    assert delivered == Counter({r.message_id: 1 for r in outbound})
    assert versions == Counter({g: BURSTS * len(RECONS) for g in TWICE_GAMES})
    # Every copy stored: two rows per Message-ID, one per mailbox message.
    assert Counter(r.message_id for r in inbound) == Counter({mid: 2 for mid in sent})
    assert len({r.mailbox_key for r in inbound}) == len(inbound)
    # One copy handled, the other ignored as its duplicate.
    by_mid: dict[str, list[InboundMail]] = {}
    for r in sorted(inbound, key=lambda r: r.status):
        by_mid.setdefault(r.message_id, []).append(r)
    for mid, (handled, duplicate) in by_mid.items():
        assert (handled.status, duplicate.status) == ("handled", "ignored"), mid
        assert duplicate.note == f"duplicate of mail {handled.id} (same Message-ID)", mid
    held = {n: sum("being handled by another instance" in line
                   for line in logs[n].read_text().splitlines()) for n in logs}
    handled_here = {n: sum(line.endswith(" handled") for line in logs[n].read_text().splitlines())
                    for n in logs}
    print(f"\n{len(sent)} Message-IDs, {len(inbound)} copies; handled per daemon: "
          f"{handled_here}; held by the other: {held}")
    client = dovecot.client(user, password)
    try:
        client.select_folder("INBOX", readonly=True)
        assert len(client.search("ALL")) == 2 * len(sent)
        assert client.search(["UNKEYWORD", "$GmHandled"]) == []
    finally:
        client.logout()
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
