"""Issue 17: orders as a hurried player writes them (docs/orders.md, "Orders"): a move
without ``from``, an arrow for ``to``, French connectors in Pax Britannica. Each reads as
the canonical order; what stays ambiguous (a move without its origin) stays an error."""

from __future__ import annotations

import pytest

from gm.games.baltica.module import BalticaModule
from gm.games.britannica.module import Britannica
from gm.orders.model import LineError, ParsedOrder, SourceLine

BALTICA = BalticaModule()
BALTICA_STATE = BALTICA.setup("12.1", {})
BRITANNICA = Britannica()
BRITANNICA_STATE = BRITANNICA.setup("1880", {})


def baltica(text: str) -> object:
    [line] = BALTICA.parse_orders(BALTICA_STATE, "sweden", [SourceLine(1, text)]).lines
    return line


@pytest.mark.parametrize(("written", "echo"), [
    ("move Skåne: Karl XII to Småland", "move from Skåne: Karl XII to Småland"),
    ("move from Skåne: Karl XII -> Småland", "move from Skåne: Karl XII to Småland"),
    ("move from Skåne: Karl XII → Småland", "move from Skåne: Karl XII to Småland"),
    ("déplacer Skåne : Karl XII vers Småland", "move from Skåne: Karl XII to Småland"),
    ("sail Wachtmeister from Southern Baltic -> Gulf of Finland",
     "sail Wachtmeister from Southern Baltic Sea to Gulf of Finland"),
])
def test_baltica_move_without_from_and_arrows(written: str, echo: str) -> None:
    line = baltica(written)
    assert isinstance(line, ParsedOrder) and line.echo == echo


def test_a_move_without_its_origin_stays_an_error() -> None:
    line = baltica("move Karl XII to Livland")
    assert isinstance(line, LineError) and "from TERRITORY:" in line.reason


@pytest.mark.parametrize(("written", "echo"), [
    ("placer influence au Maroc", "place influence in Morocco"),
    ("placer influence à Tunis", "place influence in Tunis"),
    ("placer intérêt aux Philippines", "place interest in Philippines"),
    ("déplacer armée 3 de métropole à Érythrée", "move army 3 from home to Eritrea"),
    ("déplacer armée 3 de foyer vers Érythrée", "move army 3 from home to Eritrea"),
    ("transférer 20 à autriche-hongrie", "transfer 20 to austria-hungary"),
])
def test_britannica_french_connectors(written: str, echo: str) -> None:
    [line] = BRITANNICA.parse_orders(BRITANNICA_STATE, "france", [SourceLine(1, written)]).lines
    assert isinstance(line, ParsedOrder) and line.echo == echo, line
