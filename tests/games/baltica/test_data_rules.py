"""Facts the rule books state about the map and the blocks hold in the loaded board.

Each test is named after the rule (GMT 2012 numbering, "3cg" for the 3CG v1.1
book) and quotes it.
"""

from __future__ import annotations

from collections import Counter, deque

import pytest

from gm.games.baltica.board import BlockKind, Board, Rating, Side, Star, Terrain, load_board


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("gmt-2012")


def distance(board: Board, a: str, b: str) -> int | None:
    """Fewest land moves from a to b through open borders."""
    seen, todo = {a: 0}, deque([a])
    while todo:
        here = todo.popleft()
        for there in board.neighbours(here):
            if there not in seen:
                seen[there] = seen[here] + 1
                todo.append(there)
    return seen.get(b)


def test_rule_1_0_livland_ingermanland_blocked_by_lake_peipus(board: Board) -> None:
    """Example: Livland and Ingermanland are separated by Lake Peipus; movement
    between them is prohibited."""
    border = board.border("livland", "ingermanland")
    assert border is not None and border.blocked and border.lake == "Peipus"
    assert "ingermanland" not in board.neighbours("livland")
    assert "livland" not in board.neighbours("ingermanland")


def test_rule_3cg_1_1_no_move_between_ostergotland_and_vastergotland(board: Board) -> None:
    """3CG 1.1: It is NOT possible to move from Östergötland to Västergötland.
    It is possible to move from Ukraiyina to Mala Rus and vice versa."""
    assert "vastergotland" not in board.neighbours("ostergotland")
    assert "mala-rus" in board.neighbours("ukraiyina")
    assert "ukraiyina" in board.neighbours("mala-rus")


def test_rule_1_1_sweden_proper_and_denmark_proper(board: Board) -> None:
    """Sweden proper consists of Skåne, Småland, Östergötland, Västergötland,
    Svealand, Kopparberg, and Västernorrland. Denmark proper consists of Jylland
    and Sjælland."""
    names = {board.territories[t].name for t in board.nations["sweden"].proper}
    assert names == {"Skåne", "Småland", "Östergötland", "Västergötland", "Svealand",
                     "Kopparberg", "Västernorrland"}
    assert set(board.region("sweden-proper")) == set(board.nations["sweden"].proper)
    assert set(board.nations["denmark"].proper) == {"jylland", "sjaelland"}


def test_rule_1_1_germany(board: Board) -> None:
    """Germany consists of Bremen-Verden, Wismar, Pommern, Holstein-Gottorp,
    Mecklenburg, Schlesien, Hannover, and all of Saxony and Prussia."""
    expected = {"bremen-verden", "wismar", "pommern", "holstein-gottorp", "mecklenburg",
                "schlesien", "hannover"}
    expected |= set(board.nation_territories("saxony")) | set(board.nation_territories("prussia"))
    assert set(board.region("germany")) == expected


def test_rule_1_1_the_four_major_nations(board: Board) -> None:
    """Four of these nations are major nations: Sweden, Russia, Saxony, and Denmark."""
    assert {n.id for n in board.nations.values() if n.major} == {
        "sweden", "russia", "saxony", "denmark"}
    assert board.nations["sweden"].side is Side.SWEDEN
    assert {board.nations[n].side for n in ("russia", "saxony", "denmark")} == {Side.COALITION}


def test_rule_1_2_trakai_garrison_is_grodno_value_3(board: Board) -> None:
    """Example: The garrison of Trakai is called Grodno, and has a value of 3."""
    garrison = board.territories["trakai"].garrison
    assert garrison is not None and (garrison.name, garrison.value) == ("Grodno", 3)


def test_rule_1_2_every_garrison_is_valued_1_to_4(board: Board) -> None:
    """All territories have a garrison with a value ranging from 1 to 4
    (except the transit territories of 1.5)."""
    for t in board.territories.values():
        if t.transit:
            continue
        assert t.garrison is not None and 1 <= t.garrison.value <= 4, t.id


def test_rule_1_3_baturyn_is_the_capital_of_ukraine(board: Board) -> None:
    """Example: Baturyn is the capital of Ukraine."""
    sivershchyna = board.territories["sivershchyna"]
    assert sivershchyna.capital and sivershchyna.garrison.name == "Baturyn"
    assert board.nations["ukraine"].capital == "sivershchyna"


def test_rule_11_5_two_polish_capitals(board: Board) -> None:
    """Saxony begins with garrisons in the two Polish capitals (Warszawa and Kraków)."""
    capitals = {t.garrison.name for t in board.territories.values()
                if t.nation == "poland" and t.capital}
    assert capitals == {"Warszawa", "Kraków"}


def test_rule_1_4_livland_forage_3(board: Board) -> None:
    """Example: Livland in the Swedish Baltics has a forage capacity of 3 FP."""
    assert board.territories["livland"].forage == 3
    assert board.territories["livland"].source("forage") == "1.4 example"


def test_rule_7_2_kurland_forage_3(board: Board) -> None:
    """Example: Pyotr I, Sheremetev, and Woronjetski are in Kurland (forage
    capacity 3) ... Pyotr's baggage train covers the forage requirement for
    Woronjetski."""
    assert board.territories["kurland"].forage == 3
    assert board.blocks["pyotr-i"].trains == 1
    assert board.blocks["sheremetev"].kind is BlockKind.ARMY
    assert board.blocks["sheremetev"].trains >= 1
    assert board.blocks["woronjetski"].kind is BlockKind.REGIMENT


def test_rule_1_5_transit_territories(board: Board) -> None:
    """Mecklenburg and Schlesien do not have a forage value, and do not have
    garrisons to control."""
    for tid in ("mecklenburg", "schlesien"):
        t = board.territories[tid]
        assert t.transit and t.forage is None and t.garrison is None
    assert {t.id for t in board.territories.values() if t.transit} == {"mecklenburg", "schlesien"}


def test_rule_1_6_gdansk_is_a_port_mitau_is_not(board: Board) -> None:
    """Example: Gdańsk in Pomorze is a port. Mitau in Kurland is not a port."""
    pomorze, kurland = board.territories["pomorze"], board.territories["kurland"]
    assert pomorze.garrison.name == "Gdańsk" and pomorze.port and not pomorze.harbor
    assert kurland.garrison.name == "Mitau" and not kurland.port and kurland.sea is None


def test_rule_1_6_kobenhavn_is_a_harbor(board: Board) -> None:
    """Example: København in Denmark is a harbor."""
    sjaelland = board.territories["sjaelland"]
    assert sjaelland.garrison.name == "København" and sjaelland.harbor and sjaelland.port


def test_rule_1_6_ports_touch_exactly_one_real_sea_zone(board: Board) -> None:
    """Ports and harbors are considered adjacent only to the sea zone they
    physically border on."""
    for t in board.territories.values():
        if t.port:
            assert t.sea in board.seas, t.id
        elif t.upgrade is None:
            assert t.sea is None, t.id
    assert "pomorze" in board.ports_on(board.territories["pomorze"].sea)


def test_rule_9_5_narva_is_a_port_on_the_gulf_of_finland(board: Board) -> None:
    """Karl XII and the two regiments may retreat to the fleets at sea in the
    Gulf of Finland, since the port of Narva ..."""
    ingermanland = board.territories["ingermanland"]
    assert ingermanland.garrison.name == "Narva" and ingermanland.port
    assert ingermanland.sea == "gulf-of-finland"


def test_rule_9_2_kattegat_to_gulf_of_finland_in_one_fleet_move(board: Board) -> None:
    """The fleets (and their cargo) move from the Kattegat to the Gulf of
    Finland" in one action; fleets move up to six sea zones (9.1)."""
    seen, todo = {"kattegat": 0}, deque(["kattegat"])
    while todo:
        here = todo.popleft()
        for there in board.seas[here].adjacent:
            if there not in seen:
                seen[there] = seen[here] + 1
                todo.append(there)
    assert seen["gulf-of-finland"] <= board.tables["limits"]["fleet_movement"]


def test_rule_4_1_novgorod_to_smolensk_through_friendly_territory(board: Board) -> None:
    """Example: three Russian blocks in Novgorod. One block moves through friendly
    territory to Smolensk, and the other two blocks move into Ingermanland."""
    assert distance(board, "novgorod", "smolensk") == 2
    assert "ingermanland" in board.neighbours("novgorod")


def test_rule_4_4_karl_and_dalregementet_force_march_sandomierz_to_livland(board: Board) -> None:
    """Example: Karl XII and Dalregementet, both at full strength, are in
    Sandomierz ... Since their movement rating is only 2, they force-march to
    move the extra two territories to reach Livland. ... Dalregementet is
    reduced from 3 strength to 1."""
    karl, dal = board.blocks["karl-xii"], board.blocks["dalregementet"]
    assert karl.movement == dal.movement == 2
    assert distance(board, "sandomierz", "livland") == karl.movement + 2
    assert dal.max_strength == 3


def test_rule_5_3_estland_borders_ingermanland_and_livland(board: Board) -> None:
    """Example: four blocks in Ingermanland and two in Livland. Both groups
    attack Estland."""
    assert {"ingermanland", "livland"} <= set(board.neighbours("estland"))


def test_rule_8_5_velikaya_traces_back_to_livland_rzhev_only_through_velikaya(
    board: Board,
) -> None:
    """Example: the main Swedish army is in Velikaya ... can trace a line of
    communications back to Livland. If the army was in Rzhev, it could not trace
    a line of communications through Russian-held Velikaya."""
    assert "livland" in board.neighbours("velikaya")
    assert "velikaya" in board.neighbours("rzhev")
    others = set(board.neighbours("rzhev")) - {"velikaya"}
    assert all(board.territories[t].nation == "russia" for t in others)


def test_rule_2_1_repnin_reformed_army(board: Board) -> None:
    """Example: Repnin is a reformed Russian army block with one baggage train, a
    combat rating of B2, and a movement rating of 2."""
    repnin = board.blocks["repnin-reformed"]
    assert (repnin.name, repnin.nation, repnin.kind) == ("Repnin", "russia", BlockKind.ARMY)
    assert (repnin.trains, str(repnin.rating), repnin.movement) == (1, "B2", 2)
    assert repnin.star is Star.BLACK


def test_rule_2_1_four_hollow_and_four_black_stars_in_pairs(board: Board) -> None:
    """There are four Russian blocks with a hollow star, and four Russian blocks
    with a black star ... entering the game when their corresponding army is
    reformed."""
    stars = Counter(b.star for b in board.blocks.values() if b.star)
    assert stars == {Star.HOLLOW: 4, Star.BLACK: 4}
    for b in board.blocks.values():
        if b.star:
            partner = board.blocks[board.star_partner(b.id)]
            assert partner.star_pair == b.id and partner.star is not b.star
            assert partner.nation == b.nation == "russia" and partner.kind is BlockKind.ARMY


def test_rule_5_4_combat_sequence_example(board: Board) -> None:
    """Example: Swedish army Karl XII (A3) and Swedish regiment Pommerska (B1)
    attack the Danish army Reventlov (B2) and Danish regiment Prins Christian (B1)."""
    got = {b: str(board.blocks[b].rating)
           for b in ("karl-xii", "pommerska", "reventlov", "prins-christian")}
    assert got == {"karl-xii": "A3", "pommerska": "B1", "reventlov": "B2",
                   "prins-christian": "B1"}
    assert board.blocks["reventlov"].kind is BlockKind.ARMY
    assert board.blocks["prins-christian"].kind is BlockKind.REGIMENT
    assert board.blocks["pommerska"].kind is BlockKind.REGIMENT


def test_rule_5_5_pyotr_i_rolls_four_dice_hitting_on_3(board: Board) -> None:
    """Example: The full-strength Russian block Pyotr I rolls 4 dice. It has a B3
    combat rating, meaning all rolls of 1, 2, & 3 are hits."""
    pyotr = board.blocks["pyotr-i"]
    assert pyotr.max_strength == 4 and pyotr.rating == Rating("B", 3)


def test_rule_5_5_karl_xii_stronger_than_dalregementet(board: Board) -> None:
    """Example: Karl XII and Dalregementet are at full strength (4 and 3, respectively)."""
    assert (board.blocks["karl-xii"].max_strength, board.blocks["dalregementet"].max_strength) == (4, 3)


def test_rule_2_2_block_types(board: Board) -> None:
    """Army blocks generally have a maximum strength of 4 ... Regiment blocks
    always have a maximum strength less than 4. Sweden and Denmark each have two
    fleet blocks. The Russian player has none at start, but may add two."""
    for b in board.blocks.values():
        assert 2 <= b.max_strength <= 4, b.id
        if b.kind is BlockKind.REGIMENT:
            assert b.max_strength < 4, b.id
        if b.trains:
            assert b.kind is BlockKind.ARMY, b.id
    fleets = Counter(b.nation for b in board.blocks.values() if b.kind is BlockKind.FLEET)
    assert fleets == {"sweden": 2, "denmark": 2, "russia": 2, "britain": 1}


def test_rule_2_3_royal_blocks(board: Board) -> None:
    """The royal blocks are: Sweden: Karl XII; Russia: Pyotr I; Saxony: August II;
    Denmark: Frederik IV."""
    royals = {b.nation: b.name for b in board.blocks.values() if b.royal}
    assert royals == {"sweden": "Karl XII", "russia": "Pyotr I", "saxony": "August II",
                      "denmark": "Frederik IV"}


def test_rule_0_1_block_labels_per_colour(board: Board) -> None:
    """The 15 blue Swedish, 1 dark red British, 1 light green Ukrainian, and 1
    light blue Holstein-Gottorp labels ... 6 Ottoman ... 20 green Russian ... 8
    gray Saxon, 3 off-white Polish, 1 light brown Hannover, and 1 dark brown
    Prussian ... 8 light red Danish labels."""
    counts = Counter(b.nation for b in board.blocks.values())
    assert counts == {"sweden": 15, "britain": 1, "ukraine": 1, "holstein-gottorp": 1,
                      "ottoman": 6, "russia": 20, "saxony": 8, "poland": 3, "hannover": 1,
                      "prussia": 1, "denmark": 8}


def test_rule_9_1_the_russian_galley_fleet_moves_three(board: Board) -> None:
    """Fleet blocks may move up to six sea zones (Exception: the Russian galley
    fleet may move up to only three sea zones)."""
    galleys = [b for b in board.blocks.values() if b.galley]
    assert [(g.nation, g.movement) for g in galleys] == [("russia", 3)]
    assert all(b.movement == 6 for b in board.blocks.values()
               if b.kind is BlockKind.FLEET and not b.galley)


def test_rule_11_2_nyen_becomes_sankt_peterburg_harbor_4(board: Board) -> None:
    """Nyen starts the game as a Swedish garrison with a strength of 1 ... Nyen is
    converted into Sankt-Peterburg, a 4-strength harbor."""
    nyen = board.territories["nyen"]
    assert nyen.nation == "sweden" and nyen.garrison.value == 1 and not nyen.port
    assert nyen.upgrade.name == "Sankt-Peterburg" and nyen.upgrade.value == 4
    assert nyen.upgrade.harbor and nyen.sea in board.seas


def test_rule_11_2_russian_deployment_territories_exist(board: Board) -> None:
    """Russian blocks are deployed in Moskva, Yaroslavl, or Tula."""
    for tid in ("moskva", "yaroslavl", "tula"):
        assert board.territories[tid].nation == "russia"


def test_rule_11_1_red_dot_blocks_have_their_own_territories(board: Board) -> None:
    """The Estländska, Savolax, and Pommerska blocks deploy in their own
    territories (Estland, Savolax, and Pommern respectively)."""
    for block, territory in (("estlandska", "estland"), ("savolax", "savolax"),
                             ("pommerska", "pommern")):
        assert board.blocks[block].red_dot
        assert board.territories[territory].nation == "sweden"


def test_rule_1_1_difficult_borders_exist(board: Board) -> None:
    """Thick dashed borders represent Difficult Terrain (4.2)."""
    assert any(b.terrain is Terrain.DIFFICULT for b in board.borders)


def test_rule_4_5_every_nation_listed_in_11_has_territory_or_box(board: Board) -> None:
    """Territories belonging to inactive nations ... may not be entered: every
    nation that deploys on the map has its own territories."""
    for nation in board.nations.values():
        assert nation.territories, nation.id
