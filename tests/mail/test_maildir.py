"""MaildirSource and FileSink on a real directory."""

from __future__ import annotations

import asyncio
import errno
import os

from gm.mail.config import MaildirSettings
from gm.mail.file_sink import FileSink
from gm.mail.maildir_source import MaildirSource
from gm.mail.mime import decode
from gm.mail.types import FailureKind, MailSource, SendStatus


def _drop(path, name: str, raw: bytes) -> None:
    (path / "tmp" / name).write_bytes(raw)
    os.replace(path / "tmp" / name, path / "new" / name)


def test_fetch_changes_nothing_until_mark_handled(tmp_path):
    source = MaildirSource(MaildirSettings(inbox=str(tmp_path / "in")))
    assert isinstance(source, MailSource)
    _drop(source.path, "1.a.host", b"Subject: one\n\nrecon Livland\n")
    _drop(source.path, "2.b.host", b"Subject: two\n\nrecon Livland\n")
    fetched = source.fetch_new()
    assert [f.key for f in fetched] == ["1.a.host", "2.b.host"]
    assert fetched[0].uid is None and fetched[0].source.startswith("maildir:")
    assert len(source.fetch_new()) == 2
    source.mark_handled(fetched[:1])
    assert [f.key for f in source.fetch_new()] == ["2.b.host"]
    assert os.listdir(source.path / "cur") == ["1.a.host:2,S"]


def test_mail_read_by_a_client_in_cur_is_still_new_to_us(tmp_path):
    source = MaildirSource(MaildirSettings(inbox=str(tmp_path / "in"), handled_flag="T"))
    (source.path / "cur" / "3.c.host:2,S").write_bytes(b"Subject: x\n\nhi\n")
    (fetched,) = source.fetch_new()
    source.mark_handled([fetched])
    assert source.fetch_new() == []
    assert os.listdir(source.path / "cur") == ["3.c.host:2,ST"]


def test_processed_maildir(tmp_path):
    settings = MaildirSettings(inbox=str(tmp_path / "in"), processed=str(tmp_path / "done"))
    source = MaildirSource(settings)
    _drop(source.path, "1.a.host", b"Subject: one\n\nx\n")
    source.mark_handled(source.fetch_new())
    assert source.fetch_new() == []
    assert os.listdir(tmp_path / "done" / "cur") == ["1.a.host"]


def test_wait_sees_new_mail_and_times_out_without(tmp_path):
    sleeps: list[float] = []
    source = MaildirSource(MaildirSettings(inbox=str(tmp_path / "in")), sleep=sleeps.append)
    _drop(source.path, "1.a.host", b"Subject: one\n\nx\n")
    assert source.wait(5) is True
    source.mark_handled(source.fetch_new())
    assert source.wait(0) is False


def test_file_sink_writes_a_readable_maildir(tmp_path):
    sink = FileSink(tmp_path / "sent")
    raw = b"From: gm@example.org\r\nSubject: hi\r\n\r\nbody\r\n"
    result = asyncio.run(sink.send(raw, "gm@example.org", ["a@example.org", "b@example.org"]))
    assert result.ok
    (name,) = os.listdir(tmp_path / "sent" / "new")
    mail = decode((tmp_path / "sent" / "new" / name).read_bytes())
    assert mail.subject == "hi"
    assert mail.header("X-GM-Envelope-To") == "a@example.org, b@example.org"
    assert mail.header("Return-Path") == "<gm@example.org>", "the envelope sender is kept"
    assert os.listdir(tmp_path / "sent" / "tmp") == []


def test_file_sink_disk_full_is_temporary(tmp_path, monkeypatch):
    sink = FileSink(tmp_path / "sent")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("gm.mail.file_sink.os.fsync", full)
    result = asyncio.run(sink.send(b"Subject: x\r\n\r\ny\r\n", "gm@x.org", ["a@x.org"]))
    assert result.status is SendStatus.TEMPORARY
    assert result.failure.kind is FailureKind.DISK_FULL
    assert os.listdir(tmp_path / "sent" / "new") == []
    assert os.listdir(tmp_path / "sent" / "tmp") == []


def test_two_instances_flagging_one_mail_both_go_on(tmp_path, monkeypatch):
    """Two daemons on one Maildir: the second to flag a handled mail finds it moved already.

    Seen in CI with two gm serve processes (tests/e2e/test_two_daemons.py): the loser's
    os.replace raised FileNotFoundError and its round was abandoned with a traceback.
    """
    one = MaildirSource(MaildirSettings(inbox=str(tmp_path / "in")))
    two = MaildirSource(MaildirSettings(inbox=str(tmp_path / "in")))
    _drop(one.path, "1.a.host", b"Subject: one\n\nrecon Livland\n")
    fetched_by_one, fetched_by_two = one.fetch_new(), two.fetch_new()
    listed = list(two._pending())  # two lists the file before one moves it
    monkeypatch.setattr(two, "_pending", lambda: iter(listed))
    one.mark_handled(fetched_by_one)
    two.mark_handled(fetched_by_two)  # no FileNotFoundError
    assert os.listdir(one.path / "cur") == ["1.a.host:2,S"]
    assert os.listdir(one.path / "new") == []
