"""The awkward-mail corpus: every .eml decodes and classifies as its .expect.json says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gm.mail.mime import BodyKind, classify, decode

CORPUS = Path(__file__).resolve().parents[1] / "data" / "mail"
SERVICE = "gm@pbem.example"
CASES = sorted(p.stem for p in CORPUS.glob("*.eml"))


def test_the_corpus_has_at_least_40_mails():
    assert len(CASES) >= 40
    assert all((CORPUS / f"{name}.expect.json").exists() for name in CASES)


@pytest.mark.parametrize("name", CASES)
def test_corpus_mail(name: str) -> None:
    raw = (CORPUS / f"{name}.eml").read_bytes()
    expect = json.loads((CORPUS / f"{name}.expect.json").read_text(encoding="utf-8"))
    mail = decode(raw)
    assert classify(mail).value == expect["class"], expect.get("description")
    if "body_kind" in expect:
        assert mail.body_kind is BodyKind(expect["body_kind"])
    for fragment in expect.get("text_contains", []):
        assert fragment in mail.text
    for fragment in expect.get("text_excludes", []):
        assert fragment not in mail.text
    if "text_equals" in expect:
        assert mail.text == expect["text_equals"]
    if "text_starts_with" in expect:
        assert mail.text.startswith(expect["text_starts_with"])
    for key in ("from_addr", "from_name", "subject", "reply_address", "in_reply_to"):
        if key in expect:
            assert getattr(mail, key) == expect[key]
    if "plus_tag" in expect:
        assert mail.plus_tag(SERVICE) == expect["plus_tag"]
    if "references" in expect:
        assert list(mail.references) == expect["references"]
    if "message_id_synthetic" in expect:
        assert mail.message_id_synthetic is expect["message_id_synthetic"]
    if "date" in expect:
        assert mail.date is None
    else:
        assert mail.date is not None
    if "attachments" in expect:
        assert len(mail.attachments) == len(expect["attachments"])
        for got, want in zip(mail.attachments, expect["attachments"], strict=True):
            assert got.filename == want["filename"]
            assert got.content_type == want.get("content_type", got.content_type)
            assert got.size == want.get("size", got.size)


def test_a_synthetic_message_id_is_stable_and_depends_on_the_bytes():
    raw = (CORPUS / "15_no_message_id.eml").read_bytes()
    assert decode(raw).message_id == decode(raw).message_id
    assert decode(raw).message_id != decode(raw + b"x").message_id


def _with_attachment(size: int) -> bytes:
    import base64

    payload = base64.encodebytes(bytes(range(256)) * (size // 256)).replace(b"\n", b"\r\n")
    return (
        b"From: anna@example.se\r\nTo: gm+baltica42@pbem.example\r\nSubject: big\r\n"
        b"Message-ID: <big@example.se>\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: text/plain\r\n\r\nPOWER sweden hunter2\r\nrecon Livland\r\n"
        b'--b\r\nContent-Type: video/mp4\r\nContent-Disposition: attachment; filename="turn.mp4"\r\n'
        b"Content-Transfer-Encoding: base64\r\n\r\n" + payload + b"--b--\r\n"
    )


def test_a_5_mb_attachment_is_listed_and_the_orders_read():
    mail = decode(_with_attachment(5 * 1024 * 1024))
    assert not mail.too_large
    assert "recon Livland" in mail.text
    assert [(a.filename, a.size) for a in mail.attachments] == [("turn.mp4", 5 * 1024 * 1024)]


def test_a_mail_over_10_mb_is_too_large_but_its_headers_are_read():
    raw = _with_attachment(11 * 1024 * 1024)
    mail = decode(raw)
    assert mail.too_large and mail.size == len(raw)
    assert mail.text == "" and mail.attachments == ()
    assert mail.from_addr == "anna@example.se"
    assert mail.message_id == "<big@example.se>"
    assert mail.plus_tag(SERVICE) == "baltica42"


def test_the_size_limit_is_a_parameter():
    raw = (CORPUS / "01_plain_ascii_orders.eml").read_bytes()
    assert decode(raw, max_bytes=len(raw)).too_large is False
    assert decode(raw, max_bytes=len(raw) - 1).too_large is True
