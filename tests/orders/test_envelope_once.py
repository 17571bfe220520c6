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
