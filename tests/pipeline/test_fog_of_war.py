"""Fog of war in what the service sends, on the toy game (tests/support/toygame.py).

In Race a power's position, its die and its "race.ran" event are its own: the others
(and observers) learn only who leads. Each test reads the mails a player or an observer
receives, as they would, and looks for what belongs to another power. The game modules'
own fog (which blocks, hands, treaties a view shows) is tested with each game; here it is
the service's part: which events, rolls, views and press reach whom.
"""

from __future__ import annotations

import re
from datetime import timedelta

from click.testing import CliRunner

from gm.cli.main import cli
from tests.pipeline.conftest import deliver, mail, outbox
from tests.pipeline.test_judge_habits import _press_settings
from tests.present.support import mails

ADJUDICATE = "GAME race1\nMODERATOR mod-secret\nADJUDICATE NOW\n"


def _adjudicate(ctx) -> None:  # type: ignore[no-untyped-def]
    ctx.clock.advance(timedelta(minutes=10))  # the closed phase's mails fall inside it
    deliver(ctx, mail(ADJUDICATE, sender="mod@example.org"))


def _last_report(ctx, to: str) -> str:  # type: ignore[no-untyped-def]
    return [t for r, t in outbox(ctx, kind="report", to=to) if "history" not in r.subject][-1]


def _positions_shown(text: str) -> list[str]:
    """The runners whose position a report lists (the moderator's view lists them all)."""
    return re.findall(r"^ +(north|south): \d+$", text, re.M)


def _whole_mails(ctx, to: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Every mail queued to ``to``, each as the text of all its parts (bodies and
    attachments), as a player who opens everything reads it."""
    out = []
    for _row, msg in mails(ctx, to=to):
        texts = [str(part.get_content()) for part in msg.walk() if not part.is_multipart()]
        out.append("\n".join(texts))
    return out


def test_a_report_holds_no_event_visible_only_to_another_power(race) -> None:  # type: ignore[no-untyped-def]
    """An event ``visible_to`` one power appears in its report only (gm.service.reports.visible
    letting everything through, or the events' visible_to dropped when they are logged,
    sends south north's "race.ran"). The rolls: tests/service/test_game_flow.py."""
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 3\n"))
    _adjudicate(race)
    north, south = _last_report(race, "north@example.org"), _last_report(race, "south@example.org")
    assert "race.ran: power=north" in north and "race.ran: power=south" in south  # their own
    assert "race.ran: power=north" not in south, south
    assert "race.ran: power=south" not in north, north


def test_an_observers_report_is_the_public_view_without_any_powers_secrets(race) -> None:  # type: ignore[no-untyped-def]
    """An observer gets the spectator's view (GameModule.public_view) and the public events
    only: no power's position, event or die (not the moderator's full report)."""
    url = race.engine.url.render_as_string(hide_password=False)
    added = CliRunner().invoke(cli, ["--db", url, "game", "observe", "race1", "kibitz@example.net"])
    assert added.exit_code == 0, added.output
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 3\n"))
    _adjudicate(race)
    text = _last_report(race, "kibitz@example.net")
    assert "race.leader: power=" in text  # the public event is there
    assert not _positions_shown(text), text
    assert "race.ran" not in text, text  # a runner's event
    assert " runs" not in text, text  # a runner's die
    assert "power: spectator" in text and "position: None" in text  # it runs no race


def test_moderator_only_press_to_all_is_never_shown_to_a_player(race) -> None:  # type: ignore[no-untyped-def]
    """Under ``press = moderator-only`` a PRESS TO ALL reaches the moderator alone; the
    archive's public press (HISTORY's phase page) must not publish it to the players.
    It did: the body said "Press from north to all", which the archive takes for public
    press."""
    _press_settings(race, press="moderator-only")
    race.clock.advance(timedelta(minutes=10))
    deliver(race, mail("GAME race1\nPOWER north n-secret\nPRESS TO ALL\nFor the moderator's eyes."
                       "\nENDPRESS\n"))
    [(press, _)] = outbox(race, kind="press")
    assert press.recipients == ["mod@example.org"]
    _adjudicate(race)
    deliver(race, mail("GAME race1\nPOWER south s-secret\nHISTORY\n", sender="south@example.org"))
    [(_, history)] = [(r, t) for r, t in outbox(race, kind="report", to="south@example.org")
                      if "history" in r.subject]
    assert "==== gm report race1" in history  # south's own report and the phase page
    for _, text in outbox(race, to="south@example.org") + outbox(race, to="north@example.org"):
        assert "For the moderator's eyes" not in text


def test_status_answers_with_the_powers_own_view_not_the_moderators(race) -> None:  # type: ignore[no-untyped-def]
    """STATUS appends the power's current report: its own position, never the others'."""
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 3\n"))
    _adjudicate(race)
    deliver(race, mail("GAME race1\nPOWER north n-secret\nSTATUS\n"))
    reply = outbox(race, kind="reply", to="north@example.org")[-1][1]
    assert "position:" in reply  # the report is there
    assert not _positions_shown(reply), reply
    assert "report for north" in reply and "power: north" in reply


def test_history_sends_the_powers_own_reports_only(race) -> None:  # type: ignore[no-untyped-def]
    """HISTORY <phase>: the reports this power received (and the public page), never another
    power's report or the moderator's, though all of them are stored for that phase."""
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 3\n"))
    _adjudicate(race)
    deliver(race, mail("GAME race1\nPOWER south s-secret\nHISTORY turn-2\n", sender="south@example.org"))
    [history] = [t for r, t in outbox(race, kind="report", to="south@example.org")
                 if "history" in r.subject]
    assert "race.ran: power=south" in history  # its own report
    assert "race.ran: power=north" not in history, history  # north's report or the moderator's
    assert "north runs" not in history, history
    assert "report for north" not in history and "report for the moderator" not in history


def test_a_running_games_reports_carry_no_history_of_every_power(race) -> None:  # type: ignore[no-untyped-def]
    """Only the final reports carry the archive's reveal page (every report of every power,
    every roll); while the game runs no mail to a player holds another power's report."""
    deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 3\n"))
    _adjudicate(race)
    _adjudicate(race)
    south = _whole_mails(race, "south@example.org")
    assert sum("race.ran: power=south" in m for m in south) == 2  # its two reports
    for whole in south:
        assert "race.ran: power=north" not in whole, whole
        assert "north runs" not in whole, whole


def test_the_public_archive_shows_press_to_all_and_no_press_between_two_powers(race, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``gm archive`` (and HISTORY's phase page) publish the press every power received;
    press from one power to another stays theirs."""
    race.clock.advance(timedelta(minutes=10))
    deliver(race, mail("GAME race1\nPOWER north n-secret\nPRESS TO south\nMeet me at the bridge."
                       "\nENDPRESS\nPRESS TO ALL\nFair winds to all.\nENDPRESS\n"))
    _adjudicate(race)
    out = tmp_path / "site"
    url = race.engine.url.render_as_string(hide_password=False)
    result = CliRunner().invoke(cli, ["--db", url, "archive", "race1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    everything = "\n".join(p.read_text(encoding="utf-8") for p in out.iterdir())
    assert "Fair winds to all." in everything
    assert "Meet me at the bridge." not in everything


def test_the_reports_at_the_start_are_each_seats_own_view(race) -> None:  # type: ignore[no-untyped-def]
    """The report each seat gets when the game starts is its view, not the moderator's."""
    [north] = [t for r, t in outbox(race, kind="report", to="north@example.org")]
    assert not _positions_shown(north), north
    assert "power: north" in north


def test_the_fresh_report_after_a_rollback_is_each_seats_own_view(race) -> None:  # type: ignore[no-untyped-def]
    _adjudicate(race)
    before = len(outbox(race, kind="report", to="north@example.org"))
    deliver(race, mail("GAME race1\nMODERATOR mod-secret\nROLLBACK TO turn-1: wrong dice\n",
                       sender="mod@example.org"))
    fresh = [t for _, t in outbox(race, kind="report", to="north@example.org")[before:]]
    assert fresh and all("==== gm report race1 turn-1" in t for t in fresh)
    assert not any(_positions_shown(t) for t in fresh), fresh


def test_a_new_player_in_a_seat_gets_that_seats_view(race) -> None:  # type: ignore[no-untyped-def]
    from gm.db.engine import session_scope
    from gm.service.games import get_game
    from gm.service.moderator import replace_power

    _adjudicate(race)
    with session_scope(race.engine) as s:
        replace_power(race, s, get_game(s, "race1"), actor="test", power="south",
                      address="newcomer@example.net")
    [report] = [t for _, t in outbox(race, kind="report", to="newcomer@example.net")]
    assert not _positions_shown(report), report
    assert "power: south" in report


def test_the_archive_publishes_no_press_that_reached_only_the_moderator_or_is_still_held(race) -> None:  # type: ignore[no-untyped-def]
    """Public press is press a player was sent. A moderator-only PRESS TO ALL stored before
    its body named its audience still reads "to all" (the rows below are written as that
    version wrote them); press held until the results is not public while it is held."""
    from gm.db.engine import session_scope
    from gm.service.archive import public_press
    from gm.service.outbox import queue_mail

    def press(text: str, to: str, *, held: bool = False) -> None:
        with session_scope(race.engine) as s:
            queue_mail(race, s, game_id="race1", kind="press", to=[to], held=held,
                       subject="[race1] press from north", key=f"old:{text}:{to}",
                       text=f"==== gm press race1 ====\nPress from north to all:\n\n{text}\n")

    press("For the moderator's eyes.", "mod@example.org")
    press("Held until the results.", "south@example.org", held=True)
    press("Heard by all.", "south@example.org")
    with session_scope(race.engine) as s:
        assert public_press(s, "race1", race.clock.now(), None) == [("north", "Heard by all.")]
