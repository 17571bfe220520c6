"""Telling the moderator (and players) what the service did on its own."""

from __future__ import annotations

from sqlmodel import Session

from gm.db.models import Game
from gm.service.context import ServiceContext
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
