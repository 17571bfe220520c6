"""The order mail contract (orders.md §5-§9, and the press of §1 with the game settings
docs/orders.md gives it) clause by clause, as the players and the moderator read it in
the mails they get: the clauses a mutation audit of §5-§9 broke with no test failing (or
failing only by accident). Each test is named after its clause, quotes it, and fails
when that clause alone is broken."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from tests.e2e.corpus_game import VIKING, VIKING_SEATS
from tests.pipeline.conftest import deliver, mail, outbox
from tests.pipeline.test_judge_habits import PRESS, _press_settings
from tests.pipeline.test_moderator_powers import mails_to, moderate, phase
from tests.pipeline.test_standing_by_mail import ATTACK, SWEDEN, close, send
from tests.support.moderator_notice import assert_in, moderator_speaks

NORTH, SOUTH, MOD = "north@example.org", "south@example.org", "mod@example.org"


def test_a_standing_decision_stands_when_a_decision_of_another_kind_is_given_in_the_battles(
        game: Any) -> None:
    """§5: standing orders are "used when the battles ... come, unless the player replaces
    them in a later sub-phase" (docs/orders.md: "orders of one kind ... replace that kind
    sent earlier; the other kinds stand (a `hits prefer` sent in the battles phase keeps
    the retreats sent with the actions)")."""
    send(game, "sweden", ATTACK + "retreat Vellinck to Estland if round >= 1\n")
    close(game)  # Sweden's actions
    close(game)  # the Coalition's
    assert "OK  hits prefer Estländska" in send(game, "sweden", "hits prefer Estländska\n")
    close(game)  # the battles
    report = outbox(game, kind="report", to=SWEDEN)[-1][1]
    assert "Vellinck retreats from Ingermanland to Estland." in report


def test_a_standing_decision_stands_when_another_kind_is_sent_in_the_other_action_phase(
        game: Any) -> None:
    """§5: standing orders "are accepted with a player's actions (and with ADD), stored, and
    used when the battles ... come" (docs/orders.md: accepted "in either action phase of a
    season, from either player"; a kind replaces only that kind): Sweden's `hits prefer`
    sent while the Coalition acts keeps the retreat sent with Sweden's actions."""
    send(game, "sweden", ATTACK + "retreat Vellinck to Estland if round >= 1\n")
    close(game)  # Sweden's actions
    reply = send(game, "sweden", "hits prefer Estländska\n")
    assert "OK  hits prefer Estländska   (kept as a standing order" in reply
    close(game)  # the Coalition's actions
    close(game)  # the battles (the Coalition gave no decision: they waited for it)
    report = outbox(game, kind="report", to=SWEDEN)[-1][1]
    assert "Vellinck retreats from Ingermanland to Estland." in report


def test_every_french_keyword_of_pax_baltica_is_understood(game: Any) -> None:
    """§8: "Every keyword has a French form, accents optional ...: `déplacer de X : ... vers
    Y` (move from X: ... to Y), `par` (via), `forcée` (force), `reconnaître` (recon),
    `siège` (siege), `avec` (with), `politique` (politics), `remplacer` (replace),
    `embarquer`, `naviguer` (sail), `débarquer` (land), `retraite` (retreat), `regrouper`
    (regroup), `si ... alors` (if ... then), `sauf si` (unless), `et`, `ou`, `non`": each
    line is understood (refused or not by the position), none is "not understood"."""
    reply = send(game, "sweden", "CHECK\n"
                 "déplacer de Estland : Vellinck vers Ingermanland par Livland forcée\n"
                 "reconnaître Livland si round >= 1 et non (round >= 5 ou round >= 6)\n"
                 "siège Estland avec Vellinck sauf si round >= 3\n"
                 "si round >= 1 alors politique Pologne\n"
                 "remplacer Karl XII\n"
                 "embarquer Karl XII de Skåne sur Wachtmeister\n"
                 "naviguer Wachtmeister de Baltique du Sud vers Gulf of Finland\n"
                 "debarquer Karl XII de Gulf of Finland vers Ingermanland\n"
                 "retraite Vellinck vers Estland\n"
                 "regrouper Vellinck vers Estland\n")
    understood = [
        "4  OK  move from Estland: Vellinck to Ingermanland via Livland force",
        "5  OK  recon Livland if round >= 1 and not (round >= 5 or round >= 6)",
        "6  REFUSED  siege Estland with Vellinck unless round >= 3:",
        "7  REFUSED  if round >= 1 then politics Poland:",
        "8  REFUSED  replace Karl XII:",
        "9  OK  embark Karl XII from Skåne onto Wachtmeister",
        "10  OK  sail Wachtmeister from Southern Baltic Sea to Gulf of Finland",
        "11  OK  land Karl XII from Gulf of Finland to Ingermanland",
        "12  OK  retreat Vellinck to Estland",
        "13  REFUSED  regroup Vellinck to Estland:"]
    assert [x for x in understood if x not in reply] == []
    assert "??" not in reply


def test_press_to_named_powers_is_forwarded_to_those_powers_only(other_games: Any) -> None:
    """§1: "`PRESS TO france, russia` ... `ENDPRESS` | a message forwarded to those
    powers": in a game of three, red's press to blue never reaches green."""
    red, password, _ = VIKING_SEATS["red"]
    deliver(other_games, mail(f"GAME {VIKING}\nPOWER red {password}\nPRESS TO blue\n"
                              "Green is weak at Birka.\nENDPRESS\n", sender=red,
                              to="gm@pbem.example"))
    blue, green = VIKING_SEATS["blue"][0], VIKING_SEATS["green"][0]
    [to_blue] = mails_to(other_games, blue, kind="press")
    assert "Message de la part de : Rouge ; destinataires : Bleu" in to_blue and "Green is weak at Birka." in to_blue
    assert mails_to(other_games, green, kind="press") == []


def test_the_french_presse_a_finpresse_forwards_press(race: Any) -> None:
    """§8: "Every keyword has a French form" (docs/orders.md: `PRESSE A ... FINPRESSE`,
    `TOUS` = `ALL`, accents optional): south, a French seat, writes press in French and
    north receives it, signed with south's power."""
    deliver(race, mail("GAME race1\nPOWER south s-secret\nPRESSE À north\nRendez-vous au gué.\n"
                       "FINPRESSE\nPRESSE A TOUS\nBonne chance à tous.\nFINPRESSE\n",
                       sender=SOUTH))
    to_north = mails_to(race, NORTH, kind="press")
    assert len(to_north) == 2
    assert "Press from south to north:" in to_north[0] and "Rendez-vous au gué." in to_north[0]
    assert "Press from south to all:" in to_north[1] and "Bonne chance à tous." in to_north[1]


def test_press_held_until_results_is_not_released_before_the_results(race: Any) -> None:
    """docs/orders.md: "`press_held = true`: press is held until results ... it goes out
    when the phase's reports do (with `preview`, when the moderator releases them)": while
    the moderator reviews the adjudication, south has neither the results nor the press."""
    _press_settings(race, press_held=True, preview=True)
    deliver(race, mail(PRESS))
    moderate(race, "ADJUDICATE NOW\n")
    assert [row.status for row, _ in outbox(race, kind="press")] == ["held"]
    assert [row.status for row, _ in outbox(race, kind="report", to=SOUTH)][-1] == "held"
    moderate(race, "RELEASE: checked\n")
    assert [row.status for row, _ in outbox(race, kind="press")] == ["queued"]


def test_the_moderator_gets_a_copy_of_every_press_also_to_all(race: Any) -> None:
    """docs/orders.md: "`press_copy = true`: the moderator gets a copy of every press (kind
    `press-copy`), naming the real sender even when the press is anonymous": `PRESS TO ALL`
    too."""
    _press_settings(race, press="grey", press_copy=True)
    deliver(race, mail("GAME race1\nPOWER north n-secret\nPRESS TO ALL\nThe ford is mine.\n"
                       "ENDPRESS\n"))
    [copy] = mails_to(race, MOD, kind="press-copy")
    assert "Sent by north (signed anonymous)" in copy and "The ford is mine." in copy


def test_the_copy_of_press_is_in_the_moderator_s_language(race: Any) -> None:
    """The press copy's own words follow the game's ``moderator_language`` (they were
    English for a French moderator): "copie de la presse de north", "Envoyée par north
    (signée anonyme)"; the press itself is passed on as written."""
    _press_settings(race, press="grey", press_copy=True)
    moderator_speaks(race, "race1", "fr")
    deliver(race, mail("GAME race1\nPOWER north n-secret\nPRESS TO ALL\nThe ford is mine.\n"
                       "ENDPRESS\n"))
    [(row, copy)] = [(r, t) for r, t in outbox(race, kind="press-copy", to=MOD)]
    assert row.subject == "[race1] copie de la presse de north"
    assert "Envoyée par north (signée anonyme) :" in copy and "The ford is mine." in copy
    assert "Sent by" not in copy


def test_replace_power_gives_the_new_player_the_current_report(race: Any) -> None:
    """§9: "`REPLACE POWER italy WITH new@example.org` | new player, new password, the
    current report": the report comes with the seat, not only after the next adjudication."""
    moderate(race, "REPLACE POWER south WITH newbie@example.net: south left\n")
    [report] = mails_to(race, "newbie@example.net", kind="report")
    assert "turn-1" in report


def test_dice_that_run_out_stop_the_adjudication_and_the_moderator_is_told(race: Any) -> None:
    """§9: "`DICE 3 1 5 6 ...` | rolls to use, in order, in the next adjudication; if they
    run out, the adjudication stops and the moderator is told" (the race rolls twice)."""
    reports = len(mails_to(race, NORTH, kind="report"))
    moderate(race, "DICE 3\nADJUDICATE NOW\n")
    [(notice, text)] = outbox(race, kind="notice", to=MOD)
    assert notice.subject == "[race1] adjudication of turn-1 stopped"
    assert "ran out at 'south runs'" in text and "stays open without a deadline" in text
    assert len(mails_to(race, NORTH, kind="report")) == reports  # no results went out
    assert phase(race).phase_id == "turn-1"


def test_dice_that_run_out_are_told_in_the_moderator_s_language(race: Any) -> None:
    """The same notice (§9) for a moderator who reads French (``moderator_language``)."""
    moderator_speaks(race, "race1", "fr")
    moderate(race, "DICE 3\nADJUDICATE NOW\n")
    [(notice, text)] = outbox(race, kind="notice", to=MOD)
    assert notice.subject == "[race1] arbitrage de turn-1 interrompu"
    assert "Les jets fournis (1 utilisé) sont épuisés à « south runs »" in text
    assert "La phase reste ouverte sans date limite jusqu'à ce que vous agissiez" in text
    assert_in("fr", text)


def test_resume_deadline_sets_the_deadline_instead_of_moving_it_by_the_pause(race: Any) -> None:
    """§9: "`PAUSE` / `RESUME` | stop and restart the clock; deadlines move by the length of
    the pause unless `RESUME DEADLINE time`": the players are told the time the moderator
    gave, not the old deadline moved by the two days of the pause."""
    moderate(race, "PAUSE: server move\n")
    race.clock.advance(timedelta(days=2))
    moderate(race, "RESUME DEADLINE 2026-02-01 18:00\n")
    assert ("the deadline of turn-1 is now Sun, Feb 1, 2026, 18:00 UTC"
            in mails_to(race, NORTH, kind="notice")[-1])


def test_a_rollback_is_told_to_everyone_each_in_their_language(race: Any) -> None:
    """§9: "`ROLLBACK TO phase` | back to the start of that phase: ... and everyone is told"
    (docs/orders.md: "told to every active player, each in their own language, with the
    reason unless the act is `PRIVATE`")."""
    moderate(race, "ADJUDICATE NOW\n")
    moderate(race, "ROLLBACK TO turn-1: wrong orders read\n")
    [north] = mails_to(race, NORTH, kind="notice")
    assert "The moderator rolled game race1 back to turn-1." in north
    assert "Reason: wrong orders read" in north
    [south] = mails_to(race, SOUTH, kind="notice")
    assert "Le modérateur a ramené la partie race1 à turn-1." in south
    assert "Raison : wrong orders read" in south
