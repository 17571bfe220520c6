"""What the moderator looks at, as text: a game (``gm game show``, by mail ``SHOW GAME``),
the mails that arrived for it and those gm could not deliver (``gm mod mails GAME
[--undelivered]``, by mail ``SHOW MAILS [UNDELIVERED]``), its state (``gm state GAME [--as
P]``, by mail ``SHOW STATE [P]``).

One text for both: the command line prints it in English, the moderator's mail reply says it
in the game's ``moderator_language`` (:class:`Said`), naming the mail form of a command where
the command line names ``gm ...``. Never a password: a seat's password is kept only hashed,
an inbound mail is shown by its subject, never its body.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session

from gm.db.models import Game, Seat
from gm.i18n import SOURCE_LANGUAGE, Text, msg, plural, translate
from gm.service.context import ServiceContext
from gm.service.inbox import Arrived
from gm.service.undelivered import Undelivered


@dataclass(frozen=True)
class Said:
    """How a view is said: in ``language``; ``by_mail``: to the moderator's mail (the
    commands he may write by mail), else to the command line."""

    language: str = SOURCE_LANGUAGE
    by_mail: bool = False

    def __call__(self, text: Any) -> str:
        return translate(text, self.language)

    def command(self, cli: str, mail: Text) -> str:
        """The command to run: ``cli`` on the command line, ``mail`` in a mail."""
        return self(mail) if self.by_mail else cli


CLI = Said()


def _at(at: datetime | None) -> str:
    return f"{at:%Y-%m-%d %H:%M}" if at else "-"


# -- gm game show / SHOW GAME ------------------------------------------------------------

def game_view(ctx: ServiceContext, session: Session, game: Game) -> dict[str, Any]:
    """A game's seats, phase, deadline and settings, as data (``gm game show --json``);
    never a password."""
    from gm.service.observers import observers, waiting

    if game.status == "forming":
        return _forming_view(session, game)
    from gm.service.games import current_phase, seats
    from gm.service.roll import roll_call

    phase = current_phase(session, game.id)
    roll = {p.power: p for p in roll_call(session, game, ctx.clock.now()).powers}
    return {"game": game.id, "module": game.module, "scenario": game.scenario,
            "status": "held" if game.hold_reason else game.status,
            "hold": game.hold_reason or None, "held_at": game.held_at,
            "phase": phase.phase_id, "phase_state": phase.state, "deadline": phase.deadline,
            "owing": (phase.info or {}).get("owing", []), "commitment": game.commitment,
            "settings": game.settings, "moderator": game.moderator_address,
            "observers": observers(game), "waiting": waiting(game),
            "seats": [{"power": s.power, "address": s.address, "language": s.language,
                       "timezone": s.timezone, "missed_in_row": s.missed_in_row,
                       "submitted": s.power in roll and roll[s.power].submitted,
                       "ready": s.power in roll and roll[s.power].ready,
                       "late": s.power in roll and roll[s.power].late,
                       "bouncing": _bouncing(s)}
                      for s in seats(session, game.id)]}


def _forming_view(session: Session, game: Game) -> dict[str, Any]:
    from gm.service.forming import needs_approval, pending
    from gm.service.games import seats

    return {"game": game.id, "module": game.module, "scenario": game.scenario,
            "status": "forming", "approve": needs_approval(game), "pending": pending(game),
            "settings": game.settings, "moderator": game.moderator_address,
            "seats": [{"power": s.power, "address": s.address} for s in seats(session, game.id)]}


def game_text(data: dict[str, Any], said: Said = CLI) -> str:
    """:func:`game_view`'s data as people read it."""
    if data["status"] == "forming":
        return _forming_text(data, said)
    g = data["game"]
    text = [f"{g}: {data['module']} {data['scenario']} ({said(status_said(data['status']))})"]
    if data["hold"]:
        unhold = said.command("gm mod unhold " + g, msg("UNHOLD"))
        text += [said(msg("HELD since {since}: {reason}", since=_utc(data["held_at"], said),
                          reason=data["hold"])),
                 "  " + said(msg("(lift it with: {command})", command=unhold))]
    text += [said(msg("phase {phase} ({state}), deadline {deadline}", phase=data["phase"],
                      state=data["phase_state"], deadline=data["deadline"])),
             said(msg("owing orders: {powers}", powers=", ".join(data["owing"])
                      or said(msg("nobody"))))]
    for s in data["seats"]:
        text.append(f"  {s['power']:<14} {s['address']:<32} {_flags(s, said)}".rstrip())
        if s["bouncing"]:
            text.append(_bouncing_line(s["bouncing"], said))
    if data["observers"]:
        text.append(said(msg("observers: {addresses}", addresses=", ".join(data["observers"]))))
    text += [said(msg("waiting: {address} for {power} (since {at})", address=w["address"],
                      power=w["power"], at=w["at"][:16])) for w in data["waiting"]]
    return "\n".join(text)


def _forming_text(data: dict[str, Any], said: Said) -> str:
    g = data["game"]
    joins = (msg("JOIN approved by the moderator") if data["approve"]
             else msg("JOIN seats at once"))
    text = [f"{g}: {data['module']} {data['scenario']} ("
            + said(msg("forming: starts when every seat is filled; {joins}", joins=joins)) + ")"]
    free = said(msg("(open)"))
    text += [f"  {r['power']:<14} {r['address'] or free}" for r in data["seats"]]
    for p in data["pending"]:
        approve = msg("APPROVE {address}", address=p["address"])
        text.append(said(msg("asks to join: {address} for {power} ({command})",
                             address=p["address"], power=p["power"], command=said.command(
                                 "gm mod approve " + g + " " + p["address"], approve))))
    return "\n".join(text)


def status_said(status: str) -> Text | str:
    """A game's status in the reader's language (English: as stored)."""
    said = {"running": msg("running"), "paused": msg("paused"), "ended": msg("ended"),
            "held": msg("held"), "forming": msg("forming")}
    return said.get(status, status)


def _utc(at: datetime | None, said: Said) -> str:
    return f"{at:%Y-%m-%d %H:%M} UTC" if at is not None else said(msg("no deadline"))


def _flags(seat: dict[str, Any], said: Said) -> str:
    """A seat's roll call: submitted, READY, late (gm.service.roll), and BOUNCING when its
    address is marked as bouncing (gm.service.bouncing)."""
    return " ".join(said(w) for w, on in (
        (msg("submitted"), seat["submitted"]), (msg("READY"), seat["ready"]),
        (msg("late"), seat["late"]), (msg("BOUNCING"), seat["bouncing"])) if on)


def _bouncing(seat: Seat) -> dict[str, Any] | None:
    """The seat's mark as bouncing (None: not marked)."""
    from gm.service.bouncing import bouncing

    mark = bouncing(seat)
    if mark is None:
        return None
    return {"address": mark.address, "since": mark.since, "mail": mark.mail, "said": mark.said,
            "count": mark.count}


def _bouncing_line(mark: dict[str, Any], said: Said) -> str:
    """Under a seat whose address bounces: since when, which mail, how many, the server's words."""
    since = f"{mark['since']:%Y-%m-%d %H:%M} UTC" if mark["since"] else "?"
    return "    " + said(msg(
        "bouncing since {since} (mail {mail}; {count}; told once): {words}", since=since,
        mail=mark["mail"], count=plural("1 mail bounced", "{n} mails bounced", mark["count"]),
        words=mark["said"] or msg("no reason given")))


# -- gm mod mails / SHOW MAILS -----------------------------------------------------------

def arrived_text(rows: list[Arrived], game_id: str, sender: str | None = None,
                 said: Said = CLI) -> str:
    """The mails that arrived (gm.service.inbox.arrived), one a line: number, time, sender,
    subject, what gm made of it."""
    text = "\n".join(
        f"#{r.id:<5} {r.received_at:%Y-%m-%d %H:%M}  {r.sender}  \"{r.subject}\"  "
        f"{said(_handled_said(r.status))}" + ("" if r.game_id else said(msg(" (no game)")))
        + (f": {r.note}" if r.note else "") for r in rows)
    if text:
        return text
    return said(msg("{game}: no mail from {sender} has arrived", game=game_id, sender=sender)
                if sender else msg("{game}: no mail has arrived", game=game_id))


def _handled_said(status: str) -> Text | str:
    said = {"handled": msg("handled"), "ignored": msg("ignored"), "failed": msg("failed"),
            "new": msg("new")}
    return said.get(status, status)


def undelivered_text(rows: list[Undelivered], game_id: str, said: Said = CLI,
                     retrying: int = 0) -> str:
    """The mails gm could not deliver (gm.service.undelivered.undelivered), one a line, the
    addresses that did not get it; under it its copies, if queued again, and who still
    waits for one (with the command that sends it again). Last, how many mails still wait
    for a retry after the mail server failed them (``retrying``)."""
    lines = _undelivered_lines(rows, said) or [
        said(msg("{game}: no mail gm sent has failed to be delivered", game=game_id))]
    if retrying:
        lines.append(said(plural(
            "{n} mail waits to be sent: the mail server has not taken it yet, and gm tries "
            "again by itself",
            "{n} mails wait to be sent: the mail server has not taken them yet, and gm tries "
            "again by itself", retrying)))
    return "\n".join(lines)


def _undelivered_lines(rows: list[Undelivered], said: Said) -> list[str]:
    lines = []
    for r in rows:
        seats = f" ({', '.join(r.powers)})" if r.powers else ""
        why_said = sorted({m.said for m in r.missed})
        why = (why_said[0] if len(why_said) == 1
               else "; ".join(f"{m.address}: {m.said}" for m in r.missed))
        others = ("  " + said(msg("({addresses} got it)", addresses=", ".join(r.got)))
                  if r.got else "")
        lines.append(f"#{r.id:<5} {r.queued_at:%Y-%m-%d %H:%M}  {r.kind}  "
                      + said(msg("to {addresses}", addresses=", ".join(r.to)))
                      + f"{seats}  \"{r.subject}\"  {why}{others}")
        for copy in {m.again.id: m.again for m in r.missed if m.again is not None}.values():
            went = (said(msg("sent {at}", at=_at(copy.sent_at))) if copy.status == "sent"
                    and copy.sent_at else copy.status)
            lines.append("       " + said(msg("queued again as mail {mail} to {addresses}: "
                                              "{went}", mail=copy.id,
                                              addresses=", ".join(copy.to), went=went)))
        waiting = [m.address for m in r.missed if m.again is None]
        if waiting:
            again = msg("REQUEUE {mail}", mail=r.id)
            command = said.command("gm mod requeue " + str(r.id), again)
            lines.append("       " + said(
                msg("not sent again: {command}", command=command) if len(waiting) == len(r.missed)
                else msg("not sent again to {addresses}: {command}",
                         addresses=", ".join(waiting), command=command)))
    return lines


# -- gm state / SHOW STATE ------------------------------------------------------------------

def state_view(session: Session, game: Game, power: str | None = None) -> Any:
    """The state of ``game``'s open phase: the full state (the moderator's), or with
    ``power`` what that power may know (its fog view); a power the game does not have is
    refused, naming the game's powers."""
    from gm.service.errors import Conflict
    from gm.service.games import current_phase, module_of

    module = module_of(game)
    state = current_phase(session, game.id).game_state or {}
    powers = module.powers(state)
    if power is not None and power not in powers:
        raise Conflict(msg("game {game} has no power {power!r} (powers: {names})",
                           game=game.id, power=power, names=", ".join(powers)))
    return module.view(state, power)


def state_text(view: Any) -> str:
    """A state as ``gm state`` prints it and ``SHOW STATE`` mails it: JSON, indented, keys
    sorted (the view is a tree; its dotted keys are the paths of ``gm mod set`` and
    ``SET``)."""
    return json.dumps(view, indent=2, sort_keys=True, default=str, ensure_ascii=False)
