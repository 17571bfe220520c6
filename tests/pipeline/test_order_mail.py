"""Order mail end to end through the pipeline (orders.md §1-2), on a real database."""

from __future__ import annotations

from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import InboundMail, OrderSet, Phase, SignonFailure
from tests.pipeline.conftest import deliver, mail, outbox


def stored_orders(ctx, power: str) -> list[str]:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(OrderSet).where(OrderSet.power == power, OrderSet.current == True)).all()  # noqa: E712
        return [r.text for r in rows]


def test_orders_are_stored_and_echoed_with_line_numbers(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("Hi Boris, my orders below.\n\nGAME race1\nPOWER north n-secret\n"
                       "1. ADVANCE   2\nthanks\n-- \nNorth\n"))
    assert stored_orders(race, "north") == ["advance 2"]
    [(row, text)] = outbox(race, kind="reply")
    assert row.recipients == ["north@example.org"]
    assert text.startswith("==== gm reply race1 turn-1 ====")
    assert "5  OK  advance 2" in text
    assert "thanks (ignored)" in text
    assert "Deadline:" in text


def test_reply_threads_under_the_players_mail(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 1\n", message_id="<m1@player.example>"))
    [(row, _)] = outbox(race, kind="reply")
    assert row.in_reply_to == "<m1@player.example>"
    assert b"Auto-Submitted: auto-generated" in row.raw and b"X-GM-Game: race1" in row.raw


def test_wrong_password_rejects_and_warns_the_owner_without_the_orders(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER north guess\nadvance 3\n", sender="mallory@evil.example"))
    assert stored_orders(race, "north") == []
    [(reply, text)] = outbox(race, kind="reply")
    assert reply.recipients == ["mallory@evil.example"]
    assert "wrong password" in text
    [(warning, wtext)] = outbox(race, kind="warning")
    assert warning.recipients == ["north@example.org"]
    assert "mallory@evil.example" in wtext and "advance 3" not in wtext
    with session_scope(race.engine) as s:
        assert len(s.exec(select(SignonFailure)).all()) == 1


def test_sign_on_is_rate_limited_per_address(race) -> None:  # type: ignore[no-untyped-def]
    for i in range(6):
        deliver(race, mail(f"GAME race1\nPOWER north guess{i}\n", sender="mallory@evil.example"))
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 2\n", sender="mallory@evil.example"))
    assert stored_orders(race, "north") == []
    assert "too many failed sign-ons" in outbox(race, kind="reply")[-1][1]


def test_guesses_from_strangers_never_lock_the_seat_owner_out(race) -> None:  # type: ignore[no-untyped-def]
    """Five wrong guesses as north from five addresses block sign-ons as north from
    anywhere else for an hour, but not from north's own address."""
    for i in range(5):
        deliver(race, mail(f"GAME race1\nPOWER north guess{i}\n", sender=f"bot{i}@evil.example"))
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 1\n", sender="bot9@evil.example"))
    assert "too many failed sign-ons" in outbox(race, kind="reply")[-1][1]
    assert stored_orders(race, "north") == []
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 2\n", sender="north@example.org"))
    assert "OK  advance 2" in outbox(race, kind="reply")[-1][1]
    assert stored_orders(race, "north") == ["advance 2"]


def test_another_powers_password_does_not_order_for_it(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER north s-secret\nadvance 3\n"))
    assert stored_orders(race, "north") == [] and stored_orders(race, "south") == []


def test_duplicate_message_is_answered_once(race) -> None:  # type: ignore[no-untyped-def]
    raw = mail("GAME race1\nPOWER north n-secret\nadvance 2\n", message_id="<dup@player.example>")
    first, second = deliver(race, raw), deliver(race, raw)
    assert first == second
    assert len(outbox(race, kind="reply")) == 1
    with session_scope(race.engine) as s:
        assert len(s.exec(select(InboundMail)).all()) == 1


def test_auto_reply_is_stored_and_never_answered(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("I am on holiday.", subject="Out of office", Auto_Submitted="auto-replied"))
    assert outbox(race, kind="reply") == []
    with session_scope(race.engine) as s:
        row = s.exec(select(InboundMail)).one()
        assert row.status == "ignored" and "auto" in row.note


def test_orders_from_another_address_are_copied_to_the_seat(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 2\n", sender="north-at-work@corp.example"))
    assert stored_orders(race, "north") == ["advance 2"]
    [(copy, text)] = outbox(race, kind="reply-copy")
    assert copy.recipients == ["north@example.org"]
    assert "north-at-work@corp.example" in text and "advance 2" in text


def test_stale_phase_guard_rejects_the_section_and_names_the_phase(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER north n-secret\nPHASE turn-7\nadvance 2\n"))
    assert stored_orders(race, "north") == []
    assert "the phase now open is turn-1" in outbox(race, kind="reply")[0][1]


def test_quoted_report_never_becomes_orders(race) -> None:  # type: ignore[no-untyped-def]
    body = ("GAME race1\nPOWER north n-secret\nadvance 1\n\n"
            "==== gm report race1 turn-1 ====\nadvance 3\n")
    deliver(race, mail(body))
    assert stored_orders(race, "north") == ["advance 1"]


def test_game_line_and_plus_address_must_agree(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 1\n", to="gm+other@example.org"))
    assert stored_orders(race, "north") == []
    assert "which did you mean" in outbox(race, kind="reply")[0][1]


def test_plus_address_names_the_game(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("POWER north n-secret\nadvance 2\n", to="gm+race1@example.org"))
    assert stored_orders(race, "north") == ["advance 2"]


def test_reply_is_in_the_seats_language(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER south s-secret\navancer 2\n", sender="south@example.org"))
    assert stored_orders(race, "south") == ["advance 2"]
    assert "Date limite" in outbox(race, kind="reply")[0][1]


def test_moderator_adjudicate_now_closes_the_phase(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nMODERATOR mod-secret\nADJUDICATE NOW: testing\n",
                       sender="mod@example.org"))
    with session_scope(race.engine) as s:
        states = [p.state for p in s.exec(select(Phase).order_by(Phase.seq)).all()]
    assert states == ["done", "open"]
    assert len(outbox(race, kind="report", to="north@example.org")) == 2  # first report + turn-2


def test_press_is_signed_with_the_power_never_the_address(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER north n-secret\nPRESS TO south\nLet us share the road.\n"
                       "ENDPRESS\n", sender="secret-name@example.org"))
    [(press, text)] = outbox(race, kind="press")
    assert press.recipients == ["south@example.org"]
    assert "Message de la part de : north" in text and "Let us share the road." in text
    assert b"secret-name" not in press.raw
