"""The typed envelope and command lines of an order mail (orders.md §1, §9).

Parsed here (:mod:`gm.orders.envelope`), carried out by the parts of the
service that own them. Power names are kept as written, lowercased (the
service resolves them against the game with a NameIndex); passwords, press
text, reasons and ruling text exactly as written.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

# §1: the envelope


@dataclass(frozen=True)
class Game:
    game: str


@dataclass(frozen=True)
class PowerSignOn:
    """``POWER name password`` (alias SIGNON); no password: the moderator acting as it."""

    power: str
    password: str | None


@dataclass(frozen=True)
class ModeratorSignOn:
    password: str


@dataclass(frozen=True)
class Phase:
    """The stale-order guard: the phase the player believes is open."""

    phase: str


@dataclass(frozen=True)
class For:
    """Switch the power the following orders are for."""

    power: str


# §1: commands that are not orders


@dataclass(frozen=True)
class Check:
    """Validate and echo everything, store nothing."""


@dataclass(frozen=True)
class Add:
    """Append these orders instead of replacing the earlier ones."""


@dataclass(frozen=True)
class Status:
    pass


@dataclass(frozen=True)
class Ready:
    ready: bool = True


@dataclass(frozen=True)
class Wait:
    wait: bool = True


ALL_POWERS = "all"


@dataclass(frozen=True)
class Press:
    """``PRESS TO a, b`` ... ``ENDPRESS``; ``to == ("all",)`` broadcasts."""

    to: tuple[str, ...]
    text: str

    @property
    def broadcast(self) -> bool:
        return self.to == (ALL_POWERS,)


@dataclass(frozen=True)
class History:
    phase: str | None = None


@dataclass(frozen=True)
class Absent:
    start: date
    end: date


@dataclass(frozen=True)
class Password:
    new: str


@dataclass(frozen=True)
class SetLanguage:
    language: str


@dataclass(frozen=True)
class SetTimezone:
    timezone: str


@dataclass(frozen=True)
class SetAddress:
    address: str


@dataclass(frozen=True)
class Observe:
    """``OBSERVE game``: anyone asks the moderator for the game's public reports."""

    game: str | None = None


ANY_POWER = "any"


@dataclass(frozen=True)
class Join:
    """``JOIN game power`` (or ``any``): anyone asks for a seat; the moderator decides."""

    game: str
    power: str = ANY_POWER
    language: str = "en"  # REJOINDRE: fr (the joiner's seat and replies are in French)


@dataclass(frozen=True)
class Orders:
    """``ORDERS``: what the signed-on power has on file for the phase now open."""


@dataclass(frozen=True)
class SendPassword:
    """``SEND PASSWORD power``: from anyone; a new password goes to the seat's registered
    address only."""

    power: str


@dataclass(frozen=True)
class List:
    """``LIST`` (the games here) or ``LIST game`` (its phase, deadline, who has orders in
    and who is READY); answered to anyone, without a password."""

    game: str | None = None


@dataclass(frozen=True)
class Help:
    topic: str | None = None
    language: str = "en"  # AIDE: fr (the answer's language when no seat says one)


# §9: moderator commands; each carries ``reason`` (after the first colon) and
# ``private`` (PRIVATE: kept out of the public history).


@dataclass(frozen=True, kw_only=True)
class ModeratorCommand:
    reason: str | None = None
    private: bool = False


@dataclass(frozen=True, kw_only=True)
class Extend(ModeratorCommand):
    """``EXTEND 48h`` (``by``) or ``EXTEND TO 2026-12-01 20:00`` (``to``, naive: UTC
    unless the service applies the moderator's time zone)."""

    by: timedelta | None = None
    to: datetime | None = None


@dataclass(frozen=True, kw_only=True)
class AdjudicateNow(ModeratorCommand):
    pass


@dataclass(frozen=True, kw_only=True)
class Ruling(ModeratorCommand):
    text: str


@dataclass(frozen=True, kw_only=True)
class ReplacePower(ModeratorCommand):
    power: str
    address: str


@dataclass(frozen=True, kw_only=True)
class ApproveJoin(ModeratorCommand):
    """``APPROVE address [power]``: seat a JOIN request of a forming game (issue 19)."""

    address: str
    power: str | None = None


@dataclass(frozen=True, kw_only=True)
class Rollback(ModeratorCommand):
    phase: str
    fresh_dice: bool = False


@dataclass(frozen=True, kw_only=True)
class SetState(ModeratorCommand):
    """``SET path = value``; ``value`` as written (the service decodes it)."""

    path: str
    value: str


@dataclass(frozen=True, kw_only=True)
class Pause(ModeratorCommand):
    pass


@dataclass(frozen=True, kw_only=True)
class Resume(ModeratorCommand):
    deadline: datetime | None = None


@dataclass(frozen=True, kw_only=True)
class DiceRolls(ModeratorCommand):
    rolls: tuple[int, ...]
    then_seed: bool = False


@dataclass(frozen=True, kw_only=True)
class Release(ModeratorCommand):
    pass


@dataclass(frozen=True, kw_only=True)
class Unbounce(ModeratorCommand):
    """``UNBOUNCE power``: the seat's address works again; its mark as bouncing goes."""

    power: str


@dataclass(frozen=True, kw_only=True)
class SendReport(ModeratorCommand):
    """``SEND REPORT power``: the current report again, to the seat's own address."""

    power: str


@dataclass(frozen=True, kw_only=True)
class Requeue(ModeratorCommand):
    """``REQUEUE 17``: mail 17 of the outbox, which could not be delivered, sent again once
    to the current address of the seat it was for (gm.service.undelivered)."""

    mail: int


@dataclass(frozen=True, kw_only=True)
class Unhold(ModeratorCommand):
    """``UNHOLD [KEEP OPEN]``: lift the hold of a game whose adjudication raised, and
    (unless KEEP OPEN) close its phase again (gm.service.adjudicate.unhold)."""

    keep_open: bool = False


@dataclass(frozen=True, kw_only=True)
class Retry(ModeratorCommand):
    """``RETRY 12``: handle again, once, inbound mail 12, whose handling failed."""

    mail: int


@dataclass(frozen=True, kw_only=True)
class DeclineJoin(ModeratorCommand):
    """``DECLINE address``: turn an address away from a forming game (gm.service.forming)."""

    address: str


@dataclass(frozen=True, kw_only=True)
class SetObserver(ModeratorCommand):
    """``ADD OBSERVER address`` / ``STOP OBSERVER address``: the game's public reports to an
    address, or no more (gm.service.observers; ``gm game observe [--stop]``)."""

    address: str
    stop: bool = False


@dataclass(frozen=True, kw_only=True)
class RevealSeed(ModeratorCommand):
    """``REVEAL SEED [FORCE]``: publish the dice seed (``gm mod reveal [--force]``)."""

    force: bool = False


MAILS_SHOWN = 20
"""How many mails SHOW MAILS lists without a count (``gm mod mails --last``'s default)."""
PHASES_SHOWN = 5
"""How many phases SHOW HISTORY tells without a count (the latest)."""


@dataclass(frozen=True, kw_only=True)
class ShowGame(ModeratorCommand):
    """``SHOW GAME``: the game as ``gm game show`` shows it, in the reply."""


@dataclass(frozen=True, kw_only=True)
class ShowMails(ModeratorCommand):
    """``SHOW MAILS [UNDELIVERED] [n]``: the game's latest ``last`` mails that arrived, or
    those gm could not deliver, as ``gm mod mails GAME [--undelivered] --last n`` lists them."""

    undelivered: bool = False
    last: int = MAILS_SHOWN


@dataclass(frozen=True, kw_only=True)
class ShowHistory(ModeratorCommand):
    """``SHOW HISTORY [n]``: the last ``last`` phases of ``gm history GAME --private``."""

    last: int = PHASES_SHOWN


@dataclass(frozen=True, kw_only=True)
class ShowState(ModeratorCommand):
    """``SHOW STATE [power]``: the game's state as ``gm state GAME [--as power]`` prints it:
    the full state, or what ``power`` may know."""

    power: str | None = None


SignOn = PowerSignOn | ModeratorSignOn
Command = (
    Game | PowerSignOn | ModeratorSignOn | Phase | For | Check | Add | Status | Ready | Wait
    | Press | History | Absent | Password | SetLanguage | SetTimezone | SetAddress | Help | List | Orders
    | SendPassword | Observe | Join
    | ModeratorCommand
)
