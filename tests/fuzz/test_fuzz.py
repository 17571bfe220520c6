"""Fuzzing the MIME layer, the envelope and every game grammar with hypothesis (issue 8).

Properties: nothing raises, nothing hangs (a per-example deadline), every line
gets exactly one answer, and every understood order's canonical echo parses
again. CI runs a short budget; GM_LONG_TESTS=1 runs GM_FUZZ_EXAMPLES (default
5000) examples per target (see docs/robustness.md for the last long run).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.games.registry import get
from gm.mail.classify import classify_with_reason
from gm.mail.dsn import read_bounce
from gm.mail.mime import decode
from gm.orders.envelope import parse_envelope
from gm.orders.model import Ignored, LineError, ParsedOrder, SourceLine
from gm.orders.text import clean_body

LONG = os.environ.get("GM_LONG_TESTS") == "1"
EXAMPLES = int(os.environ.get("GM_FUZZ_EXAMPLES", "5000")) if LONG else 60
FUZZ = settings(max_examples=EXAMPLES, deadline=timedelta(seconds=5),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])
CORPUS = sorted((Path(__file__).resolve().parents[1] / "data" / "mail").rglob("*.eml"))
SEEDS = [p.read_bytes() for p in CORPUS if p.stat().st_size < 20_000]
GAMES = ("baltica", "britannica", "viking")
WORDS = ["GAME", "POWER", "MODERATOR", "FOR", "PHASE", "CHECK", "ADD", "PRESS", "TO", "ENDPRESS",
         "READY", "WAIT", "STATUS", "HELP", "END", "unless", "if", "then", "and", "or", "not", "with",
         "force", "via", ":", ",", ";", "#", ">", "--", "(", ")", "=", "<", "'", '"', "\t", "\u00a0",
         "\u200b", "é", "ß", "Ø", "XII", "12", "-1", "999999999999"]


def vocabulary(game: str) -> list[str]:
    """Words a player of ``game`` would use: the grammar's keywords and the board's names."""
    module = get(game)
    text = (Path(__file__).resolve().parents[2] / "orders_grammar" / f"{game}.lark").read_text()
    import re

    words = set(re.findall(r'"([A-Za-zÀ-ÿ\' -]{2,})"i?', text))
    scenario = module.scenarios()[0]

    def strings(node: object) -> None:  # the names in the initial state: blocks, places, powers
        if isinstance(node, str) and 2 <= len(node) <= 30:
            words.add(node)
        elif isinstance(node, dict):
            for k, v in node.items():
                strings(k)
                strings(v)
        elif isinstance(node, list):
            for v in node:
                strings(v)
    strings(module.setup(scenario.id, {}))
    return sorted(words) + WORDS


def mutate(seed: bytes, at: int, junk: bytes, cut: bool) -> bytes:
    at %= len(seed) + 1
    return seed[:at] + junk + (b"" if cut else seed[at:])


@FUZZ
@given(st.one_of(st.binary(max_size=3000),
                 st.builds(mutate, st.sampled_from(SEEDS), st.integers(0, 10**6),
                           st.binary(max_size=200), st.booleans())))
def test_mime_decode_and_classify_never_raise(raw: bytes) -> None:
    mail = decode(raw)
    classify_with_reason(mail)
    assert isinstance(mail.text, str) and isinstance(mail.reply_address, str)
    assert "\r" not in mail.reply_address and "\n" not in mail.reply_address


@FUZZ
@given(st.one_of(st.binary(max_size=3000),
                 st.builds(mutate, st.sampled_from(SEEDS), st.integers(0, 10**6),
                           st.binary(max_size=200), st.booleans())))
def test_bounce_reader_never_raises(raw: bytes) -> None:
    """gm/mail/dsn.py reads whatever a bounce-shaped mail holds (the corpus has DSNs)."""
    bounce = read_bounce(raw)
    assert all(isinstance(i, str) for i in bounce.message_ids)
    for failure in bounce.failures(["anna@example.se", "south@example.org"]):
        assert failure.address in ("anna@example.se", "south@example.org")


@FUZZ
@given(st.lists(st.lists(st.sampled_from(WORDS + ["baltica42", "sweden", "hunter2", "recon", "x"])
                         | st.text(max_size=12), max_size=10).map(" ".join), max_size=30))
def test_envelope_parse_never_raises(lines: list[str]) -> None:
    envelope = parse_envelope(clean_body("\n".join(lines)))
    for section in envelope.sections:
        assert all(isinstance(e.fatal, bool) for e in section.errors)


@pytest.mark.parametrize("game", GAMES)
def test_game_grammar_answers_every_line_and_echoes_reparse(game: str) -> None:
    module = get(game)
    scenario = module.scenarios()[0]
    state = module.setup(scenario.id, {})
    powers = list(scenario.powers)
    words = vocabulary(game)

    @FUZZ
    @given(st.sampled_from(powers),
           st.lists(st.lists(st.sampled_from(words) | st.text(max_size=8), min_size=1, max_size=12)
                    .map(" ".join), min_size=1, max_size=8))
    def check(power: str, texts: list[str]) -> None:
        lines = [SourceLine(i + 1, t) for i, t in enumerate(texts) if t.strip()]
        result = module.parse_orders(state, power, lines)
        assert sorted(r.line.number for r in result.lines) == [ln.number for ln in lines]
        assert all(isinstance(r, ParsedOrder | LineError | Ignored) for r in result.lines)
        for parsed in result.orders:
            again = module.parse_orders(state, power, [SourceLine(1, parsed.echo)])
            assert [type(r) for r in again.lines] == [ParsedOrder], (parsed.echo, again.lines)

    check()
