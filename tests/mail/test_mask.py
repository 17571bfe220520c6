"""gm.mail.mask: the passwords of a stored mail, masked in every form a mail can hold them."""

from __future__ import annotations

from email.message import EmailMessage

from gm.mail.mask import find_secrets, mask_mail
from gm.mail.mime import decode
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
    msg.set_content("recon Livland\n\n> Sign on with:  POWER sweden kestrel-tide-oak-42\n")
    msg.add_alternative("<p>recon Livland</p><blockquote><p>POWER sweden <b>kestrel-tide-oak-42"
                        "</b></p></blockquote>", subtype="html")
    masked = mask_mail(bytes(msg))
    assert b"kestrel-tide-oak-42" not in masked
    assert "kestrel-tide-oak-42" not in _readable(masked)
    assert decode(masked).message_id == "<m1@example.se>"


def test_the_passwords_the_parser_read_are_masked_wherever_they_stand() -> None:
    raw = plain(2, "GAME baltica42\nPOWER sweden hunter2\n\nmy password hunter2 is secret, ok?\n")
    masked = mask_mail(raw, known={"hunter2"})
    assert "hunter2" not in _readable(masked)


def test_a_mail_without_a_password_is_left_byte_for_byte_and_masking_twice_changes_nothing() -> None:
    raw = plain(3, "GAME baltica42\nSTATUS please\nThe power of Sweden\n")
    assert mask_mail(raw) == raw
    once = mask_mail(plain(4, "POWER sweden hunter2\n"))
    assert mask_mail(once) == once
    assert find_secrets(decode(once).text) == set()


def test_a_password_that_cannot_be_masked_takes_the_body_with_it() -> None:
    """Text parts are rewritten; an application part is not, so the body goes (headers stay)."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "anna@example.se", "gm@pbem.example", "orders"
    msg.set_content("GAME baltica42\nPOWER sweden hunter2-long\n")
    msg.add_attachment(b"POWER sweden hunter2-long\n", maintype="application", subtype="octet-stream",
                       filename="orders.bin")
    masked = mask_mail(bytes(msg))
    assert b"hunter2-long" not in masked
    assert "hunter2-long" not in _readable(masked)
    assert "could not be masked" in decode(masked).text and decode(masked).subject == "orders"
