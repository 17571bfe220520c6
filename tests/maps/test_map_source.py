"""The map source a report mail carries until it is sent (gm.maps.source, issue 21).

It is written with orjson (a tenth of the standard library's time, three reports a close);
what a host would check is that the map drawn from it is the one drawn from the data the
report was given: the same tree as the standard library writes, read back exactly.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime

from gm.maps.draw import svg_from_source
from gm.maps.source import MapSource


def standard(source: MapSource) -> bytes:
    """The source as the standard library writes it (what gm wrote before orjson)."""
    return json.dumps({"game": source.game, "view": source.view, "events": list(source.events),
                       "words": source.words}, ensure_ascii=False, sort_keys=True,
                      default=str).encode("utf-8")


def test_a_real_report_source_holds_the_same_tree_and_draws_the_same_map(
        baltica_sources: list[MapSource]) -> None:
    for source in baltica_sources:
        written = source.to_bytes()
        assert json.loads(written) == json.loads(standard(source))
        assert MapSource.from_bytes(written) == MapSource.from_bytes(standard(source))
        assert svg_from_source(written) == svg_from_source(standard(source))


@dataclasses.dataclass
class Mark:
    kind: str


def test_values_without_a_json_form_are_written_as_their_text_as_before() -> None:
    source = MapSource("baltica", {"at": datetime(1700, 5, 1, 12, tzinfo=UTC),
                                   "mark": Mark("siege"), "areas": ("riga", "reval"),
                                   "name": "Suède"}, [], {"title": "Pax Baltica"})
    assert json.loads(source.to_bytes()) == json.loads(standard(source))
    assert json.loads(source.to_bytes())["view"]["at"] == "1700-05-01 12:00:00+00:00"


def test_a_number_orjson_cannot_write_is_written_and_read_back_exactly() -> None:
    source = MapSource("baltica", {"seed": 2 ** 70}, [], {})
    assert MapSource.from_bytes(source.to_bytes()).view["seed"] == 2 ** 70
