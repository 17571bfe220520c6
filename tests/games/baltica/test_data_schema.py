"""The schema check (gm data check) on the shipped data and on broken copies of it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gm.games.baltica.board import RULESETS, build_board, read_raw
from gm.games.baltica.datacheck import check_all, check_data, check_raw
from gm.games.base import DataError


@pytest.fixture
def raw() -> dict[str, Any]:
    """A private, mutable copy of the shipped gmt-2012 data."""
    return copy.deepcopy(read_raw("gmt-2012"))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_shipped_data_checks_clean(ruleset: str) -> None:
    assert check_data(ruleset) == []


def test_check_all_covers_every_ruleset() -> None:
    assert check_all() == []


def test_unknown_ruleset_is_a_data_error() -> None:
    with pytest.raises(DataError, match="unknown Pax Baltica ruleset"):
        check_data("avalon-hill-1980")


def test_unknown_territory_in_a_border_is_named(raw: dict[str, Any]) -> None:
    raw["map.toml"]["border"].append({"a": "livland", "b": "pskov", "source": "typo"})
    assert "map.toml: border livland|pskov: b: unknown territory 'pskov'" in check_raw(raw)


def test_bad_combat_rating_is_named(raw: dict[str, Any]) -> None:
    raw["blocks.toml"]["block"]["karl-xii"]["rating"] = "E3"
    problems = check_raw(raw)
    assert any(p.startswith("blocks.toml: block karl-xii: rating:") for p in problems), problems


def test_duplicate_name_is_named(raw: dict[str, Any]) -> None:
    raw["map.toml"]["territory"]["estland"]["aliases"] = ["Livland"]
    problems = check_raw(raw)
    assert any("'livland' is also a name of territory" in p for p in problems), problems


def test_duplicate_garrison_name_is_caught(raw: dict[str, Any]) -> None:
    raw["map.toml"]["territory"]["lietuva"]["garrison"]["name"] = "Grodno"
    assert any("'grodno' is also a name" in p for p in check_raw(raw))


def test_missing_source_is_named(raw: dict[str, Any]) -> None:
    del raw["blocks.toml"]["block"]["repnin"]["source"]
    assert any(
        p.startswith("blocks.toml: block repnin: source: missing") for p in check_raw(raw)
    )


def test_source_table_without_default_must_cite_every_field(raw: dict[str, Any]) -> None:
    raw["map.toml"]["territory"]["trakai"]["source"] = {"garrison": "1.2 example"}
    problems = check_raw(raw)
    assert "map.toml: territory trakai: forage: no source given (and no source.default)" in problems


def test_unknown_block_in_a_set_up_is_named(raw: dict[str, Any]) -> None:
    raw["scenarios.toml"]["scenario"]["12.1"]["setup"]["skane"].append("karl-xiii")
    assert (
        "scenarios.toml: scenario 12.1: setup.skane.karl-xiii: unknown block 'karl-xiii'"
        in check_raw(raw)
    )


def test_block_placed_twice_is_caught(raw: dict[str, Any]) -> None:
    raw["scenarios.toml"]["scenario"]["12.1"]["setup"]["novgorod"].append("pyotr-i")
    assert any("setup.novgorod.pyotr-i: block also placed in" in p for p in check_raw(raw))


def test_fleet_set_up_on_land_without_harbor_is_caught(raw: dict[str, Any]) -> None:
    raw["scenarios.toml"]["scenario"]["12.1"]["setup"]["estland"].append("wattrang")
    del raw["scenarios.toml"]["scenario"]["12.1"]["setup"]["southern-baltic"]
    assert any("setup.estland.wattrang: a fleet sets up at sea" in p for p in check_raw(raw))


def test_port_must_touch_a_real_sea_zone(raw: dict[str, Any]) -> None:
    raw["map.toml"]["territory"]["pomorze"]["sea"] = "vistula-lagoon"
    assert "map.toml: territory pomorze: sea: unknown sea zone 'vistula-lagoon'" in check_raw(raw)


def test_non_port_may_not_touch_a_sea(raw: dict[str, Any]) -> None:
    raw["map.toml"]["territory"]["kurland"]["sea"] = "gulf-of-riga"
    assert any(p.startswith("map.toml: territory kurland: sea: only ports") for p in check_raw(raw))


def test_garrison_value_outside_1_to_4_is_caught(raw: dict[str, Any]) -> None:
    raw["map.toml"]["territory"]["trakai"]["garrison"]["value"] = 5
    assert "map.toml: territory trakai garrison: value: 5 is outside 1-4" in check_raw(raw)


def test_regiment_with_four_steps_is_caught(raw: dict[str, Any]) -> None:
    raw["blocks.toml"]["block"]["dalregementet"]["max_strength"] = 4
    assert any("block dalregementet: max_strength: regiments" in p for p in check_raw(raw))


def test_misspelt_field_is_caught(raw: dict[str, Any]) -> None:
    raw["map.toml"]["territory"]["livland"]["forrage"] = 3
    assert "map.toml: territory livland: forrage: unknown field" in check_raw(raw)


def test_cutting_a_territory_off_breaks_connectivity(raw: dict[str, Any]) -> None:
    raw["map.toml"]["border"] = [
        b for b in raw["map.toml"]["border"] if "osterbotten" not in (b["a"], b["b"])
    ]
    assert any("territory osterbotten: border: cannot be reached" in p for p in check_raw(raw))


def test_sea_adjacency_must_be_symmetric(raw: dict[str, Any]) -> None:
    raw["map.toml"]["sea"]["gulf-of-riga"]["adjacent"].append("kattegat")
    assert any("sea gulf-of-riga: adjacent: 'kattegat' does not list" in p for p in check_raw(raw))


def test_build_board_refuses_broken_data_with_every_problem(raw: dict[str, Any]) -> None:
    raw["blocks.toml"]["block"]["karl-xii"]["rating"] = "A9"
    raw["map.toml"]["territory"]["livland"]["forage"] = 0
    with pytest.raises(DataError) as err:
        build_board("gmt-2012", raw)
    assert "block karl-xii: rating" in str(err.value)
    assert "territory livland: forage: 0 is outside 1-4" in str(err.value)


def test_attrition_track_boxes_are_checked(raw: dict[str, Any]) -> None:
    """11.1: the reconstructed boxes use only the effect kinds the code carries out, name
    known nations, are numbered in order and cite a source."""
    track = raw["tables.toml"]["swedish_attrition_track"]
    track["upper"][1]["effects"] = [{"kind": "invade", "nation": "prussia"}]
    track["lower"][0]["effects"] = [{"kind": "activation", "nation": "brandenburg", "modifier": 1}]
    track["lower"][2]["box"] = 7
    del track["lower"][3]["source"]
    problems = check_raw(raw)
    assert any("upper box 2 effect: kind: 'invade' is not one of activation" in p for p in problems)
    assert any("lower box 1 effect: nation: unknown nation 'brandenburg'" in p for p in problems)
    assert any("lower box 3: box: 7 is outside 3-3" in p for p in problems)
    assert any("lower box 4: source: missing" in p for p in problems)


def test_rule_9_1_a_fleet_takes_its_movement_from_the_limits_not_a_line_of_its_own(
        raw: dict[str, Any]) -> None:
    """9.1: every fleet moves as far as ``limits.fleet_movement`` (the galley fleet
    ``galley_movement``): a ``movement`` on one fleet would be a second place for that
    number, and ``galley`` is a fleet's alone."""
    raw["blocks.toml"]["block"]["wachtmeister"]["movement"] = 6
    raw["blocks.toml"]["block"]["karl-xii"]["galley"] = True
    problems = check_raw(raw)
    assert any(p.startswith("blocks.toml: block wachtmeister: movement: a fleet moves tables.toml")
               for p in problems), problems
    assert any(p.startswith("blocks.toml: block karl-xii: galley: only a fleet") for p in problems), problems


def test_the_limits_the_engine_reads_are_whole_numbers_in_range(raw: dict[str, Any]) -> None:
    """3.1-9.2: the action table gives whole actions or an event, and each limit read into
    Board.limits is a whole number in its range (a GM's typo is named, not adjudicated)."""
    tables = raw["tables.toml"]
    tables["limits"]["border_normal"] = "2"
    del tables["limits"]["fleet_capacity_regiments"]
    tables["limits"]["garrison_rating"] = "E1"
    tables["action_table"]["2"] = {"actions": 1, "event": True}
    problems = check_raw(raw)
    assert "tables.toml: limits: border_normal: '2' is not a whole number from 1 to 99" in problems
    assert "tables.toml: limits: fleet_capacity_regiments: None is not a whole number from 0 to 9" \
        in problems
    assert any(p.startswith("tables.toml: limits: garrison_rating: 'E1'") for p in problems), problems
    assert "tables.toml: action_table: 2: give actions (1 or more) or event = true (3.1)" in problems


def test_the_rule_books_numbers_moved_into_the_limits_are_checked(raw: dict[str, Any]) -> None:
    """2.3, 5.4, 10.1, 10.2, 11.1, 11.2, 11.5, 11.6: each number the engine now reads from
    tables.toml ``limits`` instead of its code is refused, named, when it is missing, not
    a whole number or out of range (a die roll is 1-6); the board is not built."""
    limits = raw["tables.toml"]["limits"]
    del limits["battle_rounds"]
    limits["activation_needs"] = 7
    limits["truce_years_ahead"] = "4"
    limits["rp_per_ceded_territory"] = -4
    limits["rp_polish_capitals"] = 4.0
    limits["reform_years_ahead"] = 0
    limits["fleet_years_ahead"] = True
    limits["austro_turkish_war_needs"] = 0
    limits["night_rider_needs"] = "six"
    limits["night_rider_needs_drop"] = 6
    problems = check_raw(raw)
    for line in ("battle_rounds: None is not a whole number from 1 to 9",
                 "activation_needs: 7 is not a whole number from 1 to 6",
                 "truce_years_ahead: '4' is not a whole number from 1 to 20",
                 "rp_per_ceded_territory: -4 is not a whole number from 0 to 40",
                 "rp_polish_capitals: 4.0 is not a whole number from 0 to 40",
                 "reform_years_ahead: 0 is not a whole number from 1 to 20",
                 "fleet_years_ahead: True is not a whole number from 1 to 20",
                 "austro_turkish_war_needs: 0 is not a whole number from 1 to 6",
                 "night_rider_needs: 'six' is not a whole number from 1 to 6",
                 "night_rider_needs_drop: 6 is not a whole number from 0 to 5"):
        assert f"tables.toml: limits: {line}" in problems, problems
    with pytest.raises(DataError, match="battle_rounds"):
        build_board("gmt-2012", raw)
