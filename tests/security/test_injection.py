"""Player text can never become template code, HTML or a mail header."""

from __future__ import annotations

from email import message_from_bytes
from email.policy import compat32

import pytest

from gm.mail.compose import UnsafeHeaderError, build_message
from gm.service.context import ServiceContext
from gm.service.render import environment, templates_root
from tests.e2e.corpus_game import outbound_rows
from tests.security.conftest import ANNA, BORIS, SWEDEN, mails_to, send

HOSTILE = "{{ 7*7 }} {% raw %}{{ config }}{% endraw %} {{ ''.__class__ }} <script>alert(1)</script> ${7*7}"


def headers_of(raw: bytes) -> list[tuple[str, str]]:
    return list(message_from_bytes(raw.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n", policy=compat32).items())


def test_template_syntax_in_press_orders_and_subject_stays_text(game: ServiceContext) -> None:
    reply = send(game, SWEDEN + f"recon {HOSTILE}\nPRESS TO coalition\n{HOSTILE}\nENDPRESS\n",
                 subject=HOSTILE)
    assert f"recon {HOSTILE}" in reply and "49" not in reply
    [(_s, press)] = mails_to(game, BORIS, kind="press")
    assert HOSTILE in press and "49" not in press
    [reply_row] = [m for m in outbound_rows(game) if m.kind == "reply"]
    assert " ".join(dict(headers_of(reply_row.raw))["Subject"].split()) == f"Re: {HOSTILE}"


@pytest.mark.parametrize("subject", ["orders\r\nBcc: victim@example.com", "orders\nBcc: victim@example.com",
                                     "orders\rBcc: victim@example.com", "orders\x00Bcc: victim@example.com"])
def test_cr_lf_in_a_subject_never_makes_a_header(subject: str) -> None:
    raw = build_message(from_addr="gm@pbem.example", to=[ANNA], subject=subject, text="x",
                        message_id="<a@pbem.example>")
    names = [k.lower() for k, _ in headers_of(raw)]
    assert "bcc" not in names and names.count("subject") == 1


@pytest.mark.parametrize("address", ["anna@example.se\r\nBcc: victim@example.com",
                                     "anna@example.se, victim@example.com", "<anna@example.se>\n"])
def test_an_address_with_cr_lf_or_a_second_address_is_refused(address: str) -> None:
    with pytest.raises(UnsafeHeaderError):
        build_message(from_addr="gm@pbem.example", to=[address], subject="s", text="x",
                      message_id="<a@pbem.example>")


def test_html_templates_autoescape_and_never_mark_player_text_safe() -> None:
    env = environment()
    assert env.autoescape("mail/reply.en.html.j2") is True
    assert env.autoescape("mail/reply.en.txt.j2") is False  # plain text mail is not HTML
    html = env.get_template  # every HTML template, now and later
    for path in templates_root().rglob("*.html.j2"):
        source = path.read_text(encoding="utf-8")
        assert "|safe" not in source.replace(" ", "") and "autoescapefalse" not in source.replace(" ", ""), path
        assert html(str(path.relative_to(templates_root()))).environment.autoescape(path.name) is True
