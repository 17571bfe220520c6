"""Seed 003, Victory Points: the turn's record and the Paths across Africa bonus."""

from __future__ import annotations

from britannica_helpers import of_type

from gm.games.britannica import economy, module
from gm.games.britannica.data import load


def _control(s: dict, power: str, *areas: str) -> None:
    for a in areas:
        s["markers"][a] = [{"power": power, "kind": "protectorate", "established": True}]


def test_rule_paths_across_africa_east_west_10_vp_once() -> None:
    d = load()
    s = module.setup("1880", {})
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
    s = module.setup("1880", {})
    _control(s, "france", "ashantee", "sudan")
    s["markers"]["nigeria"] = [{"power": "britain", "kind": "protectorate", "established": True}]
    assert not economy.africa_path(d, s, "france", ("north_west", "north_east"))
    _control(s, "france", "nigeria")
    s["unrest"] = ["nigeria"]
    assert not economy.africa_path(d, s, "france", ("north_west", "north_east"))


def test_rule_victory_point_record_france_37_pounds_divisor_7_is_5_vp() -> None:
    d = load()
    s = module.setup("1880", {})
    s["treasury"]["france"] = 37
    [france] = [e for e in of_type(economy.victory_points(d, s), "victory_points") if e["power"] == "france"]
    assert france["gained"] == 5
