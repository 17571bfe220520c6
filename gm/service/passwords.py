"""Passwords are stored as scrypt hashes (standard library), never in clear.

Format: ``scrypt$n$r$p$salt_hex$hash_hex``. Verification runs in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

_N, _R, _P = 2**14, 8, 1
_WORDS = (
    "amber", "anchor", "arrow", "banner", "birch", "bridge", "canal", "castle", "cedar",
    "comet", "copper", "crown", "delta", "drum", "eagle", "ember", "falcon", "fjord",
    "forest", "galley", "garnet", "harbor", "hazel", "heron", "island", "ivory", "jasper",
    "kestrel", "lantern", "maple", "marble", "meadow", "needle", "north", "oak", "orbit",
    "pepper", "pine", "quarry", "raven", "river", "saddle", "silver", "spruce", "stone",
    "summit", "thistle", "tide", "timber", "tower", "valley", "willow", "winter", "wolf",
)


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
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
