"""What a French seat still read wrongly in Pax Viking (viking-fr2), through the real
pipeline: mail to the 3-player game of ``pv`` (red's turn first; ``pvfr``: red writes
French, blue and green English; in ``pv`` blue writes French), the reply or the report a
player reads asserted, in French and in English:

- a sea was « en Golfe de Finlande »: French says « dans le Golfe de Finlande », « dans
  l'Océan Germanique » (board.toml ``article_fr``, Data.at_said);
- a journey in the report went « vers Golfe de Finlande »: now « vers le Golfe de
  Finlande »; the order's echo stays the words the parser reads back;
- « Vert donne rien à Bleu »: now « Vert ne donne rien à Bleu »;
- a longship given in a trade was read only « drakkar sur Holmgard »: « à Holmgard », « en
  Svealand », « dans le Golfe de Finlande » read too.
"""

from __future__ import annotations

from test_viking_althing_trade_by_mail import send
from test_viking_by_mail import ADDR
from test_viking_explore_by_mail import pvfr  # noqa: F401 (red writes French)
from test_viking_s7_by_mail import position, reply_to, ship

from tests.pipeline.conftest import outbox
from tests.support.language_scan import english_lines

__all__ = ["pvfr"]


def report(ctx, p: str) -> str:  # type: ignore[no-untyped-def]
    return outbox(ctx, kind="report", to=ADDR[p])[-1][1]


# -- 1. dans le Golfe de Finlande ----------------------------------------------------------

def test_no_unexhausted_longship_is_dans_le_golfe_and_dans_l_ocean(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Standard Actions B, JOURNEY: "Move 1 Unexhausted Longship": red has none in the Gulf
    of Finland nor in the German Ocean (seas: « dans le », « dans l' » before a vowel)."""
    reply = reply_to(pvfr, "red", "voyager de Golfe de Finlande vers Ladoga\n"
                                  "voyager de Océan Germanique vers Jorvik")
    assert "refusé : vous n'avez aucun drakkar non épuisé dans le Golfe de Finlande\n" in reply, reply
    assert "refusé : vous n'avez aucun drakkar non épuisé dans l'Océan Germanique\n" in reply, reply
    assert " en Golfe" not in reply and " en Océan" not in reply


def test_no_unexhausted_longship_at_a_sea_in_english_is_unchanged(pv) -> None:  # type: ignore[no-untyped-def]
    reply = reply_to(pv, "red", "journey from Gulf of Finland to Ladoga\n"
                                "journey from German Ocean to Jorvik")
    assert "refused: you have no unexhausted longship at Gulf of Finland\n" in reply, reply
    assert "refused: you have no unexhausted longship at German Ocean\n" in reply, reply


# -- 2. vers le Golfe de Finlande ----------------------------------------------------------

def test_a_journey_to_a_sea_reads_vers_le_golfe_in_the_report(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Standard Actions B, JOURNEY: red sails from Ladoga into the Gulf of Finland, then the
    Baltic Sea. The French report says where it went with the seas' articles; the echo of
    the order stays as the parser reads it back."""
    position(pvfr, lambda st: st["ships"].append(ship("red", "ladoga")))
    send(pvfr, "red", "voyager de Ladoga vers Golfe de Finlande, Mer Baltique\npasser")
    reply = outbox(pvfr, kind="reply", to=ADDR["red"])[-1][1]
    assert "voyager de Ladoga vers Golfe de Finlande, Mer Baltique" in reply, reply
    fr, en = report(pvfr, "red"), report(pvfr, "green")
    assert "Rouge voyage de Ladoga vers le Golfe de Finlande, la Mer Baltique." in fr, fr
    assert "red journeys from Ladoga to Gulf of Finland, Baltic Sea." in en, en


def test_a_french_journey_may_write_the_article_it_reads(pvfr) -> None:  # type: ignore[no-untyped-def]
    """What the report writes, « vers le Golfe de Finlande », the seat may write too."""
    position(pvfr, lambda st: st["ships"].append(ship("red", "ladoga")))
    reply = reply_to(pvfr, "red", "voyager de Ladoga vers le Golfe de Finlande")
    assert "REFUSÉ" not in reply and "introuvable" not in reply, reply
    assert "voyager de Ladoga vers Golfe de Finlande" in reply, reply


# -- 3. ne donne rien ----------------------------------------------------------------------

def _red_meets_blue(st) -> None:  # type: ignore[no-untyped-def]
    st["ships"].extend([ship("red", "ladoga"), ship("blue", "holmgard")])


def test_an_offer_of_nothing_reads_ne_donne_rien_in_french(pv) -> None:  # type: ignore[no-untyped-def]
    """Standard Actions B, Trade: red (English) offers blue (French) nothing for 1 silfr.
    Blue's report said « Rouge donne rien contre 1 silfr »; French writes « ne ... rien »,
    in the event and in the offer waiting for blue's answer. Red reads English unchanged."""
    position(pv, _red_meets_blue)
    send(pv, "red", "journey from Ladoga to Holmgard\noffer blue: give nothing for 1 silfr")
    fr, en = report(pv, "blue"), report(pv, "red")
    assert "Offre d'échange : Rouge ne donne rien à Bleu contre 1 silfr." in fr, fr
    assert ("Rouge vous fait l'offre d'échange numéro 1, qui attend votre réponse : Rouge ne "
            "donne rien contre 1 silfr. Répondez") in fr, fr
    assert fr.count("donne rien") == fr.count("ne donne rien"), fr
    assert "Trade offer: red gives nothing to blue for 1 silfr." in en, en
    assert "blue answers trade offer number 1 from red: red gives nothing for 1 silfr." in en, en


def test_an_offer_of_silfr_still_reads_donne(pv) -> None:  # type: ignore[no-untyped-def]
    """The other trade sentences: something given is « donne 2 silfr »; nothing taken back
    is « contre rien »."""
    position(pv, _red_meets_blue)
    send(pv, "red", "journey from Ladoga to Holmgard\noffer blue: give 2 silfr for nothing")
    fr, en = report(pv, "blue"), report(pv, "red")
    assert "Offre d'échange : Rouge donne 2 silfr à Bleu contre rien." in fr, fr
    assert "qui attend votre réponse : Rouge donne 2 silfr contre rien. Répondez" in fr, fr
    assert "Trade offer: red gives 2 silfr to blue for nothing." in en, en
    assert "red gives 2 silfr for nothing." in en


def test_a_counter_offer_of_nothing_reads_ne_donne_rien(pv) -> None:  # type: ignore[no-untyped-def]
    """Trade: the receiver may counter once; blue (French) counters giving nothing."""
    position(pv, _red_meets_blue)
    send(pv, "red", "journey from Ladoga to Holmgard\noffer blue: give 2 silfr for 1 silfr")
    send(pv, "blue", "contreproposer : donner rien contre 2 silfr")
    fr, en = report(pv, "blue"), report(pv, "red")
    assert "Contre-proposition : Bleu ne donne rien à Rouge contre 2 silfr." in fr, fr
    assert "Counter-offer: blue gives nothing to red for 2 silfr." in en, en
    assert "waiting for your answer: blue gives nothing for 2 silfr." in en, en


# -- 4. drakkar à Holmgard -----------------------------------------------------------------

def test_a_longship_given_a_holmgard_en_svealand_dans_le_golfe_is_read(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Standard Actions B, Trade: a longship may be given. French writes where it is as it
    says it: « à Holmgard » (a post), « en Svealand » (a region), « dans le Golfe de
    Finlande » (a sea); each was refused but « sur »."""
    position(pvfr, lambda st: st["ships"].extend([ship("red", "ladoga"), ship("green", "holmgard")]))
    for where, echo in (("à Holmgard", "sur Holmgard"), ("en Svealand", "sur Svealand"),
                        ("dans le Golfe de Finlande", "sur Golfe de Finlande"),
                        ("dans l'Océan Germanique", "sur Océan Germanique")):
        reply = reply_to(pvfr, "red", f"voyager de Ladoga vers Holmgard\n"
                                      f"offrir Vert : donner drakkar {where} contre rien")
        assert f"offrir Vert : donner drakkar {echo} contre rien" in reply, (where, reply)
        assert "ne se lit pas" not in reply and "introuvable" not in reply, reply
        assert english_lines(reply) == [], reply


def test_a_longship_given_at_a_post_in_english_is_unchanged(pv) -> None:  # type: ignore[no-untyped-def]
    position(pv, lambda st: st["ships"].extend([ship("red", "ladoga"), ship("green", "holmgard")]))
    reply = reply_to(pv, "red", "journey from Ladoga to Holmgard\n"
                                "offer green: give longship at Holmgard for nothing")
    assert "offer green: give longship at Holmgard for nothing" in reply, reply


# -- 5. HELP's journey form ----------------------------------------------------------------

def test_aide_shows_a_journey_of_one_place_or_more(pvfr) -> None:  # type: ignore[no-untyped-def]
    """docs/viking.md: a journey moves "up to 3 steps". AIDE showed « vers LIEU, LIEU,
    LIEU » and « garder TUILE, TUILE » as if that many were needed; it brackets the repeats,
    and the first form it shows is read as it is."""
    reply = reply_to(pvfr, "red", "AIDE")
    assert "\n  voyager [depuis] LIEU vers LIEU [, LIEU ...]\n" in reply, reply
    assert "\n  garder TUILE [, TUILE ...]\n" in reply, reply
    assert "LIEU, LIEU" not in reply and "TUILE, TUILE" not in reply
    position(pvfr, lambda st: st["ships"].append(ship("red", "ladoga")))
    reply = reply_to(pvfr, "red", "voyager de Ladoga vers Holmgard")
    assert "OK  voyager de Ladoga vers Holmgard" in reply, reply


def test_help_shows_a_journey_of_one_place_or_more(pv) -> None:  # type: ignore[no-untyped-def]
    reply = reply_to(pv, "red", "HELP")
    assert "\n  journey [from] PLACE to PLACE [, PLACE ...]\n" in reply, reply
    assert "\n  keep TILE [, TILE ...]\n" in reply, reply
    assert "up to 3 steps, a PLACE a step" in reply
