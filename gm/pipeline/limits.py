"""Mail loops and reply floods: what gm never answers, and how much it answers (issue 22).

Headers alone (gm.mail.classify) catch robots that say they are robots. These
checks catch the others, and need the database:

* **Our own mail coming back.** A mail whose Message-ID is one of ours (our
  reply, report or notice returned whole by a forwarder or a misrouted
  delivery), or that answers one of ours (In-Reply-To/References) and carries
  no line of its own once quotes and our own quoted text are removed, is a
  loop: stored and never answered.
* **Our own address.** Mail from the service's address (or one of its
  ``+game`` forms) is handled (the moderator may write from it, spec section 2)
  but never answered.
* **A budget of replies per address.** A robot that answers every mail and
  says nothing of it in its headers (a misconfigured vacation responder, a
  ticket system) never signs on: each reply to a mail in which no sign-on held
  is charged to the address it goes to. Within an hour, ``reply_budget``
  replies (a service setting, default 10) are sent; the next mail gets one
  notice instead and the moderator is told once; later ones are still read
  and carried out, but get no reply until the hour has passed. Mails in which
  a sign-on held are always answered (a robot cannot sign on: replies never
  repeat a password) and are not charged.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import bindparam
from sqlmodel import Session, func, select
from sqlmodel.sql.expression import SelectOfScalar

from gm.clock import utc
from gm.db.core import run, table
from gm.db.models import Game, OutboundMail, ReplyCharge
from gm.i18n import N_, msg, plural, translate, when
from gm.l10n import moment
from gm.mail.classify import Classification, MailClass, classify_with_reason
from gm.mail.mime import DecodedMail, plus_tag
from gm.orders.text import clean_body
from gm.service.context import ServiceContext
from gm.service.notify import notify_moderator
from gm.service.outbox import queue_mail

BUDGET_WINDOW = timedelta(hours=1)
DEFAULT_BUDGET = 10


def classify_inbound(ctx: ServiceContext, session: Session, mail: DecodedMail) -> Classification:
    """:func:`gm.mail.classify.classify_with_reason`, then our own mail coming back."""
    verdict = classify_with_reason(mail)
    if not verdict.kind.answered:
        return verdict
    if mail.message_id and _ours(session, (mail.message_id,)):
        return Classification(MailClass.LOOP, "Message-ID", mail.message_id)
    answered = tuple(mail.references) + ((mail.in_reply_to,) if mail.in_reply_to else ())
    if answered and not mail.too_large and not clean_body(mail.text):
        ours = _ours(session, answered)
        if ours:
            return Classification(MailClass.LOOP, "In-Reply-To",
                                  f"{ours} (it answers our mail and says nothing of its own)")
    return verdict


def _ours(session: Session, message_ids: tuple[str, ...]) -> str:
    """The first of ``message_ids`` that is the Message-ID of a mail we queued ('' if none)."""
    wanted = [m for m in dict.fromkeys(message_ids) if m][:50]
    if not wanted:
        return ""
    found = run(session, _ours_query(), {"ids": wanted}).scalar()
    return str(found or "")


@functools.cache
def _ours_query() -> SelectOfScalar[str]:
    """:func:`_ours`'s statement, built once (issue 21), the ids bound; Core (gm.db.core)."""
    t = table(OutboundMail).c
    return select(t.message_id).where(t.message_id.in_(bindparam("ids", expanding=True))).limit(1)


@functools.cache
def _spent_query() -> SelectOfScalar[int]:
    """The replies charged to an address since a moment: built once (issue 21); Core
    (gm.db.core)."""
    t = table(ReplyCharge).c
    return select(func.count()).select_from(table(ReplyCharge)).where(
        t.address == bindparam("address"), t.at > bindparam("since"))


def is_our_address(ctx: ServiceContext, address: str) -> bool:
    """Whether ``address`` is the service's own (``gm@host`` or ``gm+tag@host``)."""
    a = address.strip().lower()
    return a == ctx.service_address.strip().lower() or plus_tag(a, ctx.service_address) is not None


class Answer(enum.Enum):
    REPLY = "reply"  # answer as usual
    NOTICE = "notice"  # the budget is spent: one notice instead of the reply
    SILENT = "silent"  # no reply (budget spent and told, or our own address)


@dataclass(frozen=True)
class Decision:
    answer: Answer
    note: str = ""  # for the inbound row: why it got no ordinary reply


def budget(ctx: ServiceContext) -> int:
    return int(ctx.settings.get("reply_budget", DEFAULT_BUDGET))


def decide(ctx: ServiceContext, session: Session, address: str, inbound_id: int, *,
           signed_on: bool) -> Decision:
    """Whether the mail ``inbound_id`` gets its reply at ``address``; charge it if so."""
    if is_our_address(ctx, address):
        return Decision(Answer.SILENT, "not answered: the reply would go to our own address")
    if signed_on:
        return Decision(Answer.REPLY)
    addr = address.strip().lower()[:320]
    now = ctx.clock.now()
    spent = int(run(session, _spent_query(), {"address": addr, "since": now - BUDGET_WINDOW}).scalar_one())
    limit = budget(ctx)
    if spent > limit:
        return Decision(Answer.SILENT, f"not answered: {addr} had {limit} replies within the hour "
                                       "and its notice")
    notice = spent == limit
    session.add(ReplyCharge(address=addr, at=now, inbound_id=inbound_id, notice=notice))
    session.flush()
    if notice:
        return Decision(Answer.NOTICE, f"not answered: {addr} had {limit} replies within the "
                                       "hour; sent the notice instead")
    return Decision(Answer.REPLY)


_NOTICE = N_("gm has answered {limit} mails to {address} within the last hour, none of them "
             "signed on to a game. To stop a mail loop with a program that answers every mail "
             "(an out-of-office reply, a ticket system), gm will not answer further mails to "
             "this address until {until}. They are still read: orders and commands in them "
             "are carried out. Mails with a valid sign-on (POWER <power> <password>) are always "
             "answered.\nIf a program answers gm's mails for you, please switch it off for {service}.")


def queue_notice(ctx: ServiceContext, session: Session, *, to: str, inbound_id: int, language: str,
                 subject: str, in_reply_to: str | None, references: tuple[str, ...],
                 game: Game | None) -> None:
    """The one notice sent instead of a reply when ``to``'s budget is spent; the moderator is told."""
    addr = to.strip().lower()
    first = session.exec(select(func.min(ReplyCharge.at)).where(
        ReplyCharge.address == addr, ReplyCharge.at > ctx.clock.now() - BUDGET_WINDOW)).one()
    until = (first or ctx.clock.now()) + BUDGET_WINDOW
    limit = budget(ctx)
    text = translate(msg(_NOTICE, limit=limit, address=to,
                         until=moment(until, "UTC", language), service=ctx.service_address),
                     language)
    queue_mail(ctx, session, game_id=game.id if game else None, kind="notice", to=[to],
               subject=subject, text=f"==== gm notice ====\n{text}\n", key=f"reply-budget:{inbound_id}",
               in_reply_to=in_reply_to, references=references)
    stopped = msg("replies to {address} stopped for an hour", address=to)
    report = plural(
        "{n} reply went to {address} within an hour, to a mail in which no sign-on held: a mail "
        "loop with a robot, or someone flooding gm. gm sent one notice and answers nothing more "
        "to that address until {until} (mails from it are still read).",
        "{n} replies went to {address} within an hour, to mails in which no sign-on held: a mail "
        "loop with a robot, or someone flooding gm. gm sent one notice and answers nothing more "
        "to that address until {until} (mails from it are still read).",
        limit, address=to, until=when(utc(until)))
    if game is not None:
        notify_moderator(ctx, session, game, stopped, report, key=f"reply-budget:{inbound_id}")
        return
    moderator = str(ctx.settings.get("moderator_address", ""))
    if moderator and not is_our_address(ctx, moderator):  # the service's own: in English
        queue_mail(ctx, session, game_id=None, kind="notice", to=[moderator], subject=stopped,
                   text=f"==== gm notice ====\n{report}\n", key=f"notice:reply-budget:{inbound_id}")
