"""A host stops `gm serve` and copies the SQLite database, as deploy/README.md says.

deploy/README.md, "What to back up": "SQLite: stop gm or use `sqlite3 gm.db ".backup
..."`". A stopped gm left its last transactions in `gm.db-wal` (the daemon's connections
were never closed), so the copy of `gm.db` alone lacked them: the orders a player had
just mailed, and gm's reply to them, were not in the backup. Restoring such a copy over
`gm.db` with the old log beside it laid that log over it. The real `gm serve` process on
SQLite and Maildir, a real Pax Viking game made by `gm game new`.

After a restore, the mails gm had handled since the backup stayed flagged in the
mailbox and were never read again: a player's JOIN, or his orders, were lost without a
word. `gm mailbox reread --since DAY` hands them back (a private Dovecot here).
"""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlmodel import select

from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.models import InboundMail, OutboundMail
from tests.e2e.daemon_support import Service, stop, wait_until
from tests.e2e.daemon_support import gm_cli as gm
from tests.pipeline.conftest import mail
from tests.support.servers import DovecotServer


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


RESTORE_CONFIG = """\
[mail]
address = "gm@example.org"
inbound = "imap"
outbound = "maildir"

[imap]
host = "{host}"
port = {port}
user = "{user}"
password = "{password}"
tls = "none"
timeout = 10.0

[maildir]
outbox = "outbox"

[service]
moderator_address = "mod@example.org"
draw_workers = 0

[database]
path = "gm.db"
"""




def backup(db: Path, to: Path) -> None:
    """`sqlite3 gm.db ".backup TO"`, as deploy/README.md has the host make it."""
    with sqlite3.connect(db) as source, sqlite3.connect(to) as target:
        source.backup(target)


def restore(backup_file: Path, db: Path) -> None:
    """deploy/README.md's restore: the old log removed, the backup copied over gm.db."""
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    shutil.copy(backup_file, db)


def seat_of_red(root: Path) -> str:
    shown = gm(root, "game", "show", "vik1")
    assert shown.returncode == 0, shown.stderr
    return next(line for line in shown.stdout.splitlines() if line.strip().startswith("red"))


def test_after_a_restore_gm_mailbox_reread_has_gm_read_the_joins_mailed_since_the_backup(
        tmp_path: Path, dovecot: DovecotServer, imap_user: tuple[str, str]) -> None:
    user, password = imap_user
    (tmp_path / "gm.toml").write_text(RESTORE_CONFIG.format(
        host=dovecot.host, port=dovecot.port, user=user, password=password))
    made = gm(tmp_path, "game", "new", "vik1", "--module", "viking", "--scenario", "2p",
              "--moderator", "mod@example.org", "--forming")
    assert made.returncode == 0, made.stderr
    backup(tmp_path / "gm.db", tmp_path / "gm-backup.db")
    dovecot.append(user, password, [mail("JOIN vik1 red\n", sender="erik@example.org",
                                         message_id="<join-red@example.org>")])
    assert gm(tmp_path, "serve", "--once").returncode == 0
    assert "erik@example.org" in seat_of_red(tmp_path)

    restore(tmp_path / "gm-backup.db", tmp_path / "gm.db")
    assert gm(tmp_path, "serve", "--once").returncode == 0
    assert "erik@example.org" not in seat_of_red(tmp_path)  # the JOIN is flagged as handled

    since = datetime.now(UTC) - timedelta(days=1)  # the backup's day, or before: never after
    reread = gm(tmp_path, "mailbox", "reread", "--since", f"{since:%Y-%m-%d}")
    assert reread.returncode == 0, reread.stderr
    assert reread.stdout.startswith("1 mail in INBOX since ")
    assert gm(tmp_path, "serve", "--once").returncode == 0
    assert "erik@example.org" in seat_of_red(tmp_path)
