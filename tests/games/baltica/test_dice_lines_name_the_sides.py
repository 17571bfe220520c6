"""Pax Baltica's dice lines name the sides as the rest of the report does.

docs/dice.md: every roll is listed in the report with its purpose. The report said
"Action rolls: Sweden 5, Coalition 2" and under "Dice:" "action roll sweden: 5", "action
roll coalition: 2": the sides by their ids. They are now said by their names, English
("Sweden", "Coalition") or French ("Suède", "Coalition"), as ``GameModule.power_name``
names them; the logged purpose, which ``gm verify`` compares with its replay, keeps the
id ("action roll sweden").
"""

from __future__ import annotations

from typing import Any

from sqlmodel import col, select

from gm.db.engine import session_scope
from gm.db.models import EventLog
from gm.dice import Dice, Roll
from gm.games.baltica.board import load_board
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.rules.event_effects import Choices, side_event
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import GameState
from gm.i18n import say
from tests.orders.test_baltica_orders_as_players_write_them import COALITION, SWEDEN, _baltica
from tests.pipeline.conftest import outbox


def _dice(report: str, heading: str) -> str:
    return report[report.index(heading):]


def test_rule_3_1_the_action_roll_lines_name_the_sides_english_and_french(ctx: Any) -> None:
    """3.1: "Each player rolls one die". The Swedish seat reads French, the Coalition's
    English; the moderator supplied 5 and 2."""
    _baltica(ctx, "fr")
    french = _dice(outbox(ctx, kind="report", to=SWEDEN)[-1][1], "Dés :")
    assert "jet d’actions (Suède) : 5 (fournis par le modérateur)" in french, french
    assert "jet d’actions (Coalition) : 2 (fournis par le modérateur)" in french
    english = _dice(outbox(ctx, kind="report", to=COALITION)[-1][1], "Dice:")
    assert "action roll Sweden: 5 (supplied by the moderator)" in english, english
    assert "action roll Coalition: 2 (supplied by the moderator)" in english
    assert "sweden" not in english and "coalition" not in english
    with session_scope(ctx.engine) as s:  # what gm verify compares is unchanged
        rows = s.exec(select(EventLog).where(EventLog.game_id == "b1", EventLog.type == "roll")
                      .order_by(col(EventLog.seq))).all()
        assert [(r.data or {}).get("purpose") for r in rows] == [
            "action roll sweden", "action roll coalition"]


def test_rule_12_2_the_event_table_and_its_rps_are_named_not_their_ids() -> None:
    """12.1 #5: "Roll on the Swedish (12.2) or Coalition (12.3) event table"; 12.2 #6
    "Forced recruitment": "Roll one die and receive that many RPs". The two rolls read
    "swedish_event_table sweden" and "forced_recruitment RPs" in a report; they are said
    as the report names the table and the event, the logged purpose unchanged. (Read as a
    report reads a stored roll: Roll.to_json, then the template's ``say``.)"""
    gs = GameState.from_json(BalticaModule().setup("12.1", {}))
    w = World(load_board(), gs, Dice.scripted([6, 4]))
    side_event(w, "sweden", Choices())
    stored = [Roll.from_json(r.to_json()) for r in w.dice.rolls]
    assert [str(r.purpose) for r in stored] == ["swedish_event_table sweden",
                                                "forced_recruitment RPs"]
    purpose = [r.to_json()["purpose_msg"] for r in stored]
    assert [say(p, "en") for p in purpose] == ["Swedish Event Table (12.2) Sweden",
                                               "forced recruitment RPs"]
    assert [say(p, "fr") for p in purpose] == ["table des événements suédois (12.2) (Suède)",
                                               "PR de l’événement recrutement forcé"]
