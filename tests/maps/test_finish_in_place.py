"""A report's map parts drawn on the mail's bytes (gm.service.outbox._finish_in_place): the
very bytes the general path (parse the whole mail, draw, write it all again) gives, for
every report of a real game (English, French, the moderator's); anything else, and a
drawing that fails, goes the general path (issue 21)."""

from __future__ import annotations

import email
from email.policy import default

import pytest

from gm.mail.compose import RENDER_HEADER
from gm.service import outbox


class Row:
    def __init__(self, raw: bytes) -> None:
        self.raw = raw


def general(raw: bytes, monkeypatch: pytest.MonkeyPatch) -> bytes:
    with monkeypatch.context() as m:
        m.setattr(outbox, "_finish_in_place", lambda raw: None)
        row = Row(raw)
        assert outbox.finish_pending_parts(row)  # type: ignore[arg-type]
    return row.raw


def test_every_real_report_is_finished_to_the_same_bytes_as_the_general_path(
        baltica_reports: list[bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    languages = set()
    for raw in baltica_reports:
        fast = outbox._finish_in_place(raw)
        assert fast is not None
        assert fast == general(raw, monkeypatch)
        msg = email.message_from_bytes(fast, policy=default)
        names = {p.get_filename(): p for p in msg.walk() if p.get_filename()}
        assert "map.json" not in names and RENDER_HEADER.encode() not in fast
        assert names["map.png"].get_content().startswith(b"\x89PNG")
        assert names["map.svg"].get_content().startswith(b"<?xml")
        languages.add("fr" if "Suède" in names["map.svg"].get_content().decode() else "en")
        row = Row(raw)
        assert outbox.finish_pending_parts(row) and row.raw == fast  # type: ignore[arg-type]
        assert not outbox.finish_pending_parts(row)  # type: ignore[arg-type]
    assert languages == {"en", "fr"}


def test_a_map_that_cannot_be_drawn_takes_the_general_path(baltica_reports: list[bytes],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(data: bytes) -> bytes:
        raise ValueError("no picture")

    monkeypatch.setitem(outbox.RENDERERS, ("image/svg+xml", "image/png"), broken)
    raw = baltica_reports[0]
    assert outbox._finish_in_place(raw) is None
    finished = general(raw, monkeypatch)
    names = {p.get_filename() for p in email.message_from_bytes(finished, policy=default).walk()}
    assert "map.svg" in names and "map.png" not in names and "map.json" not in names


def test_a_mail_not_shaped_by_compose_takes_the_general_path(baltica_reports: list[bytes]) -> None:
    raw = baltica_reports[0]
    foreign = raw.replace(b"=_gm_", b"=_xx_")  # boundaries gm did not write
    assert outbox._finish_in_place(foreign) is None
    folded = raw.replace(f"{RENDER_HEADER}: map.svg".encode(), f"{RENDER_HEADER}:\r\n map.svg".encode())
    assert outbox._finish_in_place(folded) is None


@pytest.mark.parametrize("size", [0, 1, 2, 56, 57, 58, 113, 114, 115, 171, 4096, 215_003])
def test_a_drawn_part_is_base64_in_the_lines_email_writes(size: int) -> None:
    import base64
    import os

    data = os.urandom(size)
    assert outbox._base64_lines(data) == base64.encodebytes(data).replace(b"\n", b"\r\n")
