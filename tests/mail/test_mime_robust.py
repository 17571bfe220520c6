"""decode() never raises, whatever bytes arrive (spec: broken mail still gets a reply)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.mail.flowed import unwrap_flowed
from gm.mail.mime import classify, decode

CORPUS = Path(__file__).resolve().parents[1] / "data" / "mail"
SEEDS = [p.read_bytes() for p in sorted(CORPUS.glob("*.eml"))]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_decode(raw: bytes) -> None:
    mail = decode(raw)
    classify(mail)
    assert mail.message_id.startswith("<") and mail.message_id.endswith(">")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SEEDS), st.integers(min_value=0), st.binary(min_size=1, max_size=40))
def test_corrupted_corpus_mail_decodes(seed: bytes, at: int, junk: bytes) -> None:
    pos = at % len(seed)
    mail = decode(seed[:pos] + junk + seed[pos + len(junk) :])
    assert isinstance(mail.text, str)
    classify(mail)


@given(st.lists(st.text(alphabet="ab >-", max_size=12), max_size=8))
def test_flowed_unwrapping_keeps_every_visible_character(lines: list[str]) -> None:
    text = "\n".join(lines)
    joined = unwrap_flowed(text)
    assert joined.replace(" ", "").replace(">", "").replace("\n", "") == text.replace(
        " ", ""
    ).replace(">", "").replace("\n", "")
