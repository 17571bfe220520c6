"""Pax Viking's dice lines say what they drew in the reader's words.

Set-up E with the custom deck ("4 ventures, 3 events, 3 advocates, 2 gods per player",
docs/viking.md) shuffles each tile type: a French seat read "tuiles choisies (venture)",
the type's id; it reads the type's French word now. The logged purpose, which ``gm
verify`` compares with its replay, keeps the id ("custom ventures").
"""

from __future__ import annotations

from typing import Any

from sqlmodel import col, select

from gm.db.engine import session_scope
from gm.db.models import EventLog
from gm.service.adjudicate import settle
from gm.service.games import create_game
from tests.games.viking.test_viking_by_mail import ADDR, MOD, SEATS, SETTINGS
from tests.pipeline.conftest import outbox


def test_setup_e_the_custom_decks_shuffles_name_the_tile_type_in_french(ctx: Any) -> None:
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pv1", module_name="viking", scenario="3p", seats=SEATS,
                    moderator_address=MOD, moderator_password="mod-secret",
                    settings={**SETTINGS, "deck": "custom"}, seed=b"\x07" * 32)
    settle(ctx, "pv1", by="test")
    blue = outbox(ctx, kind="report", to=ADDR["blue"])[-1][1]  # the French seat
    for word in ("entreprise", "événement", "avocat", "dieu"):
        assert f"tuiles choisies ({word}) : " in blue, blue
    assert "(venture)" not in blue and "(advocate)" not in blue
    red = outbox(ctx, kind="report", to=ADDR["red"])[-1][1]
    assert "custom ventures: " in red and "custom gods: " in red
    with session_scope(ctx.engine) as s:
        purposes = {(r.data or {}).get("purpose") for r in s.exec(
            select(EventLog).where(EventLog.game_id == "pv1", EventLog.type == "roll")
            .order_by(col(EventLog.seq))).all()}
    assert {"custom ventures", "custom events", "custom advocates", "custom gods"} <= purposes
