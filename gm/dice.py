"""Dice that players can verify and a moderator can supply.

The procedure is documented in docs/dice.md so that anyone can re-implement
it; keep the two in step (tests/test_dice.py checks the published vectors).

* A game's seed is 32 bytes from ``secrets.token_bytes`` drawn when the game is
  created; it stays secret until revealed.
* Commitment: ``SHA-256("gm-commit-v1|" + game_id + "|" + seed_hex)``, hex.
* Roll number ``i`` (0, 1, 2, ...) of a phase, on derivation branch ``b``:
  for ``j`` = 0, 1, 2, ... compute
  ``HMAC-SHA256(key=seed, msg="gm-dice-v1|{game}|{phase}|{b}|{i}|{j}")``
  and take the first byte ``x`` of the digest; if ``x < 252`` the roll is
  ``x % 6 + 1``, else try the next ``j`` (rejection sampling: each face has
  probability exactly 1/6).
* Supplied rolls (moderator ``DICE``) are consumed first, in order, and do not
  advance ``i``. When they run out the adjudication stops
  (:class:`DiceExhausted`) unless the moderator said ``THEN SEED``.

Engines never import :mod:`random`; they call :meth:`Dice.d6` or
:meth:`Dice.roll` with the purpose in game words, and every roll is recorded.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gm.i18n import Text, as_data, from_data

SEED_BYTES = 32
_ACCEPT_BELOW = 252  # 252 = 42 * 6: bytes 0..251 map evenly onto 1..6


class DiceExhausted(Exception):
    """The moderator's supplied rolls ran out and the seed may not take over."""

    def __init__(self, purpose: str, used: int) -> None:
        super().__init__(
            f"the supplied rolls ({used} used) ran out at '{purpose}'; supply more dice "
            "or add THEN SEED to let the seed take over"
        )
        self.purpose = purpose
        self.used = used


def new_seed() -> bytes:
    """A fresh secret seed from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes, game_id: str) -> str:
    """The public commitment to ``seed`` shown in every first report."""
    text = f"gm-commit-v1|{game_id}|{seed.hex()}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def derive_d6(seed: bytes, game_id: str, phase_id: str, branch: int, index: int) -> int:
    """Roll ``index`` of ``phase_id`` on ``branch``, by the documented procedure.

    The message is UTF-8 text; ``branch``, ``index`` and the attempt ``j`` are
    written in decimal without leading zeros (docs/dice.md, "Derivation").
    """
    j = 0
    while True:
        msg = f"gm-dice-v1|{game_id}|{phase_id}|{branch}|{index}|{j}".encode()
        x = hmac.digest(seed, msg, "sha256")[0]
        if x < _ACCEPT_BELOW:
            return x % 6 + 1
        j += 1


@dataclass(frozen=True)
class Roll:
    """One die as rolled: its value, what it was for, where it came from.

    ``index`` is the seed counter for seed rolls and the position in the
    supplied list for supplied ones. ``visible_to`` is ``None`` when every
    power may see the roll, else the powers that may (the moderator sees all).
    """

    value: int
    purpose: str
    source: str  # "seed" or "supplied"
    index: int
    visible_to: frozenset[str] | None = None

    def to_json(self) -> dict[str, object]:
        """The stored form; a purpose built with :func:`gm.i18n.msg` is kept as English
        under ``purpose`` and as a message under ``purpose_msg``, so that a report says it
        in the reader's language (issue 20: "August II fires" in a French report)."""
        out: dict[str, object] = {
            "value": self.value,
            "purpose": str(self.purpose),
            "source": self.source,
            "index": self.index,
            "visible_to": sorted(self.visible_to) if self.visible_to is not None else None,
        }
        if isinstance(self.purpose, Text):
            out["purpose_msg"] = as_data(self.purpose)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Roll:
        vis = data.get("visible_to")
        return cls(
            value=int(data["value"]),
            purpose=(from_data(data["purpose_msg"]) if isinstance(data.get("purpose_msg"), dict)
                     else str(data["purpose"])),
            source=str(data["source"]),
            index=int(data["index"]),
            visible_to=frozenset(vis) if vis is not None else None,
        )


@dataclass
class Dice:
    """The dice of one adjudication: seeded, optionally led by supplied rolls.

    Every roll is appended to :attr:`rolls`; the service writes them to the
    event log. ``branch`` is 0 for the first adjudication of a phase and is
    raised only when the moderator asks for fresh dice on a re-adjudication.
    """

    seed: bytes
    game_id: str
    phase_id: str
    branch: int = 0
    supplied: Sequence[int] = ()
    then_seed: bool = False
    rolls: list[Roll] = field(default_factory=list)
    _next_seed: int = 0
    _next_supplied: int = 0

    @classmethod
    def scripted(cls, values: Iterable[int], *, then_seed: bool = False) -> Dice:
        """Dice that return exactly ``values`` (for rule tests and examples)."""
        return cls(seed=b"\0" * SEED_BYTES, game_id="test", phase_id="test",
                   supplied=tuple(values), then_seed=then_seed)

    def d6(self, purpose: str, visible_to: Iterable[str] | None = None) -> int:
        """Roll one six-sided die for ``purpose`` (e.g. "forage Livland")."""
        vis = frozenset(visible_to) if visible_to is not None else None
        if self._next_supplied < len(self.supplied):
            value = int(self.supplied[self._next_supplied])
            roll = Roll(value, purpose, "supplied", self._next_supplied, vis)
            self._next_supplied += 1
        elif self.supplied and not self.then_seed:
            raise DiceExhausted(purpose, len(self.supplied))
        else:
            value = derive_d6(self.seed, self.game_id, self.phase_id, self.branch, self._next_seed)
            roll = Roll(value, purpose, "seed", self._next_seed, vis)
            self._next_seed += 1
        if not 1 <= value <= 6:
            raise ValueError(f"supplied roll {value} is not a d6 value")
        self.rolls.append(roll)
        return value

    def roll(self, n: int, purpose: str, visible_to: Iterable[str] | None = None) -> list[int]:
        """Roll ``n`` dice for one purpose ("round 2, Karl XII fires")."""
        vis = list(visible_to) if visible_to is not None else None
        return [self.d6(purpose, vis) for _ in range(n)]

    def d6_sum(self, n: int, purpose: str, visible_to: Iterable[str] | None = None) -> int:
        """The total of ``n`` dice (2d6 tables)."""
        return sum(self.roll(n, purpose, visible_to))


def derive_rolls(seed: bytes, game_id: str, phase_id: str, branch: int, count: int) -> list[int]:
    """The first ``count`` seed rolls of a phase on a branch (test vectors, ``gm dice``)."""
    return [derive_d6(seed, game_id, phase_id, branch, i) for i in range(count)]


@dataclass(frozen=True)
class RollGroup:
    """Consecutive rolls for one purpose from one source, as a report lists them.

    "round 2, Karl XII fires: 3 1 5 (dice 14-16)": ``purpose``, ``values``,
    and the numbers ``first``..``last`` that let a player re-derive them after
    the reveal (docs/dice.md §6). The template chooses the words.
    """

    purpose: str
    source: str
    values: tuple[int, ...]
    first: int
    last: int

    @property
    def numbers(self) -> str:
        """``"14-16"`` or ``"3"``."""
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


def group_rolls(rolls: Iterable[Roll | Mapping[str, Any]]) -> list[RollGroup]:
    """Group consecutive rolls of the same purpose and source, keeping their order."""
    groups: list[RollGroup] = []
    for item in rolls:
        r = item if isinstance(item, Roll) else Roll.from_json(dict(item))
        prev = groups[-1] if groups else None
        if (prev is not None and prev.purpose == r.purpose and prev.source == r.source
                and prev.last + 1 == r.index):
            groups[-1] = RollGroup(prev.purpose, prev.source, (*prev.values, r.value),
                                   prev.first, r.index)
        else:
            groups.append(RollGroup(r.purpose, r.source, (r.value,), r.index, r.index))
    return groups
