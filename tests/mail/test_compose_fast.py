"""The common mail is written without the email package (gm.mail.compose, issue 21): its
bytes must be exactly those the email package writes. Compared on many generated mails."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from gm.mail import compose
from gm.mail.compose import build_message

ALPHABET = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ 0123456789 .,;:!?=-_()[]<>\"'/\\\t é ü ß ø € 中 \u00a0"


DIRECT: list[bool] = []  # whether each mail compared took the direct way


def both(**kw: object) -> tuple[bytes, bytes]:
    """(what build_message writes, what the email package writes) for the same mail."""
    original = compose._plain_bytes
    fast = build_message(**kw)  # type: ignore[arg-type]
    DIRECT.append(_plain(kw))
    try:
        compose._plain_bytes = lambda fields, text, html, mid: compose._email_package_bytes(  # type: ignore[assignment]
            fields, text, html, mid, ())
        slow = build_message(**kw)  # type: ignore[arg-type]
    finally:
        compose._plain_bytes = original  # type: ignore[assignment]
    return fast, slow


def _plain(kw: dict[str, object]) -> bool:
    calls: list[bool] = []
    check = compose._plain_fields

    def spy(*a: object) -> bool:
        calls.append(check(*a))  # type: ignore[arg-type]
        return calls[-1]

    compose._plain_fields = spy  # type: ignore[assignment]
    try:
        build_message(**kw)  # type: ignore[arg-type]
    finally:
        compose._plain_fields = check  # type: ignore[assignment]
    return calls == [True] and not kw.get("attachments")


def text(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randrange(0, 12)):
        n = rng.choice([0, 1, 5, 40, 75, 76, 77, 78, 79, 80, 150, 300])
        line = "".join(rng.choice(ALPHABET) for _ in range(n))
        lines.append(line + rng.choice(["", " ", "\t", "=", "."]))
    if rng.random() < 0.2:
        lines.append("From the start")
    if rng.random() < 0.2:
        lines.append(".")
    return rng.choice(["\n", "\r\n", "\r"]).join(lines) + rng.choice(["", "\n", "\n\n", "\r\n"])


def test_a_reply_takes_the_direct_way_and_has_the_email_packages_bytes() -> None:
    kw = dict(from_addr="gm@example.org", to=["sw@example.org"], subject="Re: orders",
              text="OK  recon Livland\n", html="<p>OK</p>\n", message_id="<gm.abc@example.org>",
              in_reply_to="<m1@player.example>", references=("<m1@player.example>",),
              game_id="pb1", date=datetime(2026, 1, 1, tzinfo=UTC))
    fields = [("From", "gm@example.org"), ("To", "sw@example.org"), ("Subject", "Re: orders")]
    assert compose._plain_fields(fields, ["gm@example.org", "sw@example.org"])
    fast, slow = both(**kw)
    assert fast == slow


def test_generated_mails_have_the_same_bytes_either_way() -> None:
    rng = random.Random(21)
    DIRECT.clear()
    for _ in range(600):
        subject = rng.choice(["Re: orders", "Re: your orders for pb1", "Re:  two  spaces",
                              "Re: " + "x" * rng.randrange(50, 90), "Re: =?utf-8?q?x?=",
                              "Re: été", " Re: lead", "Re: (pb1) [x] <y> \"z\"", "Re: a\tb", ""])
        to = rng.choice([["sw@example.org"], ["a.b+c@mail.example.org", "d_e@x-y.example"],
                         ["Some One <one@example.org>"], ["\"Quoted, Name\" <q@example.org>"],
                         ["x@example.org"] * 2, [f"p{i}@example.org" for i in range(8)]])
        refs = tuple(f"<m{i}.{rng.randrange(10**6)}@player.example>"
                     for i in range(rng.choice([0, 1, 2, 3])))
        kw = dict(from_addr=rng.choice(["gm@example.org", "GM <gm@example.org>"]), to=to,
                  subject=subject, text=text(rng), html=rng.choice([None, text(rng), "<p>x</p>"]),
                  message_id=f"<gm.{rng.randrange(10**9):x}@example.org>",
                  in_reply_to=rng.choice([None, "<m1@player.example>", refs[-1] if refs else None]),
                  references=refs, game_id=rng.choice([None, "pb1", "pax-britannica-long-name"]),
                  date=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=rng.randrange(10**8)))
        fast, slow = both(**kw)
        assert fast == slow, kw
    assert sum(DIRECT) >= 30, f"{sum(DIRECT)} generated mails took the direct way: too few compared"


def test_unsafe_addresses_are_refused_as_before() -> None:
    with pytest.raises(compose.UnsafeHeaderError):
        build_message(from_addr="gm@example.org", to=["a@example.org, b@example.org"], subject="x",
                      text="x", message_id="<gm.1@example.org>")
