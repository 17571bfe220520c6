"""The yearly Interphase (0.3) as a phase by mail: where it sits in the sequence, who
owes orders, and its sub-steps on the real 12.1 board."""

from __future__ import annotations

from gm.dice import Dice
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.rules.interphase import INTERPHASE_STEPS
from gm.games.baltica.state import GameState


def grand_campaign(**changes) -> tuple[BalticaModule, dict]:  # type: ignore[no-untyped-def,type-arg]
    m = BalticaModule()
    gs = GameState.from_json(m.setup("12.1", {}))
    for k, v in changes.items():
        setattr(gs, k, v)
    return m, gs.to_json()


def test_the_interphase_follows_winter_and_precedes_spring() -> None:
    """0.3: after the Winter turn "Play then proceeds to the Interphase of the next year";
    both players order in it at once; then the spring Action Roll."""
    m, state = grand_campaign(year=1700, season="winter", step="forage")
    state = m.adjudicate(state, {}, Dice.scripted([])).state
    assert m.phase(state).id == "1700-winter-campaign"  # 3.4, Sweden's option first
    state = m.adjudicate(state, {}, Dice.scripted([])).state
    info = m.phase(state)
    assert (info.id, info.kind, info.owing) == ("1701-interphase", "interphase",
                                                ("sweden", "coalition"))
    assert info.simultaneous and not info.ended
    out = m.adjudicate(state, {}, Dice.scripted([], then_seed=True))
    assert m.phase(out.state).id == "1701-spring-action-roll"
    assert out.events[0].type == "phase" and out.events[0].data["phase"] == "1701-interphase"


def test_no_interphase_between_seasons_of_a_year() -> None:
    """0.3: the Interphase is yearly: autumn forage goes straight to the winter action roll."""
    m, state = grand_campaign(year=1700, season="autumn", step="forage")
    state = m.adjudicate(state, {}, Dice.scripted([])).state
    assert m.phase(state).id == "1700-winter-action-roll"


def test_sub_steps_are_in_the_rulebook_order() -> None:
    """0.3: activation rolls (10.1) come before replacements (8.0); a truce offered
    (10.2) before the rolls, so a nation that submits spends nothing."""
    ids = [s.id for s in INTERPHASE_STEPS]
    assert ids.index("truce-offers") < ids.index("activation")
    assert all(ids.index("activation") < i for i, s in enumerate(ids) if s.startswith("replace"))
