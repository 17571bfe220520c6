"""Phases that close together are reported together (docs/reports.md, "A chain of closes").

In Pax Baltica the battles, the forage and the next action roll often owe nobody's orders:
when the moderator closes the battles, the forage and the action roll close straight after.
A human GM sends one report for that: each phase's events in order, then what to order now
and by when. gm mailed one report per closed phase, all at the same minute, the ones in
between saying "Now ordering: ...-forage" for a phase nobody can order in.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

import gm.service.adjudicate as adjudicate
from gm.db.engine import session_scope
from gm.schedule.sweep import sweep
from gm.service.adjudicate import close_phase, settle
from gm.service.games import current_phase
from tests.games.baltica.test_by_mail import COALITION, MOD, SWEDEN, phase_now, reports
from tests.games.baltica.test_by_mail import pb as pb  # noqa: F401  (the fixture)
from tests.pipeline.conftest import deliver, mail, outbox

CHAIN = ("1700-autumn-battles", "1700-autumn-forage", "1700-winter-action-roll")
NEXT = "1700-winter-actions-coalition"


def to_the_battles(pb: Any) -> None:
    """The 12.1 season of tests/games/baltica/test_by_mail.py up to its battles, which owe
    Sweden's decisions: closing them closes the forage and the next action roll at once."""
    deliver(pb, mail("GAME pb1\nMODERATOR mod-secret\nDICE 5 2\n", sender=MOD))
    settle(pb, "pb1", by="test")
    deliver(pb, mail("GAME pb1\nPOWER sweden sw-secret\nrecon Ingermanland\n"
                     "move from Estland: Vellinck, Estländska to Ingermanland\n", sender=SWEDEN))
    assert close_phase(pb, "pb1", phase_now(pb)[1], by="test").closed
    deliver(pb, mail("GAME pb1\nPOWER coalition co-secret\n"
                     "deplacer de Livland: August II vers Estland\npertes d'abord Kazanski\n",
                     sender=COALITION))
    assert close_phase(pb, "pb1", phase_now(pb)[1], by="test").closed
    assert phase_now(pb)[0] == CHAIN[0]


def report_mails(pb: Any) -> dict[str, list[str]]:
    return {a: reports(pb, a) for a in (SWEDEN, COALITION, MOD)}


def new_since(before: dict[str, list[str]], pb: Any) -> dict[str, list[str]]:
    return {a: texts[len(before[a]):] for a, texts in report_mails(pb).items()}


def deadline_words(pb: Any) -> str:
    with session_scope(pb.engine) as s:
        phase = current_phase(s, "pb1")
        assert phase.phase_id == NEXT and phase.deadline is not None
        return f"{phase.deadline:%b} {phase.deadline.day}, {phase.deadline:%Y}, {phase.deadline:%H:%M} UTC"


def assert_one_report_of_the_chain(new: dict[str, list[str]], deadline: str) -> None:
    """Each reader got one report: the phases closed at its head, each one's events under its
    name in order, then the phase ordered now and its real deadline."""
    for address, texts in new.items():
        assert len(texts) == 1, (address, [t.splitlines()[0] for t in texts])
    sw, co, mod = new[SWEDEN][0], new[COALITION][0], new[MOD][0]
    for text in (sw, mod):
        assert f"Adjudicated: {', '.join(CHAIN)}" in text
        assert f"Now ordering: {NEXT}\n" in text and deadline in text
        assert "Battle of Ingermanland over after 2 rounds" in text
        assert "Action rolls: Sweden 5, Coalition 5" in text
        assert "No orders received from: Sweden (defaults applied)." in text
    assert f"Phase jugée : {', '.join(CHAIN)}" in co
    assert f"Ordres attendus : {NEXT}\n" in co
    assert "Bataille d'Ingermanland terminée après 2 rounds" in co
    assert "La Coalition perd 5 pas faute de fourrage en Ingermanland." in co
    for text in (sw, co, mod):
        heads = [text.index(f"--- {phase} ---") for phase in CHAIN]
        assert heads == sorted(heads), text
        assert "Ingermanland" in text[heads[0]:heads[1]]  # the battle under the battles
        assert "Ingermanland" in text[heads[1]:heads[2]]  # the forage under the forage
        rolls = text.index("Action rolls" if text is not co else "Jets d’actions")
        assert rolls > heads[2]  # the action roll under the action roll
        for phase in CHAIN[1:]:  # nobody is told to order in a phase already over
            assert f"Now ordering: {phase}" not in text and f"Ordres attendus : {phase}" not in text
    # fog: the forage's losses of the Coalition's blocks are the Coalition's to read by name
    assert "Forage in Ingermanland: 5 FP short; lost: Sheremetev" in mod
    assert "lost: Sheremetev" not in sw


def test_closing_the_battles_mails_each_player_one_report_of_battles_forage_and_action_roll(
        pb: Any) -> None:
    to_the_battles(pb)
    before = report_mails(pb)
    deliver(pb, mail("GAME pb1\nMODERATOR mod-secret\nADJUDICATE NOW: season test\n", sender=MOD))
    assert phase_now(pb)[0] == NEXT
    assert_one_report_of_the_chain(new_since(before, pb), deadline_words(pb))


class Killed(BaseException):
    """The process dies here (not an Exception: nothing catches it, the transaction rolls back)."""


@pytest.mark.parametrize("kill_at", [("adjudicate", 2), ("render", 3)],
                         ids=["after-the-battles-committed", "in-the-last-close"])
def test_a_chain_a_crash_cut_in_two_still_mails_one_report_each_and_only_once(
        pb: Any, monkeypatch: pytest.MonkeyPatch, kill_at: tuple[str, int]) -> None:
    """The process dies in the chain (after the battles' close committed, before the forage's;
    or in the action roll's close, its reports written but not committed). Each close is its
    own transaction: what committed stays, and the next sweep closes the rest (a phase nobody
    orders in is due at once) and mails the report of the whole chain, once."""
    to_the_battles(pb)
    before = report_mails(pb)
    name, nth = kill_at
    seen = {"n": 0}

    def crash(point: str) -> None:
        if point == name:
            seen["n"] += 1
            if seen["n"] == nth:
                raise Killed(point)

    monkeypatch.setattr(adjudicate, "checkpoint", crash)
    with pytest.raises(Killed):
        close_phase(pb, "pb1", phase_now(pb)[1], by="test")
    monkeypatch.undo()
    assert phase_now(pb)[0] in CHAIN[1:]  # the battles closed; the rest did not
    assert new_since(before, pb) == {SWEDEN: [], COALITION: [], MOD: []}  # nothing mailed yet
    pb.clock.advance(timedelta(seconds=1))
    assert sweep(pb).closed
    assert phase_now(pb)[0] == NEXT
    assert_one_report_of_the_chain(new_since(before, pb), deadline_words(pb))
    sweep(pb)  # again: nothing more
    assert all(len(t) == 1 for t in new_since(before, pb).values())


def test_a_game_held_in_the_middle_of_a_chain_reports_what_closed_before_it(
        pb: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The forage's close raises (a bug): the game is held. The battles closed, and their
    report goes out with the notice that the forage's results are delayed; lifting the hold
    reports the rest, once."""
    to_the_battles(pb)
    before = report_mails(pb)
    real = adjudicate._adjudicate

    def broken(ctx: Any, session: Any, phase: Any, **kw: Any) -> Any:
        if phase.phase_id == CHAIN[1]:
            raise RuntimeError("forage bug")
        return real(ctx, session, phase, **kw)

    monkeypatch.setattr(adjudicate, "_adjudicate", broken)
    close_phase(pb, "pb1", phase_now(pb)[1], by="test")
    monkeypatch.undo()
    assert phase_now(pb)[0] == CHAIN[1]
    new = new_since(before, pb)
    [sw] = new[SWEDEN]
    assert f"Adjudicated: {CHAIN[0]}\n" in sw and f"Now ordering: {CHAIN[1]}" in sw
    assert "Battle of Ingermanland over after 2 rounds" in sw
    assert any("The results of 1700-autumn-forage in game pb1 are delayed" in t
               for _, t in outbox(pb, to=SWEDEN))
    adjudicate.unhold(pb, "pb1", actor="mod")
    assert phase_now(pb)[0] == NEXT
    new = new_since(before, pb)
    assert len(new[SWEDEN]) == len(new[COALITION]) == 2
    last = new[SWEDEN][1]
    assert f"Adjudicated: {', '.join(CHAIN[1:])}" in last and f"Now ordering: {NEXT}" in last
    assert "Battle of Ingermanland" not in last


def test_under_preview_the_chain_s_one_report_waits_for_release(pb: Any) -> None:
    """With ``preview``, the report of the whole chain is held for the moderator's review
    (one a player, not one a phase), and RELEASE sends it with the deadline counted from
    the release."""
    from gm.db.models import Game

    to_the_battles(pb)
    with session_scope(pb.engine) as s:
        game = s.get(Game, "pb1")
        assert game is not None
        game.settings = {**(game.settings or {}), "preview": True}
        s.add(game)
    before = {a: len(outbox(pb, kind="report", to=a)) for a in (SWEDEN, COALITION)}
    deliver(pb, mail("GAME pb1\nMODERATOR mod-secret\nADJUDICATE NOW: season test\n", sender=MOD))
    assert phase_now(pb)[0] == NEXT
    for address in (SWEDEN, COALITION):
        new = outbox(pb, kind="report", to=address)[before[address]:]
        assert [row.status for row, _ in new] == ["held"]
        assert ", ".join(CHAIN) in new[0][1]
    pb.clock.advance(timedelta(hours=3))
    deliver(pb, mail("GAME pb1\nMODERATOR mod-secret\nRELEASE\n", sender=MOD))
    [(row, text)] = outbox(pb, kind="report", to=SWEDEN)[before[SWEDEN]:]
    assert row.status == "queued" and f"Adjudicated: {', '.join(CHAIN)}" in text
    assert deadline_words(pb) in text  # counted from the release


def test_history_of_a_phase_closed_in_a_chain_sends_the_chain_s_report(pb: Any) -> None:
    """orders.md §1: "HISTORY [phase]: send me the reports of an earlier phase, as I received
    them". The forage was told in the chain's one report; HISTORY 1700-autumn-forage
    answered "no report of 1700-autumn-forage for you yet"."""
    to_the_battles(pb)
    deliver(pb, mail("GAME pb1\nMODERATOR mod-secret\nADJUDICATE NOW: season test\n", sender=MOD))
    deliver(pb, mail("GAME pb1\nPOWER sweden sw-secret\nHISTORY 1700-autumn-forage\n",
                     sender=SWEDEN))
    reply = outbox(pb, kind="reply", to=SWEDEN)[-1][1]
    assert "the report is on its way in a separate mail" in reply, reply
    [history] = [t for r, t in outbox(pb, kind="report", to=SWEDEN)
                 if r.subject == "[pb1] history 1700-autumn-forage"]
    assert f"Adjudicated: {', '.join(CHAIN)}" in history, history
