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


@pytest.mark.parametrize(("step", "written", "echo"), [
    ("negotiation", 'treaty "Entente" public between britain and france: France takes Tunis',
     'treaty "Entente" public between britain, france: France takes Tunis'),
    ("negotiation", 'sign "Entente"', 'sign treaty "Entente"'),
    ("negotiation", "sign treaty Entente Cordiale", 'sign treaty "Entente Cordiale"'),
    ("negotiation", "signer le traité « Entente »", 'sign treaty "Entente"'),
    ("negotiation", "declare war against france", "declare war on france"),
    ("negotiation", "déclarer la guerre à la France", "declare war on france"),
    ("negotiation", "déclarer la guerre contre l'Allemagne", "declare war on germany"),
    ("negotiation", "soutenir la Russie", "support russia"),
    ("congress", "vote 1: yes", "vote 1 yes"),
    ("congress", 'voter "Tunis" : non', 'vote "Tunis" no'),
])
def test_britannica_negotiation_as_players_write_it(step: str, written: str, echo: str) -> None:
    state = {**BRITANNICA_STATE, "step": step}
    [line] = BRITANNICA.parse_orders(state, "britain", [SourceLine(1, written)]).lines
    assert isinstance(line, ParsedOrder) and line.echo == echo, line


@pytest.mark.parametrize(("game", "written", "echo"), [
    ("baltica", "move from Skåne: Karl XII to Småland force.", "move from Skåne: Karl XII to Småland force"),
    ("baltica", "recon Livland!", "recon Livland"),
    ("britannica", "buy army 3.", "buy army 3"),
    ("viking", "pass.", "pass"),
    ("viking", "journey home to Ladoga", "journey from home to Ladoga"),
    ("viking", "journey from home -> Ladoga", "journey from home to Ladoga"),
    ("viking", "voyager foyer vers Ladoga", "journey from home to Ladoga"),
    ("viking", "invest draw!", "invest draw"),
])
def test_a_full_stop_after_an_order_is_not_part_of_it(game: str, written: str, echo: str) -> None:
    """Issue 17: an order written as a sentence ends with a full stop; it is read without
    it, in every game ("you wrote" still shows the line as written). Pax Viking's journey,
    like Pax Baltica's move, may leave out 'from' and write '->' for 'to'."""
    from gm.games.viking import module as viking

    module, state, power = {
        "baltica": (BALTICA, BALTICA_STATE, "sweden"),
        "britannica": (BRITANNICA, BRITANNICA_STATE, "britain"),
        "viking": (viking, viking.setup("3p", {}), "red"),
    }[game]
    [line] = module.parse_orders(state, power, [SourceLine(1, written)]).lines  # type: ignore[attr-defined]
    assert isinstance(line, ParsedOrder) and line.echo == echo and line.line.text == written


def test_prose_with_a_full_stop_stays_prose() -> None:
    from gm.orders.model import Ignored

    [line] = BALTICA.parse_orders(BALTICA_STATE, "sweden", [SourceLine(1, "Thanks.")]).lines
    assert isinstance(line, Ignored)
