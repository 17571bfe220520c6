"""A real ``gm serve`` restarted after a deadline finds the orders that came before it.

The host restarts gm (an upgrade, a reboot, SIGKILL from the OOM killer) for a few
minutes; meanwhile Sweden's deadline passes, and Sweden's orders, delivered a moment
before it, wait in the Maildir. A human GamesMaster back at his desk reads his mail before
he adjudicates. Before gm.pipeline.arrival, the restarted daemon swept first: Sweden's
phase closed with no orders, and the mail was then read against the Coalition's phase
("Sweden may not order in 1700-autumn-actions-coalition").
"""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlmodel import select

from gm.clock import FakeClock
from gm.db.engine import make_engine, session_scope
from gm.db.migrate import upgrade
from gm.db.models import Phase
from gm.service.adjudicate import settle
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game, current_phase
from tests.e2e.daemon_support import MOD, Service, stop, text_of, wait_until
from tests.pipeline.conftest import deliver, mail

SWEDEN, COALITION = "karl@example.org", "pyotr@example.org"
LENGTH = 6  # seconds of Sweden's action phase


def test_a_restarted_daemon_reads_the_orders_that_came_before_the_deadline_first(
        db_url: str, tmp_path: Path) -> None:
    engine = make_engine(db_url)
    upgrade(engine)
    setup = ServiceContext(engine=engine, clock=FakeClock(datetime.now(UTC)),
                           settings={"address": "gm@example.org", "moderator_address": MOD},
                           instance="setup")
    with session_scope(engine) as s:
        create_game(setup, s, game_id="pb1", module_name="baltica", scenario="12.1",
                    seats=[SeatSpec("sweden", SWEDEN, password="sw-secret"),
                           SeatSpec("coalition", COALITION, password="co-secret")],
                    moderator_address=MOD, moderator_password="mod-secret", seed=b"\x03" * 32,
                    settings={"deadlines": {"length": {"actions": f"{LENGTH}s"}}})
    deliver(setup, mail("GAME pb1\nMODERATOR mod-secret\nDICE 5 2\n", sender=MOD))
    settle(setup, "pb1", by="test")
    with session_scope(engine) as s:
        phase = current_phase(s, "pb1")
        assert phase.phase_id == "1700-autumn-actions-sweden" and phase.deadline is not None
        deadline = phase.deadline.replace(tzinfo=UTC)

    service = Service(tmp_path, db_url)
    # delivered two seconds before the deadline, while gm is down
    service.drop("1.sweden.eml", mail("GAME pb1\nPOWER sweden sw-secret\nrecon Ingermanland\n",
                                      sender=SWEDEN, message_id="<orders@sweden.example>"))
    before = (deadline - timedelta(seconds=2)).timestamp()
    os.utime(service.inbox / "new" / "1.sweden.eml", (before, before))
    time.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds()) + 1.5)  # the deadline passes

    proc = service.start()
    try:
        def answered() -> bool:
            return any(str(m["In-Reply-To"]).strip() == "<orders@sweden.example>"
                       for m in service.sent())

        assert wait_until(answered, 60), service.tail()
        with session_scope(engine) as s:
            assert wait_until(lambda: s.exec(select(Phase.state).where(
                Phase.game_id == "pb1", Phase.phase_id == "1700-autumn-actions-sweden")).one() == "done",
                30), service.tail()
    finally:
        stop(proc)
    [reply] = [text_of(m) for m in service.sent()
               if str(m["In-Reply-To"]).strip() == "<orders@sweden.example>"]
    assert "too late" not in reply and "may not" not in reply, reply
    assert "recon Ingermanland" in reply and "OK" in reply
    [report] = [text_of(m) for m in service.sent() if SWEDEN in str(m["To"])
                and "Adjudicated: 1700-autumn-actions-sweden" in text_of(m)]
    happened = report.split("--- 1700-autumn-actions-sweden ---", 1)[1].split("\n\n", 1)[0]
    assert "Ingermanland" in happened  # the phase closed with Sweden's reconnaissance
    engine.dispose()
