"""The habits of email-judge players (njudge, DPjudge) by mail, through the real pipeline
(issue 19): LIST, ORDERS on file."""

from __future__ import annotations

import pytest

from gm.l10n import moment
from tests.pipeline.conftest import deliver, mail, outbox
from tests.support.moderator_notice import assert_in, moderator_speaks


def _reply(ctx, to: str) -> str:  # type: ignore[no-untyped-def]
    """The last reply to ``to``, each line stripped of the reply's indentation."""
    return "\n".join(x.strip() for x in outbox(ctx, kind="reply", to=to)[-1][1].splitlines()) + "\n"


def test_list_without_a_game_names_the_games_here_with_phase_and_deadline(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("LIST\n", sender="newcomer@example.net"))
    text = _reply(race, "newcomer@example.net")
    [line] = [x for x in text.splitlines() if x.startswith("race1")]
    assert "race" in line and "duel" in line and "turn-1" in line and "UTC" in line


def test_list_game_says_who_has_orders_in_and_who_is_ready_without_a_password(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 2\n"))
    deliver(race, mail("GAME race1\nPOWER south s-secret\nREADY\n", sender="south@example.org"))
    deliver(race, mail("LIST race1\n", sender="newcomer@example.net"))
    text = _reply(race, "newcomer@example.net")
    assert "Phase turn-1, deadline" in text
    assert "Orders in: north\n" in text
    assert "READY: south\n" in text
    assert "Waiting for: north\n" in text
    # powers only: never an order, an address or a password
    assert "advance" not in text and "@example.org" not in text and "secret" not in text


def test_list_after_a_game_line_is_that_games_roll_call(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nLIST\n", sender="newcomer@example.net"))
    text = _reply(race, "newcomer@example.net")
    assert "Game race1: Race (test game), scenario duel, running." in text
    assert "Orders in: -" in text and "Waiting for: north, south" in text


def test_list_of_an_unknown_game_says_so_and_suggests_the_nearest(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("LIST race2\n", sender="newcomer@example.net"))
    assert "there is no game 'race2': did you mean race1?" in _reply(race, "newcomer@example.net")


def test_list_in_french_is_answered_in_french_to_a_french_seat(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("PARTIE race1\nPUISSANCE south s-secret\nLISTE\n", sender="south@example.org"))
    text = _reply(race, "south@example.org")
    assert "Ordres reçus : -" in text and "En attente de : north, south" in text


def test_orders_shows_what_the_power_has_on_file_and_nothing_of_the_others(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 2\nREADY\n"))
    deliver(race, mail("GAME race1\nPOWER south s-secret\nadvance 1\n", sender="south@example.org"))
    deliver(race, mail("GAME race1\nPOWER north n-secret\nORDERS\n"))
    text = _reply(race, "north@example.org")
    assert "north has on file for turn-1: advance 2 [READY]" in text
    assert "south" not in text.split("ORDERS", 1)[1]


def test_orders_with_none_on_file_says_so(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER north n-secret\nORDERS\n"))
    assert "north has on file for turn-1: no orders" in _reply(race, "north@example.org")


def test_status_also_shows_the_orders_on_file(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 3\n"))
    deliver(race, mail("GAME race1\nPOWER north n-secret\nSTATUS\n"))
    assert "north has on file for turn-1: advance 3" in _reply(race, "north@example.org")


def test_a_line_orders_colon_heading_a_players_list_is_not_a_command(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER north n-secret\nOrders:\nadvance 2\n"))
    text = _reply(race, "north@example.org")
    assert "OK  advance 2" in text and "has on file" not in text


def test_the_moderator_sees_every_powers_orders_on_file(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER south s-secret\nadvance 1\n", sender="south@example.org"))
    deliver(race, mail("GAME race1\nMODERATOR mod-secret\nORDERS\n", sender="mod@example.org"))
    text = _reply(race, "mod@example.org")
    assert "north has on file for turn-1: no orders" in text
    assert "south has on file for turn-1: advance 1" in text


def _show(ctx) -> tuple[str, dict]:  # type: ignore[no-untyped-def,type-arg]
    """`gm game show race1` as the moderator runs it, as text and as JSON."""
    import json

    from click.testing import CliRunner

    from gm.cli.main import cli

    url = ctx.engine.url.render_as_string(hide_password=False)
    text = CliRunner().invoke(cli, ["--db", url, "game", "show", "race1"])
    data = CliRunner().invoke(cli, ["--db", url, "game", "show", "race1", "--json"])
    assert text.exit_code == 0 and data.exit_code == 0, text.output + data.output
    return text.output, json.loads(data.output)


def test_game_show_tells_the_moderator_who_submitted_who_is_ready_and_who_is_late(race) -> None:  # type: ignore[no-untyped-def]
    """By mail north gives orders and says READY; south sends nothing. The CLI runs on the
    real clock, long past the toy game's first deadline (2026-01-07): south is late."""
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 2\nREADY\n"))
    text, data = _show(race)
    seats = {s["power"]: s for s in data["seats"]}
    assert (seats["north"]["submitted"], seats["north"]["ready"], seats["north"]["late"]) == (True, True, False)
    assert (seats["south"]["submitted"], seats["south"]["ready"], seats["south"]["late"]) == (False, False, True)
    [north] = [x for x in text.splitlines() if x.strip().startswith("north")]
    [south] = [x for x in text.splitlines() if x.strip().startswith("south")]
    assert north.split()[-2:] == ["submitted", "READY"] and south.split()[-1] == "late"


def test_a_power_is_late_only_past_the_deadline_or_once_reminded(race) -> None:  # type: ignore[no-untyped-def]
    from gm.clock import utc
    from gm.db.claims import marker
    from gm.db.engine import session_scope
    from gm.service.games import current_phase, get_game
    from gm.service.roll import roll_call

    deliver(race, mail("GAME race1\nPOWER south s-secret\nREADY\n", sender="south@example.org"))
    with session_scope(race.engine) as s:
        game, phase = get_game(s, "race1"), current_phase(s, "race1")
        assert phase.deadline is not None and race.clock.now() < utc(phase.deadline)
        assert roll_call(s, game, race.clock.now()).names("late") == []
        phase.reminders_sent = [marker("24h", phase.deadline)]
        s.add(phase)
        s.flush()
        # reminded: north (no orders, not READY) is late; south said READY, which accepts the defaults
        assert roll_call(s, game, race.clock.now()).names("late") == ["north"]
        phase.reminders_sent = []
        s.add(phase)
        s.flush()
        assert roll_call(s, game, phase.deadline).names("late") == ["north"]


def _password_in(text: str, power: str) -> str:
    [line] = [x for x in text.splitlines() if x.startswith(f"POWER {power} ")]
    return line.split()[-1]


def test_send_password_mails_a_new_one_to_the_registered_address_only(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nSEND PASSWORD north\n", sender="mallory@evil.example"))
    answer = _reply(race, "mallory@evil.example")
    [(sent, text)] = outbox(race, kind="password")
    assert sent.recipients == ["north@example.org"]
    assert "mallory@evil.example" in text  # the owner learns who asked
    new = _password_in(text, "north")
    assert new not in answer and "north@example.org" not in answer
    # the new password signs on; the old one no longer does
    deliver(race, mail(f"GAME race1\nPOWER north {new}\nadvance 2\n"))
    assert "OK  advance 2" in _reply(race, "north@example.org")
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 1\n"))
    assert "wrong password" in _reply(race, "north@example.org")
    # like a welcome, its stored copy is masked once it is sent
    from gm.service.outbox import mask_delivered

    sent.status = "sent"
    assert mask_delivered(sent) and new.encode() not in sent.raw


def test_send_password_answers_the_same_for_a_seat_that_does_not_exist(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nSEND PASSWORD north\n", sender="a@example.net"))
    deliver(race, mail("GAME race1\nSEND PASSWORD west\n", sender="b@example.net"))
    real = _reply(race, "a@example.net").replace("north", "POWER")
    made_up = _reply(race, "b@example.net").replace("west", "POWER")
    assert real == made_up
    assert [r.recipients for r, _ in outbox(race, kind="password")] == [["north@example.org"]]


def test_send_password_goes_out_at_most_once_a_day_per_seat(race) -> None:  # type: ignore[no-untyped-def]
    from datetime import timedelta

    for i in range(3):
        deliver(race, mail("GAME race1\nSEND PASSWORD south\n", sender=f"x{i}@example.net"))
    [(_, text)] = outbox(race, kind="password")
    assert "Votre ancien mot de passe ne fonctionne plus." in text  # south's language
    first = _password_in(text, "south")
    deliver(race, mail(f"GAME race1\nPOWER south {first}\nadvance 1\n", sender="south@example.org"))
    assert "OK  advance 1" in _reply(race, "south@example.org")  # the later asks changed nothing
    race.clock.advance(timedelta(hours=25))
    deliver(race, mail("GAME race1\nSEND PASSWORD south\n", sender="x9@example.net"))
    assert len(outbox(race, kind="password")) == 2


def test_send_password_once_a_day_holds_when_the_seat_changes_its_language(race) -> None:  # type: ignore[no-untyped-def]
    """The recovery mail's subject is in the seat's language; the once-a-day limit is not:
    south (French) gets a new password, switches to English the same day, and a second
    SEND PASSWORD within the day still sends nothing and changes nothing."""
    deliver(race, mail("GAME race1\nSEND PASSWORD south\n", sender="x@example.net"))
    [(_, text)] = outbox(race, kind="password")
    first = _password_in(text, "south")
    deliver(race, mail(f"GAME race1\nPOWER south {first}\nSET LANGUAGE en\n",
                       sender="south@example.org"))
    deliver(race, mail("GAME race1\nSEND PASSWORD south\n", sender="y@example.net"))
    assert len(outbox(race, kind="password")) == 1
    deliver(race, mail(f"GAME race1\nPOWER south {first}\nadvance 1\n", sender="south@example.org"))
    assert "OK  advance 1" in _reply(race, "south@example.org")  # the first password stands


def test_send_password_once_a_day_is_a_day_from_the_last_mail_across_midnight(race) -> None:  # type: ignore[no-untyped-def]
    """"At most once a day" is 24 hours from the last mail, not a calendar day: asked at
    23:00 and again at 01:00 (the next day), the second sends nothing; 24 hours after the
    first, a new one goes out."""
    from datetime import timedelta

    race.clock.advance(timedelta(hours=11))  # 23:00 UTC
    deliver(race, mail("GAME race1\nSEND PASSWORD north\n", sender="x@example.net"))
    race.clock.advance(timedelta(hours=2))
    deliver(race, mail("GAME race1\nSEND PASSWORD north\n", sender="x@example.net"))
    assert len(outbox(race, kind="password")) == 1
    race.clock.advance(timedelta(hours=22, minutes=1))
    deliver(race, mail("GAME race1\nSEND PASSWORD north\n", sender="x@example.net"))
    assert len(outbox(race, kind="password")) == 2


def test_send_password_for_the_same_power_of_two_games_in_one_mail_sends_both(race) -> None:  # type: ignore[no-untyped-def]
    """Each seat whose password is changed gets its mail: one mail asking for ``north`` of
    race1 and of race2 sends two (the outbox keeps one mail a key, and the key was the
    asking mail's and the power's, so race2's north lost its password without a word)."""
    from gm.db.engine import session_scope
    from gm.service.games import create_game
    from tests.pipeline.conftest import SEATS

    with session_scope(race.engine) as s:
        create_game(race, s, game_id="race2", module_name="race", scenario="duel", seats=SEATS,
                    moderator_address="mod@example.org", moderator_password="mod-secret",
                    seed=b"\x03" * 32)
    deliver(race, mail("GAME race1\nSEND PASSWORD north\nGAME race2\nSEND PASSWORD north\n",
                       sender="x@example.net"))
    sent = outbox(race, kind="password")
    assert sorted(r.game_id or "" for r, _ in sent) == ["race1", "race2"]
    [(_, text)] = [(r, t) for r, t in sent if r.game_id == "race2"]
    deliver(race, mail(f"GAME race2\nPOWER north {_password_in(text, 'north')}\nadvance 2\n"))
    assert "OK  advance 2" in _reply(race, "north@example.org")


def test_send_password_for_one_seat_does_not_hold_up_another_seat(race) -> None:  # type: ignore[no-untyped-def]
    """The once-a-day limit is per seat: north's new password does not stop south's."""
    deliver(race, mail("GAME race1\nSEND PASSWORD north\n", sender="x@example.net"))
    deliver(race, mail("GAME race1\nSEND PASSWORD south\n", sender="x@example.net"))
    assert [r.recipients for r, _ in outbox(race, kind="password")] == [
        ["north@example.org"], ["south@example.org"]]
    [(_, text)] = outbox(race, kind="password", to="south@example.org")
    new = _password_in(text, "south")
    deliver(race, mail(f"GAME race1\nPOWER south {new}\nadvance 1\n", sender="south@example.org"))
    assert "OK  advance 1" in _reply(race, "south@example.org")


def test_send_password_without_a_game_asks_which_game(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("SEND PASSWORD north\n", sender="a@example.net"))
    assert "which game? Add a line GAME <game>" in _reply(race, "a@example.net")
    assert outbox(race, kind="password") == []


def test_the_welcome_names_game_scenario_seats_moderator_deadline_and_the_lines_to_send(race) -> None:  # type: ignore[no-untyped-def]
    import icalendar

    from gm.clock import utc

    [(row, text)] = outbox(race, kind="welcome", to="north@example.org")
    assert "Welcome to game race1. You play north." in text
    assert "Game: Race (test game), scenario Two runners (duel)." in text
    assert "The other seats: south." in text and "Your moderator: mod@example.org." in text
    assert "Send your orders to gm@example.org with these first lines:\n\nGAME race1\nPOWER north n-secret" in text
    from email import message_from_bytes
    from email.policy import default

    msg = message_from_bytes(row.raw, policy=default)
    [ics] = [p for p in msg.walk() if p.get_filename() == "deadline.ics"]
    [event] = icalendar.Calendar.from_ical(ics.get_content()).walk("VEVENT")
    deadline = event["DTEND"].dt
    assert deadline > race.clock.now()
    assert f"its deadline is {moment(utc(deadline), 'UTC', 'en')}" in text
    [(_, french)] = outbox(race, kind="welcome", to="south@example.org")
    assert "Les autres sièges : north." in french and "Votre modérateur : mod@example.org." in french


def _press_settings(ctx, **settings: object) -> None:  # type: ignore[no-untyped-def]
    from sqlalchemy import update

    from gm.db.engine import session_scope
    from gm.db.models import Game

    with session_scope(ctx.engine) as s:
        g = s.get(Game, "race1")
        assert g is not None
        s.exec(update(Game).where(Game.id == "race1").values(  # type: ignore[call-overload]
            settings={**(g.settings or {}), **settings}))


PRESS = "GAME race1\nPOWER north n-secret\nPRESS TO south\nMeet me at the bridge.\nENDPRESS\n"


def test_grey_press_is_signed_anonymous(race) -> None:  # type: ignore[no-untyped-def]
    _press_settings(race, press="grey")
    deliver(race, mail(PRESS))
    [(press, text)] = outbox(race, kind="press")
    assert press.recipients == ["south@example.org"]
    assert "Message de la part de : anonyme" in text and "north" not in text  # south reads French


def test_open_press_is_signed_and_none_is_refused(race) -> None:  # type: ignore[no-untyped-def]
    _press_settings(race, press="open")
    deliver(race, mail(PRESS))
    assert "Message de la part de : north" in outbox(race, kind="press")[0][1]
    _press_settings(race, press="none")
    deliver(race, mail(PRESS))
    assert "game race1 allows no press" in _reply(race, "north@example.org")
    assert len(outbox(race, kind="press")) == 1


def test_a_press_setting_gm_does_not_know_sends_nothing_and_says_so(race) -> None:  # type: ignore[no-untyped-def]
    _press_settings(race, press="whisper")
    deliver(race, mail(PRESS))
    assert "has a press setting gm does not know ('whisper')" in _reply(race, "north@example.org")
    assert outbox(race, kind="press") == []


def test_the_moderator_gets_a_copy_of_all_press_naming_the_real_sender(race) -> None:  # type: ignore[no-untyped-def]
    _press_settings(race, press="grey", press_copy=True)
    deliver(race, mail(PRESS))
    [(copy, text)] = outbox(race, kind="press-copy")
    assert copy.recipients == ["mod@example.org"]
    assert "Sent by north (signed anonymous)" in text and "Meet me at the bridge." in text
    assert "north" not in outbox(race, kind="press")[0][1]


def test_press_held_until_results_goes_out_with_the_next_reports(race) -> None:  # type: ignore[no-untyped-def]
    _press_settings(race, press_held=True)
    deliver(race, mail(PRESS))
    [(press, _)] = outbox(race, kind="press")
    assert press.status == "held"
    assert "press to south will go out with the next reports" in _reply(race, "north@example.org")
    deliver(race, mail("GAME race1\nMODERATOR mod-secret\nADJUDICATE NOW\n", sender="mod@example.org"))
    [(press, _)] = outbox(race, kind="press")
    assert press.status == "queued"
    assert any(r.kind == "report" and r.status == "queued" for r, _ in outbox(race, to="south@example.org"))


def test_history_reads_as_a_human_history_with_json_for_scripts(race) -> None:  # type: ignore[no-untyped-def]
    import json
    from datetime import timedelta

    from click.testing import CliRunner

    from gm.cli.main import cli

    for body, sender in ((PRESS, "north@example.org"),
                         ("GAME race1\nPOWER north n-secret\nadvance 2\n", "north@example.org"),
                         ("GAME race1\nMODERATOR mod-secret\nRULING North may take the ford\n"
                          "EXTEND 24h: a holiday\nADJUDICATE NOW\n", "mod@example.org"),
                         ("GAME race1\nPOWER north n-secret\nadvance 3\n", "north@example.org")):
        race.clock.advance(timedelta(minutes=10))  # one mail after the other
        deliver(race, mail(body, sender=sender))  # the last, for turn-2, is not revealed
    url = race.engine.url.render_as_string(hide_password=False)
    text = CliRunner().invoke(cli, ["--db", url, "history", "race1"]).output
    lines = text.splitlines()
    turn1 = lines.index(next(x for x in lines if x.startswith("turn-1 (done): opened")))
    turn2 = lines.index(next(x for x in lines if x.startswith("turn-2 (open): opened")))
    block = "\n".join(lines[turn1:turn2])
    assert "press from north to south: Meet me at the bridge." in block
    assert text.count("North may take the ford") == 1 and "RULING by moderator <mod@example.org>" in block
    assert "moderator extend by moderator <mod@example.org>" in block and "(a holiday)" in block
    assert "orders of north: advance 2" in block
    assert "advance 3" not in text  # the open phase's orders are not revealed
    rows = json.loads(CliRunner().invoke(cli, ["--db", url, "history", "race1", "--json"]).output)
    assert [r["orders"] for r in rows if r["what"] == "orders" and r["power"] == "north"] == [["advance 2"]]
    assert [r["phase"] for r in rows if r["what"] == "phase"] == ["turn-1", "turn-2"]


def test_an_observer_gets_the_public_report_when_the_phase_closes_by_mail(race) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    from gm.cli.main import cli

    url = race.engine.url.render_as_string(hide_password=False)
    added = CliRunner().invoke(cli, ["--db", url, "game", "observe", "race1", "kibitz@example.net"])
    assert added.exit_code == 0 and "kibitz@example.net" in added.output, added.output
    bad = CliRunner().invoke(cli, ["--db", url, "game", "observe", "race1", "not-an-address"])
    assert bad.exit_code != 0 and "is not a mail address" in bad.output
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 2\n"))
    deliver(race, mail("GAME race1\nMODERATOR mod-secret\nADJUDICATE NOW\n", sender="mod@example.org"))
    [(report, text)] = outbox(race, kind="report", to="kibitz@example.net")
    assert report.recipients == ["kibitz@example.net"]
    assert "turn-2" in report.subject and "public report" in report.subject
    assert "n-secret" not in text and "@example.org" not in text
    stopped = CliRunner().invoke(cli, ["--db", url, "game", "observe", "race1", "kibitz@example.net", "--stop"])
    assert stopped.exit_code == 0 and "observers: none" in stopped.output
    deliver(race, mail("GAME race1\nMODERATOR mod-secret\nADJUDICATE NOW\n", sender="mod@example.org"))
    assert len(outbox(race, kind="report", to="kibitz@example.net")) == 1


def test_observe_by_mail_asks_the_moderator_and_sends_nothing_before_they_agree(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("OBSERVE race1\n", sender="kibitz@example.net"))
    assert "The moderator of game race1 has been asked to send you its public reports." in _reply(
        race, "kibitz@example.net")
    [(notice, text)] = outbox(race, kind="notice", to="mod@example.org")
    assert "To agree: gm game observe race1 kibitz@example.net" in text
    deliver(race, mail("GAME race1\nMODERATOR mod-secret\nADJUDICATE NOW\n", sender="mod@example.org"))
    assert outbox(race, kind="report", to="kibitz@example.net") == []


@pytest.mark.parametrize(("language", "subject", "words"), [
    ("en", "kibitz@example.net asks to observe race1",
     ["kibitz@example.net asks to receive the public reports of game race1.",
      "To agree: gm game observe race1 kibitz@example.net"]),
    ("fr", "kibitz@example.net demande à observer race1",
     ["kibitz@example.net demande à recevoir les rapports publics de la partie race1.",
      "Pour accepter : gm game observe race1 kibitz@example.net"])])
def test_the_request_to_observe_is_in_the_moderator_s_language(  # type: ignore[no-untyped-def]
        race, language: str, subject: str, words: list[str]) -> None:
    moderator_speaks(race, "race1", language)
    deliver(race, mail("OBSERVE race1\n", sender="kibitz@example.net"))
    [(notice, text)] = outbox(race, kind="notice", to="mod@example.org")
    assert notice.subject == f"[race1] {subject}"
    assert all(w in text for w in words), text
    assert_in(language, text)


@pytest.mark.parametrize(("language", "subject", "words"), [
    ("en", "newbie@example.net asks to play south in race1",
     ["newbie@example.net asks to play south in game race1 and is on its waiting list "
      "(gm game show race1; by mail: SHOW GAME).", "To give them a seat, by mail: REPLACE POWER <power> WITH "
      "newbie@example.net"]),
    ("fr", "newbie@example.net demande à jouer south dans race1",
     ["newbie@example.net demande à jouer south dans la partie race1 et figure sur sa liste "
      "d'attente (gm game show race1 ; par mail : MONTRER PARTIE).", "Pour lui donner un siège, par mail : REMPLACER PUISSANCE "
      "<puissance> PAR newbie@example.net"])])
def test_the_request_to_join_a_running_game_is_in_the_moderator_s_language(  # type: ignore[no-untyped-def]
        race, language: str, subject: str, words: list[str]) -> None:
    moderator_speaks(race, "race1", language)
    deliver(race, mail("JOIN race1 south\n", sender="newbie@example.net"))
    [(notice, text)] = outbox(race, kind="notice", to="mod@example.org")
    assert notice.subject == f"[race1] {subject}"
    assert all(w in text for w in words), text
    assert_in(language, text)


def test_join_puts_the_sender_on_the_waiting_list_and_the_moderator_gives_the_seat(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("JOIN race1 south\n", sender="newbie@example.net"))
    assert "You are on the waiting list of game race1 for south" in _reply(race, "newbie@example.net")
    deliver(race, mail("JOIN race1 west\n", sender="other@example.net"))
    assert "game race1 has no power 'west' (powers: north, south)" in _reply(race, "other@example.net")
    [(notice, text)] = outbox(race, kind="notice", to="mod@example.org")
    assert "REPLACE POWER <power> WITH newbie@example.net" in text
    shown, data = _show(race)
    assert [(w["address"], w["power"]) for w in data["waiting"]] == [("newbie@example.net", "south")]
    assert "waiting: newbie@example.net for south" in shown
    deliver(race, mail("GAME race1\nMODERATOR mod-secret\nREPLACE POWER south WITH newbie@example.net\n",
                       sender="mod@example.org"))
    assert any(r.kind == "welcome" for r, _ in outbox(race, to="newbie@example.net"))
    assert _show(race)[1]["waiting"] == []
