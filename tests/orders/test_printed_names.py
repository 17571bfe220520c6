"""orders.md §3: a name is read as printed, unquoted, whatever punctuation or "and" it
holds; where its words are no name, "and" joins the conditions as before (gm.orders.printed,
with the shared test grammar paxtest.lark: a condition's "and", an order's ':')."""

from __future__ import annotations

from gm.i18n import translate
from gm.orders.grammar import ParseContext, parse_order_lines
from gm.orders.model import ErrorKind, LineError, ParsedOrder, SourceLine
from gm.orders.names import NameIndex

from .paxtest import BLOCKS, GRAMMAR

AREAS = NameIndex({"Tunis": [], "Alsace": [], "Alsace-Lorraine": ["Alsace and Lorraine"],
                   "S:t Petersburg": []}, "area")
POWERS = NameIndex.of(["france", "Lorraine"], "power")
CONTEXT = ParseContext(names={"power": POWERS, "area": AREAS, "block": BLOCKS}, power="france")


def read(text: str) -> ParsedOrder | LineError:
    [result] = parse_order_lines(GRAMMAR, [SourceLine(1, text)], CONTEXT).lines
    assert isinstance(result, (ParsedOrder, LineError)), text
    return result


def echo(text: str) -> str:
    result = read(text)
    assert isinstance(result, ParsedOrder), (text, translate(getattr(result, "reason", ""), "en"))
    return result.echo


def test_a_name_holding_and_reads_unquoted_as_quoted() -> None:
    assert echo("place interest in Alsace and Lorraine") == "place interest in Alsace-Lorraine"
    assert echo('place interest in "Alsace and Lorraine"') == "place interest in Alsace-Lorraine"
    assert echo("place interest in alsace   AND lorraine") == "place interest in Alsace-Lorraine"


def test_a_name_holding_a_colon_reads_unquoted() -> None:
    assert echo("place interest in S:t Petersburg") == "place interest in S:t Petersburg"
    assert echo("move from S:t Petersburg: Karl XII to Tunis") == \
        "move from S:t Petersburg: Karl XII to Tunis"


def test_the_printed_name_wins_where_the_line_reads_so() -> None:
    """In a condition, "Alsace and Lorraine" is the area France moves into."""
    assert echo("place interest in Tunis if france moves into Alsace and Lorraine") == \
        "place interest in Tunis if france moves into Alsace-Lorraine"


def test_and_joins_the_conditions_where_the_words_are_no_name() -> None:
    """"... moves into Alsace and Lorraine buys fleet": the name would leave "buys fleet"
    unread, so the line reads "france moves into Alsace" and "Lorraine buys fleet"."""
    assert echo("place interest in Tunis if france moves into Alsace and Lorraine buys fleet") \
        == "place interest in Tunis if france moves into Alsace and Lorraine buys fleet"


def test_a_close_miss_is_answered_did_you_mean() -> None:
    for text, written in (("place interest in Alsace and Lorrian", "Alsace and Lorrian"),
                          ("place interest in S:t Petersbrug", "S:t Petersbrug")):
        result = read(text)
        assert isinstance(result, LineError) and result.kind is ErrorKind.UNKNOWN_NAME, text
        assert translate(result.reason, "en").startswith(f"unknown area '{written}': did you mean"), \
            translate(result.reason, "en")


def test_a_prefix_of_such_a_name_reads_as_a_prefix_does() -> None:
    """§3: a unique prefix of 3 letters or more is accepted, also of a name read as printed."""
    assert echo("place interest in Alsace and Lorr") == "place interest in Alsace-Lorraine"


def test_a_refused_line_holding_such_a_name_is_answered_where_its_reading_stopped() -> None:
    """The colon left out: the line is refused at the word where the name's reading
    stopped, not at the "and" inside the name."""
    result = read("move from Alsace and Lorraine Karl XII to Tunis")
    assert isinstance(result, LineError) and result.kind is ErrorKind.INVALID
    reason = translate(result.reason, "en")
    assert "'and'" not in reason and "Alsace_and" not in reason, reason
