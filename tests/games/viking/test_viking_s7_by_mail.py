"""orders.md §7 (Pax Viking): the contract's example lines, sent by mail.

Each is an alias of one of gm's own orders (docs/viking.md, "The contract's forms"):
the reply echoes gm's order ("OK  invest buy Shipwright"). Numbers are read as a player
counts them, from 1: a saga-track slot as the report lists the track, a longship as the
report lists the player's longships, a tile by the ``number`` of its data, an offer by
the K of its trade phase ``round-R-PLAYER-trade-K-C``. The position is prepared in the
open phase's state (red's turn); everything else is mail.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from sqlmodel import select
from test_viking_althing_trade_by_mail import send
from test_viking_by_mail import ADDR, DATA, now

from gm.db.engine import session_scope
from gm.db.models import Phase
from gm.service.games import current_phase
from tests.pipeline.conftest import deliver, mail, outbox


def position(ctx, change: Callable[[dict[str, Any]], None]) -> None:  # type: ignore[no-untyped-def]
    """Change the open phase's state in place (the table as the test needs it)."""
    with session_scope(ctx.engine) as s:
        phase = current_phase(s, "pv1")
        row = s.exec(select(Phase).where(Phase.id == phase.id)).one()
        state = copy.deepcopy(row.game_state)
        change(state)
        row.game_state = state
        s.add(row)


def tile(name: str) -> str:
    return next(t.id for t in DATA.tileset("starter") if t.name == name)


def take_out(state: dict[str, Any], tid: str) -> None:
    """``tid`` leaves the saga pile or track (it is about to be placed elsewhere)."""
    state["pile"] = [x for x in state["pile"] if x != tid]
    state["track"] = [None if x == tid else x for x in state["track"]]


def ship(power: str, at: str) -> dict[str, Any]:
    return {"owner": power, "at": at, "exhausted": False}


def reply_to(ctx, p: str, lines: str) -> str:  # type: ignore[no-untyped-def]
    """The reply to orders sent without READY (stored, nothing carried out)."""
    deliver(ctx, mail(f"GAME pv1\nPOWER {p} {p}-pw\n{lines}\n", sender=ADDR[p]))
    return outbox(ctx, kind="reply", to=ADDR[p])[-1][1]


def test_s7_invest_3_buys_the_tile_in_saga_track_slot_3(pv) -> None:  # type: ignore[no-untyped-def]
    """§7: ``invest 3                # buy the saga tile in track slot 3``."""
    phase, state, owing = now(pv)
    assert owing == ("red",) and state["players"]["red"]["silfr"] >= DATA.rule("track_costs")[2]
    third = DATA.tiles[state["track"][2]].name
    reply = reply_to(pv, "red", "invest 3")
    assert f"OK  invest buy {third}" in reply and "??" not in reply
    reply = reply_to(pv, "red", "investir 3")  # the French form (orders.md §8)
    assert f"OK  invest buy {third}" in reply and "??" not in reply


def test_s7_invest_refuses_an_empty_or_missing_slot_naming_the_full_ones(pv) -> None:  # type: ignore[no-untyped-def]
    """§7 ``invest 3``: an empty slot or one past the track is refused, with the slots
    that hold a tile."""
    def empty_slot_3(state: dict[str, Any]) -> None:
        state["track"][2] = None

    position(pv, empty_slot_3)
    reply = reply_to(pv, "red", "invest 3\ninvest 9")
    assert "no tile in saga-track slot 3: the slots holding tiles are 1, 2, 4, 5, 6, 7" in reply
    assert "no tile in saga-track slot 9: the slots holding tiles are 1, 2, 4, 5, 6, 7" in reply
    assert "OK  invest" not in reply


def test_s7_journey_longship_2_journeys_from_where_the_second_longship_stands(pv) -> None:  # type: ignore[no-untyped-def]
    """§7: ``journey longship 2 to Gotland, Baltic Sea, Novgorod``: red's longships, as
    its report lists them, are at Holmgard (Novgorod) then Ladoga: the second journeys."""
    def two_longships(state: dict[str, Any]) -> None:
        state["ships"] += [ship("red", "ladoga"), ship("red", "holmgard")]

    position(pv, two_longships)
    reply = reply_to(pv, "red", "journey longship 2 to Gulf of Finland, Baltic Sea, Paviken\n"
                                "journey longship 1 to Ladoga, Svir")
    assert "OK  journey from Ladoga to Gulf of Finland, Baltic Sea, Paviken" in reply
    assert "OK  journey from Holmgard to Ladoga, Svir" in reply


def test_s7_journey_refuses_a_longship_the_player_does_not_have(pv) -> None:  # type: ignore[no-untyped-def]
    """§7 ``journey longship 2 ...`` from a player with one longship on the map."""
    position(pv, lambda state: state["ships"].append(ship("red", "ladoga")))
    reply = reply_to(pv, "red", "journey longship 2 to Holmgard")
    assert "you have no longship 2 on the map: you have 1" in reply
    assert "OK  journey" not in reply


def test_s7_play_117_at_novgorod_names_the_tile_by_its_number(pv) -> None:  # type: ignore[no-untyped-def]
    """§7: ``play 117 at Novgorod``: Fur Traders is tile 1 of the starter set, a Ladoga
    venture; red's longship stands alone on Lyubsha."""
    def fur_traders(state: dict[str, Any]) -> None:
        take_out(state, tile("Fur Traders"))
        state["players"]["red"]["hand"].append(tile("Fur Traders"))
        state["ships"].append(ship("red", "lyubsha"))

    position(pv, fur_traders)
    assert DATA.tiles[tile("Fur Traders")].number == 1
    reply = reply_to(pv, "red", "play 1 at Lyubsha")
    assert "OK  play Fur Traders at Lyubsha" in reply and "??" not in reply


def test_s7_trade_offer_and_its_numbered_answer(pv) -> None:  # type: ignore[no-untyped-def]
    """§7: ``trade offer russia: 3 silfr for tile 42     # answered by: trade accept 7 /
    trade refuse 7``: red offers green (colocated at Holmgard after the journey) 3 silfr
    for green's tile River Pilots (number 13; hands are public in this game so red may
    name it), then green answers the offer by its number, 1 (phase ...-trade-1-0)."""
    pilots = tile("River Pilots")

    def colocated(state: dict[str, Any]) -> None:
        state["options"]["open_information"] = True
        take_out(state, pilots)
        state["players"]["green"]["hand"].append(pilots)
        state["ships"] += [ship("red", "ladoga"), ship("green", "holmgard")]

    position(pv, colocated)
    assert DATA.tiles[pilots].number == 13
    lines = "journey from Ladoga to Holmgard\ntrade offer green: 3 silfr for tile 13"
    reply = reply_to(pv, "red", lines)
    assert "OK  offer green: give 3 silfr for tile River Pilots" in reply and "??" not in reply
    send(pv, "red", lines)
    phase, _, owing = now(pv)
    assert phase == "round-1-red-trade-1-0" and owing == ("green",)
    reply = reply_to(pv, "green", "trade refuse 7")
    assert "the offer waiting for your answer is number 1, not 7" in reply
    reply = reply_to(pv, "green", "trade accept 1")
    assert "OK  accept" in reply and "??" not in reply
    reply = reply_to(pv, "green", "trade refuse 1")
    assert "OK  refuse" in reply and "??" not in reply


def test_s7_influence_take_rus_takes_the_one_advocate_red_can_take(pv) -> None:  # type: ignore[no-untyped-def]
    """§7: ``influence take Rus``: red holds the Rus influence marker and has a longship
    alone on Sigtuna, in Svealand, where blue's advocate Shipwright is from: the Rus
    action takes it (``rus take Shipwright``)."""
    wright = tile("Shipwright")

    def rus(state: dict[str, Any]) -> None:
        take_out(state, wright)
        state["players"]["blue"]["advocates"].append(wright)
        state["influence"]["rus"] = "red"
        state["ships"].append(ship("red", "sigtuna"))

    position(pv, rus)
    reply = reply_to(pv, "red", "influence take Rus")
    assert "OK  rus take Shipwright" in reply and "??" not in reply


def test_s7_influence_take_rus_names_the_candidates_when_several_can_be_taken(pv) -> None:  # type: ignore[no-untyped-def]
    """§7 ``influence take Rus``: an ambiguous order is never carried out (§2): with two
    advocates red could take, the reply names both; naming one is understood."""
    wright, bishop = tile("Shipwright"), tile("Bishop Ansgar")

    def two(state: dict[str, Any]) -> None:
        for x in (wright, bishop):
            take_out(state, x)
        state["players"]["blue"]["advocates"].append(wright)
        state["players"]["green"]["advocates"].append(bishop)
        state["influence"]["rus"] = "red"
        state["ships"].append(ship("red", "sigtuna"))

    position(pv, two)
    reply = reply_to(pv, "red", "influence take Rus")
    assert "several advocates can be taken: Shipwright, Bishop Ansgar" in reply
    assert "OK  rus take" not in reply
    reply = reply_to(pv, "red", "influence take Rus Bishop Ansgar")
    assert "OK  rus take Bishop Ansgar" in reply and "??" not in reply


def test_s7_the_report_names_the_offer_number_that_trade_accept_takes(pv) -> None:  # type: ignore[no-untyped-def]
    """§7 ``trade accept 7 / trade refuse 7``: the number is the offer's, and the report the
    player it is made to receives says it next to the offer, with the lines to answer
    it; written as read, it is accepted, another number is refused naming the right one.
    Red's second offer of the turn (one was made earlier) is number 2; green's counter-
    offer keeps it, and red's report says so in turn."""
    def second_offer(state: dict[str, Any]) -> None:
        state["turn"]["trades"] = 1  # an offer was made earlier this turn
        state["ships"] += [ship("red", "ladoga"), ship("green", "holmgard")]

    position(pv, second_offer)
    send(pv, "red", "journey from Ladoga to Holmgard\ntrade offer green: 3 silfr for nothing")
    assert now(pv)[0] == "round-1-red-trade-2-0"
    report = outbox(pv, kind="report", to=ADDR["green"])[-1][1]
    assert ("red makes you trade offer number 2, waiting for your answer: red gives 3 silfr "
            "for nothing. Answer \"trade accept 2\", \"trade refuse 2\" or \"counter: give ... "
            "for ...\".") in " ".join(report.split())
    proposer = " ".join(outbox(pv, kind="report", to=ADDR["red"])[-1][1].split())
    assert "green answers trade offer number 2 from red: red gives 3 silfr for nothing." in proposer
    assert "the offer waiting for your answer is number 2, not 1" in reply_to(
        pv, "green", "trade accept 1")
    reply = reply_to(pv, "green", "trade accept 2")
    assert "OK  accept" in reply and "??" not in reply

    send(pv, "green", "counter: give nothing for 4 silfr")
    assert now(pv)[0] == "round-1-red-trade-2-1"
    report = " ".join(outbox(pv, kind="report", to=ADDR["red"])[-1][1].split())
    assert ("green answers trade offer number 2 with a counter-offer, waiting for your answer: "
            "green gives nothing for 4 silfr. Answer \"trade accept 2\"") in report
    reply = reply_to(pv, "red", "trade accept 2")
    assert "OK  accept" in reply and "??" not in reply


def test_s7_a_french_seat_reads_the_offer_number_in_french(pv) -> None:  # type: ignore[no-untyped-def]
    """§7, §8: blue (French) reads its offer's number with the French lines to answer it,
    and each of them is understood."""
    position(pv, lambda state: state["ships"].extend([ship("red", "ladoga"),
                                                      ship("blue", "holmgard")]))
    send(pv, "red", "journey from Ladoga to Holmgard\ntrade offer blue: 3 silfr for nothing")
    assert now(pv)[0] == "round-1-red-trade-1-0"
    report = " ".join(outbox(pv, kind="report", to=ADDR["blue"])[-1][1].split())
    assert ("Rouge vous fait l'offre d'échange numéro 1, qui attend votre réponse : Rouge "
            "donne 3 silfr contre rien.") in report  # the items in French too, not "nothing"
    assert "nothing" not in report
    assert ("Répondez « échange accepter 1 », « échange refuser 1 » ou « contreproposer : "
            "donner ... contre ... ».") in report
    for line in ("échange accepter 1", "échange refuser 1", "contreproposer : donner rien contre 1 silfr"):
        reply = reply_to(pv, "blue", line)
        assert "OK  " in reply and "??" not in reply, reply
