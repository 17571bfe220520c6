"""orders.md §3: names match after transliteration, by unique prefix, by alias."""

from __future__ import annotations

from gm.orders.model import ErrorKind, SourceLine
from gm.orders.names import NameFailure, NameIndex, fold

BALTIC = NameIndex(
    {
        "Skåne": [],
        "Småland": [],
        "Östgöta": [],
        "Själland": [],
        "Małopolska": [],
        "Großpolen": [],
        "Livland": [],
        "Lietuva": [],
        "Kurland": ["Kurlandia"],
        "Hannover": ["Hanover"],
        "Trakai": ["Grodno"],  # a garrison's name stands for its territory
        "Bremen-Verden": [],
        "Gulf of Finland": [],
    },
    slot="territory",
)
BLOCKS = NameIndex({"Karl XII": [], "Pyotr I": ["Pjotr I"], "Sheremetev": ["Sjeremetev"]}, "block")


def test_transliteration_examples_of_section_3() -> None:
    """`Skane` = `Skåne`, `Ostgota` = `Östgöta`, `Sjaelland` = `Själland` = `Sjælland`,
    `Malopolska` = `Małopolska`, `Gross` = `Groß`."""
    assert BALTIC.lookup("Skane") == "Skåne"
    assert BALTIC.lookup("OSTGOTA") == "Östgöta"
    assert BALTIC.lookup("Sjaelland") == "Själland"
    assert BALTIC.lookup("Sjælland") == "Själland"
    assert BALTIC.lookup("sjalland") == "Själland"
    assert BALTIC.lookup("Malopolska") == "Małopolska"
    assert BALTIC.lookup("Grosspolen") == "Großpolen"


def test_punctuation_and_spaces_are_ignored() -> None:
    assert BALTIC.lookup("bremen verden") == "Bremen-Verden"
    assert BALTIC.lookup("gulf  of   finland.") == "Gulf of Finland"


def test_regnal_numbers_in_digits() -> None:
    """Regnal numbers may be written in digits (`Karl 12` = `Karl XII`)."""
    assert BLOCKS.lookup("Karl 12") == "Karl XII"
    assert BLOCKS.lookup("karl xii") == "Karl XII"
    assert fold("Pyotr I") == fold("pyotr 1")


def test_aliases_from_the_data() -> None:
    """`Pjotr I` = `Pyotr I`, `Sjeremetev` = `Sheremetev`, `Kurlandia` = `Kurland`,
    `Hanover` = `Hannover`, and `siege Grodno` = `siege Trakai`."""
    assert BLOCKS.lookup("Pjotr I") == "Pyotr I"
    assert BLOCKS.lookup("Sjeremetev") == "Sheremetev"
    assert BALTIC.lookup("Kurlandia") == "Kurland"
    assert BALTIC.lookup("Hanover") == "Hannover"
    assert BALTIC.lookup("Grodno") == "Trakai"


def test_unique_prefix_of_three_letters() -> None:
    assert BALTIC.lookup("Sma") == "Småland"
    assert BALTIC.lookup("Han") == "Hannover"


def test_short_prefix_is_unknown() -> None:
    found = BALTIC.lookup("Sm")
    assert isinstance(found, NameFailure) and found.kind is ErrorKind.UNKNOWN_NAME


def test_ambiguous_prefix_lists_the_candidates() -> None:
    """A name that still matches several things is an error listing them."""
    found = BALTIC.lookup("Li")
    assert isinstance(found, NameFailure)  # too short
    found = BALTIC.lookup("Lie")
    assert found == "Lietuva"
    index = NameIndex.of(["Livland", "Livonia"])
    found = index.lookup("Liv")
    assert isinstance(found, NameFailure)
    assert found.kind is ErrorKind.AMBIGUOUS
    assert found.candidates == ("Livland", "Livonia")
    err = found.to_error(SourceLine(4, "recon Liv"))
    assert err.line.number == 4 and err.suggestions == ("Livland", "Livonia")


def test_exact_name_beats_prefix() -> None:
    index = NameIndex.of(["Pomorze", "Pomorze Zachodnie"])
    assert index.lookup("pomorze") == "Pomorze"


def test_did_you_mean_ranked_by_edit_distance() -> None:
    found = BALTIC.lookup("Skanee")
    assert isinstance(found, NameFailure)
    assert found.candidates[0] == "Skåne"
    assert "did you mean Skåne" in found.reason
    found = BALTIC.lookup("Livlamd")
    assert isinstance(found, NameFailure) and found.candidates[0] == "Livland"


def test_nothing_near_gives_no_suggestion() -> None:
    found = BALTIC.lookup("Zanzibar")
    assert isinstance(found, NameFailure) and found.candidates == ()
