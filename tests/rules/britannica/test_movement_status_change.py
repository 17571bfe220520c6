"""Seed 003, Movement / Status Change: simultaneous orders and their paradox rule."""

from __future__ import annotations

from britannica_helpers import set_up

from gm.dice import Dice
from gm.games.britannica import module
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
