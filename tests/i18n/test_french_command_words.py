"""A French text names the commands by their French keywords (envelope.lark): "envoyez
PRÊT", "ajoutez une ligne PUISSANCE", "REMPLACER PUISSANCE south PAR", not READY, POWER,
REPLACE POWER ... WITH; a French reader may write either, but reads French."""

from __future__ import annotations

import re

from gm.i18n import catalogue

ENGLISH_COMMANDS = ("GAME", "POWER", "MODERATOR", "PASSWORD", "READY", "WAIT", "CHECK", "STATUS",
                    "HISTORY", "ORDERS", "JOIN", "APPROVE", "PRESS", "ENDPRESS", "RELEASE",
                    "EXTEND", "ROLLBACK", "RESUME", "ADJUDICATE NOW", "REPLACE POWER",
                    "SEND PASSWORD", "SET ADDRESS", "LIST", "UNHOLD", "RETRY", "DECLINE",
                    "REQUEUE", "UNBOUNCE", "SEND REPORT", "ADD OBSERVER", "STOP OBSERVER",
                    "REVEAL SEED", "SHOW GAME", "SHOW MAILS", "SHOW HISTORY", "UNDELIVERED")


def test_no_french_text_names_an_english_command() -> None:
    found = {english: said for english, said in catalogue("fr").items()
             if any(re.search(rf"(?<![A-Za-z%{{])\b{w}\b(?![a-z])", said) for w in ENGLISH_COMMANDS)}
    assert found == {}, "\n".join(found.values())
