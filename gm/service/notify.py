"""Telling the moderator (and players) what the service did on its own."""

from __future__ import annotations

from collections.abc import Sequence

from sqlmodel import Session

from gm.db.models import Game
from gm.i18n import Text, msg, translate
from gm.service.context import ServiceContext
from gm.service.games import seats
from gm.service.outbox import queue_mail


def moderator_address(ctx: ServiceContext, game: Game) -> str:
    return game.moderator_address or str(ctx.settings.get("moderator_address", ""))


def notify_moderator(ctx: ServiceContext, session: Session, game: Game, subject: str, text: str,
                     *, key: str) -> None:
    """Queue a notice to the game's moderator (nothing if the game has none)."""
    to = moderator_address(ctx, game)
    if not to:
        return
    body = f"==== gm notice {game.id} ====\n{text.rstrip()}\n"
    queue_mail(ctx, session, game_id=game.id, kind="notice", to=[to],
               subject=f"[{game.id}] {subject}", text=body, key=f"notice:{key}")


def tell_players(ctx: ServiceContext, session: Session, game: Game, *, what: str, subject: Text,
                 text: Text, reason: str = "", key: str,
                 extra: Sequence[tuple[str, str, Text]] = ()) -> None:
    """A moderator act (orders.md §9: "everyone is told"), or what the service did on its
    own (a game held), told to every active player, each in their own language; ``extra``: (address, language, text) for others concerned (the
    player a replacement removes). The reason follows unless the act is private."""
    mails = [(s.address, s.language, text) for s in seats(session, game.id)
             if s.active and s.address] + list(extra)
    for n, (address, language, words) in enumerate(mails):
        why = ("\n" + translate(msg("Reason: {reason}", reason=reason), language)) if reason else ""
        queue_mail(ctx, session, game_id=game.id, kind="notice", to=[address],
                   subject=f"[{game.id}] " + translate(subject, language),
                   text=f"==== gm notice {game.id} ====\n" + translate(words, language) + why + "\n",
                   key=f"{what}:{key}:{n}:{address}")
