"""Sign-on brute force: limited, reported to the moderator; the moderator's password is out of reach."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gm.clock import FakeClock
from gm.service.context import ServiceContext
from tests.e2e.corpus_game import Snapshot
from tests.security.conftest import ANNA, MOD, mails_to, send
from tests.support.moderator_notice import assert_in, moderator_speaks

GUESS = "GAME baltica42\nPOWER sweden guess{n}\nrecon Livland\n"


def test_guessing_a_power_password_is_limited_and_reported_to_the_moderator(game: ServiceContext) -> None:
    for n in range(5):
        assert "wrong password" in send(game, GUESS.format(n=n), sender="mallory@evil.example")
    # From now on even the right password is refused, so guessing goes nowhere.
    reply = send(game, "GAME baltica42\nPOWER sweden hunter2\nrecon Livland\n", sender="mallory@evil.example")
    assert "too many failed sign-ons" in reply
    assert Snapshot.take(game).orders == {}
    notices = [t for s, t in mails_to(game, MOD, kind="notice") if "sign-on" in s]
    assert len(notices) == 1, notices  # once, when the limit is reached, not per mail
    assert "sweden" in notices[0] and "mallory@evil.example" in notices[0]
    assert "guess" not in notices[0]  # the attempted passwords are never repeated
    warnings = mails_to(game, ANNA, kind="warning")
    assert len(warnings) == 6  # the seat's owner hears of each failure...
    # ...and that the right password was then used from mallory's address (issue 22)
    assert "RIGHT password" in warnings[-1][1] and "mallory@evil.example" in warnings[-1][1]
    assert all("guess" not in t for _, t in mails_to(game, ANNA))


@pytest.mark.parametrize(("language", "subject", "words"), [
    ("en", "sign-ons as sweden blocked for an hour",
     ["5 failed sign-ons within an hour (the last as sweden, from mallory@evil.example)",
      "any address but the seat's own", "consider a new password for the seat"]),
    ("fr", "identifications comme sweden bloquées pour une heure",
     ["5 identifications échouées en une heure (la dernière comme sweden, depuis "
      "mallory@evil.example)", "toute autre adresse que celle du siège",
      "envisagez un nouveau mot de passe pour le siège"])])
def test_the_moderator_is_told_of_the_limit_in_their_language(
        game: ServiceContext, language: str, subject: str, words: list[str]) -> None:
    moderator_speaks(game, "baltica42", language)
    for n in range(5):
        send(game, GUESS.format(n=n), sender="mallory@evil.example")
    [(told, text)] = [(s, t) for s, t in mails_to(game, MOD, kind="notice") if "sweden" in s]
    assert told == f"[baltica42] {subject}"
    assert all(w in text for w in words), text
    assert_in(language, text)


def test_the_limit_holds_across_sender_addresses_and_lifts_after_an_hour(game: ServiceContext) -> None:
    for n in range(5):
        send(game, GUESS.format(n=n), sender=f"bot{n}@evil.example")
    assert "too many failed sign-ons" in send(game, GUESS.format(n=9), sender="bot9@evil.example")
    assert isinstance(game.clock, FakeClock)
    game.clock.advance(timedelta(hours=1, minutes=1))
    assert "OK  recon Livland" in send(game, "GAME baltica42\nPOWER sweden hunter2\nrecon Livland\n")


def test_the_moderator_password_cannot_be_used_or_guessed_by_a_player(game: ServiceContext) -> None:
    before = Snapshot.take(game)
    assert "has no power 'moderator'" in send(game, "GAME baltica42\nPOWER moderator modsecret\nSTATUS\n")
    assert "wrong password" in send(game, "GAME baltica42\nPOWER sweden modsecret\nrecon Livland\n")
    assert "moderator sign-on failed" in send(game, "GAME baltica42\nMODERATOR hunter2\nEXTEND 7d\n")
    reply = send(game, "GAME baltica42\nPOWER sweden hunter2\nEXTEND 7d\nADJUDICATE NOW\nSET turn = 1\n")
    assert reply.count("only the moderator may") == 3
    for n in range(5):
        send(game, f"GAME baltica42\nMODERATOR guess{n}\nADJUDICATE NOW\n", sender="mallory@evil.example")
    assert "too many failed sign-ons" in send(
        game, "GAME baltica42\nMODERATOR modsecret\nADJUDICATE NOW\n", sender="mallory@evil.example")
    after = Snapshot.take(game)
    assert (after.phases, after.deadlines, after.events) == (before.phases, before.deadlines, before.events)
    assert [s for s, _ in mails_to(game, MOD, kind="notice") if "moderator" in s]
