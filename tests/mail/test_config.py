"""MailSettings.from_dict: the [mail]/[imap]/[smtp]/[maildir] tables of gm.toml."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from gm.mail.config import (
    ImapSettings,
    InboundKind,
    MailConfigError,
    MaildirSettings,
    MailSettings,
    SmtpSettings,
    TlsMode,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "gm.example.toml"


def test_defaults_are_the_embedded_maildir_setup():
    settings = MailSettings.from_dict({})
    assert settings.inbound is InboundKind.MAILDIR
    assert settings.max_bytes == 10 * 1024 * 1024


def test_tables_are_read():
    settings = MailSettings.from_dict(
        {
            "mail": {"address": "gm@pbem.example", "inbound": "imap", "outbound": "smtp"},
            "imap": {"host": "imap.pbem.example", "port": 143, "tls": "STARTTLS", "idle": False},
            "smtp": {"port": 465, "tls": "tls", "timeout": 30},
        }
    )
    assert settings.imap.tls is TlsMode.STARTTLS and settings.imap.port == 143
    assert settings.imap.idle is False
    assert settings.smtp.timeout == 30.0
    assert settings.message_id_domain == "pbem.example"


def test_password_file(tmp_path):
    secret = tmp_path / "imap.pw"
    secret.write_text("hunter2\n")
    settings = MailSettings.from_dict({"imap": {"password_file": str(secret)}})
    assert settings.imap.password == "hunter2"
    assert "hunter2" not in repr(settings)


@pytest.mark.parametrize(
    ("doc", "option"),
    [
        ({"imap": {"prot": 1}}, "imap.prot"),
        ({"imap": {"port": "143"}}, "imap.port"),
        ({"smtp": {"tls": "ssl"}}, "smtp.tls"),
        ({"imap": {"idle": "yes"}}, "imap.idle"),
        ({"mail": {"address": "nobody"}}, "mail.address"),
    ],
)
def test_bad_values_name_the_option(doc, option):
    with pytest.raises(MailConfigError) as err:
        MailSettings.from_dict(doc)
    assert err.value.option == option


def test_the_deploy_example_loads_and_documents_every_option(tmp_path):
    for name in ("imap-password", "smtp-password"):
        (tmp_path / name).write_text(f"{name}-value\n")
    text = EXAMPLE.read_text().replace("/etc/gm/secrets", str(tmp_path))
    settings = MailSettings.from_dict(tomllib.loads(text))
    assert settings.inbound is InboundKind.IMAP
    assert settings.imap.password == "imap-password-value"
    for table, cls in (("imap", ImapSettings), ("smtp", SmtpSettings), ("maildir", MaildirSettings)):
        for f in dataclasses.fields(cls):
            if f.name != "password":
                assert f"\n{f.name} = " in text.split(f"\n[{table}]\n")[1].split("\n[")[0], f"{table}.{f.name}"


def test_xoauth2_needs_the_oauth2_table_and_reads_its_secret_from_a_file(tmp_path):
    doc = {"mail": {"address": "gm@pbem.example.org", "inbound": "imap"},
           "imap": {"user": "gm@pbem.example.org", "auth": "xoauth2"}}
    with pytest.raises(MailConfigError) as refused:
        MailSettings.from_dict(doc)
    assert refused.value.option == "oauth2.token_url" and "xoauth2" in str(refused.value)
    (tmp_path / "secret").write_text("s3cret\n")
    doc["oauth2"] = {"token_url": "https://oauth2.example/token", "client_id": "gm",
                     "client_secret_file": str(tmp_path / "secret"),
                     "refresh_token_file": str(tmp_path / "rt")}
    settings = MailSettings.from_dict(doc)
    assert settings.uses_oauth2 and settings.oauth2.client_secret == "s3cret"
    assert "s3cret" not in repr(settings)
