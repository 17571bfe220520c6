"""Helpers for the presentation tests: a Pax Baltica game played a few phases, mails taken apart."""

from __future__ import annotations

import asyncio
import email
import re
from email.message import EmailMessage
from email.policy import default
from typing import Any

from sqlmodel import col, select

from gm.db.engine import session_scope
from gm.db.models import OutboundMail
from gm.mail.html_text import html_to_text
from gm.mail.types import MailSink
from gm.orders.model import SourceLine
from gm.service.adjudicate import close_phase, settle
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game, current_phase, get_game
from gm.service.orders import submit_orders

BALTICA_SEATS = [SeatSpec("sweden", "karl@example.org", password="sw-pw"),
                 SeatSpec("coalition", "pyotr@example.org", password="co-pw", language="fr",
                          timezone="Europe/Paris")]
SWEDISH_ORDERS = ["recon Livland", "move from Skåne: Karl XII to Småland"]


def new_baltica(ctx: ServiceContext, game_id: str = "b1") -> None:
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id=game_id, module_name="baltica", scenario="12.1",
                    seats=BALTICA_SEATS, moderator_address="mod@example.org", seed=b"\x07" * 32)
    settle(ctx, game_id, by="test")


def play(ctx: ServiceContext, game_id: str, closes: int, orders: dict[str, list[str]] | None = None) -> None:
    """Close ``closes`` phases, giving ``orders`` to whoever owes them in an actions phase."""
    for _ in range(closes):
        with session_scope(ctx.engine) as s:
            game = get_game(s, game_id)
            phase = current_phase(s, game_id)
            owing = (phase.info or {}).get("owing", [])
            if phase.kind == "actions":
                for power in owing:
                    lines = (orders or {}).get(power, [])
                    if lines:
                        submit_orders(ctx, s, game, power,
                                      [SourceLine(i + 1, t) for i, t in enumerate(lines)])
            seq = phase.seq
        close_phase(ctx, game_id, seq, by="test")
        settle(ctx, game_id, by="test")


def mails(ctx: ServiceContext, kind: str | None = None, to: str | None = None) -> list[tuple[OutboundMail, EmailMessage]]:
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(OutboundMail).order_by(col(OutboundMail.id))).all()
        for r in rows:
            s.expunge(r)
    out = []
    for r in rows:
        if (kind and r.kind != kind) or (to and to not in (r.recipients or [])):
            continue
        out.append((r, email.message_from_bytes(r.raw, policy=default)))
    return out


def sent(row: OutboundMail) -> EmailMessage:
    """A queued mail as it will leave: its map drawn as the outbox drain draws it before the
    first send (gm.service.outbox.finish_pending_parts); nothing is stored."""
    from gm.service.outbox import finish_pending_parts

    finish_pending_parts(row)
    return email.message_from_bytes(row.raw, policy=default)


def sent_svg(msg: EmailMessage) -> str:
    """The map.svg the drain will draw for a queued report (without rasterising its PNG)."""
    from gm.maps.draw import svg_from_source

    return svg_from_source(parts(msg)["files"]["map.json"].get_payload(decode=True)).decode()


def parts(msg: EmailMessage) -> dict[str, Any]:
    """The text and HTML bodies, inline images by Content-ID, and attachments by file name."""
    text = msg.get_body(("plain",))
    html = msg.get_body(("html",))
    inline, files = {}, {}
    for part in msg.walk():
        if part.is_multipart() or part in (text, html):
            continue
        cid = part.get("Content-ID")
        if cid:
            inline[cid.strip("<>")] = part
        elif part.get_filename():
            files[part.get_filename()] = part
    return {"text": text.get_content() if text else None,
            "html": html.get_content() if html else None, "inline": inline, "files": files}


WORD = re.compile(r"\w+")


def words(text: str) -> set[str]:
    return {w.casefold() for w in WORD.findall(text)}


def html_words(html: str) -> set[str]:
    return words(html_to_text(html))


def finished_game(ctx: ServiceContext, game_id: str = "fin") -> None:
    """A scripted Pax Baltica game: three phases, a ruling, press to all, then the end."""
    from gm.orders import commands as c
    from gm.pipeline.press import forward_press
    from gm.service import moderator as mod

    new_baltica(ctx, game_id)
    play(ctx, game_id, 2, {"sweden": SWEDISH_ORDERS})
    with session_scope(ctx.engine) as s:
        game = get_game(s, game_id)
        mod.ruling(ctx, s, game, actor="mod", text="Karl XII may cross the ice this winter")
        forward_press(ctx, s, game, "sweden", c.Press(("all",), "Peace in our time? <no>"),
                      key=f"press:{game_id}:1")
    play(ctx, game_id, 1)
    with session_scope(ctx.engine) as s:
        mod.set_path(ctx, s, get_game(s, game_id), actor="mod", path="ended", value="true",
                     reason="the players agreed a draw")
    play(ctx, game_id, 1)


def drain_while_ticking(ctx: ServiceContext, sink: MailSink) -> tuple[int, int]:
    """Drain the outbox (gm.pipeline.dispatch.drain) while a task on the same event loop
    ticks every 10 ms; (mails sent, ticks). A drain that holds the loop up lets the ticker
    run at most once per mail."""
    from gm.pipeline.dispatch import drain

    async def run() -> tuple[int, int]:
        ticks = 0
        done = asyncio.Event()

        async def tick() -> None:
            nonlocal ticks
            while not done.is_set():
                ticks += 1
                await asyncio.sleep(0.01)

        ticker = asyncio.create_task(tick())
        sent = await drain(ctx, sink)
        done.set()
        await ticker
        return sent, ticks

    return asyncio.run(run())
