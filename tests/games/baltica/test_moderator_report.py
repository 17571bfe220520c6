"""The Pax Baltica report the moderator reads, the blocks' list and the actions left a player reads.

The moderator sees every event and every block (gm.games.base.Event: "the moderator sees
every event"). Their report was a player's with every block in it: "You moved Karl XII,
Dalregementet from Skåne to Småland." (Sweden's own line, as if the moderator had moved
them), "Your blocks:" listing the seventy blocks of both sides in the order of their ids,
pool and out of the game mixed among them ("pool: Bergenhus B1 0/3"), then "Enemy blocks:
none seen". Now it names the power of such a line, lists the blocks on the map by place
with their nation, and those off it by where they are; a player's own blocks are listed by
place too (they came in the order of their ids: Skåne, Västergötland, Estland, Skåne, ...).
"""

from __future__ import annotations

from typing import Any

from gm.db.engine import session_scope
from gm.service.adjudicate import close_phase
from gm.service.games import SeatSpec, create_game, current_phase
from tests.pipeline.conftest import deliver, mail, outbox

SWEDEN, COALITION, MOD = "anna@example.se", "boris@example.ru", "mod@example.org"


def _played(ctx: Any, moderator_language: str = "en") -> None:
    """Sweden's first action phase, closed with a move of three blocks."""
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="b1", module_name="baltica", scenario="12.1",
                    seats=[SeatSpec("sweden", SWEDEN, password="sw-pw"),
                           SeatSpec("coalition", COALITION, password="co-pw")],
                    moderator_address=MOD, moderator_password="mod-pw", seed=b"\x42" * 32,
                    settings={"moderator_language": moderator_language})
    deliver(ctx, mail("GAME b1\nMODERATOR mod-pw\nDICE 5 2\n", sender=MOD))
    for _ in range(2):
        with session_scope(ctx.engine) as s:
            phase = current_phase(s, "b1")
        if phase.phase_id == "1700-autumn-actions-sweden":
            break
        assert close_phase(ctx, "b1", phase.seq, by="test").closed
    deliver(ctx, mail("GAME b1\nPOWER sweden sw-pw\n"
                      "move from Skåne: Karl XII, Dalregementet to Småland\n", sender=SWEDEN))
    with session_scope(ctx.engine) as s:
        seq = current_phase(s, "b1").seq
    assert close_phase(ctx, "b1", seq, by="test").closed


def _report(ctx: Any, to: str) -> str:
    return outbox(ctx, kind="report", to=to)[-1][1]


def test_the_moderators_report_names_the_power_that_moved_not_you(ctx: Any) -> None:
    _played(ctx)
    report = _report(ctx, MOD)
    assert "Sweden moved Karl XII, Dalregementet from Skåne to Småland." in report, report
    assert "You moved" not in report
    # the player who moved still reads it as theirs
    assert "You moved Karl XII, Dalregementet from Skåne to Småland." in _report(ctx, SWEDEN)


def test_the_moderators_report_lists_every_block_by_place_and_those_off_the_map(ctx: Any) -> None:
    _played(ctx)
    report = _report(ctx, MOD)
    assert "Every block (the moderator sees them all):" in report, report
    assert "Your blocks:" not in report and "Enemy blocks:" not in report
    assert "  Småland: Karl XII (Swedish) A3 4/4" in report
    assert "  Ingermanland: Pyotr I (Russian) B3 4/4" in report
    pool = next(line for line in report.splitlines() if line.startswith("  Replacement pool: "))
    assert "Bergenhus" in pool and "Tordenskiold" in pool
    assert "\n  pool: Bergenhus" not in report
    places = [line.split(":")[0].strip() for line in
              report.split("Every block")[1].split("Replacement pool")[0].splitlines()[1:] if line.strip()]
    assert places == sorted(places), places


def test_the_moderators_report_in_french(ctx: Any) -> None:
    _played(ctx, moderator_language="fr")
    report = _report(ctx, MOD)
    assert "Tous les blocs (le modérateur les voit tous) :" in report, report
    assert "La Suède a déplacé Karl XII, Dalregementet de Skåne vers Småland." in report
    assert "Réserve de remplacement : " in report


def test_a_players_own_blocks_are_listed_by_place(ctx: Any) -> None:
    _played(ctx)
    report = _report(ctx, SWEDEN)
    own = report.split("Your blocks:")[1].split("Enemy blocks")[0]
    places = [line.split(":")[0].strip() for line in own.splitlines() if line.startswith("  ")]
    assert places == sorted(places), places
    assert places.count("Småland") == 2  # Karl XII and Dalregementet moved there


def test_rule_3_1_actions_cannot_be_saved_the_second_players_phase_counts_only_theirs(ctx: Any) -> None:
    """3.1: "The First Player performs all their actions ..., and then the Second Player
    performs all of theirs." Sweden's unused action is gone once its phase closed; the
    reports of the Coalition's phase said "Actions left from this turn's roll (3.1): sweden
    1, coalition 2", as if Sweden had one to send."""
    _played(ctx)
    for to in (SWEDEN, COALITION, MOD):
        report = _report(ctx, to)
        assert "Actions left from this turn's roll (3.1): Coalition 2." in report, report
