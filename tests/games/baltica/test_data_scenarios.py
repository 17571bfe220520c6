"""Scenario set-ups (3CG 12.x), name indexes for the order parser, and the 3cg-1.1 variant."""

from __future__ import annotations

from collections import deque

import pytest

from gm.games.baltica.board import RULESETS, BlockKind, Board, Season, load_board
from gm.games.base import UnknownScenario


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("gmt-2012")


@pytest.fixture(scope="module")
def boards() -> dict[str, Board]:
    return {r: load_board(r) for r in RULESETS}


def test_rule_3cg_12_1_grand_campaign_set_up(board: Board) -> None:
    """12.1 Grand Campaign (1700-1721). Start: Autumn 1700, End: Winter 1721.
    Special rules: 11.2, 11.3, 11.4, 11.5 applies. Swedish player starts with 3
    actions first turn. SWEDEN: Elfsborg, Kronoberg - VÄSTERGÖTLAND; Karl XII,
    Södra Skånska, Dalregementet - SKÅNE; Pommerska, Östgöta - POMMERN; Vellinck,
    Estländska - ESTLAND; Wachtmeister, Wattrang - SOUTHERN BALTIC SEA. RUSSIA:
    Pjotr I, Sjeremetev, Schnwentz, Kazanski - INGERMANLAND; Repnin - NOVGOROD.
    SAXONY: Flemming, August II - LIVLAND."""
    s = board.scenario("12.1")
    assert (s.start_year, s.start_season, s.end_year, s.end_season) == (
        1700, Season.AUTUMN, 1721, Season.WINTER)
    assert dict(s.first_turn_actions) == {"sweden": 3}
    assert all(s.special[k] for k in ("nyen", "faderneslandet", "vi_aer_rode_vi_aer_hvide",
                                      "mein_schatz"))
    assert not s.special["night_rider"]
    where: dict[str, set[str]] = {}
    for p in s.placements:
        where.setdefault(board.territories.get(p.location, board.seas.get(p.location)).name,
                         set()).add(board.blocks[p.block].name)
    assert where == {
        "Västergötland": {"Elfsborg", "Kronoberg"},
        "Skåne": {"Karl XII", "Södra Skånska", "Dalregementet"},
        "Pommern": {"Pommerska", "Östgöta"},
        "Estland": {"Vellinck", "Estländska"},
        "Southern Baltic Sea": {"Wachtmeister", "Wattrang"},
        "Ingermanland": {"Pyotr I", "Sheremetev", "Schnwentz", "Kazanski"},
        "Novgorod": {"Repnin"},
        "Livland": {"Flemming", "August II"},
    }
    assert all(p.strength == board.blocks[p.block].max_strength for p in s.placements)


def test_rule_3cg_12_1_victory_table(board: Board) -> None:
    """40 RP = Swedish Major Victory; 20-36 RP = Swedish Minor Victory; 16 RP =
    Allied Historical Victory; 8-12 RP = Allied Minor Victory; 4 RP = Allied Major."""
    rows = [(v.result, v.rp_min, v.rp_max) for v in board.scenario("12.1").victory]
    assert rows == [
        ("Swedish Major Victory", 40, None),
        ("Swedish Minor Victory", 20, 36),
        ("Allied Historical Victory", 16, 16),
        ("Allied Minor Victory", 8, 12),
        ("Allied Major Victory", None, 4),
    ]


def test_rule_3cg_12_4_reduced_blocks(board: Board) -> None:
    """Karl XII (steps: I) - BESARABYA; Vellinck (steps: III) - NYLAND;
    Frederik IV (steps: II) - SJÆLLAND."""
    s = board.scenario("12.4")
    got = {p.block: (p.location, p.strength) for p in s.placements}
    assert got["karl-xii"] == ("besarabya", 1)
    assert got["vellinck"] == ("nyland", 3)
    assert got["frederik-iv"] == ("sjaelland", 2)
    assert got["reventlov"] == ("skane", 4)


def test_rule_3cg_12_5_victory_by_occupation(board: Board) -> None:
    """Christiania and Trondheim = Swedish Major Victory; Christiania = Swedish
    Minor Victory."""
    s = board.scenario("12.5")
    occupied = {v.result: v.occupied for v in s.victory}
    garrisons = {board.territories[t].garrison.name for t in occupied["Swedish Major Victory"]}
    assert garrisons == {"Christiania", "Trondheim"}
    assert s.special["sweden_rp_halved"] and s.special["sweden_pool_setup_only"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_set_up_resolves_and_is_legal(boards: dict[str, Board], ruleset: str) -> None:
    """Every block placed exists once, every place exists, fleets are at sea or in
    a harbor and land blocks on land, strengths within 1..max."""
    board = boards[ruleset]
    assert set(board.scenarios) == {"12.1", "12.2", "12.3", "12.4", "12.5"}
    for s in board.scenarios.values():
        placed = s.placed()
        assert len(placed) == len(set(placed)), s.id
        for p in s.placements:
            block = board.blocks[p.block]
            assert 1 <= p.strength <= block.max_strength
            if p.location in board.seas:
                assert block.kind is BlockKind.FLEET, (s.id, p.block)
            else:
                t = board.territories[p.location]
                if block.kind is BlockKind.FLEET:
                    harbor = t.upgrade.harbor if s.special.get("sankt_peterburg_built") and t.upgrade else t.harbor
                    assert harbor, (s.id, p.block)
        for territory, nation in s.controlled.items():
            assert territory in board.territories and nation in board.nations
        for nation in s.active:
            assert nation in board.nations


def test_every_block_name_in_a_set_up_resolves_by_either_spelling(board: Board) -> None:
    """The 3CG set-ups' own spellings (Pjotr I, Sjeremetev, Mensjikov ...) find the blocks."""
    for spelling, block in (("Pjotr I", "pyotr-i"), ("Sjeremetev", "sheremetev"),
                            ("Mensjikov", "menshikov"), ("Södra Skånska", "sodra-skanska"),
                            ("Rehnskiöld", "rehnskiold"), ("Cossacks", "cossacks")):
        assert board.resolve("block", spelling) == block


@pytest.mark.parametrize(("kind", "spelling", "canonical"), [
    ("block", "Pjotr I", "pyotr-i"),
    ("block", "Pyotr I", "pyotr-i"),
    ("block", "Sheremetev", "sheremetev"),
    ("block", "karl xii", "karl-xii"),
    ("territory", "Kurlandia", "kurland"),
    ("territory", "Kurland", "kurland"),
    ("territory", "Pomorskie", "pomorze"),
    ("territory", "Pomorze", "pomorze"),
    ("territory", "Hanover", "hannover"),
    ("territory", "Hannover", "hannover"),
    ("territory", "Grodno", "trakai"),
    ("territory", "Mitawa", "kurland"),
    ("territory", "Kobenhavn", "sjaelland"),
    ("territory", "Gdansk", "pomorze"),
    ("territory", "S:t Petersburg", "nyen"),
    ("territory", "Southern Baltic Sea", None),
    ("sea", "Southern Baltic Sea", "southern-baltic"),
    ("nation", "Turkey", "ottoman"),
    ("nation", "Hanover", "hannover"),
])
def test_names_resolve_across_editions(
    boards: dict[str, Board], kind: str, spelling: str, canonical: str | None
) -> None:
    """Garrison names are aliases of their territory (siege Grodno = siege Trakai,
    1.2) and either edition's spelling names the same thing."""
    for board in boards.values():
        assert board.resolve(kind, spelling) == canonical


def test_names_index_lists_display_name_first(board: Board) -> None:
    names = board.names("territory")
    assert names["trakai"][0] == "Trakai" and "Grodno" in names["trakai"]
    assert names["skane"][0] == "Skåne" and "skane" in names["skane"]
    assert set(board.names("sea")) == set(board.seas)
    assert set(board.names("block")) == set(board.blocks)
    assert set(board.names("nation")) == set(board.nations)


def test_3cg_variant_uses_3cg_spellings_and_entry_dates(boards: dict[str, Board]) -> None:
    """3CG 9.4: From 1701 the allied player starts rolling for a Danish entry.
    3CG 9.8: Ukraine activates on a roll of 5 or 6. 3CG 9.1 lists Gävleborg."""
    gmt, old = boards["gmt-2012"], boards["3cg-1.1"]
    assert (gmt.blocks["pyotr-i"].name, old.blocks["pyotr-i"].name) == ("Pyotr I", "Pjotr I")
    assert old.territories["kurland"].name == "Kurlandia"
    assert old.territories["vasternorrland"].name == "Gävleborg"
    assert old.nations["denmark"].activation["from_year"] == 1701
    assert (gmt.nations["ukraine"].activation.get("needs", gmt.limits.activation_needs),
            old.nations["ukraine"].activation["needs"]) == (6, 5)  # GMT: 10.1's "on a 6"
    assert old.tables["event_table"]["1"]["id"] == "plague"
    assert gmt.tables["event_table"]["1"]["id"] == "polish_civil_war"


def test_rule_3cg_12_applies_to_all_scenarios_pools(boards: dict[str, Board]) -> None:
    """Swedish blocks not used in the initial setup ... constitute the Swedish
    Replacement Pool. Russian and Saxon blocks not used ... the Russian and Saxon
    Replacement Pools. ... the Danish, Polish and Turkish entry has not occurred."""
    gmt, old = boards["gmt-2012"], boards["3cg-1.1"]
    pools = gmt.initial_pools("12.1")
    assert set(pools) == {"sweden", "russia", "saxony"}
    placed = set(gmt.scenario("12.1").placed())
    assert not placed & {b for pool in pools.values() for b in pool}
    assert "rehnskiold" in pools["sweden"] and "lewenhaupt" in pools["sweden"]
    assert "repnin-reformed" not in pools["russia"]  # black stars start out of play (2.1)
    assert "stubinski" not in pools["russia"]  # Russian fleets out of play (11.2)
    assert "lubomirski" in pools["saxony"]  # 11.5: Polish blocks are in the Saxon pool
    assert "lubomirski" not in old.initial_pools("12.1")["saxony"]  # 3CG: own pool on entry
    assert old.entry_pool("12.1", "poland") == ("lubomirski", "sobieski", "oginski")
    assert gmt.initial_pools("12.5") == {"sweden": (), "denmark": ("frederik-iv", "reventlov",
                                         "rantzau", "fynske", "juel")}


def test_unknown_scenario_is_refused(board: Board) -> None:
    with pytest.raises(UnknownScenario):
        board.scenario("12.6")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_map_is_connected_except_blocked_borders_and_boxes(
    boards: dict[str, Board], ruleset: str
) -> None:
    """Every territory can be reached by land from Svealand; only Portsmouth, a box
    no block but the British fleet enters (11.11), stands apart."""
    board = boards[ruleset]
    seen, todo = {"svealand"}, deque(["svealand"])
    while todo:
        for there in board.neighbours(todo.popleft()):
            if there not in seen:
                seen.add(there)
                todo.append(there)
    assert set(board.territories) - seen == {"portsmouth"}
    assert board.territories["portsmouth"].box
