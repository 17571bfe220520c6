"""What the moderator could do only from the command line, now by mail too, through the real
mail pipeline, with the command line's checks and refusals (docs/orders.md, "The moderator's
commands, by mail and from the command line"):

* a game held because its adjudication raised: ``UNHOLD`` (``gm mod unhold``);
* a mail whose handling failed: ``RETRY N`` (``gm mod retry``);
* an address turned away from a forming game: ``DECLINE address`` (``gm mod decline``);
* an observer added or removed: ``ADD OBSERVER`` / ``STOP OBSERVER`` (``gm game observe``);
* the dice seed published: ``REVEAL SEED [FORCE]`` (``gm mod reveal [--force]``).

The faults are made on purpose with the "fragile" test game (tests/support/fragile.py), as
tests/e2e/test_daemon_robust.py makes them for a real ``gm serve``: ``GM_FRAGILE=1`` while
the fault is on, unset for the "new release" that fixed it.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import Game, InboundMail, ModeratorAct
from gm.service.adjudicate import close_phase
from gm.service.games import SeatSpec, create_game, current_phase
from tests.pipeline.conftest import deliver, mail, outbox
from tests.pipeline.test_forming import _forming
from tests.support import fragile  # noqa: F401  (registers "fragile")
from tests.support.moderator_notice import assert_in, moderator_speaks

NORTH, SOUTH, MOD = "north@example.org", "south@example.org", "mod@example.org"
SEATS = [SeatSpec("north", NORTH, password="n-secret"),
         SeatSpec("south", SOUTH, password="s-secret", language="fr")]


def _game(ctx: Any, game_id: str, scenario: str) -> None:
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id=game_id, module_name="fragile", scenario=scenario,
                    seats=SEATS, moderator_address=MOD, moderator_password="mod-secret",
                    seed=b"\x03" * 32)


def moderate(ctx: Any, game_id: str, body: str) -> str:
    """A moderator's mail for ``game_id``; the moderator's reply, its lines joined."""
    deliver(ctx, mail(f"GAME {game_id}\nMODERATOR mod-secret\n{body}", sender=MOD))
    return " ".join(outbox(ctx, kind="reply", to=MOD)[-1][1].split())


def _held(ctx: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """trap1, held: closing its first phase raised (the fault on); then the fault fixed."""
    _game(ctx, "trap1", "trap")
    monkeypatch.setenv("GM_FRAGILE", "1")
    with session_scope(ctx.engine) as s:
        seq = current_phase(s, "trap1").seq
    assert not close_phase(ctx, "trap1", seq, by="test").closed
    monkeypatch.delenv("GM_FRAGILE")
    assert _hold(ctx)
    return _phase(ctx)


def _game_row(ctx: Any, game_id: str) -> Game:
    with session_scope(ctx.engine) as s:
        game = s.get(Game, game_id)
        assert game is not None
        return game


def _hold(ctx: Any) -> str:
    return _game_row(ctx, "trap1").hold_reason


def _phase(ctx: Any) -> str:
    with session_scope(ctx.engine) as s:
        return current_phase(s, "trap1").phase_id


def _acts(ctx: Any) -> list[str]:
    with session_scope(ctx.engine) as s:
        return [a.command for a in s.exec(select(ModeratorAct))]


def _held_notices(ctx: Any) -> list[str]:
    return [text for row, text in outbox(ctx, kind="notice", to=MOD) if "held:" in row.subject
            or "suspendue" in text]


# -- UNHOLD: a game held because its adjudication raised --------------------------------

def test_the_held_notice_names_the_mail_form(ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _held(ctx, monkeypatch)
    [notice] = _held_notices(ctx)
    assert "gm mod unhold trap1" in notice
    assert ("or by mail UNHOLD after the lines GAME trap1 and MODERATOR <password>"
            in " ".join(notice.split()))


def test_unhold_by_mail_lifts_the_hold_and_adjudicates_the_phase(
        ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    held = _held(ctx, monkeypatch)
    reply = moderate(ctx, "trap1", "UNHOLD: the module is fixed\n")
    assert (f"OK UNHOLD: the module is fixed: the hold of game trap1 is lifted; {held} is "
            "adjudicated again as soon as this mail is stored: if it raises again, the game is "
            "held again and you are told (a private act)") in reply
    assert _hold(ctx) == ""
    assert _phase(ctx) != held  # adjudicated: the next phase is open
    assert [r for r, _ in outbox(ctx, kind="report", to=NORTH)]  # the players got the results
    assert "unhold" in _acts(ctx)


def test_unhold_keep_open_only_lifts_the_hold(ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    held = _held(ctx, monkeypatch)
    reply = moderate(ctx, "trap1", "UNHOLD KEEP OPEN\n")
    assert (f"the hold of game trap1 is lifted; {held} stays open until its deadline "
            "(ADJUDICATE NOW closes it now; a private act)") in reply
    assert _hold(ctx) == "" and _phase(ctx) == held


def test_unhold_when_it_raises_again_holds_the_game_again_and_tells_the_moderator(
        ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    held = _held(ctx, monkeypatch)
    monkeypatch.setenv("GM_FRAGILE", "1")  # not fixed after all
    moderate(ctx, "trap1", "UNHOLD\n")
    assert _hold(ctx) and _phase(ctx) == held
    assert len(_held_notices(ctx)) == 2


def test_unhold_of_a_game_not_held_is_refused_and_changes_nothing(ctx: Any) -> None:
    _game(ctx, "trap1", "duel")
    reply = moderate(ctx, "trap1", "UNHOLD\n")
    assert ("UNHOLD: game trap1 is not held (only a game whose adjudication raised is); nothing "
            "changed") in reply
    assert "unhold" not in _acts(ctx)


def test_a_player_cannot_unhold(ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _held(ctx, monkeypatch)
    deliver(ctx, mail("GAME trap1\nPOWER north n-secret\nUNHOLD\n"))
    assert "only the moderator may use this command" in outbox(ctx, kind="reply", to=NORTH)[-1][1]
    assert _hold(ctx) and "unhold" not in _acts(ctx)


def test_a_french_moderator_reads_debloquer_and_is_answered_in_french(
        ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _game(ctx, "trap1", "trap")
    moderator_speaks(ctx, "trap1", "fr")
    monkeypatch.setenv("GM_FRAGILE", "1")
    with session_scope(ctx.engine) as s:
        seq = current_phase(s, "trap1").seq
    close_phase(ctx, "trap1", seq, by="test")
    monkeypatch.delenv("GM_FRAGILE")
    [notice] = _held_notices(ctx)
    assert ("ou par mail DEBLOQUER après les lignes PARTIE trap1 et MODERATEUR <mot de passe>"
            in " ".join(notice.split()))
    reply = moderate(ctx, "trap1", "DÉBLOQUER LAISSER OUVERTE\n")
    assert "la suspension de la partie trap1 est levée" in reply
    assert "ARBITRER MAINTENANT la résout tout de suite" in reply
    assert _hold(ctx) == ""
    refused = moderate(ctx, "trap1", "DEBLOQUER\n")
    assert "la partie trap1 n'est pas suspendue" in refused and "rien n'a changé" in refused


# -- RETRY: a mail whose handling failed -------------------------------------------------

def _failed(ctx: Any, monkeypatch: pytest.MonkeyPatch) -> int:
    """duel1: north's orders raise in the game's parser (the fault on); then fixed."""
    _game(ctx, "duel1", "duel")
    monkeypatch.setenv("GM_FRAGILE", "1")
    failed = deliver(ctx, mail("GAME duel1\nPOWER north n-secret\nexplode\n"))
    monkeypatch.delenv("GM_FRAGILE")
    assert _status(ctx, failed) == "failed"
    return failed


def _status(ctx: Any, inbound: int) -> str:
    with session_scope(ctx.engine) as s:
        row = s.get(InboundMail, inbound)
        assert row is not None
        return row.status


def test_the_failure_notice_names_the_mail_form(ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    failed = _failed(ctx, monkeypatch)
    [(_, notice)] = outbox(ctx, kind="notice", to=MOD)
    said = " ".join(notice.split())
    assert f"gm mod retry {failed}, or by mail RETRY {failed} after the lines GAME <game> and " \
           "MODERATOR <password> of a game the sender plays in" in said


def test_retry_by_mail_handles_the_mail_once_and_its_sender_gets_the_answer(
        ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    failed = _failed(ctx, monkeypatch)
    before = len(outbox(ctx, kind="reply", to=NORTH))
    reply = moderate(ctx, "duel1", f"RETRY {failed}: the parser is fixed\n")
    assert (f"OK RETRY {failed}: the parser is fixed: mail {failed} is handled again, once, as "
            "soon as this mail is stored: its sender gets the answer, and you a notice if it "
            "fails again") in reply
    assert _status(ctx, failed) == "handled"
    answers = outbox(ctx, kind="reply", to=NORTH)
    assert len(answers) == before + 1 and "explode" in answers[-1][1]  # the orders, answered
    again = moderate(ctx, "duel1", f"RETRY {failed}\n")
    assert (f"RETRY {failed}: mail {failed} was handled already: only a mail whose handling "
            "failed is handled again; nothing changed") in again
    assert len(outbox(ctx, kind="reply", to=NORTH)) == before + 1  # not answered twice


def test_retry_of_a_mail_not_failed_unknown_or_of_another_game_is_refused(
        ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    failed = _failed(ctx, monkeypatch)
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="other1", module_name="fragile", scenario="duel",
                    seats=[SeatSpec("north", "x@example.net", password="x"),
                           SeatSpec("south", "y@example.net", password="y")],
                    moderator_address="other@example.org", moderator_password="o-secret",
                    seed=b"\x04" * 32)
    deliver(ctx, mail(f"GAME other1\nMODERATOR o-secret\nRETRY {failed}\nRETRY 999\n",
                      sender="other@example.org"))
    other = " ".join(outbox(ctx, kind="reply", to="other@example.org")[-1][1].split())
    assert (f"RETRY {failed}: game other1 has no mail {failed} (of its players or its "
            "moderator); nothing changed") in other
    assert "RETRY 999: game other1 has no mail 999" in other
    assert _status(ctx, failed) == "failed"
    deliver(ctx, mail(f"GAME duel1\nPOWER north n-secret\nRETRY {failed}\n"))
    assert "only the moderator may use this command" in outbox(ctx, kind="reply", to=NORTH)[-1][1]
    assert _status(ctx, failed) == "failed"
    handled = deliver(ctx, mail("GAME duel1\nPOWER north n-secret\nadvance 1\n"))
    reply = moderate(ctx, "duel1", f"RETRY {handled}\n")
    assert f"mail {handled} was handled already" in reply and "nothing changed" in reply


def test_a_retry_that_fails_again_tells_the_moderator(
        ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    failed = _failed(ctx, monkeypatch)
    monkeypatch.setenv("GM_FRAGILE", "1")
    moderate(ctx, "duel1", f"RETRY {failed}\n")
    assert _status(ctx, failed) == "failed"
    [(notice, text)] = [(r, t) for r, t in outbox(ctx, kind="notice", to=MOD)
                        if "failed again" in r.subject]
    assert notice.subject == f"[duel1] mail {failed} failed again"
    assert (f"Mail {failed}, which you asked to handle again (RETRY {failed}), raised an error "
            "again, so nothing in it was applied (SHOW MAILS lists the game's mails).") in " ".join(
                text.split())
    assert "TypeError" in text


def test_a_french_moderator_writes_reessayer_and_reads_french(
        ctx: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    failed = _failed(ctx, monkeypatch)
    moderator_speaks(ctx, "duel1", "fr")
    reply = moderate(ctx, "duel1", f"RÉESSAYER {failed}\n")
    assert f"le mail {failed} est traité de nouveau, une fois" in reply
    assert _status(ctx, failed) == "handled"
    again = moderate(ctx, "duel1", f"REESSAYER {failed}\n")
    assert f"le mail {failed} a déjà été traité" in again and "rien n'a changé" in again


# -- DECLINE: an address turned away from a forming game --------------------------------

def test_decline_by_mail_drops_a_join_request_and_tells_the_address(ctx: Any) -> None:
    _forming(ctx, approve=True)
    deliver(ctx, mail("JOIN race1 north\n", sender="ann@example.net"))
    [(_, asked)] = outbox(ctx, kind="notice", to=MOD)
    assert "To decline: gm mod decline race1 ann@example.net, or by mail DECLINE " \
           "ann@example.net" in " ".join(asked.split())
    deliver(ctx, mail("GAME race1\nMODERATOR mod-secret\nDECLINE ann@example.net\n", sender=MOD))
    reply = " ".join(outbox(ctx, kind="reply", to=MOD)[-1][1].split())
    assert ("OK DECLINE ann@example.net: the request of ann@example.net to join game race1 is "
            "dropped; the address was told") in reply
    [(_, told)] = outbox(ctx, kind="notice", to="ann@example.net")
    assert "the moderator of game race1 did not give you a seat in it" in told
    deliver(ctx, mail("GAME race1\nMODERATOR mod-secret\nDECLINE ann@example.net\n", sender=MOD))
    again = " ".join(outbox(ctx, kind="reply", to=MOD)[-1][1].split())
    assert ("DECLINE ann@example.net: ann@example.net neither asked to join race1 nor holds a "
            "seat in it; nothing changed") in again
    assert len(outbox(ctx, kind="notice", to="ann@example.net")) == 1


def test_decline_by_mail_opens_a_seat_taken_again(ctx: Any) -> None:
    _forming(ctx)
    deliver(ctx, mail("JOIN race1 north\n", sender="ann@example.net"))
    deliver(ctx, mail("GAME race1\nMODERATOR mod-secret\nDECLINE ann@example.net\n", sender=MOD))
    reply = " ".join(outbox(ctx, kind="reply", to=MOD)[-1][1].split())
    assert ("ann@example.net has no seat in game race1 any more: north is open again; the "
            "address was told") in reply


def test_decline_in_a_running_game_is_refused_in_the_moderator_s_language(ctx: Any) -> None:
    _game(ctx, "duel1", "duel")
    reply = moderate(ctx, "duel1", "DECLINE north@example.org\n")
    assert ("DECLINE north@example.org: game duel1 is not forming: it has started (REPLACE "
            "POWER gives a seat to another player); nothing changed") in reply
    moderator_speaks(ctx, "duel1", "fr")
    french = moderate(ctx, "duel1", "DÉCLINER north@example.org\n")
    assert "la partie duel1 n'est pas en formation" in french
    assert "REMPLACER PUISSANCE" in french
    assert_in("fr", outbox(ctx, kind="reply", to=MOD)[-1][1],
              allow=["DÉCLINER north@example.org", "duel1"])


# -- ADD OBSERVER / STOP OBSERVER: the public reports to an address ----------------------

FAN = "fan@example.net"


def _observers(ctx: Any) -> list[str]:
    with session_scope(ctx.engine) as s:
        game = s.get(Game, "duel1")
        assert game is not None
        return list((game.settings or {}).get("observers", []))


def test_an_observe_request_is_agreed_to_by_mail_and_the_next_report_goes_there(ctx: Any) -> None:
    _game(ctx, "duel1", "duel")
    deliver(ctx, mail("OBSERVE duel1\n", sender=FAN))
    [(_, asked)] = outbox(ctx, kind="notice", to=MOD)
    assert ("To agree: gm game observe duel1 fan@example.net, or by mail ADD OBSERVER "
            "fan@example.net after the lines GAME duel1 and MODERATOR <password>"
            in " ".join(asked.split()))
    reply = moderate(ctx, "duel1", f"ADD OBSERVER {FAN}\n")
    assert (f"OK ADD OBSERVER {FAN}: {FAN} gets the public reports of game duel1 from the next "
            f"one on (observers now: {FAN}; a private act); nothing was mailed to it now") in reply
    assert _observers(ctx) == [FAN] and "observe" in _acts(ctx)
    moderate(ctx, "duel1", "ADJUDICATE NOW\n")
    assert outbox(ctx, kind="report", to=FAN)  # the public report of the phase closed
    again = moderate(ctx, "duel1", f"ADD OBSERVER {FAN}\n")
    assert f"{FAN} observes game duel1 already; nothing changed" in again
    stop = moderate(ctx, "duel1", f"STOP OBSERVER {FAN}\n")
    assert (f"OK STOP OBSERVER {FAN}: {FAN} no longer gets the public reports of game duel1 "
            "(observers now: none; a private act)") in stop
    assert _observers(ctx) == []
    not_one = moderate(ctx, "duel1", f"STOP OBSERVER {FAN}\n")
    assert f"{FAN} does not observe game duel1; nothing changed" in not_one
    assert _acts(ctx).count("observe") == 1 and _acts(ctx).count("unobserve") == 1


def test_a_player_cannot_add_an_observer_and_a_french_moderator_writes_ajouter_observateur(
        ctx: Any) -> None:
    _game(ctx, "duel1", "duel")
    deliver(ctx, mail(f"GAME duel1\nPOWER north n-secret\nADD OBSERVER {FAN}\n"))
    assert "only the moderator may use this command" in outbox(ctx, kind="reply", to=NORTH)[-1][1]
    assert _observers(ctx) == []
    moderator_speaks(ctx, "duel1", "fr")
    reply = moderate(ctx, "duel1", f"AJOUTER OBSERVATEUR {FAN}\n")
    assert f"{FAN} reçoit les rapports publics de la partie duel1 à partir du prochain" in reply
    stop = moderate(ctx, "duel1", f"RETIRER OBSERVATEUR {FAN}\n")
    assert f"{FAN} ne reçoit plus les rapports publics de la partie duel1" in stop
    assert _observers(ctx) == []


# -- REVEAL SEED: the dice seed published ------------------------------------------------

def _revealed(ctx: Any) -> bool:
    return _game_row(ctx, "duel1").seed_revealed


def test_reveal_seed_of_a_running_game_needs_force(ctx: Any) -> None:
    _game(ctx, "duel1", "duel")
    refused = moderate(ctx, "duel1", "REVEAL SEED\n")
    assert ("REVEAL SEED: game duel1 is still running: once the seed is published, players can "
            "compute every future roll; REVEAL SEED FORCE reveals it anyway; nothing changed"
            ) in refused
    assert not _revealed(ctx) and "reveal" not in _acts(ctx)
    deliver(ctx, mail("GAME duel1\nPOWER north n-secret\nREVEAL SEED FORCE\n"))
    assert "only the moderator may use this command" in outbox(ctx, kind="reply", to=NORTH)[-1][1]
    assert not _revealed(ctx)
    done = moderate(ctx, "duel1", "REVEAL SEED FORCE: the players asked\n")
    assert f"the seed of game duel1 is published: {'03' * 32}" in done
    assert _revealed(ctx) and "reveal" in _acts(ctx)


def test_a_french_moderator_reads_reveler_graine_forcer(ctx: Any) -> None:
    _game(ctx, "duel1", "duel")
    moderator_speaks(ctx, "duel1", "fr")
    refused = moderate(ctx, "duel1", "RÉVÉLER GRAINE\n")
    assert "REVELER GRAINE FORCER la publie quand même ; rien n'a changé" in refused
    done = moderate(ctx, "duel1", "RÉVÉLER GRAINE FORCER\n")
    assert "la graine de la partie duel1 est publiée" in done
