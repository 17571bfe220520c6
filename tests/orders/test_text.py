"""orders.md §1: what of a mail body is read as orders."""

from __future__ import annotations

import pytest

from gm.orders.model import SourceLine
from gm.orders.text import clean_body


def texts(body: str) -> list[str]:
    return [line.text for line in clean_body(body)]


def test_section_1_example_keeps_orders_and_drops_comments_and_end() -> None:
    body = """Hi Boris, my orders below.

GAME baltica42
POWER sweden hunter2          # sign-on: power and password (alias SIGNON)
PHASE 1701-summer-actions-sweden    # optional guard; see below

move from Skåne: Karl XII, Dalregementet to Småland
recon Livland
END                           # optional; nothing after it is read
recon Estland
"""
    assert clean_body(body) == [
        SourceLine(1, "Hi Boris, my orders below."),
        SourceLine(3, "GAME baltica42"),
        SourceLine(4, "POWER sweden hunter2"),
        SourceLine(5, "PHASE 1701-summer-actions-sweden"),
        SourceLine(7, "move from Skåne: Karl XII, Dalregementet to Småland"),
        SourceLine(8, "recon Livland"),
    ]


def test_quoted_lines_are_dropped() -> None:
    assert texts("recon Livland\n> recon Estland\n>> siege Riga\n") == ["recon Livland"]


def test_attributions_in_four_languages_drop_everything_after() -> None:
    for attribution in (
        "On Mon, 3 Nov 2026 at 10:00, GM <gm@example.org> wrote:",
        "Le lun. 3 nov. 2026 à 10:00, GM <gm@example.org> a écrit :",
        "Am 03.11.2026 um 10:00 schrieb GM <gm@example.org>:",
        "Il giorno lun 3 nov 2026, GM <gm@example.org> ha scritto:",
    ):
        assert texts(f"recon Livland\n{attribution}\nrecon Estland\n") == ["recon Livland"]


def test_a_quote_answered_below_its_attribution_keeps_the_answer() -> None:
    """Bottom-posting: the attribution, the quoted report, then the orders. Everything
    after the attribution was dropped as a top-posted quote: "No orders were found"."""
    body = ("On Mon, 3 Nov 2026 at 10:00, GM <gm@example.org> wrote:\n> Phase now: x\n>\n"
            "> Your blocks:\n\nrecon Livland\n-- \nKarl\n")
    assert texts(body) == ["recon Livland"]
    wrapped = ("On Mon, 3 Nov 2026 at 10:00, Game Master <\ngm@example.org> wrote:\n> x\n"
               "recon Livland\n")
    assert texts(wrapped) == ["recon Livland"]
    # top-posting: the quote runs to the end, or only a signature follows it
    assert texts("recon Livland\nOn Mon, GM wrote:\n> recon Estland\n\n-- \nGM\n") == [
        "recon Livland"]


def test_attribution_wrapped_over_two_lines() -> None:
    body = "recon Livland\nOn Mon, 3 Nov 2026 at 10:00, Game Master <\ngm@example.org> wrote:\nx\n"
    assert texts(body) == ["recon Livland"]


def test_outlook_blocks_drop_everything_after() -> None:
    body = "recon Livland\n-----Original Message-----\nFrom: gm\nrecon Estland\n"
    assert texts(body) == ["recon Livland"]
    body = "recon Livland\nFrom: GM <gm@example.org>\nSent: Monday\nTo: me\nrecon Estland\n"
    assert texts(body) == ["recon Livland"]
    body = "recon Livland\n________________________________\nFrom: GM\nSent: Monday\nrecon x\n"
    assert texts(body) == ["recon Livland"]


def test_a_from_line_alone_is_not_an_outlook_block() -> None:
    assert texts("move from Skåne: Karl XII to Småland\n") == ["move from Skåne: Karl XII to Småland"]


def test_signature_and_service_marker() -> None:
    assert texts("recon Livland\n-- \nBoris\nrecon Estland\n") == ["recon Livland"]
    body = "recon Livland\n> ==== gm report baltica42 1701-summer ====\n> POWER sweden x\n"
    assert texts(body) == ["recon Livland"]
    assert texts("==== gm reply ====\nrecon Livland\n") == []


def test_the_line_a_phone_adds_ends_the_orders_like_a_signature() -> None:
    for footer in ("Sent from my iPhone", "Sent from my Galaxy", "Get Outlook for Android",
                   "Sent from Mail for Windows", "Envoyé de mon iPhone", "Envoyé depuis mon mobile"):
        assert texts(f"recon Livland\n\n{footer}\nrecon Estland\n") == ["recon Livland"], footer
    # An order line is never taken for one, even if it starts alike.
    assert texts("recon Livland\nsent\n") == ["recon Livland", "sent"]


def test_list_markers_are_dropped() -> None:
    body = "1. recon Livland\n2) recon Estland\n- politics Sweden\n* replace Karl XII\n• recon Riga\n"
    assert texts(body) == [
        "recon Livland",
        "recon Estland",
        "politics Sweden",
        "replace Karl XII",
        "recon Riga",
    ]


def test_continuation_lines_join_the_line_before() -> None:
    """A line that begins with unless, and, or, then, via, with, force or ; continues
    the line before it."""
    body = (
        "place protectorate in Tunis\n  if italy places no control in Tunis\n"
        "  and italy places no influence in Tunis\n"
        "move from Sandomierz: Karl XII to Livland\nvia Mazowsze, Lietuva\nforce\n"
        "move from Novgorod: Repnin to Smolensk\n; Pyotr I to Ingermanland\n"
    )
    lines = clean_body(body)
    assert [line.number for line in lines] == [1, 4, 7]
    assert lines[2].text == "move from Novgorod: Repnin to Smolensk ; Pyotr I to Ingermanland"
    assert lines[1].text == "move from Sandomierz: Karl XII to Livland via Mazowsze, Lietuva force"
    assert lines[0].text == (
        "place protectorate in Tunis if italy places no control in Tunis"
        " and italy places no influence in Tunis"
    )


@pytest.mark.parametrize("word", ["unless", "and", "or", "then", "via", "with", "force", ";"])
def test_each_continuation_word_of_section_1_continues_the_line_before(word: str) -> None:
    """§1: "A line that begins with `unless`, `and`, `or`, `then`, `via`, `with`, `force` or
    `;` continues the line before it": each word on its own (the test above shows five of
    the eight)."""
    assert texts(f"recon Livland\n{word} Estland\n") == [f"recon Livland {word} Estland"]


def test_if_then_line_starts_an_order_but_a_bare_if_continues() -> None:
    body = "buy army 3\nif round >= 2 then buy fleet 10\nbuy army 1\nif funds >= 3\n"
    assert texts(body) == [
        "buy army 3",
        "if round >= 2 then buy fleet 10",
        "buy army 1 if funds >= 3",
    ]


def test_press_text_is_kept_verbatim() -> None:
    body = "PRESS TO france\nDear Marianne,\n\n# not a comment\n- a list item\nENDPRESS\nrecon x # c\n"
    assert texts(body) == [
        "PRESS TO france",
        "Dear Marianne,",
        "",
        "# not a comment",
        "- a list item",
        "ENDPRESS",
        "recon x",
    ]


def test_curly_and_angle_quotes_are_straightened_and_apostrophes_kept() -> None:
    """Issue 17 class 6: a name in any quotes reads as a quoted name; positions are kept."""
    from gm.orders.text import straighten_quotes

    for written, want in [
        ("sign treaty “Entente”", 'sign treaty "Entente"'),
        ("signer traité « Entente »", 'signer traité " Entente "'),
        ("treaty ‘Entente d’Afrique’ public", 'treaty "Entente d’Afrique" public'),
        ("move from Skåne: “Karl XII”, ‘Dalregementet’ to Småland",
         'move from Skåne: "Karl XII", "Dalregementet" to Småland'),
        ("sign treaty \"L’Entente\"", "sign treaty \"L’Entente\""),
        ("Karl XII's move", "Karl XII's move"),
    ]:
        assert straighten_quotes(written) == want
        assert len(straighten_quotes(written)) == len(written)
