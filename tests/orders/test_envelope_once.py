"""The line that opens a mail's envelope is parsed once (issue 21), and read as before."""

from __future__ import annotations

import pytest

from gm.orders import commands as c
from gm.orders import envelope
from gm.orders.envelope import CommandLine, OrderLine, parse_envelope
from gm.orders.text import clean_body


def test_each_command_line_is_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []
    real = envelope.parse_command

    def counting(text: str):  # type: ignore[no-untyped-def]
        parsed.append(text)
        return real(text)

    monkeypatch.setattr(envelope, "parse_command", counting)
    env = parse_envelope(clean_body("Hello,\nGAME pax0\nPOWER sweden s3cret\nA Par - Bur\nREADY\n"))
    assert sorted(parsed) == sorted(["GAME pax0", "POWER sweden s3cret", "READY"])
    (section,) = env.sections
    assert section.game == "pax0"
    assert isinstance(section.signon, c.PowerSignOn) and section.signon.password == "s3cret"
    assert [type(i) for i in section.items] == [OrderLine, CommandLine]
    assert [line.text for line in env.ignored] == ["Hello,"]


def test_command_lines_kept_for_the_next_mail_never_hold_a_password_or_press() -> None:
    """parse_command keeps the last lines it read as GAME, PHASE, FOR, CHECK, ADD, STATUS
    or READY (issue 21: GAME heads each mail of a game); a sign-on's password and a press
    text stay only in the mail that carried them, and a kept command reads as a new one."""
    lines = ["GAME keep1", "POWER sweden s3cret-keep", "MODERATOR m0d-keep", "PHASE 1700-spring",
             "FOR russia", "READY", "PRESS TO russia", "CHECK"]
    first = [envelope.parse_command(line) for line in lines]
    kept = set(envelope._remembered)
    assert {"GAME keep1", "PHASE 1700-spring", "FOR russia", "READY", "CHECK"} <= kept
    assert not any("keep" in line and ("s3cret" in line or "m0d" in line) for line in kept)
    assert "PRESS TO russia" not in kept
    again = [envelope.parse_command(line) for line in lines]
    assert again == first  # the same commands, equal field by field
    assert again[0] is first[0]  # GAME: the one kept (frozen, so sharing it is safe)
