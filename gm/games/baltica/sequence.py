"""The PBEM sequence of play (0.3), as a table that reads like the rulebook's.

Each game turn (season) becomes phases, each with an id like
``1701-summer-actions-sweden`` and a kind for the deadline settings::

    step            kind         who orders          rule
    action-roll     action-roll  nobody (GM rolls)   3.1, 3.2
    actions-first   actions      the First Player    3.3, 4.x
    actions-second  actions      the Second Player   3.3, 4.x
    battles         battle       both (standing)     5.x, then sieges 6.x
    forage          forage       both (standing)     7.x

Once a year, before spring (0.3: "This phase does not occur in the first year of
any scenario")::

    interphase      interphase   both (simultaneous) 0.3, 8.x, 10.1, 11.x

Its phase id is ``1701-interphase``; what it does, in order, is the list of
sub-steps :data:`gm.games.baltica.rules.interphase.INTERPHASE_STEPS`.

After the Winter turn, Sweden's option of a winter campaign (3.4), while Karl XII is on
the map (its phase id ``1701-winter-campaign``; not after the scenario's last turn)::

    winter-campaign winter-campaign  Sweden      3.4
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.games.baltica.state import POWERS, SEASONS, GameState, Turn, other_power

KARL_XII = "karl-xii"  # 3.4: the winter campaign is Karl XII's


@dataclass(frozen=True)
class Step:
    """One row of the sequence of play."""

    id: str
    kind: str
    rule: str
    enabled: bool = True


YEAR_START = (
    Step("interphase", "interphase", "0.3, 8.x, 10.1"),
)
SEASON = (
    Step("action-roll", "action-roll", "3.1, 3.2"),
    Step("actions-first", "actions", "3.3, 4.x"),
    Step("actions-second", "actions", "3.3, 4.x"),
    Step("battles", "battle", "5.x, 6.x"),
    Step("forage", "forage", "7.x"),
)
YEAR_END = (
    Step("winter-campaign", "winter-campaign", "3.4"),
)


def step_row(step: str) -> Step:
    """The row of a step id."""
    return next(s for s in YEAR_START + SEASON + YEAR_END if s.id == step)


def acting_power(state: GameState) -> str | None:
    """Whose actions an ``actions-*`` step is for (the First or Second Player, 0.3)."""
    first = state.turn.first or POWERS[0]
    if state.step == "actions-first":
        return first
    if state.step == "actions-second":
        return other_power(first)
    return None


def phase_id(state: GameState) -> str:
    """The phase id of orders.md §1: year, season, step and the acting power."""
    step = state.step
    if state.ended:
        return f"{state.year}-{state.season}-game-over"
    if any(s.id == step for s in YEAR_START + YEAR_END):
        return f"{state.year}-{step}"
    if step.startswith("actions-"):
        return f"{state.year}-{state.season}-actions-{acting_power(state)}"
    if step == "battles":
        return f"{state.year}-{state.season}-battles"
    return f"{state.year}-{state.season}-{step}"


def owing(state: GameState) -> tuple[str, ...]:
    """The powers whose orders (or defaults) the step needs."""
    if state.ended or state.step == "action-roll":
        return ()
    if state.step == "winter-campaign":
        return (POWERS[0],)  # 3.4: "the Swedish player may go on a special Winter Campaign"
    power = acting_power(state)
    if power is not None:
        return (power,)
    return POWERS


def next_step(state: GameState) -> None:
    """Advance ``state`` to the next enabled step, rolling over seasons and years."""
    start = [s.id for s in YEAR_START if s.enabled]
    if state.step in start:
        i = start.index(state.step)
        state.step = start[i + 1] if i + 1 < len(start) else SEASON[0].id
        return
    if state.step in [s.id for s in YEAR_END]:
        _new_year(state)
        return
    order = [s.id for s in SEASON]
    i = order.index(state.step)
    if i + 1 < len(order):
        state.step = order[i + 1]
        return
    new_turn(state)


def new_turn(state: GameState) -> None:
    """End the game turn: next season (or year), fresh turn record; the game ends after
    the scenario's last season (its victory table: rules/victory.py). After Winter, the
    year's end steps first (3.4), then the next year."""
    if (state.year, SEASONS.index(state.season)) >= (state.end_year,
                                                     SEASONS.index(state.end_season)):
        state.ended = True
        return
    _fresh_turn(state)
    s = SEASONS.index(state.season)
    if s < len(SEASONS) - 1:
        state.season = SEASONS[s + 1]
        state.step = SEASON[0].id
        return
    if YEAR_END[0].enabled and state.on_map(KARL_XII) and "sweden" in state.active:
        state.step = YEAR_END[0].id  # 3.4: only Karl XII leads a winter campaign
        return
    _new_year(state)


def _new_year(state: GameState) -> None:
    """0.3: "Play then proceeds to the Interphase of the next year"."""
    _fresh_turn(state)
    state.year, state.season = state.year + 1, SEASONS[0]
    state.step = SEASON[0].id
    start = [row.id for row in YEAR_START if row.enabled]
    if start:  # 0.3: the Interphase opens every year but the scenario's first
        state.step = start[0]


def _fresh_turn(state: GameState) -> None:
    state.turn = Turn()
    for bs in state.blocks.values():
        bs.moved = bs.pinned = bs.reserve = False
        bs.entered_from, bs.arrived, bs.forced = None, 0, 0
