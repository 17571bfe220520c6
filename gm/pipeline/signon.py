"""Which game a section means, and whether its sign-on holds (orders.md §1).

The password authenticates; the sender's address never does on its own.
Failed sign-ons are recorded and rate-limited per address and per power, and
the seat's owner is warned (from which address, never the attempted orders).
The per-power limit counts and blocks only strangers: mail from the seat's own
address (for ``MODERATOR``, the moderator's address) is limited per address
alone, so guesses from elsewhere never lock the real player or the moderator
out. The right password from a strange address always reaches the owner: as
the copy of the reply (gm.pipeline.handle), or, when the sender is blocked for
now and nothing is carried out, as a warning.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import bindparam
from sqlmodel import Session, col, func, select
from sqlmodel.sql.expression import SelectOfScalar

from gm.db.core import run, table
from gm.db.models import Game, Seat, SignonFailure
from gm.i18n import msg, translate
from gm.orders import commands as c
from gm.orders.envelope import Envelope, Section
from gm.orders.names import edit_distance, fold
from gm.service.context import ServiceContext
from gm.service.games import seat_for_power, seats
from gm.service.notify import moderator_address, moderator_language
from gm.service.outbox import queue_mail
from gm.service.passwords import check_password

FAILURE_WINDOW = timedelta(hours=1)
MAX_FAILURES = 5  # per address, and per power (from other addresses), within the window


@dataclass(frozen=True)
class GameChoice:
    game: Game | None
    problem: str = ""


def choose_game(session: Session, section: Section, plus_tag: str | None, sender: str) -> GameChoice:
    """GAME line, else plus-addressing, else the sender's only seat in a running game."""
    named = section.game.lower() if section.game else None
    tag = plus_tag.lower() if plus_tag else None
    if named and tag and named != tag:
        return GameChoice(None, msg("the GAME line says {named} but the mail was sent to the address "
                                    "of game {tag}; which did you mean?", named=named, tag=tag))
    game_id = named or tag
    if game_id is None:
        held = session.exec(select(Seat.game_id).join(Game, col(Game.id) == Seat.game_id).where(
            func.lower(Seat.address) == sender.lower(), Game.status != "ended")).all()
        if len(set(held)) == 1:
            game_id = held[0]
        else:
            return GameChoice(None, msg("which game? Add a line GAME <game>"))
    game = session.get(Game, game_id)
    if game is None:
        near = nearest_game(session, game_id)
        if near:
            return GameChoice(None, msg("there is no game {game!r}: did you mean {near}?",
                                        game=game_id, near=" or ".join(near)))
        return GameChoice(None, msg("there is no game {game!r}", game=game_id))
    return GameChoice(game)


def nearest_game(session: Session, written: str, limit: int = 2) -> tuple[str, ...]:
    """The ids of the games nearest ``written`` (a running game before an ended one at the
    same distance; at most one edit per three letters, at least two): issue 17."""
    key = fold(written)
    rows = session.exec(select(Game.id, Game.status)).all()
    scored = sorted((edit_distance(key, fold(gid)), status == "ended", gid) for gid, status in rows)
    return tuple(gid for d, _, gid in scored if d <= max(2, len(key) // 3))[:limit]


def resolve_power(session: Session, game: Game, written: str) -> Seat | None:
    """The seat of the power written in a sign-on (case and accents ignored)."""
    want = fold(written)
    for seat in seats(session, game.id):
        if fold(seat.power) == want:
            return seat
    return None


def may_act_for(session: Session, game: Game, seat: Seat | None, written: str) -> str | None:
    """The power ``written`` if this sign-on may act for it: its own, one it controls or
    holds; the moderator (``seat`` None) any power of the game. None: it may not."""
    if seat is not None and written and fold(written) == fold(seat.power):
        return seat.power  # its own power, as resolve_power finds it (no query: issue 21)
    target = resolve_power(session, game, written) if written else None
    name = target.power if target else written.lower()
    if seat is None:
        return name if target is not None else None
    if name == seat.power or name in (seat.controls or []):
        return name
    holder = seat_for_power(session, game.id, name)
    return name if holder is not None and holder.id == seat.id else None


def too_many_failures(ctx: ServiceContext, session: Session, game: Game, power: str, sender: str,
                      own_address: str | None = None) -> bool:
    """Whether sign-ons from ``sender`` as ``power`` are refused unread for now.

    ``own_address`` is the seat's registered address: failures from it do not count
    towards the power's limit, and the power's limit does not block it (only its own
    per-address limit does), so a stranger's guessing cannot lock the owner out.
    """
    since = ctx.clock.now() - FAILURE_WINDOW
    by_address = run(session, _failures_by_address(), {"address": sender.lower(),
                                                        "since": since}).scalar_one()
    if by_address >= MAX_FAILURES:
        return True
    own = (own_address or "").lower()
    if own and sender.lower() == own:
        return False
    by_power = session.exec(select(func.count()).select_from(SignonFailure).where(
        SignonFailure.game_id == game.id, SignonFailure.power == power,
        func.lower(SignonFailure.address) != own, SignonFailure.at >= since)).one()
    return by_power >= MAX_FAILURES


@functools.cache
def _failures_by_address() -> SelectOfScalar[int]:
    """:func:`too_many_failures`'s first count, built once (issue 21), its values bound;
    Core (gm.db.core)."""
    t = table(SignonFailure).c
    return select(func.count()).select_from(table(SignonFailure)).where(
        func.lower(t.address) == bindparam("address"), t.at >= bindparam("since"))


def record_failure(ctx: ServiceContext, session: Session, game: Game, seat: Seat | None,
                   power: str, sender: str, inbound_id: int, own_address: str | None = None) -> None:
    """Count the failure, warn the seat's owner (once per mail), tell the moderator at the limit.

    ``own_address``: the address the limit never blocks for ``power`` (the seat's, or
    the moderator's for ``MODERATOR``); by default the seat's."""
    session.add(SignonFailure(game_id=game.id, power=power, address=sender[:320], at=ctx.clock.now()))
    session.flush()
    own = own_address if own_address is not None else (seat.address if seat else None)
    if too_many_failures(ctx, session, game, power, sender, own):
        _report_limit(ctx, session, game, power, sender, inbound_id)
    if seat is None or not seat.address:
        return
    text = msg("Someone tried to sign on as {power} in game {game} from {sender} with a wrong "
               "password. Their orders were not accepted.\nIf it was you, check your password; "
               "if not, you may want to change it (PASSWORD newsecret) and tell the moderator.",
               power=power, game=game.id, sender=sender)
    queue_mail(ctx, session, game_id=game.id, kind="warning", to=[seat.address],
               subject=f"[{game.id}] " + translate(msg("failed sign-on as {power}", power=power),
                                                   seat.language),
               text=f"==== gm notice {game.id} ====\n{translate(text, seat.language)}\n",
               key=f"signon-warning:{inbound_id}:{power}")


def _report_limit(ctx: ServiceContext, session: Session, game: Game, power: str, sender: str,
                  inbound_id: int) -> None:
    """Tell the moderator once when sign-ons as ``power`` (or from ``sender``) hit the limit.

    Only the failure that reaches the limit reports; later mails are refused
    before any password is checked, so they are neither counted nor reported.
    """
    from gm.service.notify import notify_moderator

    refused = msg(
        "Further sign-ons from that address, and as {power} from any address but the "
        "moderator's own, are refused for an hour, even with the right password (the owner is "
        "warned if it is used). If this is not the player, consider a new password for the seat.",
        power=power) if power == "moderator" else msg(
        "Further sign-ons from that address, and as {power} from any address but the seat's "
        "own, are refused for an hour, even with the right password (the owner is warned if it "
        "is used). If this is not the player, consider a new password for the seat.", power=power)
    notify_moderator(
        ctx, session, game, msg("sign-ons as {power} blocked for an hour", power=power), [
            msg("{n} failed sign-ons within an hour (the last as {power}, from {sender}).",
                n=MAX_FAILURES, power=power, sender=sender), refused],
        key=f"signon-limit:{inbound_id}:{power}")


@dataclass(frozen=True)
class SignOn:
    """Who a section speaks as: a seat (player) or the moderator."""

    seat: Seat | None
    moderator: bool
    problem: str = ""

    @property
    def ok(self) -> bool:
        return not self.problem


def check_signon(ctx: ServiceContext, session: Session, game: Game, section: Section, sender: str,
                 inbound_id: int) -> SignOn:
    so = section.signon
    if isinstance(so, c.ModeratorSignOn):
        own = moderator_address(ctx, game)
        right = bool(game.moderator_password_hash) and check_password(so.password,
                                                                      game.moderator_password_hash)
        if too_many_failures(ctx, session, game, "moderator", sender, own):
            if right:
                _warn_right_password_blocked(ctx, session, game, "moderator", own, sender, inbound_id)
            return SignOn(None, True, msg("too many failed sign-ons from you; try again in an hour"))
        if right:
            return SignOn(None, True)
        record_failure(ctx, session, game, None, "moderator", sender, inbound_id, own_address=own)
        return SignOn(None, True, msg("moderator sign-on failed: wrong password"))
    if not isinstance(so, c.PowerSignOn):
        return SignOn(None, False, msg("no sign-on: add a line POWER <power> <password>"))
    seat = resolve_power(session, game, so.power)
    power = seat.power if seat else so.power
    if too_many_failures(ctx, session, game, power, sender, seat.address if seat else None):
        if seat is not None and so.password is not None and check_password(so.password, seat.password_hash):
            _warn_right_password_blocked(ctx, session, game, power, seat.address, sender, inbound_id)
        return SignOn(None, False, msg("too many failed sign-ons; try again in an hour"))
    if seat is None:
        record_failure(ctx, session, game, None, power, sender, inbound_id)
        names = ", ".join(s.power for s in seats(session, game.id))
        return SignOn(None, False, msg("game {game} has no power {power!r} (powers: {names})",
                                            game=game.id, power=so.power, names=names))
    if so.password is None or not check_password(so.password, seat.password_hash):
        record_failure(ctx, session, game, seat, power, sender, inbound_id)
        return SignOn(None, False, msg("sign-on as {power} failed: wrong password", power=power))
    return SignOn(seat, False)


def _warn_right_password_blocked(ctx: ServiceContext, session: Session, game: Game, power: str,
                                 owner: str, sender: str, inbound_id: int) -> None:
    """The right password came from a sender blocked for now: nothing is carried out (the
    sender is told only that it is blocked), but the owner must learn their password is out."""
    if not owner or owner.lower() == sender.lower():
        return
    language = _owner_language(session, game, power)
    text = msg("Someone signed on as {power} in game {game} from {sender} with the RIGHT "
               "password, while sign-ons from there were blocked after failed attempts. Nothing "
               "in that mail was carried out.\nIf it was not you, change your password now "
               "(PASSWORD newsecret) and tell the moderator.", power=power, game=game.id,
               sender=sender)
    queue_mail(ctx, session, game_id=game.id, kind="warning", to=[owner],
               subject=f"[{game.id}] " + translate(msg(
                   "your password for {power} was used from {sender}", power=power,
                   sender=sender), language),
               text=f"==== gm notice {game.id} ====\n{translate(text, language)}\n",
               key=f"signon-right-blocked:{inbound_id}:{power}")


def _owner_language(session: Session, game: Game, power: str) -> str:
    """The language of the warnings to ``power``'s owner: the seat's, or the game's
    ``moderator_language`` for the moderator."""
    if power == "moderator":
        return moderator_language(game)
    seat = seat_for_power(session, game.id, power)
    return seat.language if seat is not None else "en"


def signon_secrets(text: str) -> set[str]:
    """Every password the order parser reads in a mail's text: sign-ons (right or wrong)
    and new passwords, so that the stored mail can be masked (gm.mail.mask)."""
    from gm.orders.envelope import parse_envelope
    from gm.orders.text import clean_body

    try:
        envelope = parse_envelope(clean_body(text))
    except Exception:  # the mask's own patterns still apply
        return set()
    return envelope_secrets(envelope)


def envelope_secrets(envelope: Envelope) -> set[str]:
    """:func:`signon_secrets` of a mail's envelope already parsed (issue 21: not twice)."""
    from gm.orders.envelope import CommandLine

    found: set[str] = set()
    for section in envelope.sections:
        so = section.signon
        if isinstance(so, c.PowerSignOn | c.ModeratorSignOn) and so.password:
            found.add(so.password)
        for item in section.items:
            cmd = item.command if isinstance(item, CommandLine) else None
            if isinstance(cmd, c.Password) and cmd.new:
                found.add(cmd.new)
            elif isinstance(cmd, c.PowerSignOn) and cmd.password:
                found.add(cmd.password)
    return found


def warn_of_unread_signons(ctx: ServiceContext, session: Session, text: str, plus_tag: str | None,
                           sender: str, inbound_id: int) -> int:
    """For a mail that is not acted upon (an auto-reply, a list mail, no address to answer):
    warn the owner of each sign-on in it that holds the right password from another address.
    Nothing in the mail is carried out. Return how many owners were warned."""
    from gm.orders.envelope import parse_envelope
    from gm.orders.text import clean_body

    try:
        sections = parse_envelope(clean_body(text)).sections
    except Exception:
        return 0
    warned = 0
    for section in sections:
        so = section.signon
        if not isinstance(so, c.PowerSignOn | c.ModeratorSignOn) or not so.password:
            continue
        game = choose_game(session, section, plus_tag, sender).game
        if game is None:
            continue
        if isinstance(so, c.ModeratorSignOn):
            owner, power, stored = moderator_address(ctx, game), "moderator", game.moderator_password_hash
        else:
            seat = resolve_power(session, game, so.power)
            if seat is None:
                continue
            owner, power, stored = seat.address, seat.power, seat.password_hash
        if not owner or (sender and owner.lower() == sender.lower()) or not stored:
            continue
        if check_password(so.password, stored):
            _warn_unread(ctx, session, game, power, owner, sender, inbound_id)
            warned += 1
    return warned


def _warn_unread(ctx: ServiceContext, session: Session, game: Game, power: str, owner: str,
                 sender: str, inbound_id: int) -> None:
    language = _owner_language(session, game, power)
    who = sender or msg("an unknown address")
    text = msg("A mail from {sender} signed on as {power} in game {game} with the RIGHT "
               "password. gm did not act on it (it looked like an automatic or list mail, or had "
               "no address to answer), so nothing in it was carried out.\nIf it was not you, "
               "change your password now (PASSWORD newsecret) and tell the moderator.",
               sender=who, power=power, game=game.id)
    queue_mail(ctx, session, game_id=game.id, kind="warning", to=[owner],
               subject=f"[{game.id}] " + translate(msg(
                   "your password for {power} was used from {sender}", power=power,
                   sender=who), language),
               text=f"==== gm notice {game.id} ====\n{translate(text, language)}\n",
               key=f"signon-right-unread:{inbound_id}:{power}")
