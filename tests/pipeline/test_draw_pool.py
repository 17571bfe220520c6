"""Report maps drawn in worker processes while the outbox is sent in order (issue 21).

The drain (gm.pipeline.dispatch) hands each claimed mail with parts to draw to a pool of
worker processes (gm.pipeline.drawpool) and sends the finished mails one after the other
on the sink. What a player would check: every report arrives once, in the outbox's order,
with the very map gm draws in-process, and nothing a worker does wrong (dies, is killed,
raises) costs more than the pictures of the one mail that caused it; what an operator
would check: no worker is left running once the daemon is gone, however it went.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import col, select

from gm.clock import FakeClock
from gm.db.engine import session_scope
from gm.db.models import OutboundMail
from gm.mail.compose import RENDER_HEADER
from gm.mail.types import FailureKind, SendResult
from gm.pipeline import drawpool
from gm.pipeline.dispatch import claim, drain, due
from gm.pipeline.sendorder import SEND_ORDER
from gm.service.context import ServiceContext
from gm.service.outbox import queue_mail
from tests.present.support import SWEDISH_ORDERS, drain_while_ticking, new_baltica, play
from tests.support import draw_faults

ROOT = Path(__file__).resolve().parents[2]


class Recorder:
    """A sink that accepts every mail and keeps what it was handed, in order."""

    def __init__(self, on_send: object = None) -> None:
        self.sent: list[tuple[bytes, list[str]]] = []
        self.on_send = on_send

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> SendResult:
        self.sent.append((raw, recipients))
        if callable(self.on_send):
            self.on_send(len(self.sent))
        return SendResult.sent()

    async def close(self) -> None:
        return None


@pytest.fixture(autouse=True)
def fresh_pool() -> Iterator[None]:
    """Each test starts and ends with no pool in this process."""
    drawpool.shutdown()
    yield
    drawpool.shutdown()


@pytest.fixture
def baltica(ctx: ServiceContext) -> ServiceContext:
    """Two Pax Baltica games one phase in, drawn by two workers: 20 mails queued, 16 of
    them reports with a map to draw (SVG and PNG), 4 welcomes with none."""
    ctx.settings["draw_workers"] = 2
    for game in ("b1", "b2"):
        new_baltica(ctx, game)
        play(ctx, game, 1, {"sweden": SWEDISH_ORDERS})
    return ctx


def queued(ctx: ServiceContext) -> dict[int, OutboundMail]:
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(OutboundMail).order_by(col(OutboundMail.id))).all()
        for r in rows:
            s.expunge(r)
    return {int(r.id or 0): r for r in rows}


def drawn_in_process(rows: dict[int, OutboundMail]) -> dict[str, bytes]:
    """Each mail as drawn by the daemon's own process (draw_workers = 0), by Message-ID."""
    return {r.message_id: drawpool.finish_raw(r.raw) for r in rows.values()}


def message_id(raw: bytes) -> str:
    from email import message_from_bytes
    from email.policy import default

    return str(message_from_bytes(raw, policy=default)["Message-ID"])


def has_map(raw: bytes) -> bool:
    return b"Content-Type: image/png" in raw and b'filename="map.svg"' in raw


def test_every_report_leaves_once_in_the_outbox_order_with_the_map_drawn_in_process(
        baltica: ServiceContext) -> None:
    before = queued(baltica)
    order = [before[i].message_id for i in due(baltica)]
    expected = drawn_in_process(before)
    sink = Recorder()
    assert asyncio.run(drain(baltica, sink)) == len(before) == 20
    assert [message_id(raw) for raw, _ in sink.sent] == order, "sent in the outbox's order"
    after = queued(baltica)
    for raw, _ in sink.sent:
        mid = message_id(raw)
        assert raw == expected[mid], "the same bytes as drawn in-process"
        row = next(r for r in after.values() if r.message_id == mid)
        assert row.kind == "welcome" or row.raw == before[row.id or 0].raw, \
            "the outbox keeps the mail as queued, its map not stored (a welcome: masked)"
        assert RENDER_HEADER.encode() not in raw
    assert sum(has_map(raw) for raw, _ in sink.sent) == 16
    assert {r.status for r in after.values()} == {"sent"}
    pool = drawpool.pool_for(baltica)
    assert pool is not None and pool.started() and os.getpid() not in pool.pids()
    assert asyncio.run(drain(baltica, sink)) == 0, "nothing is sent twice"


class RefusesFirst(Recorder):
    """A sink whose server refuses every mail's first attempt for now (4xx) and accepts the
    next; it keeps every attempt."""

    def __init__(self) -> None:
        super().__init__()
        self.attempts: list[bytes] = []

    async def send(self, raw: bytes, sender: str, recipients: list[str]) -> SendResult:
        first = message_id(raw) not in {message_id(a) for a in self.attempts}
        self.attempts.append(raw)
        if first:
            return SendResult.temporary(FailureKind.SERVER_TEMPORARY, 451, "try later")
        return await super().send(raw, sender, recipients)


@pytest.mark.parametrize("workers", [2, 0])
def test_a_report_refused_for_now_is_sent_again_as_the_same_bytes(
        baltica: ServiceContext, workers: int) -> None:
    """The map is not stored with the mail (issue 21): a report refused for now is drawn
    again for its retry, from the bytes queued, and the retry is the very mail refused,
    whether workers or the daemon's own process drew it; the outbox keeps it as queued."""
    baltica.settings["draw_workers"] = workers
    before = queued(baltica)
    sink = RefusesFirst()
    assert asyncio.run(drain(baltica, sink)) == 0, "every first attempt refused"
    first = {message_id(raw): raw for raw in sink.attempts}
    assert len(first) == 20
    assert isinstance(baltica.clock, FakeClock)
    baltica.clock.advance(timedelta(hours=1))  # past the first backoff
    assert asyncio.run(drain(baltica, sink)) == 20
    for raw, _ in sink.sent:
        assert raw == first[message_id(raw)], "the retry is the very mail refused"
    assert sum(has_map(raw) for raw, _ in sink.sent) == 16
    after = queued(baltica)
    assert {r.status for r in after.values()} == {"sent"}
    assert all(r.raw == before[i].raw for i, r in after.items() if r.kind == "report"), \
        "the outbox keeps each report as queued"


def test_no_worker_is_started_when_nothing_needs_drawing(ctx: ServiceContext) -> None:
    ctx.settings["draw_workers"] = 2
    with session_scope(ctx.engine) as s:
        for n in range(3):
            queue_mail(ctx, s, game_id=None, kind="notice", to=["mod@example.org"],
                       subject=f"notice {n}", text="text only", key=f"notice:{n}")
    assert asyncio.run(drain(ctx, Recorder())) == 3
    pool = drawpool.pool_for(ctx)
    assert pool is not None and not pool.started()


def test_with_no_draw_workers_the_maps_are_drawn_in_the_daemons_process(
        baltica: ServiceContext) -> None:
    baltica.settings["draw_workers"] = 0
    expected = drawn_in_process(queued(baltica))
    sink = Recorder()
    assert asyncio.run(drain(baltica, sink)) == 20
    assert all(raw == expected[message_id(raw)] for raw, _ in sink.sent)
    assert drawpool.pool_for(baltica) is None


def test_a_worker_that_dies_costs_only_the_pictures_of_the_mail_that_killed_it(
        baltica: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker process that dies on a mail (here: each of Sweden's reports, as a crash in
    the rasteriser would) breaks the pool; every mail it held is drawn again by a worker of
    its own, and only a mail whose second worker dies too goes without its pictures."""
    monkeypatch.setattr(drawpool, "WORK", draw_faults.die_on_doomed)
    before = queued(baltica)
    order = [before[i].message_id for i in due(baltica)]
    expected = drawn_in_process(before)
    sink = Recorder()
    assert asyncio.run(drain(baltica, sink)) == 20
    assert [message_id(raw) for raw, _ in sink.sent] == order
    doomed = [raw for raw, to in sink.sent if to == ["karl@example.org"]
              and before[next(i for i, r in before.items() if r.message_id == message_id(raw))].kind
              == "report"]
    assert len(doomed) == 6
    for raw, _ in sink.sent:
        assert RENDER_HEADER.encode() not in raw and b"x-gm-map+json" not in raw
        if raw in doomed:
            assert not has_map(raw), "the mail that kills the worker goes without its map"
            assert b"text/html" in raw and b"text/plain" in raw, "and with everything else"
        else:
            assert raw == expected[message_id(raw)], "every other mail keeps its map"
    pool = drawpool.pool_for(baltica)
    assert pool is not None and pool.generation >= 1, "the pool was started again"


def test_a_drawing_that_never_ends_costs_only_that_mails_pictures(
        baltica: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker stuck on a mail (here: each of Sweden's reports in the first game) is
    stopped after DRAW_TIMEOUT; the mail is tried once more, by a worker of its own, and then goes without
    its pictures; the outbox goes on."""
    from gm.pipeline import dispatch

    monkeypatch.setattr(drawpool, "WORK", draw_faults.hang_on_doomed)
    monkeypatch.setattr(dispatch, "DRAW_TIMEOUT", 5.0)  # a cold worker's first map: ~1 s
    with session_scope(baltica.engine) as s:  # the second game's mails are sent already
        for row in s.exec(select(OutboundMail).where(OutboundMail.game_id == "b2")).all():
            row.status = "sent"
            s.add(row)
    before = queued(baltica)
    expected = drawn_in_process({i: r for i, r in before.items() if r.status == "queued"})
    sink = Recorder()
    assert asyncio.run(drain(baltica, sink)) == len(expected) == 10
    for raw, to in sink.sent:
        assert RENDER_HEADER.encode() not in raw
        if to == ["karl@example.org"] and b"map" in expected[message_id(raw)]:
            assert raw == drawpool.without_pending_parts(
                next(r.raw for r in before.values() if r.message_id == message_id(raw)))
        else:
            assert raw == expected[message_id(raw)]


def test_a_worker_killed_while_drawing_costs_no_picture(
        baltica: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGKILL to every worker while they draw (the operator, the OOM killer): the mails
    they held are drawn again by a new pool and leave with their maps."""
    monkeypatch.setattr(drawpool, "WORK", draw_faults.slow)
    expected = drawn_in_process(queued(baltica))
    killed: list[int] = []

    def kill_workers(count: int) -> None:
        pool = drawpool.pool_for(baltica)
        if count == 5 and pool is not None:  # after the welcomes, reports are being drawn
            killed.extend(pool.pids())
            for pid in killed:
                os.kill(pid, signal.SIGKILL)

    sink = Recorder(kill_workers)
    assert asyncio.run(drain(baltica, sink)) == 20
    assert killed, "workers were drawing"
    assert all(raw == expected[message_id(raw)] for raw, _ in sink.sent), "every map drawn"
    pool = drawpool.pool_for(baltica)
    assert pool is not None and pool.generation >= 1 and not set(pool.pids()) & set(killed)


def test_a_drawing_that_raises_in_a_worker_is_drawn_again_in_the_daemon(
        baltica: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drawpool, "WORK", draw_faults.raise_always)
    expected = drawn_in_process(queued(baltica))
    sink = Recorder()
    assert asyncio.run(drain(baltica, sink)) == 20
    assert all(raw == expected[message_id(raw)] for raw, _ in sink.sent)


def test_the_daemons_loop_keeps_running_while_the_workers_draw(
        baltica: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drawpool, "WORK", draw_faults.slow)  # 0.3 s a mail

    sent, ticks = drain_while_ticking(baltica, Recorder())
    # 16 drawings of 0.3 s on two workers: 2.4 s at least; blocked, one tick a mail.
    assert sent == 20 and ticks > 3 * sent


def test_two_instances_drawing_at_once_send_each_mail_once(baltica: ServiceContext) -> None:
    other = replace(baltica, instance="other", settings=dict(baltica.settings))
    sinks = [Recorder(), Recorder()]
    counts: list[int] = []

    def run(c: ServiceContext, sink: Recorder) -> None:
        counts.append(asyncio.run(drain(c, sink)))

    threads = [threading.Thread(target=run, args=(c, s)) for c, s in zip((baltica, other), sinks, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    sent = [message_id(raw) for s in sinks for raw, _ in s.sent]
    assert sum(counts) == len(sent) == len(set(sent)) == 20


def test_a_mail_claimed_ahead_whose_lease_ran_out_is_left_to_the_sender_that_took_it(
        baltica: ServiceContext) -> None:
    """The drain claims a few mails ahead while they are drawn. If one waits past its lease
    (a send that hung) and another instance claims it, the first neither stores its
    drawing over it nor sends it."""
    other = replace(baltica, instance="other", settings=dict(baltica.settings))
    taken: list[int] = []

    def stall(count: int) -> None:
        if count == 1:  # the first send hangs past every lease; the other instance steps in
            baltica.clock.advance(timedelta(seconds=300))  # type: ignore[attr-defined]
            with session_scope(baltica.engine) as s:
                ids = s.exec(select(OutboundMail.id).where(OutboundMail.status == "queued")
                             .order_by(*SEND_ORDER)).all()  # as a drain claims them
            taken.extend(i for i in ids if i is not None and claim(other, i))

    first = Recorder(stall)
    assert asyncio.run(drain(baltica, first)) == 1
    # every mail was free to take, the one being sent too (its lease ran out as well); that
    # one is recorded as sent by the first, and so not sent by the other
    assert len(taken) == 20
    baltica.clock.advance(timedelta(seconds=300))  # type: ignore[attr-defined]
    second = Recorder()
    assert asyncio.run(drain(other, second)) == 19
    sent = [message_id(raw) for s in (first, second) for raw, _ in s.sent]
    assert len(sent) == len(set(sent)) == 20


def descendants(pid: int) -> list[int]:
    """The processes descending from ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie waits for whoever adopted it)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_gone(pids: list[int], seconds: float) -> list[int]:
    end = time.monotonic() + seconds
    while time.monotonic() < end and any(running(p) for p in pids):
        time.sleep(0.1)
    return [p for p in pids if running(p)]


pytestmark_linux = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

POOL_SCRIPT = """
import sys, time
from gm.pipeline.drawpool import DrawPool
pool = DrawPool(2)
drawings = [pool.submit(b"no part to draw") for _ in range(4)]
assert all(d is not None and d.future.result(60) == b"no part to draw" for d in drawings)
print("ready", flush=True)
time.sleep(120)
"""


@pytestmark_linux
def test_the_workers_exit_when_the_process_that_started_them_is_killed() -> None:
    proc = subprocess.Popen([sys.executable, "-c", POOL_SCRIPT], cwd=ROOT, stdout=subprocess.PIPE,
                           start_new_session=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
        helpers = descendants(proc.pid)
        assert len(helpers) >= 2, "the workers (and the fork server) run"
        proc.kill()  # SIGKILL to the parent alone, not its process group
        proc.wait(10)
        assert wait_gone(helpers, 10) == [], "no worker outlives its parent"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


@pytestmark_linux
@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_gm_serve_leaves_no_drawing_worker_behind(tmp_path: Path, how: str) -> None:
    """A real ``gm serve`` with ``draw_workers = 2`` sends a Pax Baltica game's reports,
    maps drawn by its workers; stopped (SIGTERM) or killed (SIGKILL, no clean-up at all),
    it leaves none of them running."""
    from gm.clock import FakeClock
    from gm.db.engine import make_engine, sqlite_url
    from gm.db.migrate import upgrade
    from tests.e2e.daemon_support import Service, stop, wait_until

    url = sqlite_url(tmp_path / "gm.db")
    engine = make_engine(url)
    upgrade(engine)
    ctx = ServiceContext(engine=engine, clock=FakeClock(), instance="setup",
                         settings={"address": "gm@example.org"})
    new_baltica(ctx, "b1")
    play(ctx, "b1", 1, {"sweden": SWEDISH_ORDERS})
    mails = len(queued(ctx))
    maps = sum(RENDER_HEADER.encode() in r.raw for r in queued(ctx).values())
    engine.dispose()
    service = Service(tmp_path, url)
    service.config.write_text(service.config.read_text().replace(
        "[service]\n", "[service]\ndraw_workers = 2\n"))
    proc = service.start()
    try:
        assert wait_until(lambda: len(list((service.outbox / "new").iterdir())) >= mails, 120), \
            service.tail()
        # (the daemon's real clock is past the game's deadlines: it may close more phases)
        assert sum(b"Content-Type: image/png" in p.read_bytes()
                   for p in (service.outbox / "new").iterdir()) >= maps > 0
        helpers = descendants(proc.pid)
        assert len(helpers) >= 2, service.tail()
        if how == "SIGKILL":
            proc.kill()
            proc.wait(10)
        else:
            assert stop(proc) < 15
        assert wait_gone(helpers, 10) == [], service.tail()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def test_the_drawing_workers_run_at_a_lower_priority_than_the_daemon(
        ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under contention the daemon's own thread (a deadline storm's sweep, the mail) keeps
    its core and the workers draw on what is left."""
    from tests.support import draw_probe

    ctx.settings["draw_workers"] = 1
    pool = drawpool.pool_for(ctx)
    assert pool is not None
    monkeypatch.setattr(drawpool, "WORK", draw_probe.niceness)
    drawing = pool.submit(b"")
    assert drawing is not None
    ours = os.nice(0)
    assert int(drawing.future.result(timeout=60)) == min(19, ours + drawpool.DRAW_NICENESS) > ours
