"""Issue 20: what a French seat reads is French.

The long-game harnesses (tests/games/*/…long_game*.py) render every report of whole
games of the three games in French and fail on an English line
(tests/support/language_scan.py); here, that the scan finds what it looks for, and the
parts of a French report mail those harnesses do not render: the dice lines and the
orders not carried out.
"""

from __future__ import annotations

from typing import Any

from gm.dice import Dice, group_rolls
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.orders import Retreat
from gm.i18n import say
from gm.orders.conditions import Comparison, Conditional, Op, Quantity
from gm.service.render import render
from gm.service.reports import ReportContext
from tests.support.language_scan import data_names, english_lines

MODULE = BalticaModule()
NAMES = data_names("baltica")


def _first_phase(power: str, lang: str) -> str:
    """The whole report mail (frame, game body, dice) of 12.3's first action roll."""
    state = MODULE.setup("12.3", {})
    dice = Dice(seed=b"\x05" * 32, game_id="t", phase_id=MODULE.phase(state).id)
    outcome = MODULE.adjudicate(state, {}, dice)
    events = [{"type": e.type, "data": e.data} for e in outcome.events
              if e.visible_to is None or power in e.visible_to]
    view = MODULE.view(outcome.state, power)
    body = render("report", lang, "baltica", game_only=True, view=view, events=events,
                  power=power)
    ctx = ReportContext(game_id="t", game_title="Pax Baltica", power=power, language=lang,
                        timezone="UTC", closed_phase="1707", phase=MODULE.phase(outcome.state).id,
                        deadline=None, view=view, events=events,
                        rolls=group_rolls(r.to_json() for r in dice.rolls), commitment="c0ffee",
                        power_name=MODULE.seat_name(power, lang))
    return render("report", lang, None, body=body,
                  **dict(ctx.as_dict(), calendar=None, map_cid=None))


def test_the_scan_finds_an_english_line_planted_in_a_french_report() -> None:
    text = _first_phase("sweden", "fr")
    planted = text + "\nAugust II fires: 3 1 5\n"
    assert english_lines(planted, NAMES) == ["August II fires: 3 1 5"]
    assert english_lines(_first_phase("sweden", "en"), NAMES)  # and English is English


def test_a_french_report_mail_has_its_dice_lines_in_french() -> None:
    """Issue 20: "Estland round 2: August II fires" under a French report, and a report
    "pour sweden"."""
    text = _first_phase("sweden", "fr")
    assert "jet d’actions (Suède) : 4" in text, text
    assert "rapport pour la Suède" in text
    assert "rapport pour un spectateur" in _first_phase("spectator", "fr")
    assert english_lines(text, NAMES) == []


def test_an_order_not_carried_out_is_quoted_in_french_with_its_condition() -> None:
    """A conditional retreat is told back in the grammar's French words, and re-parses."""
    order = Conditional(Retreat("Karl XII", "Livland"),
                        Comparison(Quantity("strength", ("Karl XII",)), Op.LE, 1))
    data: dict[str, Any] = {}
    echo = order.echo()
    assert echo == "retreat Karl XII to Livland if strength of Karl XII <= 1"
    from gm.i18n import as_data

    data["order_msg"] = as_data(echo)
    assert say(data["order_msg"], "fr") == "retraite Karl XII vers Livland si force de Karl XII <= 1"
    state = MODULE.setup("12.3", {})
    from gm.orders.model import SourceLine

    parsed = MODULE.parse_orders(state, "sweden", [SourceLine(1, say(data["order_msg"], "fr"))])
    assert [line.order for line in parsed.lines] == [order]


def test_a_french_map_legend_names_the_nations_in_french() -> None:
    """Issue 20: the map's legend said "Sweden", "Russia" to a French seat."""
    from gm.maps.games import builtin_scene
    from gm.service.mapwords import map_words

    view = MODULE.view(MODULE.setup("12.3", {}), "sweden")
    words = {lang: map_words(lang, "baltica", game_title="Pax Baltica", game_id="t",
                             power="sweden", phase="1707", ended=False, deadline=None,
                             timezone="UTC") for lang in ("en", "fr")}
    legend = {lang: dict(builtin_scene(MODULE, view, [], words[lang]).legend)  # type: ignore[union-attr]
              for lang in ("en", "fr")}
    assert (legend["en"]["sweden"], legend["fr"]["sweden"]) == ("Sweden", "Suède")
    assert legend["fr"]["russia"] == "Russie"
