"""Small things players met in Pax Viking by mail: a mistyped command is answered with the
words of the seat's language, French names take the elided "d'" ("d'Islande"), and
``money`` / ``argent`` are condition words as ``funds`` / ``silfr`` are."""

from __future__ import annotations

from test_viking_althing_trade_by_mail import send
from test_viking_by_mail import ADDR
from test_viking_explore_by_mail import pvfr  # noqa: F401 (red writes French)
from test_viking_s7_by_mail import position, reply_to, ship

from gm.games.baltica import module as baltica_module
from gm.games.baltica import parsing as baltica
from gm.games.baltica.board import load_board
from gm.games.britannica.parser import parse_line
from gm.games.viking import parsing as viking
from gm.i18n import msg, translate
from gm.l10n import elide
from gm.orders.help import help_text
from gm.orders.model import LineError, SourceLine
from tests.pipeline.conftest import outbox

__all__ = ["pvfr"]


def test_an_english_seat_is_offered_english_commands(pv) -> None:  # type: ignore[no-untyped-def]
    """It said "unknown command 'activte': did you mean activate or activer?"."""
    en = reply_to(pv, "red", "activte Sigtuna")
    assert "unknown command 'activte': did you mean activate?" in en, en


def test_a_french_seat_is_offered_french_commands(pvfr) -> None:  # type: ignore[no-untyped-def]
    fr = reply_to(pvfr, "red", "activte Sigtuna")
    assert "commande inconnue 'activte' : vouliez-vous dire activer ?" in fr, fr


def test_the_other_languages_command_is_offered_when_none_of_the_seats_own_is_near(pv) -> None:  # type: ignore[no-untyped-def]
    reply = reply_to(pv, "red", "parlmenter Sigtuna\nATTENDR")
    assert "did you mean parlementer?" in reply, reply
    assert "did you mean ATTENDRE?" in reply, reply


def _said(error: object, language: str) -> str:
    assert isinstance(error, LineError), error
    return translate(error.reason, language)


def test_pax_baltica_and_pax_britannica_offer_the_seats_language_too() -> None:
    line = SourceLine(1, "regroupr Livland")
    state = baltica_module.setup("12.1", {})
    [error] = baltica.parse_lines(load_board(), state, "sweden", [line]).lines
    assert _said(error, "en") == "unknown command 'regroupr': did you mean regroup?"
    assert _said(error, "fr") == "commande inconnue 'regroupr' : vouliez-vous dire regrouper ?"
    error = parse_line(SourceLine(1, "proposr Paris"), "britain")
    assert _said(error, "en") == "unknown command 'proposr': did you mean propose?"
    assert _said(error, "fr") == "commande inconnue 'proposr' : vouliez-vous dire proposer ?"


def test_money_is_a_condition_word_as_funds_is(pv) -> None:  # type: ignore[no-untyped-def]
    """It said "not understood at 'money'": only funds, fonds and silfr were read."""
    en = reply_to(pv, "red", "invest draw if money >= 3")
    assert "OK  invest draw if funds >= 3" in en, en


def test_argent_is_a_condition_word_as_fonds_is(pvfr) -> None:  # type: ignore[no-untyped-def]
    fr = reply_to(pvfr, "red", "investir piocher si argent >= 3")
    assert "OK  investir piocher si fonds >= 3" in fr, fr


def test_help_conditions_names_money() -> None:
    assert "funds >= N (or silfr, money)" in help_text(viking.GRAMMAR, "en", topic="conditions")
    assert "fonds (ou silfr, argent)" in help_text(viking.GRAMMAR, "fr", topic="conditions")


def test_french_elides_de_que_le_la_before_a_vowel() -> None:
    assert elide("l'achat de ", "Envoy", "fr") == "l'achat d'"
    assert elide("De ", "Islande", "fr") == "D'"
    assert elide("plus que ", "Olaf", "fr") == "plus qu'"
    assert elide("de ", "Hongrie", "fr") == "de "  # an h may be aspirate: left alone
    assert elide("grande ", "Islande", "fr") == "grande "
    assert elide("of ", "Iceland", "en") == "of "


def test_a_french_message_says_d_before_a_name_with_a_vowel() -> None:
    """It said "Vert paie 1 silfr (l'achat de Envoy)"."""
    assert translate(msg("buying {tile}", tile="Envoy"), "fr") == "l'achat d'Envoy"
    assert translate(msg("buying {tile}", tile="Odin"), "fr") == "l'achat d'Odin"
    assert translate(msg("buying {tile}", tile="Thor"), "fr") == "l'achat de Thor"
    assert translate(msg("buying {tile}", tile="Envoy"), "en") == "buying Envoy"


def test_a_french_report_says_d_islande_and_the_echo_keeps_de_islande(pvfr) -> None:  # type: ignore[no-untyped-def]
    """docs/architecture.md, "Adding a language": the word before a value is elided before
    its vowel, "Never in an order's echo, which the grammar reads back". Red's report said
    "Rouge voyage de Islande vers Mer de Norvège." and "commander les 2 drakkars de
    Islande"; its reply echoes the order as it may be written again."""
    position(pvfr, lambda st: st["ships"].append(ship("red", "iceland")))
    reply = reply_to(pvfr, "red", "voyager de Islande vers Mer de Norvège")
    assert "OK  voyager de Islande vers Mer de Norvège" in reply, reply
    send(pvfr, "red", "voyager de Islande vers Mer de Norvège\npasser")
    report = outbox(pvfr, kind="report", to=ADDR["red"])[-1][1]
    assert "Rouge voyage d'Islande vers la Mer de Norvège." in report, report
    assert "(commander les 2 drakkars d'Islande)" in report, report
    assert "(commander les 3 drakkars de Dublin)" in report, report
    english = outbox(pvfr, kind="report", to=ADDR["green"])[-1][1]
    assert "red journeys from Iceland to Norwegian Sea." in english, english


def test_an_order_copied_from_a_french_report_reads(pvfr) -> None:  # type: ignore[no-untyped-def]
    """orders.md §8: French writes "de" as "d'" before a vowel, as Red's report does ("Rouge
    voyage d'Islande"); a player who wrote "voyager d’Islande vers Mer de Norvège" was
    refused ("non compris"). It reads, and the echo keeps "de" (the form read back)."""
    position(pvfr, lambda st: st["ships"].append(ship("red", "iceland")))
    reply = reply_to(pvfr, "red", "voyager d’Islande vers Mer de Norvège")
    assert "OK  voyager de Islande vers Mer de Norvège" in reply, reply
    assert "vous avez écrit : voyager d’Islande vers Mer de Norvège" in reply
