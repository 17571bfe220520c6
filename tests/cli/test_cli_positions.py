"""Issue 17, class 8: a moderator puts a Pax Baltica game into any position from the
command line; mistakes get a message, never a traceback; sanctioned changes replay."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result
from sqlmodel import select

from gm.cli.main import cli
from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.models import Seat
from gm.service.passwords import check_password


def run(db: str, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", db, *args])


def new_baltica(db: str, *extra: str) -> Result:
    return run(db, "game", "new", "pb1", "--module", "baltica", "--scenario", "12.1",
               "--seat", "sweden=karl@example.org:hunter2",
               "--seat", "coalition=pyotr@example.ru", "--moderator", "gm@example.org",
               "--seed", "07" * 32, *extra)


def show(db: str) -> dict:  # type: ignore[type-arg]
    result = run(db, "game", "show", "pb1", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)  # type: ignore[no-any-return]


def test_seats_get_the_password_language_and_time_zone_the_moderator_chose(tmp_path: Path) -> None:
    db = str(tmp_path / "gm.db")
    made = new_baltica(db, "--language", "coalition=fr", "--timezone", "coalition=Europe/Moscow",
                       "--moderator-password", "mod-secret", "--json")
    assert made.exit_code == 0, made.output
    data = json.loads(made.output)
    assert data["passwords"]["sweden"] == "hunter2" and data["moderator_password"] == "mod-secret"
    seats = {s["power"]: s for s in show(db)["seats"]}
    assert (seats["coalition"]["language"], seats["coalition"]["timezone"]) == ("fr", "Europe/Moscow")
    assert (seats["sweden"]["language"], seats["sweden"]["timezone"]) == ("en", "UTC")
    engine = make_engine(sqlite_url(Path(db)))
    with session_scope(engine) as s:
        sweden = s.exec(select(Seat).where(Seat.power == "sweden")).one()
        assert check_password("hunter2", sweden.password_hash)
    engine.dispose()


def test_mistakes_at_creation_are_messages_not_tracebacks(tmp_path: Path) -> None:
    db = str(tmp_path / "gm.db")
    cases = [
        (("--seed", "7"), "even number of digits"),
        (("--seed", "zz"), "even number of digits"),
        (("--language", "coalition=de"), "language 'de' is not offered"),
        (("--timezone", "sweden=Mars/Olympus"), "unknown time zone"),
        (("--language", "denmark=fr"), "no --seat for denmark"),
    ]
    for extra, message in cases:
        # a later --seed wins in click, so each case's own option is the one read
        result = new_baltica(db, *extra)
        assert result.exit_code == 2, (extra, result.output)
        assert message in result.output, (extra, result.output)
        assert "Traceback" not in result.output and result.exception is None or isinstance(
            result.exception, SystemExit)
    bad_seat = run(db, "game", "new", "pb2", "--module", "baltica", "--scenario", "12.1",
                   "--seat", "sweden:karl@example.org")
    assert bad_seat.exit_code == 2 and "is not POWER=ADDRESS[:PASSWORD]" in bad_seat.output
    assert "there is no game" in run(db, "game", "show", "pb1").output  # nothing was created


def test_setting_season_and_step_moves_the_phase_and_replay_still_passes(tmp_path: Path) -> None:
    db = str(tmp_path / "gm.db")
    assert new_baltica(db).exit_code == 0
    assert run(db, "adjudicate", "pb1").exit_code == 0  # one real adjudication before the edit
    assert show(db)["phase"].startswith("1700-autumn-actions-")
    moved = run(db, "mod", "set", "pb1", "season", '"summer"', "--reason", "start earlier")
    assert moved.exit_code == 0, moved.output
    assert show(db)["phase"].startswith("1700-summer-actions-")
    assert run(db, "mod", "set", "pb1", "turn.first", '"sweden"').exit_code == 0
    stepped = run(db, "mod", "set", "pb1", "step", '"actions-second"', "--reason", "position")
    assert stepped.exit_code == 0, stepped.output
    now = show(db)
    assert now["phase"] == "1700-summer-actions-coalition", now["phase"]
    assert now["owing"] == ["coalition"]
    strength = run(db, "mod", "set", "pb1", "blocks.karl-xii.strength", "2")
    assert strength.exit_code == 0, strength.output
    assert run(db, "adjudicate", "pb1").exit_code == 0
    replay = run(db, "replay", "pb1")
    assert replay.exit_code == 0 and "0 differences" in replay.output, replay.output
    verify = CliRunner().invoke(cli, ["verify", "pb1", "--db", db])
    assert verify.exit_code == 0, verify.output
    history = run(db, "history", "pb1").output
    assert "start earlier" in history


def test_a_state_the_game_cannot_read_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    db = str(tmp_path / "gm.db")
    assert new_baltica(db).exit_code == 0
    before = run(db, "state", "pb1").output
    result = run(db, "mod", "set", "pb1", "step", '"teatime"')
    assert result.exit_code == 1 and "nothing changed" in result.output
    assert "Traceback" not in result.output
    assert run(db, "state", "pb1").output == before


def test_revealing_the_seed_of_a_running_game_needs_force(tmp_path: Path) -> None:
    db = str(tmp_path / "gm.db")
    assert new_baltica(db).exit_code == 0
    refused = run(db, "mod", "reveal", "pb1")
    assert refused.exit_code == 1
    assert "players can compute every future roll" in refused.output
    assert "--force" in refused.output and "07070707" not in refused.output
    forced = run(db, "mod", "reveal", "pb1", "--force")
    assert forced.exit_code == 0 and "07" * 32 in forced.output


def test_setting_the_phase_by_its_id_puts_the_game_there_and_replays(tmp_path: Path) -> None:
    db = str(tmp_path / "gm.db")
    assert new_baltica(db).exit_code == 0
    assert run(db, "adjudicate", "pb1").exit_code == 0
    first = json.loads(run(db, "state", "pb1").output)["state"]["turn"]["first"]
    second = "coalition" if first == "sweden" else "sweden"
    moved = run(db, "mod", "set", "pb1", "phase", f"1701-summer-actions-{second}")
    assert moved.exit_code == 0, moved.output
    now = show(db)
    assert (now["phase"], now["owing"]) == (f"1701-summer-actions-{second}", [second])
    state = json.loads(run(db, "state", "pb1").output)["state"]
    assert (state["year"], state["season"], state["step"]) == (1701, "summer", "actions-second")
    assert run(db, "adjudicate", "pb1").exit_code == 0
    replay = run(db, "replay", "pb1")
    assert replay.exit_code == 0 and "0 differences" in replay.output, replay.output
    bad = run(db, "mod", "set", "pb1", "phase", "1701-brunch")
    assert bad.exit_code == 1 and "is not a Pax Baltica phase id" in bad.output
    assert "nothing changed" in bad.output
