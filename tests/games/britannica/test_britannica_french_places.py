"""Issue 20: a French Pax Britannica report says an area or a sea in French, with the
preposition French gives it ("en Perse", "au Japon", "aux Indes néerlandaises", "à Aden",
"de la Perse"), from map.toml words; English keeps "in Persia"."""

from __future__ import annotations

from typing import Any

from gm.games.britannica import module
from gm.games.britannica.data import load
from gm.games.britannica.parser import _add_local_names, names
from gm.games.britannica.view import words
from gm.orders.model import ErrorKind
from gm.orders.names import NameFailure, strip_accents
from gm.service.render import render


def _line(lang: str, type_: str, **data: Any) -> str:
    text = render("report", lang, "britannica", game_only=True,
                  view=module.view(module.setup("1880", {}), None),
                  events=[{"type": type_, "data": data}], power=None)
    return next(line.strip() for line in text.splitlines() if line.startswith("  "))


def test_an_area_is_said_in_french_with_its_preposition() -> None:
    assert _line("fr", "unrest", area="persia", event="5-3", table="B") == \
        "Troubles en Perse (événement 5-3, table B)."
    assert _line("fr", "place_done", power="japan", area="japan", kind="influence") == \
        "Le Japon place un marqueur influence au Japon."
    assert _line("fr", "place_done", power="netherlands", area="dutch_east_indies",
                 kind="interest") == "Les Pays-Bas placent un marqueur intérêt aux Indes néerlandaises."
    assert _line("fr", "move_done", power="italy", unit="army", strength=3, **{"from": "egypt"},
                 to="aden", path=[]) == "L'Italie déplace une armée (3) de l'Égypte vers Aden."
    assert _line("fr", "upgrade_done", power="france", area="egypt", kind="possession") == \
        "La France améliore l'Égypte en possession."


def test_english_keeps_in_and_the_bare_name() -> None:
    assert _line("en", "unrest", area="persia", event="5-3", table="B") == \
        "Unrest in Persia (random event 5-3, table B)."
    assert _line("en", "move_done", power="italy", unit="army", strength=3, **{"from": "egypt"},
                 to="aden", path=[]) == "Italy moves an army (3) from Egypt to Aden."


def test_every_area_and_sea_has_its_french_forms() -> None:
    d = load()
    fr = words(d, "fr")["place"]
    for k in [*d.areas, *d.seas]:
        assert fr[k]["name"] != "" and fr[k]["in"] != f"in {d.areas[k].name if k in d.areas else d.seas[k].name}", k
    assert fr["persia"]["in"] == "en Perse" and fr["japan"]["in"] == "au Japon"
    assert fr["aden"]["of"] == "d'Aden" and fr["persia"]["from"] == "de la Perse"


def test_every_french_area_and_sea_name_is_a_name_an_order_may_use() -> None:
    """Orders read the French names of map.toml too (parser.names), accents optional; none
    folds like another place's English name, so none is left out."""
    d = load()
    n = names()
    for idx, table in ((n.areas, d.raw_map["areas"]), (n.seas, d.raw_map["sea_zones"])):
        for k, v in table.items():
            if v.get("type") == "home":
                continue  # home countries are no order slot (the power is)
            fr = v["words"]["fr"]["name"]
            assert idx.lookup(fr) == v["name"], (k, fr)
            assert idx.lookup(strip_accents(fr).upper()) == v["name"], (k, fr)
    assert n.by_name[n.areas.resolve("Indes néerlandaises")] == "dutch_east_indies"
    assert n.by_name[n.seas.resolve("ocean indien")] == "indian_ocean"
    # An ambiguous start is still refused with its candidates.
    nouv = n.areas.lookup("Nouvelle")
    assert isinstance(nouv, NameFailure) and nouv.kind is ErrorKind.AMBIGUOUS
    assert "New Guinea" in nouv.candidates and "New Zealand" in nouv.candidates


def test_a_french_name_that_is_another_places_name_is_left_out() -> None:
    slot: dict[str, list[str]] = {"Persia": ["Perse"], "Iran": []}
    _add_local_names(slot, {"Persia": {"words": {"fr": {"name": "Perse"}}},
                            "Iran": {"words": {"fr": {"name": "perse"}}}})
    assert slot == {"Persia": ["Perse"], "Iran": []}


def test_the_map_names_areas_seas_and_powers_in_the_readers_language() -> None:
    """Issue 20: a French reader's map says "Perse", "océan Indien", "Allemagne"; an
    English reader's map keeps the data's names."""
    from gm.maps import britannica as drawn
    from gm.service.mapwords import names_of

    view = module.view(module.setup("1880", {}), None)
    fr = drawn.scene(view, [], names_of("britannica", "fr"))
    en = drawn.scene(view, [], names_of("britannica", "en"))
    assert (fr.areas["persia"].label, fr.areas["indian_ocean"].label) == ("Perse", "océan Indien")
    assert (en.areas["persia"].label, en.areas["indian_ocean"].label) == ("Persia", "Indian Ocean")
    assert dict(fr.legend)["germany"] == "Allemagne" and dict(en.legend)["germany"] == "Germany"


def test_a_player_may_upgrade_and_downgrade_with_en_as_the_french_report_says_it() -> None:
    """orders.md §8 (`améliorer`, `rétrograder`): the French report says "La France améliore
    l'Égypte en possession", so "améliorer Égypte en protectorat" is read as "upgrade Egypt to
    protectorate" (it was "not an order of Pax Britannica": only `vers` and `à` were read)."""
    from gm.games.britannica import orders as o
    from tests.rules.britannica.britannica_helpers import orders_of

    state = module.setup("1880", {})
    assert orders_of(state, "france", "améliorer Égypte en protectorat", judged=False) == \
        [o.Upgrade("france", "egypt", "protectorate")]
    assert orders_of(state, "france", "rétrograder Maroc en intérêt", judged=False) == \
        [o.Downgrade("france", "morocco", "interest")]


def test_home_is_read_as_the_french_report_writes_it() -> None:
    """The French report lists "armée 10 au pays" and the data's home box is "la
    métropole": a French player who writes either form moves from or to home (before,
    only "patrie", "foyer" and an unaccented "metropole" were read: "de pays" was refused
    as an unknown sea zone)."""
    from gm.games.britannica import orders as o
    from tests.rules.britannica.britannica_helpers import orders_of

    state = module.setup("1880", {})
    for origin in ("métropole", "la métropole", "pays", "Metropole"):
        [move] = orders_of(state, "france", f"déplacer armée 1 de Sénégambie vers {origin}",
                           judged=False)
        assert move == o.Move("france", "army", 1, "senegambia", "home", ()), origin
        [back] = orders_of(state, "france", f"déplacer armée 10 de {origin} vers Alger",
                           judged=False)
        assert (back.origin, back.dest) == ("home", "algiers"), origin


def test_a_french_seats_echo_names_places_in_french_and_reads_back() -> None:
    """orders.md §8: the reply says a French seat's orders back in French, place names
    included ("améliorer Égypte vers protectorat", "de métropole"), and that echo is read
    again as the same order."""
    from gm.games.britannica.parser import echo
    from gm.i18n import translate
    from tests.rules.britannica.britannica_helpers import orders_of

    state = module.setup("1880", {})
    written = ["upgrade Egypt to protectorate", "move army 10 from home to Algiers via Mediterranean",
               "move army 1 from Senegambia to home"]
    for line in written:
        [order] = orders_of(state, "france", line, judged=False)
        said = translate(echo(order), "fr")
        assert orders_of(state, "france", said, judged=False) == [order], said
        assert translate(echo(order), "en") == str(echo(order))
    [upgrade] = orders_of(state, "france", written[0], judged=False)
    assert translate(echo(upgrade), "fr") == "améliorer Égypte vers protectorat"
    [move] = orders_of(state, "france", written[1], judged=False)
    assert translate(echo(move), "fr") == "déplacer armée 10 de métropole vers Alger par Méditerranée"


def test_an_order_word_that_does_not_read_gives_the_orders_syntax() -> None:
    """A line that starts like a move but does not read as one ("from" left out) is
    answered with the move's written form, in the reader's language, so the player can
    write it again without a HELP round trip."""
    from gm.i18n import translate
    from gm.orders.model import LineError, SourceLine

    state = module.setup("1880", {})
    for text, lang, said in [
        ("move army 10 to Tunis", "en", "not understood: it is written move army|fleet "
         "STRENGTH from home|AREA to AREA [via SEA, ...] (HELP move)"),
        ("déplacer armée 10 au pays vers Alger", "fr", "incompris : il s'écrit déplacer "
         "armée|flotte FORCE de métropole|ZONE vers ZONE [par MER, ...] (AIDE déplacer)")]:
        [line] = module.parse_orders(state, "france", [SourceLine(1, text)]).lines
        assert isinstance(line, LineError)
        assert translate(line.reason, lang) == said
