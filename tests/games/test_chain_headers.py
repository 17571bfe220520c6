"""A report of several phases closed at once heads each phase's events with its name, in
every game (docs/reports.md, "A chain of closes"): Pax Baltica's events do it themselves;
for the others gm.service.reports.chain_events adds a ``phase`` line, which each game's
event template says as Pax Baltica's does."""

from __future__ import annotations

import pytest

from gm.service.render import environment


@pytest.mark.parametrize("game", ["baltica", "britannica", "viking"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_game_heads_a_phase_s_events_with_its_name(game: str, lang: str) -> None:
    events = environment(lang).get_template(f"{game}/_events.txt.j2").make_module(
        vars={"lang": lang})
    assert str(events.line({"type": "phase", "data": {"phase": "round-2-red"}})) == (
        "--- round-2-red ---")
