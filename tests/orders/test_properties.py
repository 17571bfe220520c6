"""Property tests of the order language (issue 12): echo round trip, no crash on junk."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.orders.conditions import (
    Comparison,
    Conditional,
    Form,
    Not,
    Op,
    Quantity,
    all_of,
    any_of,
)
from gm.orders.envelope import parse_envelope
from gm.orders.grammar import parse_order_lines
from gm.orders.model import Ignored, LineError, ParsedOrder, SourceLine
from gm.orders.text import clean_body

from .paxtest import AREAS, GRAMMAR, POWERS, Buy, Buys, Place, Places, Transfer, Upgrade, context

KINDS = ("interest", "influence", "protectorate", "possession", "control", "any")
area = st.sampled_from(AREAS.names)
power = st.sampled_from(POWERS.names)
orders = st.one_of(
    st.builds(Place, st.sampled_from(KINDS), area),
    st.builds(Buy, st.sampled_from(("army", "fleet")), st.integers(0, 99)),
    st.builds(Upgrade, area, st.sampled_from(KINDS)),
    st.builds(Transfer, st.integers(0, 500), power),
)
atoms = st.one_of(
    st.builds(
        Comparison,
        st.sampled_from((Quantity("round"), Quantity("funds"))),
        st.sampled_from(list(Op)),
        st.integers(0, 99),
    ),
    st.builds(Places, power, st.sampled_from(KINDS), area, st.booleans()),
    st.builds(Buys, power, st.sampled_from(("army", "fleet"))),
)
conditions = st.recursive(
    atoms,
    lambda inner: st.one_of(
        st.builds(Not, inner),
        st.lists(inner, min_size=2, max_size=3).map(all_of),
        st.lists(inner, min_size=2, max_size=3).map(any_of),
    ),
    max_leaves=6,
)
conditionals = st.builds(Conditional, orders, conditions, st.sampled_from(list(Form)))


@settings(max_examples=300)
@given(st.one_of(orders, conditionals))
def test_every_echo_reparses_to_the_same_order(order: object) -> None:
    """The normalized echo of each accepted order parses to the same order."""
    echo = order.echo()  # type: ignore[attr-defined]
    assert GRAMMAR.parse_line(echo, context()) == order
    (result,) = parse_order_lines(GRAMMAR, [SourceLine(1, echo)], context()).lines
    assert isinstance(result, ParsedOrder) and result.echo == echo


@settings(max_examples=300)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=120))
def test_random_input_only_ever_gives_line_results(text: str) -> None:
    """Random printable input never raises anything but a reported line error."""
    lines = clean_body(text)
    result = parse_order_lines(GRAMMAR, lines, context())
    assert len(result.lines) == len(lines)
    assert all(isinstance(r, ParsedOrder | LineError | Ignored) for r in result.lines)
    parse_envelope(lines)


words = st.sampled_from(
    "place buy in to if unless then and or not ( ) >= < 3 army Tunis italy places no "
    "control funds round strength of , : GAME POWER PRESS ENDPRESS FOR x".split()
)


@settings(max_examples=300)
@given(st.lists(words, max_size=14).map(" ".join))
def test_near_miss_orders_only_ever_give_line_results(text: str) -> None:
    result = parse_order_lines(GRAMMAR, [SourceLine(1, text)], context())
    (line,) = result.lines
    if isinstance(line, ParsedOrder):
        assert GRAMMAR.parse_line(line.echo, context()) == line.order
    parse_envelope([SourceLine(1, text), SourceLine(2, text)])
