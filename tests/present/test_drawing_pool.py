"""The drawing pool (gm.service.drawing): report maps drawn in other processes at drain
time send exactly the bytes the send path would draw itself, each mail once, and what is
stored is what is sent."""

from __future__ import annotations

import asyncio
import email
from email.policy import default

from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import OutboundMail
from gm.mail.types import SendResult
from gm.pipeline.dispatch import drain
from gm.service import outbox
from gm.service.context import ServiceContext
from gm.service.outbox import PASSWORD_KINDS, finish_raw, has_pending_parts
from tests.present.support import new_baltica


class Sink:
    def __init__(self) -> None:
        self.raws: list[bytes] = []

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> SendResult:
        self.raws.append(raw)
        return SendResult.sent()

    async def close(self) -> None:
        return None


def test_maps_drawn_in_the_pool_are_the_bytes_the_send_path_draws(ctx: ServiceContext, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(ctx.settings, "draw_workers", 2)
    new_baltica(ctx)
    with session_scope(ctx.engine) as s:
        queued = {r.message_id: r.raw for r in s.exec(select(OutboundMail).where(
            OutboundMail.status == "queued"))}
    pending = {mid: raw for mid, raw in queued.items() if has_pending_parts(raw)}
    assert len(pending) >= 2, "the game's first reports wait for their maps"
    expected = {mid: finish_raw(raw) for mid, raw in pending.items()}

    def not_here(data: bytes) -> bytes:
        raise AssertionError("drawn in the daemon's process, not in the pool")

    # this process can no longer draw a PNG (it would drop it): the pool's processes can
    monkeypatch.setitem(outbox.RENDERERS, ("image/svg+xml", "image/png"), not_here)
    sink = Sink()
    sent = asyncio.run(drain(ctx, sink))
    assert sent == len(queued) == len(sink.raws), "every queued mail sent, once"
    by_id = {email.message_from_bytes(r, policy=default)["Message-ID"]: r for r in sink.raws}
    for mid in pending:
        assert by_id[mid] == expected[mid], f"{mid}: the pool drew other bytes"
        assert b"image/png" in by_id[mid] and not has_pending_parts(by_id[mid])
    with session_scope(ctx.engine) as s:
        rows = list(s.exec(select(OutboundMail)))
    assert {r.status for r in rows} == {"sent"}
    assert all(r.raw == by_id[r.message_id] for r in rows if r.kind not in PASSWORD_KINDS), \
        "what was stored is what was sent (a welcome's password is masked once sent)"
