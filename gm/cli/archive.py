"""``gm archive GAME --out DIR``: the game's public history as a static HTML site."""

from __future__ import annotations

from pathlib import Path

import click

from gm.cli.app import App, pass_app


@click.command()
@click.argument("game_id")
@click.option("--out", "out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="folder to write the site into (created if missing)")
@click.option("--lang", default="en", type=click.Choice(["en", "fr"]), help="language of the pages")
@pass_app
def archive(app: App, game_id: str, out: Path, lang: str) -> None:
    """Write GAME's public history (each phase's public report and map, public rulings and
    press) as HTML; after the game has ended, also every power's reports, every roll, the seed."""
    from gm.db.engine import session_scope
    from gm.service.archive import write_archive
    from gm.service.games import get_game

    ctx = app.context()
    with session_scope(ctx.engine) as session:
        files = write_archive(session, get_game(session, game_id), out, lang)
    click.echo(f"{len(files)} files written to {out}; open {out / 'index.html'}")
