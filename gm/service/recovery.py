"""Password recovery by mail (``SEND PASSWORD power``, issue 19), as the email judges do it.

Anyone may ask; the new password goes to the seat's registered address only, and the
asker's answer is the same whatever happened, so it tells nothing about the seat (its
existence, its address, whether a mail went out). Passwords are stored hashed, so the
seat gets a new one (the old one stops working); at most one such mail per seat within
:data:`RECOVERY_WINDOW`, so a stranger cannot flood a player or keep changing their
password. The asker's own replies are limited by the reply budget (gm.pipeline.limits).
"""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, col, select

from gm.db.models import Game, OutboundMail, Seat
from gm.i18n import msg, translate
from gm.service.context import ServiceContext
from gm.service.outbox import queue_mail
from gm.service.passwords import hash_password, new_password

RECOVERY_WINDOW = timedelta(hours=24)
KIND = "password"


def _subject(game: Game, seat: Seat) -> str:
    return f"[{game.id}] {seat.power}: " + translate(msg("your new password"), seat.language)


def recently_sent(ctx: ServiceContext, session: Session, game: Game, seat: Seat) -> bool:
    """Whether a recovery mail for ``seat`` went out within the window."""
    since = ctx.clock.now() - RECOVERY_WINDOW
    rows = session.exec(select(OutboundMail.subject).where(
        OutboundMail.kind == KIND, OutboundMail.game_id == game.id,
        col(OutboundMail.created_at) >= since))
    return any(subject == _subject(game, seat) for subject in rows)


def send_new_password(ctx: ServiceContext, session: Session, game: Game, seat: Seat | None,
                      sender: str, inbound_id: int) -> bool:
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
               key=f"password-recovery:{inbound_id}:{seat.power}")
    return True
