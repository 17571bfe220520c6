"""What a player read by mail and was misled by (explore-viking): each test sends the
mail a player sent and checks the reply or report says what happened, in their language."""

from __future__ import annotations

from typing import Any

import pytest
from test_viking_althing_trade_by_mail import send
from test_viking_by_mail import ADDR, DATA, now
from test_viking_s7_by_mail import position, reply_to, ship

from gm.service.games import SeatSpec
from tests.games.viking.conftest import start_pv
from tests.pipeline.conftest import outbox

FRENCH_RED = [SeatSpec(p, ADDR[p], password=f"{p}-pw", language="fr" if p == "red" else "en")
              for p in ADDR]


@pytest.fixture
def pvfr(ctx):  # type: ignore[no-untyped-def]
    """The 3-player game of ``pv`` (red's turn first) with red writing French."""
    return start_pv(ctx, FRENCH_RED)


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
    assert "OK  offrir Vert : donner 1 silfr contre rien" in reply, reply


def test_s7_invest_n_buys_the_tile_the_report_numbers_n(pv) -> None:  # type: ignore[no-untyped-def]
    """orders.md §7: ``invest 3  # buy the saga tile in track slot 3``, slots "counted
    from 1 ... as the report lists the track". The report labelled each tile with its
    cost ("5: Shipwright"), so a player writing ``invest 5`` for it bought the tile of
    slot 5 (7 silfr) instead: the report numbers the slots, the cost beside each."""
    _, state, _ = now(pv)
    report = outbox(pv, kind="report", to=ADDR["red"])[-1][1]
    lines = report.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("Saga track:"))
    line = lines[at]
    assert lines[at - 1] == "", "the track stays a paragraph of its own"
    fourth = DATA.tiles[state["track"][3]].name
    assert f"4. {fourth} ({DATA.rule('track_costs')[3]} silfr)" in line, line
    assert f"invest buy {fourth}:" in reply_to(pv, "red", "invest 4")  # too dear for red now


def test_s2_nearest_names_are_offered_in_the_seats_language(pvfr) -> None:  # type: ignore[no-untyped-def]
    """orders.md §2: a misspelt name is answered with "the nearest names ("did you mean
    Skåne?")"; §8: "the seat's language chooses the reply's language". The French seat
    read "vouliez-vous dire Gotland or Gotaland ?", an English "or" in French; the names
    offered are the French names too (board.toml name_fr: "Götaland")."""
    reply = reply_to(pvfr, "red", "voyager de foyer vers Gotlnd")
    assert "vouliez-vous dire Gotland ou Götaland ?" in reply, reply


def test_journey_from_home_refused_names_where_the_first_step_may_go(pv) -> None:  # type: ignore[no-untyped-def]
    """Standard Actions B, Steps: "When moving a Longship from your Jarlboard to the
    gameboard, the first step is into a Region or Post next to any of your Home Markers."
    orders.md §2: a refused order is "said why"; the reply said only "Finland is not next
    to one of your homes", and the report does not list the places next to a home, so
    the player had to ask. It now names them."""
    _, state, _ = now(pv)
    from gm.games.viking.table import Table
    entries = sorted(DATA.place_name(n) for n in Table(DATA, state).home_entries("red"))
    far = next(r.name for r in DATA.regions.values() if r.id not in Table(DATA, state).home_entries("red"))
    reply = reply_to(pv, "red", f"journey from home to {far}")
    assert (f"{far} is not next to one of your homes: a longship leaving your jarlboard "
            f"steps first into {', '.join(entries)}") in reply, reply


def test_journey_from_home_refused_in_french_names_where_to_step(pvfr) -> None:  # type: ignore[no-untyped-def]
    """The same refusal, to the French seat (orders.md §8), its places named in French."""
    reply = reply_to(pvfr, "red", "voyager de foyer vers Finland")
    assert "Finlande n'est à côté d'aucun de vos foyers : un drakkar qui quitte votre plateau " \
           "de jarl entre d'abord dans " in reply, reply


def test_a_trade_is_reported_to_a_french_seat_with_french_items(pv) -> None:  # type: ignore[no-untyped-def]
    """Key Concepts, Trade: "you may Trade Saga Tiles, Longships, Followers, Silfr"; the
    trade's items were stored as English text, so blue's French report read "Échange :
    Rouge donne 1 silfr à Vert contre longship at Holmgard"."""
    position(pv, lambda st: st["ships"].extend([ship("red", "ladoga"), ship("green", "holmgard")]))
    send(pv, "red", "journey from Ladoga to Holmgard\n"
                    "offer green: give 1 silfr for longship at Holmgard")
    assert now(pv)[0] == "round-1-red-trade-1-0"
    send(pv, "green", "accept")
    report = outbox(pv, kind="report", to=ADDR["blue"])[-1][1]
    assert "Échange : Rouge donne 1 silfr à Vert contre drakkar sur Holmgard." in report, report


def test_a_french_report_says_home_and_the_jarldom_followers_in_french(pv) -> None:  # type: ignore[no-untyped-def]
    """orders.md §8: "the seat's language chooses the reply's language". Blue's French
    report read "Rouge voyage de home vers Gotaland" and "partisans : jarldom 0, Suède 0,
    théocratie 0, Rus 0": the journey from the jarlboard and the jarldom followers in
    English, where its orders say "voyager de foyer" and "jarlat"."""
    _, state, _ = now(pv)
    from gm.games.viking.table import Table
    from gm.i18n import translate
    node = sorted(Table(DATA, state).home_entries("red"))[0]
    entry = DATA.place_name(node)
    send(pv, "red", f"journey from home to {entry}\npass")
    report = outbox(pv, kind="report", to=ADDR["blue"])[-1][1]
    # the place Red goes to as the report names it after « vers » (a sea with its article)
    assert f"Rouge part de son foyer vers {translate(DATA.the_said(node), 'fr')}." in report, \
        report
    assert "partisans : jarlat 0, Suède 0, théocratie 0, Rus 0" in report, report
    assert "jarldom" not in report


def test_a_traded_tile_is_a_saga_tile_in_french(pv) -> None:  # type: ignore[no-untyped-def]
    """Fog: "the tile drawn or traded only for its holder"; the others read that a saga
    tile changed hands, in French "une tuile de saga", not "a saga tile"."""
    odin = next(t.id for t in DATA.tileset("starter") if t.name == "Odin")

    def colocated(st: dict[str, Any]) -> None:
        st["pile"] = [x for x in st["pile"] if x != odin]
        st["track"] = [None if x == odin else x for x in st["track"]]
        st["players"]["green"]["hand"].append(odin)
        st["ships"].extend([ship("red", "ladoga"), ship("green", "holmgard")])

    position(pv, colocated)
    send(pv, "red", "journey from Ladoga to Holmgard\noffer green: give 1 silfr for nothing")
    send(pv, "green", "counter: give tile Odin for 1 silfr")
    send(pv, "red", "accept")
    report = outbox(pv, kind="report", to=ADDR["blue"])[-1][1]
    assert "Échange : Vert donne une tuile de saga à Rouge contre 1 silfr." in report, report


def status(ctx, p: str) -> str:  # type: ignore[no-untyped-def]
    """The report STATUS sends again (orders.md §1: "send me my current report")."""
    from tests.pipeline.conftest import deliver, mail
    deliver(ctx, mail(f"GAME pv1\nPOWER {p} {p}-pw\nSTATUS\n", sender=ADDR[p]))
    return outbox(ctx, to=ADDR[p])[-1][1]


def test_a_hand_tile_says_what_it_does(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Docs (viking.md, Known limits): "The 220 printed saga tiles are not in the seed:
    games use the starter set written for gm", so no player holds a printed tile to
    read. The report named a tile's type, place and trigger, never its ability: Storm
    Season (effects: every rival pays 1 silfr) read "Storm Season: event, West,
    immediate", and an Althing was voted on blind. The hand, the saga track and the
    Althing now say what each tile does, in the seat's language."""
    storm = next(t.id for t in DATA.tileset("starter") if t.name == "Storm Season")

    def in_hand(st: dict[str, Any]) -> None:
        st["pile"] = [x for x in st["pile"] if x != storm]
        st["track"] = [None if x == storm else x for x in st["track"]]
        st["players"]["red"]["hand"].append(storm)
        st["players"]["green"]["hand"].append(storm)

    position(pvfr, in_hand)
    assert "  Saison des tempêtes : événement, Ouest, immédiat (chaque adversaire paie 1 silfr)" \
        in status(pvfr, "red")
    assert "  Storm Season: event, West, immediate (each rival pays 1 silfr)" \
        in status(pvfr, "green")


def test_the_althing_report_says_what_the_event_does(pv) -> None:  # type: ignore[no-untyped-def]
    """PLAY, Events: "Althing - In turn order, vote whether the Event Resolves": the
    voters read what they vote on (Thingvellir Assembly: every player gains 2 silfr),
    in their language (blue writes French)."""
    from test_viking_althing_trade_by_mail import prepare
    p0, _, _ = prepare(pv)
    send(pv, p0, "play Thingvellir Assembly")
    assert now(pv)[0] == f"round-1-{p0}-althing-1"
    assert "Thingvellir Assembly: event, North, althing (every player gains 2 silfr)" \
        in outbox(pv, kind="report", to=ADDR["green"])[-1][1]
    assert "Assemblée de Thingvellir : événement, Nord, Althing (chaque joueur gagne 2 silfr)" \
        in outbox(pv, kind="report", to=ADDR["blue"])[-1][1]


def test_the_report_says_what_each_victory_card_asks(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Victory: a player wins by meeting a face-up victory card; the cards are
    reconstructed for gm (docs/viking.md, Data), so a player cannot look them up: the
    report named "Warlord (standard)" and never what it asks."""
    def warlord(st: dict[str, Any]) -> None:
        st["victory"]["cards"][0], st["victory"]["faceup"][0] = "s1", True

    position(pvfr, warlord)
    assert "  Seigneur de guerre : 4 partisans jarlat et 1 allié puissant" in status(pvfr, "red")
    assert "  Warlord: 4 jarldom followers and 1 powerful ally" in status(pvfr, "green")


def test_s8_help_lists_the_vote_and_lists_of_names_in_the_seats_language(pvfr) -> None:  # type: ignore[no-untyped-def]
    """orders.md §8: "Every keyword has a French form ... listed by HELP in French". The
    French HELP read "voter <no>", "garder <tiles>" and "vers <places>": the grammar's
    own rule names, in English, and only one of the two votes."""
    reply = reply_to(pvfr, "red", "AIDE")
    assert "  voter oui | non\n" in reply and "  garder TUILE [, TUILE ...]\n" in reply, reply
    assert "  voyager drakkar N vers LIEU [, LIEU ...]\n" in reply
    assert "<" not in reply.split("Ordres de ce jeu :")[1].split("Plus :")[0]
