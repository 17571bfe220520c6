"""``gm serve`` and ``gm demo``."""

from __future__ import annotations

import fcntl
import json
import logging
import os
import sys
from pathlib import Path
from typing import IO, Any

import click

from gm.cli.app import App, pass_app


class JsonFormatter(logging.Formatter):
    """One JSON object per line (`gm serve --json-logs`, the systemd unit's and the
    container's): with the traceback under "exception" when the record carries one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, str] = {"time": self.formatTime(record), "level": record.levelname,
                                "logger": record.name, "message": record.getMessage()}
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line)


@click.command()
@click.option("--json-logs", is_flag=True, help="Log one JSON object per line.")
@click.option("--once", is_flag=True, help="Do one round (mail, then due deadlines, then the outbox) and exit.")
@click.option("-v", "--verbose", is_flag=True, help="Log more.")
@pass_app
def serve(app: App, json_logs: bool, once: bool, verbose: bool) -> None:
    """Run the daemon: read order mail, adjudicate at deadlines, send replies and reports."""
    import asyncio

    from gm.daemon import MAILBOX_PATIENCE, Daemon
    from gm.mail.factory import open_sink, open_source, token_source

    lock = sqlite_serve_lock(app.url)  # held until the process ends, however it ends
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if json_logs else
                         logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO, handlers=[handler])
    logging.getLogger("alembic").setLevel(logging.WARNING)
    ctx = app.context()
    mail = app.config.mail_settings()
    tokens = token_source(mail)  # one OAuth2 token for IMAP and SMTP (a rotated one is shared)
    daemon = Daemon(ctx, open_source(mail, tokens, give_up_after=MAILBOX_PATIENCE),
                    open_sink(mail, tokens),
                    sweep_seconds=float(ctx.settings.get("sweep_seconds", 30)),
                    busy_seconds=float(ctx.settings.get("busy_seconds", 2)),
                    busy_poll_seconds=float(ctx.settings.get("busy_poll_seconds", 0.05)))
    if once:
        from gm.pipeline import drawpool

        try:
            asyncio.run(daemon.step())
        finally:
            drawpool.shutdown()
        return
    for line in banner(mail, app.url):
        if json_logs:  # every line of a JSON log is JSON (journald, the container's log)
            logging.getLogger("gm.serve").info("%s", line.strip())
        else:
            click.echo(line, err=True)
    asyncio.run(daemon.run())
    del lock


def banner(mail: Any, url: str) -> list[str]:
    """What `gm serve` says when it starts (on stderr: journald, the container log): where
    mail comes from and goes to, and the database without its password."""
    from sqlalchemy.engine import make_url

    shown = make_url(url).render_as_string(hide_password=True)
    lines = [f"gm serving {mail.address}: database {shown}"]
    if mail.inbound.value == "maildir":
        lines.append(f"  put order mails into {mail.maildir.inbox}/new")
    else:
        lines.append(f"  order mails read from {mail.imap.folder} at {mail.imap.host}:"
                     f"{mail.imap.port} as {mail.imap.user}")
    if mail.outbound.value == "maildir":
        lines.append(f"  replies go to {mail.maildir.outbox}/new")
    else:
        lines.append(f"  replies sent through {mail.smtp.host}:{mail.smtp.port}")
    return lines


def sqlite_serve_lock(url: str) -> IO[str] | None:
    """On SQLite, lock ``<database>.lock`` for this process's life; refuse if another holds it.

    SQLite has no row locks to share a mailbox and an outbox between two daemons, so a
    second ``gm serve`` on the same file stops at once with a clear message and exit
    status 1. The lock is the operating system's (``flock``): it goes with the process,
    also when the process is killed. PostgreSQL needs none (several daemons may share it).
    """
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    path = Path(parsed.database).resolve().with_name(Path(parsed.database).name + ".lock")
    try:
        handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115  (kept open: it is the lock)
    except OSError as exc:
        raise click.ClickException(
            f"cannot write the lock file {path} beside the SQLite database: {exc.strerror}; "
            f"the folder {path.parent} must exist and be writable by the user gm runs as "
            "(create it, or set [database] path)") from None
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip() or "unknown"
        handle.close()
        raise click.ClickException(
            f"another gm serve (pid {holder}) is running on the SQLite database "
            f"{parsed.database}; SQLite allows one daemon per database file. Stop it first, "
            f"or use PostgreSQL to run several instances (lock file: {path}).") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


@click.command()
@click.option("--game", "game_id", default="demo", help="The demo game's id.")
@pass_app
def demo(app: App, game_id: str) -> None:
    """Create a two-player demo game (if there is no game yet) and say how to play it."""
    from sqlmodel import select

    from gm.db.engine import session_scope
    from gm.db.models import Game
    from gm.games import registry
    from gm.service.games import SeatSpec, create_game

    ctx = app.context()
    with session_scope(ctx.engine) as session:
        if session.exec(select(Game)).first() is not None:
            click.echo("games exist already; no demo game created (see `gm game list`)")
            return
        module = registry.get("baltica")
        scenario = module.scenarios()[0]
        seats = [SeatSpec(p, f"{p}@localhost") for p in scenario.powers]
        made = create_game(ctx, session, game_id=game_id, module_name=module.name,
                           scenario=scenario.id, seats=seats, moderator_address="moderator@localhost",
                           play_out=True)  # as `gm game new`: one first report, not two
    click.echo(f"demo game '{game_id}' created: {module.title}, {scenario.title}")
    for power, pw in made.passwords.items():
        click.echo(f"  {power}: sign on with  POWER {power} {pw}")
    click.echo(f"  moderator: MODERATOR {made.moderator_password}")
    click.echo(f"  read a player's view: gm state {game_id} --as {scenario.powers[0]}")
