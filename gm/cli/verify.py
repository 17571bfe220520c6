"""``gm verify`` and ``gm dice``: check a game's dice and adjudications (docs/dice.md).

The lead registers the two commands on the main group::

    from gm.cli.verify import dice, verify
    main.add_command(verify)
    main.add_command(dice)

``gm verify`` exits 0 when everything matches, 1 when it found a mismatch,
2 when it cannot run (usage, unknown game, unreadable record).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from gm.cli.app import counted

if TYPE_CHECKING:
    from sqlmodel import Session

    from gm.verify import Mismatch

EXIT_MISMATCH = 1
EXIT_CANNOT_RUN = 2


def _seed_option(value: str | None) -> bytes | None:
    from gm.verify import VerifyError, parse_seed

    try:
        return parse_seed(value) if value else None
    except VerifyError as exc:
        raise click.BadParameter(str(exc), param_hint="--seed") from exc


def _report(found: Sequence[Mismatch], summary: str) -> None:
    for m in found:
        click.echo(f"MISMATCH {m.describe()}")
    if found:
        click.echo(f"{counted(len(found), 'mismatch', 'mismatches')}; {summary}")
        sys.exit(EXIT_MISMATCH)
    click.echo(f"OK: {summary}")


def _counts(rolls: Sequence[object]) -> str:
    by = Counter(getattr(r, "source", "?") for r in rolls)
    return (f"{counted(by['seed'], 'seed roll', 'seed rolls')} re-derived, "
            f"{counted(by['supplied'], 'supplied roll', 'supplied rolls')} checked")


def _open_session(db_url: str | None) -> Session:
    """A read-only use of the database: ``--db``, else ``gm --db``/the config, else the default.

    No migration is run: verifying an archived copy must not change it.
    """
    from sqlmodel import Session

    from gm.db.engine import make_engine, resolve_url

    if not db_url:
        app = click.get_current_context().find_object(_app_type())
        db_url = app.url if app is not None else None
    elif "://" not in db_url:  # a SQLite file, as `gm --db` takes it
        from pathlib import Path

        from gm.db.engine import sqlite_url

        db_url = sqlite_url(Path(db_url))
    return Session(make_engine(resolve_url(db_url)))


def _app_type() -> type:
    from gm.cli.app import App

    return App


def _verify_record(game: str | None, record_path: str, seed: bytes | None) -> None:
    from gm.verify import DiceRecord, VerifyError, verify_record

    record = DiceRecord.load(record_path)
    if game and game != record.game_id:
        raise VerifyError(f"the record is of game '{record.game_id}', not '{game}'")
    found = verify_record(record, seed)
    scope = "every roll" if record.complete else "the public rolls"
    _report(found, f"game {record.game_id}, commitment matches the seed, {scope}: "
                   + _counts(record.rolls))


def _verify_db(game: str, db_url: str | None, seed: bytes | None) -> None:
    from gm.verify import adjudicated_phases, roll_records, verify_game

    with _open_session(db_url) as session:
        found = verify_game(session, game, seed)
        rolls = roll_records(session, game)
        replayed = len(adjudicated_phases(session, game))
    _report(found, f"game {game}: {_counts(rolls)}, {counted(replayed, 'adjudicated phase', 'adjudicated phases')} replayed")


@click.command("verify")
@click.argument("game", required=False)
@click.option("--seed", "seed_hex", metavar="HEX", help="The published seed (64 hex digits).")
@click.option("--record", "record_path", type=click.Path(exists=True, dir_okay=False),
              help="A dice record (gm dice export) to check without the database.")
@click.option("--db", "db_url", metavar="URL_OR_PATH",
              help="Database URL or SQLite file (default: GM_DATABASE_URL or ./gm.db).")
def verify(game: str | None, seed_hex: str | None, record_path: str | None,
           db_url: str | None) -> None:
    """Re-derive every roll from the seed and re-run the adjudications.

    \b
    gm verify --seed HEX --record FILE   check a published dice record
    gm verify GAME [--db URL] [--seed HEX]  check the stored game: commitment,
                                          every roll, and a replay of each phase
    """
    from gm.verify import VerifyError

    seed = _seed_option(seed_hex)
    try:
        if record_path:
            _verify_record(game, record_path, seed)
        elif game:
            _verify_db(game, db_url, seed)
        else:
            raise click.UsageError("give a GAME, or --seed and --record")
    except VerifyError as exc:
        click.echo(f"cannot verify: {exc}", err=True)
        sys.exit(EXIT_CANNOT_RUN)


@click.group("dice")
def dice() -> None:
    """Dice records and the derivation (docs/dice.md)."""


@dice.command("export")
@click.argument("game")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), help="File to write (default: stdout).")
@click.option("--all", "everything", is_flag=True,
              help="Every roll even while the seed is secret (moderator only: not for publication).")
@click.option("--db", "db_url", metavar="URL")
def export(game: str, out_path: str | None, everything: bool, db_url: str | None) -> None:
    """Write GAME's dice record (public rolls only until the seed is revealed)."""
    from gm.verify import VerifyError, export_record

    try:
        with _open_session(db_url) as session:
            record = export_record(session, game, everything=everything)
    except VerifyError as exc:
        click.echo(f"cannot export: {exc}", err=True)
        sys.exit(EXIT_CANNOT_RUN)
    if out_path:
        record.dump(out_path)
        click.echo(f"{counted(len(record.rolls), 'roll', 'rolls')} written to {out_path}", err=True)
    else:
        click.echo(json.dumps(record.to_json(), indent=1, ensure_ascii=False))


@dice.command("derive")
@click.option("--seed", "seed_hex", required=True, metavar="HEX")
@click.option("--game", required=True)
@click.option("--phase", required=True)
@click.option("--branch", default=0, show_default=True, type=click.IntRange(min=0))
@click.option("-n", "count", default=20, show_default=True, type=click.IntRange(min=1))
def derive(seed_hex: str, game: str, phase: str, branch: int, count: int) -> None:
    """Print the first N seed rolls of PHASE on BRANCH."""
    from gm.dice import derive_rolls

    seed = _seed_option(seed_hex)
    assert seed is not None
    click.echo(" ".join(str(v) for v in derive_rolls(seed, game, phase, branch, count)))


@dice.command("commitment")
@click.option("--seed", "seed_hex", required=True, metavar="HEX")
@click.option("--game", required=True)
def commit(seed_hex: str, game: str) -> None:
    """Print the commitment of a seed for GAME."""
    from gm.dice import commitment

    seed = _seed_option(seed_hex)
    assert seed is not None
    click.echo(commitment(seed, game))
