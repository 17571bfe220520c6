"""Real report mails are written without the email package (gm.mail.compose._parts_bytes,
issue 21) and must have exactly the bytes the email package writes: every mail queued while
real games are played (Pax Baltica and Pax Britannica, English and French seats, the
moderator's report, an observer's public report, the final reports with their history) is
built both ways and compared."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from bench import realgames as rg
from gm.db.engine import session_scope
from gm.mail import compose
from gm.service import outbox
from gm.service.adjudicate import close_phase
from gm.service.games import SeatSpec, create_game, current_phase, get_game
from gm.service.orders import submit_orders
from tests.service.test_game_flow import lines
from tests.support import toygame  # noqa: F401  (registers "race")

COMPARED: list[tuple[str, bool]] = []  # (the subject, whether it was written without the email package)


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, bool]]]:
    """Every mail queued is built both ways (as queued, and by the email package); a
    difference fails at once."""
    build = compose.build_message
    direct = compose._parts_bytes
    package = compose._email_package_bytes
    COMPARED.clear()

    def both(**kw: Any) -> bytes:
        taken: list[bool] = []

        def spy(*a: Any) -> bytes:
            taken.append(True)
            return package(*a)

        monkeypatch.setattr(compose, "_email_package_bytes", spy)
        fast = build(**kw)
        monkeypatch.setattr(compose, "_email_package_bytes", package)
        monkeypatch.setattr(compose, "_parts_bytes", lambda *a: None)
        slow = build(**kw)
        monkeypatch.setattr(compose, "_parts_bytes", direct)
        assert fast == slow, kw["subject"]
        COMPARED.append((kw["subject"], not taken))
        return fast

    monkeypatch.setattr(outbox, "build_message", both)
    yield COMPARED


def reports(compared: list[tuple[str, bool]]) -> list[str]:
    """The subjects of the report mails that were written directly."""
    return [s for s, direct in compared if direct and ": report for " in s]


def test_baltica_reports_in_english_and_french_have_the_email_packages_bytes(ctx, compared) -> None:  # type: ignore[no-untyped-def]
    rg.new_baltica(ctx, "b1")
    for raw in rg.baltica_mails(ctx, ["b1"], 2):
        rg.deliver(ctx, raw)
    with session_scope(ctx.engine) as s:
        seq = current_phase(s, "b1").seq
    ctx.clock.advance(timedelta(days=3))
    assert close_phase(ctx, "b1", seq, by="test", reason="deadline").closed
    done = reports(compared)
    # the first reports, then Sweden's, the Coalition's (French) and the moderator's
    for who in ("sweden", "coalition", "moderator"):
        assert sum(f"report for {who}" in s for s in done) >= 2, (who, done)


def test_britannica_reports_have_the_email_packages_bytes(ctx, compared) -> None:  # type: ignore[no-untyped-def]
    rg.new_britannica(ctx, "p1")
    for raw in rg.britannica_mails(ctx, ["p1"], 7):
        rg.deliver(ctx, raw)
    with session_scope(ctx.engine) as s:
        seq = current_phase(s, "p1").seq
    ctx.clock.advance(timedelta(days=3))
    before = len(reports(compared))
    assert close_phase(ctx, "p1", seq, by="test", reason="deadline").closed
    assert len(reports(compared)) - before >= 8  # seven seats and the moderator


def test_final_reports_with_their_history_and_an_observers_report_have_the_same_bytes(ctx, compared) -> None:  # type: ignore[no-untyped-def]
    seats = [SeatSpec("north", "n@example.org", password="n-secret"),
             SeatSpec("south", "s@example.org", password="s-secret", language="fr",
                      timezone="Europe/Paris")]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="race1", module_name="race", scenario="duel", seats=seats,
                    moderator_address="mod@example.org", seed=b"\x01" * 32,
                    settings={"observers": ["watcher@example.org"]})
    for _ in range(40):
        with session_scope(ctx.engine) as s:
            phase = current_phase(s, "race1")
            if phase.state == "ended":
                break
            submit_orders(ctx, s, get_game(s, "race1"), "north", lines("advance 3"))
        ctx.clock.advance(timedelta(hours=1))
        assert close_phase(ctx, "race1", phase.seq, by="test").closed
    assert phase.state == "ended"
    assert [s for s, _ in compared if "public report" in s]
    final = [s for s, direct in compared if direct and s.startswith(f"[race1] {phase.phase_id}:")]
    assert len(final) == 4, final  # north, south, the moderator, the observer
