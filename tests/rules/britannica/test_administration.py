"""Seed 003, Administration Record: the Japanese running example."""

from __future__ import annotations

from britannica_helpers import set_up

from gm.dice import Dice
from gm.games.britannica import economy
from gm.games.britannica.data import load


def _japan_example() -> dict:
    """Japan: 1 Possession (6), 2 Protectorates (7, 4), 2 Influences (8, 4), 4 Interests (6,5,4,4);
    one Army(10) and three Army(1) in its controlled areas. Values set on areas Japan can reach."""
    d = load()
    s = set_up()
    s["markers"] = {}
    s["units"] = [u for u in s["units"] if u["power"] != "japan"]
    layout = [("possession", 6), ("protectorate", 7), ("protectorate", 4), ("influence", 8),
              ("influence", 4), ("interest", 6), ("interest", 5), ("interest", 4), ("interest", 4)]
    coastal = [a for a in d.areas.values() if a.type != "home" and "sea_of_japan" in a.seas
               or a.id in ("formosa", "philippines", "hawaii", "alaska", "new_guinea", "fiji")]
    areas = {}
    for (kind, value), a in zip(layout, coastal, strict=False):
        areas[a.id] = value
        s["markers"][a.id] = [{"power": "japan", "kind": kind, "established": True}]
    s["merchants"]["japan"] = ["sea_of_japan", "north_pacific", "south_pacific", "south_china_sea"]
    control = [a for a, ms in s["markers"].items() if ms[0]["kind"] in ("possession", "protectorate")]
    units = [(10, control[0]), (1, control[1]), (1, control[2]), (1, control[2])]
    for i, (st, at) in enumerate(units, 900):
        s["units"].append({"id": i, "power": "japan", "type": "army", "strength": st, "at": at})
    return s, areas


def _with_values(areas: dict) -> object:
    d = load()
    from dataclasses import replace
    new_areas = dict(d.areas)
    for a, v in areas.items():
        new_areas[a] = replace(new_areas[a], value=v)
    return replace(d, areas=new_areas)


def test_rule_income_record_japan_markers_117() -> None:
    """"Japan has an income of 30 from Possessions, 44 from Protectorates, 24 from Influences
    and 19 from Interests giving a total of 117."""
    s, areas = _japan_example()
    assert economy.marker_income(_with_values(areas), s, "japan") == 117


def test_rule_maintenance_record_japan_63() -> None:
    """"1 Possession equals £20, 2 Protectorates equals £20, 2 Influences equals £10 ... 1 Army
    unit of value 10 and three army units of value 1 ... The total maintenance cost is £63."""
    s, areas = _japan_example()
    assert economy.maintenance(_with_values(areas), s, "japan") == 63


def test_rule_net_income_japan_64() -> None:
    """"Japan: (Roll 3) 10 + Markers 117 - Maintenance 63 = 64. So Japan has £64 to spend."""
    s, areas = _japan_example()
    d = _with_values(areas)
    co, roll = economy.colonial_office(d, s, "japan", Dice.scripted([3]))
    assert (co, roll) == (10, 3)
    assert co + economy.marker_income(d, s, "japan") - economy.maintenance(d, s, "japan") == 64


def test_rule_income_record_no_control_markers_takes_the_6_column_without_a_roll() -> None:
    """"A power that has no Control markers ... receives the number of £'s listed under the 6
    column, without the GM rolling the die. The exception is Austria-Hungary"."""
    d = load()
    s = set_up()
    dice = Dice.scripted([1])
    assert economy.colonial_office(d, s, "germany", dice) == (d.rules["colonial_office"]["germany"]["income"][5], None)
    assert economy.colonial_office(d, s, "austria-hungary", dice)[1] == 1


def test_rule_co_dominions_kongo_income_8_becomes_6() -> None:
    """"Belgium, Britain and France share Kongo. Britain and France would receive the equivalent
    base income of £6, not £8, as there are two other Control markers in the Area."""
    d = load()
    s = set_up()
    s["markers"] = {"kongo": [{"power": p, "kind": "protectorate", "established": True}
                              for p in ("belgium", "britain", "france")]}
    s["merchants"]["france"].append("south_atlantic")  # a communication link to Kongo
    assert d.areas["kongo"].value == 8
    assert economy.marker_income(d, s, "britain") == 6 * 4
    assert economy.marker_income(d, s, "france") == 6 * 4


def test_rule_maintenance_record_no_unit_maintenance_in_states_or_dominions() -> None:
    """"Note that the USA and British players do not pay maintenance for Military Units in
    States or Dominions, although they do pay for maintenance for the State and Dominion
    markers themselves." Britain's Army(3) costs nothing in its Dominion of Canada, £3 in
    its Possession of Cape Colony; the Dominion marker still costs £30."""
    d = load()
    s = set_up()
    s["markers"] = {"canada": [{"power": "britain", "kind": "dominion", "established": True}],
                    "cape_colony": [{"power": "britain", "kind": "possession", "established": True}]}
    s["units"] = [{"id": 1, "power": "britain", "type": "army", "strength": 3, "at": "canada"}]
    assert economy.unit_maintenance(d, s, "britain") == 0
    assert economy.maintenance(d, s, "britain") == 30 + 20
    s["units"][0]["at"] = "cape_colony"
    assert economy.unit_maintenance(d, s, "britain") == 3


def test_rule_status_record_no_income_from_an_area_without_a_communication_link() -> None:
    """"Do not, however, count Areas or Status markers to which you have no Communication Link.
    You never receive income from an Area to which you cannot trace a Communication Link during
    the Administration Phase." France's Protectorate in Kongo (value 8) pays £32 with a
    merchant fleet in the South Atlantic, nothing without one."""
    d = load()
    s = set_up()
    s["markers"] = {"kongo": [{"power": "france", "kind": "protectorate", "established": True}]}
    assert "south_atlantic" not in s["merchants"]["france"]
    assert economy.marker_income(d, s, "france") == 0
    s["merchants"]["france"].append("south_atlantic")
    assert economy.marker_income(d, s, "france") == 8 * 4
