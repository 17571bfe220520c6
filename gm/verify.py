"""Checking a game's dice and adjudications after the fact (docs/dice.md).

Two independent checks, both run by ``gm verify``:

* **Rolls against the seed.** Once the seed is published, every roll the
  seed produced is derived again (:func:`gm.dice.derive_d6`) and compared with
  the roll as logged or archived; supplied rolls are checked as supplied (a d6
  value, and the moderator's list where it is known), never derived. The
  seed itself is checked against the commitment shown in the first report.
* **Replay.** Each finished phase is adjudicated again from its logged state,
  its current orders and its dice (same seed, branch and supplied rolls), and
  the result, with the moderator's recorded ``SET`` acts on the next phase applied
  in their place, is compared with the state the next phase holds and the rolls
  with the log.

A :class:`DiceRecord` is the public dice archive of a game (JSON, format
``gm-dice-record-v1``): without the database, ``gm verify --seed HEX
--record FILE`` checks it. While the seed is secret it holds only the rolls
every player saw; once the seed is revealed it holds every roll.

Findings are :class:`Mismatch` values of a closed :class:`MismatchKind`;
problems that stop a check from running at all raise :class:`VerifyError`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, TypedDict

from sqlmodel import Session, col, select

from gm.db.models import EventLog, Game, ModeratorAct, OrderSet, Phase
from gm.dice import Dice, DiceExhausted, commitment, derive_d6

RECORD_FORMAT = "gm-dice-record-v1"
SOURCES = ("seed", "supplied")
_MAX_STATE_DIFFS = 10  # differing paths reported per phase


class VerifyError(Exception):
    """A check cannot run: unknown game, unreadable record, no seed to check with."""


class MismatchKind(Enum):
    """Everything ``gm verify`` can find wrong, worded for the report line."""

    COMMITMENT = "the seed does not match the game's commitment"
    ROLL = "the roll is not the one the seed gives"
    SUPPLIED = "the supplied roll is not the one the moderator supplied"
    NOT_A_D6 = "the roll is not a d6 value"
    SOURCE = "the roll's source is neither seed nor supplied"
    STATE = "re-adjudicating gives a different state"
    ROLL_LOG = "re-adjudicating gives different rolls from the log"
    REPLAY_FAILED = "re-adjudicating the phase failed"


class _Place(TypedDict):
    """Where a roll finding is (the place fields of :class:`Mismatch`)."""

    phase_id: str
    branch: int
    index: int | None
    where: str


@dataclass(frozen=True)
class Mismatch:
    """One finding: what is wrong, where, what was expected and what was found.

    ``where`` is the roll's purpose for roll findings and the dotted path in
    the module's state for :attr:`MismatchKind.STATE`.
    """

    kind: MismatchKind
    phase_id: str = ""
    branch: int = 0
    index: int | None = None
    expected: Any = None
    found: Any = None
    where: str = ""

    def describe(self) -> str:
        """One line for the terminal: ``phase/branch #index (where): kind: expected, found``."""
        place = self.phase_id or "game"
        if self.phase_id:
            place += f" branch {self.branch}"
        if self.index is not None:
            place += f" roll #{self.index}"
        if self.where:
            place += f" ({self.where})"
        return (f"{place}: {self.kind.value}: expected {_show(self.expected)}, "
                f"found {_show(self.found)}")


def _show(value: Any) -> str:
    return json.dumps(value, sort_keys=True) if not isinstance(value, str) else value


@dataclass(frozen=True)
class RollRecord:
    """One roll as published: enough to re-derive it and to say what it was for."""

    phase_id: str
    branch: int
    index: int
    source: str
    purpose: str
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"phase_id": self.phase_id, "branch": self.branch, "index": self.index,
                "source": self.source, "purpose": self.purpose, "value": self.value}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RollRecord:
        try:
            return cls(str(data["phase_id"]), int(data["branch"]), int(data["index"]),
                       str(data["source"]), str(data.get("purpose", "")), int(data["value"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise VerifyError(f"a roll in the record is malformed ({exc!r}): {data!r}") from exc


@dataclass(frozen=True)
class DiceRecord:
    """A game's public dice archive (``gm dice export``; docs/dice.md, "The record").

    ``complete`` is True when the record holds every roll (the seed was
    revealed, or a moderator exported it); otherwise only rolls every player
    saw. ``seed`` is set once the seed is revealed.
    """

    game_id: str
    commitment: str
    rolls: tuple[RollRecord, ...]
    complete: bool = False
    seed: bytes | None = None

    def to_json(self) -> dict[str, Any]:
        return {"format": RECORD_FORMAT, "game": self.game_id, "commitment": self.commitment,
                "seed": self.seed.hex() if self.seed is not None else None,
                "complete": self.complete, "rolls": [r.to_json() for r in self.rolls]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DiceRecord:
        if not isinstance(data, Mapping) or data.get("format") != RECORD_FORMAT:
            found = data.get("format") if isinstance(data, Mapping) else type(data).__name__
            raise VerifyError(f"not a gm dice record (format {found!r}, "
                              f"expected {RECORD_FORMAT!r})")
        seed = data.get("seed")
        try:
            game_id, published = str(data["game"]), str(data["commitment"])
        except KeyError as exc:
            raise VerifyError(f"the dice record has no {exc.args[0]!r}") from exc
        return cls(game_id, published,
                   tuple(RollRecord.from_json(r) for r in data.get("rolls") or ()),
                   bool(data.get("complete", False)),
                   parse_seed(seed) if seed else None)

    def dump(self, path: str | Path) -> None:
        """Write the record as pretty JSON (UTF-8)."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n",
                              encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> DiceRecord:
        """Read a record written by :meth:`dump` (raise :class:`VerifyError`)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise VerifyError(f"cannot read the dice record {path}: {exc}") from exc
        return cls.from_json(data)


def parse_seed(text: str) -> bytes:
    """A published seed from its hex form (64 hex digits; spaces and colons allowed)."""
    clean = "".join(ch for ch in text if ch not in " :\t\n")
    try:
        seed = bytes.fromhex(clean)
    except ValueError as exc:
        raise VerifyError(f"the seed is not hexadecimal: {text!r}") from exc
    if len(seed) != 32:
        raise VerifyError(f"the seed has {len(seed)} bytes; a gm seed has 32")
    return seed


# --- rolls against the seed -------------------------------------------------


def verify_commitment(seed: bytes, game_id: str, published: str) -> list[Mismatch]:
    """The seed against the commitment every player got in the first report."""
    actual = commitment(seed, game_id)
    if actual == published.strip().lower():
        return []
    return [Mismatch(MismatchKind.COMMITMENT, expected=published, found=actual)]


def verify_rolls(records: Iterable[RollRecord], seed: bytes, game_id: str,
                 supplied: Mapping[tuple[str, int], Sequence[int]] | None = None) -> list[Mismatch]:
    """Re-derive every seed roll of ``records`` from ``seed``; report each that differs.

    Supplied rolls are not derived: they must be d6 values and, where
    ``supplied`` gives the moderator's list for their (phase id, branch), the
    value at their index in that list.
    """
    found: list[Mismatch] = []
    for rec in records:
        place = _Place(phase_id=rec.phase_id, branch=rec.branch, index=rec.index,
                       where=rec.purpose)
        if not 1 <= rec.value <= 6:
            found.append(Mismatch(MismatchKind.NOT_A_D6, expected="1..6", found=rec.value, **place))
        elif rec.source == "seed":
            want = derive_d6(seed, game_id, rec.phase_id, rec.branch, rec.index)
            if want != rec.value:
                found.append(Mismatch(MismatchKind.ROLL, expected=want, found=rec.value, **place))
        elif rec.source == "supplied":
            given = (supplied or {}).get((rec.phase_id, rec.branch))
            if given is not None and (rec.index >= len(given) or given[rec.index] != rec.value):
                listed = given[rec.index] if rec.index < len(given) else None
                found.append(Mismatch(MismatchKind.SUPPLIED, expected=listed, found=rec.value,
                                      **place))
        else:
            found.append(Mismatch(MismatchKind.SOURCE, expected=SOURCES, found=rec.source,
                                  **place))
    return found


def verify_record(record: DiceRecord, seed: bytes | None = None) -> list[Mismatch]:
    """Check a dice record with the published ``seed`` (or the one it carries)."""
    seed = seed if seed is not None else record.seed
    if seed is None:
        raise VerifyError("the seed is not revealed yet: give it with --seed")
    return (verify_commitment(seed, record.game_id, record.commitment)
            + verify_rolls(record.rolls, seed, record.game_id))


# --- the database side ------------------------------------------------------


def _game(session: Session, game_id: str) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise VerifyError(f"no game '{game_id}' in this database")
    return game


def _phases(session: Session, game_id: str) -> list[Phase]:
    stmt = select(Phase).where(Phase.game_id == game_id).order_by(col(Phase.seq))
    return list(session.exec(stmt).all())


def _roll_events(session: Session, game_id: str, phase_seq: int | None = None,
                 branch: int | None = None) -> list[EventLog]:
    stmt = select(EventLog).where(EventLog.game_id == game_id, EventLog.type == "roll")
    if phase_seq is not None:
        stmt = stmt.where(EventLog.phase_seq == phase_seq)
    if branch is not None:
        stmt = stmt.where(EventLog.branch == branch)
    stmt = stmt.order_by(col(EventLog.phase_seq), col(EventLog.seq), col(EventLog.id))
    return list(session.exec(stmt).all())


def _is_public(row: EventLog) -> bool:
    return row.visible_to is None and (row.data or {}).get("visible_to") is None


def _int(value: Any, missing: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return missing


def _record_of(row: EventLog, phase_ids: Mapping[int, str]) -> RollRecord:
    """A logged roll as a record; a damaged one keeps what it has (0 is not a d6 value)."""
    data = row.data or {}
    return RollRecord(str(data.get("phase_id") or phase_ids.get(row.phase_seq, "")),
                      row.branch, _int(data.get("index"), -1), str(data.get("source", "")),
                      str(data.get("purpose", "")), _int(data.get("value"), 0))


def roll_records(session: Session, game_id: str, *, public_only: bool = False) -> list[RollRecord]:
    """Every logged roll of a game in log order (only the public ones if asked)."""
    phase_ids = {p.seq: p.phase_id for p in _phases(session, game_id)}
    return [_record_of(row, phase_ids) for row in _roll_events(session, game_id)
            if not public_only or _is_public(row)]


def export_record(session: Session, game_id: str, *, everything: bool = False) -> DiceRecord:
    """The public dice record of a game: every roll once the seed is revealed.

    Before the reveal only the rolls every player saw are included (a roll
    shown to some powers could reveal hidden strength), unless ``everything``
    (a moderator's export, which is then not for publication).
    """
    game = _game(session, game_id)
    full = everything or game.seed_revealed
    rolls = tuple(roll_records(session, game_id, public_only=not full))
    return DiceRecord(game.id, game.commitment, rolls, complete=full,
                      seed=game.seed if game.seed_revealed else None)


def _orders(session: Session, module: Any, phase: Phase) -> dict[str, list[Any]]:
    """The orders the phase was adjudicated with, in the service's order.

    As the service gathers them: the owing powers first (the phase's
    ``info.owing``), then any other power with orders; a set holding only
    READY/WAIT flags is no orders; defaults were stored as order sets.
    """
    stmt = select(OrderSet).where(OrderSet.game_id == phase.game_id,
                                  OrderSet.phase_seq == phase.seq,
                                  OrderSet.current == True)  # noqa: E712
    latest: dict[str, OrderSet] = {}
    for row in session.exec(stmt.order_by(col(OrderSet.id))).all():
        if row.power not in latest or row.version > latest[row.power].version:
            latest[row.power] = row
    owing = list((phase.info or {}).get("owing", ()))
    orders: dict[str, list[Any]] = {}
    for power in dict.fromkeys(owing + list(latest)):
        current = latest.get(power)
        if current is not None and (current.orders or current.source != "flags"):
            orders[power] = [module.order_from_json(o) for o in current.orders or []]
    return orders


def _json_form(value: Any) -> Any:
    """``value`` as it would come back from a JSON column (tuples become lists)."""
    return json.loads(json.dumps(value))


def state_diff(expected: Any, found: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Dotted paths at which two JSON trees differ, with the two values there."""
    if isinstance(expected, dict) and isinstance(found, dict):
        out: list[tuple[str, Any, Any]] = []
        for key in sorted(set(expected) | set(found), key=str):
            sub = f"{path}.{key}" if path else str(key)
            out += state_diff(expected.get(key), found.get(key), sub)
        return out
    if isinstance(expected, list) and isinstance(found, list) and len(expected) == len(found):
        out = []
        for i, (a, b) in enumerate(zip(expected, found, strict=True)):
            out += state_diff(a, b, f"{path}.{i}" if path else str(i))
        return out
    return [] if expected == found else [(path, expected, found)]


def _roll_view(roll: Any) -> dict[str, Any]:
    return {"index": roll.index, "source": roll.source, "value": roll.value,
            "purpose": roll.purpose}


def _compare_rolls(phase: Phase, replayed: Sequence[Any],
                   logged: Sequence[EventLog]) -> list[Mismatch]:
    """The replay's rolls against the logged rolls of the phase row, one by one.

    Each adjudication has its own phase row (a rollback opens a new one), so
    the rolls logged under the row's ``seq`` and branch are exactly those of
    its adjudication: a missing, extra or changed roll is a mismatch.
    """
    found: list[Mismatch] = []
    for i in range(max(len(replayed), len(logged))):
        want = _roll_view(replayed[i]) if i < len(replayed) else None
        data = (logged[i].data or {}) if i < len(logged) else None
        got = None if data is None else {k: data.get(k) for k in ("index", "source", "value",
                                                                  "purpose")}
        if got != want:
            ref = want or got or {}
            found.append(Mismatch(MismatchKind.ROLL_LOG, phase.phase_id, phase.dice_branch,
                                  ref.get("index"), want, got, str(ref.get("purpose", ""))))
    return found


def _replay_phase(game: Game, module: Any, phase: Phase, orders: Mapping[str, list[Any]],
                  logged: Sequence[EventLog], next_state: Any,
                  sets: Sequence[Mapping[str, Any]] = ()) -> list[Mismatch]:
    dice = Dice(seed=game.seed, game_id=game.id, phase_id=phase.phase_id,
                branch=phase.dice_branch, supplied=tuple(phase.supplied_dice or ()),
                then_seed=phase.supplied_then_seed)
    try:
        outcome = module.adjudicate(copy.deepcopy(phase.game_state), orders, dice)
    except DiceExhausted as exc:
        return [Mismatch(MismatchKind.REPLAY_FAILED, phase.phase_id, phase.dice_branch,
                         expected="an adjudication", found=str(exc))]
    except Exception as exc:  # a module bug must be reported, not crash the check
        return [Mismatch(MismatchKind.REPLAY_FAILED, phase.phase_id, phase.dice_branch,
                         expected="an adjudication", found=f"{type(exc).__name__}: {exc}")]
    found = _compare_rolls(phase, dice.rolls, logged)
    if next_state is not None:
        replayed = _json_form(outcome.state)
        for act in sets:  # the moderator's SET acts on the next phase, in their place
            from gm.service.moderator import assign_path

            for change in act.get("changes") or [act]:
                assign_path(replayed, str(change["path"]), change.get("new"), create=True)
        diffs = state_diff(_json_form(next_state), replayed)
        found += [Mismatch(MismatchKind.STATE, phase.phase_id, phase.dice_branch,
                           expected=want, found=got, where=path)
                  for path, want, got in diffs[:_MAX_STATE_DIFFS]]
    return found


def verify_replay(session: Session, game_id: str) -> list[Mismatch]:
    """Re-adjudicate every adjudicated phase and compare with the next phase and the log.

    Each phase row that was adjudicated (state ``done``, or ``undone`` by a
    later rollback), in ``seq`` order, is adjudicated again by the module from
    the row's ``game_state``, its current orders and its dice rebuilt from the
    seed, the row's branch and its supplied rolls. The result must equal the
    ``game_state`` of the next row by ``seq`` (the service opens it from that
    outcome), and the rolls must equal the rolls logged under the row.
    """
    from gm.games import registry

    game = _game(session, game_id)
    module = registry.get(game.module)
    phases = _phases(session, game_id)
    sets = _state_sets(session, game_id)
    found: list[Mismatch] = []
    for i, phase in enumerate(phases):
        if not _adjudicated(phase):
            continue
        following = phases[i + 1] if i + 1 < len(phases) else None
        orders = _orders(session, module, phase)
        logged = _roll_events(session, game_id, phase.seq, phase.dice_branch)
        found += _replay_phase(game, module, phase, orders, logged,
                               following.game_state if following is not None else None,
                               sets.get(following.seq, []) if following is not None else [])
    return found


def _state_sets(session: Session, game_id: str) -> dict[int, list[dict[str, Any]]]:
    """The moderator's recorded ``SET path = value`` acts (their args), by the phase they
    changed, in the order they were made: sanctioned changes a replay applies in place."""
    rows = session.exec(select(ModeratorAct).where(
        ModeratorAct.game_id == game_id, ModeratorAct.command == "set"
    ).order_by(col(ModeratorAct.at), col(ModeratorAct.id)))
    out: dict[int, list[dict[str, Any]]] = {}
    for act in rows:
        if act.phase_seq is not None:  # a SET always names its phase; a replay looks it up so
            out.setdefault(act.phase_seq, []).append(dict(act.args or {}))
    return out


def _adjudicated(phase: Phase) -> bool:
    return phase.state == "done" or (phase.state == "undone" and phase.adjudicated_at is not None)


def adjudicated_phases(session: Session, game_id: str) -> list[Phase]:
    """The phase rows :func:`verify_replay` re-adjudicates, in ``seq`` order."""
    return [p for p in _phases(session, game_id) if _adjudicated(p)]


def _verify_logged_rolls(session: Session, game: Game, seed: bytes) -> list[Mismatch]:
    """Every logged roll against the seed, supplied ones against their phase row's list."""
    phases = {p.seq: p for p in _phases(session, game.id)}
    phase_ids = {seq: p.phase_id for seq, p in phases.items()}
    found: list[Mismatch] = []
    for row in _roll_events(session, game.id):
        rec = _record_of(row, phase_ids)
        phase = phases.get(row.phase_seq)
        given = {(rec.phase_id, rec.branch): list(phase.supplied_dice or [])} if phase else None
        found += verify_rolls([rec], seed, game.id, given)
    return found


def verify_game(session: Session, game_id: str, seed: bytes | None = None) -> list[Mismatch]:
    """Both checks on a stored game: commitment and rolls, then the replay.

    ``seed`` is the published seed to check; without it the stored seed is
    used (the operator's check, e.g. before revealing).
    """
    game = _game(session, game_id)
    seed = seed if seed is not None else game.seed
    found = verify_commitment(seed, game.id, game.commitment)
    found += _verify_logged_rolls(session, game, seed)
    return found + verify_replay(session, game_id)
