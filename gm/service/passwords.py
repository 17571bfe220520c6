"""Passwords are stored as scrypt hashes (standard library), never in clear.

Format: ``scrypt$n$r$p$salt_hex$hash_hex``. Verification runs in constant time.

A password is checked with scrypt the first time it is seen for a stored hash; the
success is then remembered in memory only, as a keyed hash (HMAC-SHA256 under a key
drawn at process start) of the stored hash and the password, so that each later mail
of the same seat is signed on without paying scrypt again (issue 21: it was 44% of the
time per mail). Nothing weaker is ever written anywhere: the database keeps the scrypt
hash, the cache holds no password, and it dies with the process. A wrong password is
never remembered and always costs a full scrypt; a changed password has a new hash, so
the old entry no longer matches anything.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from gm.kept import Kept

_N, _R, _P = 2**14, 8, 1
_WORDS = (
    "amber", "anchor", "arrow", "banner", "birch", "bridge", "canal", "castle", "cedar",
    "comet", "copper", "crown", "delta", "drum", "eagle", "ember", "falcon", "fjord",
    "forest", "galley", "garnet", "harbor", "hazel", "heron", "island", "ivory", "jasper",
    "kestrel", "lantern", "maple", "marble", "meadow", "needle", "north", "oak", "orbit",
    "pepper", "pine", "quarry", "raven", "river", "saddle", "silver", "spruce", "stone",
    "summit", "thistle", "tide", "timber", "tower", "valley", "willow", "winter", "wolf",
)


CACHE_SIZE = 4096
"""How many (stored hash, password) pairs verified with scrypt are remembered (LRU)."""

_cache_key = secrets.token_bytes(32)
_verified: Kept[bytes, bool] = Kept(CACHE_SIZE)


def _cache_entry(password: str, stored: str) -> bytes:
    return hmac.new(_cache_key, stored.encode("utf-8") + b"\0" + password.encode("utf-8"),
                    hashlib.sha256).digest()


def forget_verified() -> None:
    """Empty the cache of verified passwords (every next check runs scrypt)."""
    _verified.clear()


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    """True when ``password`` matches the ``stored`` scrypt hash (scrypt once, then cached)."""
    entry = _cache_entry(password, stored)
    if _verified.get(entry):
        return True
    if not _scrypt_matches(password, stored):
        return False
    _verified.put(entry, True)
    return True


def _scrypt_matches(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt_hex, hash_hex = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    digest = hashlib.scrypt(password.encode("utf-8"), salt=bytes.fromhex(salt_hex),
                            n=int(n), r=int(r), p=int(p), dklen=32)
    return hmac.compare_digest(digest.hex(), hash_hex)


def new_password() -> str:
    """A password a player can type on a phone: three words and two digits."""
    words = [secrets.choice(_WORDS) for _ in range(3)]
    return "-".join(words) + f"-{secrets.randbelow(90) + 10}"
