"""The order parsers built at the daemon's start, not on the first mail (issue 21).

A new process builds the envelope's parser and each game's order parsers (Lark LALR tables)
on first use: the first Pax Baltica mail after a start took 0.4 s more than the next. The
daemon builds them in its warm-up (gm.pipeline.parsewarm). What a host would check: the
first order mails after the warm-up are read and answered as usual and build no parser;
without the warm-up, the same mails build them (so the count below sees builds). Each run
is a fresh process: this test process has long built every parser.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
from typing import Any

import pytest

from gm.db.engine import session_scope
from gm.games.baltica.module import BalticaModule
from gm.pipeline import parsewarm
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game, current_phase, phase_info
from tests.pipeline.conftest import outbox
from tests.present.support import BALTICA_SEATS, new_baltica

FIRST_MAILS = """
import json, sys
import lark
from gm.clock import FakeClock
from gm.db.engine import make_engine
from gm.pipeline import parsewarm
from gm.service.context import ServiceContext
from tests.pipeline.conftest import deliver, mail

url, warm, mails = sys.argv[1], sys.argv[2] == "warm", json.loads(sys.argv[3])
ctx = ServiceContext(engine=make_engine(url), clock=FakeClock(), instance="first",
                     settings={"address": "gm@example.org"})
warmed = parsewarm.warm_up(ctx) if warm else 0
built = []
init = lark.Lark.__init__
def counted(self, *args, **kwargs):
    built.append(type(self).__name__)
    init(self, *args, **kwargs)
lark.Lark.__init__ = counted
for sender, body in mails:
    deliver(ctx, mail(body, sender=sender))
print(json.dumps({"warmed": warmed, "built": len(built)}))
"""

PAX_POWERS = ("britain", "france", "germany", "italy", "japan", "russia", "usa")


def games(ctx: ServiceContext) -> list[tuple[str, str]]:
    """A Pax Baltica game in its first actions phase and a Pax Britannica game in its first
    Movement phase; an order mail from a power that owes orders in each (sender, body)."""
    new_baltica(ctx, "b1")
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pax1", module_name="britannica", scenario="1880",
                    seats=[SeatSpec(p, f"{p}@example.org", password=f"{p}-pw") for p in PAX_POWERS],
                    moderator_address="mod@example.org", moderator_password="mod-pw",
                    seed=b"\x05" * 32, play_out=True)
        owing = phase_info(current_phase(s, "b1")).owing
    seat = next(seat for seat in BALTICA_SEATS if seat.power in owing)
    return [(seat.address, f"GAME b1\nPOWER {seat.power} {seat.password}\nrecon Livland\n"),
            ("germany@example.org", "GAME pax1\nPOWER germany germany-pw\nbuy army 1\n")]


def first_mails(ctx: ServiceContext, warm: bool, mails: list[tuple[str, str]]) -> dict[str, Any]:
    url = ctx.engine.url.render_as_string(hide_password=False)
    done = subprocess.run([sys.executable, "-c", FIRST_MAILS, url, "warm" if warm else "cold",
                           json.dumps(mails)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_the_first_order_mails_after_the_warm_up_build_no_parser(ctx: ServiceContext) -> None:
    mails = games(ctx)
    warmed = first_mails(ctx, True, mails)
    assert warmed == {"warmed": 2, "built": 0}, "both games' parsers built before the first mail"
    replies = outbox(ctx, kind="reply")
    assert len(replies) == 2
    for (_, text), order in zip(replies, ("recon Livland", "buy army 1"), strict=True):
        assert re.search(rf"\bOK\s+{order}\b", text), text  # each order read and accepted


def test_without_the_warm_up_the_first_order_mails_build_the_parsers(ctx: ServiceContext) -> None:
    cold = first_mails(ctx, False, games(ctx))
    assert cold["warmed"] == 0
    assert cold["built"] >= 3, "the envelope's and each game's parsers, built by the mails"


def test_a_module_whose_parsers_fail_is_passed_over_and_told_once(
        ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    games(ctx)
    new_baltica(ctx, "b2")  # a second game of the failing module: told once, not twice

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("grammar file unreadable")
    monkeypatch.setattr(BalticaModule, "parse_orders", broken)
    with caplog.at_level(logging.WARNING, logger="gm.pipeline.parsewarm"):
        assert parsewarm.warm_up(ctx) == 1, "Pax Britannica's parsers built all the same"
    told = [r for r in caplog.records if "not built ahead" in r.getMessage()]
    assert len(told) == 1 and "baltica" in told[0].getMessage()
