"""The moderator's SHOW STATE [power] (French MONTRER ETAT), through the real mail pipeline
on Pax Baltica: a moderator's or a player's mail in, the reply's text out (docs/orders.md,
"The moderator's commands, by mail and from the command line").

Before: ``gm state GAME [--as P]`` had no mail form, while every other moderator view had
one (SHOW GAME, SHOW MAILS, SHOW HISTORY); "SHOW STATE" was refused as not understood.
"""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner

from gm.db.engine import session_scope
from gm.service.games import current_phase
from tests.pipeline.conftest import deliver, mail, outbox
from tests.support.moderator_notice import moderator_speaks

MOD, SWEDEN, COALITION = "mod@example.org", "karl@example.se", "pyotr@example.ru"
PASSWORDS = ("mod-pw", "sw-pw", "co-pw")


def moderate(ctx: Any, body: str, signon: str = "MODERATOR mod-pw") -> str:
    """A moderator's mail for b1; the reply to it, as written."""
    deliver(ctx, mail(f"GAME b1\n{signon}\n{body}", sender=MOD))
    return outbox(ctx, kind="reply", to=MOD)[-1][1]


def reply_to(ctx: Any, sender: str, body: str) -> str:
    deliver(ctx, mail(body, sender=sender))
    return outbox(ctx, kind="reply", to=sender)[-1][1]


def flat(text: str) -> str:
    return " ".join(text.split())


def gm(ctx: Any, *args: str) -> str:
    """``gm ARGS`` as the moderator runs it on the game's database: its output."""
    from gm.cli.main import cli

    url = ctx.engine.url.render_as_string(hide_password=False)
    result = CliRunner().invoke(cli, ["--db", url, *args])
    assert result.exit_code == 0, result.output
    return result.output


def no_password_in_any_reply(ctx: Any) -> None:
    for _row, text in outbox(ctx, kind="reply"):
        assert not any(p in text for p in PASSWORDS), text


# -- SHOW STATE ----------------------------------------------------------------------------

def test_show_state_mails_what_gm_state_prints(b1: Any) -> None:
    """SHOW STATE: the full state, the very JSON `gm state b1` prints, after the reply's
    lines; SHOW STATE sweden: what Sweden may know (`gm state b1 --as sweden`)."""
    full, sweden = gm(b1, "state", "b1").rstrip("\n"), gm(b1, "state", "b1", "--as", "sweden")
    reply = moderate(b1, "SHOW STATE\nSHOW STATE sweden\n")
    said = flat(reply)
    assert ("OK SHOW STATE: the state of game b1, as gm state prints it, follows this reply "
            "(its dotted keys are the paths SET takes)") in said, reply
    assert ("OK SHOW STATE sweden: what sweden may know of game b1, as gm state --as sweden "
            "prints it, follows this reply") in said, reply
    assert f"==== SHOW STATE ====\n{full}\n" in reply
    assert f"==== SHOW STATE sweden ====\n{sweden.rstrip()}" in reply
    assert json.loads(sweden) != json.loads(full)
    no_password_in_any_reply(b1)


def test_montrer_etat_in_french(b1: Any) -> None:
    """A French moderator writes MONTRER ÉTAT (accents optional, the power in any case);
    the reply is in French, the JSON the command line's; a power the game does not have is
    refused, naming the game's powers, and nothing is shown for it."""
    moderator_speaks(b1, "b1", "fr")
    sweden = gm(b1, "state", "b1", "--as", "sweden").rstrip()
    reply = moderate(b1, "MONTRER ÉTAT SWEDEN\nMONTRER ETAT ouest\n")
    said = flat(reply)
    assert "ce que sweden peut savoir de la partie b1, tel que gm state --as sweden l'affiche, " \
           "suit cette réponse" in said, reply
    assert f"==== MONTRER ÉTAT SWEDEN ====\n{sweden}" in reply
    assert "la partie b1 n'a pas de puissance 'ouest' (puissances : " in said, reply
    assert "==== MONTRER ETAT ouest" not in reply


def test_a_player_asking_show_state_is_refused_and_sees_nothing(b1: Any) -> None:
    """A player's SHOW STATE is refused, and nothing of the state is in the reply; his
    orders in the same mail are still taken."""
    with session_scope(b1.engine) as s:
        phase = current_phase(s, "b1").phase_id
    reply = reply_to(b1, SWEDEN, "GAME b1\nPOWER sweden sw-pw\nSHOW STATE\nSHOW STATE coalition\n")
    assert flat(reply).count("only the moderator may use this command") == 2, reply
    assert "==== SHOW STATE" not in reply and '"ruleset"' not in reply
    with session_scope(b1.engine) as s:
        assert current_phase(s, "b1").phase_id == phase
    no_password_in_any_reply(b1)
