"""Forming games by mail, through the real pipeline (issue 19, the judges' habit): players
take open seats with JOIN, the game starts when the last one is filled, and the welcome
gives the first phase they order in, its future deadline and its .ics."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.policy import default as default_policy
from typing import Any

import icalendar
import pytest
from click.testing import CliRunner

from gm.cli.main import cli
from gm.clock import utc
from gm.db.engine import session_scope
from gm.l10n import moment
from gm.service.games import SeatSpec, create_game, current_phase, seats
from tests.pipeline.conftest import deliver, mail, outbox
from tests.support.moderator_notice import assert_in, moderator_speaks

MOD = "mod@example.org"


def _forming(ctx, game_id: str = "race1", module: str = "race", scenario: str = "duel",  # type: ignore[no-untyped-def]
             approve: bool = False, seats: list[SeatSpec] | None = None) -> None:
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id=game_id, module_name=module, scenario=scenario,
                    seats=seats or [], moderator_address=MOD, moderator_password="mod-secret",
                    settings={"forming": {"approve": approve}}, seed=b"\x05" * 32, forming=True)


def _reply(ctx, to: str) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(x.strip() for x in outbox(ctx, kind="reply", to=to)[-1][1].splitlines()) + "\n"


def _event(raw: bytes) -> Any:
    msg = message_from_bytes(raw, policy=default_policy)
    [ics] = [p for p in msg.walk() if p.get_filename() == "deadline.ics"]
    [event] = icalendar.Calendar.from_ical(ics.get_content()).walk("VEVENT")
    return event


def _cli(ctx, *args: str) -> Any:  # type: ignore[no-untyped-def]
    url = ctx.engine.url.render_as_string(hide_password=False)
    return CliRunner().invoke(cli, ["--db", url, *args])


def test_join_takes_a_seat_and_the_game_starts_when_the_last_is_filled(ctx) -> None:  # type: ignore[no-untyped-def]
    _forming(ctx)
    deliver(ctx, mail("JOIN race1 north\n", sender="ann@example.net"))
    assert ("you have the seat north in game race1; it starts when 1 more player has "
            "joined (open: south)") in _reply(ctx, "ann@example.net")
    assert outbox(ctx, kind="welcome") == [], "no password before the game starts"
    # orders before the start are refused, with what to do
    deliver(ctx, mail("GAME race1\nPOWER north whatever\nadvance 2\n", sender="ann@example.net"))
    assert "game race1 has not started: it is forming" in _reply(ctx, "ann@example.net")
    # the start is days after the creation: the first deadline is counted from the start
    ctx.clock.advance(timedelta(days=5))
    deliver(ctx, mail("JOIN race1 any\n", sender="bob@example.net"))
    assert "you have the seat south in game race1, its last open seat: the game starts now" in \
        _reply(ctx, "bob@example.net")
    with session_scope(ctx.engine) as s:
        phase = current_phase(s, "race1")
        assert utc(phase.opens_at) == ctx.clock.now() and phase.deadline is not None
        assert utc(phase.deadline) > ctx.clock.now()
        deadline = utc(phase.deadline)
    for address, power, other in (("ann@example.net", "north", "south"),
                                  ("bob@example.net", "south", "north")):
        [(row, text)] = outbox(ctx, kind="welcome", to=address)
        assert f"Welcome to game race1. You play {power}." in text
        assert f"The other seats: {other}." in text and "Your moderator: mod@example.org." in text
        assert "@example.net" not in text.replace(address, ""), "no other player's address"
        assert f"GAME race1\nPOWER {power} " in text
        assert f"The first phase you order in is turn-1; its deadline is {moment(deadline, 'UTC', 'en')}" in text
        assert utc(_event(row.raw)["DTEND"].dt) == deadline
    [(_, notice)] = [m for m in outbox(ctx, kind="notice", to=MOD) if "has started" in m[1]]
    assert "north: ann@example.net" in notice and "south: bob@example.net" in notice
    # the password of the welcome signs on; orders are accepted
    [(_, text)] = outbox(ctx, kind="welcome", to="ann@example.net")
    password = text.split("POWER north ", 1)[1].split()[0]
    deliver(ctx, mail(f"GAME race1\nPOWER north {password}\nadvance 2\n", sender="ann@example.net"))
    assert "OK  advance 2" in _reply(ctx, "ann@example.net")


@pytest.mark.parametrize(("language", "asks", "started", "words"), [
    ("en", "ann@example.net asks to play north in race1", "game race1 has started",
     ["ann@example.net asks to play north in game race1, which is forming (open: north, south).",
      "To approve: gm mod approve race1 ann@example.net",
      "or by mail: GAME race1 / MODERATOR <password> / APPROVE ann@example.net",
      "Every seat of game race1 is filled; the game has started"]),
    ("fr", "ann@example.net demande à jouer north dans race1", "la partie race1 a commencé",
     ["ann@example.net demande à jouer north dans la partie race1, en cours de constitution "
      "(sièges libres : north, south).", "Pour accepter : gm mod approve race1 ann@example.net",
      "ou par mail : PARTIE race1 / MODERATEUR <mot de passe> / APPROUVER ann@example.net",
      "Tous les sièges de la partie race1 sont pris ; la partie a commencé"])])
def test_the_moderator_is_asked_and_told_of_the_start_in_their_language(  # type: ignore[no-untyped-def]
        ctx, language: str, asks: str, started: str, words: list[str]) -> None:
    _forming(ctx, approve=True)
    moderator_speaks(ctx, "race1", language)
    deliver(ctx, mail("JOIN race1 north\n", sender="ann@example.net"))
    assert _cli(ctx, "mod", "approve", "race1", "ann@example.net").exit_code == 0
    deliver(ctx, mail("JOIN race1 south\n", sender="bob@example.net"))
    assert _cli(ctx, "mod", "approve", "race1", "bob@example.net").exit_code == 0
    told = outbox(ctx, kind="notice", to=MOD)
    assert [n.subject for n, _ in told] == [f"[race1] {asks}",
                                           f"[race1] {asks.replace('ann', 'bob').replace('north', 'south')}",
                                           f"[race1] {started}"]
    text = told[0][1] + told[2][1]
    assert all(w in text for w in words), text
    assert "north: ann@example.net" in text and "south: bob@example.net" in text
    assert_in(language, text)


def test_join_refusals_are_clear(ctx) -> None:  # type: ignore[no-untyped-def]
    _forming(ctx, seats=[SeatSpec("north", "host@example.org")])
    deliver(ctx, mail("JOIN race1 north\n", sender="ann@example.net"))
    assert "north is taken in game race1; open: south (or JOIN race1 any)" in _reply(ctx, "ann@example.net")
    deliver(ctx, mail("JOIN race1 west\n", sender="ann@example.net"))
    assert "game race1 has no power 'west' (powers: north, south)" in _reply(ctx, "ann@example.net")
    deliver(ctx, mail("JOIN race1 south\n", sender="host@example.org"))
    assert "you already play north in game race1" in _reply(ctx, "host@example.org")
    # the game then fills and starts; a JOIN now goes on the waiting list for replacements
    deliver(ctx, mail("JOIN race1 south\n", sender="ann@example.net"))
    deliver(ctx, mail("JOIN race1 any\n", sender="late@example.net"))
    assert "You are on the waiting list of game race1 for any" in _reply(ctx, "late@example.net")


def test_list_shows_forming_games_and_their_open_seats(ctx) -> None:  # type: ignore[no-untyped-def]
    _forming(ctx, approve=True)
    deliver(ctx, mail("LIST\n", sender="who@example.net"))
    text = _reply(ctx, "who@example.net")
    [line] = [x for x in text.splitlines() if x.startswith("race1")]
    assert "open: north, south" in line and "(forming)" in line
    assert "JOIN <game> <power>" in text
    deliver(ctx, mail("LIST race1\n", sender="who@example.net"))
    text = _reply(ctx, "who@example.net")
    assert "Game race1: Race (test game), scenario duel, forming" in text and "Open seats: north, south" in text
    assert "the moderator approves each request" in text
    listed = _cli(ctx, "game", "list")
    assert listed.exit_code == 0 and "forming" in listed.output and "open: north, south" in listed.output


def test_with_approval_the_moderator_seats_each_joiner_by_mail_or_command(ctx) -> None:  # type: ignore[no-untyped-def]
    _forming(ctx, approve=True)
    deliver(ctx, mail("JOIN race1 north\n", sender="ann@example.net"))
    assert "your request to play north in game race1 waits for the moderator's approval" in \
        _reply(ctx, "ann@example.net")
    [(_, notice)] = outbox(ctx, kind="notice", to=MOD)
    assert "gm mod approve race1 ann@example.net" in notice and "APPROVE ann@example.net" in notice
    shown = _cli(ctx, "game", "show", "race1")
    assert "north          (open)" in shown.output
    assert "asks to join: ann@example.net for north" in shown.output
    # the moderator approves by mail
    deliver(ctx, mail("GAME race1\nMODERATOR mod-secret\nAPPROVE ann@example.net\n", sender=MOD))
    assert "ann@example.net now plays north" in _reply(ctx, MOD)
    [(_, told)] = outbox(ctx, kind="notice", to="ann@example.net")
    assert "you have the seat north in game race1; it starts when 1 more" in told
    # in French, approved with gm mod approve; the last seat starts the game
    deliver(ctx, mail("REJOINDRE race1 any\n", sender="bea@example.fr"))
    assert "attend l'accord du modérateur" in _reply(ctx, "bea@example.fr")
    done = _cli(ctx, "mod", "approve", "race1", "bea@example.fr")
    assert done.exit_code == 0, done.output
    assert "bea@example.fr now plays south; every seat is filled" in done.output
    [(row, french)] = outbox(ctx, kind="welcome", to="bea@example.fr")
    assert "Bienvenue dans la partie race1. Vous jouez south." in french
    assert "La première phase où vous donnez vos ordres est turn-1" in french
    assert utc(_event(row.raw)["DTEND"].dt) > ctx.clock.now()
    assert json.loads(_cli(ctx, "game", "show", "race1", "--json").output)["status"] == "running"


def test_a_baltica_welcome_gives_each_player_the_first_phase_they_order_in(ctx) -> None:  # type: ignore[no-untyped-def]
    """Pax Baltica opens with an action roll nobody orders in: it is played out as the game
    starts. The First Player's welcome names its action phase and deadline; the Second
    Player's names its own action phase, which opens when the first closes, with the
    latest deadline it can have (the first's deadline plus an action phase), and the
    .ics of each is that deadline."""
    from gm.service.deadlines import deadline_for

    _forming(ctx, "pb1", "baltica", "12.3")
    deliver(ctx, mail("JOIN pb1 sweden\n", sender="karl@example.net"))
    deliver(ctx, mail("REJOINDRE pb1 coalition\n", sender="pyotr@example.net"))
    with session_scope(ctx.engine) as s:
        phase = current_phase(s, "pb1")
        [first] = (phase.info or {}).get("owing")
        assert phase.deadline is not None
        deadline = utc(phase.deadline)
    assert deadline > ctx.clock.now() and phase.phase_id.endswith(f"actions-{first}")
    second = "sweden" if first == "coalition" else "coalition"
    latest = deadline_for({}, "actions", deadline)
    assert latest is not None and latest > deadline
    address = {"sweden": "karl@example.net", "coalition": "pyotr@example.net"}
    [(row, text)] = outbox(ctx, kind="welcome", to=address[first])
    assert phase.phase_id in text and any(moment(deadline, "UTC", lang) in text for lang in ("en", "fr"))
    assert utc(_event(row.raw)["DTEND"].dt) == deadline
    [(row, text)] = outbox(ctx, kind="welcome", to=address[second])
    own = phase.phase_id.replace(first, second)
    assert own in text and any(moment(latest, "UTC", lang) in text for lang in ("en", "fr"))
    event = _event(row.raw)
    assert utc(event["DTEND"].dt) == latest and own in str(event["SUMMARY"]) + str(event["DESCRIPTION"])
    # the roll played out as the game started replays like any other phase
    from gm.verify import verify_game

    with session_scope(ctx.engine) as s:
        assert [m.describe() for m in verify_game(s, "pb1")] == []


def test_a_viking_welcome_tells_a_later_seat_who_orders_first(ctx) -> None:  # type: ignore[no-untyped-def]
    """Pax Viking's turns are one power's at a time: a seat whose turn is later is told who
    orders first and that the report opening its own turn brings its deadline."""
    _forming(ctx, "pv1", "viking", "3p")
    for who in ("red", "blue", "green"):
        deliver(ctx, mail(f"JOIN pv1 {who}\n", sender=f"{who}@example.net"))
    with session_scope(ctx.engine) as s:
        phase = current_phase(s, "pv1")
        [first] = (phase.info or {})["owing"]
    for who in ("red", "blue", "green"):
        [(row, text)] = outbox(ctx, kind="welcome", to=f"{who}@example.net")
        if who == first:
            assert f"The first phase you order in is {phase.phase_id}" in text
            assert utc(_event(row.raw)["DTEND"].dt) > ctx.clock.now()
        else:
            assert f"where {first} orders first" in text and "report that opens your phase" in text


def test_show_addresses_names_the_other_players_unless_press_is_grey(ctx) -> None:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="open1", module_name="race", scenario="duel",
                    seats=[SeatSpec("north", "n@example.org"), SeatSpec("south", "s@example.org")],
                    settings={"show_addresses": True}, seed=b"\x01" * 32)
        create_game(ctx, s, game_id="grey1", module_name="race", scenario="duel",
                    seats=[SeatSpec("north", "n@example.org"), SeatSpec("south", "s@example.org")],
                    settings={"show_addresses": True, "press": "grey"}, seed=b"\x01" * 32)
    texts = {r.game_id: t for r, t in outbox(ctx, kind="welcome", to="n@example.org")}
    assert "The other seats: south (s@example.org)." in texts["open1"]
    assert "The other seats: south." in texts["grey1"]


def test_gm_game_new_forming_from_the_command_line(ctx) -> None:  # type: ignore[no-untyped-def]
    made = _cli(ctx, "game", "new", "vik1", "--module", "viking", "--scenario", "3p",
                "--moderator", MOD, "--forming", "--seat", "red=host@example.org")
    assert made.exit_code == 0, made.output
    assert "forming: open seats blue, green" in made.output and "password" not in made.output.split(
        "moderator password")[0]
    shown = _cli(ctx, "game", "show", "vik1")
    assert "red            host@example.org" in shown.output and "blue           (open)" in shown.output
    assert outbox(ctx, kind="welcome") == []
    wrong = _cli(ctx, "game", "new", "vik2", "--module", "viking", "--scenario", "3p", "--approve")
    assert wrong.exit_code != 0 and "--approve goes with --forming" in wrong.output
    wrong = _cli(ctx, "game", "new", "vik3", "--module", "viking", "--scenario", "3p", "--forming",
                 "--seat", "red=host@example.org:pw")
    assert wrong.exit_code != 0 and "makes its passwords when it starts" in wrong.output


def test_gm_game_new_welcomes_with_the_phase_after_the_opening_roll(ctx) -> None:  # type: ignore[no-untyped-def]
    """`gm game new` plays Pax Baltica's opening action roll out before the welcomes: the
    First Player's welcome gives the action phase's deadline and .ics, not "no orders"."""
    made = _cli(ctx, "game", "new", "pb9", "--module", "baltica", "--scenario", "12.5",
                "--seat", "sweden=karl@example.org", "--seat", "coalition=pyotr@example.org",
                "--set", "maps=false")
    assert made.exit_code == 0, made.output
    with session_scope(ctx.engine) as s:
        phase = current_phase(s, "pb9")
        [first] = (phase.info or {})["owing"]
        assert phase.deadline is not None
    assert f"first phase {phase.phase_id}" in made.output
    address = {"sweden": "karl@example.org", "coalition": "pyotr@example.org"}[first]
    [(row, text)] = outbox(ctx, kind="welcome", to=address)
    assert "needs no orders" not in text
    assert f"The first phase you order in is {phase.phase_id}" in text
    deadline = utc(phase.deadline).replace(microsecond=0)  # the CLI's clock is the real one
    assert utc(_event(row.raw)["DTEND"].dt) == deadline > datetime.now(UTC)


def test_two_instances_filling_the_last_two_seats_start_the_game_once(ctx) -> None:  # type: ignore[no-untyped-def]
    """Instance A seats north and has not committed when instance B seats south. Without the
    game's row lock B would see north still open, answer "1 more player" and neither would
    start the game; with it B waits for A's commit, sees the game full and starts it."""
    import threading
    import time

    import pytest
    from sqlalchemy import text

    from gm.db.models import Game
    from gm.service.forming import join

    if ctx.engine.dialect.name != "postgresql":
        pytest.skip("row locks are PostgreSQL's; a SQLite file has one writer (one gm serve)")
    _forming(ctx)
    answers = {}

    def instance_b() -> None:
        with session_scope(ctx.engine) as b:
            game = b.get(Game, "race1")
            assert game is not None
            answers["b"] = join(ctx, b, game, "bob@example.net", "south")

    with session_scope(ctx.engine) as a:
        game = a.get(Game, "race1")
        assert game is not None
        answers["a"] = join(ctx, a, game, "ann@example.net", "north")
        b = threading.Thread(target=instance_b)
        b.start()
        # until B waits for a lock (or, without one, has finished); the bound is a safety net
        for _ in range(600):
            with ctx.engine.connect() as probe:
                waiting = probe.execute(text(
                    "select count(*) from pg_stat_activity where datname = current_database() "
                    "and wait_event_type = 'Lock'")).scalar()
            if waiting or not b.is_alive():
                break
            time.sleep(0.05)
    b.join()
    assert "1 more player" in answers["a"].text
    assert answers["b"].started is not None, answers["b"].text
    with session_scope(ctx.engine) as s:
        assert current_phase(s, "race1").seq == 0
    assert len(outbox(ctx, kind="welcome")) == 2


def test_the_moderator_declines_a_request_or_frees_a_seat_before_the_start(ctx) -> None:  # type: ignore[no-untyped-def]
    _forming(ctx, approve=True)
    deliver(ctx, mail("JOIN race1 north\n", sender="ann@example.net"))
    done = _cli(ctx, "mod", "decline", "race1", "ann@example.net")
    assert done.exit_code == 0 and "request dropped" in done.output, done.output
    [(_, told)] = outbox(ctx, kind="notice", to="ann@example.net")
    assert "the moderator of game race1 did not give you a seat in it" in told
    assert "asks to join" not in _cli(ctx, "game", "show", "race1").output
    deliver(ctx, mail("REJOINDRE race1 south\n", sender="bea@example.fr"))
    assert _cli(ctx, "mod", "approve", "race1", "bea@example.fr").exit_code == 0
    done = _cli(ctx, "mod", "decline", "race1", "bea@example.fr")
    assert "south is open again" in done.output
    assert "south          (open)" in _cli(ctx, "game", "show", "race1").output
    [*_, (_, told)] = outbox(ctx, kind="notice", to="bea@example.fr")
    assert "ne vous y a pas donné de siège" in told
    assert "neither asked" in _cli(ctx, "mod", "decline", "race1", "who@example.net").output


def test_approve_by_mail_with_a_wrong_moderator_password_seats_nobody(ctx) -> None:  # type: ignore[no-untyped-def]
    _forming(ctx, approve=True)
    deliver(ctx, mail("JOIN race1 north\n", sender="ann@example.net"))
    deliver(ctx, mail("GAME race1\nMODERATOR guessed\nAPPROVE ann@example.net\n", sender=MOD))
    answer = _reply(ctx, MOD)
    assert "NOT ACCEPTED" in answer and "now plays" not in answer
    assert outbox(ctx, kind="notice", to="ann@example.net") == [], "ann is told of no seat"
    shown = _cli(ctx, "game", "show", "race1").output
    assert "north          (open)" in shown and "asks to join: ann@example.net for north" in shown


def test_approve_seats_the_power_the_joiner_asked_for_and_answers_the_request(ctx) -> None:  # type: ignore[no-untyped-def]
    """Not the first open seat: ann asked for south, north (open too) comes first."""
    _forming(ctx, approve=True)
    deliver(ctx, mail("JOIN race1 south\n", sender="ann@example.net"))
    deliver(ctx, mail("GAME race1\nMODERATOR mod-secret\nAPPROVE ann@example.net\n", sender=MOD))
    assert "ann@example.net now plays south" in _reply(ctx, MOD)
    [(_, told)] = outbox(ctx, kind="notice", to="ann@example.net")
    assert "you have the seat south in game race1" in told
    shown = _cli(ctx, "game", "show", "race1").output
    assert "south          ann@example.net" in shown and "north          (open)" in shown
    assert "asks to join" not in shown, "the request approved no longer waits"


def test_a_second_join_while_the_first_waits_asks_the_moderator_once(ctx) -> None:  # type: ignore[no-untyped-def]
    _forming(ctx, approve=True)
    deliver(ctx, mail("JOIN race1 north\n", sender="ann@example.net"))
    deliver(ctx, mail("JOIN race1 south\n", sender="ann@example.net"))
    assert ("your request to join game race1 already waits for the moderator's approval"
            in _reply(ctx, "ann@example.net"))
    assert len(outbox(ctx, kind="notice", to=MOD)) == 1
    shown = _cli(ctx, "game", "show", "race1").output
    assert shown.count("asks to join: ann@example.net") == 1 and "for north" in shown


def test_a_join_in_french_brings_the_welcome_in_french(ctx) -> None:  # type: ignore[no-untyped-def]
    """Without approval the seat is given at once: the JOIN's language is the seat's."""
    _forming(ctx)
    deliver(ctx, mail("REJOINDRE race1 south\n", sender="bea@example.fr"))
    deliver(ctx, mail("JOIN race1 north\n", sender="ann@example.net"))
    [(_, french)] = outbox(ctx, kind="welcome", to="bea@example.fr")
    assert "Bienvenue dans la partie race1. Vous jouez south." in french
    [(_, english)] = outbox(ctx, kind="welcome", to="ann@example.net")
    assert "Welcome to game race1. You play north." in english


def test_a_player_approved_again_after_a_decline_is_told_their_seat(ctx) -> None:  # type: ignore[no-untyped-def]
    """Their second JOIN was answered "you will be told when you have a seat": they are."""
    _forming(ctx, approve=True)
    deliver(ctx, mail("JOIN race1 north\n", sender="ann@example.net"))
    assert _cli(ctx, "mod", "approve", "race1", "ann@example.net").exit_code == 0
    assert _cli(ctx, "mod", "decline", "race1", "ann@example.net").exit_code == 0
    deliver(ctx, mail("JOIN race1 south\n", sender="ann@example.net"))
    assert "you will be told when you have a seat" in _reply(ctx, "ann@example.net")
    assert _cli(ctx, "mod", "approve", "race1", "ann@example.net").exit_code == 0
    *_, (_, told) = outbox(ctx, kind="notice", to="ann@example.net")
    assert "you have the seat south in game race1" in told


def test_each_seat_of_a_started_game_gets_its_own_password(ctx) -> None:  # type: ignore[no-untyped-def]
    _forming(ctx)
    deliver(ctx, mail("JOIN race1 north\n", sender="ann@example.net"))
    deliver(ctx, mail("JOIN race1 south\n", sender="bob@example.net"))
    [(_, text)] = outbox(ctx, kind="welcome", to="ann@example.net")
    password = text.split("POWER north ", 1)[1].split()[0]
    deliver(ctx, mail(f"GAME race1\nPOWER south {password}\nadvance 2\n", sender="ann@example.net"))
    assert "sign-on as south failed: wrong password" in _reply(ctx, "ann@example.net")


def test_decline_after_the_start_is_refused_and_the_player_keeps_the_seat(ctx) -> None:  # type: ignore[no-untyped-def]
    _forming(ctx)
    deliver(ctx, mail("JOIN race1 north\n", sender="ann@example.net"))
    deliver(ctx, mail("JOIN race1 south\n", sender="bob@example.net"))
    done = _cli(ctx, "mod", "decline", "race1", "ann@example.net")
    assert done.exit_code != 0 and "it has started (REPLACE POWER gives a seat to another player); nothing changed" in done.output
    assert "north          ann@example.net" in _cli(ctx, "game", "show", "race1").output
    assert outbox(ctx, kind="notice", to="ann@example.net") == [], "ann is told of no decline"


def test_a_request_for_any_seat_is_approved_onto_a_seat_still_open(ctx) -> None:  # type: ignore[no-untyped-def]
    """ann asks for any seat while north is open; bob's request for north is approved
    first: ann's approval gives her south, not a refusal for north."""
    _forming(ctx, approve=True)
    deliver(ctx, mail("JOIN race1 any\n", sender="ann@example.net"))
    deliver(ctx, mail("JOIN race1 north\n", sender="bob@example.net"))
    deliver(ctx, mail("GAME race1\nMODERATOR mod-secret\nAPPROVE bob@example.net\n"
                      "APPROVE ann@example.net\n", sender=MOD))
    answer = _reply(ctx, MOD)
    assert "bob@example.net now plays north" in answer and "ann@example.net now plays south" in answer
    [(_, welcome)] = outbox(ctx, kind="welcome", to="ann@example.net")
    assert "Welcome to game race1. You play south." in welcome


def test_a_forming_game_with_every_seat_given_is_refused_not_left_unstartable(ctx) -> None:  # type: ignore[no-untyped-def]
    """With no open seat nobody can JOIN ("game is full") and no last seat is ever filled:
    such a game would never start, and its players would never get a welcome."""
    made = _cli(ctx, "game", "new", "race9", "--module", "race", "--scenario", "duel",
                "--moderator", MOD, "--forming", "--seat", "north=ann@example.net",
                "--seat", "south=bob@example.net")
    assert made.exit_code != 0 and "leave out --forming" in made.output, made.output
    assert "no game 'race9'" in _cli(ctx, "game", "show", "race9").output


def test_a_french_joiner_approved_is_told_in_french_subject_included(ctx) -> None:  # type: ignore[no-untyped-def]
    """REJOINDRE, then the moderator's approval: the notice's subject said "your seat:
    north" to a French joiner; it says "votre siège : north"."""
    _forming(ctx, approve=True)
    deliver(ctx, mail("REJOINDRE race1 north\n", sender="bea@example.fr"))
    deliver(ctx, mail("GAME race1\nMODERATOR mod-secret\nAPPROVE bea@example.fr\n", sender=MOD))
    [(row, told)] = outbox(ctx, kind="notice", to="bea@example.fr")
    assert row.subject == "[race1] votre siège : north", row.subject
    assert "your seat" not in told


def test_a_french_joiner_writes_libre_for_any_free_seat(ctx) -> None:  # type: ignore[no-untyped-def]
    """The French reply told "REJOINDRE race1 <puissance> (ou REJOINDRE race1 any)": an
    English word among French ones. It says "libre" now, and "REJOINDRE race1 libre" takes
    a free seat as "any" does."""
    _forming(ctx)
    deliver(ctx, mail("REJOINDRE race1 north\n", sender="ann@example.fr"))
    deliver(ctx, mail("REJOINDRE race1 north\n", sender="bea@example.fr"))
    refused = _reply(ctx, "bea@example.fr")
    assert "(ou REJOINDRE race1 libre)" in refused and " any)" not in refused, refused
    deliver(ctx, mail("REJOINDRE race1 libre\n", sender="bea@example.fr"))
    assert len(outbox(ctx, kind="welcome", to="bea@example.fr")) == 1  # seated: the game starts
    with session_scope(ctx.engine) as s:
        assert {x.power: x.address for x in seats(s, "race1")}["south"] == "bea@example.fr"
