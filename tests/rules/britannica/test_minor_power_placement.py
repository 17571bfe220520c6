"""Seed 003, Minor Powers (Determining Minor Power Activity) and Game Terms (Communication
Link): a minor power places a marker only where it has a Communication Link, and the 1880
set-up gives every minor power one to the areas of its activity table."""

from __future__ import annotations

from britannica_helpers import set_up

from gm.dice import Dice
from gm.games.britannica import board as b
from gm.games.britannica import economy
from gm.games.britannica.data import check_data, load


def _dice(power: str, *areas: str) -> Dice:
    """The Minor Powers phase's dice: ``power`` active and rolling ``areas`` on its Minor
    Powers Activity Table (two dice each), every other minor power idle."""
    d = load()
    rolls: list[int] = []
    for mp in d.minor_powers:
        chart = d.charts["minor_activity"][mp]
        if mp != power:
            rolls.append(1)
            continue
        rolls.append(chart["active_on"][0])
        for area in areas:
            total = chart["areas"].index(area) + 2
            rolls += [total - 1, 1] if total <= 7 else [6, total - 6]
    return Dice.scripted(rolls, then_seed=True)


def test_rule_minor_powers_placement_the_minor_power_must_have_a_communication_link() -> None:
    """Each step of the placement schedule: "The Minor Power must have a Communication Link"
    (Game Terms: "A Communication Link must exist between an Area and the players Home Country
    in order to place a Status marker in the Area"), and "If the Minor Power has available
    Status markers, but cannot place one in the Area determined on the Minor Power Activity
    Table, the GM will re-roll until an eligible Area is specified." Spain's merchant fleets
    lie in the North Atlantic, the Caribbean and the North Pacific: no link reaches Samoa, in
    the South Pacific. Spain rolls Samoa, then Morocco: it places its Influence in Morocco,
    nothing in Samoa (it used to place in Samoa)."""
    d = load()
    s = set_up()
    assert "samoa" not in b.linked(d, s, "spain") and "morocco" in b.linked(d, s, "spain")
    events = economy.minor_powers(d, s, _dice("spain", "samoa", "morocco"))
    placed = [(e.data["area"], e.data["kind"]) for e in events if e.type == "minor_power_placement"]
    assert placed == [("morocco", "influence")]
    assert "samoa" not in s["markers"]


def test_rule_minor_powers_placement_roll_2_takes_an_adjacent_area_it_can_link() -> None:
    """Roll 2: "the Minor Power will place the highest possible marker in the highest value
    area adjacent by land link to any of its Control markers", and it still "must have a
    Communication Link". Spain holds a Protectorate in Ashantee, beyond its merchant fleets'
    link: Nigeria (value 5) next to it is out of reach, so Spain takes Morocco (value 4), next
    to its Rio de Oro (it used to take Nigeria)."""
    d = load()
    s = set_up()
    s["markers"]["ashantee"] = [{"power": "spain", "kind": "protectorate", "established": True}]
    reach = b.linked(d, s, "spain")
    assert "nigeria" in d.neighbours("ashantee") and "nigeria" not in reach
    assert d.areas["nigeria"].value > d.areas["morocco"].value
    assert economy._adjacent_choice(d, s, "spain") == "morocco"


def test_rule_communication_link_every_minor_power_reaches_its_colonies_in_1880() -> None:
    """A minor power never buys nor moves a merchant fleet, so the 1880 set-up's fleets are its
    Communication Link for the whole game ("a path traced exclusively through Areas under a
    player's Control, Sea Zones containing one of the players Merchant Fleets, and/or the
    Players Home Country"). The reconstructed set-up once left Belgium's and the Netherlands'
    fleets unchained to their North Sea coasts: with the link required, neither could ever have
    placed a marker. Now Belgium reaches the Kongo and the Netherlands the Dutch East Indies
    and Guiana, and every minor power reaches areas of its activity table (a data check)."""
    d = load()
    s = set_up()
    assert {"kongo", "kamerun", "gabon", "nigeria"} <= b.linked(d, s, "belgium")
    assert {"dutch_east_indies", "guiana", "malaya"} <= b.linked(d, s, "netherlands")
    assert {"angola", "mozambique"} <= b.linked(d, s, "portugal")
    assert {"cuba", "porto_rico", "rio_de_oro", "morocco"} <= b.linked(d, s, "spain")
    assert not [e for e in check_data(d) if "link" in e]


def test_rule_minor_powers_belgium_places_a_protectorate_in_the_kongo() -> None:
    """"If the Minor Power cannot establish a Possession marker, it will attempt to establish a
    Protectorate marker in the Area", with an army from home and a Communication Link. Belgium,
    active, rolls the Kongo, where it holds an Influence: its Protectorate goes there with its
    smallest army from home."""
    d = load()
    s = set_up()
    events = economy.minor_powers(d, s, _dice("belgium", "kongo"))
    placed = [(e.data["area"], e.data["kind"]) for e in events if e.type == "minor_power_placement"]
    assert placed == [("kongo", "protectorate")]
    assert [u["strength"] for u in s["units"] if u["power"] == "belgium" and u["at"] == "kongo"] == [1]
