"""The yearly Interphase (0.3) as a phase by mail: where it sits in the sequence, who
owes orders, and its sub-steps on the real 12.1 board."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

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
    assert ids.index("truce-offers") < ids.index("activation") < ids.index("spending")


def interphase_state() -> tuple[BalticaModule, dict]:  # type: ignore[type-arg]
    """The 1701 Interphase, reached from the winter forage (no winter campaign, 3.4)."""
    m, state = grand_campaign(year=1700, season="winter", step="forage")
    while not m.phase(state).id.endswith("-interphase"):
        state = m.adjudicate(state, {}, Dice.scripted([])).state
    return m, state


def parse(m: BalticaModule, state: dict, power: str, *lines: str) -> list:  # type: ignore[type-arg]
    from gm.orders.model import SourceLine

    parsed = m.parse_orders(state, power, [SourceLine(i + 1, t) for i, t in enumerate(lines)])
    assert not parsed.errors, parsed.errors
    return [p.order for p in parsed.orders]


def test_interphase_orders_in_english_and_french() -> None:
    """orders.md §5/§8: build, replace (to a strength) and reform, both languages, with
    canonical echoes that re-parse and a JSON round trip."""
    import json

    from gm.games.baltica.orders import Build, Reform, Replace

    m, state = interphase_state()
    en = parse(m, state, "sweden", "build Sweden: draw 2 strength 3; deploy Småland, Skåne",
               "replace Karl XII to 3")
    fr = parse(m, state, "sweden", "construire Suède : tirer 2 force 3 ; déployer Småland, Skåne",
               "remplacer Karl XII jusqu'à 3")
    assert en == fr and en[1] == Replace("Karl XII", 3)
    assert isinstance(en[0], Build) and (en[0].draw, en[0].strength, len(en[0].deploy)) == (2, 3, 2)
    assert parse(m, state, "coalition", "réformer Repnin") == parse(m, state, "coalition",
                                                                    "reform Repnin")
    assert isinstance(parse(m, state, "coalition", "reform Repnin")[0], Reform)
    for o in en:
        assert m.order_from_json(json.loads(json.dumps(m.order_to_json(o)))) == o
        assert parse(m, state, "sweden", o.echo())[0] == o
        assert parse(m, state, "sweden", o.echo("fr"))[0] == o


def test_interphase_validation() -> None:
    """Spending orders are taken in the Interphase; a reform before 11.2's trigger, a build
    for a nation without RPs, and 'to N' in an action phase are refused."""
    from gm.games.baltica.rules.results import Why
    from gm.games.base import Verdict

    m, state = interphase_state()
    vs = m.validate(state, "sweden", parse(m, state, "sweden", "build Sweden: draw 2",
                                           "replace Karl XII", "build Prussia: draw 1"))
    assert [v.verdict for v in vs[:1]] == [Verdict.ACCEPTED]
    assert vs[1].verdict is Verdict.REFUSED and vs[1].reason == Why.FULL_STRENGTH.value
    assert vs[2].verdict is Verdict.REFUSED and vs[2].reason == Why.NO_POOL.value
    vs = m.validate(state, "coalition", parse(m, state, "coalition", "reform Repnin",
                                              "build Denmark: draw 1"))
    assert vs[0].reason == Why.REFORM_NOT_OPEN.value
    assert vs[1].verdict is Verdict.TO_CHECK  # Denmark may enter the war in this Interphase
    m, state = grand_campaign(step="actions-first")
    v = m.validate(state, "sweden", parse(m, state, "sweden", "replace Karl XII to 3"))[0]
    assert v.verdict is Verdict.REFUSED and v.reason == Why.STRENGTH_IN_INTERPHASE.value


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=60, max_size=60))
def test_fog_the_interphase_names_no_hidden_block_to_the_other_player(rolls: list[int]) -> None:
    """8.6: "Blocks in a replacement pool are always kept face down": whatever the dice,
    every event the other player may see names no block of the builder (the draw, the
    steps bought and replaced are the owner's), only nations, places and counts."""
    m, state = interphase_state()
    gs = GameState.from_json(state)
    gs.blocks["karl-xii"].strength = 2
    gs.blocks["pyotr-i"].strength = 2
    out = m.adjudicate(gs.to_json(), {}, Dice.scripted(rolls, then_seed=True))
    places = {t.name for t in m.board.territories.values()}
    for e in out.events:
        for power in ("sweden", "coalition"):
            if e.visible_to is not None and power not in e.visible_to:
                continue
            text = json.dumps(e.data, ensure_ascii=False)
            for spec in m.board.blocks.values():
                if m.board.nations[spec.nation].side.value == power:
                    continue  # own blocks may be named
                if spec.name in places:
                    continue
                assert f'"{spec.name}"' not in text, (e.type, power, spec.name)


def test_help_documents_every_order_in_english_and_french() -> None:
    """HELP (orders.md §1) explains each Pax Baltica order, the Interphase's included."""
    from gm.games.baltica.parsing import GRAMMAR
    from gm.orders.help import help_text, load_docs, missing_docs

    assert missing_docs(GRAMMAR.parser(), "order", load_docs(GRAMMAR.grammar_path)) == []
    assert "build <nation>: draw <n> [strength N] [; deploy TERRITORIES]" in help_text(
        GRAMMAR, "en")
    assert "remplacer <bloc> [jusqu'à N]" in help_text(GRAMMAR, "fr")
