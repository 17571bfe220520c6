"""Seed 003, Movement / Status Change: simultaneous orders and their paradox rule."""

from __future__ import annotations

from britannica_helpers import of_type, play, set_up

from gm.dice import Dice
from gm.games.britannica import module
from gm.games.britannica.data import load
from gm.orders.model import SourceLine


def orders_of(state: dict, seat: str, text: str) -> list:
    """Parse ``text`` for ``seat`` through the module; fail on any line error."""
    lines = [SourceLine(i, t) for i, t in enumerate(text.strip().splitlines(), 1)]
    result = module.parse_orders(state, seat, lines)
    assert not result.errors, result.errors
    return [p.order for p in result.orders]


def _tunis_state() -> dict:
    """Tunis in unrest with nobody's marker, so both may place a Protectorate there."""
    s = set_up()
    s["markers"].pop("tunis")
    s["unrest"] = ["tunis"]
    return s


def _placed(state: dict, power: str) -> bool:
    return any(m["power"] == power and m.get("new") is not None or m["power"] == power
               for m in state["markers"].get("tunis", []))


def _run(state: dict, brit: str, ital: str) -> tuple[dict, list]:
    orders = {"britain": orders_of(state, "britain", brit), "italy": orders_of(state, "italy", ital)}
    # Dice: enough sixes for every roll (colonial combat wins at 6 on any column here).
    out = module.adjudicate(state, orders, Dice.scripted([6] * 40, then_seed=True))
    return out.state, out.events


def _placements(events: list) -> set[str]:
    return {e.data["power"] for e in events if e.type == "place_done" and e.data["area"] == "tunis"}


def test_rule_movement_status_change_tunis_both_conditional_neither_places() -> None:
    """"British orders: Place protectorate in Tunis only if Italy has not placed a Control
    marker or Influence marker there. Italian orders: Place a Protectorate in Tunis if no other
    power places a Control marker or Influence there. If both powers ordered the placement of
    markers subject to another power not placing markers, as above, then both powers will NOT
    place markers; the order being ignored."""
    s = _tunis_state()
    _, events = _run(
        s,
        "place protectorate in Tunis if italy places no control in Tunis and italy places no influence in Tunis",
        "place protectorate in Tunis if britain places no control in Tunis and britain places no influence in Tunis",
    )
    assert _placements(events) == set()
    refused = [e for e in events if e.type == "order_not_carried_out"]
    assert {e.data["power"] for e in refused} == {"britain", "italy"}
    assert {e.data["reason"] for e in refused} == {"CONDITION"}


def test_rule_movement_status_change_tunis_one_sided_condition_unconditional_wins() -> None:
    """One-sided variant: Italy places unconditionally, Britain only if Italy does not -> only Italy."""
    s = _tunis_state()
    _, events = _run(
        s,
        "place protectorate in Tunis if italy places no control in Tunis",
        "place protectorate in Tunis",
    )
    assert _placements(events) == {"italy"}


def test_rule_movement_status_change_tunis_nobody_else_orders_so_condition_holds() -> None:
    """One-sided variant: Britain's condition on Italy holds when Italy orders nothing there."""
    s = _tunis_state()
    _, events = _run(s, "place protectorate in Tunis if italy places no control in Tunis",
                     "buy army 1")
    assert _placements(events) == {"britain"}


def test_rule_movement_status_change_both_conditional_on_presence_both_place() -> None:
    """orders.md §4: two orders each conditional on the other's presence both succeed."""
    s = _tunis_state()
    _, events = _run(s, "place influence in Tunis if italy places influence in Tunis",
                     "place influence in Tunis if britain places influence in Tunis")
    assert _placements(events) == {"britain", "italy"}


def test_rule_movement_status_change_overspending_skips_orders_below() -> None:
    """"Players may 'overspend' with their orders ... once funds have been exhausted any
    orders lower down the list will be ignored"; the report says which and why."""
    s = set_up()
    s["treasury"]["italy"] = 13
    orders = {"italy": orders_of(s, "italy", "buy army 10\nbuy army 3\nbuy army 1\nbuy army 1")}
    out = module.adjudicate(s, orders, Dice.scripted([], then_seed=True))
    done = [e for e in out.events if e.type == "buy_done" and e.data["power"] == "italy"]
    skipped = [e for e in out.events if e.type == "order_not_carried_out" and e.data["power"] == "italy"]
    assert done == []
    assert [e.data["reason"] for e in skipped] == ["FUNDS", "FUNDS_EXHAUSTED", "FUNDS_EXHAUSTED", "FUNDS_EXHAUSTED"]
    assert all(e.visible_to == frozenset({"italy"}) for e in skipped)
    assert out.state["treasury"]["italy"] == 13


def test_rule_upgrading_status_pays_only_the_difference() -> None:
    """"If a player has an Influence marker in an Area (purchase cost of £10) and wishes to
    upgrade to Protectorate (purchase cost £20), he pays only £10"."""
    s = set_up()
    s["unrest"] = ["tunis"]
    before = s["treasury"]["italy"]
    out = module.adjudicate(s, {"italy": orders_of(s, "italy", "upgrade Tunis to protectorate")},
                            Dice.scripted([6] * 10, then_seed=True))
    assert any(e.type == "upgrade_done" for e in out.events)
    # £10 for the upgrade; the GM's default garrison then builds an Army(1) for £3 if none at home
    spent = before - out.state["treasury"]["italy"]
    assert spent in (10, 13)


def test_rule_movement_status_change_conditions_are_the_shared_evaluator_and_round_trip() -> None:
    """orders.md §4: Britannica conditions are gm.orders.conditions trees (one evaluator)."""
    from gm.orders import conditions as shared

    s = _tunis_state()
    [order] = orders_of(s, "britain",
                        "place protectorate in Tunis if funds >= 10 and not (italy places control in Tunis "
                        "or france moves into Tunis)")
    assert isinstance(order, shared.Conditional)
    assert isinstance(order.cond, shared.All)
    assert shared.Comparison(shared.Quantity("funds"), shared.Op.GE, 10) in order.cond.items
    assert module.order_from_json(module.order_to_json(order)) == order
    [again] = orders_of(s, "britain", __import__("gm.games.britannica.parser", fromlist=["echo"]).echo(order))
    assert again == order
    # funds 40 >= 10 and Italy ordered nothing in Tunis: the condition holds, Britain places.
    new, events = _run(s, "place protectorate in Tunis if funds >= 10 and not italy places control in Tunis",
                       "buy army 1")
    assert _placements(events) == {"britain"}
    new, events = _run(s, "place protectorate in Tunis if funds >= 100", "buy army 1")
    assert _placements(events) == set()


def test_rule_upgrading_status_protectorate_to_possession_needs_no_colonial_combat() -> None:
    """"Additionally, if you already have a Protectorate marker in an area and you are
    upgrading to a Possession, State or Dominion, you need not defeat the Area's Combat
    Strength to establish it." Italy's established Protectorate in Kenya becomes a Possession
    with no Colonial Combat, whatever the dice (all 1s here would lose it)."""
    s = set_up()
    s["markers"]["kenya"] = [{"power": "italy", "kind": "protectorate", "established": True}]
    s["units"].append({"id": 900, "power": "italy", "type": "army", "strength": 1, "at": "kenya"})
    new, events = play(s, {"italy": "upgrade Kenya to possession"}, lead=[1] * 10)
    assert of_type(events, "upgrade_done") == [{"power": "italy", "area": "kenya", "kind": "possession"}]
    assert not [c for c in of_type(events, "colonial_combat") if c["area"] == "kenya"]
    assert new["markers"]["kenya"] == [{"power": "italy", "kind": "possession", "established": True}]
    assert [u["strength"] for u in new["units"] if u["power"] == "italy" and u["at"] == "kenya"] == [1]


def test_rule_merchant_fleets_no_more_than_one_of_a_nationality_in_a_sea_zone() -> None:
    """"You can move your Merchant Fleets ... to any other Sea Zone any distance away, as long
    as there is no more than one Merchant Fleet of a given nationality in a Single Sea Zone
    oval. New Merchant Fleets ... can be placed in any Sea Zone oval that does not already
    contain a Merchant Fleet of that nationality." Britain has merchant fleets in the North
    Atlantic and the Mediterranean."""
    s = set_up()
    s["merchants_due"]["britain"] = 1
    text = ("merchant from North Atlantic to Mediterranean\nmerchant new in Mediterranean\n"
            "merchant new in North Pacific")
    new, events = play(s, {"britain": text}, unjudged=("britain",))
    refused = [e for e in of_type(events, "order_not_carried_out") if e["power"] == "britain"]
    assert [(e["number"], e["reason"]) for e in refused] == [(1, "MERCHANT_TAKEN"), (2, "MERCHANT_TAKEN")]
    assert sorted(new["merchants"]["britain"]) == sorted([*s["merchants"]["britain"], "north_pacific"])


def test_rule_playing_pieces_the_counter_mix_is_an_absolute_limit() -> None:
    """"The number of playing pieces provided is an absolute limit. Should you run out of a
    particular type of piece (because all of that type are in use), you cannot use substitute
    markers". Italy's counter mix has 6 Protectorates: with 5 in use it may place one in Tunis
    (in unrest), with all 6 in use it may not."""
    d = load()
    limit = d.rules["counter_mix"]["italy"]["markers"]["protectorate"]
    elsewhere = ["kenya", "somalia", "berbera", "sudan", "zanzibar", "abyssinia", "rhodesia"]
    for in_use, placed in ((limit - 1, True), (limit, False)):
        s = set_up()
        s["unrest"] = ["tunis"]
        s["markers"].pop("tunis")
        for area in elsewhere[:in_use]:
            s["markers"][area] = [{"power": "italy", "kind": "protectorate", "established": True}]
        _, events = play(s, {"italy": "place protectorate in Tunis"}, unjudged=("italy",))
        assert bool(of_type(events, "place_done")) is placed, in_use
        if not placed:
            assert [e["reason"] for e in of_type(events, "order_not_carried_out")] == ["NO_COUNTER"]


def test_rule_naval_units_move_only_to_an_established_control_marker() -> None:
    """"You can move your Naval Units from the Area or Home Area they currently occupy to any
    Coastal Area any distance away that contains one of your established Control markers, or
    in any Coastal position in the Home Area." Britain's Protectorate placed in Burma this
    phase is not established: its fleet may not go there, but may go to Aden."""
    s = set_up()
    s["unrest"] = ["burma"]
    text = ("place protectorate in Burma\nmove army 3 from home to Burma\n"
            "move fleet 3 from home to Burma\nmove fleet 10 from home to Aden")
    new, events = play(s, {"britain": text}, lead=[6] * 5, unjudged=("britain",))
    [refused] = [e for e in of_type(events, "order_not_carried_out") if e["power"] == "britain"]
    assert (refused["number"], refused["reason"]) == (3, "NO_FLEET_END")
    fleets = {u["strength"]: u["at"] for u in new["units"] if u["power"] == "britain" and u["type"] == "fleet"}
    assert fleets == {3: "home", 10: "aden"}


def test_rule_army_units_may_not_enter_unrest_under_another_power_s_control() -> None:
    """"Your Army Units can move into (but must immediately end their movement in): Any Area,
    in Unrest, that contains one of your Control markers, either established or unestablished.
    Or, any Area in Unrest with no Control markers"; Unrest in a Controlled Area: "other
    colonial Powers cannot intervene in the Area". Algiers, France's Possession, is in unrest:
    Italy's army may not enter it."""
    s = set_up()
    s["unrest"] = ["algiers"]
    new, events = play(s, {"italy": "move army 3 from home to Algiers"}, lead=[6] * 5,
                       unjudged=("italy",))
    assert [e["reason"] for e in of_type(events, "order_not_carried_out")] == ["NO_END"]
    assert not [u for u in new["units"] if u["power"] == "italy" and u["at"] == "algiers"]


def test_rule_movement_status_change_an_upgrade_to_control_is_a_placement_the_condition_reads() -> None:
    """"British orders: Place protectorate in Tunis only if Italy has not placed a Control
    marker or Influence marker there." Italy upgrading its Influence in Tunis to a Protectorate
    places a Control marker there: Britain's condition is not met."""
    s = _tunis_state()
    s["markers"]["tunis"] = [{"power": "italy", "kind": "influence", "established": True}]
    _, events = _run(s, "place protectorate in Tunis if italy places no control in Tunis",
                     "upgrade Tunis to protectorate")
    assert _placements(events) == set()
    assert [(e.data["power"], e.data["reason"]) for e in events
            if e.type == "order_not_carried_out"] == [("britain", "CONDITION")]


def test_rule_status_change_protectorate_only_in_unorganized_chinese_vassal_or_unrest() -> None:
    """"You can place a Protectorate or Possession marker… In any Unorganized or Chinese Vassal
    Area (in Unrest or not) that contains no established Control marker. In any Area in Unrest
    that contains no established Control marker." Tunis is Independent: Italy may place a
    Protectorate there only while it is in unrest."""
    d = load()
    assert d.areas["tunis"].type == "independent"
    s = set_up()
    s["markers"].pop("tunis")
    _, events = play(s, {"italy": "place protectorate in Tunis"}, unjudged=("italy",))
    assert [e["reason"] for e in of_type(events, "order_not_carried_out")] == ["NOT_UNORGANIZED"]
    s["unrest"] = ["tunis"]
    _, events = play(s, {"italy": "place protectorate in Tunis"}, lead=[6] * 5)
    assert of_type(events, "place_done") == [{"power": "italy", "area": "tunis", "kind": "protectorate"}]


def test_rule_downgrading_status_control_markers_cannot_be_downgraded_voluntarily() -> None:
    """"you can downgrade Interest markers (by removing them) and Influence markers (by
    removing them or replacing them with Interest markers). You cannot voluntarily downgrade
    Control markers". Britain's Influence in Kashmir may become an Interest; its Possession of
    Aden stays."""
    s = set_up()
    new, events = play(s, {"britain": "downgrade Aden to interest\ndowngrade Kashmir to interest"},
                       unjudged=("britain",))
    assert [(e["number"], e["reason"]) for e in of_type(events, "order_not_carried_out")] == [
        (1, "NO_DOWNGRADE")]
    assert new["markers"]["aden"] == [{"power": "britain", "kind": "possession", "established": True}]
    assert [m["kind"] for m in new["markers"]["kashmir"]] == ["interest"]


def test_rule_status_change_and_casus_belli_control_over_an_influence_gives_its_holder_one() -> None:
    """"To determine whether or not the placing of a Status marker provides a Casus Belli for
    another player who also has a Status marker in the Area, refer to the Status Marker
    Placement Effects Summary"; "a Great or Minor Power that has an Influence marker in an Area
    has a Casus Belli against a Minor Power that attempts to place a Protectorate marker in
    the Area" (Minor Power / Great Power Status Conflicts). Italy places a Protectorate in
    Tunis, in unrest, where France has an established Influence: France holds a Casus Belli
    against Italy, not the reverse."""
    s = set_up()
    s["unrest"] = ["tunis"]
    s["markers"]["tunis"] = [{"power": "france", "kind": "influence", "established": True}]
    new, events = play(s, {"italy": "place protectorate in Tunis\nmove army 3 from home to Tunis"},
                       lead=[6] * 5)
    assert [(cb["holder"], cb["against"], cb["area"], cb["cause"]) for cb in new["casus_belli"]] == [
        ("france", "italy", "tunis", "control_over_influence")]
