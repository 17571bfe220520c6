"""Helpers for the scheduler tests: toy games, orders, and reading the outbox."""

from __future__ import annotations

import asyncio
import email
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

from sqlmodel import col, select

from gm.daemon import Daemon
from gm.db.engine import session_scope
from gm.db.models import EventLog, OutboundMail, Phase
from gm.orders.model import SourceLine
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game, current_phase, get_game
from gm.service.orders import set_flags, submit_orders
from tests.support import toygame  # noqa: F401  (registers "race")

SEATS = [SeatSpec("north", "n@example.org", password="n-secret"),
         SeatSpec("south", "s@example.org", password="s-secret", language="fr",
                  timezone="Europe/Paris")]
QUIET = {"outage_threshold": "365d"}  # time travel is not an outage, unless a test says so


def new_game(ctx: ServiceContext, game_id: str = "race1", **deadlines: Any) -> None:
    """A two-power race whose only setting is ``deadlines``."""
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id=game_id, module_name="race", scenario="duel", seats=SEATS,
                    moderator_address="mod@example.org", seed=b"\x02" * 32,
                    settings={"deadlines": {**QUIET, **deadlines}})


def order(ctx: ServiceContext, power: str, steps: int = 2, game_id: str = "race1") -> None:
    with session_scope(ctx.engine) as s:
        game = get_game(s, game_id)
        submit_orders(ctx, s, game, power, [SourceLine(1, f"advance {steps}")])


def flags(ctx: ServiceContext, power: str, game_id: str = "race1", **kw: bool) -> None:
    with session_scope(ctx.engine) as s:
        set_flags(ctx, s, get_game(s, game_id), power, **kw)


def phase(ctx: ServiceContext, game_id: str = "race1") -> Phase:
    with session_scope(ctx.engine) as s:
        return current_phase(s, game_id)


def phases(ctx: ServiceContext, game_id: str = "race1") -> list[Phase]:
    with session_scope(ctx.engine) as s:
        return list(s.exec(select(Phase).where(Phase.game_id == game_id).order_by(col(Phase.seq))))


def advance_to(ctx: ServiceContext, when: Any, delta: timedelta = timedelta(0)) -> None:
    ctx.clock.set(when + delta)  # type: ignore[attr-defined]


def outbox(ctx: ServiceContext, kind: str | None = None) -> list[OutboundMail]:
    with session_scope(ctx.engine) as s:
        q = select(OutboundMail).order_by(col(OutboundMail.id))
        if kind:
            q = q.where(OutboundMail.kind == kind)
        return list(s.exec(q))


def body(mail: OutboundMail) -> str:
    msg = email.message_from_bytes(mail.raw, policy=default)
    assert isinstance(msg, EmailMessage)
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def events(ctx: ServiceContext, type_: str, game_id: str = "race1") -> list[EventLog]:
    with session_scope(ctx.engine) as s:
        return list(s.exec(select(EventLog).where(EventLog.game_id == game_id,
                                                  EventLog.type == type_)))


def clone_games(ctx: ServiceContext, template: str, ids: list[str]) -> None:
    """Copy game ``template`` (its seats and open phase) to each of ``ids``, in one transaction.

    Creating thousands of games through ``create_game`` would spend its time in
    scrypt password hashing; a copy keeps the hashes and everything the
    adjudication reads (seed, settings, state, owing powers, deadline).
    """
    from gm.db.models import Game, Seat
    from gm.dice import commitment

    with session_scope(ctx.engine) as s:
        game = get_game(s, template)
        seats = list(s.exec(select(Seat).where(Seat.game_id == template)))
        open_ = current_phase(s, template)
        for gid in ids:
            s.add(Game(**{**game.model_dump(), "id": gid,
                          "commitment": commitment(game.seed, gid)}))
            s.flush()
            for seat in seats:
                s.add(Seat(**{**seat.model_dump(exclude={"id"}), "game_id": gid}))
            s.add(Phase(**{**open_.model_dump(exclude={"id"}), "game_id": gid}))
        s.flush()


@contextmanager
def running(daemon: Daemon) -> Iterator[threading.Thread]:
    """``daemon`` running in a thread of its own until the block ends; then stopped and
    waited for (up to 30 s: the thread is left to the caller's assertions)."""
    thread = threading.Thread(target=asyncio.run, args=(daemon.run(),), daemon=True)
    thread.start()
    try:
        yield thread
    finally:
        daemon.stop()
        thread.join(30)


def answered(out: Path, thread: threading.Thread | None = None, *, wait: float = 30.0) -> bool:
    """Whether a reply to an order mail (``Re: orders``) is in the Maildir sink ``out``;
    with ``thread``, waited for up to ``wait`` seconds while it runs."""
    def found() -> bool:
        return any(b"Subject: Re: orders" in f.read_bytes() for f in (out / "new").glob("*"))

    if thread is not None:
        for _ in range(int(wait / 0.1)):
            if found():
                return True
            thread.join(0.1)
    return found()
