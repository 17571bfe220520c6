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
from test_viking_by_mail import ADDR, DATA, now
from test_viking_explore_by_mail import pvfr  # noqa: F401 (red writes French)
from test_viking_s7_by_mail import position, reply_to, ship

from gm.games.viking import module, parsing
from gm.games.viking.orders import InvestBuy, Item, Keep, Offer, Play, RusAction
from gm.orders.model import ParsedOrder, SourceLine
from gm.orders.names import strip_accents
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
            "épuisé à Birka : l'ordre « voyager de foyer vers Mer Baltique, Svealand, Birka » "
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


# -- 2. why a price was lower --------------------------------------------------------------

def test_a_purchase_at_a_discount_says_which_abilities_lowered_the_price(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Standard Actions A, INVEST: "Buy from the Saga Track for the listed Silfr cost";
    red's jarl Gunnhild buys 1 silfr cheaper, and so does whoever holds Birka (Posts 3, a
    trade center's persistent ability). Viking Raid, on the 2-silfr spot, costs red 0."""
    assert now(pvfr)[1]["track"][1] == next(
        t.id for t in DATA.tileset("starter") if t.name == "Viking Raid")
    send(pvfr, "red", "voyager de foyer vers Mer Baltique, Svealand, Birka\nparlementer Birka\n"
                      "investir acheter Raid viking")
    assert ("Rouge achète Raid viking sur la piste de saga pour 0 silfr au lieu de 2 (capacité "
            "du jarl Gunnhild : 1 de moins ; comptoir Birka : 1 de moins).") in report(pvfr, "red")
    assert ("red buys Viking Raid from the saga track for 0 silfr instead of 2 (jarl "
            "Gunnhild's ability: 1 less; trade center Birka: 1 less).") in report(pvfr, "green")


def test_an_establishment_at_a_discount_says_why_it_cost_less(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Blue's jarl Rurik establishes 1 silfr cheaper: Bulgar (cost 2) costs blue 1."""
    send(pvfr, "red", "passer")
    assert now(pvfr)[0] == "round-1-blue"
    position(pvfr, lambda st: st["ships"].append(ship("blue", "bulgar")))
    send(pvfr, "blue", "parley Bulgar")
    assert ("blue establishes 1 rus follower on Bulgar for 1 silfr instead of 2 (jarl Rurik's "
            "ability: 1 less).") in report(pvfr, "blue")
    assert ("Bleu établit 1 partisan Rus sur Bolgar pour 1 silfr au lieu de 2 (capacité du "
            "jarl Rurik : 1 de moins).") in report(pvfr, "red")


def test_a_purchase_at_the_listed_price_says_no_discount(pv) -> None:  # type: ignore[no-untyped-def]
    """Green's jarl Sigrid has no discount: the line says the price paid, as before."""
    send(pv, "red", "pass")
    send(pv, "blue", "passer")
    assert now(pv)[0] == "round-1-green"
    send(pv, "green", "invest 2")
    text = report(pv, "green")
    assert "from the saga track for 2 silfr." in text, text
    assert "instead of" not in text


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


# -- 4. saga tiles and victory cards in French ---------------------------------------------

def test_a_french_report_names_saga_tiles_and_victory_cards_in_french(pvfr) -> None:  # type: ignore[no-untyped-def]
    fr, en = report(pvfr, "red"), report(pvfr, "green")
    assert "Piste de saga : 1. Nouveaux colons (1 silfr) | 2. Raid viking (2 silfr) |" in fr
    assert "Cartes de victoire : Jarl fortuné (standard), Seigneur de guerre (standard)" in fr
    assert "  Seigneur de guerre : 4 partisans jarlat et 1 allié puissant" in fr
    assert "Entreprises de départ : Bande de guerre de Kiev en Kiev" in fr
    assert "Lödöse (Götaland) : entreprise Forge du Götaland (" in fr
    assert "Saga track: 1. New Settlers (1 silfr) | 2. Viking Raid (2 silfr) |" in en
    assert "Victory cards: Wealthy Jarl (standard), Warlord (standard)" in en
    for english in ("New Settlers", "Viking Raid", "Wealthy Jarl", "Kiev Warband"):
        assert english not in fr, english


def test_a_french_seat_writes_a_tile_in_french_or_english_and_reads_it_back_in_french(pvfr) -> None:  # type: ignore[no-untyped-def]
    reply = reply_to(pvfr, "red", "investir acheter RAID VIKING\ninvestir acheter nouveaux colons")
    assert "OK  investir acheter Raid viking\n" in reply, reply
    assert "OK  investir acheter Nouveaux colons\n" in reply, reply
    reply = reply_to(pvfr, "red", "investir acheter Viking Raid\ninvestir acheter Chantier navale")
    assert "OK  investir acheter Raid viking\n" in reply, reply
    assert "vouliez-vous dire Chantier naval ?" in reply, reply
    assert "Viking Raid\n" not in reply.replace("vous avez écrit : investir acheter Viking Raid", "")
    send(pvfr, "red", "investir acheter Raid viking")
    assert "Votre main :\n  Raid viking : événement, Ouest" in report(pvfr, "red")


def test_an_english_seat_that_writes_a_french_tile_name_reads_english(pv) -> None:  # type: ignore[no-untyped-def]
    reply = reply_to(pv, "red", "invest buy raid viking")
    assert "OK  invest buy Viking Raid\n" in reply, reply


def test_every_french_tile_name_is_read_with_or_without_accents_in_every_order_naming_a_tile() -> None:
    """orders.md §3: names match "case-insensitively, after transliteration to ASCII"."""
    state = module.setup("3p", {})
    state["discard"] = [t.id for t in DATA.tileset("starter")]  # every tile may be named

    def read(line: str) -> Any:
        [result] = parsing.parse_lines(DATA, state, "red", [SourceLine(1, line)], "fr").lines
        assert isinstance(result, ParsedOrder), (line, result)
        return result.order

    for t in DATA.tileset("starter"):
        for written in (t.name_fr, strip_accents(t.name_fr).lower(), t.name_fr.upper(), t.name):
            assert read(f"jouer {written}") == Play(t.name), written
            assert read(f"investir acheter {written}") == InvestBuy(t.name), written
            assert read(f"rus prendre {written}") == RusAction(t.name), written
            assert read(f"garder {written}, {written}") == Keep((t.name, t.name)), written
            assert read(f"offrir blue : donner tuile {written} contre rien") == Offer(
                "blue", (Item("tile", t.name),), (Item("nothing"),)), written


# -- 5. a region written where a post is asked for -----------------------------------------

def test_a_region_written_where_a_post_is_asked_for_names_the_regions_posts(pv) -> None:  # type: ignore[no-untyped-def]
    """Game Board Anatomy: a region holds posts; PARLEY (Standard Actions E) is made on a
    post. "parley Holmgard" (a region) was answered "unknown post 'Holmgard'", and the
    player had to find the posts of Holmgard on the map before writing again."""
    reply = reply_to(pv, "red", "parley Holmgard\nactivate Svealand\nparley Birka")
    assert ("??  parley Holmgard: Holmgard is a region, not a post: its posts are Gorodische, "
            "Ilmen\n") in reply, reply
    assert ("??  activate Svealand: Svealand is a region, not a post: its posts are Birka, "
            "Sigtuna\n") in reply, reply
    assert "REFUSED  parley Birka: refused: you have no longship on Birka" in reply, reply


def test_a_french_seat_reads_the_regions_posts_in_french(pvfr) -> None:  # type: ignore[no-untyped-def]
    reply = reply_to(pvfr, "red", "parlementer Syrie")
    assert ("??  parlementer Syrie : Syrie est une région, pas un poste : ses postes sont Alep, "
            "Damas\n") in reply, reply


# -- 6. a saga-track slot written as a tile ------------------------------------------------

def test_invest_buy_with_a_slot_number_says_which_order_buys_that_slot(pv) -> None:  # type: ignore[no-untyped-def]
    """orders.md §7: "invest 3 # buy the saga tile in track slot 3"; a tile is also named
    by its number in the data. "invest buy 1" (the report numbers the track "1. New
    Settlers") was answered "unknown tile '1': did you mean New Settlers or Shipyard or
    Plague Year?", names picked by spelling."""
    reply = reply_to(pv, "red", "invest buy 1")
    assert ("??  invest buy 1: no tile you know has the number 1; the tile in saga-track slot "
            "1 is New Settlers: 'invest 1' buys it\n") in reply, reply
    reply = reply_to(pv, "red", "invest 1")
    assert "OK  invest buy New Settlers" in reply, reply


def test_a_french_seat_reads_which_order_buys_the_slot_in_french(pvfr) -> None:  # type: ignore[no-untyped-def]
    reply = reply_to(pvfr, "red", "investir acheter 2")
    assert ("??  investir acheter 2 : aucune tuile que vous connaissez ne porte le numéro 2 ; la "
            "tuile de la case 2 de la piste de saga est Raid viking : « investir 2 » l'achète\n") \
        in reply, reply
