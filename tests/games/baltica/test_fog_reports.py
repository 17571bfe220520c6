"""The fog of war (0.0, 3.3.1, 5.1, 6.1) in everything a player is sent or may ask for.

Several seeded 12.1 games are played with random legal orders through the service;
after every close, each report queued to a power and ``gm state GAME --as POWER`` must
name no enemy block that is not revealed to that power at that moment, and give no
enemy block's strength beside its name unless it is revealed.

"Revealed at that moment" for a report is: the blocks the power's fog view lists as
revealed in the phase the report announces or the phase it reports on, plus, when
the phase reported on was the battles phase, the enemy blocks standing in a
territory that held both sides' blocks (5.1: battle blocks are revealed).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from sqlmodel import col, select

from gm.cli.main import cli
from gm.clock import FakeClock
from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.migrate import upgrade
from gm.db.models import Phase
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.state import OFF_MAP, GameState
from gm.orders.model import SourceLine
from gm.service.adjudicate import close_phase, settle
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game, current_phase, get_game
from gm.service.orders import submit_orders
from tests.pipeline.conftest import outbox

ADDRESS = {"sweden": "sweden@example.org", "coalition": "coalition@example.org"}
ENEMY = {"sweden": "coalition", "coalition": "sweden"}
SEEDS = [1, 2, 3, 4, 5]
CLOSES = 14  # about two seasons
MODULE = BalticaModule()
BOARD = MODULE.board


def side_of(block: str) -> str:
    return BOARD.nations[BOARD.blocks[block].nation].side.value


def _place_names() -> set[str]:
    names = {t.name.casefold() for t in BOARD.territories.values()}
    names |= {s.name.casefold() for s in BOARD.seas.values()}
    names |= {n.casefold() for n in BOARD.nations}
    return names


PLACES = _place_names()
# Block names that are also a place name (e.g. the Bergenhus regiment and the territory)
# cannot be told apart in text; they are checked in the JSON view only.
TEXT_CHECKED = {b for b in BOARD.blocks if BOARD.blocks[b].name.casefold() not in PLACES}


def mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name.casefold())}(?!\w)", text.casefold()) is not None


@pytest.fixture
def sqlite_ctx(tmp_path) -> Iterator[tuple[ServiceContext, str]]:  # type: ignore[no-untyped-def]
    path = tmp_path / "gm.db"
    engine = make_engine(sqlite_url(path))
    upgrade(engine)
    yield (ServiceContext(engine=engine, clock=FakeClock(),
                          settings={"address": "gm@example.org", "moderator_address": "mod@example.org"},
                          instance="test"), str(path))
    engine.dispose()


def random_orders(rng: random.Random, state: dict[str, Any], power: str) -> list[str]:
    """Up to four plausible action lines for ``power``: recon, moves (some forced), sieges."""
    gs = GameState.from_json(state)
    mine = [b for b, bs in gs.blocks.items()
            if side_of(b) == power and bs.location in BOARD.territories and bs.location not in OFF_MAP]
    lines: list[str] = []
    fleets = [b for b, bs in gs.blocks.items() if side_of(b) == power and bs.location in BOARD.seas]
    if fleets:
        f = rng.choice(fleets)
        sea = gs.blocks[f].location
        to = rng.choice(sorted(BOARD.seas[sea].adjacent))
        lines.append(f"sail {BOARD.blocks[f].name} from {BOARD.seas[sea].name} to {BOARD.seas[to].name}")
        ports = [b for b in mine if BOARD.territories[gs.blocks[b].location].sea == sea]
        if ports:
            b = rng.choice(ports)
            where = BOARD.territories[gs.blocks[b].location].name
            lines.insert(0, f"embark {BOARD.blocks[b].name} from {where} onto {BOARD.blocks[f].name}")
    for _ in range(4):
        if not mine:
            break
        b = rng.choice(mine)
        here = gs.blocks[b].location
        near = BOARD.neighbours(here)
        if not near:
            continue
        there = rng.choice(near)
        name, where, to = BOARD.blocks[b].name, BOARD.territories[here].name, BOARD.territories[there].name
        kind = rng.choice(["recon", "move", "move", "force", "siege", "politics", "replace"])
        if kind == "politics":
            majors = [n for n, v in BOARD.nations.items() if v.major and v.side.value == power]
            lines.append(f"politics {BOARD.nations[rng.choice(majors)].name}")
            lines.append(f"reinforce {name}")
        elif kind == "replace":
            lines.append(f"replace {name}")
        elif kind == "recon":
            lines.append(f"recon {to}")
        elif kind == "move":
            lines.append(f"move from {where}: {name} to {to}")
        elif kind == "force":
            further = [t for t in BOARD.neighbours(there) if t != here] or [there]
            lines.append(f"move from {where}: {name} to {BOARD.territories[rng.choice(further)].name} force")
        else:
            lines.append(f"siege {where} with {name}")
    return lines


def standing_orders(rng: random.Random, state: dict[str, Any], power: str) -> list[str]:
    """The other player's standing orders in an action phase: pins (4.3), discontent (12.4)."""
    gs = GameState.from_json(state)
    mine = [b for b, bs in gs.blocks.items()
            if side_of(b) == power and bs.location in BOARD.territories]
    if not mine:
        return []
    b = rng.choice(mine)
    where = BOARD.territories[gs.blocks[b].location].name
    return [f"pin {BOARD.blocks[b].name} in {where}", f"discontent {where}"]


def winter_orders(rng: random.Random, state: dict[str, Any], power: str) -> list[str]:
    """3.4: Sweden campaigns with Karl XII and the blocks with him into a neighbour; the
    Coalition pins."""
    if power != "sweden":
        return standing_orders(rng, state, power)
    gs = GameState.from_json(state)
    here = gs.blocks["karl-xii"].location
    if here not in BOARD.territories or not BOARD.neighbours(here):
        return []
    names = [BOARD.blocks[b].name for b, bs in gs.blocks.items()
             if bs.location == here and side_of(b) == "sweden" and BOARD.blocks[b].kind.value != "fleet"]
    to = BOARD.territories[rng.choice(BOARD.neighbours(here))].name
    return [f"winter campaign: move from {BOARD.territories[here].name}: {', '.join(names)} to {to}"]


def revealed_names(state: dict[str, Any] | None, power: str) -> set[str]:
    if state is None:
        return set()
    return {r["name"] for r in MODULE.view(state, power)["revealed"]}


def battle_names(state: dict[str, Any] | None, power: str) -> set[str]:
    """Enemy blocks in a territory holding both sides' blocks at the start of the battles (5.1)."""
    if state is None:
        return set()
    gs = GameState.from_json(state)
    sides: dict[str, set[str]] = {}
    for b, bs in gs.blocks.items():
        if bs.location in BOARD.territories:
            sides.setdefault(bs.location, set()).add(side_of(b))
    contested = {t for t, s in sides.items() if len(s) == 2}
    return {BOARD.blocks[b].name for b, bs in gs.blocks.items()
            if bs.location in contested and side_of(b) == ENEMY[power]}


def winter_battle_names(state: dict[str, Any] | None, power: str) -> set[str]:
    """Enemy blocks next to Karl XII when a winter campaign starts (the battle it may cause)."""
    if state is None:
        return set()
    gs = GameState.from_json(state)
    here = gs.blocks["karl-xii"].location
    near = set(BOARD.neighbours(here)) if here in BOARD.territories else set()
    return {BOARD.blocks[b].name for b, bs in gs.blocks.items()
            if bs.location in near and side_of(b) == ENEMY[power]}


def phases(ctx: ServiceContext) -> dict[str, Phase]:
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(Phase).where(Phase.game_id == "fog").order_by(col(Phase.seq))).all()
        for r in rows:
            s.expunge(r)
    return {r.phase_id: r for r in rows}


def allowed_for_report(ctx: ServiceContext, text: str, power: str) -> set[str]:
    by_id = phases(ctx)
    now = re.search(r"==== gm report fog (\S+) ====", text)
    assert now, text[:200]
    allowed = revealed_names(by_id[now.group(1)].game_state, power)
    closed = re.search(r"^(?:Adjudicated|Phase jugée) ?: (\S+(?:, \S+)*)$", text, re.M)
    # a report of several phases closed at once names them all (docs/reports.md)
    for before in [by_id[p] for p in (closed.group(1).split(", ") if closed else []) if p in by_id]:
        allowed |= revealed_names(before.game_state, power)
        if before.kind == "battle":
            allowed |= battle_names(before.game_state, power)
        if before.kind == "winter-campaign":  # its battle is where Karl XII went (3.4)
            allowed |= winter_battle_names(before.game_state, power)
    return allowed


def enemy_blocks(power: str) -> set[str]:
    return {b for b in BOARD.blocks if side_of(b) == ENEMY[power]}


def assert_report_fogged(text: str, power: str, allowed: set[str]) -> None:
    for b in enemy_blocks(power) & TEXT_CHECKED:
        name = BOARD.blocks[b].name
        if name not in allowed:
            assert not mentions(text, name), f"{power} was told of hidden {name}:\n{text}"


def assert_state_fogged(output: str, power: str) -> None:
    """``gm state --as``: hidden enemy names absent; an enemy strength only for a revealed block."""
    view = json.loads(output)
    allowed = {r["name"] for r in view["revealed"]}
    enemy_names = {BOARD.blocks[b].name for b in enemy_blocks(power)}
    assert "state" not in view
    for b in enemy_blocks(power) & TEXT_CHECKED:
        if BOARD.blocks[b].name not in allowed:
            assert not mentions(output, BOARD.blocks[b].name), BOARD.blocks[b].name

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("name") in enemy_names and "strength" in node:
                assert node["name"] in allowed, node
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(view)
    assert all(BOARD.nations[BOARD.blocks[b["id"]].nation].side.value == power for b in view["own_blocks"])


@pytest.mark.parametrize("seed", SEEDS)
def test_no_hidden_enemy_block_in_reports_or_state_as(sqlite_ctx, seed: int) -> None:  # type: ignore[no-untyped-def]
    """0.0/3.3.1/5.1/6.1: a player learns an enemy block's name and strength only by
    reconnaissance, by battle or from a siege; everything else is counts per territory."""
    ctx, path = sqlite_ctx
    rng = random.Random(seed)
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="fog", module_name="baltica", scenario="12.1",
                    seats=[SeatSpec(p, a, password=f"{p}-pw") for p, a in ADDRESS.items()],
                    moderator_address="mod@example.org", seed=bytes([seed]) * 32)
    settle(ctx, "fog", by="test")
    runner = CliRunner()
    checked = {p: 0 for p in ADDRESS}
    for _ in range(CLOSES):
        with session_scope(ctx.engine) as s:
            game = get_game(s, "fog")
            phase = current_phase(s, "fog")
            if MODULE.phase(phase.game_state or {}).ended:
                break
            info = MODULE.phase(phase.game_state or {})
            for power in info.allowed():
                if phase.kind == "winter-campaign":
                    lines = winter_orders(rng, phase.game_state or {}, power)
                    submit_orders(ctx, s, game, power,
                                  [SourceLine(i + 1, t) for i, t in enumerate(lines)])
                elif phase.kind == "actions":
                    make = random_orders if power in info.owing else standing_orders
                    lines = make(rng, phase.game_state or {}, power)
                    submit_orders(ctx, s, game, power,
                                  [SourceLine(i + 1, t) for i, t in enumerate(lines)])
            seq = phase.seq
        assert close_phase(ctx, "fog", seq, by="test").closed
        for power, address in ADDRESS.items():
            for _row, text in outbox(ctx, kind="report", to=address)[checked[power]:]:
                assert_report_fogged(text, power, allowed_for_report(ctx, text, power))
                checked[power] += 1
            result = runner.invoke(cli, ["--db", path, "state", "fog", "--as", power])
            assert result.exit_code == 0, result.output
            assert_state_fogged(result.output, power)
    assert min(checked.values()) >= CLOSES
