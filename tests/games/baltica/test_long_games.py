"""Issue 18: every Pax Baltica scenario (3CG 12.1-12.5) under both rulesets played to
its end by the engine, with seeded random orders in English and French, some powers
silent now and then and some games with a drop-out (a power that never orders: every
default), every report of every phase rendered in both languages (long_games.py).

CI plays one seed of each scenario and ruleset and a drop-out game of each short
scenario (about a minute on one core); GM_LONG_TESTS=1 plays four seeds of each, two
of them with a drop-out, and the 3CG optional rules 13.1-13.3 in half of them.
"""

from __future__ import annotations

import os

import pytest
from long_games import play

from gm.games.baltica.board import load_board

LONG = os.environ.get("GM_LONG_TESTS") == "1"
SCENARIOS = ("12.1", "12.2", "12.3", "12.4", "12.5")
RULESETS = ("gmt-2012", "3cg-1.1")


def games() -> list[tuple[str, str, int, str | None]]:
    """(scenario, ruleset, seed, drop-out power) of the games to play."""
    out: list[tuple[str, str, int, str | None]] = []
    for scenario in SCENARIOS:
        for ruleset in RULESETS:
            # 12.5 is short: seed 1 of its GMT game draws no siege the rules allow (the
            # mail's reply refuses one by regiments against a garrison of 2, issue 17),
            # so CI plays seed 2 there
            out.append((scenario, ruleset, 2 if (scenario, ruleset) == ("12.5", "gmt-2012")
                        else 1, None))
            if LONG:
                out += [(scenario, ruleset, 2, None), (scenario, ruleset, 3, "sweden"),
                        (scenario, ruleset, 4, "coalition")]
            elif scenario in ("12.3", "12.5"):
                out.append((scenario, ruleset, 2, "coalition" if ruleset == "3cg-1.1"
                            else "sweden"))
    return out


@pytest.mark.parametrize(("scenario", "ruleset", "seed", "dropout"), games())
def test_a_whole_game_closes_every_phase_and_renders_every_report(
        scenario: str, ruleset: str, seed: int, dropout: str | None) -> None:
    options = {"optional": "13.1,13.2,13.3"} if ruleset == "3cg-1.1" and seed % 2 == 0 else {}
    played = play(scenario, ruleset, seed, dropout=dropout, options=options)
    state = played.state
    sc = load_board(ruleset).scenarios[scenario]
    assert state["ended"] and state["ruleset"] == ruleset
    assert played.events["victory"] == 1  # the scenario's victory table (or sudden death)
    if state["victory"]["level"] != "triumphant":  # not sudden death (0.4): to the last turn
        assert (state["year"], state["season"]) == (sc.end_year, sc.end_season.value)
    assert played.reports == played.phases * 3 * 2  # Sweden, Coalition, spectator; en, fr
    if dropout is None:
        assert played.orders["Move"] > 0 and played.orders["Siege"] > 0
    if dropout is None and scenario != "12.5":  # 12.5 lasts three game turns
        assert played.events["battle"] > 0 and played.orders["Conditional"] > 0
