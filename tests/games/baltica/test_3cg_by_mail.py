"""A Pax Baltica game created with the 3CG ruleset through the service (what ``gm game new
--set ruleset=3cg-1.1`` does): the state keeps the ruleset, and the players read the
3CG spellings in their first report and may order with them."""

from __future__ import annotations

from gm.db.engine import session_scope
from gm.db.models import Game
from gm.service.adjudicate import settle
from gm.service.games import SeatSpec, create_game
from tests.pipeline.conftest import deliver, mail, outbox

SWEDEN, COALITION, MOD = "karl@example.org", "pjotr@example.org", "mod@example.org"
SEATS = [SeatSpec("sweden", SWEDEN, password="sw-secret"),
         SeatSpec("coalition", COALITION, password="co-secret")]


def test_a_3cg_game_by_mail_speaks_3cg(ctx) -> None:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pb3", module_name="baltica", scenario="12.1",
                    seats=SEATS, moderator_address=MOD, moderator_password="mod-secret",
                    settings={"ruleset": "3cg-1.1", "optional": "13.1"}, seed=b"\x05" * 32)
    with session_scope(ctx.engine) as s:
        game = s.get(Game, "pb3")
        assert game is not None and game.ruleset == "3cg-1.1"
    first = [t for _, t in outbox(ctx, kind="report", to=COALITION)][-1]
    assert "Pjotr I" in first and "Sjeremetev" in first
    assert "Sheremetev" not in first
    assert "Rules: Pax Baltica v1.1 (3CG), optional rules 13.1" in first
    deliver(ctx, mail("GAME pb3\nMODERATOR mod-secret\nDICE 2 5\n", sender=MOD))
    settle(ctx, "pb3", by="test")
    deliver(ctx, mail("GAME pb3\nPOWER coalition co-secret\n"
                      "move from Ingermanland: Sjeremetev to Nyen\n", sender=COALITION))
    reply = [t for _, t in outbox(ctx, kind="reply", to=COALITION)][-1]
    assert "Sjeremetev" in reply and "refused" not in reply.lower(), reply
