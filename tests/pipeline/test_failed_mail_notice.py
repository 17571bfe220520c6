"""The notice of a mail whose handling raised (gm/pipeline/handle.py ``shunt``), driven as
tests/pipeline/test_duplicates.py drives a failure: the reply's building raises. It goes to
the moderators of the sender's games and to the service's moderator, each in the language of
their notices: a game's ``moderator_language``, English for the service's own."""

from __future__ import annotations

import pytest

import gm.pipeline.handle
from gm.db.engine import session_scope
from gm.db.models import Game
from gm.pipeline.handle import handle_inbound
from gm.service.context import ServiceContext
from gm.service.outbox import message_id_for
from tests.pipeline.conftest import deliver, mail, outbox
from tests.support.moderator_notice import assert_in, moderator_speaks

SERVICE, REFEREE = "mod@example.org", "referee@example.org"  # the ctx fixture's; race1's own


def _failing(race: ServiceContext, monkeypatch: pytest.MonkeyPatch, referee_reads: str) -> int:
    """race1 moderated by REFEREE, who reads ``referee_reads``; north's mail raises a bug."""
    with session_scope(race.engine) as s:
        game = s.get(Game, "race1")
        assert game is not None
        game.moderator_address = REFEREE
        s.add(game)
    moderator_speaks(race, "race1", referee_reads)

    def build(*args):  # type: ignore[no-untyped-def]
        raise RuntimeError("a bug in the reply")

    monkeypatch.setattr(gm.pipeline.handle, "build_reply", build)
    return deliver(race, mail("GAME race1\nPOWER north n-secret\nadvance 2\n"))


def test_a_french_game_moderator_is_told_in_french_and_the_service_s_moderator_in_english(
        race: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    failed = _failing(race, monkeypatch, "fr")
    notices = outbox(race, kind="notice")
    assert [n.recipients for n, _ in notices] == [[SERVICE], [REFEREE]]
    (english, said), (french, text) = notices
    assert english.subject == f"[gm] mail {failed} from north@example.org failed: RuntimeError"
    assert "raised an error while it was handled, so nothing in it was applied." in said
    assert french.subject == f"[gm] échec du mail {failed} de north@example.org : RuntimeError"
    assert f"Le mail {failed} de north@example.org" in text
    assert "a provoqué une erreur pendant son traitement : rien de son contenu n'a été appliqué." in text
    assert f"Pour le traiter de nouveau, une fois : gm mod retry {failed}" in text
    assert "Erreur : RuntimeError: a bug in the reply" in text  # the error as it was raised
    assert_in("fr", text, allow=['File "', "a bug in the reply"])
    assert_in("en", said)
    with session_scope(race.engine) as s:  # the English one under the key it always had
        assert english.message_id == message_id_for(race, s, f"failed-notice:{failed}")
    # a second failure, after gm mod retry, tells nobody again (each notice keyed once)
    handle_inbound(race, failed, retry=True)
    assert len(outbox(race, kind="notice")) == 2


def test_with_an_english_game_moderator_it_is_one_english_notice_to_both(
        race: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    failed = _failing(race, monkeypatch, "en")
    [(notice, text)] = outbox(race, kind="notice")
    assert notice.recipients == [SERVICE, REFEREE]
    assert notice.subject == f"[gm] mail {failed} from north@example.org failed: RuntimeError"
    assert f"To handle it again, once: gm mod retry {failed}" in text
