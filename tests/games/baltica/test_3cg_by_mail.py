"""A Pax Baltica game created with the 3CG ruleset through the service (what ``gm game new
--set ruleset=3cg-1.1`` does): the state keeps the ruleset, and the players read the
3CG spellings in their first report and may order with them."""

from __future__ import annotations

import re

from gm.db.engine import session_scope
from gm.db.models import Game
from gm.service.adjudicate import close_phase, settle
from gm.service.games import SeatSpec, create_game, current_phase
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


def test_a_standing_reroll_order_by_mail(ctx) -> None:  # type: ignore[no-untyped-def]
    """3CG 13.3 by mail: Sweden's ``reroll actions below 6``, sent in the Coalition's action
    phase, is echoed OK; at the next action roll both players read the re-roll, the
    Coalition in French."""
    seats = [SEATS[0], SeatSpec("coalition", COALITION, password="co-secret", language="fr")]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pb4", module_name="baltica", scenario="12.1",
                    seats=seats, moderator_address=MOD, moderator_password="mod-secret",
                    settings={"ruleset": "3cg-1.1", "optional": "13.3"}, seed=b"\x05" * 32)
    deliver(ctx, mail("GAME pb4\nMODERATOR mod-secret\nDICE 2 5\n", sender=MOD))
    settle(ctx, "pb4", by="test")
    deliver(ctx, mail("GAME pb4\nPOWER sweden sw-secret\nreroll actions below 6\n",
                      sender=SWEDEN))
    reply = [t for _, t in outbox(ctx, kind="reply", to=SWEDEN)][-1]
    assert "OK  reroll actions below 6" in reply, reply
    for _ in range(4):  # the Coalition's actions, Sweden's, battles, forage: those with
        with session_scope(ctx.engine) as s:  # no decision left close at once
            phase = current_phase(s, "pb4")
        if phase.phase_id.startswith("1700-winter-actions-"):
            break
        assert close_phase(ctx, "pb4", phase.seq, by="test").closed
    with session_scope(ctx.engine) as s:
        assert current_phase(s, "pb4").phase_id.startswith("1700-winter-actions-")
    sw = [t for _, t in outbox(ctx, kind="report", to=SWEDEN)]
    co = [t for _, t in outbox(ctx, kind="report", to=COALITION)]
    assert any("From the next action roll, Sweden re-rolls an action roll below 6 (13.3: 5 "
               "re-rolls left)." in t for t in sw)
    assert not any("relance un jet d’action inférieur" in t for t in co)  # Sweden's own
    line = re.search(r"Sweden re-rolls its action roll of (\d): now (\d) \(13\.3, 4 re-rolls "
                     r"left\)\.", sw[-1])
    assert line is not None, sw[-1]
    assert (f"La Suède relance son jet d’action de {line.group(1)} : maintenant "
            f"{line.group(2)} (13.3, 4 relances restantes).") in co[-1]
