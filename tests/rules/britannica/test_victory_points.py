"""Seed 003, Victory Points: the turn's record and the Paths across Africa bonus."""

from __future__ import annotations

from britannica_helpers import of_type, play, set_up

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


def test_rule_victory_points_awarded_at_the_end_double_the_income_over_the_divisor() -> None:
    """"Accumulated Victory Points from each turn + Any Bonus Victory points ... + Double your
    recalculated income (ignore maintenance) for the final position on the map (Status
    markers) ÷ Victory Point Divisor." France ends with Algiers (value 5) as a Possession:
    double £25 is £50, over its divisor 7: 7 VP."""
    d = load()
    s = set_up()
    s["markers"] = {"algiers": [{"power": "france", "kind": "possession", "established": True}]}
    s["vp"]["france"] = 20
    [france] = [e for e in of_type(economy.final_record(d, s), "final_victory_points")
                if e["power"] == "france"]
    assert d.areas["algiers"].value == 5 and d.rules["colonial_office"]["france"]["vp_divisor"] == 7
    assert (france["gained"], france["total"]) == (7, 27)


def test_rule_austria_hungary_s_markers_count_for_germany_at_the_end_of_the_game() -> None:
    """"Also at the end of the game, the Austro-Hungarian Status markers do count towards the
    German Victory Point total." Germany holds nothing; Austria-Hungary's Possession of Serbia
    (value 2) gives Germany double £10 over its divisor 7: 2 VP."""
    d = load()
    s = set_up()
    s["markers"] = {"serbia": [{"power": "austria-hungary", "kind": "possession", "established": True}]}
    gained = {e["power"]: e["gained"] for e in of_type(economy.final_record(d, s), "final_victory_points")}
    assert "austria-hungary" not in gained and gained["germany"] == 2 * 2 * 5 // 7 == 2


def test_rule_canals_only_the_first_canal_built_gains_15_victory_points() -> None:
    """"The first player to build a Canal (either Panama or Central America) gains 15 Victory
    Points immediately. If one of the Canals is already built, construction of the second does
    not give the builder any Victory Points." The USA, with an established Influence in
    Central America, builds its canal: 15 VP when it is the first, none after Panama's."""
    for built, vp in (([], 15), (["panama"], 0)):
        s = set_up()
        s["markers"]["central_america"] = [{"power": "usa", "kind": "influence", "established": True}]
        s["canals"] = list(built)
        new, events = play(s, {"usa": "canal Central America"}, tag="canal")
        assert of_type(events, "canal_built") == [{"canal": "central_america", "builders": ["usa"],
                                                   "vp_each": vp}]
        assert new["vp"]["usa"] == s["vp"]["usa"] + vp
        assert new["canals"] == [*built, "central_america"]


def test_rule_the_game_turn_ten_turns_the_final_record_after_1916_only() -> None:
    """"A game of Pax Britannica will go on for a maximum of 10 Game Turns"; Final Record Phase:
    "If the 1916 Game Turn has not been completed, this Phase is omitted." The 1912 turn ends
    into the 1916 Movement phase; the 1916 turn ends the game with the Final Record."""
    d = load()
    assert d.turn_years() == list(range(1880, 1917, 4))
    s = set_up()
    s["year"], s["step"] = 1912, "negotiation"
    s, events = play(s, {}, tag="1912")
    assert (s["year"], s["step"]) == (1916, "movement")
    assert not of_type(events, "final_victory_points") and not of_type(events, "game_over")
    s["step"] = "negotiation"
    s, events = play(s, {}, tag="1916")
    assert s["step"] == "ended" and module.phase(s).id == "1916-final-record"
    assert len(of_type(events, "final_victory_points")) == 7 and of_type(events, "game_over")


def test_rule_canals_players_building_canals_in_the_same_turn_share_the_15_vp_equally() -> None:
    """"Player's building Canals in the same turn share the 15 victory points equally." No
    canal exists; in one Movement phase the USA builds the Central American canal and Britain
    the Panama canal: each gets half the 15 VP (7.5, to the nearest whole number as the engine
    rounds a shared award: 8), whichever canal is looked at first."""
    s = set_up()
    s["markers"]["central_america"] = [{"power": "usa", "kind": "influence", "established": True}]
    s["markers"]["panama"] = [{"power": "britain", "kind": "influence", "established": True}]
    new, events = play(s, {"usa": "canal Central America", "britain": "canal Panama"}, tag="canals")
    built = {e["canal"]: (e["builders"], e["vp_each"]) for e in of_type(events, "canal_built")}
    assert built == {"central_america": (["usa"], 8), "panama": (["britain"], 8)}
    assert new["vp"]["usa"] - s["vp"]["usa"] == new["vp"]["britain"] - s["vp"]["britain"] == 8


def test_rule_game_turn_track_new_merchant_fleets_are_due_in_their_turn() -> None:
    """Game-Turn Track: "Each of these spaces is marked with a four-year period represented by
    the turn, the countries that receive new Merchant Fleets in that turn"; in the Movement /
    Status Change Phase players "take any additional Merchant Fleets due to them this Game
    Turn." When the 1884 turn opens, each power listed on its space has one due and may place
    it."""
    d = load()
    s = set_up()
    s["step"] = "negotiation"
    s, _ = play(s, {}, tag="1884")
    assert (s["year"], s["step"]) == (1884, "movement")
    listed = d.turn(1884)["merchants"]
    assert listed and s["merchants_due"] == {p: listed.count(p) for p in d.great_powers}
    power = next(p for p in listed if d.seat_of(p) == p)
    sea = next(z for z in d.seas if z not in s["merchants"][power])
    new, _ = play(s, {power: f"merchant new in {d.seas[sea].name}"})
    assert sea in new["merchants"][power] and new["merchants_due"][power] == 0
