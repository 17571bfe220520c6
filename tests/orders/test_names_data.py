"""Issue 17 class 5: names as orders.md §3 lists them, and the exonyms held as data.

Transliteration (Själland = Sjælland = Sjaelland), the common English and French names of
areas and territories (gm/games/*/data/aliases.toml), an ambiguous prefix refused with
every candidate, never resolved silently.
"""

from __future__ import annotations

import pytest

from gm.games.baltica.module import BalticaModule
from gm.games.baltica.parsing import context_for, extra_aliases
from gm.games.britannica.data import aliases as britannica_aliases
from gm.games.britannica.data import load as britannica_data
from gm.games.britannica.parser import names as britannica_names
from gm.games.britannica.parser import parse_lines
from gm.orders.model import ErrorKind, LineError, ParsedOrder, SourceLine
from gm.orders.names import NameFailure, fold

BALTICA = BalticaModule()
SLOTS = context_for(BALTICA.board, BALTICA.setup("12.1", {}), "sweden").names


@pytest.mark.parametrize("written", ["Själland", "Sjælland", "Sjaelland", "sjalland", "SJÄLLAND"])
def test_transliteration_of_sjaelland(written: str) -> None:
    assert SLOTS["territory"].lookup(written) == "Sjælland"


@pytest.mark.parametrize(("written", "name"), [
    ("Skane", "Skåne"), ("Skaane", "Skåne"), ("Ostergotland", "Östergötland"),
    ("Oestergoetland", "Östergötland"), ("Malopolska", "Małopolska"), ("Plock", "Płock")])
def test_transliteration_as_the_contract_lists_it(written: str, name: str) -> None:
    assert SLOTS["territory"].lookup(written) == name


@pytest.mark.parametrize(("written", "name"), [
    ("Ingria", "Ingermanland"), ("Ingrie", "Ingermanland"), ("Courlande", "Kurland"),
    ("Livonie", "Livland"), ("Scanie", "Skåne"), ("Dalarna", "Kopparberg"),
    ("Lesser Poland", "Małopolska")])
def test_baltica_exonyms(written: str, name: str) -> None:
    assert SLOTS["territory"].lookup(written) == name


@pytest.mark.parametrize(("line", "area"), [
    ("place influence in Cameroon", "kamerun"), ("placer influence dans Cameroun", "kamerun"),
    ("upgrade Égypte to protectorate", "egypt"), ("place interest in Ethiopia", "abyssinia"),
    ("place interest in Taiwan", "formosa"), ("place interest in Côte-de-l'Or", "ashantee")])
def test_britannica_exonyms(line: str, area: str) -> None:
    [r] = parse_lines([SourceLine(1, line)], "britain").lines
    assert isinstance(r, ParsedOrder) and r.order.area == area


def test_an_ambiguous_prefix_is_refused_with_every_candidate() -> None:
    failure = SLOTS["territory"].lookup("Pom")
    assert isinstance(failure, NameFailure) and failure.kind is ErrorKind.AMBIGUOUS
    assert failure.candidates == ("Pommern", "Pomorze")
    [r] = parse_lines([SourceLine(1, "place influence in Cong")], "britain").lines
    assert isinstance(r, LineError) and r.kind is ErrorKind.AMBIGUOUS
    assert set(r.suggestions) == {"Kongo", "Gabon"}  # Congo / Congo français


def test_every_baltica_alias_names_one_existing_thing() -> None:
    for kind, table in extra_aliases().items():
        names = BALTICA.board.names(kind)
        owner: dict[str, str] = {}
        for key, spellings in names.items():
            for s in [*spellings, *table.get(key, ())]:
                assert owner.setdefault(fold(s), key) == key, (kind, s, key, owner[fold(s)])
        assert set(table) <= set(names), set(table) - set(names)


def test_every_britannica_alias_names_one_existing_thing() -> None:
    data, more = britannica_data(), britannica_aliases()
    assert set(more["areas"]) <= set(data.areas)
    assert set(more["seas"]) <= set(data.seas) | set(data.raw_map.get("cape_zones", {}))
    n = britannica_names()
    for index, section in ((n.areas, "areas"), (n.seas, "seas")):
        for aliases in more[section].values():
            for alias in aliases:
                assert not isinstance(index.lookup(alias), NameFailure), alias


def test_a_cape_zone_is_echoed_by_its_name_and_the_echo_reads_back() -> None:
    [r] = parse_lines([SourceLine(1, "merchant from Cap de Bonne-Espérance to Mer du Japon")],
                      "britain").lines
    assert isinstance(r, ParsedOrder)
    assert r.echo == "merchant from Cape of Good Hope to Sea of Japan"
    [again] = parse_lines([SourceLine(1, r.echo)], "britain").lines
    assert isinstance(again, ParsedOrder) and again.order == r.order
