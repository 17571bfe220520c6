"""orders.md §4: conditional orders, parsed with the test grammar (paxtest.lark)."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from gm.orders.conditions import (
    All,
    Carried,
    Comparison,
    Conditional,
    Done,
    Form,
    Not,
    Op,
    Quantity,
    RanOut,
    Resource,
    Skipped,
    SkipReason,
    SubmittedOrders,
    evaluate,
    execute_in_order,
    unwrap,
)
from gm.orders.grammar import parse_order_lines
from gm.orders.model import SourceLine

from .paxtest import GRAMMAR, Buy, Place, Places, context

BRITAIN_TUNIS = (
    "place protectorate in Tunis if italy places no control in Tunis "
    "and italy places no influence in Tunis"
)
ITALY_TUNIS = (
    "place protectorate in Tunis if britain places no control in Tunis "
    "and britain places no influence in Tunis"
)


def parse(text: str, power: str = "britain") -> Any:
    return GRAMMAR.parse_line(text, context(power))


def places_in_tunis(submitted: dict[str, list[Any]]) -> set[str]:
    """Who places a marker in Tunis: each conditional judged on all submitted orders."""
    facts = SubmittedOrders(submitted)
    return {
        power
        for power, orders in submitted.items()
        for o in orders
        if isinstance(unwrap(o), Place)
        and unwrap(o).area == "Tunis"
        and (not isinstance(o, Conditional) or o.applies(facts))
    }


def test_pax_britannica_tunis_both_conditional_neither_places() -> None:
    """Email rules, Movement/Status Change: "If both powers ordered the placement of
    markers subject to another power not placing markers, as above, then both powers
    will NOT place markers; the order being ignored." """
    submitted = {"britain": [parse(BRITAIN_TUNIS)], "italy": [parse(ITALY_TUNIS, "italy")]}
    assert places_in_tunis(submitted) == set()


def test_tunis_one_sided_the_unconditional_order_stands() -> None:
    """Italy places unconditionally: Britain's condition fails, Italy places."""
    submitted = {
        "britain": [parse(BRITAIN_TUNIS)],
        "italy": [parse("place protectorate in Tunis", "italy")],
    }
    assert places_in_tunis(submitted) == {"italy"}


def test_tunis_one_sided_the_other_orders_nothing_there() -> None:
    """Italy orders elsewhere: Britain's condition holds."""
    submitted = {
        "britain": [parse(BRITAIN_TUNIS)],
        "italy": [parse("place protectorate in Egypt", "italy")],
    }
    assert places_in_tunis(submitted) == {"britain"}


def test_tunis_interest_is_not_control() -> None:
    """An interest marker is neither control nor influence, so Britain still places."""
    submitted = {
        "britain": [parse(BRITAIN_TUNIS)],
        "italy": [parse("place interest in Tunis", "italy")],
    }
    assert places_in_tunis(submitted) == {"britain", "italy"}


def test_mutual_presence_conditions_both_succeed() -> None:
    """§4: two orders each conditional on the other's presence both succeed."""
    submitted = {
        "britain": [parse("place influence in Tunis if italy places influence in Tunis")],
        "italy": [parse("place influence in Tunis if britain places influence in Tunis", "italy")],
    }
    assert places_in_tunis(submitted) == {"britain", "italy"}


def test_three_forms_parse_to_the_same_condition() -> None:
    """Forms: `ORDER if COND`, `ORDER unless COND`, `if COND then ORDER`."""
    a = parse("buy army 3 if round >= 2")
    b = parse("if round >= 2 then buy army 3")
    c = parse("buy army 3 unless round < 2")
    assert a == Conditional(Buy("army", 3), Comparison(Quantity("round"), Op.GE, 2), Form.IF)
    assert b.cond == a.cond and b.order == a.order and b.form is Form.THEN
    assert c.form is Form.UNLESS and c.cond == Comparison(Quantity("round"), Op.LT, 2)


def test_and_or_not_and_parentheses() -> None:
    order = parse("buy army 3 if not (funds < 10 or italy buys fleet) and round >= 2")
    assert isinstance(order.cond, All)
    assert isinstance(order.cond.items[0], Not)
    assert order.echo() == "buy army 3 if not (funds < 10 or italy buys fleet) and round >= 2"


def test_french_conditions() -> None:
    """§8: `si ... alors`, `sauf si`, `et`, `ou`, `non`, accents optional."""
    fr = parse("si tour >= 2 et non italy achète flotte alors acheter armée 3")
    en = parse("if round >= 2 and not italy buys fleet then buy army 3")
    assert fr == en
    assert parse("placer protectorat en Tunis sauf si italy place contrôle en Tunis") == parse(
        "place protectorate in Tunis unless italy places control in Tunis"
    )


class Board:
    def __init__(self, funds: int, round_: int = 1) -> None:
        self.funds, self.round = funds, round_

    def quantity(self, q: Quantity) -> int:
        return {"funds": self.funds, "round": self.round}[q.name]

    def holds(self, p: Any) -> bool:
        raise AssertionError("no board predicates here")


COST = {"protectorate": 20, "influence": 10, "interest": 5}


def test_funds_are_the_money_left_after_the_orders_above() -> None:
    """§4: `funds` is the power's money when the order is reached, after the spending of
    the orders above it; when money runs out the remaining orders are skipped."""
    board = Board(funds=35)
    orders = [
        parse("place protectorate in Tunis"),
        parse("place influence in Egypt if funds >= 20"),  # 15 left: skipped
        parse("place influence in Morocco"),  # 15 -> 5
        parse("place influence in Serbia"),  # needs 10, has 5: ran out
        parse("place interest in Kongo"),  # below a run-out order: skipped
    ]

    def carry_out(order: Place) -> Done | RanOut:
        if COST[order.kind] > board.funds:
            return RanOut(Resource.MONEY)
        board.funds -= COST[order.kind]
        return Done()

    steps = execute_in_order(orders, board, carry_out)
    assert [type(s) for s in steps] == [Carried, Skipped, Carried, Skipped, Skipped]
    assert [s.reason for s in steps if isinstance(s, Skipped)] == [
        SkipReason.CONDITION,
        SkipReason.RAN_OUT,
        SkipReason.AFTER_RAN_OUT,
    ]
    assert steps[3] == Skipped(orders[3], SkipReason.RAN_OUT, Resource.MONEY)
    assert board.funds == 5


@given(st.permutations(["britain", "italy", "france"]), st.booleans(), st.booleans())
def test_mutual_conditions_do_not_depend_on_evaluation_order(
    order: list[str], italy_conditional: bool, france_in: bool
) -> None:
    """§4: the result never depends on the order in which the adjudicator looks at powers."""
    submitted = {
        "britain": [parse(BRITAIN_TUNIS)],
        "italy": [parse(ITALY_TUNIS if italy_conditional else "place protectorate in Tunis")],
        "france": [
            parse(
                "place influence in Tunis unless britain places control in Tunis"
                if france_in
                else "place interest in Egypt"
            )
        ],
    }
    facts = SubmittedOrders(submitted)
    expected = places_in_tunis(submitted)
    for perm in itertools.permutations(order):
        got = set()
        for power in perm:
            for o in submitted[power]:
                if not isinstance(o, Conditional) or o.applies(facts):
                    if isinstance(unwrap(o), Place) and unwrap(o).area == "Tunis":
                        got.add(power)
        assert got == expected


def test_evaluate_comparisons() -> None:
    board = Board(funds=12, round_=3)
    assert evaluate(Comparison(Quantity("funds"), Op.GE, 12), board)
    assert not evaluate(Comparison(Quantity("round"), Op.NE, 3), board)
    assert evaluate(Not(Places("italy", "control", "Tunis")), SubmittedOrders({}))


def test_lines_are_parsed_one_by_one() -> None:
    lines = [SourceLine(3, BRITAIN_TUNIS), SourceLine(4, "buy army"), SourceLine(5, "buy fleet 10")]
    result = parse_order_lines(GRAMMAR, lines, context())
    assert [o.line.number for o in result.orders] == [3, 5]
    assert result.errors[0].line.number == 4
    assert "buy army 3" in result.errors[0].reason
