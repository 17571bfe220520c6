"""Daemon memory with ``--games`` active games (issue 21: RSS <= 300 MB for 1,000).

The games are real: half Pax Baltica 12.1 in Sweden's action phase, half Pax Britannica
1880 in its Movement phase (copies of one game of each, bench/realgames.py), all with an
open phase and a deadline. A real ``gm serve`` (Maildir in and out, SQLite) is started on
them; ``--mails`` order mails for games across the host are dropped into its inbox (a real
order mail each, so that games' parse contexts, passwords and templates are in memory) and
once every one is answered the daemon's resident set (VmRSS) and its peak (VmHWM) are read
from /proc, ``--runs`` times (a new daemon each time).

Reference ("bare"): a Python process that imported what every daemon imports
(gm.daemon, the game modules, the mail and scheduling code) and holds no game.

Run: ``.venv/bin/python -m bench.bench_memory [--games 1000] [--mails 200] [--runs 3]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sqlmodel import func, select

from bench import realgames as rg
from gm.clock import SystemClock
from gm.db.engine import make_engine, session_scope, sqlite_url
from gm.db.migrate import upgrade
from gm.db.models import OutboundMail
from gm.service.context import ServiceContext
from tests.schedule.support import clone_games

BARE = ("import gm.daemon, gm.cli.serve, gm.mail.factory, gm.schedule.sweep, "
        "gm.pipeline.handle, gm.service.reports, gm.games.baltica.module, "
        "gm.games.britannica.module, time; print('ready', flush=True); time.sleep(60)")


def rss_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of a process, in kB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                  if ":" in line)
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def set_up(folder: Path, games: int, mails: int) -> list[bytes]:
    url = sqlite_url(folder / "gm.db")
    engine = make_engine(url)
    upgrade(engine)
    ctx = ServiceContext(engine=engine, clock=SystemClock(), settings={"address": "gm@localhost"},
                         instance="bench-setup")
    rg.new_baltica(ctx, "pb0")
    rg.new_britannica(ctx, "pax0")
    half = games // 2
    clone_games(ctx, "pb0", [f"pb{i}" for i in range(1, half)])
    clone_games(ctx, "pax0", [f"pax{i}" for i in range(1, games - half)])
    step = max(1, half // max(1, mails // 2))
    out = [m for pair in zip(rg.baltica_mails(ctx, [f"pb{i}" for i in range(0, half, step)], mails // 2),
                             rg.britannica_mails(ctx, [f"pax{i}" for i in range(0, games - half, step)],
                                                 mails - mails // 2), strict=False) for m in pair]
    engine.dispose()
    (folder / "gm.toml").write_text(
        '[mail]\naddress = "gm@localhost"\ninbound = "maildir"\noutbound = "maildir"\n'
        '[database]\npath = "gm.db"\n[maildir]\ninbox = "mail/inbox"\noutbox = "mail/outbox"\n'
        '[scheduler]\nsweep_seconds = 30\n', encoding="utf-8")
    for sub in ("tmp", "new", "cur"):
        (folder / "mail" / "inbox" / sub).mkdir(parents=True, exist_ok=True)
        (folder / "mail" / "outbox" / sub).mkdir(parents=True, exist_ok=True)
    return out


def replies(folder: Path) -> int:
    engine = make_engine(sqlite_url(folder / "gm.db"))
    with session_scope(engine) as s:
        n = s.exec(select(func.count()).select_from(OutboundMail).where(OutboundMail.kind == "reply")).one()
    engine.dispose()
    return int(n)


def daemon_rss(template: Path, mails: list[bytes]) -> tuple[int, int]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        shutil.copytree(template, folder, dirs_exist_ok=True)
        before = replies(folder)
        gm = Path(sys.executable).parent / "gm"
        proc = subprocess.Popen([str(gm), "--config", str(folder / "gm.toml"), "serve"], cwd=folder,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for i, raw in enumerate(mails):
                path = folder / "mail" / "inbox" / "tmp" / f"bench.{i}"
                path.write_bytes(raw)
                os.rename(path, folder / "mail" / "inbox" / "new" / f"bench.{i}")
            deadline = time.time() + 1800
            while replies(folder) < before + len(mails):
                if proc.poll() is not None or time.time() > deadline:
                    raise SystemExit(f"gm serve stopped or took too long ({proc.returncode})")
                time.sleep(1)
            time.sleep(2)
            return rss_kb(proc.pid)
        finally:
            proc.terminate()
            proc.wait(timeout=60)


def bare_rss() -> tuple[int, int]:
    proc = subprocess.Popen([sys.executable, "-c", BARE], stdout=subprocess.PIPE, text=True, cwd=rg.ROOT)
    try:
        assert proc.stdout is not None and "ready" in proc.stdout.readline()
        return rss_kb(proc.pid)
    finally:
        proc.kill()
        proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--mails", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        template = Path(tmp)
        mails = set_up(template, args.games, args.mails)
        bare, ours, peak = [], [], []
        for _ in range(args.runs):
            bare.append(bare_rss()[0] / 1024)
            rss, hwm = daemon_rss(template, mails)
            ours.append(rss / 1024)
            peak.append(hwm / 1024)
    print(f"memory: gm serve with {args.games} active games (Pax Baltica and Pax Britannica), "
          f"after answering {len(mails)} order mails")
    rg.report("memory", "MB resident", bare, ours, "gm <= 300 MB", bare_name="bare imports")
    print(f"memory: gm peak (VmHWM): {rg.spread(peak)} MB")


if __name__ == "__main__":
    main()
