"""READY in a mail with refused lines, in a simultaneous game that closes early when
every power is READY (orders.md §3, docs/orders.md "READY with refused lines"): the
phase must not close early without the orders the player meant."""

from __future__ import annotations

import pytest

from gm.db.engine import session_scope
from gm.service.games import create_game
from tests.games.britannica.test_britannica_by_mail import MOD, POWERS, SEATS, phase_now, send


@pytest.fixture
def early(ctx):  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pax1", module_name="britannica", scenario="1880", seats=SEATS,
                    moderator_address=MOD, moderator_password="mod-secret", seed=b"\x05" * 32,
                    settings={"deadlines": {"early": True}}, play_out=True)
    return ctx


def test_ready_with_a_refused_line_does_not_close_the_phase_early(early) -> None:  # type: ignore[no-untyped-def]
    """Six powers are READY; Italy sends a good order, a mistyped one and READY. Before,
    the phase closed at once with Italy's one good order; now Italy reads why its READY
    was not taken, the phase stays open, and Italy's READY alone then closes it."""
    assert phase_now(early)[0] == "1880-movement"
    for p in POWERS:
        if p != "italy":
            send(early, p, "READY" if p != "france" else "PRET")
    reply = send(early, "italy", "buy army 1", "place influence in Tunsi", "READY")
    assert "OK  buy army 1" in reply, reply
    assert ("READY not taken: 1 line for Italy in game pax1 was refused; send it again corrected "
            "(with READY), or the phase closes at its deadline with the orders accepted") in reply, reply
    assert phase_now(early)[0] == "1880-movement"
    reply = send(early, "italy", "READY")
    assert "your orders are final" in reply and "READY not taken" not in reply, reply
    assert phase_now(early)[0] != "1880-movement"
