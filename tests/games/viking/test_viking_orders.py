"""Pax Viking orders: English and French, canonical echoes, storage, HELP, validation."""

from __future__ import annotations

import pytest

from gm.dice import Dice
from gm.games.base import Verdict
from gm.games.viking import module
from gm.games.viking.parsing import GRAMMAR
from gm.orders.help import load_docs, missing_docs
from gm.orders.model import Ignored, LineError, ParsedOrder, SourceLine


@pytest.fixture(scope="module")
def state():  # type: ignore[no-untyped-def]
    s = module.adjudicate(module.setup("3p", {}), {},
                          Dice(seed=b"\x05" * 32, game_id="o", phase_id="setup")).state
    return s


def parse(state, text: str, power: str | None = None):  # type: ignore[no-untyped-def]
    power = power or state["powers"][0]
    lines = [SourceLine(i + 1, x) for i, x in enumerate(text.strip().splitlines())]
    return module.parse_orders(state, power, lines).lines


def test_english_and_french_give_the_same_canonical_orders(state) -> None:  # type: ignore[no-untyped-def]
    track = module.data.tiles[state["track"][2]].name
    pairs = [
        ("invest draw", "investir piocher"),
        (f"invest buy {track}", f"investir acheter {track}"),
        ("journey from home to Gotaland, Baltic Sea", "voyager de foyer vers Gotaland, Mer Baltique"),
        ("offer blue: give 3 silfr, promise \"peace\" for follower at Lyubsha",
         "offrir blue : donner 3 silfr, promesse \"peace\" contre partisan sur Lyubsha"),
        ("parley Damascus", "parlementer Damas"),
        ("parley Birka challenge blue", "parlementer Birka défier blue"),
        ("jarldom from Ladoga to Svir", "jarlat de Ladoga vers Svir"),
        ("sweden", "suède"),
        ("theocracy Normandy", "théocratie Normandie"),
        ("pass", "passer"),
        ("vote yes", "voter oui"),
        ("counter: give nothing for 2 silfr", "contreproposer : donner rien contre 2 silfr"),
    ]
    for en, fr in pairs:
        a, b = parse(state, en)[0], parse(state, fr)[0]
        assert isinstance(a, ParsedOrder) and isinstance(b, ParsedOrder), (en, a, b)
        assert a.order == b.order and a.echo == b.echo
        assert module.order_from_json(module.order_to_json(a.order)) == a.order
        again = parse(state, a.echo)[0]
        assert isinstance(again, ParsedOrder) and again.order == a.order, a.echo


def test_names_are_only_those_the_player_may_know(state) -> None:  # type: ignore[no-untyped-def]
    red, blue = state["powers"][0], state["powers"][1]
    state = {**state, "players": {**state["players"],
                                  blue: {**state["players"][blue], "hand": [state["pile"][0]]}}}
    secret = module.data.tiles[state["pile"][0]].name
    line = parse(state, f"play {secret}", red)[0]
    assert isinstance(line, LineError) and "unknown tile" in line.reason
    assert isinstance(parse(state, f"play {secret}", blue)[0], ParsedOrder)
    typo = parse(state, "parley Miklagrad", red)[0]
    assert isinstance(typo, LineError) and "Miklagard" in typo.suggestions


def test_prose_is_ignored_and_bad_lines_are_named(state) -> None:  # type: ignore[no-untyped-def]
    lines = parse(state, "Hello all, my orders:\ninvest\njourny from home to Gotaland")
    assert isinstance(lines[0], Ignored)
    assert "invest needs 'draw' or 'buy TILE'" in lines[1].reason
    assert "journey" in lines[2].suggestions


def test_help_documents_every_order_in_both_languages() -> None:
    docs = load_docs(GRAMMAR.grammar_path)
    assert missing_docs(GRAMMAR.parser(), "order", docs) == []
    assert "JOURNEY" in module.help("en") and "VOYAGER" in module.help("fr")


def test_validation_refuses_now_and_never_tells_what_the_pile_holds(state) -> None:  # type: ignore[no-untyped-def]
    red, blue = state["powers"][0], state["powers"][1]
    track = module.data.tiles[state["track"][0]].name
    orders = [p.order for p in parse(state, "theocracy Normandy\ninvest draw\n"
                                            f"play {track}\ninvest draw\ninvest draw")]
    v = module.validate(state, red, orders)
    assert v[0].verdict is Verdict.REFUSED and "influence marker" in v[0].reason
    assert v[1].verdict is Verdict.ACCEPTED
    assert [x.verdict for x in v[2:]] == [Verdict.TO_CHECK] * 3
    other = module.validate(state, blue, orders[1:2])
    assert other[0].verdict is Verdict.REFUSED and "not your phase" in other[0].reason
