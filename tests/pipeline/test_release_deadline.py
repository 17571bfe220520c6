"""RELEASE of a preview: the released reports name the deadline gm applies.

With ``preview = true`` the players' reports wait for the moderator, and RELEASE starts
the phase's clock: the deadline counts from the release (docs/orders.md). The reports
were written at the close; before this, each went out naming the deadline counted from
the close (earlier than the real one) in its text, HTML and deadline.ics, and a separate
new-deadline notice followed. Now each released report names the release's deadline, in
its reader's language and zone, and says everything else it said at the close.
"""

from __future__ import annotations

import email
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.policy import default
from typing import Any

from sqlmodel import col, select

from gm.db.engine import session_scope
from gm.db.models import HeldReport, OutboundMail, Report
from gm.service.render import fmt_time
from tests.pipeline.conftest import deliver, mail, outbox
from tests.pipeline.test_judge_habits import _press_settings
from tests.pipeline.test_moderator_powers import MOD, NORTH, SOUTH, deadline, moderate

PLAYERS = ((NORTH, "north", "en", "UTC"), (SOUTH, "south", "fr", "Europe/Paris"))


def parts(raw: bytes) -> dict[str, str]:
    """A mail's text, HTML and calendar file, decoded."""
    msg = email.message_from_bytes(raw, policy=default)
    assert isinstance(msg, EmailMessage)
    out: dict[str, str] = {}
    for part in msg.walk():
        kind = part.get_content_type()
        if kind in ("text/plain", "text/html", "text/calendar") and kind not in out:
            out[kind] = str(part.get_content())
    return out


def said(at: datetime, language: str, zone: str) -> list[str]:
    """How a report writes the deadline ``at``: in UTC, then in the reader's own zone."""
    return [fmt_time(at, "UTC", language)] + ([fmt_time(at, zone, language)] if zone != "UTC"
                                             else [])


def stamp(at: datetime) -> str:
    return at.strftime("%Y%m%dT%H%M%SZ")


def last_id(ctx: Any) -> int:
    return max(row.id or 0 for row, _ in outbox(ctx))


def notices_since(ctx: Any, address: str, since: int) -> list[str]:
    """The notices queued to ``address`` after the mail numbered ``since``."""
    return [text for row, text in outbox(ctx, kind="notice", to=address) if (row.id or 0) > since]


def report_of(ctx: Any, address: str) -> OutboundMail:
    rows = [row for row, _ in outbox(ctx, kind="report", to=address)]
    return rows[-1]


def preview_closed(ctx: Any) -> None:
    """A preview game with a ruling, press held until the results and orders, closed."""
    _press_settings(ctx, preview=True, press_held=True)
    moderate(ctx, "RULING North may take the ford\n")
    deliver(ctx, mail("GAME race1\nPOWER north n-secret\nadvance 3\nPRESS TO south\n"
                      "Meet me at the ford.\nENDPRESS\n"))
    deliver(ctx, mail("GAME race1\nPOWER south s-secret\navancer 2\n", sender=SOUTH))
    moderate(ctx, "ADJUDICATE NOW\n")


def test_released_reports_name_the_deadline_counted_from_the_release(race: Any) -> None:
    preview_closed(race)
    at_close = deadline(race)
    held = {address: report_of(race, address) for address, *_ in PLAYERS}
    assert {row.status for row in held.values()} == {"held"}
    before = {address: parts(row.raw) for address, row in held.items()}
    race.clock.advance(timedelta(days=3))  # the moderator's review outlasts the phase
    since = last_id(race)
    assert "OK  RELEASE" in moderate(race, "RELEASE: checked\n")
    new = deadline(race)
    assert new == race.clock.now() + timedelta(days=2) and new > at_close + timedelta(days=2)

    for address, power, language, zone in PLAYERS:
        row = report_of(race, address)
        assert row.message_id == held[address].message_id and row.status == "queued"
        after, was = parts(row.raw), before[address]
        old_words, new_words = said(at_close, language, zone), said(new, language, zone)
        for kind in ("text/plain", "text/html"):
            for old, now in zip(old_words, new_words, strict=True):
                assert old in was[kind] and old not in after[kind], (address, kind, old)
                assert now in after[kind], (address, kind, now)
            expected = was[kind]
            for old, now in zip(old_words, new_words, strict=True):
                expected = expected.replace(old, now)
            assert after[kind] == expected, (address, kind)  # nothing else changed
        assert "North may take the ford" in after["text/plain"]
        assert "North may take the ford" in after["text/html"]
        ics = after["text/calendar"]
        assert f"DTEND:{stamp(new)}" in ics and f"DTEND:{stamp(at_close)}" not in ics
        unfolded = ics.replace("\r\n ", "").replace("\\,", ",")  # RFC 5545 folding, escapes
        assert fmt_time(new, "UTC", language) in unfolded
        uid = next(line for line in ics.splitlines() if line.startswith("UID:"))
        assert uid in was["text/calendar"]  # the same event, now at the real deadline
        assert notices_since(race, address, since) == []  # no second mail to say it again
        with session_scope(race.engine) as s:  # HISTORY gives the report as it was sent
            stored = s.exec(select(Report).where(Report.game_id == "race1",
                                                 Report.power == power)
                            .order_by(col(Report.phase_seq).desc())).first()
            assert stored is not None and new_words[0] in stored.text
            assert old_words[0] not in stored.text
    assert [row.status for row, _ in outbox(race, kind="press")] == ["queued"]
    assert "Meet me at the ford." in outbox(race, kind="press", to=SOUTH)[-1][1]
    with session_scope(race.engine) as s:
        assert s.exec(select(HeldReport)).all() == []  # nothing kept after the release


def test_a_seat_whose_report_was_not_rewritten_is_told_the_new_deadline(race: Any) -> None:
    """A held report whose context was not kept goes out as written; its player gets the
    new-deadline notice, the other player none."""
    preview_closed(race)
    with session_scope(race.engine) as s:
        north = report_of(race, NORTH).message_id
        for kept in s.exec(select(HeldReport).where(HeldReport.message_id == north)):
            s.delete(kept)
    race.clock.advance(timedelta(days=3))
    since = last_id(race)
    moderate(race, "RELEASE\n")
    new = deadline(race)
    assert notices_since(race, SOUTH, since) == []
    [told] = notices_since(race, NORTH, since)
    assert fmt_time(new, "UTC", "en") in told
    assert fmt_time(new, "UTC", "fr") in outbox(race, kind="report", to=SOUTH)[-1][1]
    assert notices_since(race, MOD, since) == []


def test_a_pax_baltica_report_and_its_map_name_the_release_s_deadline(ctx: Any) -> None:
    """A real game's report (its own body, the map's words drawn under it): after RELEASE,
    the French seat's text, HTML, map and calendar file name the release's deadline in its
    zone, and the rest of the report is what the close wrote."""
    from gm.maps.source import MAP_SOURCE_NAME, MapSource
    from gm.service.adjudicate import close_phase
    from gm.service.games import SeatSpec, create_game, current_phase

    coalition = "boris@example.ru"
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="b1", module_name="baltica", scenario="12.1",
                    seats=[SeatSpec("sweden", "anna@example.se", password="sw-pw"),
                           SeatSpec("coalition", coalition, password="co-pw", language="fr",
                                    timezone="Europe/Moscow")],
                    moderator_address=MOD, moderator_password="mod-pw", seed=b"\x42" * 32,
                    settings={"preview": True})
        seq = current_phase(s, "b1").seq
    deliver(ctx, mail("GAME b1\nMODERATOR mod-pw\nDICE 5 2\n", sender=MOD))
    assert close_phase(ctx, "b1", seq, by="test").closed
    with session_scope(ctx.engine) as s:
        at_close = current_phase(s, "b1").deadline
    assert at_close is not None
    held = report_of(ctx, coalition)
    assert held.status == "held"
    ctx.clock.advance(timedelta(days=5))
    deliver(ctx, mail("GAME b1\nMODERATOR mod-pw\nRELEASE\n", sender=MOD))
    with session_scope(ctx.engine) as s:
        new = current_phase(s, "b1").deadline
    assert new is not None and new > at_close
    row = report_of(ctx, coalition)
    assert row.message_id == held.message_id and row.status == "queued"

    def map_subtitle(raw: bytes) -> str:
        msg = email.message_from_bytes(raw, policy=default)
        [source] = [p for p in msg.walk() if p.get_filename() == MAP_SOURCE_NAME]
        payload = source.get_payload(decode=True)
        assert isinstance(payload, bytes)
        return MapSource.from_bytes(payload).words["subtitle"]

    old_words, new_words = said(at_close, "fr", "Europe/Moscow"), said(new, "fr", "Europe/Moscow")
    assert old_words[1] in map_subtitle(held.raw)
    assert new_words[1] in map_subtitle(row.raw) and old_words[1] not in map_subtitle(row.raw)
    was, after = parts(held.raw), parts(row.raw)
    for kind in ("text/plain", "text/html"):
        expected = was[kind]
        for old, now in zip(old_words, new_words, strict=True):
            assert old in expected
            expected = expected.replace(old, now)
        assert after[kind] == expected, kind
    assert f"DTEND:{stamp(new)}" in after["text/calendar"]
