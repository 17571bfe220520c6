"""Pax Viking's winds in a French seat's mail (issue 20): a tile's location and a refusal
name the wind as board.toml's ``name_fr`` says it ("Est", "le Nord"), never "East"."""

from __future__ import annotations

import re

from gm.games.viking import module
from gm.games.viking.rules.actions import _in
from gm.games.viking.table import Table
from gm.i18n import msg, translate
from tests.games.viking.test_viking_by_mail import ADDR
from tests.pipeline.conftest import outbox

ENGLISH_WIND = re.compile(r"(: [a-zé]+, |poste en |adverse en |dans l'|dans le )(North|East|South|West)\b")
FRENCH_WIND = re.compile(r": [a-zé]+, (Nord|Est|Sud|Ouest), ")


def test_a_french_report_names_the_saga_tiles_winds_in_french(pv) -> None:  # type: ignore[no-untyped-def]
    """Blue's first report lists the saga track, whose event tiles lie in a wind: "New
    Settlers: événement, Est, immédiat (placer un drakkar sur un poste dans l'Est)"."""
    blue = outbox(pv, kind="report", to=ADDR["blue"])[-1][1]
    red = outbox(pv, kind="report", to=ADDR["red"])[-1][1]
    assert ENGLISH_WIND.findall(blue) == [], blue
    assert FRENCH_WIND.search(blue), blue
    assert re.search(r": event, (North|East|South|West), ", red)  # English stays English


def test_a_refusal_names_the_wind_in_the_readers_language() -> None:
    """PLAY without a lone longship in the tile's wind: "un poste dans le Nord"."""
    t = Table(module.data, module.setup("3p", {}))
    said = msg("you need a longship alone on a post {where}", where=_in(t, "north"))
    assert "sur un poste dans le Nord" in translate(said, "fr") and "North" not in translate(said, "fr")
    assert "the North" in translate(said, "en")
