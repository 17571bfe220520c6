"""Seed 003, Victory Points: the turn's record and the Paths across Africa bonus."""

from __future__ import annotations

from britannica_helpers import of_type, set_up

from gm.games.britannica import economy, module
from gm.games.britannica.data import load


def _control(s: dict, power: str, *areas: str) -> None:
    for a in areas:
        s["markers"][a] = [{"power": power, "kind": "protectorate", "established": True}]


def test_rule_paths_across_africa_east_west_10_vp_once() -> None:
    d = load()
    s = set_up()
    _control(s, "france", "ashantee", "nigeria")
    assert not economy.africa_path(d, s, "france", ("north_west", "north_east"))
    _control(s, "france", "sudan")
    before = s["vp"]["france"]
    events = economy.africa_bonus(d, s)
    assert of_type(events, "bonus_vp") == [{"power": "france", "bonus": "africa_east_west", "vp": 10,
                                            "total": before + 10}]
    assert not economy.africa_bonus(d, s)  # each bonus only once


def test_rule_paths_across_africa_the_link_is_overland_through_own_control() -> None:
    d = load()
    s = set_up()
    _control(s, "france", "ashantee", "sudan")
    s["markers"]["nigeria"] = [{"power": "britain", "kind": "protectorate", "established": True}]
    assert not economy.africa_path(d, s, "france", ("north_west", "north_east"))
    _control(s, "france", "nigeria")
    s["unrest"] = ["nigeria"]
    assert not economy.africa_path(d, s, "france", ("north_west", "north_east"))


def test_rule_victory_point_record_france_37_pounds_divisor_7_is_5_vp() -> None:
    d = load()
    s = set_up()
    s["treasury"]["france"] = 37
    [france] = [e for e in of_type(economy.victory_points(d, s), "victory_points") if e["power"] == "france"]
    assert france["gained"] == 5


def test_rule_victory_point_record_purchasing_spends_the_pounds() -> None:
    """"Purchasing victory points with any £'s remaining in a your treasury at the beginning of
    the Victory Point Record phase" and "France has 37 £'s left in his treasury, this figure is
    divided by the VPD of 7 for a total of 5 victory points for that turn (fractions are
    dropped)": the £35 that bought 5 VP are spent, the £2 fraction stays."""
    d = load()
    s = set_up()
    s["treasury"]["france"] = 37
    [france] = [e for e in of_type(economy.victory_points(d, s), "victory_points") if e["power"] == "france"]
    assert (france["gained"], france["spent"]) == (5, 35)
    assert s["treasury"]["france"] == 2 and s["vp"]["france"] == 5


def test_rule_victory_point_record_germany_buys_with_austria_hungarys_pounds_too() -> None:
    """"the GM will add the German and Austrian treasuries together before dividing to determine
    the number of victory points he earns": both treasuries pay for them."""
    d = load()
    s = set_up()
    div = d.rules["colonial_office"]["germany"]["vp_divisor"]
    s["treasury"]["germany"], s["treasury"]["austria-hungary"] = 2 * div, div + 1
    [germany] = [e for e in of_type(economy.victory_points(d, s), "victory_points")
                 if e["power"] == "germany"]
    assert germany["gained"] == 3
    assert s["treasury"]["austria-hungary"] + s["treasury"]["germany"] == 1
    assert s["treasury"]["austria-hungary"] == 0


def test_rule_net_income_japan_has_64_to_spend_this_turn_not_the_banked_treasury() -> None:
    """"Japan: (Roll 3) 10 + Markers 117 – Maintenance 63 = 64 / So Japan has £64 to spend
    during this turn": what a power has in a turn is that turn's net income (plus the fraction
    the last VP purchase left, less than one divisor). Three turns without orders: before
    each Administration phase every treasury holds less than its divisor (it banked 30 VP by
    counting the same £ every turn before)."""
    from britannica_helpers import dice

    d = load()
    s = set_up()
    checked = 0
    for n in range(12):
        if s["year"] == 1892 and s["step"] == "movement":
            break
        info = module.phase(s)
        out = module.adjudicate(s, {p: module.default_orders(s, p) for p in info.owing},
                                dice(f"bank{n}"))
        s = out.state
        for a in of_type(out.events, "administration"):
            if a["power"] in ("austria-hungary", "germany"):
                continue
            before = a["treasury"] - (a["colonial_office"] + a["markers"] - a["maintenance"])
            assert 0 <= before < d.rules["colonial_office"][a["power"]]["vp_divisor"], a
            checked += 1
    assert (s["year"], s["step"]) == (1892, "movement") and checked == 3 * 6
