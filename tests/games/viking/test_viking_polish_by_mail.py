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

from test_viking_althing_trade_by_mail import send
from test_viking_by_mail import ADDR
from test_viking_explore_by_mail import pvfr  # noqa: F401 (red writes French)
from test_viking_s7_by_mail import position, ship

from tests.pipeline.conftest import outbox

__all__ = ["pvfr"]


def report(ctx, p: str) -> str:  # type: ignore[no-untyped-def]
    return outbox(ctx, kind="report", to=ADDR[p])[-1][1]


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
