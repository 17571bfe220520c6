"""format=flowed (RFC 3676) unwrapping.

A line ending in a space is "soft": it continues on the next line of the same
quote depth. Space-stuffing (one leading space) is removed. With DelSp=yes the
trailing space of a soft line is deleted before joining (RFC 3676 section 4.2).
The signature separator ``-- `` is never soft.
"""

from __future__ import annotations


def _split_quote(line: str) -> tuple[int, str]:
    """Return (quote depth, content) with the content space-unstuffed (4.5)."""
    depth = 0
    while depth < len(line) and line[depth] == ">":
        depth += 1
    content = line[depth:]
    if content.startswith(" "):
        content = content[1:]
    return depth, content


def unwrap_flowed(text: str, delsp: bool = False) -> str:
    """Join soft-broken lines of a format=flowed body into logical lines.

    Quoted lines keep their ``>`` prefix (normalised to ``> `` per depth) so
    the quote stripper downstream still sees them.
    """
    out: list[str] = []
    pending: str | None = None
    pending_depth = 0
    for raw_line in text.split("\n"):
        line = raw_line.rstrip("\r")
        depth, content = _split_quote(line)
        if pending is not None and depth != pending_depth:
            out.append(_render(pending_depth, pending))
            pending = None
        soft = content.endswith(" ") and content != "-- "
        if soft and delsp:
            content = content[:-1]
        pending = content if pending is None else pending + content
        pending_depth = depth
        if not soft:
            out.append(_render(depth, pending))
            pending = None
    if pending is not None:
        out.append(_render(pending_depth, pending))
    return "\n".join(out)


def _render(depth: int, content: str) -> str:
    if depth == 0:
        return content
    return ">" * depth + (" " + content if content else "")
