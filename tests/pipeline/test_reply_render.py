"""A reply's text and HTML parts rendered together (MailReply.render_both, issue 21): the
same parts as rendered one by one, each section translated once for both."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gm.i18n import msg
from gm.orders.model import SourceLine
from gm.pipeline import reply as reply_module
from gm.pipeline.reply import Entry, MailReply, SectionReply


def _reply(language: str) -> MailReply:
    section = SectionReply(game_id="pax0", power="sweden", phase="1701-action",
                           deadline=datetime(2027, 1, 2, 18, 0, tzinfo=UTC), timezone="Europe/Paris",
                           copy_to="owner@example.org", appendix=["REPORT\nline two"])
    section.entries += [Entry("order", "move Karl XII to Riga", 3, echo="move Karl XII to Riga"),
                        Entry("refused", "siege Riga", 4, echo="siege Riga",
                              reason=msg("the line is too long ({length} characters; an order "
                                         "has at most {limit})", length=600, limit=500)),
                        Entry("error", "mvoe Riga", 5, reason="not understood",
                              suggestions=("move",)),
                        Entry("ignored", "Cheers", 6, reason="prose")]
    section.done(SourceLine(7, "READY"), msg("CHECK: nothing was stored"))
    section.note(msg("orders for {power}:", power="sweden"))
    return MailReply(to="player@example.org", subject="Re: orders", language=language,
                     notes=[msg("Attachments are not read ({names}); put orders in the text.",
                                names="a.pdf")], sections=[section])


@pytest.mark.parametrize("language", ["en", "fr"])
def test_both_parts_at_once_are_the_parts_one_by_one(language: str) -> None:
    reply = _reply(language)
    assert reply.render_both() == (reply.render(), reply.render_html())
    copy = [reply.sections[0]]
    assert reply.render_both(copy, sender="x@example.org") == (
        reply.render(copy, sender="x@example.org"), reply.render_html(copy, sender="x@example.org"))
    text, html = reply.render_both()
    assert "REPORT" in text and "REPORT" in html  # the STATUS report follows the reply


def test_each_section_is_translated_once_for_both_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    reply = _reply("fr")
    calls: list[SectionReply] = []
    translated = MailReply._translated

    def counting(self: MailReply, section: SectionReply) -> SectionReply:
        calls.append(section)
        return translated(self, section)

    monkeypatch.setattr(reply_module.MailReply, "_translated", counting)
    reply.render_both()
    assert calls == reply.sections
