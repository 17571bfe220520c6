"""``gm serve`` SIGKILLed from outside at random times through a real Pax Baltica game (issue 22).

A Pax Baltica game on immediate deadlines (tests/e2e/baltica_table.py: phases nobody
orders in close at once, the others when both players are READY) is played by two scripted
players who read their mail at an aiosmtpd server and APPEND their answers to a private
Dovecot. A real ``gm serve`` process (SQLite) runs it and is killed with SIGKILL from
outside, at random: half its lives at a random moment after it was started (often while
it is still starting), the others a random moment after it has delivered a random number
of mails (so kills land while it fetches, stores, handles, adjudicates, renders and
sends). It is restarted after each kill. At the end, compared with one uninterrupted run
of the same game:

* the same game: every phase's id, state and game state, and the orders in force;
* the same reply texts: each player mail answered once (one delivery, or a byte-identical
  re-send of it), with the text the uninterrupted run answered (checked first: a reply that
  differs says where the runs parted);
* the same reports: each player got the report of each phase once;
* nothing left unhandled, unsent, or unflagged in the mailbox.

CI kills 30 times during four games of scenario 12.3 with SQLite (about two minutes); GM_LONG_TESTS=1
kills 100 times, with SQLite and with PostgreSQL (GM_KILLS=n sets the number of kills).
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
from sqlmodel import select

from gm.db.engine import session_scope, sqlite_url
from gm.db.models import InboundMail, OutboundMail
from tests.conftest import PG_URL, _postgres_database
from tests.e2e.baltica_table import Players, context, first_difference, outcome, reference
from tests.e2e.conftest import header
from tests.e2e.test_crash import CONFIG, ROOT
from tests.support.servers import DovecotServer, SmtpTestServer

LONG = os.environ.get("GM_LONG_TESTS") == "1"
KILLS = int(os.environ.get("GM_KILLS", "100" if LONG else "30"))
"""The long run's 100: four games of 12.3 held 114 to 149 kills (2026-11-29, SQLite and
PostgreSQL; more games run side by side and hold no more), so 150 failed as often as not."""
GAMES = {f"pb123{c}": "12.3" for c in "abcd"}  # four games: long enough for 50 kills and more
SEED = 22
SERVE = "from gm.cli.main import cli; cli(prog_name='gm')"


def start(config: Path, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", SERVE, "--config", str(config), "serve"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=open(log, "ab"),
                            start_new_session=True)


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "gm.db")
        return
    if not (LONG and PG_URL):
        pytest.skip("the PostgreSQL run is a long one: GM_LONG_TESTS=1 and GM_TEST_DATABASE_URL")
    yield from _postgres_database()


def test_gm_serve_killed_at_random_through_a_pax_baltica_game_ends_as_an_uninterrupted_run(
    url: str, tmp_path: Path, dovecot: DovecotServer, imap_user: tuple[str, str],
    smtp_server: SmtpTestServer,
) -> None:
    want, ref_players = reference(tmp_path, GAMES)

    user, password = imap_user
    config = tmp_path / "gm.toml"
    config.write_text(CONFIG.format(imap_port=dovecot.port, user=user, password=password,
                                    smtp_port=smtp_server.port)
                      .replace("sweep_seconds = 3600", "sweep_seconds = 1")
                      .replace('path = "gm.db"', f'url = "{url}"'))
    ctx = context(url, GAMES)
    players = Players(GAMES)
    rng = random.Random(SEED)
    log = tmp_path / "serve.log"
    kills = lives = read = 0
    started_at = time.monotonic()

    def new_life() -> tuple[subprocess.Popen[bytes], float, int | None]:
        """A process, and when to kill it: at a time, or a moment after its n-th delivery."""
        if kills >= KILLS:
            return start(config, log), float("inf"), None
        if rng.random() < 0.5:
            return start(config, log), time.monotonic() + rng.uniform(0.1, 1.5), None
        return start(config, log), float("inf"), len(smtp_server.received) + rng.randint(1, 4)

    proc, kill_at, kill_after = new_life()
    try:
        while not players.ended():
            assert time.monotonic() - started_at < 900, f"no end after {kills} kills"
            assert proc.poll() is None, f"gm serve exited {proc.returncode}:\n" + \
                log.read_text()[-3000:]
            received = smtp_server.received[read:]
            read += len(received)
            players.read(m.raw for m in received)
            mails = players.write()
            if mails:
                dovecot.append(user, password, mails)
            if kill_after is not None and read >= kill_after:
                kill_at, kill_after = time.monotonic() + rng.uniform(0.0, 0.3), None
            if time.monotonic() >= kill_at:
                proc.send_signal(signal.SIGKILL)
                proc.wait(10)
                kills += 1
                lives += 1
                proc, kill_at, kill_after = new_life()
            time.sleep(0.02)
        assert kills >= KILLS, f"the game ended after only {kills} kills"

        def settled() -> bool:  # every mail handled, every mail sent
            with session_scope(ctx.engine) as s:
                pending = s.exec(select(InboundMail).where(InboundMail.status == "new")).all()
                queued = s.exec(select(OutboundMail).where(OutboundMail.status != "sent")).all()
            return not pending and not queued

        deadline = time.monotonic() + 120
        while not settled() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)  # a further round must send nothing new
        assert proc.poll() is None, log.read_text()[-3000:]
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)
    elapsed = time.monotonic() - started_at
    received = [m.raw for m in smtp_server.received]
    players.read(received[read:])
    print(f"\n{kills} SIGKILLs in {lives + 1} lives of gm serve, {elapsed:.0f} s; "
          f"{len(players.sent)} player mails, {len(received)} deliveries")

    # The same mails from the players (while the games went alike), each answered once,
    # with the same text.
    differing = [(mid, players.replies.get(mid), ref_players.replies.get(mid))
                 for mid in ref_players.sent if players.replies.get(mid) != ref_players.replies.get(mid)]
    assert not differing, differing[0]
    assert sorted(players.sent) == sorted(ref_players.sent)  # four games interleave freely
    # The same game as the uninterrupted run.
    got = outcome(ctx)
    assert got == want, first_difference(got, want)
    by_reply = Counter(header(raw, "In-Reply-To") for raw in received if header(raw, "In-Reply-To"))
    ids_by_reply: dict[str, set[str]] = {}
    for raw in received:
        if header(raw, "In-Reply-To"):
            ids_by_reply.setdefault(header(raw, "In-Reply-To"), set()).add(header(raw, "Message-ID"))
    assert {mid: len(ids_by_reply.get(mid, ())) for mid in players.sent} == \
        {mid: 1 for mid in players.sent}
    assert {mid: players.replies[mid] for mid in players.sent} == \
        {mid: ref_players.replies[mid] for mid in players.sent}
    resent = sum(by_reply.values()) - len(players.sent)
    # The same reports, each phase's once to each player (a re-send has the same Message-ID).
    assert dict(players.reports) == dict(ref_players.reports)
    delivered = Counter(header(raw, "Message-ID") for raw in received)
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(OutboundMail)).all()
        inbound = s.exec(select(InboundMail)).all()
    assert {r.message_id for r in rows} == set(delivered)
    assert all(r.status == "sent" for r in rows)
    assert sorted(r.message_id for r in inbound) == sorted(players.sent)
    assert {r.status for r in inbound} == {"handled"}
    client = dovecot.client(user, password)
    try:
        client.select_folder("INBOX", readonly=True)
        assert client.search(["UNKEYWORD", "$GmHandled"]) == []
    finally:
        client.logout()
    twice = sum(n - 1 for n in delivered.values())
    print(f"re-sent after a kill between sending and recording it: {twice} deliveries "
          f"({resent} of them replies), byte-identical, same Message-ID")
    ctx.engine.dispose()
