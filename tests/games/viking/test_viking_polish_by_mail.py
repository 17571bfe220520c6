"""Pax Viking replies and reports that cost a player a round of mail (played from the outside).

Each test sends mail through the real pipeline to the 3-player game of ``pv`` (red's turn
first; ``pvfr``: red writes French) and reads what a player reads: the reply to the mail,
or the report that follows it.

- An order refused for want of an unexhausted longship did not say that an earlier order
  of the same mail had exhausted it ("you have no unexhausted longship at Birka"): the
  player thought gm wrong. The reason now names that order, as the reply echoed it.
- A purchase at a discount said the price paid, never why it was lower ("red buys Viking
  Raid from the saga track for 0 silfr"): it now says the track's price and each
  discount's source (a jarl's ability, a trade center held, a tile).
- An ally fleet no player commands read "German Ocean: 3 of (Dublin)"; it now says what
  those longships are.
- Saga tiles and victory cards kept their English names in a French report; they now
  have French names (``name_fr``), said to a French seat and read in its orders, accents
  optional, as places are.
"""

from __future__ import annotations

from typing import Any

from test_viking_althing_trade_by_mail import send
from test_viking_by_mail import ADDR, DATA
from test_viking_explore_by_mail import pvfr  # noqa: F401 (red writes French)
from test_viking_s7_by_mail import position, reply_to, ship

from tests.pipeline.conftest import outbox

__all__ = ["pvfr"]

BIRKA_BY_SEA = "journey from home to Baltic Sea, Svealand, Birka"


def report(ctx, p: str) -> str:  # type: ignore[no-untyped-def]
    return outbox(ctx, kind="report", to=ADDR[p])[-1][1]


# -- 1. the order that exhausted the longship --------------------------------------------

def test_a_journey_from_where_an_earlier_journey_ended_names_the_journey_that_exhausted_it(pv) -> None:  # type: ignore[no-untyped-def]
    """Standard Actions B, JOURNEY: "Move 1 Unexhausted Longship ... up to 3 Steps then
    Exhaust". Red's only longship journeys to Birka, then red writes a second journey from
    Birka: the reply says the first journey of this mail exhausted it."""
    reply = reply_to(pv, "red", f"{BIRKA_BY_SEA}\nparley Birka\njourney from Birka to Svealand")
    assert ("REFUSED  journey from Birka to Svealand: refused: you have no unexhausted "
            "longship at Birka: the order \"journey from home to Baltic Sea, Svealand, Birka\" "
            "above exhausted it") in reply, reply


def test_a_french_seat_reads_which_earlier_order_exhausted_its_longship(pvfr) -> None:  # type: ignore[no-untyped-def]
    reply = reply_to(pvfr, "red", "voyager de foyer vers Mer Baltique, Svealand, Birka\n"
                                  "voyager de Birka vers Svealand")
    assert ("REFUSÉ  voyager de Birka vers Svealand : refusé : vous n'avez aucun drakkar non "
            "épuisé en Birka : l'ordre « voyager de foyer vers Mer Baltique, Svealand, Birka » "
            "plus haut l'a épuisé") in reply, reply


def test_an_activation_names_the_earlier_activation_that_exhausted_the_longship(pv) -> None:  # type: ignore[no-untyped-def]
    """Standard Actions D, ACTIVATE: "... then Exhaust that Longship. You may ACTIVATE the
    same Venture several times on the same turn as long as you have another Unexhausted
    Longship on the Post to then Exhaust." Red's one longship on its Wax Market (gain 2
    silfr) at Suvar."""
    wax = next(t.id for t in DATA.tileset("starter") if t.name == "Wax Market")

    def on_suvar(st: dict[str, Any]) -> None:
        st["pile"] = [x for x in st["pile"] if x != wax]
        st["track"] = [None if x == wax else x for x in st["track"]]
        st["posts"]["suvar"].update(venture=wax, owner="red", followers=1)
        st["ships"].append(ship("red", "suvar"))

    position(pv, on_suvar)
    reply = reply_to(pv, "red", "activate Suvar\nactivate Suvar")
    assert "OK  activate Suvar\n" in reply, reply
    assert ("REFUSED  activate Suvar: refused: you have no unexhausted longship on Suvar: "
            "the order \"activate Suvar\" above exhausted it") in reply, reply


def test_a_longship_never_used_this_turn_is_refused_without_naming_an_order(pv) -> None:  # type: ignore[no-untyped-def]
    reply = reply_to(pv, "red", "journey from Birka to Svealand")
    assert "you have no unexhausted longship at Birka\n" in reply, reply
    assert "above exhausted it" not in reply


# -- 3. an ally fleet no player commands ----------------------------------------------------

def test_an_ally_fleet_no_player_commands_is_said_as_a_fleet_not_as_a_player(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Game Board Anatomy, Posts 4: a Powerful Ally's longships are commanded by whoever
    establishes there. The report listed them "German Ocean: 3 of (Dublin)"."""
    fr, en = report(pvfr, "red"), report(pvfr, "green")
    assert ("\n  Océan Germanique : 3 drakkars de la flotte alliée de Dublin, qu'aucun joueur "
            "ne commande encore\n") in fr, fr
    assert ("\n  German Ocean: 3 longships of the Dublin ally fleet, commanded by no player "
            "yet\n") in en, en
    assert "(Dublin)" not in fr + en
    position(pvfr, lambda st: st["ships"].append(ship("red", "birka")))
    send(pvfr, "red", "passer")
    assert "\n  Birka: 1 longship of red\n" in report(pvfr, "green")
    assert "\n  Birka : 1 drakkar de Rouge\n" in report(pvfr, "red")
