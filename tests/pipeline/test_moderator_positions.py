"""Issue 17, class 8 by mail, on the corpus game (Pax Baltica 12.1): the moderator puts the
game into a position with SET (the phase follows, the replay still passes), mistakes get a
message and change nothing, and with preview=true no player learns a held phase's id or
deadline before RELEASE."""

from __future__ import annotations

from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import Game
from gm.service.context import ServiceContext
from gm.verify import verify_game
from tests.e2e.corpus_game import GAME, SEATS
from tests.pipeline.conftest import outbox
from tests.pipeline.test_standing_by_mail import close, phase, send
from tests.pipeline.test_who_gets_what import moderate

ANNA = SEATS["sweden"][0]



def test_set_moves_the_phase_and_the_replay_applies_it_in_its_place(game: ServiceContext) -> None:
    reply = moderate(game, 'SET season = "summer"\nSET blocks.karl-xii.strength = 2\n')
    assert "??" not in reply and "REFUSED" not in reply, reply
    assert phase(game)[0] == "1700-summer-actions-sweden"
    assert "OK  recon Livland" in send(game, "sweden", "recon Livland\n")
    close(game)
    assert phase(game)[0] == "1700-summer-actions-coalition"
    with session_scope(game.engine) as s:
        assert [m.describe() for m in verify_game(s, GAME)] == []


def test_a_set_the_game_cannot_read_is_refused_and_changes_nothing(game: ServiceContext) -> None:
    before = phase(game)
    reply = moderate(game, 'SET step = "teatime"\nSET nosuchkey = 3\n')
    assert "would leave a state the game cannot read" in reply and "nothing changed" in reply
    assert "the state has no 'nosuchkey'" in reply
    assert phase(game) == before


def test_a_held_phase_is_named_to_nobody_but_the_moderator_before_release(
        game: ServiceContext) -> None:
    with session_scope(game.engine) as s:
        row = s.exec(select(Game).where(Game.id == GAME)).one()
        row.settings = {**(row.settings or {}), "preview": True}
        s.add(row)
    send(game, "sweden", "recon Livland\n")
    close(game)
    held = phase(game)[0]
    assert held == "1700-autumn-actions-coalition"
    before = len(outbox(game))
    for power in ("sweden", "coalition"):
        reply = send(game, power, "STATUS\nrecon Livland\n")
        assert held not in reply and "Deadline" not in reply, reply
        assert "the moderator is reviewing the last adjudication" in reply
    mails = [text for _, text in outbox(game)[before:]]
    assert all(held not in text for text in mails)
    assert held in moderate(game, "RELEASE\n")
    assert held in send(game, "coalition", "STATUS\n")
