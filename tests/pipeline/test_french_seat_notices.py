"""The notices gm mails a seat on its own (a failed sign-on, its password used from a mail
gm did not act on, a password or address changed) read in the seat's language: south
(tests/pipeline/conftest.py) reads French; they were English for everyone."""

from __future__ import annotations

from typing import Any

from tests.pipeline.conftest import deliver, mail, outbox

SOUTH = "south@example.org"


def test_a_wrong_password_warns_the_french_owner_in_french(race: Any) -> None:
    deliver(race, mail("GAME race1\nPOWER south wrong\n", sender="intruder@elsewhere.example"))
    [(row, text)] = outbox(race, kind="warning", to=SOUTH)
    assert row.subject == "[race1] identification échouée comme south"
    assert "Quelqu'un a tenté de s'identifier comme south dans la partie race1" in text
    assert "MOTDEPASSE nouveausecret" in text and "Someone" not in text


def test_the_right_password_in_a_mail_gm_did_not_act_on_warns_in_french(race: Any) -> None:
    deliver(race, mail("GAME race1\nPOWER south s-secret\n", sender="robot@elsewhere.example",
                       Precedence="bulk"))
    [(row, text)] = outbox(race, kind="warning", to=SOUTH)
    assert row.subject == "[race1] votre mot de passe de south a servi depuis robot@elsewhere.example"
    assert "avec le BON mot de passe. gm n'y a pas donné suite" in text and "RIGHT" not in text


def test_the_right_password_from_a_blocked_address_warns_in_french(race: Any) -> None:
    from gm.pipeline.signon import MAX_FAILURES

    for _ in range(MAX_FAILURES):
        deliver(race, mail("GAME race1\nPOWER south wrong\n", sender="mallory@evil.example"))
    deliver(race, mail("GAME race1\nPOWER south s-secret\n", sender="mallory@evil.example"))
    row, text = outbox(race, kind="warning", to=SOUTH)[-1]
    assert row.subject == "[race1] votre mot de passe de south a servi depuis mallory@evil.example"
    assert "avec le BON mot de passe, alors que les identifications" in text and "RIGHT" not in text


def test_set_address_and_a_password_changed_from_elsewhere_tell_in_french(race: Any) -> None:
    deliver(race, mail("PARTIE race1\nPUISSANCE south s-secret\nMOTDEPASSE neuf-secret\n",
                       sender="cafe@elsewhere.example"))
    [(row, text)] = [(r, t) for r, t in outbox(race, kind="notice", to=SOUTH)
                     if "mot de passe" in (r.subject or "")]
    assert row.subject == "[race1] mot de passe changé pour south"
    deliver(race, mail("PARTIE race1\nPUISSANCE south neuf-secret\nDEFINIR ADRESSE sud@example.org\n",
                       sender=SOUTH))
    [(row, text)] = [(r, t) for r, t in outbox(race, kind="notice", to="sud@example.org")]
    assert row.subject == "[race1] nouvelle adresse pour south"
    assert ("Désormais, le courrier de south dans la partie race1 va à sud@example.org "
            "(il allait à south@example.org).") in text
    assert "From now on" not in text
