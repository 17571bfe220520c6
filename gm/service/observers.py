"""Observers and the waiting list of a game (issue 19, the judges' habits).

Observers: addresses that receive a game's public reports (issue 19, the judges' habit).

Kept in ``Game.settings["observers"]``; each gets, whenever the seats get theirs, the
report a spectator may see (the game's public view, gm.service.reports), never a seat's.
Only the moderator adds or removes one (``gm game observe``; by mail ``ADD OBSERVER`` /
``STOP OBSERVER``); each change is a private
moderator act, since the address is none of the players' business.
"""

from __future__ import annotations

from sqlmodel import Session

from gm.db.models import Game
from gm.i18n import msg
from gm.service.context import ServiceContext
from gm.service.errors import Conflict
from gm.service.moderator import record_act


def observers(game: Game) -> list[str]:
    return [a for a in (game.settings or {}).get("observers", []) if a]


def set_observer(ctx: ServiceContext, session: Session, game: Game, address: str, *, actor: str,
                 stop: bool = False) -> list[str]:
    """Add ``address`` as an observer of ``game`` (with ``stop``: remove it); the list after."""
    address = address.strip()
    local, at, domain = address.partition("@")
    if not (local and at and "." in domain) or any(c.isspace() for c in address):
        raise Conflict(msg("{address!r} is not a mail address; nothing changed", address=address))
    now = observers(game)
    known = [a for a in now if a.lower() == address.lower()]
    if stop and not known:
        raise Conflict(f"{address} does not observe game {game.id}")
    if not stop and known:
        return now
    after = [a for a in now if a.lower() != address.lower()] if stop else [*now, address]
    game.settings = {**(game.settings or {}), "observers": after}  # a new dict: stored
    session.add(game)
    record_act(ctx, session, game, actor=actor, command="unobserve" if stop else "observe",
               args={"address": address}, private=True)
    return after


def waiting(game: Game) -> list[dict[str, str]]:
    """The waiting list (``Game.settings["waiting"]``): who asked to play which power."""
    return [w for w in (game.settings or {}).get("waiting", []) if isinstance(w, dict)]


def add_waiting(ctx: ServiceContext, session: Session, game: Game, address: str, power: str) -> bool:
    """Put ``address`` on the waiting list for ``power`` (or ``any``); False if it was there."""
    now = waiting(game)
    if any(w.get("address", "").lower() == address.lower() and w.get("power") == power for w in now):
        return False
    entry = {"address": address, "power": power, "at": ctx.clock.now().isoformat()}
    game.settings = {**(game.settings or {}), "waiting": [*now, entry]}
    session.add(game)
    return True


def leave_waiting(session: Session, game: Game, address: str) -> None:
    """Take ``address`` off the waiting list (it was given a seat)."""
    now = waiting(game)
    after = [w for w in now if w.get("address", "").lower() != address.lower()]
    if after != now:
        game.settings = {**(game.settings or {}), "waiting": after}
        session.add(game)
