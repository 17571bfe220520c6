"""A mail with a text, an HTML part and attachments (a report) is written without the email
package (gm.mail.compose._parts_bytes, issue 21): its bytes must be exactly those the email
package writes. Compared on many generated mails here; on real reports of real games in
tests/service/test_report_mail_bytes.py."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from gm.mail import compose
from gm.mail.compose import Attachment, build_message
from tests.mail.test_compose_fast import text

DIRECT: list[bool] = []


def both(**kw: object) -> tuple[bytes, bytes]:
    """(what build_message writes, what the email package writes) for the same mail; notes in
    DIRECT whether the first was written without the email package."""
    original = compose._parts_bytes
    taken: list[bool] = []

    def spy(*a: object) -> bytes | None:
        out = original(*a)  # type: ignore[arg-type]
        taken.append(out is not None)
        return out

    compose._parts_bytes = spy  # type: ignore[assignment]
    try:
        fast = build_message(**kw)  # type: ignore[arg-type]
        compose._parts_bytes = lambda *a: None  # type: ignore[assignment]
        slow = build_message(**kw)  # type: ignore[arg-type]
    finally:
        compose._parts_bytes = original  # type: ignore[assignment]
    DIRECT.append(taken == [True])
    return fast, slow


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    DIRECT.clear()
    yield


def attachment(rng: random.Random) -> Attachment:
    kind = rng.choice(["pending", "bytes", "text", "calendar"] * 5 + ["odd"])
    if kind == "pending":
        return Attachment(b"", rng.choice(["image/png", "image/svg+xml"]),
                          rng.choice(["map.png", "map.svg", "a-b_c.1.png"]),
                          cid=rng.choice([None, f"map.{rng.randrange(16**16):x}@example.org"]),
                          render_from=rng.choice(["map.svg", "map.json"]))
    if kind == "bytes":
        data = bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 56, 57, 58, 300, 4000])))
        return Attachment(data, rng.choice(["application/x-gm-map+json", "image/png",
                                            "application/octet-stream"]),
                          rng.choice(["map.json", "x.bin"]),
                          cid=rng.choice([None, None, "pic.1@example.org"]))
    if kind == "text":
        return Attachment(text(rng), rng.choice(["text/html", "text/plain"]),
                          rng.choice(["history.html", "notes.txt"]))
    if kind == "calendar":
        body = rng.choice(["BEGIN:VCALENDAR\r\nMETHOD:PUBLISH\r\nEND:VCALENDAR\r\n",
                           "SUMMARY:Été " + "x" * rng.choice([10, 80, 200]) + "\r\n", text(rng)])
        return Attachment(body, "text/calendar", "deadline.ics", params={"method": "PUBLISH"})
    # what the direct way does not write: the email package writes it, as before
    return rng.choice([
        Attachment(b"x", "image/png", "carte été.png"),
        Attachment(b"x", "image/png", "a" * 90 + ".png"),
        Attachment("x", "text/plain", "n.txt", params={"format": "flowed; x"}),
        Attachment(b"x", "image/png", "m.png", cid="a=b/c@example.org"),
        Attachment(b"", "image/png", "m.png", render_from="carte été.svg"),
    ])


def test_a_report_shaped_mail_takes_the_direct_way_and_has_the_email_packages_bytes() -> None:
    atts = (Attachment(b"", "image/png", "map.png", cid="map.1@example.org", render_from="map.svg"),
            Attachment(b"", "image/svg+xml", "map.svg", render_from="map.json"),
            Attachment(b'{"view": {}}' * 30, "application/x-gm-map+json", "map.json"),
            Attachment("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", "text/calendar", "deadline.ics",
                       params={"method": "PUBLISH"}),
            Attachment("<p>été</p>\n", "text/html", "history.html"))
    fast, slow = both(from_addr="gm@example.org", to=["sw@example.org"],
                      subject="[b1] 1700-autumn: report for sweden", text="Väster\n",
                      html="<p>Väster</p>\n", message_id="<gm.abc@example.org>", game_id="b1",
                      date=datetime(2026, 1, 1, tzinfo=UTC), attachments=atts)
    assert DIRECT == [True]
    assert fast == slow


def test_generated_mails_with_attachments_have_the_same_bytes_either_way() -> None:
    rng = random.Random(2121)
    for _ in range(500):
        atts = tuple(attachment(rng) for _ in range(rng.choice([1, 1, 2, 3, 4, 5, 6])))
        kw = dict(from_addr="gm@example.org",
                  to=rng.choice([["sw@example.org"], ["a@example.org", "b@example.org"]] * 4
                                + [["Some One <one@example.org>"]]),
                  subject=rng.choice(["[b1] report for sweden"] * 8 + ["Re: été", "x" * 90]),
                  text=text(rng), html=rng.choice([text(rng), "<p>x</p>"] * 4 + [None]),
                  message_id=f"<gm.{rng.randrange(10**9):x}@example.org>",
                  game_id=rng.choice([None, "b1"]),
                  date=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=rng.randrange(10**8)),
                  attachments=atts)
        fast, slow = both(**kw)
        assert fast == slow, kw
    assert sum(DIRECT) >= 150, f"{sum(DIRECT)} generated mails took the direct way: too few compared"
    assert not all(DIRECT)  # and some did not (odd names, non-plain headers, no HTML)


def test_the_quoted_printable_body_is_quoprimimes() -> None:
    """compose._qp_encode (issue 21) against the email package's encoder on bodies of every
    awkward kind: long lines, lines of 76 to 80, trailing spaces and tabs, '=', accents,
    characters str.splitlines would break at (VT, FS, NEL)."""
    from email import quoprimime

    rng = random.Random(77)
    for i in range(3000):
        raw = text(rng) if i % 2 else "".join(
            rng.choice(" \t=.aé\x0b\x85\x1c€x\n") for _ in range(rng.randrange(0, 400)))
        lines = raw.replace("\r\n", "\n").replace("\r", "\n").encode("utf-8").splitlines()
        body = (b"\n".join(lines) + b"\n").decode("latin-1")
        for case in (body, body.rstrip("\n") + rng.choice(["", " ", "\t", "="])):
            assert compose._qp_encode(case) == quoprimime.body_encode(case, 78), repr(case)
