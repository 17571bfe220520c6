"""Seed 003, Setting up the Game, by mail: the first report players get shows the 1880 GM phases.

"The GM will send each player a copy of the set-up ... It will also show the results of the
Random Events Phase, Administration Phase and Minor Powers Phase conducted by the GM which
will set the scene for the first Movement/Status Change phase." The game is created and its
set-up phase played out as ``gm game new`` does (``create_game(play_out=True)``); the
assertions read the mails players receive, in English and French, and the dice log.
"""

from __future__ import annotations

from sqlmodel import col, select

from gm.db.engine import session_scope
from gm.db.models import EventLog
from gm.service.games import SeatSpec, create_game, current_phase
from gm.verify import verify_game
from tests.pipeline.conftest import outbox

POWERS = ("britain", "france", "germany", "italy", "japan", "russia", "usa")
ADDR = {p: f"{p}@example.org" for p in POWERS}
SEED = b"\x05" * 32


def _new_game(ctx) -> None:  # type: ignore[no-untyped-def]
    seats = [SeatSpec(p, ADDR[p], password=f"{p}-pw", language="fr" if p == "france" else "en")
             for p in POWERS]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pax0", module_name="britannica", scenario="1880", seats=seats,
                    moderator_address="mod@example.org", moderator_password="mod-secret", seed=SEED,
                    play_out=True)


def test_rule_setting_up_the_game_first_report_shows_random_events_administration_minor_powers(
        ctx) -> None:  # type: ignore[no-untyped-def]
    """"It will also show the results of the Random Events Phase, Administration Phase and
    Minor Powers Phase conducted by the GM which will set the scene for the first
    Movement/Status Change phase": the one report that goes with the welcome opens 1880
    Movement and carries those results, each seat's own Administration, in its language."""
    _new_game(ctx)
    with session_scope(ctx.engine) as s:
        assert current_phase(s, "pax0").phase_id == "1880-movement"
    for p in POWERS:
        (_, welcome), = outbox(ctx, kind="welcome", to=ADDR[p])
        (_, first), = outbox(ctx, kind="report", to=ADDR[p])  # one report, not two
        assert "==== gm report pax0 1880-movement" in first
        if p == "france":
            assert "La première phase où vous donnez vos ordres est 1880-movement" in welcome
            for words in ("Le MJ met la partie en place en 1880",
                          "Phase des événements aléatoires : ",
                          "Administration de la France : bureau colonial ",
                          "Phase des puissances mineures : "):
                assert words in first, (words, first)
        else:
            assert "The first phase you order in is 1880-movement" in welcome
            name = {"usa": "U.S.A."}.get(p, p.capitalize())
            for words in ("The GM sets the game up in 1880",
                          "Random Events phase: ",
                          f"Administration of {name}: colonial office £",
                          "Minor Powers phase: "):
                assert words in first, (words, first)
        others = [q for q in POWERS if q != p]
        assert not any(f"Administration of {q.capitalize()}:" in first for q in others)


def test_rule_setting_up_the_game_dice_logged_and_verified(ctx) -> None:  # type: ignore[no-untyped-def]
    """The set-up's GM phases roll the game's dice like any phase: the rolls are logged under
    1880-setup (number of random events, colonial offices, minor powers' activity) and
    ``gm verify`` derives the same rolls from the seed and replays the same state."""
    _new_game(ctx)
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(EventLog).where(EventLog.game_id == "pax0", EventLog.phase_seq == 0,
                                             EventLog.type == "roll")
                      .order_by(col(EventLog.seq))).all()
        purposes = [str((r.data or {}).get("purpose")) for r in rows]
        assert purposes[0] == "number of random events"
        assert "colonial office britain" in purposes
        assert {f"minor power activity {m}" for m in ("belgium", "netherlands", "portugal", "spain")} \
            <= set(purposes)
        assert [m.describe() for m in verify_game(s, "pax0", SEED)] == []


def test_the_dice_lines_name_powers_in_the_readers_language(ctx) -> None:  # type: ignore[no-untyped-def]
    """A French seat's report lists the set-up's rolls with the powers' French names
    ("activité de puissance mineure (Belgique)"), not the data's ids ("(belgium)"); the
    English report with their English names as the rest of it ("minor power activity
    Belgium", it read "minor power activity belgium"); the logged purposes (which `gm verify` compares) keep
    the ids (test_rule_setting_up_the_game_dice_logged_and_verified)."""
    _new_game(ctx)
    (_, french), = outbox(ctx, kind="report", to=ADDR["france"])
    dice = french[french.index("Dés :"):]
    for minor in ("Belgique", "Pays-Bas", "Portugal", "Espagne"):
        assert f"activité de puissance mineure ({minor}) :" in dice, dice
    assert "ministère des Colonies (France) :" in dice
    assert "(belgium)" not in dice and "(france)" not in dice
    (_, english), = outbox(ctx, kind="report", to=ADDR["britain"])
    dice = english[english.index("Dice:"):]
    for minor in ("Belgium", "Netherlands", "Portugal", "Spain"):
        assert f"minor power activity {minor}:" in dice, dice
    assert "colonial office Britain:" in dice
    assert "belgium" not in dice and "britain:" not in dice
