"""Fog in replies and error messages (Pax Baltica, the game module with hidden information).

Reports are checked by tests/games/baltica/test_fog_reports.py. Here Sweden
writes orders that name the Coalition's hidden blocks (exactly, misspelt, in
every order form) and the reply must (1) never name a hidden block the mail
did not name itself, and (2) say the same thing whichever hidden block was
named: if "move ... Repnin ..." and "move ... Flemming ..." got different
answers, the answer would tell where a hidden block is or how strong.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.db.engine import session_scope
from gm.service.games import current_phase
from tests.e2e.corpus_game import copy_of
from tests.games.baltica.test_fog_reports import (
    BOARD,
    TEXT_CHECKED,
    enemy_blocks,
    mentions,
    revealed_names,
)
from tests.security.conftest import SWEDEN, send

TERRITORIES = sorted(t.name for t in BOARD.territories.values())
LONG = os.environ.get("GM_LONG_TESTS") == "1"  # every hidden block and more examples
FORMS = ["move from {t}: {b} to {t2}", "move from {t}: Karl XII, {b} to {t2}", "recon {b}",
         "siege {t} with {b}", "hits prefer {b}", "replace {b}", "move from {t}: {b} to {t2} force",
         "battle {t}: {b} first", "attack {b}"]


def hidden_from_sweden(ctx) -> list[str]:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        state = current_phase(s, "baltica42").game_state
    shown = revealed_names(state, "sweden")
    return sorted(BOARD.blocks[b].name for b in enemy_blocks("sweden") & TEXT_CHECKED
                  if BOARD.blocks[b].name not in shown)


def misspell(name: str, cut: int) -> str:
    return name if len(name) < 4 else name[:cut % len(name)] + name[cut % len(name) + 1:]


def reply_lines(reply: str) -> str:
    """The per-line part of a reply, without "did you mean" (which follows the spelling of
    what was written, among public names; hidden names are test 1's business)."""
    lines = [line for line in reply.splitlines() if re.match(r"\s+\d+\s", line)]
    return re.sub(r"[:(]? ?did you mean [^?]*\?\)?", "", "\n".join(lines))


def test_replies_never_name_a_hidden_block_the_mail_did_not(template: Path, tmp_path: Path) -> None:
    ctx = copy_of(template, tmp_path)
    hidden = hidden_from_sweden(ctx)
    assert len(hidden) > 10

    @settings(max_examples=300 if LONG else 25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.tuples(st.sampled_from(FORMS), st.sampled_from(hidden), st.integers(0, 30),
                              st.booleans(), st.sampled_from(TERRITORIES), st.sampled_from(TERRITORIES)),
                    min_size=1, max_size=5))
    def check(lines: list[tuple[str, str, int, bool, str, str]]) -> None:
        body = "\n".join(form.format(b=misspell(b, cut) if typo else b, t=t, t2=t2)
                         for form, b, cut, typo, t, t2 in lines)
        reply = send(ctx, SWEDEN + "CHECK\n" + body + "\n")
        assert reply
        for name in hidden:
            if not mentions(body, name):
                assert not mentions(reply, name), f"reply names hidden {name}:\n{body}\n{reply}"

    check()
    ctx.engine.dispose()


def test_the_answer_is_the_same_whichever_hidden_block_is_named(template: Path, tmp_path: Path) -> None:
    ctx = copy_of(template, tmp_path)
    hidden = hidden_from_sweden(ctx)
    if not LONG:  # the blocks standing in the territories named below, and two far away
        hidden = [n for n in hidden if n in ("August II", "Flemming", "Pyotr I", "Repnin",
                                             "Menshikov", "Juel")] or hidden[:6]
    for form in FORMS:
        for t, t2 in (("Livland", "Estland"), ("Ingermanland", "Novgorod")):
            answers = {}
            for name in hidden:
                line = form.format(b=name, t=t, t2=t2)
                answers[name] = reply_lines(send(ctx, SWEDEN + "CHECK\n" + line + "\n")).replace(name, "<B>")
            distinct = set(answers.values())
            assert len(distinct) == 1, f"{form} ({t}, {t2}) tells hidden blocks apart:\n" + "\n".join(
                f"{n}: {a}" for n, a in answers.items())
    ctx.engine.dispose()
