"""Bugs the bad-input corpus found, each pinned by the smallest mail that showed it.

The corpus (test_corpus.py) runs them too; these say in one place what broke and why.
"""

from __future__ import annotations

import time

from gm.mail.classify import MailClass, classify
from gm.mail.mime import decode
from tests.data.mail.generate import ANNA, HEAD, plain

RECON = HEAD + "recon Livland\n"


def test_an_encoded_word_in_a_from_name_never_becomes_a_recipient() -> None:
    """'=?utf-8?Q?Anna=0D=0ABcc:_victim@example.com?= <anna@...>' used to answer the victim.

    The header was decoded before it was split into addresses, so the ':' of
    the decoded text opened an address group and the reply went to
    ``_victim@example.com?=``.
    """
    for header in ("=?utf-8?Q?Anna=0D=0ABcc:_victim@example.com?= <anna@example.se>",
                   "=?utf-8?B?QW5uYSwgdmljdGltQGV4YW1wbGUuY29tLA==?= <anna@example.se>"):
        mail = decode(plain(1, RECON, sender=header))
        assert mail.from_addr == ANNA and mail.reply_address == ANNA
        assert "victim" in mail.from_name  # kept as the (harmless) display name
    hidden = decode(plain(2, RECON, sender="=?utf-8?Q?anna=40example=2Ese?="))
    assert hidden.from_addr == ""  # an encoded word is never an address (RFC 2047 §5)


def test_a_read_receipt_is_never_answered() -> None:
    """A multipart/report of type disposition-notification (RFC 8098) used to be answered.

    Only delivery-status reports counted as automatic, so a player's client
    sending a read receipt for our reply got a "No orders were found" reply
    back, which could ask for another receipt.
    """
    raw = plain(3, "Your message was displayed.\n").replace(
        b'Content-Type: text/plain; charset="utf-8"',
        b"Content-Type: multipart/report; report-type=disposition-notification; boundary=x")
    assert classify(decode(raw)) is MailClass.AUTO_REPLY


def test_a_nul_byte_in_a_charset_label_does_not_crash_decoding() -> None:
    """charset="utf-8<NUL>" made codecs.lookup raise ValueError, which decode() let through.

    decode() runs before the mail is even stored, so the daemon failed on the
    same mail at every poll. Found by tests/mail/test_mime_robust.py's fuzzer.
    """
    raw = plain(4, RECON, charset="utf-8\x00", codec="utf-8")
    assert "recon Livland" in decode(raw).text


def test_a_mail_with_no_sender_address_is_ignored_not_answered_to_nobody(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A mail with no usable From used to be acted on, with its reply queued to ''.

    The orders were stored, a copy went to the seat, and the outbox held a
    mail to the empty address that could only fail and alarm the moderator.
    """
    from tests.e2e.corpus_game import (
        Snapshot,
        build_template,
        copy_of,
        deliver,
        inbound_rows,
        outbound_rows,
    )

    build_template(tmp_path / "t.db")
    ctx = copy_of(tmp_path / "t.db", tmp_path / ".")
    before = Snapshot.take(ctx)
    raw = b"To: gm@pbem.example\r\nSubject: orders\r\nMessage-ID: <nofrom@x>\r\n\r\n" + RECON.encode()
    deliver(ctx, raw)
    row = inbound_rows(ctx)[-1]
    assert (row.status, row.note) == ("ignored", "no sender address (no usable From or Reply-To)")
    assert Snapshot.take(ctx) == before
    # nothing goes to nobody; the right password in it still reaches the seat's owner as a
    # warning (issue 22: "a right password from a strange address always reaches the owner")
    sent = outbound_rows(ctx)
    assert [(m.kind, m.recipients) for m in sent] == [("warning", ["anna@example.se"])]


def test_a_megabyte_line_or_a_pasted_log_is_refused_quickly(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A 2 MB line after a valid sign-on took 221 s (the "did you mean" edit distance).

    Every line not understood is compared with every command word, in time
    quadratic in its length; 5000 short junk lines cost 10 s. Lines over
    500 characters and lines past the 200th are now refused unread.
    """
    from tests.e2e.corpus_game import build_template, copy_of, deliver, outbound_rows

    build_template(tmp_path / "t.db")
    ctx = copy_of(tmp_path / "t.db", tmp_path / ".")
    body = RECON + "x" * 2_000_000 + "\n" + "pad\n" * 20_000
    start = time.process_time()
    deliver(ctx, plain(5, body))
    assert time.process_time() - start < 20  # was minutes; ~1 s here
    text = decode(outbound_rows(ctx)[-1].raw).text
    assert "OK  recon Livland" in text
    assert "the line is too long (2000000 characters; an order has at most 500)" in text
    assert "too many lines: only the first 200 were read, 19802 more were not" in text
    assert len(text) < 200_000  # the reply quotes the start of the long line, not all of it


def test_a_broken_content_type_is_read_as_text_not_dropped_as_an_attachment() -> None:
    """'Content-Type: text/' or a multipart with no boundary hid the orders as an attachment.

    RFC 2045 §5.2: a syntactically invalid Content-Type is treated as text/plain.
    """
    for ctype in (b"text/; ;;; charset", b"multipart/mixed"):
        raw = plain(6, RECON).replace(b'text/plain; charset="utf-8"', ctype)
        mail = decode(raw)
        assert "recon Livland" in mail.text and mail.attachments == ()
