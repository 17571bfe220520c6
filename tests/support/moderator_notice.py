"""A game whose moderator reads French (the game setting ``moderator_language``), and the
check that a notice gm wrote them is French: the tests of each notice to a moderator
(gm/service/notify.py ``notify_moderator``) use these."""

from __future__ import annotations

from collections.abc import Iterable

from gm.db.engine import session_scope
from gm.db.models import Game
from gm.service.context import ServiceContext
from tests.i18n.scan import english_lines, french_lines


def moderator_speaks(ctx: ServiceContext, game_id: str, language: str) -> None:
    """``gm game new --set moderator_language=<language>``, on a game made already."""
    with session_scope(ctx.engine) as s:
        game = s.get(Game, game_id)
        assert game is not None
        game.settings = {**(game.settings or {}), "moderator_language": language}
        s.add(game)


def assert_in(language: str, text: str, allow: Iterable[str] = ()) -> None:
    """No line of ``text`` reads as the other language (``allow``: lines quoting data)."""
    wrong = english_lines(text, allow) if language == "fr" else french_lines(text, allow)
    assert wrong == [], f"lines not in {language}: {wrong}"
