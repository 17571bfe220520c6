"""The tables: the database is the truth (design.md §5).

Every state change is a transaction. JSON columns hold a module's state and
orders; the service never looks inside them. Schema changes go through the
Alembic migrations in ``gm/db/migrations``; after editing this file run
``gm db revision -m "why"`` and check the generated script.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Column, Index, LargeBinary, UniqueConstraint, text
from sqlmodel import Field, SQLModel


def _json(**kw: Any) -> Any:
    return Field(default=None, sa_column=Column(JSON, **kw))


class Game(SQLModel, table=True):
    """One running game, e.g. ``baltica42`` playing module ``baltica``."""

    id: str = Field(primary_key=True, max_length=64)
    module: str = Field(max_length=64)
    ruleset: str = Field(default="", max_length=64)
    scenario: str = Field(max_length=64)
    data_version: str = Field(default="", max_length=64)
    status: str = Field(default="running", max_length=16)  # running, paused, ended
    seed: bytes = Field(sa_column=Column(LargeBinary, nullable=False))  # secret until revealed
    commitment: str = Field(max_length=64)
    seed_revealed: bool = False
    settings: dict[str, Any] | None = _json()
    moderator_address: str = Field(default="", max_length=320)
    moderator_password_hash: str = Field(default="", max_length=256)
    paused_at: datetime | None = None
    created_at: datetime
    # Held (like DPjudge's AWAIT): closing a phase raised; nothing is adjudicated until
    # the moderator lifts the hold (`gm mod unhold`). Empty: not held.
    hold_reason: str = ""
    held_at: datetime | None = None


class Seat(SQLModel, table=True):
    """A power and the player who holds it."""

    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    power: str = Field(max_length=64)
    address: str = Field(default="", max_length=320, index=True)
    password_hash: str = Field(default="", max_length=256)
    timezone: str = Field(default="UTC", max_length=64)
    language: str = Field(default="en", max_length=8)
    controls: list[str] | None = _json()  # further powers this seat orders for (FOR ...)
    missed_in_row: int = 0
    active: bool = True
    # The seat's address bounces for good (a 5.x.x bounce of a mail gm sent it; migration
    # 0007): the address marked, when, which outbox mail came back first, the server's
    # words, and how many of gm's mails to it have bounced since. The mark holds while
    # ``bounce_address`` is the seat's address; "" means not marked (gm.service.bouncing).
    bounce_address: str = Field(default="", max_length=320)
    bounce_at: datetime | None = None
    bounce_mail: int | None = None
    bounce_said: str = ""
    bounce_count: int = 0


class Phase(SQLModel, table=True):
    """One phase of a game: the state it opened with and its deadline.

    ``state`` moves open -> done (or -> undone by a rollback, kept for the history): the
    claim closes the row in the transaction that adjudicates it (gm.service.adjudicate._claim;
    issue 21: the ``adjudicating`` written before, nobody else ever saw). Exactly one phase per game is open at a time.
    """

    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    seq: int  # 0, 1, 2 ... order of opening (a rolled-back phase keeps its number)
    phase_id: str = Field(max_length=128, index=True)  # "1701-summer-actions-sweden"
    kind: str = Field(max_length=32)
    state: str = Field(default="open", max_length=16, index=True)
    opens_at: datetime
    deadline: datetime | None = Field(default=None, index=True)
    adjudicated_at: datetime | None = None
    released: bool = True  # False while a preview waits for the moderator
    game_state: dict[str, Any] | None = _json()  # the module's state at the phase's start
    info: dict[str, Any] | None = _json()  # owing, may_order, simultaneous
    dice_branch: int = 0
    supplied_dice: list[int] | None = _json()
    supplied_then_seed: bool = False
    reminders_sent: list[str] | None = _json()
    claimed_by: str = Field(default="", max_length=128)


class OrderSet(SQLModel, table=True):
    """One version of one power's orders for one phase; every version is kept.

    At most one version per power and phase is ``current``: a partial unique index
    says so to the database, so two instances storing orders at once cannot both win.
    """

    __table_args__ = (Index("uq_orderset_current", "game_id", "phase_seq", "power", unique=True,
                            sqlite_where=text("current"), postgresql_where=text("current")),
                      # every look-up names the game, the phase and mostly the power (migration
                      # 0005: through an index on phase_seq alone, or on current, SQLite read
                      # every game's orders for that phase, or every current one; issue 21)
                      Index("ix_orderset_game_phase_power", "game_id", "phase_seq", "power"))

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", max_length=64)
    phase_seq: int
    power: str = Field(max_length=64)
    version: int
    current: bool = True
    created_at: datetime
    source: str = Field(default="mail", max_length=16)  # mail, cli, default, moderator
    inbound_id: int | None = Field(default=None, foreign_key="inboundmail.id")
    text: str = ""  # the normalized orders, one per line
    orders: list[Any] | None = _json()  # module order JSON, in execution order
    ready: bool = False
    wait: bool = False


class InboundMail(SQLModel, table=True):
    """A mail as received, stored raw before anything else happens.

    ``mailbox_key`` names the mailbox message (``imap:INBOX:<uidvalidity>:<uid>``,
    ``maildir:<path>:<unique name>``); it is unique, so however many instances fetch
    the same message, it is stored once.
    """

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(max_length=998, index=True)
    mailbox_key: str | None = Field(default=None, max_length=800, unique=True)
    source: str = Field(default="", max_length=256)  # "imap:INBOX" / "maildir:/path"
    uidvalidity: int | None = None
    uid: int | None = None
    received_at: datetime
    sender: str = Field(default="", max_length=320)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    # new, handled, ignored, failed (handling raised: nothing applied, sender and moderator told)
    status: str = Field(default="new", max_length=16, index=True)
    note: str = ""  # why ignored, a summary of what was done, or the error
    game_id: str | None = Field(default=None, max_length=64)
    handled_at: datetime | None = None


class OutboundMail(SQLModel, table=True):
    """The outbox: a mail is sent from here, with a stable Message-ID."""

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(max_length=998, unique=True)
    game_id: str | None = Field(default=None, max_length=64, index=True)
    kind: str = Field(max_length=32)  # reply, report, reminder, press, warning, notice
    recipients: list[str] | None = _json()
    subject: str = ""
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    # queued, sent, failed, held (preview), withdrawn (held, then taken back, or a
    # ``phase_bound`` mail whose phase closed before it went: never sent)
    status: str = Field(default="queued", max_length=16, index=True)
    attempts: int = 0
    next_attempt_at: datetime | None = None
    last_error: str = ""
    in_reply_to: str = Field(default="", max_length=998)
    created_at: datetime
    sent_at: datetime | None = None
    claimed_by: str = Field(default="", max_length=200)  # the sender holding it (gm/pipeline/dispatch.py)
    claimed_until: datetime | None = None  # the claim's lease; after it, anyone may send it
    # only true while the phase open when it was queued is open (a reminder, "N missing
    # (1 hour left)"): withdrawn, not sent, once a phase of its game closed since
    phase_bound: bool = False


class ModeratorAct(SQLModel, table=True):
    """Every moderator act, with who and why; public unless ``private``."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    phase_seq: int | None = None
    at: datetime
    actor: str = Field(max_length=320)
    command: str = Field(max_length=32)  # extend, ruling, set, rollback, replace, pause, ...
    args: dict[str, Any] | None = _json()
    reason: str = ""
    private: bool = False
    published: bool = False  # rulings: shown in a report yet?


class EventLog(SQLModel, table=True):
    """Append-only: every die roll and every state change, by phase."""

    # a phase's events are read by game and phase, in order (migration 0005: through an
    # index on phase_seq alone, SQLite read every game's events of that phase, issue 21)
    __table_args__ = (Index("ix_eventlog_game_phase", "game_id", "phase_seq", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", max_length=64)
    phase_seq: int
    branch: int = 0  # adjudication attempt of that phase (rollbacks add one)
    seq: int
    at: datetime
    type: str = Field(max_length=64)  # "roll", "phase.opened", module event types...
    data: dict[str, Any] | None = _json()
    visible_to: list[str] | None = _json()  # None: public


class Report(SQLModel, table=True):
    """A rendered report as a power received it (for HISTORY and archives)."""

    __table_args__ = (UniqueConstraint("game_id", "phase_seq", "power", "branch"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    phase_seq: int
    branch: int = 0
    power: str = Field(max_length=64)  # "" for the moderator
    phase_id: str = Field(max_length=128)
    text: str
    created_at: datetime


class HeldReport(SQLModel, table=True):
    """What a report held for the moderator (``preview``) was written from, so RELEASE
    writes it again with the deadline counted from the release (gm.service.reports
    ``rewrite_held_reports``); removed at the release."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(index=True, max_length=64)
    message_id: str = Field(max_length=998, unique=True)  # the held mail's (OutboundMail)
    key: str = Field(max_length=998)  # the key it was queued under (its map's Content-ID)
    phase_seq: int  # the stored report's phase (Report.phase_seq) and branch
    branch: int = 0
    power: str | None = Field(default=None, max_length=64)  # None: an observer's, not stored
    context: dict[str, Any] | None = _json()  # the ReportContext as JSON


class SignonFailure(SQLModel, table=True):
    """Failed sign-ons, for rate limiting per address and per power."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(max_length=64, index=True)
    power: str = Field(max_length=64)
    address: str = Field(max_length=320, index=True)
    at: datetime = Field(index=True)


class ServiceSecret(SQLModel, table=True):
    """A secret of this instance, made once (by the migration that adds this table) and kept.

    ``message-id``: the HMAC key of every Message-ID (gm.mail.compose), so ids reveal
    nothing of the mail, game or line they were made for, and stay the same across
    restarts and between instances sharing the database (exactly-once sending)."""

    name: str = Field(primary_key=True, max_length=64)
    value: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    created_at: datetime


class ReplyCharge(SQLModel, table=True):
    """One reply charged to an address's hourly budget (gm.pipeline.limits).

    Replies to mails in which no sign-on held are charged; the budget stops a
    mail loop with a robot that answers every mail."""

    id: int | None = Field(default=None, primary_key=True)
    address: str = Field(max_length=320, index=True)  # lower case
    at: datetime = Field(index=True)
    inbound_id: int | None = Field(default=None, foreign_key="inboundmail.id")
    notice: bool = False  # the one notice "no more replies for now" sent instead of a reply
