"""A whole Pax Baltica season through the GameModule interface, and the fog property.

Small board built in the test (the data files are another engineer's work in
progress); scripted dice; every phase adjudicated as the service would.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "rules" / "baltica"))
from baltica_boards import make_board, make_state  # noqa: E402

from gm.dice import Dice  # noqa: E402
from gm.games.baltica.module import BalticaModule  # noqa: E402
from gm.games.base import Verdict  # noqa: E402
from gm.orders.model import SourceLine  # noqa: E402

BLOCKS = {
    "karl-xii": ("sweden", "army", 4, "A3", 2, 1),
    "dalregementet": ("sweden", "regiment", 3, "B2", 2, 0),
    "pyotr-i": ("russia", "army", 4, "B3", 2, 1),
    "sheremetev": ("russia", "army", 4, "B2", 2, 1),
    "repnin": ("russia", "army", 4, "B2", 2, 1),
}
TERR = {"svealand": ("sweden", 4, 4), "livland": ("sweden", 3, 4),
        "estland": ("sweden", 2, 3), "pskov": ("russia", 3, 3), "novgorod": ("russia", 3, 3)}
BORDERS = [("svealand", "livland"), ("livland", "estland"), ("livland", "pskov"),
           ("estland", "novgorod"), ("pskov", "novgorod")]


def game() -> tuple[BalticaModule, dict]:  # type: ignore[type-arg]
    board = make_board(TERR, BORDERS, BLOCKS)
    gs = make_state(board, {"karl-xii": ("livland", 4), "dalregementet": ("livland", 3),
                            "pyotr-i": ("pskov", 4), "sheremetev": ("novgorod", 4),
                            "repnin": ("novgorod", 3)}, step="action-roll")
    gs.turn.first, gs.turn.actions = None, {}
    return BalticaModule(board), gs.to_json()


def orders(m: BalticaModule, state: dict, power: str, *lines: str) -> list:  # type: ignore[type-arg]
    parsed = m.parse_orders(state, power, [SourceLine(i + 1, t) for i, t in enumerate(lines)])
    assert not parsed.errors, parsed.errors
    return [p.order for p in parsed.orders]


def test_a_full_season_phase_by_phase() -> None:
    """Action roll -> first player's actions -> second player's -> battles -> forage (0.3)."""
    m, state = game()
    assert m.phase(state).id == "1701-summer-action-roll" and m.phase(state).owing == ()
    out = m.adjudicate(state, {}, Dice.scripted([5, 2]))  # Sweden 5 (3 actions), Russia 2
    state = out.state
    info = m.phase(state)
    assert info.id == "1701-summer-actions-sweden" and info.owing == ("sweden",)
    sw = orders(m, state, "sweden", "recon Pskov",
                "move from Livland: Karl XII, Dalregementet to Pskov")
    assert [v.verdict for v in m.validate(state, "sweden", sw)] == [Verdict.ACCEPTED] * 2
    state = m.adjudicate(state, {"sweden": sw}, Dice.scripted([])).state
    assert m.phase(state).id == "1701-summer-actions-coalition"
    ru = orders(m, state, "coalition", "move from Novgorod: Sheremetev to Pskov")
    state = m.adjudicate(state, {"coalition": ru}, Dice.scripted([])).state
    assert m.phase(state).id == "1701-summer-battles" and m.phase(state).kind == "battle"
    # Defender Pyotr I; Sheremetev entered the battle territory late: a reserve (5.3).
    # Round 1: Karl XII A3 hits 3 of 4; Pyotr B3 (1 die left) misses; Dalregementet B2 misses.
    dice = [1, 2, 3, 6] + [6] + [6, 6, 6]
    # Round 2: Karl (4 dice) kills Pyotr; Sheremetev fires 4, Dalregementet 3 ...
    dice += [1, 6, 6, 6] + [6, 6, 6, 6] + [1, 1, 6] + [1, 1, 1, 1] + [6] * 10
    bat = orders(m, state, "coalition", "retreat Sheremetev to Novgorod if round >= 2")
    out = m.adjudicate(state, {"coalition": bat, "sweden": []}, Dice.scripted(dice, then_seed=True))
    state = out.state
    types = [e.type for e in out.events]
    assert "battle" in types and "reserves_revealed" in types
    retreat = [e for e in out.events if e.type == "retreated" and e.data["block"] == "Sheremetev"]
    assert retreat and retreat[0].data["to"] == "Novgorod"
    # Pyotr I fell: at the end of the phase a truce on Russia (2.3, 10.2) pools its blocks.
    assert "russia" in state["truces"] and "russia" not in state["active"]
    assert state["blocks"]["sheremetev"]["location"] == "pool"
    assert m.phase(state).id == "1701-summer-forage"
    out = m.adjudicate(state, {}, Dice.scripted([]))
    assert m.phase(out.state).id == "1701-autumn-action-roll"


def test_an_impossible_cession_is_refused_with_its_reason() -> None:
    """11.1: only Bremen-Verden to Hannover and Pommern to Prussia; the other orders of the
    mail stand."""
    m, state = game()
    state = m.adjudicate(state, {}, Dice.scripted([5, 2])).state
    os = orders(m, state, "sweden", "cede Svealand to Russia", "recon Pskov")
    vs = m.validate(state, "sweden", os)
    assert vs[0].verdict is Verdict.REFUSED and "Bremen-Verden to Hannover" in str(vs[0].reason)
    assert vs[1].verdict is Verdict.ACCEPTED


def test_order_json_round_trip_through_the_module() -> None:
    m, state = game()
    state = m.adjudicate(state, {}, Dice.scripted([5, 2])).state
    for o in orders(m, state, "sweden", "move from Livland: Karl XII to Pskov force",
                    "retreat Karl XII to Livland if round >= 2 and strength of Karl XII <= 1"):
        assert m.order_from_json(json.loads(json.dumps(m.order_to_json(o)))) == o


HIDDEN_WORDS = ("Pyotr", "Sheremetev", "Repnin")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=200, max_size=200),
       st.lists(st.sampled_from(["Pskov", "Estland", "Novgorod", "Svealand"]),
                min_size=1, max_size=3))
def test_fog_no_hidden_enemy_block_leaks_to_sweden(rolls: list[int], targets: list[str]) -> None:
    """No view of Sweden, nor any event Sweden may see, names a Russian block that neither
    reconnaissance nor battle revealed, nor gives its strength."""
    m, state = game()
    dice = Dice.scripted(rolls, then_seed=True)
    events = []
    for _ in range(5):
        info = m.phase(state)
        given_orders: dict[str, list] = {}  # type: ignore[type-arg]
        if info.id.endswith("actions-sweden"):
            given_orders["sweden"] = [o for t in targets for o in orders(
                m, state, "sweden", f"move from Livland: Karl XII, Dalregementet to {t} force")][:1]
            given_orders["sweden"] += orders(m, state, "sweden", "politics Sweden",
                                             "reinforce Karl XII", "replace Dalregementet")
            given_orders["coalition"] = orders(m, state, "coalition", "pin Pyotr I in Pskov",
                                               "discontent Livland")
        elif info.id.endswith("actions-coalition"):
            given_orders["coalition"] = orders(m, state, "coalition", "politics Russia",
                                               "move from Pskov: Pyotr I to Livland")
        out = m.adjudicate(state, given_orders, dice)
        events += out.events
        state = out.state
        view = json.dumps(m.view(state, "sweden"))
        revealed_by_battle = any(e.type == "battle" for e in events)
        if not revealed_by_battle:
            assert not any(w in view for w in HIDDEN_WORDS), view
        assert "pool" not in view or "repnin" not in view
    seen = [e for e in events if e.visible("sweden")]
    public_battle = {b["block"] for e in seen if e.type in ("battle", "reserves_revealed")
                     for side in ([e.data["blocks"]] if e.type == "reserves_revealed"
                                  else e.data["blocks"].values()) for b in side}
    for e in seen:
        text = json.dumps(e.data)
        for w in HIDDEN_WORDS:
            if w in text:
                assert any(b.startswith(w) for b in public_battle), (e, public_battle)


def test_reports_render_in_both_languages_without_hidden_names() -> None:
    """The Swedish report of the first actions lists its own blocks and only counts of
    Russian ones; the French template renders the same view."""
    from gm.service.render import render

    def render_report(view, events, power, lang="en"):  # type: ignore[no-untyped-def]
        """The report body exactly as the service renders it: view and visible events only."""
        shown = [{"type": e.type, "data": e.data} for e in events if e.visible(power)]
        return render("report", lang, "baltica", game_only=True, view=view, events=shown,
                      power=power)

    m, state = game()
    out = m.adjudicate(state, {}, Dice.scripted([5, 2]))
    sw = orders(m, out.state, "sweden", "move from Livland: Dalregementet to Estland")
    out = m.adjudicate(out.state, {"sweden": sw}, Dice.scripted([]))
    for lang in ("en", "fr"):
        text = render_report(m.view(out.state, "sweden"), out.events, "sweden", lang)
        assert "Karl XII" in text and "Dalregementet" in text
        assert not any(w in text for w in HIDDEN_WORDS), text
    mod = render_report(m.view(out.state, None), out.events, None)
    assert "Pyotr I" in mod


def test_the_defender_sends_pins_during_the_movers_action_phase() -> None:
    """4.3 by mail: the phase of Sweden's actions takes the Coalition's standing ``pin``
    and ``discontent`` orders (English or French), and only those; Sweden may not send
    them for itself. ``politics`` is validated against 3.3.4."""
    m, state = game()
    state = m.adjudicate(state, {}, Dice.scripted([5, 2])).state
    info = m.phase(state)
    assert info.owing == ("sweden",) and set(info.allowed()) == {"sweden", "coalition"}
    co = orders(m, state, "coalition", "fixer Pyotr I en Pskov", "mécontentement Livland",
                "recon Livland")
    verdicts = [v.verdict for v in m.validate(state, "coalition", co)]
    assert verdicts == [Verdict.TO_CHECK, Verdict.TO_CHECK, Verdict.REFUSED]
    sw = orders(m, state, "sweden", "pin Karl XII in Livland", "politique Sweden",
                "politics Russia")
    vs = m.validate(state, "sweden", sw)
    assert vs[0].verdict is Verdict.REFUSED and "other player" in vs[0].reason
    assert vs[1].verdict is Verdict.ACCEPTED
    assert vs[2].verdict is Verdict.REFUSED and "major nation" in vs[2].reason
