"""Passwords are stored hashed and never logged, echoed or written anywhere but the raw mail."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from sqlalchemy import MetaData, select

from gm.daemon import Daemon
from gm.db.engine import session_scope
from gm.mail.config import MaildirSettings
from gm.mail.file_sink import FileSink
from gm.mail.maildir_source import MaildirSource
from gm.service.adjudicate import close_phase
from gm.service.context import ServiceContext
from gm.service.games import current_phase
from tests.data.mail.generate import plain
from tests.e2e.corpus_game import copy_of
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


def test_passwords_are_stored_as_scrypt_hashes_and_nowhere_else(game: ServiceContext, tmp_path: Path) -> None:
    """Every table but the raw inbound mail is free of the clear passwords; replies never echo them."""
    send(game, SWEDEN + "PASSWORD kestrel-tide-oak-42\n")
    send(game, "GAME baltica42\nPOWER sweden wrong-one\n")
    meta = MetaData()
    meta.reflect(game.engine)
    with game.engine.connect() as conn:
        for table in meta.sorted_tables:
            for row in conn.execute(select(table)):
                for column, value in zip(table.columns, row, strict=True):
                    if table.name == "inboundmail" and column.name == "raw":
                        continue  # what the player sent is kept verbatim, by design
                    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
                    for secret in (*SECRETS, "wrong-one"):
                        assert secret not in text, f"{secret} in {table.name}.{column.name}"
                    if column.name in ("password_hash", "moderator_password_hash") and value:
                        assert text.startswith("scrypt$"), text


def test_a_database_error_never_carries_the_mail_it_was_storing(game: ServiceContext) -> None:
    """The daemon logs database errors; their text used to include every SQL parameter."""
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    with pytest.raises(DBAPIError) as err, game.engine.connect() as conn:
        conn.execute(text("INSERT INTO no_such_table VALUES (:raw)"),
                     {"raw": "GAME baltica42\nPOWER sweden hunter2\n"})
    assert "no_such_table" in str(err.value) and "hunter2" not in str(err.value)
