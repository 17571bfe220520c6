"""The moderator's HELP in the game's moderator_language, true to every command, through
the real mail pipeline on Pax Baltica: a moderator's mail in, the reply's text out
(docs/orders.md, "HELP <topic>"; tests/orders/test_moderator_help.py parses every form and
example HELP gives).

Before: ``HELP`` and ``HELP MODERATOR`` from the moderator were English whatever the game's
``moderator_language`` said, while every other reply and notice to him was in it; and HELP
MODERATOR said "Each command but RULING takes a reason after a colon", which APPROVE,
DECLINE, ADD/STOP OBSERVER and the SHOW commands do not.
"""

from __future__ import annotations

from typing import Any

from tests.pipeline.test_show_state_by_mail import moderate, reply_to
from tests.support.moderator_notice import assert_in, moderator_speaks

MOD = "mod@example.org"


# -- HELP in the moderator's language -----------------------------------------------------

def test_a_french_moderators_help_is_in_french_with_the_french_keywords(b1: Any) -> None:
    """The game's moderator_language is French: HELP after MODERATOR answers in French, the
    moderator's commands in their French form (PROLONGER AU, MONTRER ETAT), as every other
    reply to him; it was English."""
    moderator_speaks(b1, "b1", "fr")
    reply = moderate(b1, "HELP\n")
    assert "Commandes (une par ligne, majuscules ou non) :" in reply, reply
    assert "  PROLONGER [PRIVÉ] AU <date> [<heure>] [: raison]" in reply
    assert "  MONTRER ETAT [<nom>]" in reply and "ex. : MONTRER ETAT" in reply
    assert "Commands (one per line" not in reply and "  EXTEND " not in reply
    assert_in("fr", reply.split("Commandes (une par ligne")[0], allow=["GAME b1", "MODERATOR",
                                                                       "HELP"])


def test_help_moderator_from_a_french_moderator_is_aide_moderateur(b1: Any) -> None:
    """HELP MODERATOR, signed on or not, from the moderator of a French-moderated game: the
    French topic ("AIDE modérateur"), each command with its real form and a French example."""
    moderator_speaks(b1, "b1", "fr")
    signed = moderate(b1, "HELP MODERATOR\n")
    unsigned = reply_to(b1, MOD, "GAME b1\nHELP MODERATOR\n")
    for reply in (signed, unsigned):
        assert "AIDE modérateur" in reply and "Commandes du modérateur :" in reply, reply
        assert "  DECLINER <adresse>\n" in reply and "ex. : DECLINER anna@example.org" in reply
        assert "  DECISION [PRIVÉ] <texte>\n" in reply
        assert "Chaque commande sauf DECISION" not in reply
        assert "Moderator commands:" not in reply


def test_an_english_moderator_reads_each_commands_real_form(b1: Any) -> None:
    """In English, the moderator topic no longer says every command but RULING takes a
    reason: APPROVE, DECLINE, ADD OBSERVER take none, and each form shows it."""
    reply = moderate(b1, "HELP MODERATOR\n")
    assert "HELP moderator" in reply and "Moderator commands:" in reply, reply
    for form in ("APPROVE <address> [<name>]", "DECLINE <address>", "ADD OBSERVER <address>",
                 "EXTEND [PRIVATE] TO <date> [<time>] [: reason]", "SHOW STATE [<name>]"):
        assert f"\n  {form}\n" in reply, form
    assert "e.g. ADD OBSERVER anna@example.org" in reply
    assert "Each command but RULING takes a reason" not in reply
