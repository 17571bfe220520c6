"""Nothing lost, nothing done twice: guards that fail when their guarantee goes (each was
found missing by breaking gm/ on purpose): the conflict clause of a mail's insert, the
claim of a mail's row, and the flag that only follows a commit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, col, func, select

import gm.pipeline.handle
import gm.pipeline.ingest
from gm.daemon import process_round
from gm.db.engine import session_scope
from gm.db.models import EventLog, InboundMail, OrderSet, OutboundMail
from gm.mail.types import FetchedMail
from gm.pipeline.claim import Claimed
from gm.pipeline.handle import handle_inbound
from gm.pipeline.ingest import store_all, store_inbound
from gm.service.context import ServiceContext
from tests.pipeline.conftest import deliver, mail
from tests.pipeline.test_round import Mailbox, fetched


def traces(ctx: ServiceContext, inbound_id: int) -> tuple[object, ...]:
    """All that handling mail ``inbound_id`` leaves: its row, the mails queued, the orders, the events."""
    with session_scope(ctx.engine) as s:
        row = s.get(InboundMail, inbound_id)
        assert row is not None
        counts = [s.exec(select(func.count()).select_from(m)).one() for m in (OutboundMail, OrderSet, EventLog)]
        return (row.status, row.note, row.handled_at, row.raw, *counts)


def test_a_handled_mail_handled_again_changes_nothing(race: ServiceContext) -> None:
    """The claim of a mail's row: one no longer new is not handled again (no mail, no note, no order)."""
    inbound_id = deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 2\n"))
    before = traces(race, inbound_id)
    race.clock.advance(timedelta(minutes=5))  # type: ignore[attr-defined]
    handle_inbound(race, inbound_id)  # fetched again, or another instance came second
    assert traces(race, inbound_id) == before


def test_a_mail_stored_by_another_instance_after_the_look_up_is_found_by_the_insert(
        race: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """ON CONFLICT DO NOTHING: a racing insert leaves the chunk's one transaction whole, the mail stored once."""
    mails = fetched()
    other = store_inbound(race, mails[1])  # the other instance's, committed after this one looked
    real = gm.pipeline.ingest._seen
    looked: list[int | None] = []

    def late(session: Session, f: FetchedMail, key: str | None, message_id: str) -> tuple[int, str] | None:
        looked.append(f.uid)
        return None if looked.count(f.uid) == 1 else real(session, f, key, message_id)

    monkeypatch.setattr(gm.pipeline.ingest, "_seen", late)
    commits: list[int] = []

    def on_commit(_conn: object) -> None:
        commits.append(1)

    event.listen(race.engine, "commit", on_commit)
    try:
        rows = store_all(race, mails)
    finally:
        event.remove(race.engine, "commit", on_commit)
    assert [(r.new, r.inbound_id == other.inbound_id) for r in rows] == \
        [(True, False), (False, True), (True, False)]
    assert len(commits) == 1  # not failed and stored again mail by mail
    with session_scope(race.engine) as s:
        assert len(s.exec(select(InboundMail)).all()) == 3


def test_a_mail_whose_commit_the_lost_database_cut_off_is_not_flagged(
        race: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """Flag only after commit: the mails committed before the database went away are flagged, not the one it cut off."""
    real = gm.pipeline.handle.record

    def lost(session: Session, row: Claimed) -> None:
        if row.id == 2:
            raise OperationalError("UPDATE inboundmail", {}, Exception("server closed the connection"))
        real(session, row)

    monkeypatch.setattr(gm.pipeline.handle, "record", lost)
    box = Mailbox(race)
    with pytest.raises(OperationalError):
        process_round(race, box, fetched())
    assert box.calls == [[1]] and box.status_when_flagged == ["handled"]
    with session_scope(race.engine) as s:
        assert [r.status for r in s.exec(select(InboundMail).order_by(col(InboundMail.uid)))] == \
            ["handled", "new", "new"]  # handled when fetched again
