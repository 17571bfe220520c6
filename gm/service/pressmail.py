"""A press mail's header: who it is from and to, by power id, whatever language the mail is
in (gm.pipeline.press writes it; the game's history and archive read it back)."""

from __future__ import annotations

import re

_HEADER = re.compile(r"^==== gm press (?P<game>\S+) from (?P<who>\S+) to (?P<to>.+) ====$", re.M)


def press_header(game_id: str, sender: str, audience: str) -> str:
    """A press mail's first line: the game, the sender's power id (or "anonymous") and the
    recipients' ids ("all", "moderator"), which the game's history and archive read back
    whatever language the line below says them in."""
    return f"==== gm press {game_id} from {sender} to {audience} ===="


def read_press(text: str) -> tuple[str, str, str] | None:
    """(sender, audience, text) of a press mail's body; mails queued before the header
    carried the ids (their only line was the English "Press from france to all:") are read
    from that line."""
    text = text.replace("\r\n", "\n")
    head, _, body = text.partition("\n\n")
    found = _HEADER.search(head)
    if found:
        return found["who"], found["to"], body.strip()
    line = next((x for x in head.splitlines() if x.startswith("Press from ")), "")
    if not line:
        return None
    who, _, to = line.removeprefix("Press from ").rstrip(":").partition(" to ")
    return who, to, body.strip()
