"""What the host reads in gm's log when a deadline passes (deploy/README.md, "Logs").

The log said a closed deadline as a Python repr, `deadlines: SweepReport(instance=...,
closed=[Closed(game_id='brit1', seq=1, phase_id='1880-movement', ...)], lost=0,
reminders=[], outage=Outage(since=datetime.datetime(...` on one line: a host reading
journald could not tell which game moved on, nor who had sent no orders. The real
`gm serve --once` process, a real Pax Viking game whose deadline has passed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from gm.db.engine import session_scope, sqlite_url
from gm.service.games import SeatSpec, create_game, current_phase
from tests.e2e.daemon_support import MOD, SERVE, Service, stop, wait_until
from tests.e2e.test_crash import ROOT
from tests.e2e.test_daemon_robust import QUIET, context


def test_the_log_names_the_game_the_phase_closed_the_powers_defaulted_and_the_next_phase(
        tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "gm.db")
    service = Service(tmp_path, url)
    setup = context(url, ago=timedelta(days=3))  # the game was made three days ago
    with session_scope(setup.engine) as s:
        create_game(setup, s, game_id="vik1", module_name="viking", scenario="2p",
                    seats=[SeatSpec("red", "red@example.org", password="r-secret"),
                           SeatSpec("blue", "blue@example.org", password="b-secret")],
                    moderator_address=MOD, settings={"deadlines": QUIET}, play_out=True)
        first = current_phase(s, "vik1").phase_id  # round-1-red or round-1-blue: the dice say
    power = first.removeprefix("round-1-")
    other = "blue" if power == "red" else "red"
    proc = service.start(once=True)
    assert proc.wait(120) == 0, service.tail()
    log = service.log.read_text()
    assert (f"vik1: round-1-{power} closed at its deadline (defaults for {power}); "
            f"round-1-{other} opens") in log, log
    assert "SweepReport(" not in log


def test_every_line_gm_serve_json_logs_writes_is_json_the_banner_too(tmp_path: Path) -> None:
    """The systemd unit and the container run `gm serve --json-logs`; its first three lines
    (the address, the database, where mail comes from and goes to) were plain text among
    the JSON, which a log collector reading JSON lines rejects."""
    service = Service(tmp_path, sqlite_url(tmp_path / "gm.db"))
    proc = subprocess.Popen([sys.executable, "-c", SERVE, "--config", str(service.config),
                             "serve", "--json-logs"], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=open(service.log, "ab"), start_new_session=True)
    try:
        assert wait_until(lambda: "gm serving as" in service.log.read_text(), 60), service.tail()
    finally:
        stop(proc)
    lines = [json.loads(line) for line in service.log.read_text().splitlines()]
    messages = [line["message"] for line in lines]
    assert "gm serving gm@example.org: database " + sqlite_url(tmp_path / "gm.db") in messages
    assert f"put order mails into {service.inbox}/new" in messages
