"""What the moderator could only see on the command line, now in his mail reply, through the
real mail pipeline (docs/orders.md, "The moderator's commands, by mail and from the command
line"):

* ``SHOW GAME`` / ``MONTRER PARTIE``: what ``gm game show`` shows (seats, addresses, flags,
  BOUNCING, hold, observers, waiting list);
* ``SHOW MAILS [UNDELIVERED] [n]`` / ``MONTRER MAILS [NON DISTRIBUES] [n]``: what ``gm mod
  mails GAME [--undelivered] --last n`` lists, the numbers RETRY and REQUEUE take;
* ``SHOW HISTORY [n]`` / ``MONTRER HISTORIQUE [n]``: ``gm history GAME --private --last n``.

A player is refused; no reply ever holds a password.

Before: each was refused as "command not understood"; the moderator away from the server
could act on a mail number but never list them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from click.testing import CliRunner
from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import OutboundMail, Seat
from gm.mail.types import FailureKind, SendResult
from gm.pipeline.dispatch import record
from gm.service.bouncing import mark
from gm.service.games import current_phase
from tests.pipeline.conftest import deliver, mail, outbox
from tests.support.moderator_notice import assert_in, moderator_speaks

MOD = "mod@example.org"
PASSWORDS = ("mod-secret", "n-secret", "s-secret")


def gm(ctx: Any, *args: str) -> str:
    """``gm ARGS`` as the moderator runs it on the game's database: its output."""
    from gm.cli.main import cli

    url = ctx.engine.url.render_as_string(hide_password=False)
    result = CliRunner().invoke(cli, ["--db", url, *args])
    assert result.exit_code == 0, result.output
    return result.output


def moderate(ctx: Any, body: str, sender: str = MOD, signon: str = "MODERATOR mod-secret") -> str:
    """A mail for race1 (the moderator's unless told); the reply to it, as written."""
    deliver(ctx, mail(f"GAME race1\n{signon}\n{body}", sender=sender))
    return outbox(ctx, kind="reply", to=sender)[-1][1]


def flat(text: str) -> str:
    return " ".join(text.split())


def no_password_in_any_reply(ctx: Any) -> None:
    for _row, text in outbox(ctx, kind="reply"):
        assert not any(p in text for p in PASSWORDS), text


def _bouncing_south(ctx: Any) -> None:
    """South's address marked as bouncing (a DSN said so), as gm.service.bounces marks it."""
    with session_scope(ctx.engine) as s:
        seat = s.exec(select(Seat).where(Seat.game_id == "race1", Seat.power == "south")).one()
        mark(seat, at=ctx.clock.now(), mail=7, said="5.2.2 mailbox full")
        s.add(seat)


def _refused_report(ctx: Any) -> int:
    """North's welcome refused for good by the mail server (a 550 to RCPT), as the dispatcher
    records it: an undelivered mail, and the moderator's notice naming its number."""
    with session_scope(ctx.engine) as s:
        row = s.exec(select(OutboundMail).where(OutboundMail.kind == "report")).first()
        assert row is not None
        mail_id = int(row.id or 0)
    record(ctx, mail_id, SendResult.permanent(FailureKind.SERVER_PERMANENT, 550,
                                              "5.1.1 no such user"), "report")
    return mail_id


# -- SHOW GAME --------------------------------------------------------------------------

def test_show_game_by_mail_shows_what_gm_game_show_shows(race: Any) -> None:
    deliver(race, mail("GAME race1\nPOWER north n-secret\nREADY\n"))
    deliver(race, mail("JOIN race1 south\n", sender="eve@example.net"))  # the waiting list
    moderate(race, "ADD OBSERVER obs@example.net\n")
    _bouncing_south(race)
    race.clock.set(datetime.now(UTC))  # gm runs on the real clock: the same "late" flags
    shown = gm(race, "game", "show", "race1").rstrip("\n")
    reply = moderate(race, "SHOW GAME\n")
    assert "OK SHOW GAME: game race1 as gm game show shows it follows this reply" in flat(reply)
    assert f"==== SHOW GAME ====\n{shown}" in reply  # every line, columns kept
    for seen in ("north@example.org", "READY", "BOUNCING", "5.2.2 mailbox full",
                 "observers: obs@example.net", "waiting: eve@example.net for south"):
        assert seen in shown
    no_password_in_any_reply(race)


def test_show_game_of_a_held_game_names_unhold_by_mail(race: Any) -> None:
    with session_scope(race.engine) as s:
        from gm.db.models import Game

        game = s.get(Game, "race1")
        assert game is not None
        game.hold_reason, game.held_at = "ValueError: broken", race.clock.now()
        s.add(game)
    reply = moderate(race, "SHOW GAME\n")
    assert "HELD since" in reply and "ValueError: broken" in reply
    assert "(lift it with: UNHOLD)" in reply
    assert "gm mod unhold" not in reply


# -- SHOW MAILS ---------------------------------------------------------------------------

def test_show_mails_lists_the_mails_that_arrived_with_their_numbers(race: Any) -> None:
    first = deliver(race, mail("GAME race1\nPOWER north n-secret\nREADY\n",
                               subject="my orders"))
    reply = moderate(race, "SHOW MAILS 5\n")
    listed = reply.split("==== SHOW MAILS 5 ====\n")[1]
    assert f"#{first:<5}" in listed and 'north@example.org  "my orders"  handled' in listed
    shown = gm(race, "mod", "mails", "race1", "--last", "5")
    assert shown.splitlines()[0] in listed  # the same lines as the command line's
    assert "OK SHOW MAILS 5: the latest 5 mails that arrived for game race1, at most, follow " \
           "this reply" in flat(reply)
    no_password_in_any_reply(race)


def test_show_mails_undelivered_after_a_refused_mail_gives_its_number_for_requeue(
        race: Any) -> None:
    mail_id = _refused_report(race)
    notice = flat(outbox(race, kind="notice", to=MOD)[-1][1])
    assert f"mail {mail_id}" in notice and "SHOW MAILS UNDELIVERED" in notice
    reply = moderate(race, "SHOW MAILS UNDELIVERED\n")
    listed = reply.split("==== SHOW MAILS UNDELIVERED ====\n")[1]
    assert f"#{mail_id:<5}" in listed and "5.1.1 no such user" in listed
    assert f"not sent again: REQUEUE {mail_id}" in listed
    assert "gm mod requeue" not in listed
    shown = gm(race, "mod", "mails", "race1", "--undelivered")
    assert shown.splitlines()[0] in listed
    no_password_in_any_reply(race)


# -- SHOW HISTORY --------------------------------------------------------------------------

def test_show_history_tells_the_last_phases_with_the_private_acts(race: Any) -> None:
    moderate(race, "PAUSE PRIVATE: the moderator is away\n")
    reply = moderate(race, "SHOW HISTORY 1\n")
    shown = gm(race, "history", "race1", "--private", "--last", "1").rstrip("\n")
    assert f"==== SHOW HISTORY 1 ====\n{shown}" in reply
    assert "moderator pause by moderator <mod@example.org>:  (the moderator is away) " \
           "[private]" in reply
    with session_scope(race.engine) as s:
        phase = current_phase(s, "race1").phase_id
    assert phase in reply
    no_password_in_any_reply(race)


# -- French, players, passwords ------------------------------------------------------------

def test_a_french_moderator_writes_montrer_and_reads_french(race: Any) -> None:
    moderator_speaks(race, "race1", "fr")
    mail_id = _refused_report(race)
    _bouncing_south(race)
    reply = moderate(race, "MONTRER PARTIE\nMONTRER MAILS NON DISTRIBUÉS\n"
                           "MONTRER HISTORIQUE 2\n")
    said = flat(reply)
    assert "la partie race1 telle que gm game show la montre suit cette réponse" in said
    assert f"pas envoyé de nouveau : RENVOYER {mail_id}" in said
    assert "REQUEUE" not in said and "gm mod requeue" not in said
    assert "ordres attendus : " in said and "REJETÉE" in said
    notice = flat(outbox(race, kind="notice", to=MOD)[-1][1])
    assert "MONTRER MAILS NON DISTRIBUES" in notice
    assert_in("fr", reply.split("==== MONTRER PARTIE ====")[0],
              allow=["MONTRER", "GAME race1", "MODERATOR"])
    no_password_in_any_reply(race)


def test_a_player_is_refused_and_sees_nothing(race: Any) -> None:
    reply = moderate(race, "SHOW GAME\nSHOW MAILS\nSHOW HISTORY\n",
                     sender="north@example.org", signon="POWER north n-secret")
    assert flat(reply).count("only the moderator may use this command") == 3
    assert "==== SHOW" not in reply and "owing orders" not in reply
    no_password_in_any_reply(race)


def test_show_game_of_a_forming_game_lists_the_requests_with_approve(ctx: Any) -> None:
    from tests.pipeline.test_forming import _forming

    _forming(ctx, approve=True)
    deliver(ctx, mail("JOIN race1 north\n", sender="ann@example.net"))
    shown = gm(ctx, "game", "show", "race1").rstrip("\n")
    assert "(gm mod approve race1 ann@example.net)" in shown
    reply = moderate(ctx, "SHOW GAME\n")
    assert shown.replace("gm mod approve race1 ann@example.net",
                         "APPROVE ann@example.net") in reply
    assert "  south          (open)" in reply
