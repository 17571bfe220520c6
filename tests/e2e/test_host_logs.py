"""What the host reads in gm's log when a deadline passes (deploy/README.md, "Logs").

The log said a closed deadline as a Python repr, `deadlines: SweepReport(instance=...,
closed=[Closed(game_id='brit1', seq=1, phase_id='1880-movement', ...)], lost=0,
reminders=[], outage=Outage(since=datetime.datetime(...` on one line: a host reading
journald could not tell which game moved on, nor who had sent no orders. The real
`gm serve --once` process, a real Pax Viking game whose deadline has passed.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from gm.db.engine import session_scope, sqlite_url
from gm.service.games import SeatSpec, create_game
from tests.e2e.daemon_support import MOD, Service
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
    proc = service.start(once=True)
    assert proc.wait(120) == 0, service.tail()
    log = service.log.read_text()
    assert "vik1: round-1-red closed at its deadline (defaults for red); round-1-blue opens" \
        in log, log
    assert "SweepReport(" not in log
