"""A real ``gm serve`` on Maildir for the daemon tests: config, process, outbox reading."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

from tests.e2e.test_crash import ROOT

# The real CLI, with the test games registered (nothing patched).
SERVE = ("import tests.support.toygame, tests.support.fragile; from gm.cli.main import cli; "
         "cli(prog_name='gm')")
MOD = "mod@example.org"
STOP_LIMIT = 10.0  # issue 22: SIGTERM stops the daemon within 10 s in every state

CONFIG = """\
[mail]
address = "gm@example.org"
inbound = "maildir"
outbound = "maildir"

[service]
moderator_address = "{mod}"
instance = "daemon-test"

[database]
url = "{url}"

[maildir]
inbox = "{inbox}"
outbox = "{outbox}"
poll_interval = 0.1

[scheduler]
sweep_seconds = {sweep}
"""


@dataclass
class Service:
    """One configured instance: its config file, Maildirs and log."""

    root: Path
    url: str
    sweep_seconds: float = 1.0

    def __post_init__(self) -> None:
        self.inbox = self.root / "inbox"
        self.outbox = self.root / "outbox"
        for box in (self.inbox, self.outbox):
            for sub in ("new", "cur", "tmp"):
                (box / sub).mkdir(parents=True, exist_ok=True)
        self.config = self.root / "gm.toml"
        self.config.write_text(CONFIG.format(mod=MOD, url=self.url, inbox=self.inbox,
                                             outbox=self.outbox, sweep=self.sweep_seconds))
        self.log = self.root / "serve.log"

    def env(self, fragile: bool) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GM_FRAGILE", "GM_CRASH"))}
        if fragile:
            env["GM_FRAGILE"] = "1"
        return env

    def start(self, *, fragile: bool = False, extra_env: dict[str, str] | None = None,
              once: bool = False) -> subprocess.Popen[bytes]:
        env = {**self.env(fragile), **(extra_env or {})}
        args = [sys.executable, "-c", SERVE, "--config", str(self.config), "serve"]
        return subprocess.Popen(args + (["--once"] if once else []), cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=open(self.log, "ab"),
                                start_new_session=True)

    def gm(self, *args: str, fragile: bool = False) -> subprocess.CompletedProcess[str]:
        """A `gm` command against this instance's database (its own process)."""
        return subprocess.run([sys.executable, "-c", SERVE, "--config", str(self.config), *args],
                              cwd=ROOT, env=self.env(fragile), capture_output=True, text=True,
                              timeout=120)

    def drop(self, name: str, raw: bytes) -> None:
        """Deliver a mail into the inbox as an MTA would (tmp/, then rename into new/)."""
        tmp = self.inbox / "tmp" / name
        tmp.write_bytes(raw)
        tmp.rename(self.inbox / "new" / name)

    def sent(self) -> list[EmailMessage]:
        """Every mail the daemon sent, oldest first."""
        files = sorted((self.outbox / "new").iterdir(), key=lambda p: (p.stat().st_mtime, p.name))
        out = []
        for path in files:
            msg = message_from_bytes(path.read_bytes(), policy=default_policy)
            assert isinstance(msg, EmailMessage)
            out.append(msg)
        return out

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""


def gm_cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real CLI against the host's config ``root/gm.toml``, in its own process."""
    return subprocess.run([sys.executable, "-c", SERVE, "--config", str(root / "gm.toml"), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    return str(part.get_content()) if part is not None else ""  # type: ignore[attr-defined]


def wait_until(predicate: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def stop(proc: subprocess.Popen[bytes]) -> float:
    """SIGTERM; the seconds until the process was gone (killed after STOP_LIMIT + 5 if not)."""
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(STOP_LIMIT + 5)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(5)
        return float("inf")
    return time.monotonic() - started
