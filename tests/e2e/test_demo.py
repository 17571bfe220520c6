"""The README's first command, `./scripts/serve`, as a host who tries gm meets it: `gm
init`, `gm demo`, `gm serve` in an empty folder (the script's three steps, each its own
`gm` process, on the folder's own SQLite and Maildirs). Each seat gets one welcome and
one first report, of the phase it orders in (the opening action roll played out, as `gm
game new` does), and a mail dropped into the inbox with the sign-on `gm demo` printed is
answered."""

from __future__ import annotations

import re
import subprocess
import sys
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GM = "from gm.cli.main import cli; cli(prog_name='gm')"


def gm(folder: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, "-c", GM, *args], cwd=folder, capture_output=True,
                          text=True, timeout=180, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return done.stdout


def sent(folder: Path) -> list[EmailMessage]:
    out = []
    for path in sorted((folder / "mail" / "outbox" / "new").iterdir(),
                       key=lambda p: (p.stat().st_mtime, p.name)):
        msg = message_from_bytes(path.read_bytes(), policy=default_policy)
        assert isinstance(msg, EmailMessage)
        out.append(msg)
    return out


def text(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


RECON = {"sweden": "recon Livland", "coalition": "recon Estland"}


def test_the_demo_mails_one_welcome_and_one_first_report_and_answers_orders(tmp_path: Path) -> None:
    gm(tmp_path, "init", ".")
    printed = gm(tmp_path, "demo")
    passwords = dict(re.findall(r"POWER (\S+) (\S+)", printed))
    assert set(passwords) == set(RECON), printed
    gm(tmp_path, "serve", "--once")
    mails = sent(tmp_path)
    phases = set()
    for power in RECON:
        mine = [m for m in mails if m["To"] == f"{power}@localhost"]
        assert [("welcome" if "] welcome:" in m["Subject"] else "report") for m in mine] == [
            "welcome", "report"], [m["Subject"] for m in mine]
        welcome, report = (text(m) for m in mine)
        ordering = re.search(r"Now ordering: (\S+)", report)
        assert ordering is not None and "-actions-" in ordering.group(1), report
        phases.add(ordering.group(1))
        # the welcome names the phase the player orders in, not the action roll played out
        assert ordering.group(1) in welcome and "action-roll" not in welcome
        assert "Action rolls: Sweden" in report  # the roll played out is in it
    [phase] = phases
    power = phase.rsplit("-", 1)[1]
    (tmp_path / "mail" / "inbox" / "new" / "1.eml").write_bytes(
        f"From: Anna <{power}@localhost>\nTo: gm@localhost\nSubject: orders\n"
        f"Message-ID: <demo-1@localhost>\n\nGAME demo\nPOWER {power} {passwords[power]}\n"
        f"{RECON[power]}\n".encode())
    gm(tmp_path, "serve", "--once")
    [answer] = [m for m in sent(tmp_path) if m["Subject"] == "Re: orders"]
    assert f"OK  {RECON[power]}" in text(answer), text(answer)
    assert passwords[power] not in text(answer)
