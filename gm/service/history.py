"""The moderator's history of a game (``gm history``, issue 19): phases, acts, rulings
once each, orders once revealed (their phase adjudicated) and press, in order of time;
with ``--private`` also the private acts and the mails that bounced (gm.service.bounces).

:func:`history_rows` gives the rows (``gm history --json``); :func:`history_text` reads
them as a human history, one block per phase.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from gm.db.models import EventLog, ModeratorAct, OrderSet, OutboundMail, Phase
from gm.i18n import SOURCE_LANGUAGE, msg, translate
from gm.mail.mime import decode
from gm.service.bounces import EVENT as BOUNCED
from gm.service.pressmail import read_press

_RANK = {"orders": 1, "phase": 2}  # at one instant: acts, the closed phase's orders, the next phase


def history_rows(session: Session, game_id: str, *, private: bool = False,
                 press: bool = True) -> list[dict[str, Any]]:
    """Every phase, moderator act (private ones with ``private``), revealed orders and
    press of ``game_id``, and with ``private`` every mail of it that bounced, oldest first."""
    rows: list[dict[str, Any]] = []
    for p in session.exec(select(Phase).where(Phase.game_id == game_id).order_by(col(Phase.seq))):
        rows.append({"at": p.opens_at, "what": "phase", "phase": p.phase_id, "state": p.state,
                     "seq": p.seq, "deadline": p.deadline, "adjudicated_at": p.adjudicated_at})
        if p.state == "done" and p.adjudicated_at is not None:  # revealed by the adjudication
            sets = session.exec(select(OrderSet).where(
                OrderSet.game_id == game_id, OrderSet.phase_seq == p.seq,
                OrderSet.current == True).order_by(col(OrderSet.power)))  # noqa: E712
            for o in sets:
                rows.append({"at": p.adjudicated_at, "what": "orders", "phase": p.phase_id,
                             "power": o.power, "source": o.source,
                             "orders": [x for x in o.text.splitlines() if x.strip()]})
    for a in session.exec(select(ModeratorAct).where(ModeratorAct.game_id == game_id)):
        if a.private and not private:
            continue
        rows.append({"at": a.at, "what": f"moderator {a.command}", "actor": a.actor,
                     "args": a.args, "reason": a.reason, "private": a.private})
    if private:
        rows += _bounces(session, game_id)
    if press:
        rows += _press(session, game_id)
    rows.sort(key=lambda r: (str(r["at"]), _RANK.get(r["what"], 0)))
    return rows


def _bounces(session: Session, game_id: str) -> list[dict[str, Any]]:
    """Each mail that bounced after the SMTP hand-over, per recipient (the moderator's)."""
    out: list[dict[str, Any]] = []
    for e in session.exec(select(EventLog).where(EventLog.game_id == game_id,
                                                 EventLog.type == BOUNCED).order_by(col(EventLog.seq))):
        d = e.data or {}
        out.append({"at": e.at, "what": "bounce", "mail": d.get("mail"), "kind": d.get("kind", ""),
                    "subject": d.get("subject", ""), "address": d.get("address", ""),
                    "powers": list(d.get("powers") or []), "status": d.get("status", ""),
                    "diagnostic": d.get("diagnostic", ""),
                    # False: the address was marked as bouncing already (gm.service.bouncing)
                    "told": d.get("told", True)})
    return out


def _press(session: Session, game_id: str) -> list[dict[str, Any]]:
    """Each press once (one mail went to each recipient; the moderator's copies skipped)."""
    seen: set[tuple[str, str]] = set()
    out: list[dict[str, Any]] = []
    for m in session.exec(select(OutboundMail).where(
            OutboundMail.game_id == game_id, OutboundMail.kind == "press").order_by(col(OutboundMail.id))):
        read = read_press(decode(m.raw).text)
        if read is None:
            continue
        sender, to, body = read
        key = (f"{sender} {to}", body)  # one press went to each recipient in its language
        if key in seen:
            continue
        seen.add(key)
        out.append({"at": m.created_at, "what": "press", "from": sender, "to": to,
                    "text": body, "held": m.status == "held"})
    return out


def _when(at: datetime | None) -> str:
    return f"{at:%Y-%m-%d %H:%M}" if at else "-"


def _args(args: dict[str, Any] | None) -> str:
    return ", ".join(f"{k} {v}" for k, v in (args or {}).items() if k != "text")


def last_phases(rows: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """``rows`` from the opening of the ``n``-th last phase on (``gm history --last``, by mail
    ``SHOW HISTORY n``); all of them when the game has no more phases."""
    starts = [i for i, r in enumerate(rows) if r["what"] == "phase"]
    return rows[starts[-n]:] if 0 < n < len(starts) else rows


def history_text(rows: list[dict[str, Any]], language: str = SOURCE_LANGUAGE) -> str:
    """The rows as a human history: a heading per phase, what happened in it below, in
    ``language`` (the moderator's, by mail; the orders, press and reasons as written)."""
    def t(text: Any) -> str:
        return translate(text, language)

    out: list[str] = []
    for r in rows:
        what = r["what"]
        if what == "phase":
            out += ["", t(msg("{phase} ({state}): opened {opened}, deadline {deadline}",
                              phase=r["phase"], state=r["state"], opened=_when(r["at"]),
                              deadline=_when(r["deadline"])))
                        + (t(msg(", adjudicated {at}", at=_when(r["adjudicated_at"])))
                           if r["adjudicated_at"] else "")]
        elif what == "orders":
            orders = "; ".join(r["orders"]) or t(msg("(none)"))
            source = f" ({r['source']})" if r["source"] != "mail" else ""
            out.append("  " + t(msg("orders of {power}{source}: {orders}", power=r["power"],
                                    source=source, orders=orders)))
        elif what == "press":
            first = r["text"].splitlines()[0] if r["text"] else ""
            more = " ..." if "\n" in r["text"] else ""
            held = t(msg(" (held)")) if r["held"] else ""
            out.append(f"  {_when(r['at'])}  " + t(msg(
                "press from {sender} to {to}{held}: {text}", sender=r["from"], to=r["to"],
                held=held, text=first + more)))
        elif what == "bounce":
            powers = f" ({', '.join(r['powers'])})" if r["powers"] else ""
            said = " ".join(x for x in (r["status"], r["diagnostic"]) if x)
            out.append(f"  {_when(r['at'])}  " + t(msg(
                "mail {mail} ({kind}) to {address}{powers} bounced: {said}", mail=r["mail"],
                kind=r["kind"], address=r["address"], powers=powers, said=said))
                + ("" if r.get("told", True) else t(msg(" (not told again)")))
                + " " + t(msg("[private]")))
        elif what == "moderator ruling":
            text = (r["args"] or {}).get("text", "")
            out.append(f"  {_when(r['at'])}  " + t(msg("RULING by {actor}: {text}",
                                                       actor=r["actor"], text=text)))
        else:
            reason = f" ({r['reason']})" if r["reason"] else ""
            private = " " + t(msg("[private]")) if r["private"] else ""
            out.append(f"  {_when(r['at'])}  " + t(msg(
                "{what} by {actor}: {args}", what=what, actor=r["actor"], args=_args(r["args"])))
                + f"{reason}{private}")
    return "\n".join(out).strip("\n")
