"""Passwords are stored hashed and never logged, echoed or kept in clear (issue 22 item 7)."""

from __future__ import annotations

import asyncio
import logging
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import MetaData, select
from sqlmodel import select as sqlselect

from gm.daemon import Daemon
from gm.db.engine import session_scope
from gm.db.models import InboundMail
from gm.mail.config import MaildirSettings
from gm.mail.file_sink import FileSink
from gm.mail.maildir_source import MaildirSource
from gm.mail.mime import decode
from gm.service.adjudicate import close_phase
from gm.service.context import ServiceContext
from gm.service.games import current_phase
from tests.data.mail.generate import plain
from tests.e2e.corpus_game import copy_of, deliver
from tests.security.conftest import BORIS, COALITION, SWEDEN, send

SECRETS = ("hunter2", "s-secret", "modsecret", "kestrel-tide-oak-42")


def test_a_full_exchange_logged_at_debug_never_shows_a_password(
    template: Path, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """Sign-ons right and wrong, a password change, orders, a moderator act, adjudication and
    sending, through the daemon's own loop, with the root logger at DEBUG (as `gm serve --verbose`)."""
    caplog.set_level(logging.DEBUG)  # as `gm serve` at DEBUG: the root logger and all below
    ctx = copy_of(template, tmp_path)  # the engine is made with SQL logging on
    inbox = MaildirSettings(inbox=str(tmp_path / "inbox"))
    source = MaildirSource(inbox)
    for n, (sender, body) in enumerate([
        ("anna@example.se", SWEDEN + "recon Livland\nPASSWORD kestrel-tide-oak-42\n"),
        ("anna@example.se", "GAME baltica42\nPOWER sweden hunter2\nrecon Livland\n"),
        (BORIS, "GAME baltica42\nPOWER coalition hunter2\n"),
        ("mod@pbem.example", "GAME baltica42\nMODERATOR modsecret\nEXTEND 1d\n"),
        (BORIS, COALITION + "STATUS\n"),
    ]):
        (tmp_path / "inbox" / "new" / f"{n}.eml").write_bytes(plain(70 + n, body, sender=sender))
    daemon = Daemon(ctx, source, FileSink(tmp_path / "out"), sweep_seconds=0)
    asyncio.run(daemon.step())
    with session_scope(ctx.engine) as s:
        seq = current_phase(s, "baltica42").seq
    assert close_phase(ctx, "baltica42", seq, by="test").closed
    asyncio.run(daemon.step())
    assert len(list((tmp_path / "out" / "new").iterdir())) > 5
    logged = "\n".join(f"{r.name} {r.getMessage()}" for r in caplog.records)
    assert "mail 5 from" in logged  # the capture saw the mail
    for secret in SECRETS:
        assert secret not in logged, f"{secret} in the log"
    ctx.engine.dispose()


def readable(value: object) -> str:
    """Everything a reader of a column could see: its text, and a mail's decoded parts."""
    if not isinstance(value, bytes):
        return str(value)
    text = value.decode("utf-8", "replace")
    if b"\n" in value and b":" in value:  # a stored mail: its decoded text and every part
        import email
        from email.policy import default

        mail = decode(value)
        parts = [p.get_payload(decode=True) or b"" for p in
                 email.message_from_bytes(value, policy=default).walk() if not p.is_multipart()]
        text += "\n".join([mail.text, mail.subject] + [bytes(p).decode("utf-8", "replace")
                                                      for p in parts if isinstance(p, bytes)])
    return text


def assert_no_password_in_database(ctx: ServiceContext, secrets: tuple[str, ...]) -> int:
    """Grep every column of every table (mails decoded); return how many values were read."""
    meta = MetaData()
    meta.reflect(ctx.engine)
    seen = 0
    with ctx.engine.connect() as conn:
        for table in meta.sorted_tables:
            for row in conn.execute(select(table)):
                for column, value in zip(table.columns, row, strict=True):
                    text = readable(value)
                    seen += 1
                    for secret in secrets:
                        assert secret not in text, f"{secret} in {table.name}.{column.name}"
                    if column.name in ("password_hash", "moderator_password_hash") and value:
                        assert text.startswith("scrypt$"), text
    return seen


def test_passwords_are_stored_as_scrypt_hashes_and_nowhere_else(game: ServiceContext, tmp_path: Path) -> None:
    """No table holds a clear password once the mails are handled, the raw inbound mails
    included (issue 22: masked in the transaction that marks them handled); replies never
    echo them. Also in quoted text, HTML parts and base64 bodies."""
    send(game, SWEDEN + "PASSWORD kestrel-tide-oak-42\n")
    send(game, "GAME baltica42\nPOWER sweden wrong-one\n")
    send(game, "GAME baltica42\nMODERATOR modsecret\nEXTEND 1d\n", sender="mod@pbem.example")
    send(game, "recon Livland\n\nOn Monday gm wrote:\n> Sign on with:\n> POWER sweden quoted-secret-9\n")
    html = EmailMessage()
    html["From"], html["To"], html["Subject"] = BORIS, "gm@pbem.example", "orders"
    html["Message-ID"] = "<html-90@example.ru>"
    html.set_content(COALITION + "STATUS\n")
    html.add_alternative("<html><body><p>GAME baltica42</p><p>POWER coalition <b>s-secret</b></p>"
                         "<p>STATUS</p></body></html>", subtype="html")
    deliver(game, bytes(html))
    deliver(game, plain(91, COALITION + "STATUS\n", sender=BORIS, cte="base64"))
    with session_scope(game.engine) as s:
        rows = s.exec(sqlselect(InboundMail)).all()
        assert len(rows) == 7 and {r.status for r in rows} == {"handled"}  # the set-up's and ours
        assert all(b"********" in r.raw for r in rows)
    assert assert_no_password_in_database(game, (*SECRETS, "wrong-one", "quoted-secret-9")) > 100


def test_a_database_error_never_carries_the_mail_it_was_storing(game: ServiceContext) -> None:
    """The daemon logs database errors; their text used to include every SQL parameter."""
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    with pytest.raises(DBAPIError) as err, game.engine.connect() as conn:
        conn.execute(text("INSERT INTO no_such_table VALUES (:raw)"),
                     {"raw": "GAME baltica42\nPOWER sweden hunter2\n"})
    assert "no_such_table" in str(err.value) and "hunter2" not in str(err.value)
