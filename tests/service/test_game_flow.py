"""A game from creation to its end through the service layer, on a real database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import EventLog, OrderSet, OutboundMail, Phase, Seat
from gm.mail.mime import decode
from gm.orders.model import SourceLine
from gm.service.adjudicate import close_phase
from gm.service.errors import Conflict
from gm.service.games import SeatSpec, create_game, current_phase, get_game
from gm.service.orders import submit_orders
from gm.service.passwords import check_password
from gm.verify import verify_replay
from tests.support import toygame  # noqa: F401  (registers "race")

SEATS = [SeatSpec("north", "n@example.org", password="n-secret"),
         SeatSpec("south", "s@example.org", password="s-secret")]


def new_race(ctx, game_id="race1", seed=b"\x01" * 32, **settings):  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        return create_game(ctx, s, game_id=game_id, module_name="race", scenario="duel",
                           seats=SEATS, moderator_address="mod@example.org", seed=seed,
                           settings=settings)


def lines(*texts: str) -> list[SourceLine]:
    return [SourceLine(i + 1, t) for i, t in enumerate(texts)]


def test_create_game_opens_first_phase_and_hashes_passwords(ctx) -> None:  # type: ignore[no-untyped-def]
    made = new_race(ctx)
    assert made.passwords == {"north": "n-secret", "south": "s-secret"}
    with session_scope(ctx.engine) as s:
        phase = current_phase(s, "race1")
        assert (phase.phase_id, phase.state) == ("turn-1", "open")
        assert phase.deadline is not None and phase.deadline > ctx.clock.now()
        seat = s.exec(select(Seat).where(Seat.power == "north")).one()
        assert "n-secret" not in seat.password_hash
        assert check_password("n-secret", seat.password_hash)
        assert not check_password("s-secret", seat.password_hash)


def test_duplicate_game_id_is_refused_and_changes_nothing(ctx) -> None:  # type: ignore[no-untyped-def]
    new_race(ctx)
    with pytest.raises(Conflict):
        new_race(ctx)
    with session_scope(ctx.engine) as s:
        assert len(s.exec(select(Phase)).all()) == 1


def test_orders_replace_earlier_ones_unless_add(ctx) -> None:  # type: ignore[no-untyped-def]
    new_race(ctx)
    with session_scope(ctx.engine) as s:
        game = get_game(s, "race1")
        submit_orders(ctx, s, game, "north", lines("advance 2"))
        submit_orders(ctx, s, game, "north", lines("advance 3"))
        submit_orders(ctx, s, game, "north", lines("advance 1"), add=True)
        sub = submit_orders(ctx, s, game, "north", lines("advance 9"), check=True)
        assert sub.stored is None and sub.refused
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(OrderSet).where(OrderSet.power == "north")).all()
        assert [r.version for r in rows] == [1, 2, 3]
        current = [r for r in rows if r.current]
        assert [r.text for r in current] == ["advance 3\nadvance 1"]


def test_adjudication_applies_defaults_and_runs_once(ctx) -> None:  # type: ignore[no-untyped-def]
    new_race(ctx)
    with session_scope(ctx.engine) as s:
        submit_orders(ctx, s, get_game(s, "race1"), "north", lines("advance 3"))
    first = close_phase(ctx, "race1", 0, by="test")
    again = close_phase(ctx, "race1", 0, by="test")
    assert first.closed and first.defaulted == ("south",) and first.next_phase_id == "turn-2"
    assert not again.closed
    with session_scope(ctx.engine) as s:
        rolls = s.exec(select(EventLog).where(EventLog.type == "roll")).all()
        assert len(rolls) == 2
        default = s.exec(select(OrderSet).where(OrderSet.source == "default")).one()
        assert (default.power, default.text) == ("south", "advance 1")
        reports = s.exec(select(OutboundMail).where(OutboundMail.kind == "report")).all()
        # the first reports at creation and one per seat plus the moderator's now
        assert len(reports) == 2 + 3


def test_report_shows_own_roll_but_not_the_rivals_position(ctx) -> None:  # type: ignore[no-untyped-def]
    new_race(ctx)
    close_phase(ctx, "race1", 0, by="test")
    with session_scope(ctx.engine) as s:
        state = current_phase(s, "race1").game_state
        north_mail = s.exec(select(OutboundMail).where(
            OutboundMail.subject.contains("turn-2: report for north"))).one()  # type: ignore[attr-defined]
        text = decode(north_mail.raw).text
        assert "==== gm report race1 turn-2 ====" in text
        assert "north runs" in text and "south runs" not in text
        assert f"position: {state['position']['north']}" in text
        assert "s-secret" not in text and "n-secret" not in text


def test_game_runs_to_its_end_and_replays_identically(ctx) -> None:  # type: ignore[no-untyped-def]
    new_race(ctx)
    seq = 0
    while True:
        with session_scope(ctx.engine) as s:
            phase = current_phase(s, "race1")
            if phase.state == "ended":
                break
            submit_orders(ctx, s, get_game(s, "race1"), "north", lines("advance 3"))
        ctx.clock.advance(timedelta(hours=1))
        assert close_phase(ctx, "race1", phase.seq, by="test").closed
        seq += 1
        assert seq < 40
    with session_scope(ctx.engine) as s:
        game = get_game(s, "race1")
        assert game.status == "ended"
        assert verify_replay(s, game.id) == []
        # tamper with one logged roll: the replay must notice
        roll = s.exec(select(EventLog).where(EventLog.type == "roll")).first()
        roll.data = {**roll.data, "value": roll.data["value"] % 6 + 1}
        s.add(roll)
    with session_scope(ctx.engine) as s:
        assert verify_replay(s, "race1") != []


def test_orders_for_a_power_not_in_the_phase_are_refused(ctx) -> None:  # type: ignore[no-untyped-def]
    new_race(ctx)
    with session_scope(ctx.engine) as s, pytest.raises(Conflict):
        submit_orders(ctx, s, get_game(s, "race1"), "east", lines("advance 1"))


def test_preview_holds_player_reports_until_the_moderator_releases_them(ctx) -> None:  # type: ignore[no-untyped-def]
    from gm.service.moderator import release

    new_race(ctx, preview=True)
    assert close_phase(ctx, "race1", 0, by="test").closed
    with session_scope(ctx.engine) as s:
        turn2 = s.exec(select(OutboundMail).where(
            OutboundMail.subject.contains("turn-2"))).all()  # type: ignore[attr-defined]
        held = {m.recipients[0] for m in turn2 if m.status == "held"}
        queued = {m.recipients[0] for m in turn2 if m.status == "queued"}
        assert held == {"n@example.org", "s@example.org"} and queued == {"mod@example.org"}
        assert not current_phase(s, "race1").released
    with session_scope(ctx.engine) as s:
        assert release(ctx, s, get_game(s, "race1"), actor="mod") == 2
    with session_scope(ctx.engine) as s:
        statuses = {m.status for m in s.exec(select(OutboundMail).where(
            OutboundMail.subject.contains("turn-2"))).all()}  # type: ignore[attr-defined]
        assert statuses == {"queued"} and current_phase(s, "race1").released
