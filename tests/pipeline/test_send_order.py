"""A player's mails arrive in the order they were queued, however many instances send.

Seen with two daemons on one database: a player got "game resumed" before "game
paused". One instance had claimed "game paused" and was still sending it; the other,
refused that mail, claimed and sent the next one (gm.pipeline.sendorder). Two drains, in
two threads under two instance names, on one database (SQLite, and PostgreSQL with
GM_TEST_DATABASE_URL), each with its own connection to one real SMTP server (aiosmtpd);
the first is held inside its first send until the second has drained.
"""

from __future__ import annotations

import asyncio
import email
import threading
from dataclasses import replace
from email.policy import default

from gm.db.engine import session_scope
from gm.mail.config import SmtpSettings, TlsMode
from gm.mail.smtp_sink import SmtpSink
from gm.mail.types import SendResult
from gm.pipeline.dispatch import drain
from gm.service.context import ServiceContext
from gm.service.games import get_game
from gm.service.moderator import pause, resume
from tests.schedule.support import new_game
from tests.support.servers import SmtpTestServer


class _HeldAtFirstSend:
    """A real SMTP sink whose first send waits until the test lets it go on."""

    def __init__(self, sink: SmtpSink) -> None:
        self.sink, self.entered, self.go = sink, threading.Event(), threading.Event()

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> SendResult:
        if not self.entered.is_set():
            self.entered.set()
            await asyncio.to_thread(self.go.wait, 60)
        return await self.sink.send(raw, sender, recipients)

    async def close(self) -> None:
        await self.sink.close()


def _subjects(server: SmtpTestServer, to: str) -> list[str]:
    return [str(email.message_from_bytes(m.raw, policy=default)["Subject"])
            for m in server.received if to in m.recipients]


def test_two_instances_send_each_players_pause_and_resume_in_order(ctx: ServiceContext) -> None:
    ctx.settings["draw_workers"] = 0
    server = SmtpTestServer()
    server.start()
    settings = SmtpSettings(port=server.port, tls=TlsMode.NONE, timeout=10.0)
    try:
        new_game(ctx, "race1")
        new_game(ctx, "race2")
        asyncio.run(drain(ctx, SmtpSink(settings)))  # the games' start, sent
        server.received.clear()
        for game, act in (("race1", pause), ("race1", resume), ("race2", pause)):
            with session_scope(ctx.engine) as s:
                act(ctx, s, get_game(s, game), actor="mod@example.org")

        alpha = _HeldAtFirstSend(SmtpSink(settings))
        first = threading.Thread(
            target=lambda: asyncio.run(drain(replace(ctx, instance="alpha"), alpha)))
        first.start()
        try:
            assert alpha.entered.wait(60), "alpha never sent"
            sent_by_beta = asyncio.run(drain(replace(ctx, instance="beta"), SmtpSink(settings)))
            while_alpha_held = list(server.received)
        finally:
            alpha.go.set()
            first.join(60)
    finally:
        server.stop()

    for player, said in (("n@example.org", ["game paused", "game resumed"]),
                         ("s@example.org", ["partie suspendue", "partie reprise"])):
        told = [s for s in _subjects(server, player) if s.startswith("[race1]")]
        assert told == [f"[race1] {words}" for words in said]
    # beta did not wait for alpha: it sent the other game's mails meanwhile, none of race1's
    assert sent_by_beta > 0
    games = {str(email.message_from_bytes(m.raw, policy=default)["Subject"]).split("]")[0]
             for m in while_alpha_held}
    assert games == {"[race2"}, games
