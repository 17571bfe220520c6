"""Issue 17 class 1: the two valid orders that crashed, by mail through the real pipeline.

* ``move from Estland: Estländska to ...`` with a condition: the stored order is
  re-read from its echo at adjudication, and the accent-free copy of the line the
  parser reads gave the block name ``Estlandska``, which no block has (KeyError).
* ``congress at Germany about CB-3``: the Casus Belli numbers could not be stored.
"""

from __future__ import annotations

from gm.db.engine import session_scope
from gm.games.baltica.parsing import reparse
from gm.games.baltica.state import GameState
from gm.service.adjudicate import close_phase
from gm.service.games import SeatSpec, create_game, current_phase
from tests.pipeline.conftest import deliver, mail, outbox

BALTICA = {"sweden": "anna@example.se", "coalition": "boris@example.ru"}


def _phase(ctx, game: str) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        p = current_phase(s, game)
        return p.phase_id, p.seq


def _state(ctx, game: str) -> GameState:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        return GameState.from_json(current_phase(s, game).game_state)


def test_a_stored_conditional_order_keeps_the_accents_of_its_names() -> None:
    order = reparse("move from Estland: Estländska to Ingermanland unless round >= 9")
    assert order.order.groups[0].blocks == ("Estländska",)
    assert reparse("siège Estland avec Vellinck, Estländska si round >= 2").order.blocks == (
        "Vellinck", "Estländska")


def test_moving_estlandska_on_a_condition_is_carried_out_after_ready(ctx) -> None:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="b1", module_name="baltica", scenario="12.1",
                    seats=[SeatSpec(p, a, password=f"{p}-pw") for p, a in BALTICA.items()],
                    moderator_address="mod@example.org", moderator_password="mod-pw",
                    seed=b"\x42" * 32)
    deliver(ctx, mail("GAME b1\nMODERATOR mod-pw\nDICE 5 2\n", sender="mod@example.org"))
    assert close_phase(ctx, "b1", _phase(ctx, "b1")[1], by="test").closed
    assert _phase(ctx, "b1")[0] == "1700-autumn-actions-sweden"
    assert _state(ctx, "b1").blocks["estlandska"].location == "estland"

    deliver(ctx, mail("GAME b1\nPOWER sweden sweden-pw\n"
                      "move from Estland: Estländska to Ingermanland unless round >= 9\nREADY\n",
                      sender=BALTICA["sweden"]))
    assert "OK  move from Estland: Estländska to Ingermanland" in outbox(
        ctx, kind="reply", to=BALTICA["sweden"])[-1][1]
    result = close_phase(ctx, "b1", _phase(ctx, "b1")[1], by="test")
    assert result.closed and not result.problem
    assert _state(ctx, "b1").blocks["estlandska"].location == "ingermanland"


def test_a_congress_about_a_casus_belli_is_stored_and_adjudicated(ctx) -> None:  # type: ignore[no-untyped-def]
    powers = ("britain", "france", "germany", "italy", "japan", "russia", "usa")
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pax1", module_name="britannica", scenario="1880",
                    seats=[SeatSpec(p, f"{p}@example.org", password=f"{p}-pw") for p in powers],
                    moderator_address="mod@example.org", moderator_password="mod-pw",
                    seed=b"\x05" * 32, play_out=True)  # the 1880 set-up's GM phases
    assert close_phase(ctx, "pax1", _phase(ctx, "pax1")[1], by="test").closed  # movement
    assert _phase(ctx, "pax1")[0] == "1880-negotiation"
    deliver(ctx, mail("GAME pax1\nPOWER italy italy-pw\ncongress at Germany about CB-3\n",
                      sender="italy@example.org"))
    [(_, reply)] = outbox(ctx, kind="reply", to="italy@example.org")
    # Italy holds no Casus Belli: its own position forbids the call (issue 17 class 4)
    assert "refused: only a power with a Casus Belli may call a Congress" in reply, reply
    with session_scope(ctx.engine) as s:  # the moderator's SET: the third one is Italy's
        p = current_phase(s, "pax1")
        p.game_state = {**(p.game_state or {}), "casus_belli": [
            {"holder": h, "against": a, "area": area, "cause": "control_over_influence"}
            for h, a, area in (("france", "britain", "egypt"), ("britain", "france", "egypt"),
                               ("italy", "france", "tunis"))]}
        s.add(p)
    deliver(ctx, mail("GAME pax1\nPOWER italy italy-pw\ncongress at Germany about CB-3\n",
                      sender="italy@example.org"))
    reply = outbox(ctx, kind="reply", to="italy@example.org")[-1][1]
    assert "OK  congress in germany about CB-3" in reply, reply
    assert "Italy: 1 order stored" in reply, reply
    result = close_phase(ctx, "pax1", _phase(ctx, "pax1")[1], by="test")
    assert result.closed and not result.problem
    assert _phase(ctx, "pax1")[0] == "1880-congress"  # carried to the adjudication: convened
