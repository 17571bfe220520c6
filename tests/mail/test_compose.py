"""build_message / make_message_id: what a receiving mail client and our own loop check see."""

from __future__ import annotations

import pytest

from gm.mail.classify import MailClass
from gm.mail.compose import UnsafeHeaderError, build_message, make_message_id
from gm.mail.mime import decode

SECRET = b"test-secret-0123456789abcdef"  # the instance's Message-ID key (gm.service.secret)


def _build(**kw):
    args = dict(
        from_addr="Baltica GM <gm@pbem.example>",
        to=["Anna Svensson <anna@example.se>"],
        subject="Re: orders",
        text="==== gm reply baltica42 1701-summer ====\nmove from Skåne: accepted\n",
        message_id=make_message_id("reply:17", "pbem.example", SECRET),
        in_reply_to="<abc@example.se>",
        references=["<root@example.se>", "<abc@example.se>"],
        game_id="baltica42",
    )
    args.update(kw)
    return build_message(**args)


def test_message_id_is_stable_for_a_key_and_differs_between_keys():
    assert make_message_id("reply:17", "pbem.example", SECRET) == make_message_id("reply:17", "pbem.example", SECRET)
    assert make_message_id("reply:17", "pbem.example", SECRET) != make_message_id("reply:18", "pbem.example", SECRET)
    assert make_message_id("reply:17", "pbem.example", SECRET).endswith("@pbem.example>")


def test_message_id_is_keyed_so_the_key_cannot_be_guessed_back():
    """Issue 22: an unkeyed hash of ``reply:17`` was inverted in under a second by trying keys."""
    import hashlib

    mid = make_message_id("reply:17", "pbem.example", SECRET)
    guesses = {f"<gm.{hashlib.sha256(f'reply:{n}'.encode()).hexdigest()[:32]}@pbem.example>"
               for n in range(1000)}
    assert mid not in guesses
    assert make_message_id("reply:17", "pbem.example", b"another-instance-secret!") != mid
    with pytest.raises(ValueError):
        make_message_id("reply:17", "pbem.example", b"")


def test_round_trip_through_our_own_decoder():
    mail = decode(_build())
    assert mail.message_id == make_message_id("reply:17", "pbem.example", SECRET)
    assert mail.in_reply_to == "<abc@example.se>"
    assert mail.references == ("<root@example.se>", "<abc@example.se>")
    assert "move from Skåne: accepted" in mail.text
    assert mail.header("Auto-Submitted") == "auto-generated"
    assert mail.header("X-GM-Game") == "baltica42"
    assert mail.to == ("anna@example.se",)


def test_our_own_mail_coming_back_is_a_loop():
    assert decode(_build()).header("X-GM-Game") == "baltica42"
    from gm.mail.classify import classify

    assert classify(decode(_build())) is MailClass.LOOP
    assert classify(decode(_build(game_id=None))) is MailClass.LOOP  # Auto-Submitted alone


def test_header_injection_through_the_subject_is_folded():
    raw = _build(subject="Re: hi\r\nBcc: victim@example.org\r\n\r\nfake body")
    head = raw.split(b"\r\n\r\n", 1)[0]
    assert b"\r\nBcc:" not in head
    assert decode(raw).subject == "Re: hi Bcc: victim@example.org fake body"


@pytest.mark.parametrize(
    "address",
    ["anna@example.se\r\nBcc: victim@example.org", "a@x.org, b@y.org", "<a@x.org>>", "nobody"],
)
def test_unsafe_addresses_are_refused(address):
    with pytest.raises(UnsafeHeaderError):
        _build(to=[address])


def test_extra_headers_cannot_override_ours():
    with pytest.raises(UnsafeHeaderError):
        _build(headers={"Auto-Submitted": "no"})
    with pytest.raises(UnsafeHeaderError):
        _build(headers={"X-Evil\r\nBcc": "x"})
    assert decode(_build(headers={"X-GM-Kind": "reply\nBcc: x"})).header("X-GM-Kind") == "reply Bcc: x"


def test_html_alternative_and_utf8_names():
    mail = decode(_build(html="<p>Skåne</p>", to=["Åsa Öberg <asa@example.se>"]))
    assert mail.body_kind.value == "plain"
    assert "Skåne" in mail.text
    raw = _build(to=["Åsa Öberg <asa@example.se>"])
    assert raw.isascii()  # 7-bit on the wire: encoded words and quoted-printable


def test_headers_made_once_give_the_bytes_the_stock_policy_gives(monkeypatch):
    """Issue 21: the header registry that makes each header class once and remembers each
    parsed (name, value) and its fold, and the generator that writes a body in one piece,
    must not change a byte of any mail, also when a header is met again (the second mail
    reuses what the first parsed and folded)."""
    from datetime import UTC, datetime
    from email.policy import SMTP

    from gm.mail import compose
    from gm.mail.compose import Attachment

    def mails():
        files = (Attachment(b"", "image/png", "map.png", cid="map.1@pbem.example", render_from="map.svg"),
                 Attachment(b"", "image/svg+xml", "map.svg", render_from="map.json"),
                 Attachment(b'{"a": 1}', "application/x-gm-map+json", "map.json"),
                 Attachment("BEGIN:VCALENDAR\nEND:VCALENDAR\n", "text/calendar", "deadline.ics",
                            params={"method": "PUBLISH"}),
                 Attachment("<p>été</p>", "text/html", "history.html"))
        long_subject = "Re: " + "ordres de la Suède pour l'été 1701, " * 4
        at = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)  # not now: the same Date in every build
        return [_build(date=at),
                _build(date=at, subject=long_subject, to=["Åsa Öberg <asa@example.se>", "bo@example.se"],
                       text="déplacer de Skåne\n" * 40, html="<p>Skåne → Själland</p>" * 30,
                       attachments=files),
                _build(date=at, subject=long_subject, text="déplacer de Skåne\n", html="<p>x</p>",
                       attachments=files, headers={"X-Extra": "ñ value"}),
                _build(date=at, html=None, attachments=files[3:])]

    ours = mails() + mails()
    monkeypatch.setattr(compose, "POLICY", SMTP)
    monkeypatch.setattr(compose, "_as_bytes", lambda msg: msg.as_bytes(policy=SMTP))
    assert ours == mails() + mails()


@pytest.mark.parametrize("to", [["sud@new.example"], ["Åsa Öberg <asa@example.se>"],
                                [f"player{n}@example.org" for n in range(8)]])
def test_a_mail_readdressed_is_the_mail_built_for_the_new_address(to):
    """A mail queued again for a seat's new address (gm.service.undelivered): the bytes
    build_message writes for that address, Message-ID and date, the text unchanged; an
    address that could smuggle a recipient is refused as build_message refuses it."""
    from datetime import UTC, datetime

    from gm.mail.compose import readdressed

    again = make_message_id("requeue:17", "pbem.example", SECRET)
    date = datetime(2026, 2, 1, 9, 30, tzinfo=UTC)
    assert readdressed(_build(), to=to, message_id=again, date=date) == _build(
        to=to, message_id=again, date=date)
    with pytest.raises(UnsafeHeaderError):
        readdressed(_build(), to=["a@x.org, b@y.org"], message_id=again, date=date)


def test_a_report_readdressed_keeps_its_parts_and_their_boundaries():
    from datetime import UTC, datetime

    from gm.mail.compose import readdressed

    raw = _build(html="<p>Skåne</p>")
    again = readdressed(raw, to=["sud@new.example"], message_id="<x@pbem.example>",
                        date=datetime(2026, 2, 1, tzinfo=UTC))
    assert again.split(b"\r\n\r\n", 1)[1] == raw.split(b"\r\n\r\n", 1)[1]
    mail = decode(again)
    assert mail.to == ("sud@new.example",) and mail.message_id == "<x@pbem.example>"
    assert "move from Skåne: accepted" in mail.text
