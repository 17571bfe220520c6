"""What a player read by mail and was misled by (explore-viking): each test sends the
mail a player sent and checks the reply or report says what happened, in their language."""

from __future__ import annotations

import pytest
from test_viking_by_mail import ADDR, MOD, SETTINGS, now
from test_viking_s7_by_mail import position, reply_to, ship

from gm.db.engine import session_scope
from gm.service.adjudicate import settle
from gm.service.games import SeatSpec, create_game
from tests.pipeline.conftest import outbox

FRENCH_RED = [SeatSpec(p, ADDR[p], password=f"{p}-pw", language="fr" if p == "red" else "en")
              for p in ADDR]


@pytest.fixture
def pvfr(ctx):  # type: ignore[no-untyped-def]
    """The 3-player game of ``pv`` (red's turn first) with red writing French."""
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pv1", module_name="viking", scenario="3p", seats=FRENCH_RED,
                    moderator_address=MOD, moderator_password="mod-secret",
                    settings=SETTINGS, seed=b"\x07" * 32)
    settle(ctx, "pv1", by="test")
    return ctx


def test_a_french_seat_names_a_rival_by_the_colour_its_report_shows(pvfr) -> None:  # type: ignore[no-untyped-def]
    """docs/viking.md, Orders: "PLAYER is a color or the jarl's name"; a French report
    calls green "Vert", so "offrir Vert : ..." names green instead of being refused as
    "puissance introuvable : 'Vert'"."""
    assert now(pvfr)[2] == ("red",)
    report = outbox(pvfr, kind="report", to=ADDR["red"])[-1][1]
    assert "Vert (" in report
    position(pvfr, lambda st: st["ships"].extend([ship("red", "ladoga"), ship("green", "holmgard")]))
    reply = reply_to(pvfr, "red", "voyager de Ladoga vers Holmgard\n"
                                  "offrir Vert : donner 1 silfr contre rien")
    assert "introuvable" not in reply and "??" not in reply, reply
    assert "OK  offrir green : donner 1 silfr contre rien" in reply, reply
