"""What a French seat read wrongly in Pax Viking (played from the outside, viking-fr).

Each test sends mail through the real pipeline to the 3-player game of ``pv`` (red's turn
first; ``pvfr``: red writes French, blue and green English; in ``pv`` blue writes French)
and reads the reply or the report a player reads, in French and in English:

- players were named by their colour ids, in English: "plusieurs adversaires sont sur
  Birka (blue, green)", "red a 3 silfr, pas 5", echoes "offrir green", "défier blue";
  a French seat now reads the colours its reports show ("Vert", rules.toml ``colors``,
  ``display_fr``), which its orders read back;
- "blue compte 1 drakkar(s)": the count now agrees;
- "aucun drakkar non épuisé en Birka": a post is « à Birka », a region « en Svealand »;
- "marqueur d'influence jarldom": the follower type is said in French too;
- a tile's silfr or saga tile said "(capacité)"; it now names the tile;
- a tile played without a longship alone: « en l'Ouest », « en le Sud »; now « dans
  l'Ouest », « en Svealand »; a tile's effect in the report likewise (« dans l'Est »);
- "Chantier naval: entreprise": French writes a space before the colon.
"""

from __future__ import annotations

from typing import Any

from test_viking_althing_trade_by_mail import prepare, send
from test_viking_by_mail import ADDR, now
from test_viking_explore_by_mail import pvfr  # noqa: F401 (red writes French)
from test_viking_french_places import STATE, read
from test_viking_s7_by_mail import position, reply_to, ship, tile

from gm.games.viking import parsing
from gm.games.viking.data import load
from gm.games.viking.orders import Offer, Parley, order_from_json, order_to_json
from gm.orders.model import ParsedOrder, SourceLine
from tests.pipeline.conftest import outbox
from tests.support.language_scan import english_lines

__all__ = ["pvfr"]


def _rivals_on_birka(st: dict[str, Any]) -> None:
    st["ships"].extend([ship("red", "birka"), ship("blue", "birka"), ship("green", "birka")])


def report(ctx, p: str) -> str:  # type: ignore[no-untyped-def]
    return outbox(ctx, kind="report", to=ADDR[p])[-1][1]


# -- 1. the players' colours ---------------------------------------------------------------

def test_challenge_with_several_rivals_names_them_in_french(pvfr) -> None:  # type: ignore[no-untyped-def]
    """PARLEY, Challenge ("Choose a RIVAL in the same POST"): with two rivals on Birka the
    order is refused and the rivals named, by the colours the French report shows; the
    example order it gives is one the French seat may send as it is."""
    position(pvfr, _rivals_on_birka)
    reply = reply_to(pvfr, "red", "parlementer Birka")
    assert ("refusé : plusieurs adversaires sont sur Birka (Bleu, Vert) : nommez celui que "
            "vous défiez, par exemple 'parlementer Birka défier Bleu'") in reply, reply
    assert english_lines(reply) == [], reply
    reply = reply_to(pvfr, "red", "parlementer Birka défier Bleu")
    assert "parlementer Birka défier Bleu : refusé : Bleu compte 1 drakkar sur Birka ;" in reply


def test_challenge_with_several_rivals_in_english_is_unchanged(pv) -> None:  # type: ignore[no-untyped-def]
    position(pv, _rivals_on_birka)
    reply = reply_to(pv, "red", "parley Birka")
    assert ("refused: several rivals are on Birka (blue, green): name the one you challenge, "
            "e.g. 'parley Birka challenge blue'") in reply, reply


def test_a_french_offer_names_the_rival_and_the_giver_in_french(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Economy Limits: no debt. Red (3 silfr) offers 5: the echo and the refusal name the
    players in French ("offrir Vert", "Rouge a 3 silfr"), and "offrir vert" (lower case,
    as accents, optional) names green."""
    position(pvfr, lambda st: st["ships"].extend([ship("red", "ladoga"), ship("green", "holmgard")]))
    reply = reply_to(pvfr, "red", "voyager de Ladoga vers Holmgard\n"
                                  "offrir vert : donner 5 silfr contre rien")
    assert "REFUSÉ  offrir Vert : donner 5 silfr contre rien : refusé : Rouge a 3 silfr, pas 5" \
        in reply, reply
    assert english_lines(reply) == [], reply


def test_an_english_offer_still_names_colour_ids(pv) -> None:  # type: ignore[no-untyped-def]
    position(pv, lambda st: st["ships"].extend([ship("red", "ladoga"), ship("green", "holmgard")]))
    reply = reply_to(pv, "red", "journey from Ladoga to Holmgard\noffer green: give 5 silfr for nothing")
    assert "REFUSED  offer green: give 5 silfr for nothing: refused: red has 3 silfr, not 5" \
        in reply, reply


def test_the_french_echo_of_a_colour_is_read_back_and_stored_as_the_colour() -> None:
    """orders.md §8: the echo is what the seat may write again. "défier Bleu" and "offrir
    Vert" read as blue and green; a conditional order is stored by its canonical text
    (re-read at the deadline) and comes back the same."""
    assert read("parlementer Birka défier Bleu") == Parley("Birka", "blue")
    offer = read("offrir Vert : donner 1 silfr contre rien")
    assert isinstance(offer, Offer) and offer.to == "green"
    [line] = parsing.parse_lines(load(), STATE, "red", [
        SourceLine(1, "parlementer Birka défier Bleu si fonds >= 1")], "fr").lines
    assert isinstance(line, ParsedOrder), line
    assert order_from_json(order_to_json(line.order)) == line.order


# -- 2. a count that agrees ----------------------------------------------------------------

def test_challenge_refused_counts_longships_in_the_singular_and_the_plural(pvfr) -> None:  # type: ignore[no-untyped-def]
    """PARLEY, Challenge: "You need to have more Longships than that Rival"."""
    position(pvfr, lambda st: st["ships"].extend(
        [ship("red", "birka"), ship("blue", "birka"), ship("blue", "birka")]))
    reply = reply_to(pvfr, "red", "parlementer Birka défier Bleu")
    assert ("refusé : Bleu compte 2 drakkars sur Birka ; vous en comptez 1 : il vous en faut "
            "plus pour défier") in reply, reply
    assert "(s)" not in reply


def test_challenge_refused_in_english_counts_longships(pv) -> None:  # type: ignore[no-untyped-def]
    position(pv, lambda st: st["ships"].extend([ship("red", "birka"), ship("blue", "birka")]))
    reply = reply_to(pv, "red", "parley Birka challenge blue")
    assert ("refused: blue counts 1 longship on Birka; you count 1: you need more to "
            "challenge") in reply, reply


# -- 3. à Birka, en Svealand ---------------------------------------------------------------

def test_no_unexhausted_longship_is_a_birka_and_en_svealand(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Standard Actions B, JOURNEY: "Move 1 Unexhausted Longship": red has none on Birka (a
    post: « à ») nor in Svealand (a region: « en »)."""
    reply = reply_to(pvfr, "red", "voyager de Birka vers Svealand\nvoyager de Svealand vers Birka")
    assert "refusé : vous n'avez aucun drakkar non épuisé à Birka\n" in reply, reply
    assert "refusé : vous n'avez aucun drakkar non épuisé en Svealand\n" in reply, reply


def test_no_unexhausted_longship_in_english_is_unchanged(pv) -> None:  # type: ignore[no-untyped-def]
    reply = reply_to(pv, "red", "journey from Birka to Svealand\njourney from Svealand to Birka")
    assert "refused: you have no unexhausted longship at Birka\n" in reply, reply
    assert "refused: you have no unexhausted longship at Svealand\n" in reply, reply


# -- follower types ------------------------------------------------------------------------

def test_an_influence_action_without_its_marker_names_the_marker_in_french(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Influence Phase: the holder of an influence marker takes its action."""
    reply = reply_to(pvfr, "red", "jarlat de foyer vers Birka")
    assert "refusé : vous n'avez pas le marqueur d'influence jarlat" in reply, reply
    assert "jarldom" not in reply



def test_an_influence_action_without_its_marker_in_english_is_unchanged(pv) -> None:  # type: ignore[no-untyped-def]
    reply = reply_to(pv, "red", "jarldom from home to Birka")
    assert "refused: you do not hold the jarldom influence marker" in reply, reply


# -- 4. the tile a silfr gain comes from ---------------------------------------------------

def test_an_althing_gain_names_the_tile(pv) -> None:  # type: ignore[no-untyped-def]
    """PLAY, Events: "Althing - In turn order, vote whether the Event Resolves"; Thingvellir
    Assembly passes and every player gains 2 silfr: the report says from which tile (blue
    writes French)."""
    p0, p1, p2 = prepare(pv)
    send(pv, p0, "play Thingvellir Assembly")
    for p in (p1, p2, p0):
        send(pv, p, "voter oui" if p == "blue" else "vote yes")
    fr, en = report(pv, "blue"), report(pv, "green")
    assert "Rouge gagne 2 silfr (tuile Assemblée de Thingvellir)." in fr, fr
    assert "red gains 2 silfr (tile Thingvellir Assembly)." in en, en
    assert "(capacité)" not in fr and "(ability)" not in en


def test_a_tile_draw_names_the_tile(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Standard Actions D, ACTIVATE: red activates its Glassworks (draw 1 saga tile) at
    Aleppo; the report said "(capacité)", it now names the venture's tile."""
    def glassworks(st: dict[str, Any]) -> None:
        st["posts"]["aleppo"].update(owner="red", followers=1)
        st["ships"].append(ship("red", "aleppo"))

    position(pvfr, glassworks)
    send(pvfr, "red", "activer Alep\npasser")
    assert "Rouge pioche une tuile de saga (tuile Verrerie)." in report(pvfr, "red")
    assert "red draws a saga tile (tile Glassworks)." in report(pvfr, "green")


# -- where a tile is played ----------------------------------------------------------------

def _in_hand(*names: str):  # type: ignore[no-untyped-def]
    def change(st: dict[str, Any]) -> None:
        for name in names:
            tid = tile(name)
            st["pile"] = [x for x in st["pile"] if x != tid]
            st["track"] = [None if x == tid else x for x in st["track"]]
            st["players"]["red"]["hand"].append(tid)
    return change


def test_play_without_a_longship_alone_says_dans_l_ouest_and_en_svealand(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Standard Actions C, PLAY: "a Longship alone on a Post in the Tile's location". It
    said « en l'Ouest », « en le Sud »: a wind is « dans l'Ouest », a region « en
    Svealand »."""
    position(pvfr, _in_hand("Viking Raid", "Shipyard"))
    reply = reply_to(pvfr, "red", "jouer Raid viking\njouer Chantier naval")
    assert "il vous faut un drakkar seul sur un poste dans l'Ouest\n" in reply, reply
    assert "il vous faut un drakkar seul sur un poste en Svealand\n" in reply, reply


def test_play_without_a_longship_alone_in_english_is_unchanged(pv) -> None:  # type: ignore[no-untyped-def]
    position(pv, _in_hand("Viking Raid", "Shipyard"))
    reply = reply_to(pv, "red", "play Viking Raid\nplay Shipyard")
    assert "you need a longship alone on a post in the West\n" in reply, reply
    assert "you need a longship alone on a post in Svealand\n" in reply, reply


def test_a_tiles_effect_in_the_report_says_dans_l_est_and_en_estonie(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Saga Tile Anatomy: a tile acts in its location. The report's saga track said
    "placer un drakkar sur un poste en Est" (and "in East" in English): a wind is « dans
    l'Est », "in the East"; a region stays « en Estonie », "in Estland"."""
    fr, en = report(pvfr, "red"), report(pvfr, "green")
    assert "Nouveaux colons : événement, Est, immédiat (placer un drakkar sur un poste dans " \
           "l'Est)" in fr, fr
    assert "(chasser un drakkar adverse en Estonie)" in fr
    assert "New Settlers: event, East, immediate (place a longship on a post in the East)" in en
    assert "(remove a rival longship in Estland)" in en


# -- 5. French typography ------------------------------------------------------------------

def test_a_french_report_puts_a_space_before_the_colon_of_a_tile_line(pvfr) -> None:  # type: ignore[no-untyped-def]
    """The saga track's tiles and the victory cards, "Nom : ce qu'il fait" in French (a
    space before the colon, as gm's other French texts), "Name: what it does" in English."""
    fr, en = report(pvfr, "red"), report(pvfr, "green")
    assert "\n  3. Chantier naval : entreprise, Svealand, partisan jarlat" in fr, fr
    assert "\n  Jarl fortuné : 15 silfr\n" in fr
    assert "\n  3. Shipyard: venture, Svealand, jarldom follower" in en, en
    assert "\n  Wealthy Jarl: 15 silfr\n" in en
    assert now(pvfr)[0] == "round-1-red"


def test_the_language_scan_finds_a_colour_id_in_a_french_text() -> None:
    """tests/support/language_scan.py: a French reply that says "green" is caught."""
    assert english_lines("refusé : plusieurs adversaires sont sur Birka (blue, green)") != []
    assert english_lines("refusé : plusieurs adversaires sont sur Birka (Bleu, Vert)") == []
