"""gm.mail.mask: the passwords of a stored mail, masked in every form a mail can hold them."""

from __future__ import annotations

from email.message import EmailMessage

from gm.mail.mask import find_secrets, mask_mail
from gm.mail.mime import DecodedMail, decode
from tests.data.mail.generate import plain


def _readable(raw: bytes) -> str:
    mail = decode(raw)
    return raw.decode("utf-8", "replace") + mail.text + mail.subject


def test_sign_on_moderator_and_password_lines_are_masked_in_any_transfer_encoding() -> None:
    body = ("GAME baltica42\nPOWER sweden hunter2\nrecon Livland\nPASSWORD kestrel-tide-oak-42\n"
            "MODERATOR modsecret\nSIGNON coalition s-secret\nPUISSANCE suede motdepasse-fr\n")
    for cte in ("8bit", "quoted-printable", "base64"):
        masked = mask_mail(plain(1, body, cte=cte))
        text = decode(masked).text
        for secret in ("hunter2", "kestrel-tide-oak-42", "modsecret", "s-secret", "motdepasse-fr"):
            assert secret not in _readable(masked), (cte, secret)
        assert "POWER sweden ********" in text and "recon Livland" in text  # the rest reads the same


def test_quoted_lines_html_parts_and_headers_are_masked_too() -> None:
    msg = EmailMessage()
    msg["From"], msg["To"] = "anna@example.se", "gm@pbem.example"
    msg["Subject"] = "Re: my password is kestrel-tide-oak-42"
    msg["Message-ID"] = "<m1@example.se>"
    msg.set_content("recon Livland\n\n> Sign on with:  POWER sweden kestrel-tide-oak-42\n"
                    "> > POWER denmark dane-oak-77\n")  # quoted, no colon: only its '>' leads in
    msg.add_alternative("<p>recon Livland</p><blockquote><p>POWER sweden <b>kestrel-tide-oak-42"
                        "</b></p></blockquote>", subtype="html")
    masked = mask_mail(bytes(msg))
    assert b"kestrel-tide-oak-42" not in masked
    assert "kestrel-tide-oak-42" not in _readable(masked)
    assert "dane-oak-77" not in _readable(masked)
    assert decode(masked).message_id == "<m1@example.se>"


def test_the_passwords_the_parser_read_are_masked_wherever_they_stand() -> None:
    """A known password is masked where no sign-on line shows it, on both paths."""
    for cte in ("8bit", "quoted-printable"):
        raw = plain(2, "GAME baltica42\nrecon Livland\n\nmy password hunter2 is secret, ok?\n", cte=cte)
        masked = mask_mail(raw, known={"hunter2"})
        assert "hunter2" not in _readable(masked), cte


def test_a_mail_without_a_password_is_left_byte_for_byte_and_masking_twice_changes_nothing() -> None:
    raw = plain(3, "GAME baltica42\nSTATUS please\nThe power of Sweden\n")
    assert mask_mail(raw) == raw
    once = mask_mail(plain(4, "POWER sweden hunter2\n"))
    assert mask_mail(once) == once
    assert find_secrets(decode(once).text) == set()


def with_attachment(text: str) -> bytes:
    """A mail of ``text`` with a sign-on in an application part (orders.bin)."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "anna@example.se", "gm@pbem.example", "orders"
    msg.set_content(text)
    msg.add_attachment(b"POWER sweden hunter2-long\n", maintype="application", subtype="octet-stream",
                       filename="orders.bin")
    return bytes(msg)


def test_a_password_that_cannot_be_masked_takes_the_body_with_it() -> None:
    """Text parts are rewritten; an application part is not, so the body goes (headers stay)."""
    masked = mask_mail(with_attachment("GAME baltica42\nPOWER sweden hunter2-long\n"))
    assert b"hunter2-long" not in masked
    assert "hunter2-long" not in _readable(masked)
    assert "could not be masked" in decode(masked).text and decode(masked).subject == "orders"


def test_a_password_in_an_encoded_word_header_is_masked() -> None:
    """A header holding a password only as an RFC 2047 encoded word is masked, on both paths."""
    import base64

    subject = "=?utf-8?b?" + base64.b64encode("lösen hunter2-long".encode()).decode() + "?="
    for cte in ("8bit", "quoted-printable"):
        masked = mask_mail(plain(7, "POWER sweden hunter2-long\n", cte=cte, subject=subject))
        assert "hunter2-long" not in decode(masked).subject, cte


def test_a_sign_on_standing_only_in_an_attachment_is_found() -> None:
    """Parts that are not text are searched for sign-on lines: their password never stays."""
    import email
    from email.policy import default

    kept = email.message_from_bytes(mask_mail(with_attachment("GAME baltica42\nmy orders are attached\n")),
                                    policy=default)
    payloads = [p.get_payload(decode=True) or b"" for p in kept.walk() if not p.is_multipart()]
    assert not any(b"hunter2-long" in p for p in payloads)


def _general(raw: bytes, known: set[str]) -> bytes:
    """What the general path (the email package) makes of ``raw``."""
    from unittest import mock

    with mock.patch("gm.mail.mask._plain_layout", return_value=None):
        return mask_mail(raw, known)


def test_a_plain_utf8_mail_is_masked_on_its_bytes_and_reads_as_the_general_path_makes_it() -> None:
    """Issue 21: one text/plain part in UTF-8 or ASCII, 7bit or 8bit, is masked without the
    email package; the text, the subject and the headers read exactly as the general path's."""
    from gm.mail.mask import _plain_layout

    body = ("Hej GM,\nGAME baltica42\nPOWER sweden hunter2-long\nrecon Livland\n"
            "> POWER sweden gamla-lösen\nmy password hunter2-long, ok? ändå\n-- \nAnna\n")
    for cte in ("8bit", "7bit"):
        raw = plain(5, body if cte == "8bit" else body.replace("ö", "o").replace("ä", "a"), cte=cte,
                    subject="orders hunter2-long")
        assert _plain_layout(raw) is not None
        masked, general = mask_mail(raw, {"hunter2-long"}), _general(raw, {"hunter2-long"})
        for secret in ("hunter2-long", "gamla-lösen", "gamla-losen"):
            assert secret not in _readable(masked)
        ours, theirs = decode(masked), decode(general)
        assert ours.text == theirs.text and ours.subject == theirs.subject == "orders ********"
        def fields(mail: DecodedMail) -> list[tuple[str, str]]:
            return [h for h in mail.headers if not h[0].lower().startswith("content-")]

        assert fields(ours) == fields(theirs)
        assert masked.replace(b"********", b"hunter2-long") == raw.replace(  # the rest byte for byte
            "gamla-lösen".encode() if cte == "8bit" else b"gamla-losen", b"hunter2-long")


def test_mails_the_bytes_do_not_show_as_read_take_the_general_path() -> None:
    from gm.mail.mask import _plain_layout

    body = "GAME baltica42\nPOWER sweden hunter2-long\n"
    assert _plain_layout(plain(6, body, cte="quoted-printable")) is None
    assert _plain_layout(plain(6, body, cte="base64")) is None
    assert _plain_layout(plain(6, body, charset="iso-8859-1")) is None
    assert _plain_layout(plain(6, body, extra="Content-Disposition: inline")) is None
    flowed = plain(6, body).replace(b'charset="utf-8"', b'charset="utf-8"; format=flowed')
    assert _plain_layout(flowed) is None
    bare_cr = plain(6, body).replace(b"\r\nPOWER", b"\rPOWER")  # a line break the decoder reads
    assert _plain_layout(bare_cr) is None
    no_colon = plain(6, body).replace(b"Subject:", b"Subject", 1)  # the email package: body starts
    assert _plain_layout(no_colon) is None
    for raw in (bare_cr, flowed, plain(6, body, cte="quoted-printable")):
        assert "hunter2-long" not in _readable(mask_mail(raw, {"hunter2-long"}))
