"""The example blocks of orders.md §4 (conditional orders) parse as intended."""

from __future__ import annotations

from gm.orders.conditions import All, Comparison, Conditional, Form, Op, Quantity
from gm.orders.grammar import ParseContext, parse_order_lines
from gm.orders.model import SourceLine
from gm.orders.text import clean_body

from .paxtest import GRAMMAR, Move, MovesInto, Place, Places, Retreat, Siege, context

SECTION_4 = """
place protectorate in Tunis if italy places no control in Tunis and italy places no influence in Tunis
retreat Karl XII to Livland if round >= 2 and strength of Karl XII <= 2
move from Estland: Vellinck to Ingermanland unless enemy blocks in Ingermanland > 3
if russia moves into Livland then siege Estland
"""


def test_section_4_examples() -> None:
    result = parse_order_lines(GRAMMAR, clean_body(SECTION_4), context())
    assert not result.errors
    assert [o.order for o in result.orders] == [
        Conditional(
            Place("protectorate", "Tunis"),
            All(
                (
                    Places("italy", "control", "Tunis", negated=True),
                    Places("italy", "influence", "Tunis", negated=True),
                )
            ),
            Form.IF,
        ),
        Conditional(
            Retreat("Karl XII", "Livland"),
            All(
                (
                    Comparison(Quantity("round"), Op.GE, 2),
                    Comparison(Quantity("strength", ("Karl XII",)), Op.LE, 2),
                )
            ),
            Form.IF,
        ),
        Conditional(
            Move("Estland", ("Vellinck",), "Ingermanland"),
            Comparison(Quantity("enemy_blocks", ("Ingermanland",)), Op.GT, 3),
            Form.UNLESS,
        ),
        Conditional(Siege("Estland"), MovesInto("russia", "Livland"), Form.THEN),
    ]
    # the echo is the text as written, for orders already in canonical form
    assert [o.echo for o in result.orders] == [line.text for line in clean_body(SECTION_4)]


def test_continuation_lines_keep_the_condition_with_its_order() -> None:
    """A conditional order is never carried out without its condition."""
    body = "retreat Karl XII to Livland\n  if round >= 2\n  and strength of Karl 12 <= 2\n"
    (parsed,) = parse_order_lines(GRAMMAR, clean_body(body), context()).orders
    assert isinstance(parsed.order, Conditional)
    assert parsed.line.number == 1
    assert parsed.echo == "retreat Karl XII to Livland if round >= 2 and strength of Karl XII <= 2"


def test_french_conditional_order() -> None:
    """§8: `déplacer de X : ... vers Y`, `sauf si`, accents optional."""
    fr = GRAMMAR.parse_line(
        "déplacer de Estland : Vellinck vers Ingermanland sauf si blocs ennemis en Ingermanland > 3",
        context(),
    )
    en = GRAMMAR.parse_line(
        "move from Estland: Vellinck to Ingermanland unless enemy blocks in Ingermanland > 3",
        context(),
    )
    assert fr == en


def test_a_misspelt_name_rejects_only_its_line() -> None:
    lines = [
        SourceLine(1, "siege Estlnad"),
        SourceLine(2, "siege Grodno"),
        SourceLine(3, "Thanks, see you next turn!"),
    ]
    result = parse_order_lines(GRAMMAR, lines, context())
    (error,) = result.errors
    assert error.line.number == 1 and error.suggestions[0] == "Estland"
    assert result.orders[0].order == Siege("Trakai")  # a garrison's name stands for its territory
    assert result.lines[2].reason == "prose"  # type: ignore[union-attr]


def test_unknown_command_suggests_the_nearest_command_of_the_phase_not_the_list() -> None:
    """Issue 17 class 5: ``mvoe`` -> ``move``, never the whole list of commands."""
    (error,) = parse_order_lines(GRAMMAR, [SourceLine(1, "mvoe Karl XII to Livland")],
                                 context()).errors
    assert error.reason == "unknown command 'mvoe': did you mean move?"
    assert error.suggestions == ("move",)
    (error,) = parse_order_lines(GRAMMAR, [SourceLine(1, "recon Livland")], context()).errors
    assert "unknown command 'recon'" in error.reason and "HELP" in error.reason
    assert "retreat" not in error.reason and error.suggestions == ()


def test_only_the_commands_of_this_phase_are_suggested() -> None:
    phase = ParseContext(names=context().names, power="britain", commands=("retreat", "retraite"))
    (error,) = parse_order_lines(GRAMMAR, [SourceLine(1, "mvoe Karl XII to Livland")],
                                 phase).errors
    assert error.suggestions == () and "move" not in error.reason
    (error,) = parse_order_lines(GRAMMAR, [SourceLine(1, "retreet Karl XII to Livland")],
                                 phase).errors
    assert error.suggestions == ("retreat",)
