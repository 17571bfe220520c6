"""Forming games over real mail (issue 19): players JOIN a Pax Baltica game by mails
APPENDed to the test Dovecot, the real ``Daemon`` fetches them over IMAP and answers over
SMTP (aiosmtpd). A JOIN for a taken power is refused, the game starts when its last seat
is filled, each player reads a welcome with a future deadline and a valid .ics, and the
password in it signs on orders that are accepted. With approval, the moderator's APPROVE
mail seats each joiner."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from email import message_from_bytes
from email.policy import default as default_policy
from typing import Any

import icalendar

from gm.clock import utc
from gm.daemon import Daemon
from gm.db.engine import session_scope
from gm.games.baltica.module import BalticaModule
from gm.l10n import moment
from gm.mail.config import ImapSettings, SmtpSettings
from gm.mail.imap_source import ImapSource
from gm.mail.mime import decode
from gm.mail.smtp_sink import SmtpSink
from gm.service.context import ServiceContext
from gm.service.games import create_game, current_phase
from tests.e2e.conftest import header
from tests.pipeline.conftest import mail
from tests.support.baltica_player import MARKER, ScriptedPlayer, read_report
from tests.support.servers import DovecotServer, ReceivedMail, SmtpTestServer

MOD = "mod@example.org"
KARL, PYOTR, LATE = "karl@example.net", "pyotr@example.net", "late@example.net"


class Post:
    """The players' side: mails into Dovecot, one daemon round, the mails that came out."""

    def __init__(self, ctx: ServiceContext, dovecot: DovecotServer, user: tuple[str, str],
                 imap: ImapSettings, smtp: SmtpTestServer, smtp_settings: SmtpSettings) -> None:
        self.dovecot, self.user, self.smtp = dovecot, user, smtp
        self.daemon = Daemon(ctx, ImapSource(imap), SmtpSink(smtp_settings), sweep_seconds=0)
        self.read = 0
        self.loop = asyncio.new_event_loop()  # one loop: the SMTP connection lives in it

    def send(self, *raws: bytes) -> list[ReceivedMail]:
        """Mail ``raws``, let the daemon fetch, answer and send: the mails it sent."""
        self.dovecot.append(*self.user, list(raws))
        self.loop.run_until_complete(self._round())
        new, self.read = self.smtp.received[self.read:], len(self.smtp.received)
        return new

    async def _round(self) -> None:
        await self.daemon.step()
        await self.daemon.step()  # a second round sends what the first one queued late

    def close(self) -> None:
        self.loop.run_until_complete(self.daemon.sink.close())
        self.daemon.source.close()
        self.loop.close()


def _to(mails: list[ReceivedMail], address: str, subject: str = "") -> list[ReceivedMail]:
    return [m for m in mails if address in m.recipients and subject in header(m.raw, "Subject")]


def _welcomes(mails: list[ReceivedMail], address: str) -> list[ReceivedMail]:
    """The welcomes to ``address``: its subject is in the seat's language ("bienvenue")."""
    return _to(mails, address, "welcome") or _to(mails, address, "bienvenue")


def _text(m: ReceivedMail) -> str:
    return decode(m.raw).text


def _event(raw: bytes) -> Any:
    msg = message_from_bytes(raw, policy=default_policy)
    [ics] = [p for p in msg.walk() if p.get_filename() == "deadline.ics"]
    assert ics.get_content_type() == "text/calendar"
    [event] = icalendar.Calendar.from_ical(ics.get_content()).walk("VEVENT")
    return event


def _forming(ctx: ServiceContext, game_id: str, approve: bool) -> None:
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id=game_id, module_name="baltica", scenario="12.3", seats=[],
                    moderator_address=MOD, moderator_password="mod-secret",
                    settings={"maps": False, "forming": {"approve": approve}},
                    seed=b"\x07" * 32, forming=True)


def test_players_join_by_mail_the_game_starts_when_full_and_orders_are_accepted(
    ctx: ServiceContext, dovecot: DovecotServer, imap_user: tuple[str, str],
    imap_settings: ImapSettings, smtp_server: SmtpTestServer, smtp_settings: SmtpSettings,
) -> None:
    _forming(ctx, "pbf", approve=False)
    post = Post(ctx, dovecot, imap_user, imap_settings, smtp_server, smtp_settings)
    try:
        out = post.send(mail("LIST\n", sender=LATE), mail("JOIN pbf sweden\n", sender=KARL))
        assert "open: coalition, sweden" in _text(_to(out, LATE)[0]) or \
            "open: sweden, coalition" in _text(_to(out, LATE)[0])
        assert "you have the seat sweden in game pbf; it starts when 1 more" in _text(_to(out, KARL)[0])
        out = post.send(mail("JOIN pbf sweden\n", sender=LATE))
        assert "sweden is taken in game pbf; open: coalition" in _text(_to(out, LATE)[0])
        ctx.clock.advance(timedelta(days=3))  # the deadline counts from the start, not creation
        out = post.send(mail("REJOINDRE pbf coalition\n", sender=PYOTR))
        assert "la partie commence maintenant" in _text(_to(out, PYOTR, "Re:")[0])
        with session_scope(ctx.engine) as s:
            phase = current_phase(s, "pbf")
            owing = list((phase.info or {}).get("owing", []))
            deadline = utc(phase.deadline) if phase.deadline else None
        assert owing and deadline is not None and deadline > ctx.clock.now()
        passwords = {}
        for address, power in ((KARL, "sweden"), (PYOTR, "coalition")):
            [welcome] = _welcomes(out, address)
            text = _text(welcome)
            assert f"GAME pbf\nPOWER {power} " in text
            passwords[power] = text.split(f"POWER {power} ", 1)[1].split()[0]
            assert phase.phase_id in text
            event = _event(welcome.raw)
            assert "pbf" in str(event["SUMMARY"])
            if power in owing:  # the First Player: the phase now open
                assert utc(event["DTEND"].dt) == deadline
            else:  # the Second Player: its own action phase, at the latest after the first
                own = phase.phase_id.replace(owing[0], power)
                assert own in text and utc(event["DTEND"].dt) > deadline
                when, flat = utc(event["DTEND"].dt), text.replace("\n", " ")
                assert f"{moment(when, 'UTC', 'en')} at the" in flat \
                    or f"au plus tard {moment(when, 'UTC', 'fr')}" in flat
            # the welcome went out before the reports queued with it
            mine = [m for m in out if address in m.recipients]
            assert _welcomes([mine[0]], address)
        assert _to(out, MOD, "has started")
        # the owing power orders with the password its welcome gave; the orders are accepted
        power = owing[0]
        address = KARL if power == "sweden" else PYOTR
        [report] = [read_report(_text(m)) for m in _to(out, address)
                    if MARKER.search(_text(m)) and read_report(_text(m)).phase == phase.phase_id]
        player = ScriptedPlayer(BalticaModule().board, "pbf", power, address, passwords[power],
                                "fr" if power == "coalition" else "en", seed=3)
        orders = next(o for _ in range(50) if (o := player.orders_for(report)))
        out = post.send(mail(player.mail_body(orders), sender=address))
        reply = _text(_to(out, address)[0])
        assert " OK " in reply and "REFUSED" not in reply and "REFUSÉ" not in reply, reply
    finally:
        post.close()


def test_with_approval_the_moderators_mail_seats_each_joiner(
    ctx: ServiceContext, dovecot: DovecotServer, imap_user: tuple[str, str],
    imap_settings: ImapSettings, smtp_server: SmtpTestServer, smtp_settings: SmtpSettings,
) -> None:
    _forming(ctx, "pba", approve=True)
    post = Post(ctx, dovecot, imap_user, imap_settings, smtp_server, smtp_settings)
    try:
        out = post.send(mail("JOIN pba any\n", sender=KARL), mail("JOIN pba coalition\n", sender=PYOTR))
        assert "waits for the moderator's approval" in _text(_to(out, KARL)[0])
        asks = _to(out, MOD, "asks to play")
        assert len(asks) == 2 and "APPROVE karl@example.net" in "".join(_text(m) for m in asks)
        out = post.send(mail("GAME pba\nMODERATOR mod-secret\nAPPROVE pyotr@example.net\n", sender=MOD))
        assert "pyotr@example.net now plays coalition" in _text(_to(out, MOD, "Re:")[0])
        assert "it starts when 1 more" in _text(_to(out, PYOTR)[0])
        out = post.send(mail("GAME pba\nMODERATOR mod-secret\nAPPROVE karl@example.net\n", sender=MOD))
        assert "game pba has started" in "".join(header(m.raw, "Subject") for m in _to(out, MOD))
        for address in (KARL, PYOTR):
            [welcome] = _welcomes(out, address)
            assert utc(_event(welcome.raw)["DTEND"].dt) > ctx.clock.now()
    finally:
        post.close()
