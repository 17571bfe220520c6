"""The reply to one mail, as data first, then rendered (orders.md §2).

Every section of the mail becomes a :class:`SectionReply` whose entries say,
line by line, what was understood, refused, not understood or ignored. The
reply goes to the sender; a section signed on from an address other than the
seat's registered one is also copied, alone, to that address.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from gm.i18n import Text, msg, translate
from gm.orders.model import Ignored, LineError, ParsedOrder, SourceLine
from gm.service.orders import Submission
from gm.service.render import render, render_html


@dataclass
class Entry:
    """One line of a section's reply."""

    kind: str  # order, refused, error, ignored, note, done
    text: str  # the original line, or a message
    line: int | None = None
    echo: str = ""
    reason: str = ""
    suggestions: tuple[str, ...] = ()


@dataclass
class SectionReply:
    game_id: str | None = None
    power: str | None = None
    power_name: str = ""  # the seat's power as the reader says it (GameModule.power_name)
    phase: str | None = None
    deadline: datetime | None = None
    timezone: str = "UTC"
    rejected: str = ""  # why the whole section was refused
    entries: list[Entry] = field(default_factory=list)
    copy_to: str | None = None  # the registered address, when the sender was another
    appendix: list[str] = field(default_factory=list)  # STATUS: the report, in this reply
    language: str = ""  # the reply's language when nobody signed on (REJOINDRE: fr)
    seat_id: int | None = None  # the seat signed on (the reply's language is its language)

    def note(self, text: str) -> None:
        self.entries.append(Entry("note", text))

    def done(self, line: SourceLine, text: str) -> None:
        self.entries.append(Entry("done", line.text, line.number, reason=text))

    def ignored(self, line: SourceLine, reason: str) -> None:
        self.entries.append(Entry("ignored", line.text, line.number, reason=reason))

    def error(self, line: SourceLine | None, reason: str, suggestions: tuple[str, ...] = ()) -> None:
        self.entries.append(Entry("error", line.text if line else "", line.number if line else None,
                                  reason=reason, suggestions=suggestions))

    def add_submission(self, sub: Submission) -> None:
        judged = {id(j.parsed): j for j in sub.judged}
        for r in sub.parse.lines:
            if isinstance(r, ParsedOrder):
                j = judged[id(r)]
                kind = "order" if j.validation.stored else "refused"
                self.entries.append(Entry(kind, r.line.text, r.line.number, echo=r.echo,
                                          reason=_verdict(j.validation)))
            elif isinstance(r, LineError):
                self.entries.append(Entry("error", r.line.text, r.line.number,
                                          reason=r.reason, suggestions=r.suggestions))
            elif isinstance(r, Ignored):
                self.entries.append(Entry("ignored", r.line.text, r.line.number, reason=r.reason))
        self.entries.sort(key=lambda e: (e.line is None, e.line or 0))


def _verdict(v: Any) -> str:
    label = msg(v.verdict.value) if v.verdict.name != "ACCEPTED" else ""
    if label and v.reason:
        return msg("{verdict}: {reason}", verdict=label, reason=v.reason)
    return label or v.reason


@dataclass
class MailReply:
    to: str
    subject: str
    language: str = "en"
    notes: list[str] = field(default_factory=list)
    sections: list[SectionReply] = field(default_factory=list)
    # The lines before the first envelope line, listed as ignored (gm.pipeline.preamble): the
    # first few, and those that read as orders; how many more there were; what to do with
    # those that read as orders ('' if none). Said in the whole reply only, never in a copy.
    preamble: list[Entry] = field(default_factory=list)
    preamble_more: int = 0
    preamble_note: str = ""
    # The passwords the mail's envelope holds, read when it was parsed (gm.mail.mask);
    # None: not parsed (too large)
    secrets: set[str] | None = field(default=None, repr=False, compare=False)

    def render(self, sections: list[SectionReply] | None = None, sender: str = "") -> str:
        """The text of the reply (or of the copy holding only ``sections``); a report asked
        for with STATUS follows the reply's lines, in the same mail (never in a copy)."""
        return self._text(sections, self._context(sections, sender))

    def render_html(self, sections: list[SectionReply] | None = None, sender: str = "") -> str:
        """The HTML part of the reply: the same lines as :meth:`render`, as a table."""
        return self._html(sections, self._context(sections, sender))

    def render_both(self, sections: list[SectionReply] | None = None,
                    sender: str = "") -> tuple[str, str]:
        """(:meth:`render`, :meth:`render_html`), every line translated once for both (issue
        21: the translated copy of each section was made twice a mail, once a part)."""
        context = self._context(sections, sender)
        return self._text(sections, context), self._html(sections, context)

    def _text(self, sections: list[SectionReply] | None, context: dict[str, Any]) -> str:
        text = render("reply", self.language, None, **context)
        extra = self._appendix(sections)
        return text + "".join(f"\n{report.rstrip()}\n" for report in extra)

    def _html(self, sections: list[SectionReply] | None, context: dict[str, Any]) -> str:
        from html import escape

        page = render_html("reply", self.language, None, **context)
        extra = "".join(f"<pre>{escape(report)}</pre>" for report in self._appendix(sections))
        if extra and "</body>" in page:
            return page.replace("</body>", extra + "</body>", 1)
        return page + extra

    def _appendix(self, sections: list[SectionReply] | None) -> list[str]:
        return [] if sections is not None else [t for s in self.sections for t in s.appendix]

    def _context(self, sections: list[SectionReply] | None, sender: str) -> dict[str, Any]:
        chosen = [self._translated(s) for s in (self.sections if sections is None else sections)]
        first = chosen[0] if chosen else SectionReply()
        lang = self.language
        said = replace(self, notes=[translate(n, lang) for n in self.notes],
                       preamble=self._said(self.preamble) if sections is None else [],
                       preamble_note=translate(self.preamble_note, lang))
        return {"reply": said, "sections": chosen, "sender": sender, "game_id": first.game_id or "",
                "phase": first.phase or "", "copy": sections is not None}

    def _translated(self, section: SectionReply) -> SectionReply:
        """``section`` with every message built in code said in the reply's language; an
        order's echo too (issue 20), so a French seat reads its orders back in French
        ("déplacer ..."), whichever language it wrote them in: the orders' canonical text is a
        :class:`gm.i18n.Text` whose French the grammar parses again (orders.md §8). Each entry
        is made anew with all of :class:`Entry`'s fields (issue 21: dataclasses.replace, which
        reads them through fields(), was a twentieth of rendering a reply)."""
        return replace(section, rejected=translate(section.rejected, self.language),
                       power_name=translate(section.power_name, self.language),
                       entries=self._said(section.entries))

    def _said(self, entries: list[Entry]) -> list[Entry]:
        """``entries`` with every message built in code said in the reply's language, and
        the names a reply offers ("did you mean") as that language names them."""
        lang = self.language
        return [Entry(kind=e.kind, line=e.line,
                      suggestions=tuple(translate(x, lang) for x in e.suggestions),
                      # a line's text as written; one the parser said in code (two lines read
                      # as one order, gm.games.britannica.parser._wrapped) in the language too
                      text=translate(e.text, lang) if e.kind == "note" or isinstance(e.text, Text)
                      else e.text,
                      echo=translate(e.echo, lang), reason=translate(e.reason, lang))
                for e in entries]
