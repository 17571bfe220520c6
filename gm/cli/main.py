"""The ``gm`` command: run the service, create games, read state, act as moderator."""

from __future__ import annotations

import sys
from typing import Any

import click

from gm import __version__
from gm.cli.app import App
from gm.config import Config, ConfigError, ConfigSyntaxError, load


class GmGroup(click.Group):
    """Turns user mistakes into a one-line message and exit status 1, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        from gm.db.engine import DatabaseError
        from gm.games.base import GameError
        from gm.service.errors import ServiceError

        try:
            return super().invoke(ctx)
        except (ConfigError, DatabaseError, GameError, ServiceError) as exc:
            click.echo(f"gm: {exc}", err=True)
            sys.exit(1)


@click.group(cls=GmGroup)
@click.option("--config", "config_path", type=click.Path(dir_okay=False),
              help="Config file (default: $GM_CONFIG or ./gm.toml).")
@click.option("--db", "db", metavar="URL_OR_PATH",
              help="Database URL or SQLite file (default: $GM_DATABASE_URL, then the config, then gm.db).")
@click.version_option(version=__version__, prog_name="gm")  # not the package metadata: faster
@click.pass_context
def cli(ctx: click.Context, config_path: str | None, db: str | None) -> None:
    """gm runs board games by email: it reads order mail, adjudicates each phase
    when its deadline passes, and mails every player what they may know.

    Start with `gm init`, then `gm game new`, then `gm serve`.
    """
    try:
        ctx.obj = App(config=load(config_path), db_override=db)
    except ConfigError as exc:
        if not isinstance(exc, ConfigSyntaxError) or ctx.invoked_subcommand != "doctor":
            raise  # "gm: gm.toml, line 3, column 12: ...", exit status 1 (GmGroup)
        # the doctor reports it as its finding, with what to do
        ctx.obj = App(config=Config(None, {}), db_override=db, config_error=exc)


def _register() -> None:
    from gm.cli import db, games, mod, orders

    for command in (db.init, db.db, db.data, games.game, games.state, games.history,
                    games.replay, games.adjudicate, orders.orders, mod.mod):
        cli.add_command(command)
    from gm.cli import archive, doctor, mailbox, serve, verify

    for command in (serve.serve, serve.demo, verify.verify, verify.dice, archive.archive,
                    doctor.doctor, mailbox.mailbox):
        cli.add_command(command)


_register()


def main() -> None:
    cli()
