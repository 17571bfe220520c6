"""The Pax Viking by-mail game: 3 players (blue writes French), turns closed by READY."""

from __future__ import annotations

import pytest

from gm.db.engine import session_scope
from gm.service.adjudicate import settle
from gm.service.games import create_game
from tests.games.viking.test_viking_by_mail import MOD, SEATS, SETTINGS


def start_pv(ctx, seats=SEATS):  # type: ignore[no-untyped-def]
    """The 3-player game pv1 (red's turn first), its opening played out; ``seats``: who
    plays which colour in which language."""
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pv1", module_name="viking", scenario="3p", seats=seats,
                    moderator_address=MOD, moderator_password="mod-secret",
                    settings=SETTINGS, seed=b"\x07" * 32)
    settle(ctx, "pv1", by="test")
    return ctx


@pytest.fixture
def pv(ctx):  # type: ignore[no-untyped-def]
    return start_pv(ctx)
