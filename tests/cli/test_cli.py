"""The gm command as a newcomer uses it: clear messages and exit codes, never a traceback."""

from __future__ import annotations

import json
import sqlite3

from click.testing import CliRunner

from gm.cli.main import cli
from tests.support import toygame  # noqa: F401  (registers "race")


def run(db: str, *args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, ["--db", db, *args], input=input, catch_exceptions=False)


def new_game(db: str) -> dict:  # type: ignore[type-arg]
    result = run(db, "game", "new", "race1", "--module", "race", "--scenario", "duel",
                 "--seat", "north=n@example.org", "--seat", "south=s@example.org", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_create_read_state_submit_and_adjudicate(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "gm.db")
    made = new_game(db)
    assert set(made["passwords"]) == {"north", "south"} and made["phase"] == "turn-1"
    north = json.loads(run(db, "state", "race1", "--as", "north").output)
    assert north["position"] == 0 and "south" not in json.dumps(north["position"])
    submitted = run(db, "orders", "submit", "race1", "--as", "north", "-", input="advance 3\nfly\n")
    assert submitted.exit_code == 0 and "advance 3" in submitted.output and "! fly" in submitted.output
    closed = run(db, "adjudicate", "race1")
    assert closed.exit_code == 0 and "now turn-2" in closed.output and "defaults for south" in closed.output
    assert run(db, "replay", "race1").exit_code == 0
    history = run(db, "history", "race1").output
    assert "turn-1 (done)" in history and "turn-2 (open)" in history


def test_moderator_acts_are_recorded_in_the_history(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "gm.db")
    new_game(db)
    assert run(db, "mod", "extend", "race1", "48h", "--reason", "holiday week").exit_code == 0
    assert run(db, "mod", "ruling", "race1", "North may advance through the ford").exit_code == 0
    assert run(db, "mod", "set", "race1", "position.north", "5", "--reason", "typo fixed").exit_code == 0
    assert json.loads(run(db, "state", "race1").output)["position"]["north"] == 5
    assert run(db, "mod", "pause", "race1", "--private").exit_code == 0
    history = run(db, "history", "race1").output
    assert "holiday week" in history and "typo fixed" in history and "pause" not in history
    assert "pause" in run(db, "history", "race1", "--private").output


def test_the_mod_commands_carry_out_what_they_say_and_are_recorded(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`gm mod extend --to`, `dice --then-seed`, `adjudicate`, `replace`, `rollback`: each
    changes the game as its help says, and the act is in the history with its reason."""
    db = str(tmp_path / "gm.db")
    new_game(db)
    moved = run(db, "mod", "extend", "race1", "--to", "2030-06-01 18:00", "--reason", "summer")
    assert moved.exit_code == 0 and "deadline now 2030-06-01 18:00 UTC" in moved.output, moved.output
    dice = run(db, "mod", "dice", "race1", "6", "--then-seed")  # the race rolls twice
    assert dice.exit_code == 0, dice.output
    closed = run(db, "mod", "adjudicate", "race1", "--reason", "both ready by phone")
    assert closed.exit_code == 0 and "now turn-2" in closed.output, closed.output
    replaced = run(db, "mod", "replace", "race1", "south", "new@example.net", "--reason", "left")
    assert replaced.exit_code == 0, replaced.output
    back = run(db, "mod", "rollback", "race1", "turn-1", "--reason", "wrong die")
    assert back.exit_code == 0 and "back at turn-1" in back.output, back.output
    rows = json.loads(run(db, "history", "race1", "--json").output)
    acts = [(r["what"], r["reason"]) for r in rows if r["what"].startswith("moderator")]
    assert acts == [("moderator extend", "summer"), ("moderator dice", ""),
                    ("moderator adjudicate", "both ready by phone"),
                    ("moderator replace", "left"), ("moderator rollback", "wrong die")]


def test_unknown_game_and_power_are_one_line_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "gm.db")
    new_game(db)
    result = run(db, "state", "nosuch")
    assert result.exit_code == 1 and result.output.strip() == "gm: there is no game 'nosuch'"
    result = run(db, "state", "race1", "--as", "west")
    assert result.exit_code == 1 and "has no power 'west'" in result.output
    result = run(db, "game", "new", "x", "--module", "nosuchgame", "--scenario", "a")
    assert result.exit_code == 1 and "no game module 'nosuchgame'" in result.output


def test_a_database_from_a_newer_gm_is_refused_untouched(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "gm.db")
    new_game(db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999_future'")
    result = run(db, "game", "list")
    assert result.exit_code == 1 and "newer gm" in result.output
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == ("9999_future",)


def test_a_file_that_is_not_a_database_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "gm.db"
    db.write_bytes(b"this is not sqlite" * 100)
    result = run(str(db), "game", "list")
    assert result.exit_code == 1 and result.output.startswith("gm: ")


def test_a_folder_with_no_config_and_no_database_is_named_not_filled(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Running gm in the wrong folder says where it looked; it creates no empty gm.db."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GM_CONFIG", raising=False)
    monkeypatch.delenv("GM_DATABASE_URL", raising=False)
    result = CliRunner().invoke(cli, ["game", "list"])
    assert result.exit_code == 1
    assert str(tmp_path / "gm.toml") in result.output and "gm init" in result.output
    assert "--db" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "gm.db").exists()
    # after `gm init` the same command works, on the database the config names
    assert CliRunner().invoke(cli, ["init", "."]).exit_code == 0
    assert CliRunner().invoke(cli, ["game", "list"]).exit_code == 0
