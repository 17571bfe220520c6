"""Pax Viking's places in French (board.toml ``name_fr``; docs/viking.md, "Place names in
French").

A French seat read its reports and replies with the English names of most places
("Rouge voyage de Black Sea vers Mediterranean, Syria", "vouliez-vous dire Norway ?"),
and could not write most French names ("Samarcande", "Khazarie") in its orders: only
32 of the board's entries had a French name, and nothing said them to the reader. Now
every region, post, home and ally fleet has one; a French seat reads it wherever a place
is named to it (the report, the echo of its orders, a refusal, "did you mean", HELP,
the map) and may write it, or the English name, with or without accents, in any case.
An English seat reads the English names as before.
"""

from __future__ import annotations

from typing import Any

from test_viking_althing_trade_by_mail import send
from test_viking_by_mail import ADDR, DATA, now
from test_viking_explore_by_mail import pvfr  # noqa: F401 (red writes French)
from test_viking_s7_by_mail import position, reply_to, ship

from gm.games.viking import module, parsing
from gm.games.viking.orders import (
    Activate,
    Item,
    Journey,
    Offer,
    Parley,
    Play,
    TheocracyAction,
)
from gm.i18n import translate
from gm.orders.model import ParsedOrder, SourceLine
from gm.orders.names import strip_accents
from tests.pipeline.conftest import outbox

__all__ = ["pvfr"]  # the game of ``pv`` with red writing French

STATE = module.setup("3p", {})
RED = "red"
PLACES = [*DATA.regions.values(), *DATA.posts.values()]


def read(line: str) -> Any:
    """The order a French seat's line is read as (parse errors fail the test)."""
    [result] = parsing.parse_lines(DATA, STATE, RED, [SourceLine(1, line)], "fr").lines
    assert isinstance(result, ParsedOrder), (line, result)
    return result.order


def test_every_french_place_name_is_read_with_or_without_accents_in_any_case() -> None:
    """orders.md §3: names match "case-insensitively, after transliteration to ASCII"; the
    English name is read too, and a French name that holds "de" ("Golfe de Botnie", "Route
    de la Soie") is read whole, after "voyager de" as after "vers"."""
    for place in PLACES:
        fr = place.name_fr
        for written in (fr, strip_accents(fr).lower(), fr.upper(), place.name):
            assert read(f"voyager de {written} vers {written}, {written}") == \
                Journey(place.name, (place.name, place.name)), written
    for post in DATA.posts.values():
        assert read(f"parlementer {strip_accents(post.name_fr)}") == Parley(post.name)


def test_a_french_seats_echo_names_every_place_in_french_and_reads_back() -> None:
    """orders.md §8: the reply says a French seat's orders back in French, places
    included, and that echo is read again as the same order; English is unchanged."""
    for place in PLACES:
        order = Journey(place.name, (place.name, "Gotland"))
        said = translate(order.echo(), "fr")
        assert said == f"voyager de {place.name_fr} vers {place.name_fr}, Gotland"
        assert read(said) == order
        assert translate(order.echo(), "en") == f"journey from {place.name} to {place.name}, Gotland"
    orders = [Parley("Samarkand", "blue"), Activate("Sudak", ("Norway", "blue")),
              TheocracyAction("Damascus"), Play("Odin", "Pera"),
              Offer("blue", (Item("follower", "Aleppo"),), (Item("longship", "Crimea"),), "Norway")]
    said = [translate(o.echo(), "fr") for o in orders]
    assert said == ["parlementer Samarcande défier Bleu", "activer Soudak : Norvège, Bleu",
                    "théocratie Damas", "jouer Odin sur Péra",
                    "offrir Bleu sur Norvège : donner partisan sur Alep contre drakkar sur Crimée"]
    for i in (0, 1, 4):  # a player's colour is said in French and read back as that player
        assert read(said[i]) == orders[i], said[i]
    assert [translate(o.echo(), "en") for o in orders][:2] == [
        "parley Samarkand challenge blue", "activate Sudak: Norway, blue"]
    [conditional] = parsing.parse_lines(DATA, STATE, RED, [SourceLine(
        1, "journey from Norway to Norwegian Sea if longships at Norway > 0")], "fr").lines
    assert isinstance(conditional, ParsedOrder)
    assert translate(conditional.echo, "fr") == \
        "voyager de Norvège vers Mer de Norvège si drakkars sur Norvège > 0"


def test_a_french_viking_players_reply_names_places_in_french(pvfr) -> None:  # type: ignore[no-untyped-def]
    """Red writes French: its reply echoes, refuses and offers names as its reports name
    them; the names it writes may be French or English, accents and case optional."""
    position(pvfr, lambda st: st["ships"].append(ship("red", "black_sea")))
    reply = reply_to(pvfr, "red", "voyager de mer noire vers MEDITERRANEE, syrie")
    assert "OK  voyager de Mer Noire vers Méditerranée, Syrie" in reply, reply
    reply = reply_to(pvfr, "red", "journey from Black Sea to Khazaria")
    assert "OK  voyager de Mer Noire vers Khazarie" in reply, reply
    reply = reply_to(pvfr, "red", "voyager de Mer Noire vers Syrie")
    assert "Syrie n'est pas à un pas de Mer Noire" in reply, reply
    reply = reply_to(pvfr, "red", "voyager de Mer Noire vers Kazarie")
    assert "lieu introuvable : 'Kazarie' ; vouliez-vous dire Khazarie ?" in reply, reply
    for english in ("Black Sea", "Mediterranean", "Syria", "Khazaria"):
        assert english not in reply


def test_an_english_seat_that_writes_french_names_reads_english(pv) -> None:  # type: ignore[no-untyped-def]
    """Red's seat is English: a French name is read, and echoed by its English name."""
    position(pv, lambda st: st["ships"].append(ship("red", "black_sea")))
    reply = reply_to(pv, "red", "voyager de mer noire vers MEDITERRANEE, syrie")
    assert "OK  journey from Black Sea to Mediterranean, Syria" in reply, reply
    reply = reply_to(pv, "red", "journey from Black Sea to Syria")
    assert "Syria is not one step from Black Sea" in reply, reply
    assert "Syrie" not in reply and "Mer Noire" not in reply


def test_a_french_viking_players_report_names_places_in_french_the_english_seats_in_english(pvfr) -> None:  # type: ignore[no-untyped-def]
    position(pvfr, lambda st: st["ships"].append(ship("red", "black_sea")))
    send(pvfr, "red", "voyager de Mer Noire vers Méditerranée, Syrie\npasser")
    fr = outbox(pvfr, kind="report", to=ADDR["red"])[-1][1]
    en = outbox(pvfr, kind="report", to=ADDR["green"])[-1][1]
    assert "Rouge voyage de Mer Noire vers la Méditerranée, Syrie." in fr, fr
    assert "\n  Syrie : 1 drakkar de Rouge" in fr, fr
    home = DATA.homes[DATA.jarls[now(pvfr)[1]["players"]["red"]["jarl"]].home]
    assert f", foyer {home.name_fr}) :" in fr, fr
    assert "red journeys from Black Sea to Mediterranean, Syria." in en, en
    assert "\n  Syria: 1 longship of red" in en, en
    assert f", home {home.name}):" in en, en


def test_the_map_names_places_in_the_readers_language() -> None:
    """Issue 20: a French reader's map says "Norvège", "Mer Baltique", "Samarcande"; an
    English reader's map keeps the data's names."""
    from gm.maps import viking as drawn
    from gm.service.mapwords import names_of

    view = module.view(STATE, None)
    fr = drawn.scene(view, [], names_of("viking", "fr"))
    en = drawn.scene(view, [], names_of("viking", "en"))
    assert [fr.areas[x].label for x in ("norway", "baltic_sea", "samarkand", "aland")] == [
        "Norvège", "Mer Baltique", "Samarcande", "Åland"]
    assert [en.areas[x].label for x in ("norway", "baltic_sea", "samarkand", "aland")] == [
        "Norway", "Baltic Sea", "Samarkand", "Aland"]


def test_the_french_help_gives_its_journey_example_with_french_names() -> None:
    text = module.help("fr", "voyager")
    assert "voyager de foyer vers Gotland, Mer Baltique, Novgorod" in text, text
    assert "Baltic Sea" not in text
    assert read("voyager de foyer vers Gotland, Mer Baltique, Novgorod") == \
        Journey("home", ("Gotland", "Baltic Sea", "Holmgard"))

