"""Forming games: seats taken by mail before a game starts (issue 19, the judges' habit).

A host creates a game with ``gm game new ... --forming``: the scenario's powers given no
``--seat`` are open. Anyone takes one by mail with ``JOIN game power`` (or ``any``):

- by default the seat is theirs at once (``Game.settings["forming"]["approve"]`` false);
- with ``--approve`` the request waits in ``settings["forming"]["pending"]`` and the
  moderator is told; ``gm mod approve`` (or ``APPROVE address`` by moderator mail) seats it,
  ``gm mod decline`` (``DECLINE address``) turns it away.

When the last seat is filled the game starts in that transaction: each seat gets a new
password, the first phase opens (its deadline counted from now, not from creation), the
opening die rolls are played out and each seat is mailed its welcome
(gm.service.games.begin_play). Until then the game has no phase: orders are refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, col, select

from gm.db.models import Game, Seat
from gm.i18n import Text, msg, plural
from gm.orders.names import fold
from gm.service.bouncing import clear as clear_bouncing
from gm.service.context import ServiceContext
from gm.service.games import NewGame, begin_play, seats
from gm.service.notify import notify_moderator
from gm.service.outbox import queue_mail
from gm.service.passwords import hash_password, new_password

FORMING = "forming"
ANY = "any"


def forming_settings(options: Mapping[str, Any]) -> dict[str, Any]:
    """``settings["forming"]`` of a new forming game: ``approve`` (bool) and no requests."""
    given = options.get("forming")
    approve = bool(given.get("approve")) if isinstance(given, Mapping) else given == "approve"
    return {"approve": approve, "pending": []}


def is_forming(game: Game) -> bool:
    return game.status == FORMING


def needs_approval(game: Game) -> bool:
    return bool(((game.settings or {}).get("forming") or {}).get("approve"))


def pending(game: Game) -> list[dict[str, str]]:
    """The requests waiting for the moderator: address, power (or ``any``), language, at."""
    raw = ((game.settings or {}).get("forming") or {}).get("pending") or []
    return [p for p in raw if isinstance(p, dict)]


def open_seats(session: Session, game: Game) -> list[str]:
    """The powers nobody holds yet, in the scenario's order."""
    return [s.power for s in _fresh_seats(session, game) if not s.address]


def _fresh_seats(session: Session, game: Game) -> list[Seat]:
    """The game's seats as the database has them now, not as this session last read them."""
    q = select(Seat).where(Seat.game_id == game.id).order_by(col(Seat.id))
    return list(session.exec(q.execution_options(populate_existing=True)))


def _lock(session: Session, game: Game) -> Game:
    """Lock the game's row for this transaction (SELECT ... FOR UPDATE on PostgreSQL; a
    SQLite file has one writer). Two instances filling a game's last two seats at once
    would each see the other's still open and neither would start the game: locked,
    the second waits for the first to commit and then sees its seat taken."""
    q = select(Game).where(Game.id == game.id).with_for_update()
    return session.exec(q.execution_options(populate_existing=True)).one()


@dataclass
class JoinAnswer:
    """What a JOIN (or an approval) came to: ``refused`` or a note for the asker."""

    text: Text
    refused: bool = False
    started: NewGame | None = None
    seated: str = ""  # the power given, if one was
    extra: list[Text] = field(default_factory=list)


def _seat_named(session: Session, game: Game, written: str) -> Seat | None:
    want = fold(written)
    return next((s for s in seats(session, game.id) if fold(s.power) == want), None)


def _choose(session: Session, game: Game, address: str, written: str) -> Seat | JoinAnswer:
    """The open seat ``written`` names (``any``: the first open one), or the refusal."""
    held = [s.power for s in _fresh_seats(session, game)
            if s.address and s.address.lower() == address.lower()]
    if held:
        return JoinAnswer(msg("you already play {power} in game {game}", power=held[0],
                              game=game.id), refused=True)
    free = open_seats(session, game)
    if written == ANY:
        if not free:
            return JoinAnswer(msg("game {game} is full", game=game.id), refused=True)
        return _seat_named(session, game, free[0]) or JoinAnswer(msg("game {game} is full",
                                                                     game=game.id), refused=True)
    seat = _seat_named(session, game, written)
    if seat is None:
        names = ", ".join(s.power for s in seats(session, game.id))
        return JoinAnswer(msg("game {game} has no power {power!r} (powers: {names})",
                              game=game.id, power=written, names=names), refused=True)
    if seat.address:
        if not free:
            return JoinAnswer(msg("game {game} is full", game=game.id), refused=True)
        return JoinAnswer(msg("{power} is taken in game {game}; open: {open} (or JOIN {game} any)",
                              power=seat.power, game=game.id, open=", ".join(free)), refused=True)
    return seat


def join(ctx: ServiceContext, session: Session, game: Game, address: str, written: str,
         *, language: str = "en", inbound_id: int = 0) -> JoinAnswer:
    """``JOIN game power|any`` for a forming game: a seat, a request, or a refusal."""
    game = _lock(session, game)
    if not is_forming(game):  # it started while this mail waited for the lock
        return JoinAnswer(msg("game {game} is full", game=game.id), refused=True)
    chosen = _choose(session, game, address, written)
    if isinstance(chosen, JoinAnswer):
        return chosen
    if needs_approval(game):
        return _ask(ctx, session, game, address, written if written == ANY else chosen.power,
                    language, inbound_id)
    return _seat(ctx, session, game, chosen, address, language, by="join")


def _ask(ctx: ServiceContext, session: Session, game: Game, address: str, power: str,
         language: str, inbound_id: int) -> JoinAnswer:
    requests = pending(game)
    if any(p.get("address", "").lower() == address.lower() for p in requests):
        return JoinAnswer(msg("your request to join game {game} already waits for the "
                              "moderator's approval", game=game.id))
    entry = {"address": address, "power": power, "language": language,
             "at": ctx.clock.now().isoformat()}
    _save(session, game, pending=[*requests, entry])
    notify_moderator(ctx, session, game, msg("{address} asks to play {power} in {game}",
                                             address=address, power=power, game=game.id), [
        msg("{address} asks to play {power} in game {game}, which is forming (open: {open}).",
            address=address, power=power, game=game.id, open=", ".join(open_seats(session, game))),
        msg("To approve: gm mod approve {game} {address}", game=game.id, address=address),
        msg("or by mail: GAME {game} / MODERATOR <password> / APPROVE {address}", game=game.id,
            address=address),
        msg("To decline: gm mod decline {game} {address}, or by mail DECLINE {address}",
            game=game.id, address=address)], key=f"join-ask:{game.id}:{inbound_id}:{address}")
    return JoinAnswer(msg("your request to play {power} in game {game} waits for the "
                          "moderator's approval; you will be told when you have a seat",
                          power=power, game=game.id))


def approve(ctx: ServiceContext, session: Session, game: Game, address: str,
            power: str | None = None, *, actor: str = "moderator") -> JoinAnswer:
    """The moderator seats ``address`` (its pending request's power, or ``power``); the
    joiner is mailed the answer. Refused if the game is not forming or the seat is gone."""
    from gm.service.errors import Conflict

    game = _lock(session, game)
    if not is_forming(game):
        raise Conflict(f"game {game.id} is not forming: it has started")
    request = next((p for p in pending(game) if p.get("address", "").lower() == address.lower()),
                   None)
    if request is None and power is None:
        raise Conflict(f"{address} has not asked to join {game.id}: name a power to seat them")
    written = power or (request or {}).get("power", ANY)
    language = (request or {}).get("language", "en")
    chosen = _choose(session, game, address, written)
    if isinstance(chosen, JoinAnswer):
        raise Conflict(str(chosen.text))
    # the game has no phase (nor event log) yet: the approval is kept with the requests
    approved = ((game.settings or {}).get("forming") or {}).get("approved") or []
    _save(session, game, pending=[p for p in pending(game) if p is not request],
          approved=[*approved, {"address": address, "power": chosen.power, "by": actor,
                                "at": ctx.clock.now().isoformat()}])
    answer = _seat(ctx, session, game, chosen, address, language, by="approve")
    _tell(ctx, session, game, address, language, answer, nth=len(approved))
    return answer


def decline(ctx: ServiceContext, session: Session, game: Game, address: str, *,
            actor: str = "moderator") -> str | None:
    """The moderator turns ``address`` away before the game starts: its request is dropped,
    or the seat it took is open again; it is mailed that. Returns the power opened again
    (None: a request was dropped). Refused, nothing changed, for a game that has started or
    an address that neither asked nor holds a seat."""
    from gm.i18n import translate
    from gm.service.errors import Conflict

    game = _lock(session, game)
    if not is_forming(game):
        raise Conflict(msg("game {game} is not forming: it has started (REPLACE POWER gives a "
                           "seat to another player); nothing changed", game=game.id))
    requests = pending(game)
    request = next((p for p in requests if p.get("address", "").lower() == address.lower()), None)
    seat = next((s for s in _fresh_seats(session, game)
                 if s.address and s.address.lower() == address.lower()), None)
    if request is None and seat is None:
        raise Conflict(msg("{address} neither asked to join {game} nor holds a seat in it; "
                           "nothing changed", address=address, game=game.id))
    language = (request or {}).get("language") or (seat.language if seat else "en")
    if seat is not None:
        seat.address = ""
        clear_bouncing(seat)
        session.add(seat)
    declined = ((game.settings or {}).get("forming") or {}).get("declined") or []
    _save(session, game, pending=[p for p in requests if p is not request],
          declined=[*declined, {"address": address, "by": actor, "at": ctx.clock.now().isoformat()}])
    told = msg("the moderator of game {game} did not give you a seat in it", game=game.id)
    queue_mail(ctx, session, game_id=game.id, kind="notice", to=[address],
               subject=f"[{game.id}] " + translate(told, language),
               text=f"==== gm notice {game.id} ====\n{translate(told, language)}.\n",
               key=f"join-declined:{game.id}:{address.lower()}:{ctx.clock.now().isoformat()}")
    return seat.power if seat is not None else None


def _seat(ctx: ServiceContext, session: Session, game: Game, seat: Seat, address: str,
          language: str, *, by: str) -> JoinAnswer:
    seat.address, seat.language = address, language
    clear_bouncing(seat)
    session.add(seat)
    session.flush()
    left = open_seats(session, game)
    if left:
        return JoinAnswer(plural("you have the seat {power} in game {game}; it starts when {n} "
                                 "more player has joined (open: {open}); your password comes "
                                 "with the welcome mail then",
                                 "you have the seat {power} in game {game}; it starts when {n} "
                                 "more players have joined (open: {open}); your password comes "
                                 "with the welcome mail then", len(left), power=seat.power,
                                 game=game.id, open=", ".join(left)), seated=seat.power)
    started = start(ctx, session, game)
    return JoinAnswer(msg("you have the seat {power} in game {game}, its last open seat: the "
                          "game starts now and your welcome mail with your password follows",
                          power=seat.power, game=game.id), seated=seat.power, started=started)


def start(ctx: ServiceContext, session: Session, game: Game) -> NewGame:
    """Every seat is filled: passwords, the first phase from now, the welcomes."""
    made = NewGame(game=game)
    for seat in seats(session, game.id):
        password = new_password()
        made.passwords[seat.power] = password
        seat.password_hash = hash_password(password)
        session.add(seat)
    game.status = "running"
    session.add(game)
    session.flush()
    begin_play(ctx, session, made, play_out=True)
    lines = [f"  {s.power}: {s.address}" for s in seats(session, game.id)]
    notify_moderator(ctx, session, game, msg("game {game} has started", game=game.id), [
        msg("Every seat of game {game} is filled; the game has started and each player was "
            "mailed a welcome with their password.", game=game.id), *lines],
        key=f"forming-started:{game.id}")
    return made


def _tell(ctx: ServiceContext, session: Session, game: Game, address: str, language: str,
          answer: JoinAnswer, *, nth: int) -> None:
    """Mail the joiner the moderator's answer (their JOIN was answered 'waits for approval').
    ``nth``: the approvals of the game before this one, in the key: a player declined after
    an approval and approved again is told again (one key per address kept the second
    notice out of the outbox as a duplicate of the first)."""
    from gm.i18n import translate

    text = f"==== gm notice {game.id} ====\n{translate(answer.text, language)}.\n"
    queue_mail(ctx, session, game_id=game.id, kind="notice", to=[address],
               subject=f"[{game.id}] " + translate(msg("your seat: {power}", power=answer.seated),
                                                   language), text=text,
               key=f"join-approved:{game.id}:{address.lower()}:{nth}")


def _save(session: Session, game: Game, **changes: Any) -> None:
    settings = dict(game.settings or {})
    settings["forming"] = {**(settings.get("forming") or {}), **changes}
    game.settings = settings
    session.add(game)
