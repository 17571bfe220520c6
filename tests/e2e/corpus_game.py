"""The game the bad-input corpus is played against, and what one mail did to it.

The corpus (tests/data/mail) writes to ``gm@pbem.example`` about game
``baltica42``: here that is a real Pax Baltica 12.1 game, Sweden to act
(``1700-autumn-actions-sweden``), seats and passwords as the mails use them.
The game is built once into a SQLite file; each mail gets a copy, so every
mail meets the same game and the rate limit of one never leaks into another.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from sqlmodel import col, func, select

from gm.clock import FakeClock
from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.migrate import upgrade
from gm.db.models import EventLog, InboundMail, OrderSet, OutboundMail, Phase
from gm.mail.types import FetchedMail
from gm.pipeline.handle import handle_inbound
from gm.pipeline.ingest import store_inbound
from gm.service.adjudicate import settle
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game, current_phase

GAME = "baltica42"
SERVICE = "gm@pbem.example"
MODERATOR = "mod@pbem.example"
SEATS = {"sweden": ("anna@example.se", "hunter2"), "coalition": ("boris@example.ru", "s-secret")}
MODERATOR_PASSWORD = "modsecret"
PHASE = "1700-autumn-actions-sweden"


def make_context(db: Path) -> ServiceContext:
    engine = make_engine(sqlite_url(db))
    return ServiceContext(engine=engine, clock=FakeClock(), instance="corpus",
                          settings={"address": SERVICE, "moderator_address": MODERATOR})


def build_template(db: Path) -> None:
    """baltica42 after the moderator's action roll: Sweden acts first."""
    ctx = make_context(db)
    upgrade(ctx.engine)
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id=GAME, module_name="baltica", scenario="12.1",
                    seats=[SeatSpec(p, a, password=pw) for p, (a, pw) in SEATS.items()],
                    moderator_address=MODERATOR, moderator_password=MODERATOR_PASSWORD,
                    seed=b"\x42" * 32,
                    # the corpus checks what each mail changes in the orders only: Sweden's
                    # READY must not close its phase (the default since issue 19, tested
                    # in tests/pipeline/test_ready_alone.py)
                    settings={"deadlines": {"early_alone": False}})
    deliver(ctx, (f"From: {MODERATOR}\r\nTo: {SERVICE}\r\nSubject: dice\r\n"
                  f"Message-ID: <setup-dice@pbem.example>\r\n\r\n"
                  f"GAME {GAME}\r\nMODERATOR {MODERATOR_PASSWORD}\r\nDICE 5 2\r\n").encode())
    settle(ctx, GAME, by="corpus")
    with session_scope(ctx.engine) as s:
        assert current_phase(s, GAME).phase_id == PHASE
        for row in s.exec(select(OutboundMail)).all():  # the set-up's own mails are not the test's
            s.delete(row)
    ctx.engine.dispose()


def copy_of(template: Path, into: Path) -> ServiceContext:
    db = into / "gm.db"
    shutil.copyfile(template, db)
    return make_context(db)


def deliver(ctx: ServiceContext, raw: bytes, source: str = "test:corpus") -> int:
    stored = store_inbound(ctx, FetchedMail(raw, source, None, None))
    handle_inbound(ctx, stored.inbound_id)
    return stored.inbound_id


@dataclass(frozen=True)
class Snapshot:
    """What a mail may change: the game's state and phases, orders in force, the event log."""

    phases: str
    deadlines: list[str]
    orders: dict[str, str]
    order_versions: int
    events: int

    @classmethod
    def take(cls, ctx: ServiceContext) -> Snapshot:
        with session_scope(ctx.engine) as s:
            phases = s.exec(select(Phase).order_by(col(Phase.seq))).all()
            phase_text = json.dumps([(p.seq, p.phase_id, p.state, p.game_state, p.supplied_dice)
                                     for p in phases], sort_keys=True, default=str)
            deadlines = [str(p.deadline) for p in phases]
            current = s.exec(select(OrderSet).where(OrderSet.current == True)).all()  # noqa: E712
            versions = s.exec(select(func.count()).select_from(OrderSet)).one()
            events = s.exec(select(func.count()).select_from(EventLog)).one()
        return cls(phase_text, deadlines, {o.power: o.text for o in current}, int(versions), int(events))


def inbound_rows(ctx: ServiceContext) -> list[InboundMail]:
    with session_scope(ctx.engine) as s:
        return list(s.exec(select(InboundMail).order_by(col(InboundMail.id))).all())


def outbound_rows(ctx: ServiceContext) -> list[OutboundMail]:
    with session_scope(ctx.engine) as s:
        return list(s.exec(select(OutboundMail).order_by(col(OutboundMail.id))).all())



# -- the corpus's Pax Britannica and Pax Viking games (issue 17: classes 1, 2, 5, 6 for every game)
BRITANNICA = "britannica42"
BRITANNICA_PHASE = "1880-movement"
BRITANNICA_SEATS = {
    "britain": ("emily@example.co.uk", "tea-and-1880", "en"),
    "france": ("claire@example.fr", "marianne7", "fr"),
    "germany": ("klaus@example.de", "bismarck!", "en"),
    "italy": ("giulia@example.it", "cavour-21", "en"),
    "japan": ("kenji@example.jp", "meiji-1868", "en"),
    "russia": ("ivan@example.ru", "tsar-pw", "en"),
    "usa": ("jack@example.com", "monroe-doc", "en"),
}
VIKING = "viking42"
VIKING_SEATS = {
    "red": ("sigrid@example.no", "ragnarok9", "en"),
    "blue": ("amelie@example.fr", "drakkar-fr", "fr"),
    "green": ("olaf@example.dk", "jelling-stone", "en"),
}


def build_other_template(db: Path) -> None:
    """britannica42 (1880, the Movement phase open) and viking42 (3 players, the first
    player's turn), seats as the corpus's b17_* and v17_* mails use them."""
    from gm.db.models import OutboundMail as Outbound

    ctx = make_context(db)
    upgrade(ctx.engine)
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id=BRITANNICA, module_name="britannica", scenario="1880",
                    seats=[SeatSpec(p, a, password=pw, language=lang)
                           for p, (a, pw, lang) in BRITANNICA_SEATS.items()],
                    moderator_address=MODERATOR, moderator_password=MODERATOR_PASSWORD,
                    seed=b"\x17" * 32)
        create_game(ctx, s, game_id=VIKING, module_name="viking", scenario="3p",
                    seats=[SeatSpec(p, a, password=pw, language=lang)
                           for p, (a, pw, lang) in VIKING_SEATS.items()],
                    moderator_address=MODERATOR, moderator_password=MODERATOR_PASSWORD,
                    settings={"difficulty": "standard", "deadlines": {"early_alone": False}},
                    seed=b"\x71" * 32)
    settle(ctx, VIKING, by="corpus")
    settle(ctx, BRITANNICA, by="corpus")  # the 1880 set-up phase owes no orders
    with session_scope(ctx.engine) as s:
        assert current_phase(s, BRITANNICA).phase_id == BRITANNICA_PHASE
        for row in s.exec(select(Outbound)).all():
            s.delete(row)
    ctx.engine.dispose()
