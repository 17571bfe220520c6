"""An Althing vote and a trade proposal by mail, through the real pipeline.

The position is prepared in the open phase's state (the player to move holds an
Althing event and has longships placed); everything after that is mail: the
turn's orders, every player's secret vote in the short Althing phase, the
rival's answer to the offer made mid-journey in the trade phase, then the rest of
the journey and of the turn (an order conditional on the answer).
"""

from __future__ import annotations

import copy

from sqlmodel import select
from test_viking_by_mail import ADDR, LANG, now

from gm.db.engine import session_scope
from gm.db.models import Phase
from gm.games.registry import get as get_module
from gm.games.viking import module
from gm.service.games import current_phase
from tests.pipeline.conftest import deliver, mail, outbox


def prepare(ctx) -> tuple[str, str, str]:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        phase = current_phase(s, "pv1")
        row = s.exec(select(Phase).where(Phase.id == phase.id)).one()
        state = copy.deepcopy(row.game_state)
        p0, p1, p2 = state["powers"]
        althing = next(t.id for t in module.data.tileset("starter")
                       if t.name == "Thingvellir Assembly")
        state["pile"].remove(althing) if althing in state["pile"] else None
        state["track"] = [None if x == althing else x for x in state["track"]]
        state["players"][p0]["hand"].append(althing)
        state["ships"] += [{"owner": p0, "at": "sigtuna", "exhausted": False},
                           {"owner": p0, "at": "ladoga", "exhausted": False},
                           {"owner": p1, "at": "ilmen", "exhausted": False}]
        row.game_state = state
        s.add(row)
    return p0, p1, p2


def send(ctx, p: str, lines: str) -> None:  # type: ignore[no-untyped-def]
    ready = "PRET" if LANG[p] == "fr" else "READY"
    deliver(ctx, mail(f"GAME pv1\nPOWER {p} {p}-pw\n{lines}\n{ready}\n", sender=ADDR[p]))


def test_althing_votes_and_a_trade_answer_by_mail(pv) -> None:  # type: ignore[no-untyped-def]
    p0, p1, p2 = prepare(pv)
    silfr = {p: now(pv)[1]["players"][p]["silfr"] for p in (p0, p1, p2)}
    send(pv, p0, f"play Thingvellir Assembly\njourney from Ladoga to Holmgard, Smolensk\n"
                 f"offer {p1}: give 2 silfr for nothing\ninvest draw if trade accepted")
    phase, state, owing = now(pv)
    assert phase == f"round-1-{p0}-althing-1" and set(owing) == {p0, p1, p2}

    # Secret ballot: each voter's reply echoes only their own vote.
    send(pv, p1, "voter oui" if LANG[p1] == "fr" else "vote yes")
    send(pv, p2, "voter non" if LANG[p2] == "fr" else "vote no")
    reply = outbox(pv, kind="reply", to=ADDR[p2])[-1][1]
    assert "vote no" in reply and "vote yes" not in reply
    assert now(pv)[0] == phase  # p0 has not voted yet
    send(pv, p0, "vote yes")

    # The Althing passed (2 of 3); the turn went on to the offer.
    phase, state, owing = now(pv)
    assert phase == f"round-1-{p0}-trade-1-0" and owing == (p1,)
    # the journey stopped where p1 is colocated (Holmgard), waiting for the answer
    assert [sh["at"] for sh in state["ships"] if sh["owner"] == p0 and sh["at"] != "sigtuna"] \
        == ["holmgard"]
    assert all(state["players"][p]["silfr"] == silfr[p] + 2 for p in (p0, p1, p2))
    report_p2 = outbox(pv, kind="report", to=ADDR[p2])[-1][1]
    assert "2 of 3 votes yes" in report_p2 or "2 voix pour sur 3" in report_p2
    assert "negotiating" in report_p2 or "négocient" in report_p2
    offer = ("Trade offer: ", "Offre d'échange : ")
    assert not any(o in report_p2 for o in offer)  # only the two parties see the items
    report_p1 = outbox(pv, kind="report", to=ADDR[p1])[-1][1]
    said = get_module("viking").seat_name(p0, LANG[p1])  # issue 20: "Vert" for a French seat
    assert any(f"{o}{said} " in report_p1 for o in offer) and "2 silfr" in report_p1

    send(pv, p1, "accepter" if LANG[p1] == "fr" else "accept")
    phase, state, owing = now(pv)
    assert phase == f"round-1-{p1}" and owing == (p1,)
    assert state["players"][p0]["silfr"] == silfr[p0]  # +2 Althing, -2 trade, no income
    assert state["players"][p1]["silfr"] == silfr[p1] + 4
    assert len(state["players"][p0]["hand"]) == 1  # "invest draw if trade accepted" was
    assert [sh["at"] for sh in state["ships"] if sh["owner"] == p0 and sh["at"] != "sigtuna"] \
        == ["smolensk"]  # and the rest of the journey after the answer
    report_p2 = outbox(pv, kind="report", to=ADDR[p2])[-1][1]
    assert "skipped" not in report_p2.lower() and "if trade accepted" not in report_p2
