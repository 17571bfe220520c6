"""Reduce an HTML mail body to plain text.

Only used when a mail has no text/plain part. Block elements become line
breaks, whitespace inside text runs collapses as a browser would, entities are
decoded, and ``<script>``, ``<style>``, ``<head>`` and ``<blockquote>`` (quoted
old mail, spec section 1) are dropped with their content.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_DROP = frozenset({"script", "style", "head", "title", "blockquote", "template"})
_BLOCK = frozenset(
    "p div br tr li ul ol table h1 h2 h3 h4 h5 h6 pre hr section article header"
    " footer dt dd address center".split()
)
_VOID = frozenset({"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base"})
_SPACES = re.compile(r"[ \t\r\n\f\u00a0]+")


class _Reducer(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.drop_depth = 0
        self.pre_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROP:
            if tag not in _VOID:
                self.drop_depth += 1
            return
        if self.drop_depth:
            return
        if tag == "pre":
            self.pre_depth += 1
        if tag == "li":
            self.parts.append("\n- ")
        elif tag in _BLOCK:
            self.parts.append("\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.drop_depth and tag in _BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROP:
            self.drop_depth = max(0, self.drop_depth - 1)
            return
        if self.drop_depth:
            return
        if tag == "pre":
            self.pre_depth = max(0, self.pre_depth - 1)
        if tag in _BLOCK and tag != "br":
            self.parts.append("\n")
        elif tag in ("td", "th"):
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if self.drop_depth:
            return
        self.parts.append(data if self.pre_depth else _SPACES.sub(" ", data))


def html_to_text(html: str) -> str:
    """Return the visible text of ``html``, one block per line, blockquotes removed."""
    reducer = _Reducer()
    try:
        reducer.feed(html)
        reducer.close()
    except Exception:  # html.parser is lenient; this is a last resort
        return _SPACES.sub(" ", re.sub(r"<[^>]*>", " ", html)).strip()
    lines = [line.strip(" ") for line in "".join(reducer.parts).split("\n")]
    text = "\n".join(lines)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n")
