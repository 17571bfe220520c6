"""Which mail of a round comes next when several instances share one mailbox (issue 21).

Mail is handled in the order of the mailbox *within a game*: a mail is never handled
before an earlier one that may touch the same game (a player's orders, then the READY
that closes the phase; a player's orders, then the moderator's ADJUDICATE NOW). Mails of
different games do not depend on one another, so an instance that finds a mail held by
another instance (:func:`gm.daemon.process_one` returns False) leaves only the later mails
of that mail's games for the next round and goes on with the others; before this, it
left the whole rest of the mailbox, and two instances took turns (docs/mailbox.md).

A mail's games are read without the database, the way gm.pipeline.handle reads them:
each section's ``GAME`` line (or ``LIST``, ``OBSERVE``), else the game of the address it
was sent to (``gm+game@``). When that cannot tell (a section that names no game, where
the sender's seats decide; a sign-up, ``JOIN`` or ``APPROVE``, which may start a forming
game; a mail that cannot be read), the mail may depend on any earlier mail and any later
one on it: held by another instance, it ends the round as before; behind a held mail it
ends the round there.

Once this instance has met another one (a mail it held, or its heartbeat), it no longer
takes a round's mails in the mailbox's order but game by game, the games in an order of its own (a hash of its name
and the game's): two instances then mostly work on different games instead of colliding
on every other mail, and each signs on (scrypt, once per seat and process) only the
seats of its own games. A single instance never meets another and reads nothing ahead. Game by game, a round
that has run for ``fresh_seconds`` ends between two games: the next fetch leaves out the
mails the other instance has handled meanwhile, rather than this one visiting each.

When it knows the other instances by name (their heartbeats), the games are shared out
between them from the start: each game belongs to the instance that ranks it first
(:func:`owner`, rendezvous hashing: the same answer in every instance, and when one comes
or goes only its games move). An instance takes its own games first, in its own order,
and only then the others' games, each owner's from the end of that owner's order: the
game its owner would reach last, so that two instances meet, if at all, on the last game
of a backlog rather than on the first (issue 21: with both orders drawn at random, two
instances often began on the same game and then took turns on it, and each signed on
the seats of games the other was handling). Nothing waits on an owner: a game whose
owner is slow, or died a moment ago, is taken once this instance has no mail of its own.
A game in which this instance found a mail held by another (:class:`OthersGames`) is left
to that one for a second: the two would otherwise take its mails in turns, a round and a
sign-on each, one waiting while the other works.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import cast

from sqlmodel import col, select

from gm.db.engine import session_scope
from gm.db.schedule_tables import Heartbeat
from gm.kept import Kept
from gm.mail.mime import decode
from gm.mail.types import FetchedMail
from gm.orders import commands as c
from gm.orders.envelope import parse_envelope
from gm.orders.text import clean_body
from gm.service.context import ServiceContext

Games = frozenset[str] | None
"""The games a mail may touch; None: it cannot be told (the mail may touch any game)."""


def mail_games(raw: bytes, service_address: str) -> Games:
    """The games mail ``raw`` may touch (lower case), read as gm.pipeline.handle reads
    them (decoded, cleaned, the envelope parsed; nothing from the database); None when
    that cannot be told."""
    try:
        mail = decode(raw)
        if mail.too_large:  # answered "too large", nothing in it read
            return frozenset()
        tag = mail.plus_tag(service_address)
        games: set[str] = {tag.lower()} if tag else set()
        for section in parse_envelope(clean_body(mail.text)).sections:
            if any(isinstance(x, c.Join | c.ApproveJoin) for x in section.commands):
                return None
            game = section.game or tag
            if game is None:  # the sender's only seat decides (gm.pipeline.signon.choose_game)
                return None
            games.add(game.lower())
        return frozenset(games)
    except Exception:  # handling will answer it (or shunt it); here: it may touch anything
        return None


_NOT_READ = object()
_KNOWN: Kept[tuple[str, int | None, int | None, str, int, str], Games] = Kept(10_000)  # mails


def games_of(fetched: FetchedMail, service_address: str) -> Games:
    """:func:`mail_games` of a fetched mail, read once per process (by its place in the
    mailbox and its bytes): every round fetches the mails still unflagged again, and game
    by game each round reads them all."""
    key = (fetched.source, fetched.uidvalidity, fetched.uid, fetched.key, hash(fetched.raw),
           service_address)
    known = _KNOWN.get(key, _NOT_READ)
    if known is not _NOT_READ:
        return cast(Games, known)
    games = mail_games(fetched.raw, service_address)
    _KNOWN.put(key, games)
    return games


def others_alive(ctx: ServiceContext, within: timedelta) -> tuple[str, ...]:
    """The other instances that wrote their heartbeat (each sweep does: gm.schedule.outage)
    in the last ``within``, by name: with any, this one takes its rounds game by game from
    the start, its own games (:func:`owner`) first."""
    since = ctx.clock.now() - within
    with session_scope(ctx.engine) as session:
        return tuple(sorted(session.exec(select(Heartbeat.instance).where(
            Heartbeat.instance != ctx.instance, col(Heartbeat.alive_at) >= since)).all()))


def game_rank(instance: str, game: str) -> int:
    """Where ``game`` comes in ``instance``'s own order of games (rendezvous hashing:
    another instance's order is unrelated, whatever the number of instances)."""
    digest = hashlib.blake2b(f"{instance}\0{game}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def owner(game: str, instances: Iterable[str]) -> str:
    """The instance among ``instances`` that ``game`` belongs to: the one whose own order
    puts it first (rendezvous hashing: every instance computes the same owner from the
    same names; when an instance comes or goes, only the games it gains or had move)."""
    return min(instances, key=lambda i: (game_rank(i, game), i))


@dataclass
class Round:
    """One round's fetched mails, handed out in an order that keeps each game's order.

    Iterate it for the next mail to handle; call :meth:`held` for a mail another instance
    holds. Until then (and with ``by_game`` False) the mails come in the mailbox's order and
    nothing is read ahead."""

    mails: list[FetchedMail]
    service_address: str
    instance: str
    by_game: bool = False  # take the games in this instance's own order (it met another)
    fresh_seconds: float | None = None  # by game: end the round between two games after this
    peers: tuple[str, ...] = ()  # by game: the other instances alive; each game has an owner
    avoid: frozenset[str] = frozenset()  # games another instance is working on: none of theirs
    held_games: set[str] = field(default_factory=set)  # games of the mails found held
    met_other: bool = False  # a mail of this round was held by another instance
    _pending: list[int] = field(default_factory=list)  # indexes not yet handed out, in order
    _games: dict[int, Games] = field(default_factory=dict)
    _blocked: set[str] = field(default_factory=set)  # games whose later mails wait
    _ranks: dict[str, tuple[int, int]] = field(default_factory=dict)
    _stopped: bool = False
    _current: int | None = None
    _started: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self._pending = list(range(len(self.mails)))

    def __iter__(self) -> Iterator[FetchedMail]:
        while not self._stopped and self._pending:
            i = self._next()
            if i is None:
                return
            self._current = i
            yield self.mails[i]

    @property
    def left(self) -> int:
        """How many mails this round leaves for the next (so far)."""
        return len(self._pending)

    def held(self, fetched: FetchedMail) -> None:
        """The mail just handed out is held by another instance: the later mails of its
        games wait for the next round (all of them, when its games cannot be told)."""
        assert self._current is not None and self.mails[self._current] is fetched
        self.met_other = self.by_game = True
        games = self._games_of(self._current)
        if games is None:
            self._stopped = True
        else:
            self._blocked |= games
            self.held_games |= games

    def _games_of(self, i: int) -> Games:
        if i not in self._games:
            self._games[i] = games_of(self.mails[i], self.service_address)
        return self._games[i]

    def _rank(self, game: str) -> tuple[int, int]:
        """Where ``game`` comes in this round: this instance's own games first, in its own
        order; then the other instances' games, each from the end of its owner's order."""
        if game not in self._ranks:
            mine = game_rank(self.instance, game)
            first = owner(game, (self.instance, *self.peers))
            self._ranks[game] = (0, mine) if first == self.instance \
                else (1, -game_rank(first, game))
        return self._ranks[game]

    def upcoming(self) -> Iterator[int]:
        """The mails not yet handed out (their indexes), in the order they would be if
        none were held and the round did not end early: the mails that are stored next."""
        pending = list(self._pending)
        while pending:
            pos = self._pick(pending)
            if pos is None:
                return
            yield pending.pop(pos)

    def _next(self) -> int | None:
        """The next mail to hand out (its index), or None when every one left must wait."""
        pos = self._pick(self._pending)
        if pos is None or self._stale(self._pending[pos]):
            return None
        return self._pending.pop(pos)

    def _pick(self, pending: list[int]) -> int | None:
        """The position in ``pending`` of the mail to hand out next, None if all must wait."""
        if not self._blocked and not self.by_game and not self.avoid:
            return 0
        taken = set(self._blocked)  # games with a mail that must come first
        best: tuple[tuple[int, int], int] | None = None  # (rank, position in pending)
        for pos, i in enumerate(pending):
            games = self._games_of(i)
            if games is None:  # may depend on every mail before it, every later one on it
                if not taken:  # (the mails before it touch no game)
                    best = ((-1, 0), pos) if best is None else best
                break
            if not games & taken and not games & self.avoid:
                rank = min((self._rank(g) for g in games), default=(-1, 0))
                if not self.by_game:
                    best = (rank, pos)
                    break
                if best is None or rank < best[0]:
                    best = (rank, pos)
            taken |= games
        return None if best is None else best[1]

    def _stale(self, i: int) -> bool:
        """Whether to end the round before mail ``i`` rather than go on: game by game, it
        begins another game than the last mail, and the round's mails were fetched more
        than ``fresh_seconds`` ago (the other instance may have handled many of them since:
        a new fetch leaves those out instead of visiting each one)."""
        if self.fresh_seconds is None or self._current is None or not self.by_game:
            return False
        if time.monotonic() - self._started < self.fresh_seconds:
            return False
        last, games = self._games_of(self._current), self._games_of(i)
        return last is None or games is None or not games & last


HELD_GAME_SECONDS = 1.0
"""How long a game in which another instance was found holding a mail is left to it."""


@dataclass
class OthersGames:
    """The games in which this instance found a mail held by another instance, each left to
    that one for ``seconds`` (issue 21): the next rounds take none of their mails, rather
    than taking them in turns with it, one mail and one round each, each instance signing
    on the game's seats (scrypt) and the other waiting. A game is left only by those that
    found it held, never by its holder; if the holder died, it is taken again after
    ``seconds``."""

    seconds: float = HELD_GAME_SECONDS
    clock: Callable[[], float] = time.monotonic
    _found: dict[str, float] = field(default_factory=dict)

    def note(self, mails: Round) -> None:
        """The games of the mails ``mails`` found held."""
        now = self.clock()
        for game in mails.held_games:
            self._found[game] = now

    def now(self) -> frozenset[str]:
        """The games left to another instance now."""
        now = self.clock()
        self._found = {g: at for g, at in self._found.items() if now - at < self.seconds}
        return frozenset(self._found)
