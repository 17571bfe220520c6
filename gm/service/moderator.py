"""Moderator acts (orders.md §9): every act recorded with who and why.

Each function runs inside the caller's transaction and records a
:class:`ModeratorAct` plus a ``moderator.<command>`` event, public unless the
act is private. ``ADJUDICATE NOW`` is not here: it is
:func:`gm.service.adjudicate.close_phase`, run after the act is committed.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, func, select

from gm.clock import utc
from gm.db.models import Game, ModeratorAct, OrderSet, OutboundMail, Phase, Seat
from gm.i18n import msg, translate, when
from gm.service.bouncing import Bouncing, bouncing
from gm.service.bouncing import clear as clear_bouncing
from gm.service.context import ServiceContext
from gm.service.errors import Conflict, NotFound
from gm.service.games import current_phase, get_seat, module_of, seats
from gm.service.notify import tell_players
from gm.service.outbox import queue_mail
from gm.service.passwords import hash_password, new_password
from gm.service.phases import deadline_for, log_event, under_review


def record_act(ctx: ServiceContext, session: Session, game: Game, *, actor: str, command: str,
               args: dict[str, Any], reason: str = "", private: bool = False) -> ModeratorAct:
    phase = current_phase(session, game.id)
    act = ModeratorAct(game_id=game.id, phase_seq=phase.seq, at=ctx.clock.now(), actor=actor,
                       command=command, args=args, reason=reason, private=private)
    session.add(act)
    log_event(ctx, session, game.id, phase.seq, phase.dice_branch, f"moderator.{command}",
              {"args": args, "reason": reason, "actor": actor}, [] if private else None)
    return act


def _open_phase(session: Session, game: Game) -> Phase:
    phase = current_phase(session, game.id)
    if phase.state != "open":
        raise Conflict(f"game {game.id} has no open phase (it is {phase.state})")
    return phase


def extend(ctx: ServiceContext, session: Session, game: Game, *, actor: str,
           by: timedelta | None = None, to: datetime | None = None, reason: str = "",
           private: bool = False) -> Phase:
    """EXTEND 48h / EXTEND TO time: move the current deadline.

    A phase under the moderator's review (preview) has no clock yet: RELEASE starts it. The
    act is then recorded for the release, which adds ``by`` to the deadline it counts from
    the release, or makes ``to`` the deadline (:func:`released_deadline`); no player is
    told anything before (a notice would name the held phase)."""
    phase = _open_phase(session, game)
    now = ctx.clock.now()
    if to is not None and utc(to) <= now:
        raise Conflict(msg("{deadline} is past; nothing changed (ADJUDICATE NOW closes the "
                           "phase now)", deadline=when(utc(to))))
    if to is None and not (by or timedelta()) > timedelta():
        raise Conflict(msg("an extension of nothing; nothing changed"))
    if under_review(phase):
        later: dict[str, Any] = {"phase_id": phase.phase_id, "at_release": True}
        if to is not None:
            later["to"] = utc(to).isoformat()
        else:
            later["by"] = int((by or timedelta()).total_seconds())
        record_act(ctx, session, game, actor=actor, command="extend", args=later, reason=reason,
                   private=private)
        return phase
    base = utc(phase.deadline) if phase.deadline else now
    new = utc(to) if to is not None else base + (by or timedelta())
    phase.deadline = new
    phase.reminders_sent = [r for r in phase.reminders_sent or [] if r.startswith("nmr")]
    session.add(phase)
    record_act(ctx, session, game, actor=actor, command="extend",
               args={"deadline": new.isoformat(), "phase_id": phase.phase_id},
               reason=reason, private=private)
    from gm.service.reports import queue_deadline_moved

    queue_deadline_moved(ctx, session, game, phase, "" if private else reason)
    return phase


def ruling(ctx: ServiceContext, session: Session, game: Game, *, actor: str, text: str,
           private: bool = False) -> ModeratorAct:
    """RULING text: recorded, and published with the next report unless private."""
    return record_act(ctx, session, game, actor=actor, command="ruling", args={"text": text},
                      reason=text, private=private)


def set_path(ctx: ServiceContext, session: Session, game: Game, *, actor: str, path: str,
             value: str, reason: str = "", private: bool = False) -> Any:
    """SET path = value: override the current phase's state at a dotted path.

    Any key may be set, a new key of an existing mapping too (``control.estland``), the
    season, step or year as well: the phase then becomes the one the new state waits in
    (its id, kind, who owes orders; a new kind gets that kind's deadline). A state the
    game cannot read is refused and nothing changes. The act is recorded with the old and
    new value, so ``gm replay`` and ``gm verify`` apply it in its place. ``SET phase =
    ID`` asks the game which keys put it in that phase (``position_of_phase``) and
    records them as the act's ``changes``."""
    from gm.games.base import GameError
    from gm.service.games import module_of
    from gm.service.phases import info_json

    phase = _open_phase(session, game)
    state = json.loads(json.dumps(phase.game_state or {}))
    parsed = _parse_value(value)
    module = module_of(game)
    changes: list[dict[str, Any]] = []
    if path == "phase":  # SET phase = ID: the keys that put the game in that phase
        old = phase.phase_id
        try:
            changes = [{"path": k, "new": v}
                       for k, v in module.position_of_phase(state, str(parsed))]
        except GameError as exc:
            raise Conflict(f"{exc}; nothing changed") from None
        for change in changes:
            assign_path(state, change["path"], change["new"])
    else:
        old = assign_path(state, path, parsed, create=True)
        if old is not None and parsed is not None and _kind(old) != _kind(parsed):
            raise Conflict(f"{path} holds {_kind(old)} ({json.dumps(old)[:60]}), not "
                           f"{_kind(parsed)}; nothing changed")
    try:
        info = module.phase(state)
        module.view(state, None)
    except (GameError, KeyError, TypeError, ValueError, AttributeError, StopIteration) as exc:
        raise Conflict(f"{path} = {value} would leave a state the game cannot read "
                       f"({type(exc).__name__}: {exc}); nothing changed") from None
    before = phase.phase_id
    phase.game_state = state
    if info.id != phase.phase_id or info.kind != phase.kind:
        if info.kind != phase.kind:
            phase.deadline = deadline_for(game, info.kind, ctx.clock.now())
        phase.phase_id, phase.kind = info.id, info.kind
    phase.info = info_json(info)
    session.add(phase)
    args: dict[str, Any] = {"path": path, "old": old, "new": parsed}
    if changes:
        args["changes"] = changes
    if phase.phase_id != before:
        args["phase_id"] = {"old": before, "new": phase.phase_id}
    record_act(ctx, session, game, actor=actor, command="set", args=args, reason=reason,
               private=private)
    return parsed


def _kind(value: Any) -> str:
    """The JSON kind of a state value, as a SET checks it (a number for a number...)."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "a mapping" if isinstance(value, dict) else "null"


def _parse_value(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        return value


def assign_path(state: Any, path: str, value: Any, *, create: bool = False) -> Any:
    """Set ``state[a][b]...`` for ``path`` "a.b..." (list indexes as numbers); return the
    old value (None for a key ``create`` added to an existing mapping)."""
    keys = [k for k in path.split(".") if k]
    if not keys:
        raise NotFound("an empty path")
    node = state
    for key in keys[:-1]:
        node = _child(node, key, path)
    last = keys[-1]
    if isinstance(node, list):
        idx = _index(node, last, path)
        old, node[idx] = node[idx], value
        return old
    if not isinstance(node, dict) or (last not in node and not (create and len(keys) > 1)):
        raise NotFound(f"the state has no '{path}' (see gm state --json)")
    old, node[last] = node.get(last), value
    return old


def _child(node: Any, key: str, path: str) -> Any:
    if isinstance(node, list):
        return node[_index(node, key, path)]
    if isinstance(node, dict) and key in node:
        return node[key]
    raise NotFound(f"the state has no '{path}' (see gm state --json)")


def _index(node: list[Any], key: str, path: str) -> int:
    if not key.isdigit() or int(key) >= len(node):
        raise NotFound(f"the state has no '{path}' (see gm state --json)")
    return int(key)


def pause(ctx: ServiceContext, session: Session, game: Game, *, actor: str, reason: str = "",
          private: bool = False) -> None:
    if game.status == "paused":
        raise Conflict(f"game {game.id} is already paused")
    game.status = "paused"
    game.paused_at = ctx.clock.now()
    session.add(game)
    record_act(ctx, session, game, actor=actor, command="pause", args={}, reason=reason,
               private=private)
    tell_players(ctx, session, game, what="pause", key=ctx.clock.now().isoformat(),
                 subject=msg("game paused"), reason="" if private else reason,
                 text=msg("The moderator paused game {game}: the clock is stopped until the "
                          "game resumes, and no phase closes meanwhile.", game=game.id))


def resume(ctx: ServiceContext, session: Session, game: Game, *, actor: str,
           deadline: datetime | None = None, reason: str = "", private: bool = False) -> Phase:
    """RESUME: deadlines move by the length of the pause unless a deadline is given."""
    if game.status != "paused" or game.paused_at is None:
        raise Conflict(f"game {game.id} is not paused")
    if deadline is not None and utc(deadline) <= ctx.clock.now():
        raise Conflict(msg("{deadline} is past; nothing changed (ADJUDICATE NOW closes the "
                           "phase now)", deadline=when(utc(deadline))))
    paused_for = ctx.clock.now() - utc(game.paused_at)
    game.status, game.paused_at = "running", None
    session.add(game)
    phase = current_phase(session, game.id)
    if phase.state == "open":
        if deadline is not None:
            phase.deadline = utc(deadline)
        elif phase.deadline is not None:
            phase.deadline = utc(phase.deadline) + paused_for
        session.add(phase)
    record_act(ctx, session, game, actor=actor, command="resume",
               args={"paused_seconds": int(paused_for.total_seconds()),
                     "deadline": phase.deadline.isoformat() if phase.deadline else None},
               reason=reason, private=private)
    until = (msg("the moderator is still reviewing the last adjudication: your next report "
                 "names the phase and its deadline") if under_review(phase)
             else msg("the deadline of {phase} is now {deadline}", phase=phase.phase_id,
                      deadline=when(utc(phase.deadline))) if phase.deadline
             else msg("{phase} has no deadline; the moderator closes it", phase=phase.phase_id))
    tell_players(ctx, session, game, what="resume", key=ctx.clock.now().isoformat(),
                 subject=msg("game resumed"), reason="" if private else reason,
                 text=msg("The moderator resumed game {game}; {until}.", game=game.id,
                          until=until))
    return phase


def supply_dice(ctx: ServiceContext, session: Session, game: Game, *, actor: str, rolls: list[int],
                then_seed: bool = False, reason: str = "", private: bool = False) -> Phase:
    """DICE 3 1 5 ...: rolls to use, in order, in the next adjudication."""
    bad = [r for r in rolls if not 1 <= r <= 6]
    if bad or not rolls:
        raise Conflict(f"dice must be numbers 1 to 6 (got {' '.join(map(str, rolls)) or 'none'})")
    phase = _open_phase(session, game)
    phase.supplied_dice = list(rolls)
    phase.supplied_then_seed = then_seed
    session.add(phase)
    record_act(ctx, session, game, actor=actor, command="dice",
               args={"count": len(rolls), "then_seed": then_seed, "phase_id": phase.phase_id},
               reason=reason, private=private)
    return phase


def replace_power(ctx: ServiceContext, session: Session, game: Game, *, actor: str, power: str,
                  address: str, reason: str = "", private: bool = False) -> str:
    """REPLACE POWER p WITH addr: new player, new password, the current report.

    During the moderator's review (preview) the new player's report is held with the
    others and goes out at RELEASE, and the seat's held report to the old player is
    withdrawn: he no longer plays it."""
    from gm.service.reports import queue_current_report, withdraw_held_reports

    seat = get_seat(session, game.id, power)
    _check_address(address)
    password = new_password()
    old = seat.address
    seat.address, seat.password_hash, seat.missed_in_row, seat.active = (
        address, hash_password(password), 0, True)
    clear_bouncing(seat)  # a new player's address: whether it bounces is not known yet
    session.add(seat)
    from gm.service.observers import leave_waiting

    leave_waiting(session, game, address)  # a JOIN answered (issue 19)
    record_act(ctx, session, game, actor=actor, command="replace",
               args={"power": power, "old_address": old, "new_address": address},
               reason=reason, private=private)
    phase = current_phase(session, game.id)
    if under_review(phase) and old and old.lower() != address.lower():
        withdraw_held_reports(session, game, to=old, power=power)
    lang = seat.language
    name = module_of(game).power_name(power, "the")  # as each reader says it ("la France")
    welcome = (f"==== gm notice {game.id} ====\n" + translate(msg(
        "You now play {power} in game {game}.", power=name, game=game.id), lang) + "\n"
        + translate(msg("Sign on with:"), lang) + f"  POWER {power} {password}\n"
        + translate(msg("Keep this password to yourself; change it with PASSWORD newsecret."),
                    lang) + "\n")
    queue_mail(ctx, session, game_id=game.id, kind="welcome", to=[address],
               subject=f"[{game.id}] " + translate(msg("you now play {power}", power=name), lang),
               text=welcome, key=f"welcome:{game.id}:{power}:{ctx.clock.now().isoformat()}")
    others = [s for s in seats(session, game.id) if s.power != power]
    gone = [(old, lang, msg("You no longer play {power} in game {game}: the moderator gave "
                            "the seat to a new player.", power=name, game=game.id))
            ] if old and old.lower() != address.lower() else []
    told = msg("A new player now plays {power} in game {game}.", power=name,
               game=game.id)
    for n, other in enumerate(s for s in others if s.active and s.address):
        queue_mail(ctx, session, game_id=game.id, kind="notice", to=[other.address],
                   subject=f"[{game.id}] " + translate(msg("new player for {power}", power=name),
                                                       other.language),
                   text=f"==== gm notice {game.id} ====\n" + translate(told, other.language) + "\n",
                   key=f"replace:{game.id}:{power}:{ctx.clock.now().isoformat()}:{n}")
    for address_gone, language, words in gone:
        queue_mail(ctx, session, game_id=game.id, kind="notice", to=[address_gone],
                   subject=f"[{game.id}] " + translate(msg("new player for {power}", power=name),
                                                       language),
                   text=f"==== gm notice {game.id} ====\n" + translate(words, language) + "\n",
                   key=f"replace-old:{game.id}:{power}:{ctx.clock.now().isoformat()}")
    queue_current_report(ctx, session, game, phase, power, seat, to=[address],
                         subject=f"[{game.id}] {phase.phase_id}: report for {power}",
                         key=f"report-new-player:{game.id}:{phase.seq}:{power}:{address}")
    return password


def unbounce(ctx: ServiceContext, session: Session, game: Game, *, actor: str, power: str,
             reason: str = "") -> Bouncing:
    """UNBOUNCE power / ``gm mod unbounce``: the moderator knows the seat's address works
    again (the mailbox was full, the player fixed it), so its mark as bouncing for good
    (gm.service.bouncing) is taken off and the next bounce to it is told again.

    Always a private act: the mark, like the bounces that made it, is the moderator's
    business, and the act names the player's address. A seat without a mark for its
    current address is refused and nothing changes."""
    seat = get_seat(session, game.id, power)
    mark = bouncing(seat)
    if mark is None:
        raise Conflict(msg("{power}'s address {address} is not marked as bouncing; nothing "
                           "changed", power=seat.power, address=seat.address or "-"))
    clear_bouncing(seat)
    session.add(seat)
    record_act(ctx, session, game, actor=actor, command="unbounce",
               args={"power": seat.power, "address": mark.address,
                     "since": mark.since.isoformat() if mark.since else None,
                     "bounced": mark.count},
               reason=reason, private=True)
    return mark


def _check_address(address: str) -> None:
    """Refuse what is not one mail address (``gm mod replace``/``address`` take any text;
    the mail commands' grammar wants an ``@``), before anything changes."""
    local, at, domain = address.partition("@")
    if (not local or not at or not domain.strip(".") or "@" in domain
            or any(c.isspace() or c in ',;<>"' for c in address)):
        raise Conflict(msg("{address!r} is not a mail address; nothing changed",
                           address=address))


def set_moderator(ctx: ServiceContext, session: Session, game: Game, *, actor: str,
                  address: str | None = None, language: str | None = None,
                  fresh_password: bool = False) -> str | None:
    """``gm game moderator``: a game's moderator changes after its creation: another
    address (a co-moderator takes over), the language of the moderator's notices and
    replies (``moderator_language``), a new moderator password (the old one leaked).
    Everything is checked before anything changes; the same values again are refused.
    Returns the new password (shown once), if one was made. A private act, recorded once
    the game has a phase (a forming game has none: only the change is made)."""
    from gm.i18n import languages

    changes: dict[str, Any] = {}
    if address is not None:
        _check_address(address)
        if address.lower() != (game.moderator_address or "").lower():
            changes["address"] = {"old": game.moderator_address, "new": address}
    if language is not None:
        lang = language.lower()[:2]
        if lang not in languages():
            raise Conflict(msg("language {language!r} is not offered (choose {choices})",
                               language=language, choices=", ".join(languages())))
        if lang != str((game.settings or {}).get("moderator_language", "en")):
            changes["language"] = {"old": (game.settings or {}).get("moderator_language", "en"),
                                   "new": lang}
    if not changes and not fresh_password:
        raise Conflict(msg("game {game}: nothing to change (give a new --address, --language "
                           "or --new-password)", game=game.id))
    password = None
    if fresh_password:
        password = new_password()
        game.moderator_password_hash = hash_password(password)
        changes["password"] = "changed"
    if "address" in changes:
        game.moderator_address = changes["address"]["new"]
    if "language" in changes:
        game.settings = {**(game.settings or {}), "moderator_language": changes["language"]["new"]}
    session.add(game)
    if game.status != "forming":
        record_act(ctx, session, game, actor=actor, command="moderator", args=changes,
                   private=True)
    return password


def move_address(ctx: ServiceContext, session: Session, game: Game, *, actor: str, power: str,
                 address: str, reason: str = "") -> str:
    """The moderator acting as ``power`` with SET ADDRESS / ``gm mod address``: the same
    player, a new mailbox (the old one is gone, and the password with it). Unlike REPLACE
    POWER nobody else is told, the password stays, the report is not resent; the old and
    the new address are told, in the seat's language, with how to get a new password.
    A private act (it names addresses). Returns the old address. The same address again
    is refused and nothing changes."""
    seat = get_seat(session, game.id, power)
    old = seat.address or ""
    _check_address(address)
    if old.lower() == address.lower():
        raise Conflict(msg("mail for {power} already goes to {address}; nothing changed",
                           power=seat.power, address=address))
    seat.address = address
    clear_bouncing(seat)  # a new address: whether it bounces is not known yet
    session.add(seat)
    record_act(ctx, session, game, actor=actor, command="address",
               args={"power": seat.power, "old_address": old, "new_address": address},
               reason=reason, private=True)
    lang = seat.language
    text = (f"==== gm notice {game.id} ====\n" + translate(msg(
        "The moderator moved the mail of {power} in game {game} to {address} (it went to "
        "{old}). Your password is unchanged; if it is lost, SEND PASSWORD {power} (after the "
        "line GAME {game}) mails a new one to {address}.", power=seat.power, game=game.id,
        address=address, old=old or "-"), lang) + "\n")
    queue_mail(ctx, session, game_id=game.id, kind="notice", to=[a for a in (address, old) if a],
               subject=f"[{game.id}] " + translate(msg("new address for {power}",
                                                       power=seat.power), lang),
               text=text, key=f"moderator-address:{game.id}:{seat.power}:"
                              f"{ctx.clock.now().isoformat()}")
    return old


def send_report(ctx: ServiceContext, session: Session, game: Game, *, actor: str, power: str,
                reason: str = "", private: bool = False) -> Seat:
    """SEND REPORT power / ``gm mod resend``: the current report again, to the seat's own
    address (a player who says it never came; a mailbox that works again). Refused, with
    nothing sent, while the phase is under the moderator's review (RELEASE sends the held
    reports) and for a seat without an address or no longer played."""
    from gm.service.reports import queue_current_report

    seat = get_seat(session, game.id, power)
    if not seat.active or not seat.address:
        raise Conflict(msg("{power} has no player to send it to; nothing was sent",
                           power=seat.power))
    phase = current_phase(session, game.id)
    if under_review(phase):
        raise Conflict(msg("the reports of {phase} are held for your review; RELEASE sends "
                           "them; nothing was sent", phase=phase.phase_id))
    record_act(ctx, session, game, actor=actor, command="send-report",
               args={"power": seat.power, "phase_id": phase.phase_id}, reason=reason,
               private=private)
    queue_current_report(ctx, session, game, phase, seat.power, seat, to=[seat.address],
                         subject=f"[{game.id}] {phase.phase_id}: report for {seat.power}",
                         key=f"report-again:{game.id}:{phase.seq}:{seat.power}:"
                             f"{ctx.clock.now().isoformat()}")
    return seat


def rollback(ctx: ServiceContext, session: Session, game: Game, *, actor: str, phase_id: str,
             fresh_dice: bool = False, reason: str = "", private: bool = False) -> Phase:
    """ROLLBACK TO phase: later phases undone (kept), that phase's orders kept, same dice.

    The phase reopens as a new row (the history keeps the old ones, marked
    ``undone``); its dice branch stays the same unless ``fresh_dice``, which
    takes a new, logged branch so a rollback cannot fish for better dice.

    During the moderator's review (preview) the held reports are withdrawn: they report
    what the rollback undoes. A phase the players were never shown (the one under review)
    reopens still under review: its fresh reports are held until RELEASE.
    """
    from gm.service.reports import withdraw_held_reports

    if under_review(current_phase(session, game.id)):
        withdraw_held_reports(session, game)
    target = session.exec(select(Phase).where(
        Phase.game_id == game.id, Phase.phase_id == phase_id, Phase.state != "undone"
    ).order_by(col(Phase.seq).desc())).first()
    if target is None:
        raise NotFound(f"game {game.id} has no phase '{phase_id}' to roll back to")
    later = list(session.exec(select(Phase).where(
        Phase.game_id == game.id, Phase.seq >= target.seq, Phase.state != "undone")))
    for row in later:
        row.state = "undone"
        session.add(row)
    branches = session.exec(select(func.max(Phase.dice_branch)).where(
        Phase.game_id == game.id, Phase.phase_id == phase_id)).one() or 0
    seq = int(session.exec(select(func.max(Phase.seq)).where(Phase.game_id == game.id)).one()) + 1
    now = ctx.clock.now()
    reopened = Phase(
        game_id=game.id, seq=seq, phase_id=target.phase_id, kind=target.kind, state="open",
        opens_at=now, deadline=deadline_for(game, target.kind, now),
        game_state=target.game_state, info=target.info,
        dice_branch=branches + 1 if fresh_dice else target.dice_branch,
        supplied_dice=target.supplied_dice, supplied_then_seed=target.supplied_then_seed,
        reminders_sent=[], released=target.released,
    )
    session.add(reopened)
    session.flush()
    _copy_orders(session, game.id, target.seq, seq)
    if game.status == "ended":
        game.status = "running"
        session.add(game)
    record_act(ctx, session, game, actor=actor, command="rollback",
               args={"phase_id": phase_id, "fresh_dice": fresh_dice, "undone": [p.seq for p in later]},
               reason=reason, private=private)
    _tell_everyone(ctx, session, game, reopened, reason)
    return reopened


def _copy_orders(session: Session, game_id: str, from_seq: int, to_seq: int) -> None:
    rows = session.exec(select(OrderSet).where(
        OrderSet.game_id == game_id, OrderSet.phase_seq == from_seq, OrderSet.current == True,  # noqa: E712
        OrderSet.source != "default"))
    for row in rows:
        session.add(OrderSet(game_id=game_id, phase_seq=to_seq, power=row.power, version=1,
                             current=True, created_at=row.created_at, source=row.source,
                             inbound_id=row.inbound_id, text=row.text, orders=row.orders,
                             ready=False, wait=row.wait))


def _tell_everyone(ctx: ServiceContext, session: Session, game: Game, phase: Phase, reason: str) -> None:
    """ROLLBACK: every player told, in their language, then sent the fresh report of the
    reopened phase (orders.md §9)."""
    from gm.service.reports import queue_current_report

    if under_review(phase):  # its id is the moderator's until RELEASE
        tell_players(ctx, session, game, what="rollback", key=f"{game.id}:{phase.seq}",
                     subject=msg("rolled back"), reason=reason,
                     text=msg("The moderator rolled game {game} back. Your orders are kept. The "
                              "moderator reviews the position first: your next report names "
                              "the phase and its deadline.", game=game.id))
    else:
        until = (msg("you may change them until {deadline}",
                     deadline=when(utc(phase.deadline))) if phase.deadline
                 else msg("the moderator will set the deadline"))
        tell_players(ctx, session, game, what="rollback", key=f"{game.id}:{phase.seq}",
                     subject=msg("rolled back to {phase}", phase=phase.phase_id), reason=reason,
                     text=msg("The moderator rolled game {game} back to {phase}. Your orders for "
                              "it are kept; {until}. The fresh report follows.", game=game.id,
                              phase=phase.phase_id, until=until))
    for seat in seats(session, game.id):
        if seat.active and seat.address:
            queue_current_report(ctx, session, game, phase, seat.power, seat, to=[seat.address],
                                 subject=f"[{game.id}] {phase.phase_id}: report for {seat.power}",
                                 key=f"report-rollback:{game.id}:{phase.seq}:{seat.power}")


def release(ctx: ServiceContext, session: Session, game: Game, *, actor: str, reason: str = "") -> int:
    """Release held (preview) reports to the players; the phase's clock starts now.

    The held reports were written at the close, with the deadline counted from then: each
    is written again with the one counted from the release (gm.service.reports
    ``rewrite_held_reports``). A seat whose report could not be (none held for its address,
    a context not kept) gets the new-deadline notice instead. An EXTEND made during the
    review applies on top of the deadline counted from the release (:func:`extend`)."""
    from gm.service.reports import queue_deadline_moved, rewrite_held_reports

    held = list(session.exec(select(OutboundMail).where(
        OutboundMail.game_id == game.id, OutboundMail.status == "held")))
    if not held:
        raise Conflict(f"game {game.id} has no reports waiting for release")
    phase = current_phase(session, game.id)
    moved = False
    if not phase.released:
        phase.released = True
        if phase.state == "open":
            old, phase.deadline = phase.deadline, released_deadline(session, game, phase,
                                                                    ctx.clock.now())
            moved = phase.deadline != old
        session.add(phase)
    told = rewrite_held_reports(ctx, session, game, phase, deadline_moved=moved)
    for row in held:
        row.status = "queued"
        row.next_attempt_at = ctx.clock.now()
        session.add(row)
    record_act(ctx, session, game, actor=actor, command="release", args={"mails": len(held)},
               reason=reason)
    if moved:  # a seat told the deadline of the close some other way learns the new one
        queue_deadline_moved(ctx, session, game, phase, told=told)
    return len(held)


def released_deadline(session: Session, game: Game, phase: Phase, now: datetime) -> datetime | None:
    """The deadline RELEASE gives ``phase``: a phase of its kind opening ``now``, moved by
    each EXTEND made during the review, in their order (``by``: added; ``to``: that one)."""
    deadline = deadline_for(game, phase.kind, now)
    acts = session.exec(select(ModeratorAct).where(
        ModeratorAct.game_id == game.id, ModeratorAct.phase_seq == phase.seq,
        ModeratorAct.command == "extend").order_by(col(ModeratorAct.id)))
    for args in (a.args or {} for a in acts):
        if not args.get("at_release"):
            continue
        if "to" in args:
            deadline = utc(datetime.fromisoformat(str(args["to"])))
        else:
            deadline = (deadline or now) + timedelta(seconds=int(args.get("by", 0)))
    return deadline


REVEAL_WARNING = ("the game is still running: once the seed is published, players can "
                  "compute every future roll; add --force to reveal it anyway")


def reveal_seed(ctx: ServiceContext, session: Session, game: Game, *, actor: str, reason: str = "",
                force: bool = False) -> str:
    """Publish the seed. While the game runs this tells every player every future roll,
    so it needs ``force``."""
    if game.status != "ended" and not force:
        raise Conflict(f"game {game.id}: {REVEAL_WARNING}")
    game.seed_revealed = True
    session.add(game)
    record_act(ctx, session, game, actor=actor, command="reveal", args={"seed": game.seed.hex()},
               reason=reason)
    return game.seed.hex()
