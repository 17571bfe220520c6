"""Telling the moderator (and players) what the service did on its own."""

from __future__ import annotations

from collections.abc import Sequence

from sqlmodel import Session, col, func, select

from gm.db.models import Game, Seat
from gm.i18n import SOURCE_LANGUAGE, Text, msg, translate
from gm.service.context import ServiceContext
from gm.service.games import seats
from gm.service.outbox import queue_mail


def moderator_address(ctx: ServiceContext, game: Game) -> str:
    return game.moderator_address or str(ctx.settings.get("moderator_address", ""))


def moderator_language(game: Game | None) -> str:
    """The language of the notices written for ``game``'s moderator: the game's
    ``moderator_language`` setting (``gm game new --set moderator_language=fr``), else
    English; English for the service's own moderator (no game)."""
    return str(((game.settings if game is not None else None) or {}).get("moderator_language", "en"))


def moderators_for(ctx: ServiceContext, session: Session, address: str) -> list[str]:
    """Who hears of a mail that belongs to no game: the service's moderator, and the
    moderators of the games ``address`` plays in."""
    games = select(Seat.game_id).where(func.lower(col(Seat.address)) == address.lower())
    found = [str(ctx.settings.get("moderator_address", "") or "")]
    found += list(session.exec(select(Game.moderator_address).where(col(Game.id).in_(games))))
    return [a for a in dict.fromkeys(found) if a]


def moderators_by_language(ctx: ServiceContext, session: Session, address: str) -> dict[str, list[str]]:
    """:func:`moderators_for` ``address``, by the language of their notices, English first:
    the service's moderator in English, a game's in its :func:`moderator_language` (in
    English when the games an address moderates here disagree)."""
    service = str(ctx.settings.get("moderator_address", "") or "")
    games = select(Seat.game_id).where(func.lower(col(Seat.address)) == address.lower())
    said: dict[str, set[str]] = {}
    for game in session.exec(select(Game).where(col(Game.id).in_(games))):
        if game.moderator_address:
            said.setdefault(game.moderator_address, set()).add(moderator_language(game))
    groups: dict[str, list[str]] = {SOURCE_LANGUAGE: []}
    for to in moderators_for(ctx, session, address):
        languages = said.get(to, set()) if to != service else set()
        groups.setdefault(languages.pop() if len(languages) == 1 else SOURCE_LANGUAGE, []).append(to)
    return {language: to for language, to in groups.items() if to}


def notify_moderator(ctx: ServiceContext, session: Session, game: Game, subject: Text,
                     text: Text | Sequence[str], *, key: str, phase_bound: bool = False) -> None:
    """Queue a notice to the game's moderator (nothing if the game has none), said in the
    game's :func:`moderator_language`. ``text``: a message, or its lines, each a
    :class:`Text` said in that language or a plain ``str`` kept as written (data: an
    error's trace, a list of seats). ``phase_bound``: it asks something of the open phase
    (who is missing, whether to extend its deadline) and is withdrawn, not sent, if the
    phase closes before it goes (gm.pipeline.dispatch)."""
    to = moderator_address(ctx, game)
    if not to:
        return
    language = moderator_language(game)
    body = f"==== gm notice {game.id} ====\n{said(text, language).rstrip()}\n"
    queue_mail(ctx, session, game_id=game.id, kind="notice", to=[to],
               subject=f"[{game.id}] {translate(subject, language)}", text=body,
               key=f"notice:{key}", phase_bound=phase_bound)


def said(text: Text | Sequence[str], language: str) -> str:
    """A message, or lines of messages and data, in ``language`` (lines joined)."""
    lines = [text] if isinstance(text, str) else text
    return "\n".join(translate(line, language) for line in lines)


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
                   key=f"{what}:{game.id}:{key}:{n}:{address}")
