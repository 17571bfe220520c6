""""A moderator must be able to fix anything": what a moderator met in a real game and
could fix only by editing the database, on the race game, each checked by what the
moderator and the players get (the reply, the CLI's words, the mails, the history).

* A seat's address marked as bouncing for good (gm.service.bouncing) that the moderator
  knows works again: ``UNBOUNCE power`` / ``gm mod unbounce``.
* A report the player says never came: ``SEND REPORT power`` / ``gm mod resend``.
* ``PRIVATE`` before a command's first argument (``REPLACE POWER PRIVATE south WITH
  ...``, ``DICE PRIVATE 3 4``), as the moderator's HELP writes it, was refused.
"""

from __future__ import annotations

from typing import Any

from click.testing import CliRunner, Result
from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import ModeratorAct
from gm.service.history import history_rows, history_text
from tests.pipeline.conftest import deliver, mail, outbox
from tests.pipeline.test_bounces import (
    dsn_for,
    marked_and_quiet,
    notices,
    seat,
    second_mail_to,
    sent,
)
from tests.pipeline.test_judge_habits import _press_settings, _show
from tests.support.moderator_notice import assert_in, moderator_speaks

NORTH, SOUTH, MOD = "north@example.org", "south@example.org", "mod@example.org"


def moderate(ctx: Any, body: str) -> str:
    """A moderator's mail for race1; the moderator's reply."""
    deliver(ctx, mail(f"GAME race1\nMODERATOR mod-secret\n{body}", sender=MOD))
    return outbox(ctx, kind="reply", to=MOD)[-1][1]


def gm(ctx: Any, *args: str) -> Result:
    """``gm ARGS`` as the moderator runs it on the game's database."""
    from gm.cli.main import cli

    url = ctx.engine.url.render_as_string(hide_password=False)
    return CliRunner().invoke(cli, ["--db", url, *args])


def history(ctx: Any, *, private: bool) -> str:
    with session_scope(ctx.engine) as s:
        return history_text(history_rows(s, "race1", private=private))


def acts(ctx: Any) -> list[str]:
    with session_scope(ctx.engine) as s:
        return [a.command for a in s.exec(select(ModeratorAct))]


def bouncing_in_show(ctx: Any) -> bool:
    text, data = _show(ctx)
    return any(s["bouncing"] for s in data["seats"]) or "BOUNCING" in text


# -- UNBOUNCE: the moderator knows the address works again ------------------------------

def test_unbounce_by_mail_clears_the_mark_and_the_next_bounce_is_told_again(race: Any) -> None:
    marked_and_quiet(race)  # south's address bounced twice; the moderator heard once
    assert bouncing_in_show(race)
    reply = moderate(race, "UNBOUNCE south: mailbox emptied, says the player\n")
    assert ("OK UNBOUNCE south: mailbox emptied, says the player: south@example.org of south "
            "is no longer marked as bouncing; the next mail to it that bounces is told to you "
            "again (a private act)") in " ".join(reply.split())
    assert seat(race, "south").bounce_address == ""
    assert not bouncing_in_show(race)
    assert not [r for r, _ in outbox(race, to=SOUTH) if r.kind == "notice"]  # nobody else mailed
    private = history(race, private=True)
    assert ("moderator unbounce by moderator <mod@example.org>: power south, address "
            "south@example.org") in private
    assert "(mailbox emptied, says the player) [private]" in private
    assert "unbounce" not in history(race, private=False)  # the address is not the players'
    deliver(race, dsn_for(second_mail_to(race, SOUTH)))
    assert len(notices(race)) == 2  # it bounced again: the moderator is told again


def test_unbounce_is_answered_in_the_moderator_s_language(race: Any) -> None:
    moderator_speaks(race, "race1", "fr")
    marked_and_quiet(race)
    reply = moderate(race, "RÉTABLIR south\n")
    assert ("south@example.org de south n'est plus marquée comme ne recevant plus le "
            "courrier" in " ".join(reply.split()))
    assert_in("fr", reply, allow=["RÉTABLIR south"])


def test_gm_mod_unbounce_clears_the_mark_and_says_so(race: Any) -> None:
    marked_and_quiet(race)
    done = gm(race, "mod", "unbounce", "race1", "south", "--reason", "the player phoned")
    assert done.exit_code == 0, done.output
    assert done.output.startswith("race1: south@example.org of south is no longer marked as "
                                  "bouncing (2 bounced since 2026-")
    assert done.output.rstrip().endswith("the next bounce is told again")
    assert not bouncing_in_show(race)
    assert "(the player phoned) [private]" in history(race, private=True)
    deliver(race, dsn_for(second_mail_to(race, SOUTH)))
    assert len(notices(race)) == 2


def test_unbounce_of_a_seat_not_marked_or_unknown_is_refused_and_changes_nothing(race: Any) -> None:
    marked_and_quiet(race)
    reply = " ".join(moderate(race, "UNBOUNCE north\nUNBOUNCE west\n").split())
    assert ("UNBOUNCE north: north's address north@example.org is not marked as bouncing; "
            "nothing changed") in reply
    assert "UNBOUNCE west: game race1 has no power 'west' (powers: north, south)" in reply
    refused = gm(race, "mod", "unbounce", "race1", "north")
    assert refused.exit_code == 1
    assert "north's address north@example.org is not marked as bouncing; nothing changed" in (
        refused.output)
    assert gm(race, "mod", "unbounce", "race1", "west").exit_code == 1
    assert "unbounce" not in acts(race)
    assert seat(race, "south").bounce_address == SOUTH  # the other seat's mark stays


def test_a_player_cannot_unbounce(race: Any) -> None:
    marked_and_quiet(race)
    deliver(race, mail("GAME race1\nPOWER north n-secret\nUNBOUNCE south\n"))
    reply = outbox(race, kind="reply", to=NORTH)[-1][1]
    assert "only the moderator may use this command" in reply
    assert seat(race, "south").bounce_address == SOUTH


def test_the_bounce_notice_names_unbounce(race: Any) -> None:
    deliver(race, dsn_for(sent(race, "report", SOUTH)))
    [(_, text)] = notices(race)
    assert "gm mod unbounce race1 south" in text and "UNBOUNCE south" in text


# -- SEND REPORT: the report again, to the player -------------------------------------

def reports_to(ctx: Any, address: str) -> list[str]:
    return [text for _, text in outbox(ctx, kind="report", to=address)]


def test_send_report_by_mail_mails_the_player_the_current_report(race: Any) -> None:
    south_before, north_before = len(reports_to(race, SOUTH)), len(reports_to(race, NORTH))
    reply = " ".join(moderate(race, "SEND REPORT south: he never got it\n").split())
    assert ("OK SEND REPORT south: he never got it: the current report of turn-1 is on its way "
            "to south at south@example.org") in reply
    again = reports_to(race, SOUTH)
    assert len(again) == south_before + 1
    assert again[-1] == again[0]  # the very report of the phase, in south's French
    assert len(reports_to(race, NORTH)) == north_before  # nobody else
    assert "moderator send-report by moderator <mod@example.org>: power south, phase_id turn-1 " \
           "(he never got it)" in history(race, private=False)


def test_gm_mod_resend_mails_the_player_the_current_report(race: Any) -> None:
    before = len(reports_to(race, NORTH))
    done = gm(race, "mod", "resend", "race1", "north", "--private")
    assert done.exit_code == 0, done.output
    assert done.output == ("race1: the current report of north is on its way to "
                           "north@example.org\n")
    assert len(reports_to(race, NORTH)) == before + 1
    assert "send-report" not in history(race, private=False)
    assert "send-report" in history(race, private=True)


def test_send_report_while_under_review_is_refused_and_sends_nothing(race: Any) -> None:
    _press_settings(race, preview=True)
    moderate(race, "ADJUDICATE NOW\n")
    before = len(outbox(race))
    reply = " ".join(moderate(race, "SEND REPORT south\n").split())
    assert "SEND REPORT south: the reports of turn-2 are held for your review; RELEASE sends " \
           "them; nothing was sent" in reply
    refused = gm(race, "mod", "resend", "race1", "south")
    assert refused.exit_code == 1 and "RELEASE sends them; nothing was sent" in refused.output
    assert [r.kind for r, _ in outbox(race)[before:]] == ["reply"]  # the answer alone
    assert "send-report" not in acts(race)


# -- PRIVATE before a command's argument ------------------------------------------------

def test_replace_power_private_is_carried_out_and_kept_out_of_the_public_history(race: Any) -> None:
    reply = " ".join(moderate(race, "REPLACE POWER PRIVATE south WITH sud@example.net: "
                                    "asked by mail\n").split())
    assert "south now played by sud@example.net" in reply
    assert seat(race, "south").address == "sud@example.net"
    assert "moderator replace" not in history(race, private=False)
    assert "(asked by mail) [private]" in history(race, private=True)


def test_dice_private_is_carried_out(race: Any) -> None:
    reply = " ".join(moderate(race, "DICE PRIVATE 3 4: a table roll\n").split())
    assert "2 rolls will be used first in the next adjudication" in reply
    assert "moderator dice" not in history(race, private=False)


# -- SET ADDRESS for a player: the same player, a new mailbox ---------------------------

def test_the_moderator_moves_a_seat_s_mail_to_a_new_address_by_mail(race: Any) -> None:
    """South's mailbox is gone with the password in it: the moderator, acting as south,
    moves the seat's mail. South keeps the seat and password; north hears nothing (REPLACE
    POWER would tell everyone a new player came); SEND PASSWORD now reaches the new one."""
    marked_and_quiet(race)
    before = len(outbox(race))
    reply = " ".join(moderate(race, "POWER south\nSET ADDRESS sud@new.example\n").split())
    assert ("OK SET ADDRESS sud@new.example: mail for south now goes to sud@new.example; both "
            "addresses were told, nobody else (a private act)") in reply
    mailed = [(r.kind, r.recipients, t) for r, t in outbox(race)[before:] if r.kind != "reply"]
    [(kind, to, text)] = mailed
    assert kind == "notice" and to == ["sud@new.example", SOUTH]
    assert ("Le modérateur a fait passer le courrier de south dans la partie race1 à "
            "sud@new.example (il allait à south@example.org)") in " ".join(text.split())
    assert "ENVOYER MOTDEPASSE south (après la ligne PARTIE race1)" in text  # French keywords
    assert seat(race, "south").bounce_address == ""  # a new address: no mark
    deliver(race, mail("GAME race1\nPOWER south s-secret\nSTATUS\n", sender="sud@new.example"))
    answer = " ".join(outbox(race, kind="reply", to="sud@new.example")[-1][1].split())
    assert "OK STATUS" in answer  # the same password still signs on, from the new mailbox
    assert "moderator address" not in history(race, private=False)
    assert ("moderator address by moderator <mod@example.org>: power south, old_address "
            "south@example.org, new_address sud@new.example [private]") in history(race, private=True)


def test_gm_mod_address_moves_the_mail_and_refuses_what_would_change_nothing(race: Any) -> None:
    done = gm(race, "mod", "address", "race1", "north", "nord@new.example", "--reason", "phoned")
    assert done.exit_code == 0, done.output
    assert done.output == ("race1: mail for north now goes to nord@new.example (it went to "
                           "north@example.org); both addresses were told, nobody else\n")
    assert seat(race, "north").address == "nord@new.example"
    again = gm(race, "mod", "address", "race1", "north", "NORD@new.example")
    assert again.exit_code == 1
    assert "mail for north already goes to NORD@new.example; nothing changed" in again.output
    bad = gm(race, "mod", "address", "race1", "north", "nord-at-example")
    assert bad.exit_code == 1 and "'nord-at-example' is not a mail address; nothing changed" in (
        bad.output)
    assert gm(race, "mod", "address", "race1", "west", "w@example.org").exit_code == 1
    assert seat(race, "north").address == "nord@new.example"
    assert [a for a in acts(race) if a == "address"] == ["address"]


def test_set_address_from_the_moderator_needs_a_power(race: Any) -> None:
    reply = " ".join(moderate(race, "SET ADDRESS x@new.example\n").split())
    assert "SET ADDRESS x@new.example: say POWER <name> first" in reply
    assert "address" not in acts(race)


def test_gm_mod_replace_with_no_mail_address_is_refused_in_words(race: Any) -> None:
    """It was a traceback (the welcome's To header refused the text); nothing changed."""
    before = len(outbox(race))
    refused = gm(race, "mod", "replace", "race1", "south", "not-an-address")
    assert refused.exit_code == 1
    assert refused.output == "gm: 'not-an-address' is not a mail address; nothing changed\n"
    assert seat(race, "south").address == SOUTH and len(outbox(race)) == before


# -- the moderator: another address, language, password ---------------------------------

def test_gm_game_moderator_hands_the_game_to_a_new_address_language_and_password(
        race: Any) -> None:
    """The moderator's password leaked, a co-moderator who reads French takes over: the
    old password stops working, the new one signs on and is answered in French, and the
    next notice goes to the new address."""
    done = gm(race, "game", "moderator", "race1", "--address", "co@example.org",
              "--language", "fr", "--new-password")
    assert done.exit_code == 0, done.output
    first, second, third = done.output.splitlines()
    assert first == "race1: moderator co@example.org, language fr"
    assert second.startswith("  moderator password: ") and third.startswith("(shown once")
    password = second.split(": ", 1)[1]
    deliver(race, mail("GAME race1\nMODERATOR mod-secret\nPAUSE\n", sender="co@example.org"))
    assert "moderator sign-on failed: wrong password" in outbox(  # the old one no longer
        race, kind="reply", to="co@example.org")[-1][1]
    deliver(race, mail(f"GAME race1\nMODERATOR {password}\nPAUSE: relève\n",
                       sender="co@example.org"))
    reply = outbox(race, kind="reply", to="co@example.org")[-1][1]
    assert "OK  PAUSE" in reply and "Partie race1" in reply  # signed on; the reply in French
    deliver(race, dsn_for(sent(race, "report", SOUTH)))
    [(notice, text)] = notices(race)
    assert notice.recipients == ["co@example.org"] and "Ce qui peut être fait" in text
    private = history(race, private=True)
    assert "moderator moderator by moderator (cli): address" in private
    assert "'new': 'co@example.org'" in private and "password changed [private]" in private
    assert "moderator moderator" not in history(race, private=False)


def test_gm_game_moderator_refuses_bad_or_unchanged_values_and_changes_nothing(race: Any) -> None:
    assert gm(race, "game", "moderator", "race1").exit_code == 2  # nothing asked
    bad = gm(race, "game", "moderator", "race1", "--language", "xx", "--new-password")
    assert bad.exit_code == 1 and "language 'xx' is not offered (choose en, fr)" in bad.output
    bad = gm(race, "game", "moderator", "race1", "--address", "mod at example", "--new-password")
    assert bad.exit_code == 1 and "'mod at example' is not a mail address" in bad.output
    same = gm(race, "game", "moderator", "race1", "--address", "MOD@example.org")
    assert same.exit_code == 1 and "game race1: nothing to change" in same.output
    assert "moderator" not in acts(race)
    assert "OK  PAUSE" in moderate(race, "PAUSE\n")  # the old password still signs on


# -- refusals that change nothing ---------------------------------------------------------

def deadline_now(ctx: Any) -> Any:
    from gm.service.games import current_phase

    with session_scope(ctx.engine) as s:
        return current_phase(s, "race1").deadline


def test_a_deadline_in_the_past_or_an_extension_of_nothing_is_refused(race: Any) -> None:
    """EXTEND TO 2025-... for 2026-... (a typo) set the deadline in the past: every player
    was told so and the phase closed at the next sweep. Now refused, nobody told."""
    deadline, before = deadline_now(race), len(outbox(race))
    reply = " ".join(moderate(race, "EXTEND TO 2025-01-08 12:00\nEXTEND 0h\n").split())
    assert ("EXTEND TO 2025-01-08 12:00: Wed, Jan 8, 2025, 12:00 UTC is past; nothing changed "
            "(ADJUDICATE NOW closes the phase now)") in reply
    assert "EXTEND 0h: an extension of nothing; nothing changed" in reply
    moderate(race, "PAUSE\n")
    since = len(outbox(race))
    reply = " ".join(moderate(race, "RESUME DEADLINE 2025-01-08 12:00\n").split())
    assert "RESUME DEADLINE 2025-01-08 12:00: Wed, Jan 8, 2025, 12:00 UTC is past" in reply
    assert [r.kind for r, _ in outbox(race)[since:]] == ["reply"]  # nobody else told
    assert deadline_now(race) == deadline
    assert [r.kind for r, _ in outbox(race)[before:]].count("notice") == 2  # the PAUSE only
    assert "extend" not in acts(race) and "resume" not in acts(race)
    refused = gm(race, "mod", "extend", "race1", "--to", "2020-01-01 12:00")
    assert refused.exit_code == 1 and "is past; nothing changed" in refused.output


def test_the_moderator_acting_as_a_power_the_game_lacks_is_told_at_that_line(race: Any) -> None:
    reply = " ".join(moderate(race, "POWER west\n").split())
    assert "POWER west: game race1 has no power 'west' (powers: north, south)" in reply
    assert "acting as west" not in reply


# -- what arrived: "I sent my orders on Tuesday" ----------------------------------------

def test_gm_mod_mails_shows_what_arrived_from_a_player_and_what_gm_made_of_it(race: Any) -> None:
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 1\n", subject="my orders"))
    deliver(race, mail("advance 2\n", subject="forgot the header"))  # tied to no game
    deliver(race, mail("GAME race1\nPOWER south wrong\nadvance 1\n", sender=SOUTH,
                       subject="from south"))
    listed = gm(race, "mod", "mails", "race1", "--from", "NORTH@example")
    assert listed.exit_code == 0, listed.output
    first, second = listed.output.splitlines()
    assert first.startswith("#") and 'north@example.org  "my orders"  handled' in first
    assert '"forgot the header"' in second and "(no game)" in second
    assert "s-secret" not in listed.output and "wrong" not in listed.output  # no body
    every = gm(race, "mod", "mails", "race1").output
    assert '"my orders"' in every and '"from south"' in every
    assert '"forgot the header"' not in every  # not tied to the game, not asked for
    none = gm(race, "mod", "mails", "race1", "--from", "nobody@example.org")
    assert none.output == "race1: no mail from nobody@example.org has arrived\n"
    assert gm(race, "mod", "mails", "nosuch").exit_code == 1
