"""Reports: rendered from a power's view and the events it may see, never the full state.

Each seat gets its report after every adjudication; the moderator gets the
full one. With the game setting ``preview = true`` the players' reports are
held until the moderator releases them (``gm mod release``).

A report mail has a plain-text part, an HTML part with the same facts, the
map of the board as the power may know it (PNG shown inline, SVG attached)
and the next deadline as a calendar file (docs/reports.md).

A held report keeps what it was written from (table ``heldreport``): the release starts
the phase's clock, and :func:`rewrite_held_reports` writes each report again from it with
the deadline counted from the release, everything else as it was at the close.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field, fields, is_dataclass
from datetime import datetime
from itertools import groupby
from typing import Any, cast

from jinja2 import TemplateNotFound
from markupsafe import Markup
from sqlalchemy import String, Table, bindparam, exists, insert, literal, union_all
from sqlalchemy import cast as sa_cast
from sqlalchemy import inspect as sa_inspect
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from gm.clock import utc
from gm.db.engine import session_scope
from gm.db.models import EventLog, Game, HeldReport, ModeratorAct, OutboundMail, Phase, Report, Seat
from gm.dice import RollGroup, group_rolls
from gm.games.base import SPECTATOR, GameModule, map_view
from gm.i18n import Text, as_data, from_data, msg, translate
from gm.mail.compose import Attachment
from gm.maps.source import MAP_SOURCE_NAME, MAP_SOURCE_TYPE, MapSource
from gm.present import calendar
from gm.service.bouncing import bouncing
from gm.service.context import ServiceContext
from gm.service.games import module_of, seats
from gm.service.mapwords import map_words
from gm.service.notify import moderator_address, moderator_language
from gm.service.outbox import insert_rows, queue_mail
from gm.service.phases import events_of, under_review
from gm.service.render import render, render_html


@dataclass
class ReportContext:
    """Everything a report template may use: only what ``power`` may know."""

    game_id: str
    game_title: str
    power: str | None  # None: the moderator
    language: str
    timezone: str
    closed_phase: str
    phase: str
    deadline: Any
    view: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    rolls: list[Any] = field(default_factory=list)  # gm.dice.RollGroup
    rulings: list[str] = field(default_factory=list)
    defaulted: list[str] = field(default_factory=list)
    commitment: str = ""
    ended: bool = False
    phase_seq: int = 0  # the current phase's sequence number (the calendar event's UID)
    opened_at: datetime | None = None  # when the current phase opened (the event's SEQUENCE)
    history: str | None = None  # the game has ended: the attached history's file name
    power_name: str = ""  # who the report is for, in its language ("la Suède", issue 20)
    # the moderator's report only: the seats whose address is marked as bouncing
    # (gm.service.bouncing), each {power, address, since, said}
    bouncing: list[dict[str, Any]] = field(default_factory=list)
    _body: list[str | None] = field(default_factory=list, init=False, repr=False, compare=False)
    """The game's text body once rendered (:func:`_body_text`): the stored text and the
    mail's text share it (issue 21: it was rendered twice a report)."""

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}


@dataclass
class RenderedReport:
    """One report, ready to mail: both parts carry the same facts."""

    text: str
    html: str
    attachments: tuple[Attachment, ...] = ()


META_EVENTS = ("phase.", "adjudication.", "moderator.", "mail.", "game.")
"""The log's own events (a phase opened or adjudicated, a hold...): never a report's lines."""


def visible(row: EventLog, power: str | None) -> bool:
    return power is None or row.visible_to is None or power in row.visible_to


def build_context(game: Game, module: GameModule, closed: Phase | None, current: Phase,
                  power: str | None, seat: Seat | None, rows: list[EventLog],
                  rulings: list[str], defaulted: list[str], *,
                  seat_rows: list[Seat] | None = None,
                  chain: list[Phase] | None = None) -> ReportContext:
    """What ``power``'s report may use (``seat_rows``: the game's seats, read for the
    moderator's report only; ``chain``: the phases a report of several closes at once
    reports, oldest first, ``closed`` the last, their events all in ``rows``)."""
    shown = [r for r in rows if visible(r, power)]
    # the moderator's report in the game's moderator_language, as every notice to them
    language = seat.language if seat else moderator_language(game) if power is None else "en"
    return ReportContext(
        game_id=game.id, game_title=module.title, power=power,
        language=language, timezone=seat.timezone if seat else "UTC",
        closed_phase=", ".join(p.phase_id for p in chain) if chain else
        closed.phase_id if closed else "", phase=current.phase_id,
        deadline=current.deadline,
        view=(module.public_view(current.game_state or {}) if power == SPECTATOR
              else module.view(current.game_state or {}, power)),
        events=[{"type": r.type, "data": r.data or {}, "by": _whose(r, power)} for r in shown
                if r.type != "roll" and not r.type.startswith(META_EVENTS)],
        # grouped phase by phase: a chain's phases each number their dice from 0
        rolls=[g for _, of_phase in groupby((r for r in shown if r.type == "roll"),
                                            key=lambda r: r.phase_seq)
               for g in group_rolls(r.data or {} for r in of_phase)],
        rulings=rulings, commitment=game.commitment,
        defaulted=[_seat_name(module, p, language) for p in defaulted],
        ended=current.state == "ended", phase_seq=current.seq, opened_at=current.opens_at,
        power_name=_seat_name(module, power, language),
        bouncing=bouncing_seats(seat_rows) if power is None and seat_rows else [],
    )


def _whose(row: EventLog, power: str | None) -> str:
    """The one power an event told to that power alone belongs to, when the moderator
    reads it ("" otherwise): the moderator sees every event, and a line a game words for
    its power ("You moved Karl XII ...") names that power instead."""
    if power is None and row.visible_to is not None and len(row.visible_to) == 1:
        return str(next(iter(row.visible_to)))
    return ""


def bouncing_seats(seat_rows: list[Seat]) -> list[dict[str, Any]]:
    """The seats among ``seat_rows`` whose address is marked as bouncing, for the
    moderator's report: power, address, since when (UTC) and the server's words."""
    out = []
    for seat in seat_rows:
        mark = bouncing(seat)
        if mark is not None and mark.since is not None:
            out.append({"power": seat.power, "address": mark.address, "since": utc(mark.since),
                        "said": mark.said or "-"})
    return out


@functools.lru_cache(maxsize=256)
def _seat_name(module: GameModule, power: str | None, language: str) -> str:
    """:meth:`GameModule.seat_name`, remembered (it reads the game's words each time; the
    answer depends only on the game, the seat and the language)."""
    return module.seat_name(power, language)


def render_report(game: Game, ctx: ReportContext) -> str:
    """The text of a report (what is stored for HISTORY); see :func:`render_report_mail`."""
    return _render_text(game, ctx, calendar_name=None, map_cid=None)


def _game_context(ctx: ReportContext) -> dict[str, Any]:
    return {"view": ctx.view, "events": ctx.events, "power": ctx.power}


def _body_text(game: Game, ctx: ReportContext) -> str | None:
    """The game's own text body (``templates/<game>/report.txt.j2``), None without one;
    rendered once per context (it reads only the view, the events and the power)."""
    if not ctx._body:
        try:
            body: str | None = render("report", ctx.language, game.module, game_only=True,
                                      **_game_context(ctx))
        except TemplateNotFound:
            body = None
        ctx._body.append(body)
    return ctx._body[0]


def _render_text(game: Game, ctx: ReportContext, *, calendar_name: str | None,
                 map_cid: str | None, body: str | None = None) -> str:
    """The plain-text part: the mail's frame around the game's own body (or a listing).
    Rendered alone for HISTORY, without the HTML twin nobody reads there (issue 21)."""
    frame = dict(ctx.as_dict(), calendar=calendar_name, map_cid=map_cid)
    body = body if body is not None else _body_text(game, ctx)
    return render("report", ctx.language, None, body=body, **frame)


def _render_parts(game: Game, ctx: ReportContext, *, calendar_name: str | None,
                  map_cid: str | None, map_src: str | None = None,
                  page: dict[str, Any] | None = None) -> tuple[str, str]:
    """The mail's frame (marker, deadline, rulings, map, dice) around the game's own body.

    The body is ``templates/<game>/report.txt.j2`` when the game has
    one (given only ``view``, ``events`` and ``power``), else a generic listing;
    its HTML twin is ``report.html.j2``, else the text body preformatted.
    """
    body = _body_text(game, ctx)
    body_html: Markup | None
    try:
        body_html = Markup(render_html("report", ctx.language, game.module, game_only=True,
                                       **_game_context(ctx)))
    except TemplateNotFound:
        body_html = None if body is None else Markup("<pre style=\"white-space:pre-wrap\">{}</pre>").format(body)
    text = _render_text(game, ctx, calendar_name=calendar_name, map_cid=map_cid, body=body)
    frame = dict(ctx.as_dict(), calendar=calendar_name, map_cid=map_cid)
    html = render_html("report", ctx.language, None, body_html=body_html,
                       map_src=map_src or (f"cid:{map_cid}" if map_cid else None),
                       page=page or {}, **frame)
    return text, html


def render_report_mail(sc: ServiceContext, game: Game, ctx: ReportContext, *,
                       map_cid: str) -> RenderedReport:
    """Text, HTML, map and calendar file of one report mail (``map_cid``: the Content-ID its
    map gets, gm.service.outbox.content_id)."""
    files: list[Attachment] = []
    ics = None if ctx.ended else deadline_calendar(
        sc, game, power=ctx.power, language=ctx.language, phase_id=ctx.phase, seq=ctx.phase_seq,
        opened_at=ctx.opened_at, deadline=ctx.deadline)
    if ics is not None:
        files.append(ics)
    source = map_source(game, ctx)
    if source is None:
        map_cid = ""
    else:  # drawn when the mail is first sent (gm.service.outbox), not here
        files[:0] = [Attachment(b"", "image/png", "map.png", cid=map_cid, render_from="map.svg"),
                     Attachment(b"", "image/svg+xml", "map.svg", render_from=MAP_SOURCE_NAME),
                     Attachment(source, MAP_SOURCE_TYPE, MAP_SOURCE_NAME)]
    text, html = _render_parts(game, ctx, calendar_name="deadline.ics" if ics else None,
                               map_cid=map_cid or None)
    return RenderedReport(text, html, tuple(files))


def deadline_calendar(sc: ServiceContext, game: Game, *, power: str | None, language: str,
                      phase_id: str, seq: int, opened_at: datetime | None,
                      deadline: datetime | None) -> Attachment | None:
    """The phase's deadline as ``deadline.ics`` for ``power`` (None without a deadline)."""
    if deadline is None:
        return None
    issued = sc.clock.now()
    words = render("calendar", language, game.module, game_id=game.id,
                   game_title=module_of(game).title, phase=phase_id, power=power,
                   deadline=deadline, address=sc.service_address).strip().split("\n", 1)
    ics = calendar.deadline_event(
        uid=calendar.deadline_uid(game.id, power or "", seq, sc.mail_domain),
        sequence=calendar.revision(opened_at or issued, issued), deadline=deadline,
        issued=issued, summary=words[0], description=words[-1])
    return Attachment(ics, "text/calendar", "deadline.ics", params={"method": "PUBLISH"})


def map_source(game: Game, ctx: ReportContext) -> bytes | None:
    """What the report's map is drawn from: the game, the power's view, the events it may
    see and the words in its language (gm.maps.draw.MapSource), or None when the game has no
    map. The SVG and its PNG are drawn from it when the mail is first sent (issue 21: drawing
    them inside the transaction that closes a phase was 41% of a deadline storm)."""
    if not (game.settings or {}).get("maps", True) or module_of(game).map_layout() is None:
        return None
    words = map_words(ctx.language, game.module, game_title=ctx.game_title, game_id=game.id,
                      power=ctx.power, power_name=ctx.power_name, phase=ctx.phase,
                      deadline=ctx.deadline, timezone=ctx.timezone, ended=ctx.ended)
    return MapSource(game.module, map_view(ctx.view), ctx.events, words).to_bytes()


def pending_rulings(session: Session, game_id: str) -> list[ModeratorAct]:
    return list(session.exec(_rulings_query(), params={"of_game": game_id}))


@functools.cache
def _rulings_query() -> SelectOfScalar[ModeratorAct]:
    """Built once (issue 21: building a statement cost more than running it), as are the
    other statements of a close."""
    return select(ModeratorAct).where(
        col(ModeratorAct.game_id) == bindparam("of_game"), col(ModeratorAct.command) == "ruling",
        col(ModeratorAct.published) == False, col(ModeratorAct.private) == False)  # noqa: E712


@functools.cache
def _stored_query() -> SelectOfScalar[str]:
    return select(Report.power).where(col(Report.game_id) == bindparam("of_game"),
                                      col(Report.phase_seq) == bindparam("of_seq"),
                                      col(Report.branch) == bindparam("of_branch"))


@functools.cache
def _queued_query() -> SelectOfScalar[str]:
    return select(OutboundMail.message_id).where(
        col(OutboundMail.message_id).in_(bindparam("ids", expanding=True)))


@functools.cache
def _held_press_query() -> SelectOfScalar[OutboundMail]:
    return select(OutboundMail).where(col(OutboundMail.game_id) == bindparam("of_game"),
                                      col(OutboundMail.kind) == "press",
                                      col(OutboundMail.status) == "held")


def queue_phase_reports(ctx: ServiceContext, session: Session, game: Game, closed: Phase | None,
                        current: Phase, *, defaulted: list[str],
                        seat_rows: list[Seat] | None = None, stopped: bool = False) -> None:
    """Render, store and queue every seat's report and the moderator's.

    A close that opens a phase nobody owes orders in queues nothing (:func:`chain_goes_on`):
    that phase is closed at once, and the close that ends such a chain (its next phase owes
    orders, or the game ended) queues one report a reader, of every phase closed in the chain
    (:func:`unreported_before`), in order, then what is ordered now, by when. ``stopped``: the
    chain stopped at ``current`` (it could not be closed: the game held, dice ran out), so
    what was closed before it is reported now.

    ``seat_rows``: the game's seats when the caller has read them in this transaction.
    Which reports are stored and which mails queued already, and whether rulings or held
    press wait, is read in one statement for all of them (:func:`already_there`; issue 21: a
    look-up of each report and, twice, of each mail was a third of a close's statements).
    """
    if closed is not None and not stopped and chain_goes_on(current):
        return  # the close that ends the chain reports it (:func:`unreported_before`)
    module = module_of(game)
    chain = [*unreported_before(session, game, closed), closed] if closed else []
    rows = chain_events(session, game, chain)
    # who defaulted in any phase of the chain, in order (each close logs its defaults)
    defaulted = list(dict.fromkeys([*(p for r in rows if r.type == "phase.adjudicated"
                                      for p in (r.data or {}).get("defaulted", [])), *defaulted]))
    held = bool((game.settings or {}).get("preview")) and closed is not None
    seq = closed.seq if closed else current.seq
    branch = closed.dice_branch if closed else 0
    mod = moderator_address(ctx, game)
    all_seats = seats(session, game.id) if seat_rows is None else seat_rows
    who: list[tuple[str, Seat | None, list[str], bool]] = [(seat.power, seat, [seat.address], held)
           for seat in all_seats if seat.active]
    who.append(("", None, [mod] if mod else [], False))
    observers = [a for a in (game.settings or {}).get("observers", []) if a]
    keys = [_report_key(game.id, seq, branch, power) for power, _, to, _ in who if to]
    keys += [_observer_key(game.id, seq, branch, a) for a in observers]
    there = already_there(ctx, session, game.id, seq, branch, keys)
    stored, queued = there.stored, there.queued
    rulings_rows = pending_rulings(session, game.id) if there.rulings else []
    rulings = [str((r.args or {}).get("text", r.reason)) for r in rulings_rows]
    targets = [(power, build_context(game, module, closed, current, power or None, seat, rows,
                                     rulings, defaulted, seat_rows=all_seats, chain=chain), to,
                hold) for power, seat, to, hold in who]
    final = current.state == "ended"
    if final:  # store every final report first: the history attached to each holds them all
        for power, rc, _, hold in targets:
            _store_and_queue(ctx, session, game, seq, branch, power, current.phase_id, rc, [],
                             hold, stored=stored, queued=queued)
    pages: dict[str, Attachment] = {}
    later: list[dict[str, Any]] = []  # the reports' rows, written together after the mails
    mails: list[OutboundMail] = []  # and their mails, queued together
    for power, rc, to, hold in targets:
        extra: tuple[Attachment, ...] = ()
        if final and to:
            rc.history = HISTORY_FILE
            extra = (_history(session, game, rc.language, pages),)
        _store_and_queue(ctx, session, game, seq, branch, power, current.phase_id, rc, to, hold,
                         extra, stored=stored, queued=queued, later=later, mails=mails)
    insert_rows(session, mails)  # one INSERT of many rows (issue 21: an INSERT each)
    if later:  # one INSERT of many rows (issue 21: an ORM object and an INSERT each)
        session.execute(insert(_REPORT_TABLE), later)  # Core: no ORM bulk insert
    if observers:  # the public report (a spectator's view), never stored as a seat's
        rc = build_context(game, module, closed, current, SPECTATOR, None, rows, rulings, defaulted,
                           chain=chain)
        for address in observers:
            queue_report(ctx, session, game, rc, to=[address],
                         subject=f"[{game.id}] {current.phase_id}: public report",
                         key=_observer_key(game.id, seq, branch, address), held=held,
                         queued=queued, report_of=(seq, branch, None))
    for r in rulings_rows:
        r.published = True
        session.add(r)
    if held:
        current.released = False
        session.add(current)
    elif closed is not None and there.press:
        release_held_press(ctx, session, game)


_REPORT_TABLE = cast(Table, sa_inspect(Report).local_table)

CHAIN_MAX = 100
"""How far back :func:`unreported_before` looks (gm.service.adjudicate bounds a game's run of
phases nobody orders in the same way)."""


def chain_goes_on(current: Phase) -> bool:
    """The phase just opened owes nobody's orders: it is closed at once (gm.service.adjudicate
    ``_follow_on``; after a crash, by the next sweep), so the close that opened it mails no
    report: the close that ends the chain mails one for all of it (docs/reports.md)."""
    info = current.info or {}
    return current.state == "open" and not info.get("owing") and not info.get("ended")


def unreported_before(session: Session, game: Game, after: Phase) -> list[Phase]:
    """The phases closed just before ``after`` whose reports were never mailed (their closes
    opened a phase nobody orders in: :func:`chain_goes_on`), oldest first; none when
    ``after`` owes orders (no close deferred its reports to it: no statement is run).

    Read from the database, not carried in memory, so that a chain a crash cut in two is
    reported whole by whoever closes its last phase: a phase counts as reported when a
    report of it is stored (every report mailed at a close is stored with it)."""
    if (after.info or {}).get("owing"):
        return []
    reported = exists().where(col(Report.game_id) == game.id, col(Report.phase_seq) == col(Phase.seq))
    rows = session.execute(select(Phase, reported).where(
        col(Phase.game_id) == game.id, col(Phase.seq) < after.seq)
        .order_by(col(Phase.seq).desc()).limit(CHAIN_MAX)).all()
    chain: list[Phase] = []
    nxt = after
    for phase, was_reported in rows:
        info = nxt.info or {}
        if (phase.seq != nxt.seq - 1 or phase.state != "done" or was_reported
                or info.get("owing") or info.get("ended")):
            break
        chain.append(phase)
        nxt = phase
    return chain[::-1]


def chain_report_of(session: Session, game: Game, power: str, phase_id: str) -> Report | None:
    """The report that told ``power`` of ``phase_id`` when that phase was closed in a chain
    (:func:`chain_goes_on`): it has no report of its own; the chain's one report is stored
    under the chain's last phase (HISTORY of such a phase sends that one). None when the
    phase was not closed, or was not closed in a chain."""
    seq = session.exec(select(Phase.seq).where(
        col(Phase.game_id) == game.id, col(Phase.phase_id) == phase_id, col(Phase.state) == "done")
        .order_by(col(Phase.seq).desc())).first()
    if seq is None:
        return None
    later = session.exec(select(Report).where(
        col(Report.game_id) == game.id, col(Report.power) == power, col(Report.phase_seq) > seq)
        .order_by(col(Report.phase_seq))).first()
    last = session.exec(select(Phase).where(col(Phase.game_id) == game.id,
                                            col(Phase.seq) == later.phase_seq)).first() \
        if later is not None else None
    if last is None or seq not in {p.seq for p in unreported_before(session, game, last)}:
        return None
    return later


def report_stopped_chain(ctx: ServiceContext, session: Session, game: Game, current: Phase) -> None:
    """The phase nobody orders in that a chain was to close next (``current``) could not be
    closed (the game is held, supplied dice ran out): the phases closed before it, whose
    reports waited for the chain's end, are reported now, ``current`` as what comes next.
    Nothing when there are none."""
    chain = unreported_before(session, game, current)
    if chain:
        queue_phase_reports(ctx, session, game, chain[-1], current, defaulted=[], stopped=True)


def chain_events(session: Session, game: Game, chain: list[Phase]) -> list[EventLog]:
    """The events of every phase of ``chain``, in order. A chain of more than one phase heads
    each phase's events with a ``phase`` event naming it, unless the game's own events begin
    with one (Pax Baltica's do)."""
    out: list[EventLog] = []
    for phase in chain:
        rows = events_of(session, game.id, phase.seq, phase.dice_branch)
        told = [r for r in rows if r.type != "roll" and not r.type.startswith(META_EVENTS)]
        if len(chain) > 1 and not (told and told[0].type == "phase"):
            out.append(EventLog(game_id=game.id, phase_seq=phase.seq, branch=phase.dice_branch,
                                seq=0, at=phase.adjudicated_at or phase.opens_at, type="phase",
                                data={"phase": phase.phase_id},
                                visible_to=None))
        out += rows
    return out


def _report_key(game_id: str, seq: int, branch: int, power: str) -> str:
    return f"report:{game_id}:{seq}:{branch}:{power or 'moderator'}"


def _observer_key(game_id: str, seq: int, branch: int, address: str) -> str:
    return f"report:{game_id}:{seq}:{branch}:observer:{address.lower()}"


@dataclass(frozen=True)
class AlreadyThere:
    """What a close's reports find in the database before they are written."""

    stored: set[str]  # the powers whose report of the phase is stored ("": the moderator)
    queued: set[str]  # the keys a mail is queued under
    rulings: bool  # the game has rulings waiting to be published
    press: bool  # the game has press held until results


def already_there(ctx: ServiceContext, session: Session, game_id: str, seq: int, branch: int,
                  keys: list[str]) -> AlreadyThere:
    """The stored reports of phase ``seq`` (``branch``), which of ``keys`` have a mail queued,
    whether rulings wait and whether press is held, in one statement (issue 21: four
    look-ups, a fourth of a close's statements, that in a deadline storm find nothing; the
    rulings and the press, when there are some, are then read by themselves)."""
    from gm.service.outbox import message_id_for

    ids = {message_id_for(ctx, session, key): key for key in keys}
    found: dict[str, set[str]] = {"stored": set(), "queued": set(), "ruling": set(), "press": set()}
    for what, value in session.execute(_there_query(), {"of_game": game_id, "of_seq": seq,
                                                         "of_branch": branch, "ids": list(ids)}):
        found[what].add(value)
    return AlreadyThere(stored=found["stored"], queued={ids[mid] for mid in found["queued"]},
                        rulings=bool(found["ruling"]), press=bool(found["press"]))


@functools.cache
def _there_query() -> Any:
    """:func:`already_there`'s statement: (what, value) rows, built once."""
    def tagged(what: str, column: Any) -> Any:
        return select(literal(what, String).label("what"), sa_cast(column, String).label("value"))

    rulings = _rulings_query().whereclause
    press = _held_press_query().whereclause
    return union_all(
        tagged("stored", Report.power).where(_stored_query().whereclause),
        tagged("queued", OutboundMail.message_id).where(_queued_query().whereclause),
        tagged("ruling", ModeratorAct.id).where(rulings),
        tagged("press", OutboundMail.id).where(press))


def queued_keys(ctx: ServiceContext, session: Session, keys: list[str]) -> set[str]:
    """Those of ``keys`` a mail is queued under already, in one statement."""
    from gm.service.outbox import message_id_for

    if not keys:
        return set()
    ids = {message_id_for(ctx, session, key): key for key in keys}
    found = session.exec(_queued_query(), params={"ids": list(ids)})
    return {ids[mid] for mid in found}


def release_held_press(ctx: ServiceContext, session: Session, game: Game) -> int:
    """Send the press held until results (game setting ``press_held``, gm.pipeline.press)
    with the reports now going out; with ``preview`` they stay held, as the reports do,
    until the moderator releases them all (gm.service.moderator.release)."""
    rows = list(session.exec(_held_press_query(), params={"of_game": game.id}))
    for row in rows:
        row.status, row.next_attempt_at = "queued", ctx.clock.now()
        session.add(row)
    return len(rows)


HISTORY_FILE = "history.html"


def _history(session: Session, game: Game, language: str,
             pages: dict[str, Attachment]) -> Attachment:
    """The archive's reveal page (gm.service.archive) as the final reports' attachment."""
    if language not in pages:
        from gm.service.archive import reveal_page

        # text, not bytes: a text part is sent with its charset (utf-8); bytes went out
        # without one and mail clients read the accents as US-ASCII (issue 5)
        pages[language] = Attachment(reveal_page(session, game, language), "text/html",
                                     HISTORY_FILE)
    return pages[language]


def _store_and_queue(ctx: ServiceContext, session: Session, game: Game, seq: int, branch: int,
                     power: str, phase_id: str, rc: ReportContext, to: list[str], held: bool,
                     extra: tuple[Attachment, ...] = (), *, stored: set[str],
                     queued: set[str], later: list[dict[str, Any]] | None = None,
                     mails: list[OutboundMail] | None = None) -> None:
    """Store ``power``'s report unless ``stored`` (the powers whose report is stored) has
    it, and queue its mail to ``to`` unless ``queued`` (keys) has it; both are kept up to
    date. With ``later`` the report row's values are put there for the caller to insert
    (the rows of a close then go to the database together), else added to the session now;
    with ``mails`` the mail's row likewise (:func:`queue_report`)."""
    who = power or "moderator"
    if power not in stored:
        values: dict[str, Any] = dict(game_id=game.id, phase_seq=seq, branch=branch, power=power,
                                      phase_id=phase_id, text=render_report(game, rc),
                                      created_at=ctx.clock.now())
        if later is None:
            session.add(Report(**values))
        else:
            later.append(values)
        stored.add(power)
    if not to:
        return
    queue_report(ctx, session, game, rc, to=to, subject=f"[{game.id}] {phase_id}: report for {who}",
                 key=_report_key(game.id, seq, branch, power), held=held, extra=extra,
                 queued=queued, mails=mails, report_of=(seq, branch, power))


def queue_report(ctx: ServiceContext, session: Session, game: Game, rc: ReportContext, *,
                 to: list[str], subject: str, key: str, held: bool = False,
                 extra: tuple[Attachment, ...] = (), queued: set[str] | None = None,
                 mails: list[OutboundMail] | None = None,
                 report_of: tuple[int, int, str | None] | None = None) -> None:
    """Queue one report mail under ``key``; nothing is rendered when ``key`` is already queued.
    ``extra``: more attachments (the final reports' history). ``queued``: the keys a mail
    is queued under, read in this transaction by :func:`queued_keys` (else ``key`` is looked
    up here); ``key`` is added to it. With ``mails`` the mail's row is put there for the
    caller to queue with the others (gm.service.outbox.insert_rows), else queued now.
    ``report_of``: the phase, branch and power its stored copy is kept under (power None:
    none, an observer's); a ``held`` report keeps its context for the release with it."""
    if key in queued if queued is not None else already_queued(ctx, session, key):
        return
    from gm.service.outbox import MailFields, content_id, outbound_row

    mail = render_report_mail(ctx, game, rc, map_cid=content_id(ctx, session, key))
    what = MailFields(game_id=game.id, kind="report", to=to, subject=subject, text=mail.text,
                      html=mail.html, attachments=mail.attachments + extra, key=key, held=held)
    if mails is None:
        queue_mail(ctx, session, **what, looked_up=True)
    else:
        mails.append(outbound_row(ctx, session, **what))
    if queued is not None:
        queued.add(key)
    if held and report_of is not None and not rc.ended:
        keep_for_release(ctx, session, game, rc, key=key, report_of=report_of)


def keep_for_release(ctx: ServiceContext, session: Session, game: Game, rc: ReportContext, *,
                     key: str, report_of: tuple[int, int, str | None]) -> None:
    """Keep what the held report queued under ``key`` was written from, so the release can
    write it again with the deadline counted from then (:func:`rewrite_held_reports`).
    When JSON would not give the context back as it is, nothing is kept: that report goes
    out as written, and its player gets the new-deadline notice (gm.service.moderator
    ``release``)."""
    from gm.service.outbox import message_id_for

    data = context_to_json(rc)
    if data is None:
        return
    seq, branch, power = report_of
    session.add(HeldReport(game_id=game.id, message_id=message_id_for(ctx, session, key),
                           key=key, phase_seq=seq, branch=branch, power=power, context=data))


def context_to_json(rc: ReportContext) -> dict[str, Any] | None:
    """``rc`` as JSON (:func:`context_from_json` reads it), or None when reading it back
    would not give ``rc`` exactly, types included (a view holding a tuple, a number as a
    key...): a report written again from it could then say something else. A message kept
    to be said in the reader's language (gm.i18n ``Text``: a roll's purpose) is kept as
    its data (gm.i18n ``as_data``), so it is said as before."""
    rolls = [{"purpose": g.purpose, "source": g.source, "values": list(g.values),
              "first": g.first, "last": g.last} for g in rc.rolls]
    data = dict(rc.as_dict(), deadline=_iso(rc.deadline), opened_at=_iso(rc.opened_at),
                rolls=rolls)
    try:
        kept = json.loads(json.dumps(_to_json(data)))
    except (TypeError, ValueError):
        return None
    return kept if _same(context_from_json(kept), rc) else None


def context_from_json(data: dict[str, Any]) -> ReportContext:
    """The :class:`ReportContext` :func:`context_to_json` kept."""
    kept = _from_json(data)
    rolls = [RollGroup(g["purpose"], g["source"], tuple(g["values"]), g["first"], g["last"])
             for g in kept["rolls"]]
    return ReportContext(**dict(kept, deadline=_moment(kept["deadline"]),
                                opened_at=_moment(kept["opened_at"]), rolls=rolls))


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _moment(iso: str | None) -> datetime | None:
    return None if iso is None else datetime.fromisoformat(iso)


_TEXT = "__gm_text__"
"""The key of the one-key mapping a kept context holds a gm.i18n ``Text`` in."""


def _to_json(value: Any) -> Any:
    if isinstance(value, Text):
        return {_TEXT: as_data(value)}
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise TypeError("a key that is not text")
        return {k: _to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_to_json(v) for v in value]
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, dict):
        if len(value) == 1 and _TEXT in value:
            return from_data(value[_TEXT])
        return {k: _from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


def _same(a: Any, b: Any) -> bool:
    """``a == b``, and of the same types all the way down (a ``Text`` equals its English
    string, a tuple never equals a list); messages with the same data."""
    if type(a) is not type(b):
        return False
    if isinstance(a, Text):
        return bool(as_data(a) == as_data(b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(v, b[k]) for k, v in a.items())
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if is_dataclass(a):
        return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a)
                   if f.compare)
    return bool(a == b)


def rewrite_held_reports(ctx: ServiceContext, session: Session, game: Game, phase: Phase, *,
                         deadline_moved: bool) -> set[str]:
    """At the release: when ``deadline_moved``, write each held report that opens ``phase``
    again from its kept context with the phase's deadline now (text, HTML, calendar file,
    the map's words), under the same Message-ID, and its stored copy (HISTORY) too; nothing
    else changes, as the context is the one of the close (its rulings, events, dice,
    position). The kept contexts of the game are then dropped. Returns the addresses
    (lower case) whose report now names the phase's deadline."""
    kept = list(session.exec(select(HeldReport).where(HeldReport.game_id == game.id)))
    if not kept:
        return set()
    mails = {m.message_id: m for m in session.exec(select(OutboundMail).where(
        col(OutboundMail.message_id).in_([k.message_id for k in kept]),
        OutboundMail.status == "held"))}
    told: set[str] = set()
    for held in kept:
        mail = mails.get(held.message_id)
        rc = context_from_json(held.context) if held.context else None
        if deadline_moved and mail is not None and rc is not None and rc.phase_seq == phase.seq:
            rc.deadline = phase.deadline
            _rewrite_mail(ctx, session, game, rc, mail, held.key)
            if held.power is not None:
                _rewrite_stored(session, game, held, rc)
            told |= {a.lower() for a in mail.recipients or []}
        session.delete(held)
    return told


def _rewrite_mail(ctx: ServiceContext, session: Session, game: Game, rc: ReportContext,
                  mail: OutboundMail, key: str) -> None:
    """``mail`` built again from ``rc``: same key (Message-ID, map's Content-ID), recipients
    and subject."""
    from gm.service.outbox import content_id, outbound_values

    report = render_report_mail(ctx, game, rc, map_cid=content_id(ctx, session, key))
    mail.raw = outbound_values(ctx, session, game_id=game.id, kind=mail.kind,
                               to=list(mail.recipients or []), subject=mail.subject,
                               text=report.text, html=report.html,
                               attachments=report.attachments, key=key)["raw"]
    session.add(mail)


def _rewrite_stored(session: Session, game: Game, held: HeldReport, rc: ReportContext) -> None:
    stored = session.exec(select(Report).where(
        Report.game_id == game.id, Report.phase_seq == held.phase_seq,
        Report.branch == held.branch, Report.power == held.power)).first()
    if stored is not None:
        stored.text = render_report(game, rc)
        session.add(stored)


def already_queued(ctx: ServiceContext, session: Session, key: str) -> bool:
    return bool(queued_keys(ctx, session, [key]))


def current_report(ctx: ServiceContext, session: Session, game: Game, current: Phase,
                   power: str | None, seat: Seat | None) -> str:
    """The text of a fresh report of the current position."""
    module = module_of(game)
    rc = build_context(game, module, None, current, power, seat, [], [], [],
                       seat_rows=seats(session, game.id) if power is None else None)
    return render_report(game, rc)


def queue_current_report(ctx: ServiceContext, session: Session, game: Game, current: Phase,
                         power: str | None, seat: Seat | None, *, to: list[str], subject: str,
                         key: str) -> None:
    """Mail a fresh report of the current position (a game's start, a new player, a
    rollback). While ``current`` is under the moderator's review (preview) it is held with
    the phase's other reports and written again at the release with its deadline."""
    rc = build_context(game, module_of(game), None, current, power, seat, [], [], [])
    held = under_review(current)
    queue_report(ctx, session, game, rc, to=to, subject=subject, key=key, held=held,
                 report_of=(current.seq, current.dice_branch, None) if held else None)


def withdraw_held_reports(session: Session, game: Game, *, to: str | None = None,
                          power: str | None = None) -> int:
    """Take back the held reports of ``game`` (only those to address ``to`` and for seat
    ``power`` when given): marked ``withdrawn``, never sent, their kept contexts dropped.
    A rollback during the review undoes what they report; a seat given to a new player
    during it is no longer the old player's to read. Returns how many."""
    rows = [row for row in session.exec(select(OutboundMail).where(
        OutboundMail.game_id == game.id, OutboundMail.kind == "report",
        OutboundMail.status == "held"))
        if (to is None or to.lower() in {a.lower() for a in row.recipients or []})
        and (power is None or (row.subject or "").endswith(f": report for {power}"))]
    ids = [row.message_id for row in rows]
    for kept in session.exec(select(HeldReport).where(col(HeldReport.message_id).in_(ids))):
        session.delete(kept)
    for row in rows:
        row.status = "withdrawn"
        session.add(row)
    return len(rows)


def queue_deadline_moved(ctx: ServiceContext, session: Session, game: Game, phase: Phase,
                         reason: str = "", *, told: set[str] | None = None) -> None:
    """Tell every active seat the phase's new deadline, with a calendar file replacing the old.

    The file has the same UID as the one the phase's report carried and a higher
    SEQUENCE, so calendars move the event instead of adding one. ``told``: addresses (lower
    case) whose report names the new deadline already (a release), told nothing more.
    """
    if phase.deadline is None:
        return
    stamp = phase.deadline.strftime("%Y%m%dT%H%M%S")
    for seat in seats(session, game.id):
        if not seat.active or not seat.address or seat.address.lower() in (told or ()):
            continue
        ics = deadline_calendar(ctx, game, power=seat.power, language=seat.language,
                                phase_id=phase.phase_id, seq=phase.seq, opened_at=phase.opens_at,
                                deadline=phase.deadline)
        words: dict[str, Any] = dict(game_id=game.id, phase=phase.phase_id, deadline=phase.deadline,
                     timezone=seat.timezone, reason=translate(reason, seat.language),
                     calendar="deadline.ics")
        queue_mail(ctx, session, game_id=game.id, kind="notice", to=[seat.address],
                   subject=f"[{game.id}] " + translate(
                       msg("{phase}: new deadline", phase=phase.phase_id), seat.language),
                   text=render("deadline", seat.language, game.module, **words),
                   html=render_html("deadline", seat.language, game.module, **words),
                   attachments=[ics] if ics else [], phase_bound=True,
                   key=f"deadline:{game.id}:{phase.seq}:{seat.power}:{stamp}")


def warm_up(ctx: ServiceContext) -> int:
    """Render, without storing or queueing anything, one report of the current phase per
    game module, scenario and seat language of the running games: the game modules are
    imported, their boards loaded, the report templates compiled (or loaded, see
    gm.service.render) and each language's catalogue and locale data read before the first
    deadline, not inside it (issue 21: a fresh process's first close took 2 s of CPU, the
    next ones 50 ms). Returns how many reports it rendered. Reads only."""
    from gm.mail.compose import build_message
    from gm.service.games import current_phase

    done: set[tuple[str, str, str]] = set()
    with session_scope(ctx.engine) as session:
        # the languages in use, read once: a host with 1,000 games of a few scenarios reads
        # the seats of a handful of games, not of every game
        languages = set(session.exec(
            select(Seat.language).join(Game, col(Game.id) == col(Seat.game_id))
            .where(Game.status == "running", col(Seat.active)).distinct()).all())
        for game in session.exec(select(Game).where(Game.status == "running")).all():
            if all((game.module, game.scenario, lang) in done for lang in languages):
                continue
            for seat in seats(session, game.id):
                key = (game.module, game.scenario, seat.language)
                if key in done or not seat.active:
                    continue
                done.add(key)
                current = current_phase(session, game.id)
                rc = build_context(game, module_of(game), None, current, seat.power, seat,
                                   [], [], [])
                render_report(game, rc)
                mail = render_report_mail(ctx, game, rc, map_cid="map.warm-up@invalid")
                build_message(from_addr=ctx.service_address, to=[ctx.service_address],
                              subject="warm-up", text=mail.text, html=mail.html,
                              message_id="<warm-up@invalid>", attachments=mail.attachments)
        session.rollback()
    return len(done)
