"""Pax Baltica games that run on immediate deadlines, played by scripted players by mail.

Used by the tests of several ``gm serve`` instances and of ``gm serve`` killed at random
(issue 22). Every phase nobody owes orders in (the action roll, a battle step with no
battle) has a deadline of zero: it closes as soon as a sweep sees it. A phase a power owes
orders in has no deadline ("Deadline: -" in the report), and closes when every power owing
orders has said READY (``early``). Each scripted player (tests/support/baltica_player.py)
answers every report of a phase that waits for it with a mail of seeded random orders and
READY, whose Message-ID names the game, the phase and the power; a report of a phase with a
deadline (closing at once) is not answered, as a player would not answer a phase already
over. So the game's course depends on the mails and the dice only, never on when a
process ran or was killed: an uninterrupted run and a run killed fifty times must end the
same, mail for mail.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sqlmodel import col, select

from gm.daemon import Daemon
from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.migrate import upgrade
from gm.db.models import OrderSet, Phase
from gm.games.baltica.module import BalticaModule
from gm.mail.config import MaildirSettings
from gm.mail.file_sink import FileSink
from gm.mail.maildir_source import MaildirSource
from gm.mail.mime import decode
from gm.service.adjudicate import settle
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game
from tests.e2e.conftest import header
from tests.pipeline.conftest import mail
from tests.support.baltica_player import MARKER, ReadReport, ScriptedPlayer, read_report

MOD = "mod@example.org"
NOT_TAKEN = re.compile(r"READY not taken|PRÊT non pris en compte")
NO_DEADLINE = re.compile(r"^(?:Deadline: -|Date limite : - \(-\))$", re.M)
OWED_KINDS = ("actions", "battle", "forage", "interphase", "winter-campaign")
IMMEDIATE = {
    "deadlines": {"early": True, "default": "0s", "length": {k: "none" for k in OWED_KINDS},
                  "outage_threshold": "3650d"},
    "maps": False,  # a PNG per report would only slow the run; tests/present covers maps
}
"""Zero deadlines for phases nobody orders in; READY closes the others."""


def sweden(game_id: str) -> str:
    return f"karl.{game_id}@example.org"


def coalition(game_id: str) -> str:
    return f"pyotr.{game_id}@example.org"


def new_games(ctx: ServiceContext, games: dict[str, str]) -> None:
    """Create each game (id -> scenario) with its own seed, and close its opening roll."""
    for n, (game_id, scenario) in enumerate(sorted(games.items())):
        with session_scope(ctx.engine) as s:
            create_game(ctx, s, game_id=game_id, module_name="baltica", scenario=scenario,
                        seats=[SeatSpec("sweden", sweden(game_id), password="sw-secret"),
                               SeatSpec("coalition", coalition(game_id), password="co-secret",
                                        language="fr", timezone="Europe/Paris")],
                        moderator_address=MOD, moderator_password="mod-secret",
                        settings=IMMEDIATE, seed=bytes([40 + n]) * 32)
        settle(ctx, game_id, by="gm")


def sqlite_context(path: Path, games: dict[str, str], instance: str = "setup") -> ServiceContext:
    return context(sqlite_url(path), games, instance)


def context(url: str, games: dict[str, str], instance: str = "setup") -> ServiceContext:
    """A context on a migrated database at ``url`` holding ``games``, newly created."""
    engine = make_engine(url)
    upgrade(engine)
    ctx = ServiceContext(engine=engine, settings={"address": "gm@example.org",
                                                  "moderator_address": MOD}, instance=instance)
    new_games(ctx, games)
    return ctx


class Players:
    """Both seats of every game: they read the mail the service sent, and answer."""

    def __init__(self, games: Iterable[str]) -> None:
        board = BalticaModule().board
        self.players = {}
        for game_id in games:
            for p in (ScriptedPlayer(board, game_id, "sweden", sweden(game_id), "sw-secret", "en",
                                     seed=5),
                      ScriptedPlayer(board, game_id, "coalition", coalition(game_id), "co-secret",
                                     "fr", seed=5)):
                self.players[p.address] = p
        self.latest: dict[str, ReadReport] = {}  # the last report read (not always the last phase's)
        # Reports of phases that wait for orders (no deadline), not yet answered: each is
        # answered, not only the last read, because two daemons draining one outbox may
        # deliver a phase's report before the one of the phase before it (a mail client
        # shows them in any order too); answering only the last read then left a phase
        # that waited for this player unanswered, and the game stalled.
        self.waiting: dict[str, list[ReadReport]] = defaultdict(list)
        self.over: set[str] = set()  # players that read their game's final report
        self.answered: set[tuple[str, str]] = set()
        self.sent: list[str] = []  # Message-IDs of the players' mails, in order
        self.replies: dict[str, list[str]] = defaultdict(list)  # In-Reply-To -> reply texts
        self.reports: dict[str, list[str]] = defaultdict(list)  # address -> report marker lines
        self._seen: set[str] = set()
        # Mails whose READY was not taken because gm refused one of their lines (docs/orders.md,
        # "READY with refused lines"): the player, as a hurried one would, accepts what was
        # taken with READY alone, once
        self.again: list[str] = []

    def read(self, raws: Iterable[bytes]) -> None:
        """Each player opens its new mail; a mail delivered twice is read once."""
        for raw in raws:
            mid = header(raw, "Message-ID")
            if mid in self._seen:
                continue
            self._seen.add(mid)
            text = decode(raw).text
            in_reply_to = header(raw, "In-Reply-To")
            if in_reply_to:
                self.replies[in_reply_to].append(text)
                if NOT_TAKEN.search(text) is not None:  # READY not taken: a line was refused
                    self.again.append(in_reply_to)
                continue
            marker = MARKER.search(text)
            if marker is None:
                continue
            for address in self.players:
                if address in header(raw, "To"):
                    self.reports[address].append(marker.group(0))
                    report = read_report(text)
                    self.latest[address] = report
                    if report.ended:
                        self.over.add(address)
                    elif NO_DEADLINE.search(text) is not None:
                        self.waiting[address].append(report)

    def write(self) -> list[bytes]:
        """The mails the players write now: orders and READY for each phase that awaits them."""
        out = []
        for address, p in self.players.items():
            # a phase with a deadline closes at once: such a report is never waiting
            for report in self.waiting.pop(address, []):
                if p.power not in report.owing or (address, report.phase) in self.answered:
                    continue
                self.answered.add((address, report.phase))
                orders = p.orders_for(report) or []
                mid = f"<{report.game_id}.{report.phase}.{p.power}@player.example>"
                self.sent.append(mid)
                out.append(mail(p.mail_body(orders) + "READY\n", sender=address, message_id=mid,
                                subject=f"{report.game_id} {report.phase}"))
        for first in self.again:
            game_id, rest = first.strip("<>").split("@")[0].split(".", 1)
            phase, power = rest.rsplit(".", 1)
            p = next(x for x in self.players.values() if x.power == power and x.game_id == game_id)
            mid = f"<{game_id}.{phase}.{power}.ready@player.example>"
            self.sent.append(mid)
            out.append(mail(p.mail_body([]) + "READY\n", sender=p.address, message_id=mid,
                            subject=f"{game_id} {phase}"))
        self.again.clear()
        return out

    def ended(self) -> bool:
        return all(a in self.over for a in self.players)


def outcome(ctx: ServiceContext) -> list[tuple[Any, ...]]:
    """Every phase (id, state, game state) and every power's orders in force, per game."""
    with session_scope(ctx.engine) as s:
        phases = [(p.game_id, p.seq, p.phase_id, p.state, p.game_state)
                  for p in s.exec(select(Phase).order_by(col(Phase.game_id), col(Phase.seq)))]
        orders = [(o.game_id, o.phase_seq, o.power, o.text, o.ready, o.source)
                  for o in s.exec(select(OrderSet).where(OrderSet.current == True)  # noqa: E712
                                  .order_by(col(OrderSet.game_id), col(OrderSet.phase_seq),
                                            col(OrderSet.power)))]
    return phases + orders


def reference(tmp: Path, games: dict[str, str], rounds: int = 5000,
              url: str | None = None) -> tuple[list[tuple[Any, ...]], Players]:
    """The same games, played by the same players with one uninterrupted in-process daemon
    (a Maildir inbox and outbox, a SQLite file unless ``url`` names a database); the
    outcome and what the players read."""
    ctx = context(url or sqlite_url(tmp / "reference.db"), games, instance="reference")
    inbox, outbox = tmp / "reference-inbox", tmp / "reference-outbox"
    daemon = Daemon(ctx, MaildirSource(MaildirSettings(inbox=str(inbox))), FileSink(outbox),
                    sweep_seconds=0)
    players = Players(games)
    done: set[str] = set()
    written = 0
    for _ in range(rounds):
        asyncio.run(daemon.step())
        new = sorted(p for p in (outbox / "new").iterdir() if p.name not in done)
        done.update(p.name for p in new)
        players.read(p.read_bytes() for p in new)
        if players.ended():
            break
        for raw in players.write():
            (inbox / "new" / f"{written:05d}.eml").write_bytes(raw)
            written += 1
        time.sleep(0.01)
    assert players.ended(), "the reference games did not end"
    result = outcome(ctx)
    ctx.engine.dispose()
    return result, players


def first_difference(got: list[tuple[Any, ...]], want: list[tuple[Any, ...]]) -> str:
    """Where two outcomes part, in words a failing test can print."""
    for g, w in zip(got, want, strict=False):
        if g == w:
            continue
        if isinstance(g[-1], dict) and isinstance(w[-1], dict) and g[:-1] == w[:-1]:
            keys = sorted(k for k in set(g[-1]) | set(w[-1]) if g[-1].get(k) != w[-1].get(k))
            return f"{g[:-1]}: state differs in {keys}: " + "; ".join(
                f"{k}: {str(g[-1].get(k))[:400]} != {str(w[-1].get(k))[:400]}" for k in keys[:3])
        return f"{str(g)[:600]} != {str(w)[:600]}"
    return f"{len(got)} rows != {len(want)} rows"
