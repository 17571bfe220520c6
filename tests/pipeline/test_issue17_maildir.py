"""Issue 17, classes 3, 4, 7 and 8: corpus mail files dropped into a Maildir inbox, read and
answered by the daemon's own loop (``Daemon.step``: Maildir source, pipeline, outbox
drain to a Maildir sink), then a phase closed and drained the same way: what each
player finds in the outbox files."""

from __future__ import annotations

import asyncio
import shutil
from email import message_from_bytes
from email.policy import compat32
from pathlib import Path

from gm.daemon import Daemon
from gm.mail.config import MaildirSettings
from gm.mail.file_sink import FileSink
from gm.mail.maildir_source import MaildirSource
from gm.mail.mime import decode
from gm.service.context import ServiceContext
from tests.pipeline.test_standing_by_mail import close, phase

CORPUS = Path(__file__).resolve().parents[1] / "data" / "mail"
MAILS = ["f17_c3_1_outlook_standing_with_actions", "f17_c3_2_gmail_second_player_standing",
         "f17_c7_2_gmail_password_from_work", "f17_c8_1_outlook_set_unreadable_step"]
"""One mail per sender (a sender's second mail within the minute waits: the rate limit)."""



def sent(out: Path) -> list[tuple[list[str], str]]:
    """(envelope recipients, decoded text) of every mail the sink wrote, oldest first."""
    got = []
    for path in sorted((out / "new").iterdir(), key=lambda p: p.stat().st_mtime_ns):
        raw = path.read_bytes()
        head = message_from_bytes(raw.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n", policy=compat32)
        got.append(([a.strip() for a in str(head["X-GM-Envelope-To"]).split(",")],
                    decode(raw).text))
    return got


def to(mails: list[tuple[list[str], str]], address: str) -> list[str]:
    return [text for rcpt, text in mails if address in rcpt]


def test_corpus_mails_through_a_maildir_and_the_daemon(game: ServiceContext, tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True)
    for name in MAILS:
        shutil.copyfile(CORPUS / f"{name}.eml", inbox / "new" / f"{name}.eml")
    out = tmp_path / "out"
    daemon = Daemon(game, MaildirSource(MaildirSettings(inbox=str(inbox))), FileSink(out),
                    sweep_seconds=0)
    asyncio.run(daemon.step())
    mails = sent(out)

    anna = to(mails, "anna@example.se")
    assert any("OK  battle order Ingermanland   (kept as a standing order" in t for t in anna)
    assert any("Vellinck, Estländska by Ingermanland" in t for t in anna)  # the path chosen
    assert any("was changed by a mail from anna.svensson@work.example" in t for t in anna)
    [work] = to(mails, "anna.svensson@work.example")
    assert "answered to the registered address only" in work and "kestrel" not in work
    assert any("OK  regroup Sheremetev, Kazanski to Novgorod" in t
               for t in to(mails, "boris@example.ru"))
    [moderator] = to(mails, "mod@pbem.example")
    assert "would leave a state the game cannot read" in moderator
    assert phase(game)[0] == "1700-autumn-actions-sweden"  # the bad SET changed nothing

    # Sweden's standing orders and the Coalition's: the season's battles need no more mail
    close(game)
    close(game)
    assert phase(game)[0] == "1700-winter-actions-coalition"
    asyncio.run(daemon.step())
    reports = [t for t in to(sent(out), "anna@example.se") if "==== gm report" in t]
    assert any("Ingermanland" in t and "Vellinck" in t for t in reports)
