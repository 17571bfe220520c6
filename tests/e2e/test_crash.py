"""``gm serve`` SIGKILLed mid-batch, then restarted: every mail answered once, no order lost or doubled.

The daemon is a real subprocess reading a private Dovecot and sending to an
aiosmtpd on loopback, with a SQLite file. It is killed several times while it
works through a batch of order mails, at points chosen by watching the
database (after k mails were stored), so kills land between storing,
handling, flagging and sending. Whatever the kill point, after a clean run:

* each mail has exactly one reply by In-Reply-To at the SMTP server (a
  byte-identical re-send with the same Message-ID is allowed, never two
  different Message-IDs for one mail);
* every mail's orders are stored once: one OrderSet per mail, versions 1..n
  with no gap or repeat.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from sqlmodel import col, func, select

from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.migrate import upgrade
from gm.db.models import InboundMail, OrderSet
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game
from tests.e2e.conftest import header
from tests.pipeline.conftest import mail
from tests.support import toygame  # noqa: F401  (registers "race" in this process)
from tests.support.servers import DovecotServer, SmtpTestServer

ROOT = Path(__file__).resolve().parents[2]
N_MAILS = 24
# `gm serve` with the toy game registered: the real CLI, nothing patched.
SERVE = ("import tests.support.toygame; from gm.cli.main import cli; "
         "cli(prog_name='gm')")
CONFIG = """\
[mail]
address = "gm@example.org"
inbound = "imap"
outbound = "smtp"

[service]
moderator_address = "mod@example.org"

[database]
path = "gm.db"

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

[smtp]
host = "127.0.0.1"
port = {smtp_port}
tls = "none"
timeout = 5.0

[scheduler]
sweep_seconds = 3600
"""


def start_serve(config: Path, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", SERVE, "--config", str(config), "serve"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=open(log, "ab"),
                            start_new_session=True)


def count(ctx: ServiceContext, status: str | None = None) -> int:
    with session_scope(ctx.engine) as s:
        q = select(func.count()).select_from(InboundMail)
        if status:
            q = q.where(InboundMail.status == status)
        return int(s.exec(q).one())


def wait_until(predicate, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def test_sigkill_between_store_and_flag_loses_and_doubles_nothing(
    tmp_path: Path, dovecot: DovecotServer, imap_user: tuple[str, str], smtp_server: SmtpTestServer,
) -> None:
    """Kill -9 at several points of a batch; after restart each mail has one reply and one OrderSet."""
    user, password = imap_user
    config = tmp_path / "gm.toml"
    config.write_text(CONFIG.format(imap_port=dovecot.port, user=user, password=password,
                                    smtp_port=smtp_server.port))
    engine = make_engine(sqlite_url(tmp_path / "gm.db"))
    upgrade(engine)
    ctx = ServiceContext(engine=engine, settings={"address": "gm@example.org"}, instance="test")
    with session_scope(engine) as s:
        create_game(ctx, s, game_id="race1", module_name="race", scenario="duel",
                    seats=[SeatSpec("north", "north@example.org", password="n-secret"),
                           SeatSpec("south", "south@example.org", password="s-secret")],
                    moderator_address="mod@example.org")
    ids = [f"<crash-{i}@player.example>" for i in range(N_MAILS)]
    power = {i: ("north", "south")[n % 2] for n, i in enumerate(ids)}
    dovecot.append(user, password, [
        mail(f"GAME race1\nPOWER {power[m]} {power[m][0]}-secret\nadvance {n % 3 + 1}\n",
             sender=f"{power[m]}@example.org", message_id=m) for n, m in enumerate(ids)])

    log = tmp_path / "serve.log"
    kill_points = [  # stored k (not yet handled), handled k (maybe not flagged), mid-outbox
        *(lambda t=t: count(ctx) >= t for t in (2, 7, 12, 17)),
        lambda: count(ctx, "handled") >= 20,
        lambda: len(smtp_server.received) >= 3,
    ]
    reached = []
    for point in kill_points:
        proc = start_serve(config, log)
        try:
            reached.append(wait_until(point, 30))
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
    assert all(reached), log.read_text()[-2000:]
    assert count(ctx) == N_MAILS
    answered = {header(m.raw, "In-Reply-To") for m in smtp_server.received}
    assert not answered >= set(ids)  # the last kill really interrupted the sending

    proc = start_serve(config, log)
    try:
        def all_answered() -> bool:
            answered = {header(m.raw, "In-Reply-To") for m in smtp_server.received}
            return count(ctx, "handled") == N_MAILS and answered >= set(ids)
        assert wait_until(all_answered, 45), log.read_text()[-2000:]
        time.sleep(0.5)  # a further poll round must send nothing new
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)

    by_mail: dict[str, set[str]] = defaultdict(set)
    for m in smtp_server.received:
        by_mail[header(m.raw, "In-Reply-To")].add(header(m.raw, "Message-ID"))
    for mid in ids:
        assert len(by_mail[mid]) == 1, f"{mid}: replies {by_mail[mid]}"
    with session_scope(engine) as s:
        sets = s.exec(select(OrderSet).where(OrderSet.source == "mail")
                      .order_by(col(OrderSet.power), col(OrderSet.version))).all()
        inbound_ids = [r.inbound_id for r in sets]
        assert len(sets) == N_MAILS and len(set(inbound_ids)) == N_MAILS
        for who in ("north", "south"):
            versions = [r.version for r in sets if r.power == who]
            assert versions == list(range(1, N_MAILS // 2 + 1))
        assert len(s.exec(select(InboundMail)).all()) == N_MAILS
    client = dovecot.client(user, password)
    try:
        client.select_folder("INBOX", readonly=True)
        assert client.search(["UNKEYWORD", "$GmHandled"]) == []
    finally:
        client.logout()
    engine.dispose()
