"""Pax Britannica module: data, parsing, a whole seven-power Movement phase, fog, order independence."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "rules" / "britannica"))
from britannica_helpers import set_up  # noqa: E402

from gm.dice import Dice  # noqa: E402
from gm.games.britannica import check_data, load, module  # noqa: E402
from gm.games.registry import get  # noqa: E402
from gm.orders.model import ErrorKind, SourceLine  # noqa: E402

SEVEN = {
    "britain": "buy army 1\nplace interest in Afghanistan\nmerchant from Caribbean to South Pacific",
    "france": "buy army 3\nplace protectorate in Mauritania\nmove army 3 from home to Mauritania\n"
              "place interest in Morocco",
    "germany": "buy fleet 3\nplace interest in Kamerun if britain places no influence in Kamerun\n"
               "FOR austria-hungary\nplace interest in Rumania",
    "italy": "place protectorate in Tunis if france places no control in Tunis",
    "japan": "upgrade Korea to protectorate unless russia moves into Korea\nmove army 3 from home to Korea",
    "russia": "place influence in Manchuria\nbuy fleet 1",
    "usa": "place interest in Cuba\nbuy army 1",
}


def _orders(state: dict, seat: str, text: str) -> list:
    lines = [SourceLine(i, t) for i, t in enumerate(text.splitlines(), 1)]
    res = module.parse_orders(state, seat, lines)
    assert not res.errors, res.errors
    return [p.order for p in res.orders]


def test_entry_point_and_data_check() -> None:
    """The module is found by name and its data pass the schema with the seed's corrections."""
    assert get("britannica").title == "Pax Britannica"
    assert check_data() == []
    d = load()
    assert len(d.areas) == 104 and len(d.seas) == 12
    assert d.areas["guiana"].value == 4
    assert "south_pacific" in d.areas["fiji"].seas
    assert "south_pacific" not in d.areas["new_zealand"].seas
    assert d.charts["minor_activity"]["spain"]["areas"][10 - 2] == "gabon"


def test_parse_reports_misspelt_names_and_french_orders() -> None:
    s = set_up()
    res = module.parse_orders(s, "france", [SourceLine(1, "place influence in Tunsi"),
                                            SourceLine(2, "placer protectorat dans Madagascar"),
                                            SourceLine(3, 'vote "Tunis deal" yes')])
    err = res.errors[0]
    assert err.kind is ErrorKind.UNKNOWN_NAME and err.suggestions == ("Tunis",)
    assert res.orders[0].echo == "place protectorate in Madagascar"
    assert module.validate(s, "france", [res.orders[1].order])[0].stored is False


def test_order_json_round_trip() -> None:
    s = set_up()
    for seat, text in SEVEN.items():
        for order in _orders(s, seat, text):
            assert module.order_from_json(module.order_to_json(order)) == order


def _run(order_of_seats: list[str]) -> tuple[dict, list]:
    s = set_up()
    s["unrest"] = ["tunis"]
    orders = {seat: _orders(s, seat, SEVEN[seat]) for seat in order_of_seats}
    out = module.adjudicate(s, orders, Dice.scripted([5, 6, 4, 6, 2, 3, 6, 1] * 10, then_seed=True))
    return out.state, [e.to_json() for e in out.events]


def test_whole_movement_phase_seven_powers_scripted_dice() -> None:
    state, events = _run(list(SEVEN))
    types = [e["type"] for e in events]
    assert module.phase(state).id == "1880-negotiation"
    assert "merchant_done" in types and "buy_done" in types
    placed = {(e["data"]["power"], e["data"]["area"]) for e in events if e["type"] == "place_done"}
    assert ("britain", "afghanistan") in placed
    assert ("france", "mauritania") in placed
    assert any(e["type"] == "colonial_combat" and e["data"]["area"] == "mauritania" for e in events)
    assert ("austria-hungary", "rumania") in placed
    assert state["eti"] > 20  # Germany and Russia bought navies (seed, European Tensions Increases)
    assert state["treasury"]["germany"] == 30 - 10


@settings(max_examples=25, deadline=None)
@given(st.permutations(list(SEVEN)))
def test_adjudication_does_not_depend_on_the_order_powers_are_looked_at(order: list[str]) -> None:
    assert _run(order) == _run(list(SEVEN))


def test_fog_hides_secret_treaties_from_non_parties() -> None:
    s = set_up()
    s["step"] = "negotiation"
    orders = {"britain": _orders(s, "britain", 'treaty "Cordiale" secret between britain, france: no war'),
              "france": _orders(s, "france", 'sign treaty "Cordiale"')}
    out = module.adjudicate(s, orders, Dice.scripted([1] * 60, then_seed=True))
    assert module.view(out.state, "france")["treaties"][0]["ratified"] is True
    assert module.view(out.state, "russia")["treaties"] == []
    assert module.phase(out.state).id == "1884-movement"


def test_fog_a_public_treaty_not_yet_ratified_is_its_parties_business() -> None:
    """A public treaty is published once ratified; until then the draft (who proposed
    what to whom) is shown to its parties only."""
    s = set_up()
    s["step"] = "negotiation"
    orders = {"britain": _orders(s, "britain", 'treaty "Cordiale" public between britain, france: no war')}
    out = module.adjudicate(s, orders, Dice.scripted([1] * 60, then_seed=True))
    [draft] = out.state["treaties"]
    assert draft["public"] and not draft["ratified"]
    assert [t["name"] for t in module.view(out.state, "france")["treaties"]] == ["Cordiale"]
    assert module.view(out.state, "russia")["treaties"] == []
    assert module.public_view(out.state)["treaties"] == []


def test_fog_a_colonial_office_roll_is_seen_by_its_seat_only() -> None:
    """Each power's colonial office income roll (and its administration) is for its own seat:
    the roll is recorded with that audience, which the reports filter on."""
    s = set_up()
    s["step"] = "negotiation"
    dice = Dice.scripted([1] * 60, then_seed=True)
    out = module.adjudicate(s, {}, dice)
    rolls = [r for r in dice.rolls if str(r.purpose).startswith("colonial office")]
    assert rolls
    d = load()
    for r in rolls:
        power = str(r.purpose).removeprefix("colonial office ")
        assert r.visible_to == frozenset({d.seat_of(power)}), (r.purpose, r.visible_to)
    for e in out.events:
        if e.type == "administration":
            assert e.visible_to == frozenset({d.seat_of(e.data["power"])}), e
