"""``gm init``, ``gm db``, ``gm data``: set-up, schema, rule data."""

from __future__ import annotations

from pathlib import Path

import click

from gm.cli.app import App, emit, json_option, pass_app
from gm.config import DEFAULT_CONFIG


@click.command()
@click.argument("folder", type=click.Path(file_okay=False), default=".")
def init(folder: str) -> None:
    """Write a commented gm.toml and the Maildir folders into FOLDER."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    cfg = root / "gm.toml"
    if cfg.exists():
        click.echo(f"{cfg} exists; left as it is")
    else:
        cfg.write_text(DEFAULT_CONFIG, encoding="utf-8")
        click.echo(f"wrote {cfg}")
    for box in ("mail/inbox", "mail/outbox"):
        for sub in ("new", "cur", "tmp"):
            (root / box / sub).mkdir(parents=True, exist_ok=True)
    click.echo(f"mail goes into {root / 'mail/inbox/new'}; replies appear in {root / 'mail/outbox/new'}")


@click.group()
def db() -> None:
    """The database schema (migrations are also applied on every start)."""


@db.command("upgrade")
@pass_app
def db_upgrade(app: App) -> None:
    """Apply every pending migration."""
    from gm.db.engine import make_engine
    from gm.db.migrate import current_revision, upgrade

    engine = make_engine(app.url)
    before = current_revision(engine)
    head = upgrade(engine)
    if before == head:
        click.echo(f"database at schema revision {head}: up to date")
    else:
        click.echo(f"database upgraded from schema revision {before or '(empty)'} to {head}")


@db.command("current")
@json_option
@pass_app
def db_current(app: App, as_json: bool) -> None:
    """Show the database's schema revision and this code's."""
    from gm.db.engine import make_engine
    from gm.db.migrate import current_revision, head_revision

    cur, head = current_revision(make_engine(app.url)), head_revision()
    emit({"current": cur, "head": head}, as_json, f"database: {cur or 'empty'}; code: {head}")


@click.group()
def data() -> None:
    """Each game's rule data (maps, blocks, tables)."""


@data.command("check")
@click.argument("module", required=False)
@json_option
def data_check(module: str | None, as_json: bool) -> None:
    """Check the data files of MODULE (default: every installed game) against their schema."""
    from gm.games import registry

    problems: dict[str, list[str]] = {}
    for name in [module] if module else registry.names():
        problems[name] = registry.get(name).data_check()
    bad = {k: v for k, v in problems.items() if v}
    lines = [f"{name}: ok" if not p else f"{name}:\n  " + "\n  ".join(p) for name, p in problems.items()]
    emit(problems, as_json, "\n".join(lines))
    if bad:
        raise SystemExit(1)
