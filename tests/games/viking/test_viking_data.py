"""Pax Viking data: the shipped files pass the schema, and the schema catches mistakes."""

from __future__ import annotations

import copy

from gm.games.viking.data import PRIMITIVES, load, raw_files
from gm.games.viking.datacheck import check, check_all


def test_shipped_data_passes_the_schema() -> None:
    assert check_all() == []


def test_board_holds_the_rule_books_components() -> None:
    """Components: 7 trade centers (4 key), 7 ally longships, 9 jarlboards, 20 cards."""
    data = load()
    assert sum(p.kind == "trade_center" for p in data.posts.values()) == 7
    assert sorted(p.name for p in data.posts.values() if p.key) == [
        "Chang'an", "Damascus", "India", "Miklagard"]
    assert {f: s["count"] for f, s in data.fleets.items()} == {
        "dublin": 3, "faroe": 2, "iceland": 2}
    assert len(data.jarls) == 9 and len(data.cards) == 20
    assert {r.type for r in data.regions.values()} == {"sea", "river", "harbor"}


def test_starter_set_sizes_and_primitives() -> None:
    """Set-up E: 2p tiles for 2 players, 2p+3p for 3 ... 12 tiles per player."""
    tiles = load().tileset("starter")
    for n in range(2, 7):
        assert sum(1 for t in tiles if t.starter <= n) == 12 * n
    used = {e["do"] for t in tiles for e in t.effects}
    assert used == set(PRIMITIVES)
    assert any(t.trigger == "althing" for t in tiles)
    assert any(t.modifiers for t in tiles)


def test_schema_names_each_mistake() -> None:
    files = copy.deepcopy(raw_files())
    files["board.toml"]["post"][0]["region"] = "atlantis"
    files["board.toml"]["border"][0]["color"] = "white"
    files["board.toml"]["border"].append({"between": ["skagerrak", "baltic_sea"],
                                          "color": "black", "source": "test"})
    del files["jarls.toml"]["jarl"][0]["source"]
    tile = files["tiles/starter.toml"]["tile"][0]
    tile["effects"] = [{"do": "teleport"}]
    tile2 = files["tiles/starter.toml"]["tile"][1]
    tile2["name"] = "Road to Kiev"
    problems = "\n".join(check(files))
    assert "jarls.toml: jarl #1 (ingvar): no source" in problems
    problems = "\n".join(check({**files, "jarls.toml": raw_files()["jarls.toml"]}))
    assert "unknown region 'atlantis'" in problems
    assert "both white and black" in problems
    assert "unknown effect 'teleport'" in problems
    assert "holds the order keyword(s) ['to']" in problems


def test_a_gm_adds_printed_tiles_as_data() -> None:
    """A tile set is a data file: a new file of tiles is checked and loaded, no code."""
    files = copy.deepcopy(raw_files())
    files["tiles/printed.toml"] = {"tile": [{
        "number": 1, "name": "Rurik's Charter", "type": "venture", "location": "holmgard",
        "follower": "rus", "trigger": "activate", "effects": [{"do": "gain_silfr", "amount": 3}],
        "source": "printed tile 1"}]}
    assert check(files) == []
    from gm.games.viking.data import build

    assert [t.name for t in build(files).tileset("printed")] == ["Rurik's Charter"]


def test_exonyms_are_data_and_each_names_one_place() -> None:
    """Issue 17, class 5: "the common English and French exonyms of every area and territory
    as data aliases"; the HELP example's Novgorod is Holmgard."""
    from gm.games.viking import module, parsing
    from gm.games.viking.datacheck import _aliases, raw_files

    assert _aliases(raw_files()) == []
    data = module.data
    ctx = parsing.context_for(data, module.setup("3p", {}), None)
    place = ctx.names["place"]
    assert place.lookup("Novgorod") == "Holmgard"
    assert place.lookup("Constantinople") == "Miklagard"
    assert place.lookup("Mer du Nord") == "German Ocean"
    bad = {"board.toml": {"region": [{"id": "a", "name": "Alpha"}, {"id": "b", "name": "Beta"}]},
           "aliases.toml": {"place": {"a": ["Beta"], "c": ["Gamma"]}}}
    assert _aliases(bad) == ["aliases.toml: 'Beta' of 'a' already names 'b'",
                             "aliases.toml: 'c' is no region or post"]


def test_every_place_has_a_french_name_and_the_data_check_names_one_missing() -> None:
    """docs/viking.md, Data: every wind, region, post, home and ally fleet has its French
    name (board.toml ``name_fr``), which a French seat reads; the data check names an
    entry without one, and a French name that is another place's name."""
    from gm.i18n import translate

    data = load()

    def fr(english: str) -> str:
        return translate(data.said(english), "fr")

    assert check_all() == []
    named = [*data.regions.values(), *data.posts.values(), *data.homes.values()]
    assert all(x.name_fr for x in named) and all(f["name_fr"] for f in data.fleets.values())
    assert (fr("Norway"), fr("Samarkand"), fr("Dublin")) == (
        "Norvège", "Samarcande", "Dublin")
    files = copy.deepcopy(raw_files())
    board = files["board.toml"]
    del board["post"][1]["name_fr"]
    board["home"][0]["name_fr"] = ""
    del board["ally_fleet"][0]["name_fr"]
    board["post"][4]["name_fr"] = "Finlande"  # Aura named like the region Finland
    problems = "\n".join(check(files))
    assert "board.toml: post #2 (sigtuna): no French name 'name_fr'" in problems, problems
    assert "board.toml: home #1 (uppsala): no French name 'name_fr'" in problems
    assert "board.toml: ally_fleet #1 (dublin): no French name 'name_fr'" in problems
    del board["post"][1], board["home"][0], board["ally_fleet"][0]
    problems = "\n".join(check(files))
    assert "post aura: name 'Finlande' already used by region finland" in problems, problems


def test_every_sea_has_its_french_article_and_the_data_check_names_one_missing() -> None:
    """docs/viking.md: a French seat reads a sea with its article, « dans le Golfe de
    Finlande », « dans l'Océan Germanique » (board.toml ``article_fr``); the data check names
    a sea without one, and an article on a region that is no sea."""
    from gm.i18n import translate

    data = load()
    assert all(r.article_fr in ("le", "la") for r in data.regions.values() if r.type == "sea")
    assert translate(data.at_said("german_ocean"), "fr") == "dans l'Océan Germanique"
    assert translate(data.at_said("baltic_sea"), "fr") == "dans la Mer Baltique"
    assert translate(data.at_said("svealand"), "fr") == "en Svealand"
    files = copy.deepcopy(raw_files())
    regions = files["board.toml"]["region"]
    sea = next(r for r in regions if r["type"] == "sea")
    land = next(r for r in regions if r["type"] != "sea")
    del sea["article_fr"]
    land["article_fr"] = "la"
    problems = "\n".join(check(files))
    assert f"board.toml: sea {sea['id']!r} needs article_fr 'le' or 'la'" in problems, problems
    assert f"board.toml: {land['id']!r} is no sea: article_fr is for seas" in problems
