"""A host stops `gm serve` and copies the SQLite database, as deploy/README.md says.

deploy/README.md, "What to back up": "SQLite: stop gm or use `sqlite3 gm.db ".backup
..."`". A stopped gm left its last transactions in `gm.db-wal` (the daemon's connections
were never closed), so the copy of `gm.db` alone lacked them: the orders a player had
just mailed, and gm's reply to them, were not in the backup. Restoring such a copy over
`gm.db` with the old log beside it laid that log over it. The real `gm serve` process on
SQLite and Maildir, a real Pax Viking game made by `gm game new`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from sqlmodel import select

from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.models import InboundMail, OutboundMail
from tests.e2e.daemon_support import Service, stop, wait_until
from tests.pipeline.conftest import mail


def orders(game_id: str, password: str) -> bytes:
    return mail(f"GAME {game_id}\nPOWER red {password}\nORDERS\n",
                sender="red@example.org", message_id="<red-orders@example.org>")


def answered(db: Path) -> list[str]:
    """The kinds of the mails gm sent to red in answer to red's mail, read from ``db``."""
    with session_scope(make_engine(sqlite_url(db))) as s:
        handled = s.exec(select(InboundMail).where(
            InboundMail.message_id == "<red-orders@example.org>",
            InboundMail.status == "handled")).first()
        if handled is None:
            return []
        return [m.kind for m in s.exec(select(OutboundMail)).all()
                if m.recipients == ["red@example.org"] and m.kind == "reply"]


def test_gm_db_copied_after_gm_serve_stopped_holds_the_last_mail_and_its_reply(
        tmp_path: Path) -> None:
    service = Service(tmp_path, sqlite_url(tmp_path / "gm.db"))
    made = service.gm("game", "new", "vik1", "--module", "viking", "--scenario", "2p",
                      "--seat", "red=red@example.org:red-secret",
                      "--seat", "blue=blue@example.org:blue-secret",
                      "--moderator", "mod@example.org")
    assert made.returncode == 0, made.stderr
    proc = service.start()
    try:
        service.drop("orders", orders("vik1", "red-secret"))
        assert wait_until(lambda: answered(tmp_path / "gm.db") == ["reply"], 60), service.tail()
    finally:
        stop(proc)
    backup = tmp_path / "backup"
    backup.mkdir()
    shutil.copy(tmp_path / "gm.db", backup / "gm.db")  # gm.db alone, as a host copies it
    assert answered(backup / "gm.db") == ["reply"]
