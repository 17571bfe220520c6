"""A seat's password is checked with scrypt once, then accepted from an in-memory keyed cache
(issue 21); the stored hash stays scrypt and a wrong password is never remembered."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gm.service import passwords
from gm.service.passwords import check_password, forget_verified, hash_password

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def scrypt_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the scrypt derivations check_password runs (hash_password's are not counted)."""
    forget_verified()
    calls: list[int] = []
    real = hashlib.scrypt

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(passwords.hashlib, "scrypt", counting)
    yield calls
    forget_verified()


def test_the_right_password_costs_scrypt_once(scrypt_calls: list[int]) -> None:
    stored = hash_password("amber-crown-12")
    scrypt_calls.clear()
    assert check_password("amber-crown-12", stored)
    assert check_password("amber-crown-12", stored)
    assert check_password("amber-crown-12", stored)
    assert len(scrypt_calls) == 1


def test_a_wrong_password_is_never_remembered(scrypt_calls: list[int]) -> None:
    stored = hash_password("amber-crown-12")
    scrypt_calls.clear()
    for _ in range(3):
        assert not check_password("amber-crown-13", stored)
    assert len(scrypt_calls) == 3
    assert not passwords._verified


def test_a_password_verified_for_one_hash_does_not_open_another(scrypt_calls: list[int]) -> None:
    """A new password (SET PASSWORD) means a new hash: the old password, though it was
    verified and cached against the old hash, is refused against the new one."""
    old = hash_password("amber-crown-12")
    assert check_password("amber-crown-12", old)
    new = hash_password("birch-tower-40")
    assert not check_password("amber-crown-12", new)
    assert check_password("birch-tower-40", new)


def test_what_is_stored_stays_scrypt_and_the_cache_holds_no_password(scrypt_calls: list[int]) -> None:
    stored = hash_password("amber-crown-12")
    assert stored.startswith("scrypt$16384$8$1$")
    assert check_password("amber-crown-12", stored)
    (entry,) = passwords._verified
    assert b"amber" not in entry and len(entry) == 32
    # the entry is keyed by a secret of this process: a plain hash of the pair is not it,
    # and another process (another secret) makes another entry of the same pair
    assert entry != hashlib.sha256(stored.encode() + b"\0amber-crown-12").digest()
    others = {_entry_in_a_new_process("amber-crown-12", stored) for _ in range(2)}
    assert len(others) == 2 and entry not in others


def _entry_in_a_new_process(password: str, stored: str) -> bytes:
    """What a fresh process would keep in its cache for ``password`` against ``stored``."""
    code = ("import sys; from gm.service.passwords import check_password, _verified; "
            "assert check_password(sys.argv[1], sys.argv[2]); print(next(iter(_verified)).hex())")
    done = subprocess.run([sys.executable, "-c", code, password, stored], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60, check=True)
    return bytes.fromhex(done.stdout.strip())


def test_the_cache_is_bounded(scrypt_calls: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(passwords._verified, "size", 2)  # the bound: CACHE_SIZE at import
    stored = [hash_password(f"pw-{i}") for i in range(3)]
    for i, h in enumerate(stored):
        assert check_password(f"pw-{i}", h)
    assert len(passwords._verified) == 2
    scrypt_calls.clear()
    assert check_password("pw-0", stored[0])  # the oldest was dropped: scrypt again
    assert len(scrypt_calls) == 1
