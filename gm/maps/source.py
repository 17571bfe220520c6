"""What a report's map is drawn from, carried inside the queued mail until it is sent.

A report is queued inside the transaction that closes its phase; drawing its map there
(SVG, then PNG) was most of that transaction's time (issue 21). So the mail is queued with
a :class:`MapSource` part (the game, the power's view, the events it may see, the words
in its language: exactly what the drawing reads, never the full state) and two empty
parts marked to be drawn from it; gm.service.outbox draws them before the first send and
drops the source part, so the mail that leaves holds the PNG and the SVG only.

The part is written with orjson (issue 21): a report's source is 15 to 30 KB of JSON, and
the standard library's encoder took 0.25-0.3 ms for each, three reports a close (7% of a
deadline storm's sweep); orjson writes the same data in a tenth of that. Keys are sorted
and written as text, as ``json.dumps(sort_keys=True)`` wrote them; a value with no JSON
form (a date, a dataclass) is written as its ``str``, as before; what orjson cannot write
(an integer beyond 64 bits) is written by the standard library. It is read back with the
standard library, which reads every number exactly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

MAP_SOURCE_TYPE = "application/x-gm-map+json"
MAP_SOURCE_NAME = "map.json"
_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
            | orjson.OPT_PASSTHROUGH_DATACLASS)


@dataclass(frozen=True)
class MapSource:
    game: str  # the module's name (gm.games.registry)
    view: Mapping[str, Any]
    events: Sequence[Mapping[str, Any]]
    words: Mapping[str, str]

    def to_bytes(self) -> bytes:
        tree = {"game": self.game, "view": self.view, "events": list(self.events),
                "words": self.words}
        try:
            return orjson.dumps(tree, default=str, option=_OPTIONS)
        except TypeError:  # orjson.JSONEncodeError: a number it cannot write
            return json.dumps(tree, ensure_ascii=False, sort_keys=True, default=str).encode("utf-8")

    @classmethod
    def from_bytes(cls, data: bytes) -> MapSource:
        d = json.loads(data.decode("utf-8"))
        return cls(str(d["game"]), d["view"], d["events"], d["words"])
