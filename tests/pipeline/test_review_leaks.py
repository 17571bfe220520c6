"""While the moderator reviews a preview, no player learns the results (orders.md's contract).

With ``preview = true`` each phase's reports are held until RELEASE, which starts the
phase's clock. Every other way gm mails a player during the review was a way around the
hold: a player given a seat (REPLACE) got the report of the held position at once, EXTEND
told every player a deadline naming the held phase (and RELEASE then undid it), a RESUME
named it, LIST named it to anyone, a forming game's welcome named the phase its opening
roll led to, and the reports of a phase a ROLLBACK undid went out at the next RELEASE.
Each test reads what each player's mailbox holds (the mails not held) before and after
RELEASE.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from click.testing import CliRunner
from sqlmodel import select

from gm.cli.main import cli
from gm.db.engine import session_scope
from gm.db.models import HeldReport, OutboundMail
from gm.service.games import create_game, current_phase
from gm.service.render import fmt_time
from tests.pipeline.conftest import deliver, mail, outbox
from tests.pipeline.test_judge_habits import _press_settings
from tests.pipeline.test_moderator_powers import MOD, NORTH, SOUTH, deadline, moderate, phase

NEWBIE = "newbie@example.net"


def mailbox(ctx: Any, address: str, kind: str | None = None) -> list[str]:
    """What ``address`` has been sent (or will be, queued) since :func:`started` (the
    game's first reports left out): every mail to it neither held nor withdrawn."""
    since = getattr(ctx, "since", 0)
    return [text for row, text in outbox(ctx, kind=kind, to=address)
            if row.status not in ("held", "withdrawn") and (row.id or 0) > since]


def started(ctx: Any) -> None:
    """From here on :func:`mailbox` reads the mails queued after this."""
    ctx.since = max((row.id or 0 for row, _ in outbox(ctx)), default=0)


def reviewed(ctx: Any) -> None:
    """race1 with preview: both players order, turn-1 is adjudicated and its reports held."""
    _press_settings(ctx, preview=True)
    started(ctx)
    deliver(ctx, mail("GAME race1\nPOWER north n-secret\nadvance 3\n"))
    deliver(ctx, mail("GAME race1\nPOWER south s-secret\navancer 2\n", sender=SOUTH))
    moderate(ctx, "ADJUDICATE NOW\n")
    assert phase(ctx).phase_id == "turn-2" and not phase(ctx).released
    for address in (NORTH, SOUTH):
        assert mailbox(ctx, address, "report") == []
        assert [row.status for row, _ in outbox(ctx, kind="report", to=address)][-1] == "held"


def cli_run(ctx: Any, *args: str) -> str:
    url = ctx.engine.url.render_as_string(hide_password=False)
    result = CliRunner().invoke(cli, ["--db", url, *args])
    assert result.exit_code == 0, result.output
    return result.output


def check_replaced_during_review(ctx: Any) -> None:
    """south was given to NEWBIE during the review: the new player has the welcome (the
    password, nothing of the results) and no report until RELEASE; then one report,
    naming the deadline the release set. The old player gets no report of the seat."""
    [welcome] = mailbox(ctx, NEWBIE, "welcome")
    assert "turn-2" not in welcome and "position" not in welcome
    assert mailbox(ctx, NEWBIE, "report") == [], "the held position reached the new player"
    ctx.clock.advance(timedelta(days=3))
    moderate(ctx, "RELEASE\n")
    new = deadline(ctx)
    [report] = mailbox(ctx, NEWBIE, "report")
    assert "turn-2" in report and fmt_time(new, "UTC", "fr") in report
    assert mailbox(ctx, NEWBIE, "notice") == []  # the report names the deadline already
    assert mailbox(ctx, SOUTH, "report") == []  # the old player no longer plays south
    assert len(mailbox(ctx, NORTH, "report")) == 1


def test_a_player_given_a_seat_by_mail_during_the_review_gets_its_report_at_release(race: Any) -> None:
    reviewed(race)
    assert "OK  REPLACE" in moderate(race, f"REPLACE POWER south WITH {NEWBIE}: south left\n")
    check_replaced_during_review(race)


def test_a_player_given_a_seat_by_gm_mod_replace_during_the_review_gets_its_report_at_release(
        race: Any) -> None:
    reviewed(race)
    cli_run(race, "mod", "replace", "race1", "south", NEWBIE, "--reason", "south left")
    check_replaced_during_review(race)


def test_an_extend_during_the_review_tells_no_player_and_lengthens_the_released_deadline(
        race: Any) -> None:
    """EXTEND 1d during the review: no notice names the held phase; the moderator reads
    that the clock has not started; RELEASE sets the deadline counted from the release,
    one day later, and the released reports name it."""
    reviewed(race)
    reply = moderate(race, "EXTEND 1d: a holiday\n")
    assert "the clock of turn-2 has not started" in reply, reply
    for address in (NORTH, SOUTH):
        assert mailbox(race, address, "notice") == [], "a notice named the held phase"
    race.clock.advance(timedelta(days=3))
    moderate(race, "RELEASE\n")
    assert deadline(race) == race.clock.now() + timedelta(days=2) + timedelta(days=1)
    for address, language in ((NORTH, "en"), (SOUTH, "fr")):
        [report] = mailbox(race, address, "report")
        assert fmt_time(deadline(race), "UTC", language) in report
        assert mailbox(race, address, "notice") == []


def test_an_extend_to_during_the_review_is_the_released_deadline(race: Any) -> None:
    reviewed(race)
    at = (race.clock.now() + timedelta(days=9)).replace(microsecond=0)
    moderate(race, f"EXTEND TO {at:%Y-%m-%d %H:%M}\n")
    assert mailbox(race, NORTH, "notice") == []
    moderate(race, "RELEASE\n")
    assert deadline(race) == at.replace(second=0)
    assert fmt_time(deadline(race), "UTC", "en") in mailbox(race, NORTH, "report")[0]


def test_resume_during_the_review_does_not_name_the_held_phase(race: Any) -> None:
    reviewed(race)
    moderate(race, "PAUSE\n")
    moderate(race, "RESUME\n")
    for address in (NORTH, SOUTH):
        notices = mailbox(race, address, "notice")
        assert len(notices) == 2 and not any("turn-2" in n for n in notices), notices


def test_list_during_the_review_does_not_name_the_held_phase(race: Any) -> None:
    reviewed(race)
    deliver(race, mail("LIST\n", sender="stranger@example.net"))
    [(_, reply)] = outbox(race, kind="reply", to="stranger@example.net")
    assert "race1" in reply and "(under review)" in reply and "turn-2" not in reply, reply


def test_a_rollback_during_the_review_sends_the_undone_results_to_nobody(race: Any) -> None:
    """ROLLBACK TO turn-1 while turn-1's results are held: the players get the fresh report
    of turn-1 reopened; the held reports of the undone results never go out, not at the
    RELEASE of turn-1 adjudicated again either."""
    reviewed(race)
    moderate(race, "ROLLBACK TO turn-1: wrong dice\n")
    with session_scope(race.engine) as s:
        assert s.exec(select(OutboundMail).where(OutboundMail.status == "held")).all() == []
        assert s.exec(select(HeldReport)).all() == []
    for address in (NORTH, SOUTH):
        [fresh] = mailbox(race, address, "report")
        assert "turn-1" in fresh
    moderate(race, "ADJUDICATE NOW\n")
    moderate(race, "RELEASE\n")
    for address in (NORTH, SOUTH):
        assert len(mailbox(race, address, "report")) == 2  # the fresh one, then turn-1's results


def test_a_rollback_to_the_phase_under_review_keeps_it_held(race: Any) -> None:
    """ROLLBACK TO turn-2, the phase under review: it reopens still held, so its fresh
    reports (the position after turn-1) and the notice naming it wait for RELEASE."""
    reviewed(race)
    moderate(race, "ROLLBACK TO turn-2\n")
    assert phase(race).phase_id == "turn-2" and not phase(race).released
    for address in (NORTH, SOUTH):
        assert mailbox(race, address, "report") == []
        assert not any("turn-2" in n for n in mailbox(race, address, "notice"))
    race.clock.advance(timedelta(days=1))
    moderate(race, "RELEASE\n")
    for address in (NORTH, SOUTH):
        [report] = mailbox(race, address, "report")
        assert "turn-2" in report


def test_a_forming_game_s_welcome_does_not_name_the_phase_held_for_review(ctx: Any) -> None:
    """A Pax Baltica game with preview starts at its last JOIN: the action roll is played
    out and held for review. The welcomes say the moderator reviews it; they do not name
    the phase the roll led to (whose First Player it names) before RELEASE."""
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pb1", module_name="baltica", scenario="12.3", seats=[],
                    moderator_address=MOD, moderator_password="mod-secret", seed=b"\x05" * 32,
                    settings={"forming": {"approve": False}, "preview": True}, forming=True)
    deliver(ctx, mail("JOIN pb1 sweden\n", sender="karl@example.net"))
    deliver(ctx, mail("REJOINDRE pb1 coalition\n", sender="pyotr@example.net"))
    with session_scope(ctx.engine) as s:
        held = current_phase(s, "pb1")
        assert not held.released and "actions" in held.phase_id
    for address in ("karl@example.net", "pyotr@example.net"):
        [welcome] = mailbox(ctx, address, "welcome")
        assert held.phase_id not in welcome, welcome
        assert "actions-" not in welcome
        assert mailbox(ctx, address, "report") == []
    deliver(ctx, mail("GAME pb1\nMODERATOR mod-secret\nRELEASE\n", sender=MOD))
    for address in ("karl@example.net", "pyotr@example.net"):
        [report] = mailbox(ctx, address, "report")
        assert held.phase_id in report


def test_what_a_player_may_ask_for_during_the_review_says_nothing_of_it(race: Any) -> None:
    """A guard (these held before this work): STATUS and HISTORY are refused whole during
    the review, SEND PASSWORD mails a password only, an observer's report is held with the
    seats'."""
    cli_run(race, "game", "observe", "race1", "kibitz@example.net")
    reviewed(race)
    replies = len(mailbox(race, NORTH, "reply"))
    deliver(race, mail("GAME race1\nPOWER north n-secret\nSTATUS\n"))
    deliver(race, mail("GAME race1\nPOWER north n-secret\nHISTORY turn-1\n"))
    deliver(race, mail("GAME race1\nSEND PASSWORD south\n", sender="someone@example.net"))
    for reply in mailbox(race, NORTH, "reply")[replies:]:
        assert "reviewing the last adjudication" in reply and "turn-2" not in reply
    [password] = mailbox(race, SOUTH, "password")
    assert "turn-2" not in password and "position" not in password
    for address in (NORTH, SOUTH, "kibitz@example.net"):
        assert mailbox(race, address, "report") == []
    moderate(race, "RELEASE\n")
    assert len(mailbox(race, "kibitz@example.net", "report")) == 1
