"""Real map sources: the reports of a Pax Baltica game played two phases (Sweden's in
English, the Coalition's in French, the moderator's), as the outbox drain would draw them."""

from __future__ import annotations

import email
from email.policy import default
from pathlib import Path

import pytest
from sqlmodel import col, select

from gm.clock import FakeClock
from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.migrate import upgrade
from gm.db.models import OutboundMail
from gm.maps.source import MAP_SOURCE_NAME, MapSource
from gm.service.context import ServiceContext
from tests.present.support import SWEDISH_ORDERS, new_baltica, play


@pytest.fixture(scope="session")
def baltica_reports(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """Every report mail of a 12.1 game after two closes, as queued (maps not drawn)."""
    engine = make_engine(sqlite_url(Path(tmp_path_factory.mktemp("maps")) / "gm.db"))
    upgrade(engine)
    ctx = ServiceContext(engine=engine, clock=FakeClock(), instance="test",
                         settings={"address": "gm@example.org", "moderator_address": "mod@example.org"})
    new_baltica(ctx, "m1")
    play(ctx, "m1", 2, {"sweden": SWEDISH_ORDERS})
    with session_scope(engine) as s:
        raws = [row.raw for row in s.exec(select(OutboundMail).where(OutboundMail.kind == "report")
                                          .order_by(col(OutboundMail.id)))]
    engine.dispose()
    return raws


@pytest.fixture(scope="session")
def baltica_sources(baltica_reports: list[bytes]) -> list[MapSource]:
    """Every report map source of a 12.1 game after two closes (en and fr)."""
    out = []
    for raw in baltica_reports:
        for part in email.message_from_bytes(raw, policy=default).walk():
            if part.get_filename() == MAP_SOURCE_NAME:
                out.append(MapSource.from_bytes(part.get_payload(decode=True)))
    languages = {"fr" if "Suède" in s.words.values() else "en" for s in out}
    assert languages == {"en", "fr"} and len(out) >= 6, (languages, len(out))
    return out

