"""Issue 17, class 7: who gets what, by mail, on the corpus game (Pax Baltica 12.1, Sweden
to act in 1700-autumn-actions-sweden; anna is Sweden, boris the Coalition)."""

from __future__ import annotations

from gm.service.context import ServiceContext
from tests.e2e.corpus_game import (
    GAME,
    MODERATOR,
    MODERATOR_PASSWORD,
    SEATS,
)
from tests.pipeline.conftest import deliver, mail, outbox
from tests.pipeline.test_standing_by_mail import ATTACK, close, phase, send

ANNA, BORIS = SEATS["sweden"][0], SEATS["coalition"][0]



def moderate(ctx: ServiceContext, body: str) -> str:
    deliver(ctx, mail(f"GAME {GAME}\nMODERATOR {MODERATOR_PASSWORD}\n{body}", sender=MODERATOR,
                      to="gm@pbem.example"))
    return outbox(ctx, kind="reply", to=MODERATOR)[-1][1]


def mails_to(ctx: ServiceContext, address: str, since: int = 0) -> list[tuple[str, str]]:
    return [(row.kind, text) for row, text in outbox(ctx)[since:] if address in (row.recipients or [])]


def test_status_is_one_reply_holding_the_report_with_the_actions_rolled(
        game: ServiceContext) -> None:
    before = len(outbox(game))
    reply = send(game, "sweden", "STATUS\n")
    assert [row.kind for row, _ in outbox(game)[before:]] == ["reply"]
    assert "OK  STATUS: your current report follows this reply" in reply
    assert "==== gm report baltica42 1700-autumn-actions-sweden ====" in reply
    assert "Actions left from this turn's roll (3.1): Sweden 3, Coalition 2." in reply


def test_a_password_change_is_answered_to_the_registered_address_only(
        game: ServiceContext) -> None:
    password = SEATS["sweden"][1]
    deliver(game, mail(f"GAME {GAME}\nPOWER sweden {password}\nPASSWORD kestrel-77\n",
                       sender="anna.work@corp.example", to="gm@pbem.example"))
    [(_, stranger)] = mails_to(game, "anna.work@corp.example")
    assert "password changed" not in stranger and "kestrel-77" not in stranger
    assert "answered to the registered address only" in stranger
    notices = [t for k, t in mails_to(game, ANNA) if k == "notice"]
    assert len(notices) == 1 and "changed by a mail from anna.work@corp.example" in notices[0]
    before = len(outbox(game))
    deliver(game, mail(f"GAME {GAME}\nPOWER sweden kestrel-77\nPASSWORD kestrel-78\n",
                       sender=ANNA, to="gm@pbem.example"))
    assert [(k, "password changed" in t) for k, t in mails_to(game, ANNA, before)] == [
        ("reply", True)]


def test_orders_for_a_phase_not_yet_open_name_it_and_when_it_opens(game: ServiceContext) -> None:
    reply = send(game, "coalition", "recon Livland\n")
    assert ("not your action phase: yours, 1700-autumn-actions-coalition, opens when this one "
            "closes (by the deadline below at the latest)") in reply
    assert "Deadline: Wed, Jan 7, 2026, 12:00 UTC" in reply


def test_moderator_acts_are_told_to_every_player_in_their_language(game: ServiceContext) -> None:
    send(game, "coalition", "SET LANGUAGE fr\n")
    before = len(outbox(game))
    moderate(game, "PAUSE\n")
    assert any("The moderator paused game baltica42" in t for _, t in mails_to(game, ANNA, before))
    assert any("Le modérateur a suspendu la partie baltica42" in t
               for _, t in mails_to(game, BORIS, before))
    before = len(outbox(game))
    moderate(game, "RESUME\n")
    assert any("The moderator resumed game baltica42; the deadline of" in t
               for _, t in mails_to(game, ANNA, before))
    assert any("Le modérateur a repris la partie baltica42" in t
               for _, t in mails_to(game, BORIS, before))

    before = len(outbox(game))
    moderate(game, "REPLACE POWER coalition WITH nadia@example.ru\n")
    assert any("Vous ne jouez plus la Coalition" in t for _, t in mails_to(game, BORIS, before))
    assert any("A new player now plays the Coalition in game" in t
               for _, t in mails_to(game, ANNA, before))
    new = mails_to(game, "nadia@example.ru", before)
    assert any(k == "welcome" and "Vous jouez désormais la Coalition" in t for k, t in new)
    assert any(k == "report" for k, _ in new)


def test_a_rollback_is_told_to_everyone_and_followed_by_the_fresh_report(
        game: ServiceContext) -> None:
    send(game, "sweden", ATTACK)
    close(game)
    assert phase(game)[0] == "1700-autumn-actions-coalition"
    before = len(outbox(game))
    moderate(game, "ROLLBACK TO 1700-autumn-actions-sweden: wrong dice\n")
    for address in (ANNA, BORIS):
        got = mails_to(game, address, before)
        kinds = [k for k, _ in got]
        assert "notice" in kinds and kinds.index("notice") < kinds.index("report"), kinds
        assert any("rolled game baltica42 back to 1700-autumn-actions-sweden" in t
                   and "Reason: wrong dice" in t for _, t in got)
        assert any(k == "report" and "==== gm report baltica42 1700-autumn-actions-sweden"
                   in t for k, t in got)


def test_the_battle_phase_report_says_where_the_battles_are_and_what_may_be_ordered(
        game: ServiceContext) -> None:
    send(game, "sweden", ATTACK + "hits prefer Estländska\n")
    close(game)
    before = len(outbox(game))
    close(game)  # the Coalition gave no decision: its battles wait for it
    assert phase(game)[:3:2] == ("1700-autumn-battles", ("coalition",))
    [report] = [t for k, t in mails_to(game, BORIS, before) if k == "report"]
    assert "Battles to fight: Ingermanland." in report
    assert "retreat BLOCK to TERRITORY if CONDITION (5.6)" in report
    assert "(orders due from Coalition)" in report
