"""A game's public history as a static HTML site (``gm archive GAME --out DIR``).

``index.html`` lists the phases; ``phase-<seq>.html`` is each phase's public
report (the spectator's view, ``GameModule.public_view``, and the events and
rolls everyone may see) with its map (``map-<seq>.svg``), the moderator's public
rulings and the press sent to every power. Once the game has ended,
``reveal.html`` adds what was secret: every report each power received, every
roll with its audience, and the seed (checked against the commitment). HISTORY
by mail sends one phase page (:func:`phase_record`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup
from sqlmodel import Session, col, select

from gm.db.models import EventLog, Game, ModeratorAct, OutboundMail, Phase, Report
from gm.dice import commitment
from gm.games.base import SPECTATOR
from gm.i18n import N_, from_data
from gm.mail.mime import decode
from gm.maps.draw import draw_svg
from gm.service.games import module_of, seats
from gm.service.mapwords import map_words
from gm.service.phases import events_of
from gm.service.pressmail import read_press
from gm.service.render import render_html
from gm.service.reports import _render_parts, build_context

# TRANSLATORS: the state of a phase in the archive index
SHOWN_STATES = (N_("done"), N_("ended"), N_("open"), N_("adjudicating"))


@dataclass
class PhaseRecord:
    """One phase as the public saw it: the report's text and HTML, its map, rulings, press."""

    phase: Phase
    text: str
    html: str
    svg: str | None
    rulings: list[str] = field(default_factory=list)
    press: list[tuple[str, str]] = field(default_factory=list)


def shown_phases(session: Session, game_id: str) -> list[Phase]:
    rows = session.exec(select(Phase).where(Phase.game_id == game_id).order_by(col(Phase.seq)))
    return [p for p in rows if p.state in SHOWN_STATES]


def public_rulings(session: Session, game_id: str, seq: int) -> list[str]:
    acts = session.exec(select(ModeratorAct).where(
        ModeratorAct.game_id == game_id, ModeratorAct.phase_seq == seq,
        ModeratorAct.private == False).order_by(col(ModeratorAct.id)))  # noqa: E712
    return [f"{a.command}: {(a.args or {}).get('text') or a.reason or ''}".rstrip(": ")
            for a in acts]


def public_press(session: Session, game_id: str, start: Any, end: Any) -> list[tuple[str, str]]:
    """Press sent to every power between ``start`` and ``end``, once each (sender, text).

    Only press a player was sent: not the moderator's copy alone (under ``press =
    moderator-only`` a PRESS TO ALL reaches the moderator only, and mails stored before
    that press said so still read "to all"), nor press held until the results
    (``press_held``) while it is held."""
    rows = session.exec(select(OutboundMail).where(
        OutboundMail.game_id == game_id, OutboundMail.kind == "press").order_by(col(OutboundMail.id)))
    players = {s.address.lower() for s in seats(session, game_id) if s.address}
    out: list[tuple[str, str]] = []
    for r in rows:
        if r.created_at < start or (end is not None and r.created_at >= end):
            continue
        if r.status == "held" or not players & {a.lower() for a in r.recipients or ()}:
            continue
        read = read_press(decode(r.raw).text)
        if read and read[1] == "all" and (read[0], read[2]) not in out:
            out.append((read[0], read[2]))
    return out


def phase_record(session: Session, game: Game, phase: Phase, language: str = "en",
                 page: dict[str, Any] | None = None, map_src: str | None = None) -> PhaseRecord:
    """Phase ``phase`` as the public saw it once it closed (or now, while it is open)."""
    module = module_of(game)
    later = [p for p in shown_phases(session, game.id) if p.seq > phase.seq]
    after = later[0] if later and phase.state != "open" else phase
    closed = phase if after is not phase else None
    rows = events_of(session, game.id, phase.seq, phase.dice_branch) if closed else []
    rulings = public_rulings(session, game.id, phase.seq)
    rc = build_context(game, module, closed, after, SPECTATOR, None, rows, rulings, [])
    rc.language = language
    words = map_words(language, game.module, game_title=rc.game_title, game_id=game.id,
                      power=None, phase=rc.phase, deadline=rc.deadline, timezone="UTC",
                      ended=rc.ended)
    words["title"] = words["title"].rsplit(":", 1)[0]
    svg = draw_svg(module, rc.view, rc.events, words)
    press = [(who if who == "anonymous" else module.power_said(who, language), t)  # a name, not an id
             for who, t in public_press(session, game.id, phase.opens_at,
                                        after.opens_at if after is not phase else None)]
    extra = render_html("archive_extra", language, None, press=press)
    text, html = _render_parts(game, rc, calendar_name=None, map_cid=None,
                               map_src=map_src if svg else None,
                               page={**(page or {}), "extra": Markup(extra)})
    if press:
        text += "\n" + "\n".join(f"Press from {who} to all: {t}" for who, t in press) + "\n"
    return PhaseRecord(phase, text, html, svg, rulings, press)


def write_archive(session: Session, game: Game, out: Path, language: str = "en") -> list[Path]:
    """Write the site into ``out``; return the files written."""
    out.mkdir(parents=True, exist_ok=True)
    phases = shown_phases(session, game.id)
    ended = game.status == "ended" or any(p.state == "ended" for p in phases)
    written: list[Path] = []
    nav_base = [("index.html", "index")] + ([("reveal.html", "reveal")] if ended else [])
    entries = []
    for i, p in enumerate(phases):
        nav = list(nav_base)
        if i:
            nav.append((f"phase-{phases[i - 1].seq}.html", phases[i - 1].phase_id))
        if i + 1 < len(phases):
            nav.append((f"phase-{phases[i + 1].seq}.html", phases[i + 1].phase_id))
        rec = phase_record(session, game, p, language, page={"nav": nav},
                           map_src=f"map-{p.seq}.svg")
        if rec.svg:
            written.append(_write(out / f"map-{p.seq}.svg", rec.svg))
        written.append(_write(out / f"phase-{p.seq}.html", rec.html))
        entries.append({"file": f"phase-{p.seq}.html", "phase": p.phase_id, "state": p.state,
                        "deadline": p.deadline, "adjudicated": p.adjudicated_at,
                        "rulings": rec.rulings, "press": len(rec.press)})
    written.append(_write(out / "index.html", render_html(
        "archive_index", language, None, phases=entries, **_common(session, game, ended))))
    if ended:
        written.append(_write(out / "reveal.html", reveal_page(session, game, language)))
    return written


def _common(session: Session, game: Game, ended: bool) -> dict[str, Any]:
    return dict(game_id=game.id, game_title=module_of(game).title, scenario=game.scenario,
                powers=[s.power for s in seats(session, game.id)], commitment=game.commitment,
                ended=ended)


def reveal_page(session: Session, game: Game, language: str = "en") -> str:
    """``reveal.html``: every report each power received, every roll with its audience,
    and the seed checked against the commitment (only once the game has ended)."""
    phases = shown_phases(session, game.id)
    return render_html("archive_reveal", language, None, seed=game.seed.hex(),
                       seed_ok=commitment(game.seed, game.id) == game.commitment,
                       reveal=_reveal(session, game, phases, language),
                       **_common(session, game, True))


def _reveal(session: Session, game: Game, phases: list[Phase],
            language: str = "en") -> list[dict[str, Any]]:
    """Every phase's reports (named for their reader in ``language``) and rolls (their
    purpose as a message, said in the reader's language: issue 20)."""
    module = module_of(game)
    out = []
    for p in phases:
        reports = session.exec(select(Report).where(
            Report.game_id == game.id, Report.phase_seq == p.seq).order_by(col(Report.power)))
        rolls = session.exec(select(EventLog).where(
            EventLog.game_id == game.id, EventLog.phase_seq == p.seq, EventLog.type == "roll",
            EventLog.branch == p.dice_branch).order_by(col(EventLog.seq)))
        out.append({"phase": p.phase_id, "seq": p.seq,
                    "reports": [(module.seat_name(r.power, language), r.text) for r in reports],
                    "rolls": [{"index": (r.data or {}).get("index"),
                               "purpose": from_data((r.data or {}).get("purpose_msg"))
                               or (r.data or {}).get("purpose"),
                               "value": (r.data or {}).get("value"),
                               "source": (r.data or {}).get("source"),
                               "audience": ", ".join(r.visible_to or []) or "all"} for r in rolls]})
    return out


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def queue_history(ctx: Any, session: Session, game: Game, *, to: str, language: str,
                  reports: list[Report], subject: str, key: str) -> None:
    """HISTORY by mail: the power's own report(s) as it received them and, for the phase
    asked for, the archive's public page (report, map, public rulings and press)."""
    from gm.mail.compose import Attachment
    from gm.service.outbox import content_id, queue_mail

    own = "\n\n".join(r.text for r in reports)
    last = reports[-1]
    phase = next((p for p in shown_phases(session, game.id) if p.seq == last.phase_seq), None)
    rec = None if phase is None else phase_record(
        session, game, phase, language, map_src="cid:" + content_id(ctx, session, key),
        page={"own": own})
    if rec is None:
        queue_mail(ctx, session, game_id=game.id, kind="report", to=[to], subject=subject,
                   text=own, key=key)
        return
    files = [] if rec.svg is None else [
        Attachment(b"", "image/png", "map.png", cid=content_id(ctx, session, key), render_from="map.svg"),
        Attachment(rec.svg, "image/svg+xml", "map.svg")]
    queue_mail(ctx, session, game_id=game.id, kind="report", to=[to], subject=subject,
               text=own + "\n\n" + rec.text, html=rec.html, attachments=files, key=key)

