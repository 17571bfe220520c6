"""A player can never order, act, read press or get a report for another power."""

from __future__ import annotations

from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import OrderSet, Seat
from gm.service.context import ServiceContext
from tests.e2e.corpus_game import Snapshot, outbound_rows
from tests.games.baltica.test_by_mail import UNSEEN_BY_SWEDEN
from tests.security.conftest import ANNA, BORIS, COALITION, SWEDEN, mails_to, send


def coalition_rows(ctx: ServiceContext) -> list[OrderSet]:
    with session_scope(ctx.engine) as s:
        return list(s.exec(select(OrderSet).where(OrderSet.power == "coalition")).all())


def test_orders_for_another_power_are_refused_whatever_the_spelling(game: ServiceContext) -> None:
    for body in (SWEDEN + "FOR coalition\nrecon Livland\n",
                 SWEDEN + "POUR Coalition\nrecon Livland\n",
                 "GAME baltica42\nPOWER coalition hunter2\nrecon Livland\n",
                 SWEDEN + "POWER coalition\nrecon Livland\n"):
        before = Snapshot.take(game)
        send(game, body)
        assert Snapshot.take(game).orders == before.orders, body
    assert coalition_rows(game) == []


def test_for_another_power_never_reaches_its_report_history_flags_or_press(game: ServiceContext) -> None:
    """FOR switches whom the following lines are for; for a player only to a power it holds."""
    before = len(outbound_rows(game))
    reply = send(game, SWEDEN + "FOR coalition\nSTATUS\nHISTORY\nREADY\nNO WAIT\n"
                 "PRESS TO sweden\nsigned by the tsar\nENDPRESS\n")
    assert "you may not act for coalition" in reply
    new = outbound_rows(game)[before:]
    assert [m.kind for m in new] == ["reply"], [(m.kind, m.subject) for m in new]
    assert coalition_rows(game) == []  # no READY / NO WAIT version for the Coalition
    for _subject, text in mails_to(game, ANNA):
        for name in UNSEEN_BY_SWEDEN:
            assert name not in text


def test_status_and_history_give_only_the_own_report(game: ServiceContext) -> None:
    reply = send(game, SWEDEN + "STATUS\nHISTORY\n")
    said = reply.lower()  # the report names the power as the players write it: "Sweden"
    assert "report for sweden" in said and "report for coalition" not in said  # STATUS
    assert "report for the coalition" not in said
    reports = mails_to(game, ANNA, kind="report")  # HISTORY
    assert len(reports) == 1 and all("for coalition" not in s for s, _ in reports)
    for _s, text in [*reports, ("", reply)]:
        for name in UNSEEN_BY_SWEDEN:
            assert name not in text


def test_press_reaches_only_the_powers_it_is_addressed_to(game: ServiceContext) -> None:
    send(game, COALITION + "PRESS TO moderator\nfor the moderator only\nENDPRESS\n", sender=BORIS)
    send(game, SWEDEN + "PRESS TO coalition\nhello tsar\nENDPRESS\n")
    assert not [t for _, t in mails_to(game, ANNA) if "for the moderator only" in t]
    [(_s, text)] = mails_to(game, BORIS, kind="press")
    assert "Press from Sweden to the Coalition:" in text and "hello tsar" in text and ANNA not in text


def test_a_player_cannot_change_another_seats_address_or_password(game: ServiceContext) -> None:
    with session_scope(game.engine) as s:
        before = {r.power: (r.address, r.password_hash) for r in s.exec(select(Seat))}
    send(game, SWEDEN + "FOR coalition\nSET ADDRESS evil@example.com\nPASSWORD stolen1\n")
    with session_scope(game.engine) as s:
        after = {r.power: (r.address, r.password_hash) for r in s.exec(select(Seat))}
    assert after["coalition"] == before["coalition"]
    assert send(game, COALITION + "STATUS\n", sender=BORIS)  # the Coalition still signs on
    assert "NOT ACCEPTED" not in send(game, COALITION + "STATUS\n", sender=BORIS)
