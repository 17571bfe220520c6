"""Issue 17 class 2: prose is never an error (orders.md §2), a mistyped order still is."""

from __future__ import annotations

from datetime import date

import pytest

from gm.games.britannica.parser import parse_lines
from gm.orders import commands as c
from gm.orders.model import Ignored, LineError, ParsedOrder, SourceLine
from gm.orders.text import clean_body


def _results(*texts: str) -> list[object]:
    return parse_lines([SourceLine(i, t) for i, t in enumerate(texts, 1)], "britain").lines


@pytest.mark.parametrize("lines", [
    ("Hi all,",), ("Thanks!",), ("Anna",), ("Boris Ivanov",), ("A.K.",), ("AK",),
    ("Cheers,", "Anna"), ("Kind regards",), ("Let me know if anything is unclear.",),
    ("I hope you like my", "proposal for Egypt"), ("Bonjour à tous",), ("Merci !",),
    ("Ok that's all for now",), ("P.S. the fleet is for show",),
])
def test_prose_lines_are_ignored_not_errors(lines: tuple[str, ...]) -> None:
    assert all(isinstance(r, Ignored) for r in _results(*lines)), _results(*lines)


@pytest.mark.parametrize("line", [
    "plcae influence in Serbia", "plcae influence in Serbia.", "attakc in Manchuria",
    "bye army 3",
])
def test_a_mistyped_order_is_an_error_even_in_a_sentence(line: str) -> None:
    [r] = _results(line)
    assert isinstance(r, LineError)


def test_a_mistyped_order_after_a_long_greeting_is_still_an_error() -> None:
    _, typo = _results("Dear all, here are my orders for the turn", "plcae influence in Serbia")
    assert isinstance(typo, LineError) and typo.suggestions == ("place",)


@pytest.mark.parametrize("marker", ["1.", "2)", "(3)", "3 -", "3 –", "4:", "a)", "b.", "-", "*",
                                    "•", "–", "+"])
def test_list_markers_before_an_order_are_dropped(marker: str) -> None:
    [line] = clean_body(f"{marker} buy army 3\n")
    assert line.text == "buy army 3"
    [r] = _results(line.text)
    assert isinstance(r, ParsedOrder)


def test_prose_that_opens_with_a_command_word_is_not_a_command_error() -> None:
    from gm.orders.envelope import CommandLine, OrderLine, parse_envelope

    env = parse_envelope(clean_body("GAME g\nPOWER sweden pw\nReady when you are!\n"
                                    "Wait for me, I am on holiday\nREADY\nNO WAIT\n"))
    [section] = env.sections
    assert section.errors == []
    kinds = [(type(i).__name__, i.line.text) for i in section.items]
    assert kinds == [("OrderLine", "Ready when you are!"),
                     ("OrderLine", "Wait for me, I am on holiday"),
                     ("CommandLine", "READY"), ("CommandLine", "NO WAIT")]
    assert all(isinstance(i, (CommandLine, OrderLine)) for i in section.items)
    result = parse_lines([i.line for i in section.items if isinstance(i, OrderLine)], "britain")
    assert all(isinstance(r, Ignored) for r in result.lines)


@pytest.mark.parametrize("line", ["ADD these too,", "HISTORY 1701-spring 2"])
def test_a_command_with_a_slip_stays_an_error_not_prose(line: str) -> None:
    from gm.orders.envelope import parse_envelope

    [section] = parse_envelope(clean_body(f"GAME g\nPOWER sweden pw\n{line}\n")).sections
    assert [e.line.text for e in section.errors] == [line]


def test_britannica_suggests_only_the_commands_of_the_phase() -> None:
    from gm.games.britannica.module import Britannica

    module = Britannica()
    state = module.setup("1880", {})
    state["step"] = "movement"
    [r] = module.parse_orders(state, "britain", [SourceLine(1, "mvoe army 3 from home to Egypt")]).lines
    assert isinstance(r, LineError) and r.suggestions == ("move",)
    state["step"] = "congress-vote"
    [r] = module.parse_orders(state, "britain", [SourceLine(1, "mvoe army 3 from home to Egypt")]).lines
    assert isinstance(r, LineError) and r.suggestions == ()
    [r] = module.parse_orders(state, "britain", [SourceLine(1, "vtoe 1 yes")]).lines
    assert isinstance(r, LineError) and r.suggestions == ("vote",)


def test_viking_suggests_only_the_commands_of_the_phase() -> None:
    from gm.games.viking.parsing import phase_commands

    assert "vote" in phase_commands("althing") and "journey" not in phase_commands("althing")
    assert "journey" in phase_commands("turn") and "vote" not in phase_commands("turn")


@pytest.mark.parametrize(("line", "command"), [
    ("READY!", c.Ready()), ("READY.", c.Ready()), ("Ready :)", c.Ready()), ("ready ;-)", c.Ready()),
    ("NOT READY!!", c.Ready(False)), ("NO WAIT.", c.Wait(False)), ("STATUS please!", c.Status()),
    ("Status, please.", c.Status()), ("READY, merci !", c.Ready()), ("CHECK.", c.Check()),
    ("HELP move.", c.Help("move")), ("HELP!", c.Help()),
    ("SET ADDRESS anna@example.org.", c.SetAddress("anna@example.org")),
    ("SET LANGUAGE fr.", c.SetLanguage("fr")), ("HISTORY 1701-spring.", c.History("1701-spring")),
    ("ABSENT 2026-12-20 TO 2027-01-03.", c.Absent(date(2026, 12, 20), date(2027, 1, 3))),
    ("FOR austria-hungary.", c.For("austria-hungary")), ("PASSWORD s3cret.", c.Password("s3cret.")),
])
def test_sentence_punctuation_after_a_command_is_not_part_of_it(line: str, command: object) -> None:
    """Issue 17 class 2: "punctuation after commands: READY!, READY., Ready :)"; "SET ADDRESS
    x." without the dot. Every command word gets the same treatment; a password is taken as
    written (a dot may be part of it)."""
    from gm.orders.envelope import parse_envelope

    [section] = parse_envelope(clean_body(f"GAME g\nPOWER sweden pw\n{line}\n")).sections
    assert section.errors == []
    assert section.commands[-1] == command


@pytest.mark.parametrize("line", [
    "Help yourself to the coffee.", "Help me with the siege, please", "Ready?", "Wait...",
    "Wait, I forgot something", "Join us", "Game over.", "For what it's worth, I moved",
    "Ready when you are!", "History is written by the victors, I know",
])
def test_a_command_word_opening_a_sentence_is_prose(line: str) -> None:
    """Issue 17 class 2: "a command keyword followed by prose must not trigger unless the
    rest of the line is a valid argument for it"; listed as ignored, never an error."""
    from gm.orders.envelope import parse_envelope
    from gm.orders.model import ProseLine

    [section] = parse_envelope(clean_body(f"GAME g\nPOWER sweden pw\nrecon Livland\n{line}\n")
                               ).sections
    assert section.errors == []
    assert [type(i).__name__ for i in section.items] == ["OrderLine", "OrderLine"]
    assert section.commands == []
    assert isinstance(section.items[-1].line, ProseLine) or "I" in line.split()


@pytest.mark.parametrize(("line", "command"), [
    ("PHASE: 1700-autumn-actions-sweden", c.Phase("1700-autumn-actions-sweden")),
    ("SET LANGUAGE: fr", c.SetLanguage("fr")), ("HISTORY: 1700-summer", c.History("1700-summer")),
    ("ABSENT from 2026-12-20 to 2027-01-03", c.Absent(date(2026, 12, 20), date(2027, 1, 3))),
    ("absent du 2026-12-20 au 2027-01-03", c.Absent(date(2026, 12, 20), date(2027, 1, 3))),
])
def test_a_colon_after_the_command_words_and_absent_from(line: str, command: object) -> None:
    """Issue 17 (a hurried player): "PHASE: x" as a form field, "ABSENT from d to d" as a
    sentence says it."""
    from gm.orders.envelope import parse_envelope

    [section] = parse_envelope(clean_body(f"GAME g\nPOWER sweden pw\n{line}\n")).sections
    assert section.errors == [] and section.commands[-1] == command


def test_game_and_power_as_form_fields_open_the_envelope_and_press_ends_with_a_colon() -> None:
    from gm.orders.envelope import parse_envelope

    env = parse_envelope(clean_body("Hi,\nGame: baltica42\nPower: sweden hunter2\n"
                                    "PRESS TO coalition:\nNice try.\nENDPRESS\nrecon Livland\nEND.\n"
                                    "recon Estland\n"))
    [section] = env.sections
    assert (section.game, section.signon) == ("baltica42", c.PowerSignOn("sweden", "hunter2"))
    assert section.commands == [c.Press(("coalition",), "Nice try.")] and not section.errors
    assert [o.line.text for o in section.orders] == ["recon Livland"]  # "END." ends the orders


def test_a_list_heading_before_the_envelope_opens_nothing() -> None:
    from gm.orders.envelope import parse_envelope

    env = parse_envelope(clean_body("List:\n- recon Livland\nGAME baltica42\nPOWER sweden x\n"))
    assert [line.text for line in env.ignored] == ["List:", "recon Livland"]
    assert [s.game for s in env.sections] == ["baltica42"] and env.sections[0].commands == []


@pytest.mark.parametrize("line", [
    "Status: all fine here", "STATUS: nothing new on my side", "Help: I'm lost?",
    "Help: I am lost", "Wait: I need to think", "Ready: as ever, my friend",
    "Not ready: still thinking", "History: we made it together", "Game: what a game this is",
    "Phase: the last one was hard", "Orders: see below", "Password: see my last mail",
    "Etat : tout va bien ici", "Aide : je suis perdu", "Pas prêt : je réfléchis encore",
    "For: the record, all is well", "Orders:", "Orders: see below",
    "List: my moves this turn",
])
def test_a_command_word_heading_a_sentence_with_a_colon_is_prose(line: str) -> None:
    """Issue 17 class 2 (orders.md §2): a command word before a colon and a sentence after it
    is prose, listed as ignored: never a command error, never the command."""
    from gm.orders.envelope import parse_envelope
    from gm.orders.model import ProseLine

    [section] = parse_envelope(clean_body(f"GAME g\nPOWER sweden pw\nrecon Livland\n{line}\n")
                               ).sections
    assert section.errors == [] and section.commands == []
    assert isinstance(section.items[-1].line, ProseLine)  # the service lists it as ignored


@pytest.mark.parametrize(("line", "command"), [
    ("STATUS", c.Status()), ("Status:", c.Status()), ("HELP: move", c.Help("move")),
    ("PAUSE: holiday week", None), ("Phase: 1700-autumn-actions-sweden", c.Phase(
        "1700-autumn-actions-sweden")),
])
def test_the_command_alone_or_with_its_argument_after_the_colon_stays_the_command(
        line: str, command: object) -> None:
    from gm.orders.envelope import parse_command

    got = parse_command(line)
    assert got == command or (command is None and type(got).__name__ == "Pause")


@pytest.mark.parametrize("line", ["Ready: yes", "ADD: these two", "Check: these two",
                                  "Absent: from Monday to Friday", "Press: nothing to say today"])
def test_a_colon_heading_that_may_mean_the_command_stays_an_error(line: str) -> None:
    """ADD, CHECK, ABSENT and PRESS change what happens to the mail, and one word after the
    colon may be a slip: answered as an error the player sees, never silently prose."""
    from gm.orders.envelope import parse_envelope

    [section] = parse_envelope(clean_body(f"GAME g\nPOWER sweden pw\n{line}\n")).sections
    assert [e.line.text for e in section.errors] == [line]


def test_an_order_after_orders_colon_is_left_to_the_game() -> None:
    from gm.orders.envelope import OrderLine, parse_envelope
    from gm.orders.model import ProseLine

    [section] = parse_envelope(clean_body("GAME g\nPOWER sweden pw\nOrders: recon Livland\n")
                               ).sections
    [item] = section.items
    assert isinstance(item, OrderLine) and not isinstance(item.line, ProseLine)
