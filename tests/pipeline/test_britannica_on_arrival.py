"""Issue 17 class 4 by mail, Pax Britannica (orders.md §2): in the Negotiation, Congress and
War phases the orders the power's own position already forbids are refused in the reply,
with the reason, and not stored; the rest is stored as before. The corpus's britannica42
game, put into the position by hand (the moderator's SET does the same by mail)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import OrderSet
from gm.service.context import ServiceContext
from gm.service.games import current_phase
from tests.e2e.corpus_game import BRITANNICA, BRITANNICA_SEATS
from tests.pipeline.conftest import deliver, mail, outbox


def position(ctx: ServiceContext, change: Callable[[dict[str, Any]], None]) -> None:
    with session_scope(ctx.engine) as s:
        p = current_phase(s, BRITANNICA)
        state = dict(p.game_state or {})
        change(state)
        p.game_state = state
        s.add(p)


def send(ctx: ServiceContext, power: str, body: str) -> str:
    address, password, _ = BRITANNICA_SEATS[power]
    deliver(ctx, mail(f"GAME {BRITANNICA}\nPOWER {power} {password}\n{body}", sender=address,
                      to="gm@pbem.example"))
    return outbox(ctx, kind="reply", to=address)[-1][1]


def stored(ctx: ServiceContext, power: str) -> list[str]:
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(OrderSet).where(OrderSet.power == power,
                                             OrderSet.current == True)).all()  # noqa: E712
        return [line for r in rows for line in r.text.splitlines()]


def negotiation(state: dict[str, Any]) -> None:
    """1880 Negotiation: Italy's Protectorate in Tunis over France's Influence (France holds
    a Casus Belli against Italy)."""
    state["step"] = "negotiation"
    state["markers"]["tunis"] = [{"power": "france", "kind": "influence", "established": True},
                                 {"power": "italy", "kind": "protectorate", "established": True}]
    state["casus_belli"] = [{"holder": "france", "against": "italy", "area": "tunis",
                             "cause": "control_over_influence"}]


def test_negotiation_orders_the_position_forbids_are_refused_in_the_reply(
        other_games: ServiceContext) -> None:
    position(other_games, negotiation)
    reply = send(other_games, "britain", "congress at Germany\n"
                 "propose 1: Britain keeps Egypt\n"
                 'breach "Entente" by France\n'
                 "downgrade Egypt to interest\n")
    assert "REFUSED  congress in germany: refused: only a power with a Casus Belli may call a " \
           "Congress" in reply
    assert "refused: a resolution may only settle the areas in dispute" in reply
    assert "refused: you are not a party to a ratified treaty of that name" in reply
    assert "OK  downgrade Egypt to interest" in reply
    assert stored(other_games, "britain") == ["downgrade Egypt to interest"]
    reply = send(other_games, "france", "congress at Germany\npropose 1: France takes Tunis\n")
    assert "REFUSED" not in reply and "??" not in reply, reply


def test_war_and_congress_orders_the_position_forbids_are_refused_in_the_player_s_language(
        other_games: ServiceContext) -> None:
    def war(state: dict[str, Any]) -> None:
        negotiation(state)
        state["step"] = "war"

    position(other_games, war)
    reply = send(other_games, "germany", "declare war on Italy\ndeny Suez to Britain\n")
    assert "refused: a declaration of war needs a Casus Belli against that power" in reply
    assert "refused: you have no established Control marker there" in reply
    assert stored(other_games, "germany") == []
    reply = send(other_games, "france", "declare war on Italy\n")  # France's seat reads French
    assert "REFUSED" not in reply and "REFUSÉ" not in reply, reply

    def signing(state: dict[str, Any]) -> None:
        negotiation(state)
        state["step"] = "congress-sign"
        state["congress"] = {"caller": "france", "site": "russia",
                             "disputes": list(state["casus_belli"]), "parties": ["france", "italy"],
                             "members": ["france", "italy", "russia"],
                             "proposals": [{"name": "Tunis to Italy", "by": "italy",
                                            "clauses": [["france", "none", "tunis"]]}],
                             "votes": {}, "adopted": "Tunis to Italy", "moved_site": False}

    position(other_games, signing)
    reply = send(other_games, "france", 'défier "Tunis to France"\n')
    assert "la résolution à signer ou à défier est Tunis to Italy" in reply, reply
