"""Password recovery by mail (``SEND PASSWORD power``, issue 19), as the email judges do it.

Anyone may ask; the new password goes to the seat's registered address only, and the
asker's answer is the same whatever happened, so it tells nothing about the seat (its
existence, its address, whether a mail went out). Passwords are stored hashed, so the
seat gets a new one (the old one stops working); at most one such mail per seat within
:data:`RECOVERY_WINDOW`, so a stranger cannot flood a player or keep changing their
password. The asker's own replies are limited by the reply budget (gm.pipeline.limits).

The limit is read from the outbox by the mail's key (:func:`_key`: game, seat and day,
nothing translated), not by its subject, which is in the seat's language: a seat that
changed its language within the day was sent a second password.
"""

from __future__ import annotations

from datetime import date, timedelta

from sqlmodel import Session, col, select

from gm.db.models import Game, OutboundMail, Seat
from gm.i18n import msg, translate
from gm.service.context import ServiceContext
from gm.service.outbox import message_id_for, queue_mail
from gm.service.passwords import hash_password, new_password

RECOVERY_WINDOW = timedelta(hours=24)
KIND = "password"


def _subject(game: Game, seat: Seat) -> str:
    return f"[{game.id}] {seat.power}: " + translate(msg("your new password"), seat.language)


def _key(game: Game, seat: Seat, day: date) -> str:
    """The outbox key of ``seat``'s recovery mail sent on ``day`` (UTC): at most one a
    :data:`RECOVERY_WINDOW`, so at most one a day, and a mail's key is never another's
    (the game is in it: one mail may ask for ``north`` of two games)."""
    return f"password-recovery:{game.id}:{seat.power}:{day.isoformat()}"


def recently_sent(ctx: ServiceContext, session: Session, game: Game, seat: Seat) -> bool:
    """Whether a recovery mail for ``seat`` went out within the window: one queued under the
    key of today or yesterday (:func:`_key`, the Message-ID made from it) less than
    :data:`RECOVERY_WINDOW` ago."""
    now = ctx.clock.now()
    ids = [message_id_for(ctx, session, _key(game, seat, day))
           for day in (now.date(), now.date() - timedelta(days=1))]
    return session.exec(select(OutboundMail.id).where(
        col(OutboundMail.message_id).in_(ids),
        col(OutboundMail.created_at) >= now - RECOVERY_WINDOW)).first() is not None


def send_new_password(ctx: ServiceContext, session: Session, game: Game, seat: Seat | None,
                      sender: str) -> bool:
    """Give ``seat`` a new password and mail it to its registered address; False (and
    nothing changed) when there is no such seat, no address, or one went out lately."""
    if seat is None or not seat.address or not seat.active or recently_sent(ctx, session, game, seat):
        return False
    password = new_password()
    seat.password_hash = hash_password(password)
    session.add(seat)
    lang = seat.language
    text = (f"==== gm notice {game.id} ====\n"
            + translate(msg("A mail from {sender} asked for a new password for {power} in game "
                            "{game}. Your old password no longer works.", sender=sender,
                            power=seat.power, game=game.id), lang) + "\n"
            + translate(msg("Sign on with:"), lang) + f"\n\nGAME {game.id}\nPOWER {seat.power} {password}\n\n"
            + translate(msg("Keep this password to yourself; change it with PASSWORD newsecret."),
                        lang) + "\n")
    queue_mail(ctx, session, game_id=game.id, kind=KIND, to=[seat.address],
               subject=_subject(game, seat), text=text,
               key=_key(game, seat, ctx.clock.now().date()))
    return True
