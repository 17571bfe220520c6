"""What a report's map is drawn from, carried inside the queued mail until it is sent.

A report is queued inside the transaction that closes its phase; drawing its map there
(SVG, then PNG) was most of that transaction's time (issue 21). So the mail is queued with
a :class:`MapSource` part (the game, the power's view, the events it may see, the words
in its language: exactly what the drawing reads, never the full state) and two empty
parts marked to be drawn from it; gm.service.outbox draws them before the first send and
drops the source part, so the mail that leaves holds the PNG and the SVG only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

MAP_SOURCE_TYPE = "application/x-gm-map+json"
MAP_SOURCE_NAME = "map.json"


@dataclass(frozen=True)
class MapSource:
    game: str  # the module's name (gm.games.registry)
    view: Mapping[str, Any]
    events: Sequence[Mapping[str, Any]]
    words: Mapping[str, str]

    def to_bytes(self) -> bytes:
        return json.dumps({"game": self.game, "view": self.view, "events": list(self.events),
                           "words": self.words}, ensure_ascii=False, sort_keys=True,
                          default=str).encode("utf-8")

    @classmethod
    def from_bytes(cls, data: bytes) -> MapSource:
        d = json.loads(data.decode("utf-8"))
        return cls(str(d["game"]), d["view"], d["events"], d["words"])
