"""Reports and replies as multipart/alternative mail: a text part that reads as before, an
HTML part with the same facts, inline CSS only, no scripts and no remote images."""

from __future__ import annotations

import re

import pytest

from gm.db.engine import session_scope
from gm.mail.compose import Attachment, build_message
from gm.service import moderator as mod
from gm.service.adjudicate import close_phase
from gm.service.games import current_phase, get_game
from gm.service.reports import queue_phase_reports
from tests.pipeline.conftest import deliver, mail
from tests.present.support import SWEDISH_ORDERS, html_words, mails, new_baltica, parts, play, words

# Words only the HTML carries: the page title repeats the game and phase; nothing else may differ.
HTML_ONLY: set[str] = set()


def assert_clean_html(html: str, inline: dict) -> None:  # type: ignore[type-arg]
    lowered = html.lower()
    assert "<script" not in lowered and "javascript:" not in lowered
    assert "<style" not in lowered and "<link" not in lowered, "inline CSS only"
    assert not re.search(r"\son\w+\s*=", lowered), "no event handlers"
    for src in re.findall(r'src="([^"]*)"', html):
        assert src.startswith("cid:"), f"remote or embedded image {src}"
        assert src[4:] in inline, f"{src} names no part of the mail"
    assert 'name="viewport"' in html, "readable on a phone"


def assert_same_facts(text: str, html: str) -> None:
    in_text, in_html = words(text), html_words(html)
    assert in_text - in_html == set(), f"facts only in the text part: {sorted(in_text - in_html)}"
    assert in_html - in_text - HTML_ONLY == set(), f"only in HTML: {sorted(in_html - in_text)}"


def test_reports_are_text_and_html_with_the_same_facts_in_each_language(ctx) -> None:  # type: ignore[no-untyped-def]
    new_baltica(ctx)
    play(ctx, "b1", 3, {"sweden": SWEDISH_ORDERS})
    reports = mails(ctx, kind="report")
    assert {r.recipients[0] for r, _ in reports} >= {"karl@example.org", "pyotr@example.org",
                                                      "mod@example.org"}
    for row, msg in reports:
        assert msg.get_content_type() == "multipart/mixed"
        alt = msg.get_payload()[0]
        assert alt.get_content_type() == "multipart/alternative"
        assert [p.get_content_type() for p in alt.get_payload()][0] == "text/plain", "text first"
        p = parts(msg)
        assert p["text"].startswith("==== gm report b1 "), "the text part reads as before"
        assert_clean_html(p["html"], p["inline"])
        assert_same_facts(p["text"], p["html"])
        lang = 'lang="fr"' if "pyotr" in row.recipients[0] else 'lang="en"'
        assert lang in p["html"]
    french = [parts(m)["text"] for r, m in reports if r.recipients == ["pyotr@example.org"]]
    assert all("Date limite" in t or "terminée" in t for t in french)


def test_html_escapes_what_players_and_moderators_wrote(ctx) -> None:  # type: ignore[no-untyped-def]
    new_baltica(ctx)
    with session_scope(ctx.engine) as s:
        mod.ruling(ctx, s, get_game(s, "b1"), actor="mod", text="<b>Karl</b> & <script>x()</script>")
    play(ctx, "b1", 1)
    _, msg = mails(ctx, kind="report", to="karl@example.org")[-1]
    p = parts(msg)
    assert "<script>x()" not in p["html"] and "&lt;script&gt;x()&lt;/script&gt;" in p["html"]
    assert "<b>Karl</b> & <script>x()</script>" in p["text"]


def test_reply_is_text_and_html_with_the_same_lines(ctx) -> None:  # type: ignore[no-untyped-def]
    new_baltica(ctx)
    body = "GAME b1\nPOWER sweden sw-pw\nrecon Livland\nmove from Skane: Karl XII to Smaland\nfly to the moon\n"
    deliver(ctx, mail(body, sender="karl@example.org"))
    (row, msg), = mails(ctx, kind="reply")
    p = parts(msg)
    assert msg.get_content_type() == "multipart/alternative"
    assert "OK" in p["text"] and "??" in p["text"]
    assert_clean_html(p["html"], p["inline"])
    assert_same_facts(p["text"], p["html"])
    assert row.in_reply_to


@pytest.mark.parametrize("html", [None, "<p>x</p><img src=\"cid:m@x.org\">"])
def test_the_same_mail_built_twice_is_the_same_bytes(html) -> None:  # type: ignore[no-untyped-def]
    """A crash between send and record re-sends the stored bytes; building again must agree too."""
    files = [Attachment(b"\x89PNG", "image/png", "map.png", cid="m@x.org"),
             Attachment("BEGIN:VCALENDAR\nEND:VCALENDAR\n", "text/calendar", "deadline.ics")]
    build = [build_message(from_addr="gm@x.org", to=["a@x.org"], subject="s", text="t", html=html,
                           message_id="<k@x.org>", attachments=files) for _ in range(2)]
    assert build[0].split(b"\r\nDate:")[1].split(b"\r\n", 1)[1] == build[1].split(b"\r\nDate:")[1].split(b"\r\n", 1)[1]


def test_reports_are_queued_once_under_one_message_id(ctx) -> None:  # type: ignore[no-untyped-def]
    """Queueing a phase's reports again (a retried transaction) adds no mail and no new id."""
    new_baltica(ctx)
    play(ctx, "b1", 1)
    before = [(r.message_id, r.raw) for r, _ in mails(ctx, kind="report")]
    with session_scope(ctx.engine) as s:
        game = get_game(s, "b1")
        current = current_phase(s, "b1")
        from sqlmodel import select

        from gm.db.models import Phase
        closed = s.exec(select(Phase).where(Phase.game_id == "b1", Phase.seq == current.seq - 1)).one()
        queue_phase_reports(ctx, s, game, closed, current, defaulted=[])
    assert [(r.message_id, r.raw) for r, _ in mails(ctx, kind="report")] == before
    assert len({m for m, _ in before}) == len(before)
    assert not close_phase(ctx, "b1", current.seq - 1, by="test").closed
