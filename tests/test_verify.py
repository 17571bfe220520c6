"""gm verify: rolls re-derived from the seed, phases re-adjudicated, on a real stored game.

The games are played through the service (create_game, submit_orders,
supply_dice, close_phase, rollback, reveal_seed) on the toy game of
tests/support/toygame.py, in a real SQLite file migrated to head (and a fresh
PostgreSQL database when GM_TEST_DATABASE_URL is set).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlmodel import col, select

from gm.cli.verify import dice as dice_cli
from gm.cli.verify import verify as verify_cli
from gm.db.engine import session_scope
from gm.db.models import EventLog, OrderSet, Phase
from gm.dice import Dice, derive_d6
from gm.games.base import Outcome
from gm.games.registry import register
from gm.orders.model import SourceLine
from gm.service import moderator
from gm.service.adjudicate import close_phase
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game, current_phase, get_game
from gm.service.orders import submit_orders
from gm.verify import (
    DiceRecord,
    MismatchKind,
    RollRecord,
    export_record,
    verify_game,
    verify_record,
    verify_replay,
    verify_rolls,
)
from tests.support.toygame import RaceModule

SEED = bytes(range(32))
GAME = "race7"


class WeatherRace(RaceModule):
    """The race with a public weather die each turn, so some rolls are not fogged."""

    name = "weatherrace"

    def adjudicate(self, state: dict[str, Any], orders: Mapping[str, Sequence[Any]],
                   dice: Dice) -> Outcome:
        weather = dice.d6("weather")
        outcome = super().adjudicate(state, orders, dice)
        outcome.state["weather"] = weather
        return outcome


register(WeatherRace())


@dataclass
class Table:
    ctx: ServiceContext
    url: str

    def session(self) -> Any:
        return session_scope(self.ctx.engine)

    def order(self, power: str, text: str) -> None:
        with self.session() as s:
            submit_orders(self.ctx, s, get_game(s, GAME), power, [SourceLine(1, text)])

    def close(self) -> None:
        with self.session() as s:
            seq = current_phase(s, GAME).seq
        self.ctx.clock.advance(timedelta(hours=1))  # type: ignore[attr-defined]
        assert close_phase(self.ctx, GAME, seq, by="deadline").closed

    def rolls(self, phase_id: str | None = None) -> list[EventLog]:
        with self.session() as s:
            rows = list(s.exec(select(EventLog).where(EventLog.game_id == GAME,
                                                      EventLog.type == "roll")
                               .order_by(col(EventLog.seq))))
        return [r for r in rows if phase_id is None or (r.data or {})["phase_id"] == phase_id]

    def check(self) -> list[Any]:
        with self.session() as s:
            return verify_game(s, GAME)


@pytest.fixture
def table(ctx: ServiceContext, db_url: str) -> Table:
    """A weather race between north and south, created with a known seed.

    ``ctx`` and ``db_url`` (tests/conftest.py) are a migrated SQLite file,
    then a fresh PostgreSQL database when GM_TEST_DATABASE_URL is set.
    """
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id=GAME, module_name="weatherrace", scenario="duel",
                    seats=[SeatSpec("north", "north@example.org"),
                           SeatSpec("south", "south@example.org")], seed=SEED)
    return Table(ctx, db_url)


def _play(table: Table, turns: int = 3) -> None:
    for turn in range(turns):
        table.order("north", f"advance {turn % 3 + 1}")
        table.order("south", "advance 3")
        table.close()


def _edit_roll(table: Table, phase_id: str, index: int, value: int) -> None:
    with table.session() as s:
        for row in s.exec(select(EventLog).where(EventLog.game_id == GAME, EventLog.type == "roll")):
            data = dict(row.data or {})
            if data["phase_id"] == phase_id and data["index"] == index:
                data["value"] = value
                row.data = data
                s.add(row)


def test_honest_game_passes(table: Table) -> None:
    """Three honest turns: every roll matches the seed and every replay the next state."""
    _play(table)
    rolls = table.rolls()
    assert len(rolls) == 9  # weather + one die per runner, three turns
    assert table.check() == []
    result = CliRunner().invoke(verify_cli, [GAME, "--db", table.url])
    assert result.exit_code == 0, result.output
    assert "OK" in result.output and "9 seed rolls" in result.output
    assert "3 adjudicated phases replayed" in result.output


def test_single_altered_roll_is_caught(table: Table) -> None:
    """One die changed in the log is reported: it is not the seed's, nor the replay's."""
    _play(table)
    original = derive_d6(SEED, GAME, "turn-2", 0, 1)
    _edit_roll(table, "turn-2", 1, original % 6 + 1)
    found = table.check()
    assert {(m.kind, m.phase_id, m.index) for m in found} == {
        (MismatchKind.ROLL, "turn-2", 1), (MismatchKind.ROLL_LOG, "turn-2", 1)}
    roll = next(m for m in found if m.kind is MismatchKind.ROLL)
    assert (roll.expected, roll.found, roll.where) == (original, original % 6 + 1, "north runs")
    result = CliRunner().invoke(verify_cli, [GAME, "--db", table.url])
    assert result.exit_code == 1
    assert "MISMATCH turn-2 branch 0 roll #1 (north runs)" in result.output


def test_altered_order_is_caught(table: Table) -> None:
    """An order changed after the adjudication no longer gives the state that followed."""
    _play(table)
    with table.session() as s:
        phase = s.exec(select(Phase).where(Phase.game_id == GAME,
                                           Phase.phase_id == "turn-2")).one()
        row = s.exec(select(OrderSet).where(OrderSet.game_id == GAME,
                                            OrderSet.phase_seq == phase.seq,
                                            OrderSet.power == "north",
                                            OrderSet.current == True)).one()  # noqa: E712
        assert row.orders == [{"advance": 2}]
        row.orders = [{"advance": 3}]
        s.add(row)
    found = table.check()
    assert [(m.kind, m.phase_id, m.where) for m in found] == [
        (MismatchKind.STATE, "turn-2", "position.north")]
    assert found[0].found == found[0].expected + 1


def test_altered_state_is_caught(table: Table) -> None:
    """A position edited between phases (without SET) shows on both sides of the edit.

    The phase before no longer leads to it, and the phase after, replayed
    from it, no longer leads to the state stored after that.
    """
    _play(table)
    with table.session() as s:
        phase = s.exec(select(Phase).where(Phase.game_id == GAME,
                                           Phase.phase_id == "turn-3")).one()
        state = json.loads(json.dumps(phase.game_state))
        state["position"]["south"] += 5
        phase.game_state = state
        s.add(phase)
    found = table.check()
    assert [(m.kind, m.phase_id, m.where) for m in found] == [
        (MismatchKind.STATE, "turn-2", "position.south"),
        (MismatchKind.STATE, "turn-3", "position.south")]
    assert found[0].expected == found[0].found + 5


def test_supplied_rolls_are_verified_as_supplied(table: Table) -> None:
    """DICE 6 6 THEN SEED: two supplied rolls, then seed roll 0; all verify; a changed supplied roll does not."""
    with table.session() as s:
        moderator.supply_dice(table.ctx, s, get_game(s, GAME), actor="mod", rolls=[6, 6],
                              then_seed=True)
    _play(table, 1)
    rolls = [(r.data or {}) for r in table.rolls("turn-1")]
    assert [(d["source"], d["index"], d["value"]) for d in rolls] == [
        ("supplied", 0, 6), ("supplied", 1, 6), ("seed", 0, derive_d6(SEED, GAME, "turn-1", 0, 0))]
    assert table.check() == []
    _edit_roll(table, "turn-1", 1, 2)  # the supplied one has index 1; so does no seed roll
    kinds = {(m.kind, m.index) for m in table.check()}
    assert (MismatchKind.SUPPLIED, 1) in kinds
    assert MismatchKind.ROLL not in {k for k, _ in kinds}


def test_rollback_reuses_the_same_rolls_and_fresh_dice_show(table: Table) -> None:
    """ROLLBACK TO turn-1 re-adjudicates with the same dice; FRESH DICE takes branch 1."""
    _play(table, 2)
    first = [(d["index"], d["value"]) for d in (r.data or {} for r in table.rolls("turn-1"))]
    with table.session() as s:
        moderator.rollback(table.ctx, s, get_game(s, GAME), actor="mod", phase_id="turn-1")
    table.close()
    again = [(r.data or {}) for r in table.rolls("turn-1")][len(first):]
    assert [(d["index"], d["value"]) for d in again] == first
    assert table.check() == []
    with table.session() as s:
        moderator.rollback(table.ctx, s, get_game(s, GAME), actor="mod", phase_id="turn-1",
                           fresh_dice=True)
    table.close()
    fresh = [r for r in table.rolls("turn-1") if r.branch == 1]
    assert [(r.data or {})["value"] for r in fresh] == [
        derive_d6(SEED, GAME, "turn-1", 1, i) for i in range(3)]
    assert table.check() == []
    with table.session() as s:  # every roll of every branch stays in the record
        record = export_record(s, GAME, everything=True)
    assert sorted({(r.phase_id, r.branch) for r in record.rolls}) == [
        ("turn-1", 0), ("turn-1", 1), ("turn-2", 0)]


def test_public_record_holds_only_public_rolls_until_reveal(table: Table, tmp_path: Path) -> None:
    """Before the reveal the record has only the weather dice; after it every roll and the seed."""
    _play(table, 2)
    with table.session() as s:
        before = export_record(s, GAME)
    assert [r.purpose for r in before.rolls] == ["weather", "weather"]
    assert before.seed is None and not before.complete
    assert verify_record(before, SEED) == []
    with table.session() as s:
        moderator.reveal_seed(table.ctx, s, get_game(s, GAME), actor="mod", force=True)
    out = tmp_path / "race7-dice.json"
    result = CliRunner().invoke(dice_cli, ["export", GAME, "--db", table.url, "--out", str(out)])
    assert result.exit_code == 0, result.output
    after = DiceRecord.load(out)
    assert after.complete and after.seed == SEED and len(after.rolls) == 6


def test_verify_record_from_file_without_database(table: Table, tmp_path: Path) -> None:
    """gm verify --seed HEX --record FILE passes on the archive and names a changed roll."""
    _play(table, 2)
    with table.session() as s:
        moderator.reveal_seed(table.ctx, s, get_game(s, GAME), actor="mod", force=True)
        record = export_record(s, GAME)
    path = tmp_path / "record.json"
    record.dump(path)
    table.ctx.engine.dispose()
    if table.url.startswith("sqlite:///"):
        Path(table.url.removeprefix("sqlite:///")).unlink()  # no database from here on
    runner = CliRunner()
    ok = runner.invoke(verify_cli, ["--seed", SEED.hex(), "--record", str(path)])
    assert ok.exit_code == 0, ok.output
    assert "6 seed rolls re-derived" in ok.output
    data = json.loads(path.read_text())
    data["rolls"][4]["value"] = data["rolls"][4]["value"] % 6 + 1
    path.write_text(json.dumps(data))
    bad = runner.invoke(verify_cli, ["--seed", SEED.hex(), "--record", str(path)])
    assert bad.exit_code == 1
    assert bad.output.count("MISMATCH") == 1
    assert "turn-2 branch 0 roll #1 (north runs)" in bad.output


def test_wrong_seed_fails_the_commitment() -> None:
    """A seed other than the committed one is refused, and its rolls do not match."""
    rolls = tuple(RollRecord("turn-1", 0, i, "seed", "weather", derive_d6(SEED, GAME, "turn-1", 0, i))
                  for i in range(12))
    from gm.dice import commitment

    record = DiceRecord(GAME, commitment(SEED, GAME), rolls)
    assert verify_record(record, SEED) == []
    found = verify_record(record, bytes(32))
    assert found[0].kind is MismatchKind.COMMITMENT
    assert all(m.kind is MismatchKind.ROLL for m in found[1:]) and len(found) > 1


def test_supplied_rolls_are_not_derived() -> None:
    """A supplied roll is checked as a d6 value (and against the list when known), never derived."""
    value = derive_d6(SEED, GAME, "turn-1", 0, 0) % 6 + 1  # not what the seed gives
    supplied = [RollRecord("turn-1", 0, 0, "supplied", "weather", value)]
    assert verify_rolls(supplied, SEED, GAME) == []
    assert verify_rolls(supplied, SEED, GAME, {("turn-1", 0): [value]}) == []
    wrong = verify_rolls(supplied, SEED, GAME, {("turn-1", 0): [value % 6 + 1]})
    assert [m.kind for m in wrong] == [MismatchKind.SUPPLIED]
    odd = [RollRecord("turn-1", 0, 0, "supplied", "weather", 7),
           RollRecord("turn-1", 0, 1, "table", "weather", 3)]
    assert [m.kind for m in verify_rolls(odd, SEED, GAME)] == [MismatchKind.NOT_A_D6,
                                                               MismatchKind.SOURCE]


def test_replay_reports_missing_logged_roll(table: Table) -> None:
    """A roll deleted from the log is missing in the replay's comparison."""
    _play(table, 1)
    with table.session() as s:
        row = s.exec(select(EventLog).where(EventLog.game_id == GAME,
                                            EventLog.type == "roll")).all()[-1]
        s.delete(row)
    with table.session() as s:
        found = verify_replay(s, GAME)
    assert [(m.kind, m.index, m.found) for m in found] == [(MismatchKind.ROLL_LOG, 2, None)]


def test_cli_needs_a_game_or_a_record() -> None:
    """gm verify with nothing to check says so and exits 2; a bad seed is a usage error."""
    runner = CliRunner()
    assert runner.invoke(verify_cli, []).exit_code == 2
    assert runner.invoke(verify_cli, ["--seed", "zz", "x"]).exit_code == 2


def test_cli_dice_derive_and_commitment_print_vectors() -> None:
    """gm dice derive / commitment print the docs/dice.md §9 vectors."""
    runner = CliRunner()
    out = runner.invoke(dice_cli, ["derive", "--seed", SEED.hex(), "--game", "baltica42",
                                   "--phase", "1701-summer-battle-narva", "--branch", "1",
                                   "-n", "5"])
    assert out.output.split() == ["1", "4", "5", "4", "1"]
    out = runner.invoke(dice_cli, ["commitment", "--seed", SEED.hex(), "--game", "baltica42"])
    assert out.output.strip() == "d19b2797ba6c3cee0af47068b1d8a116688af91fcbf81f2517b879ebc3e92c1b"


@pytest.mark.parametrize("content", [
    "not json", "[]", json.dumps({"format": "other"}),
    json.dumps({"format": "gm-dice-record-v1", "game": "g"}),
    json.dumps({"format": "gm-dice-record-v1", "game": "g", "commitment": "c",
                "rolls": [{"phase_id": "turn-1"}]}),
])
def test_cli_refuses_a_malformed_record(tmp_path: Path, content: str) -> None:
    """A file that is not a dice record is refused with a message, exit 2, no traceback."""
    path = tmp_path / "record.json"
    path.write_text(content)
    result = CliRunner().invoke(verify_cli, ["--seed", SEED.hex(), "--record", str(path)])
    assert result.exit_code == 2
    assert "cannot verify" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_rolled_back_adjudication_is_checked_too(table: Table) -> None:
    """A roll changed in an adjudication that was later rolled back is still found."""
    _play(table, 2)
    with table.session() as s:
        moderator.rollback(table.ctx, s, get_game(s, GAME), actor="mod", phase_id="turn-1")
    table.close()
    assert table.check() == []
    first = table.rolls("turn-1")[0]  # the weather die of the undone adjudication
    with table.session() as s:
        row = s.get(EventLog, first.id)
        assert row is not None
        row.data = {**(row.data or {}), "value": (row.data or {})["value"] % 6 + 1}
        s.add(row)
    found = table.check()
    assert sorted(m.kind.name for m in found) == ["ROLL", "ROLL_LOG"]
    assert {(m.phase_id, m.index, m.where) for m in found} == {("turn-1", 0, "weather")}


def test_gm_command_passes_its_database_to_verify(table: Table) -> None:
    """`gm --db URL verify GAME` (the main command's --db) checks that database."""
    from gm.cli.main import cli

    _play(table, 1)
    result = CliRunner().invoke(cli, ["--db", table.url, "verify", GAME])
    assert result.exit_code == 0, result.output
    assert "1 adjudicated phase replayed" in result.output


def test_damaged_roll_event_is_a_finding_not_a_crash(table: Table) -> None:
    """A roll event whose value was removed from the log is reported as not a d6 value."""
    _play(table, 1)
    with table.session() as s:
        row = s.exec(select(EventLog).where(EventLog.game_id == GAME,
                                            EventLog.type == "roll")).first()
        assert row is not None
        row.data = {k: v for k, v in (row.data or {}).items() if k != "value"}
        s.add(row)
    kinds = {m.kind for m in table.check()}
    assert kinds == {MismatchKind.NOT_A_D6, MismatchKind.ROLL_LOG}
