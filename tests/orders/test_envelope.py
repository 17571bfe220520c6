"""orders.md §1, §8, §9: the envelope, the commands that are not orders, moderator mail."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from gm.orders import commands as c
from gm.orders.envelope import CommandLine, OrderLine, Problem, parse_command, parse_envelope
from gm.orders.model import SourceLine
from gm.orders.text import clean_body

SECTION_1 = """Hi Boris, my orders below.          <- text before the first envelope line is ignored

GAME baltica42
POWER sweden hunter2          # sign-on: power and password (alias SIGNON)
PHASE 1701-summer-actions-sweden    # optional guard; see below

move from Skåne: Karl XII, Dalregementet to Småland
recon Livland
END                           # optional; nothing after it is read
"""


def test_section_1_example() -> None:
    env = parse_envelope(clean_body(SECTION_1))
    assert [line.number for line in env.ignored] == [1]
    (section,) = env.sections
    assert section.game == "baltica42"
    assert section.signon == c.PowerSignOn("sweden", "hunter2")
    assert section.phase == "1701-summer-actions-sweden"
    assert section.orders == [
        OrderLine(SourceLine(7, "move from Skåne: Karl XII, Dalregementet to Småland"), "sweden"),
        OrderLine(SourceLine(8, "recon Livland"), "sweden"),
    ]
    assert not section.errors


def test_passwords_are_case_sensitive_and_keywords_are_not() -> None:
    env = parse_envelope(clean_body("game Baltica42\nsignon Sweden HunTer2ä\nrecon x\n"))
    assert env.sections[0].signon == c.PowerSignOn("sweden", "HunTer2ä")
    assert env.sections[0].game == "baltica42"


def test_for_switches_power_until_next_for() -> None:
    """FOR austria-hungary lasts until the next FOR (FOR germany switches back)."""
    body = """GAME brit1
POWER germany pw
place influence in Serbia
FOR austria-hungary
place influence in Bosnia
FOR germany
buy army 3
"""
    section = parse_envelope(clean_body(body)).sections[0]
    assert [(o.line.text, o.power) for o in section.orders] == [
        ("place influence in Serbia", "germany"),
        ("place influence in Bosnia", "austria-hungary"),
        ("buy army 3", "germany"),
    ]
    assert [line.text for line in section.orders_for("austria-hungary")] == [
        "place influence in Bosnia"
    ]


def test_sections_game_resets_power_starts_new_section_in_same_game() -> None:
    body = "GAME a1\nPOWER sweden p\nrecon x\nPOWER coalition q\nrecon y\nGAME b2\nrecon z\n"
    sections = parse_envelope(clean_body(body)).sections
    assert [(s.game, s.signon) for s in sections] == [
        ("a1", c.PowerSignOn("sweden", "p")),
        ("a1", c.PowerSignOn("coalition", "q")),
        ("b2", None),
    ]
    assert sections[2].rejected
    assert sections[2].errors[0].problem is Problem.NO_SIGNON
    assert not sections[0].rejected


def test_power_without_password_rejects_the_section() -> None:
    section = parse_envelope(clean_body("POWER sweden\nrecon x\n")).sections[0]
    assert section.rejected and section.errors[0].problem is Problem.NO_PASSWORD


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("CHECK", c.Check()),
        ("ADD", c.Add()),
        ("STATUS", c.Status()),
        ("READY", c.Ready(True)),
        ("NOT READY", c.Ready(False)),
        ("WAIT", c.Wait(True)),
        ("NO WAIT", c.Wait(False)),
        ("HISTORY", c.History(None)),
        ("HISTORY 1701-spring-actions-sweden", c.History("1701-spring-actions-sweden")),
        ("ABSENT 2026-12-20 TO 2027-01-03", c.Absent(date(2026, 12, 20), date(2027, 1, 3))),
        ("PASSWORD newsecret", c.Password("newsecret")),
        ("SET LANGUAGE fr", c.SetLanguage("fr")),
        ("SET TIMEZONE Europe/Paris", c.SetTimezone("Europe/Paris")),
        ("SET ADDRESS new@example.org", c.SetAddress("new@example.org")),
        ("HELP", c.Help(None)),
        ("HELP move", c.Help("move")),
        ("FOR austria-hungary", c.For("austria-hungary")),
        # French (§8), accents optional
        ("VÉRIFIER", c.Check()),
        ("prêt", c.Ready(True)),
        ("pas pret", c.Ready(False)),
        ("ne pas attendre", c.Wait(False)),
        ("ABSENT 2026-12-20 AU 2027-01-03", c.Absent(date(2026, 12, 20), date(2027, 1, 3))),
        ("DÉFINIR LANGUE fr", c.SetLanguage("fr")),
        ("AIDE", c.Help(None, language="fr")),
        ("POUR autriche-hongrie", c.For("autriche-hongrie")),
    ],
)
def test_section_1_commands(line: str, command: object) -> None:
    assert parse_command(line) == command


def test_press_text_is_passed_on_verbatim() -> None:
    body = """GAME brit1
POWER france pw
PRESS TO britain, russia
Dear friends,

# we propose:
1. Egypt for Britain
ENDPRESS
buy army 3
"""
    section = parse_envelope(clean_body(body)).sections[0]
    (press,) = [x for x in section.commands if isinstance(x, c.Press)]
    assert press.to == ("britain", "russia")
    assert press.text == "Dear friends,\n\n# we propose:\n1. Egypt for Britain"
    assert [o.line.text for o in section.orders] == ["buy army 3"]


def test_press_to_all_and_unclosed_press() -> None:
    section = parse_envelope(clean_body("POWER france pw\nPRESS TO ALL\nhello\n")).sections[0]
    assert not [x for x in section.commands if isinstance(x, c.Press)]
    assert section.errors[0].problem is Problem.UNCLOSED_PRESS
    assert parse_command("PRESS TO ALL").broadcast


def test_replace_order_is_not_a_moderator_command() -> None:
    """Pax Baltica's `replace Karl XII` is an order; `REPLACE POWER` is §9's."""
    section = parse_envelope(clean_body("POWER sweden pw\nreplace Karl XII\n")).sections[0]
    assert [o.line.text for o in section.orders] == ["replace Karl XII"]
    assert not section.errors


def test_moderator_commands_from_a_player_are_refused() -> None:
    section = parse_envelope(clean_body("POWER sweden pw\nEXTEND 48h\n")).sections[0]
    assert section.errors[0].problem is Problem.MODERATOR_ONLY
    assert not section.rejected


def test_bad_command_is_a_line_error_not_a_rejection() -> None:
    section = parse_envelope(clean_body("POWER sweden pw\nABSENT tomorrow\nrecon x\n")).sections[0]
    assert section.errors[0].problem is Problem.BAD_COMMAND
    assert section.errors[0].line == SourceLine(2, "ABSENT tomorrow")
    assert not section.rejected and len(section.orders) == 1


MODERATOR_MAIL = """GAME brit1
MODERATOR s3cret
EXTEND 48h: holiday week
EXTEND 2d
EXTEND TO 2026-12-01 20:00
ADJUDICATE NOW
RULING Italy's protectorate in Tunis stands: see rule 5.2
REPLACE POWER italy WITH new@example.org
ROLLBACK TO 1880-movement
ROLLBACK TO 1880-movement FRESH DICE: dice were mistyped
SET powers.italy.funds = 40: bookkeeping error
PAUSE
RESUME
RESUME DEADLINE 2026-12-03 18:00
DICE 3 1 5 6
DICE 3 1 THEN SEED
RELEASE
EXTEND PRIVATE 1d: a player is ill
POWER italy
place influence in Tunis
"""


def test_section_9_moderator_commands() -> None:
    (section,) = parse_envelope(clean_body(MODERATOR_MAIL)).sections
    assert section.moderator and section.signon == c.ModeratorSignOn("s3cret")
    assert not section.errors
    assert section.commands == [
        c.Extend(by=timedelta(hours=48), reason="holiday week"),
        c.Extend(by=timedelta(days=2)),
        c.Extend(to=datetime(2026, 12, 1, 20, 0)),
        c.AdjudicateNow(),
        c.Ruling(text="Italy's protectorate in Tunis stands: see rule 5.2"),
        c.ReplacePower(power="italy", address="new@example.org"),
        c.Rollback(phase="1880-movement"),
        c.Rollback(phase="1880-movement", fresh_dice=True, reason="dice were mistyped"),
        c.SetState(path="powers.italy.funds", value="40", reason="bookkeeping error"),
        c.Pause(),
        c.Resume(),
        c.Resume(deadline=datetime(2026, 12, 3, 18, 0)),
        c.DiceRolls(rolls=(3, 1, 5, 6)),
        c.DiceRolls(rolls=(3, 1), then_seed=True),
        c.Release(),
        c.Extend(by=timedelta(days=1), private=True, reason="a player is ill"),
        c.PowerSignOn("italy", None),
    ]
    assert section.orders == [OrderLine(SourceLine(20, "place influence in Tunis"), "italy")]


def test_french_moderator_commands() -> None:
    assert parse_command("PROLONGER 2j") == c.Extend(by=timedelta(days=2))
    assert parse_command("ARBITRER MAINTENANT") == c.AdjudicateNow()
    assert parse_command("DÉS 1 2 PUIS GRAINE") == c.DiceRolls(rolls=(1, 2), then_seed=True)
    assert parse_command("RETOUR À 1880-movement NOUVEAUX DÉS") == c.Rollback(
        phase="1880-movement", fresh_dice=True
    )


def test_help_alone_opens_a_section_without_sign_on() -> None:
    env = parse_envelope(clean_body("Hello, how do I join?\nHELP\n"))
    assert env.sections[0].commands == [c.Help(None)]
    assert not env.sections[0].rejected


def test_items_keep_their_order() -> None:
    section = parse_envelope(clean_body("POWER sweden pw\nrecon x\nADD\nrecon y\n")).sections[0]
    kinds = [type(i) for i in section.items]
    assert kinds == [OrderLine, CommandLine, OrderLine]
    assert section.add
