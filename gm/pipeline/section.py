"""Carrying out one section of an order mail: sign-on, guard, commands, orders.

Runs inside the mail's transaction. What must happen after the commit
(closing a phase for ``ADJUDICATE NOW`` or an all-READY game) is returned as
:class:`AfterCommit` work for the caller.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session, col, select

from gm.clock import utc
from gm.db.models import Game, Phase, Seat
from gm.i18n import Name, msg, plural, translate
from gm.mail.mime import DecodedMail
from gm.orders import commands as c
from gm.orders.envelope import CommandLine, OrderLine, Problem, Section
from gm.orders.model import SourceLine
from gm.pipeline.arrival import RESOLUTION
from gm.pipeline.commands import CommandRunner
from gm.pipeline.reply import Entry, SectionReply
from gm.pipeline.signon import check_signon, choose_game
from gm.pipeline.unsigned import unread
from gm.service.bouncing import bouncing
from gm.service.bouncing import clear as clear_bouncing
from gm.service.context import ServiceContext
from gm.service.deadlines import Lateness, lateness
from gm.service.errors import ServiceError
from gm.service.games import (
    current_orders,
    current_phase,
    module_of,
    phase_info,
    seat_for_power,
    seats,
)
from gm.service.notify import moderator_language
from gm.service.orders import set_flags, submit_orders

log = logging.getLogger("gm.pipeline")


@dataclass
class AfterCommit:
    close: list[tuple[str, int, str, str]] = field(default_factory=list)  # game, seq, by, why
    # RETRY: mails whose handling failed, handled again once this one is stored, each with the
    # game whose moderator asked (told if it fails again) and the asking mail's number
    retry: list[tuple[str, int, int]] = field(default_factory=list)
    ready_check: set[str] = field(default_factory=set)  # games to test for early adjudication
    # The mail's own transaction committed it handled or ignored: it is no longer "new"
    # (the daemon then flags it without reading its row again).
    settled: bool = False
    # A moderator's section or a forming game's (which may start it): phases and deadlines
    # may have changed, so the daemon looks again for a due die-rolling step (gm.daemon.DueCheck).
    phases_may_change: bool = False

    def changes_phases(self) -> bool:
        return bool(self.phases_may_change or self.close or self.ready_check or self.retry)


@dataclass
class SectionContext:
    ctx: ServiceContext
    session: Session
    mail: DecodedMail
    inbound_id: int
    after: AfterCommit
    arrived: datetime  # when the mail reached the mailbox (gm.pipeline.arrival): its lateness
    signed_on: dict[int, Seat] = field(default_factory=dict)  # the seats signed on, by id


def handle_section(sc: SectionContext, section: Section) -> SectionReply:
    """Everything one sign-on asked for; a rejected section changes nothing."""
    reply = SectionReply()
    for err in section.errors:
        if not err.fatal:
            reply.error(err.line, msg("{problem} ({detail})", problem=msg(err.problem.value), detail=err.detail)
                        if err.detail else msg(err.problem.value))
    choice = choose_game(sc.session, section, sc.mail.plus_tag(sc.ctx.service_address),
                         sc.mail.from_addr)
    help_only = section.signon is None and any(isinstance(x, c.Help) for x in section.commands)
    list_only = section.signon is None and any(isinstance(x, c.List) for x in section.commands)
    if list_only and section.game is None and sc.mail.plus_tag(sc.ctx.service_address) is None:
        CommandRunner.list_games(sc, reply)  # LIST without a game: the games here
        return reply
    if choice.game is None:
        if help_only:
            asked = _help_asked(sc, section, None)
            reply.language = asked[1]
            CommandRunner.general_help(reply, running_games(sc.session), asked[1])
            return reply
        reply.rejected = choice.problem
        return reply
    game = choice.game
    reply.game_id = game.id
    if game.status == "forming":
        sc.after.phases_may_change = True
        _forming_section(sc, section, game, reply, help_only=help_only, list_only=list_only)
        return reply
    phase = current_phase(sc.session, game.id)
    held = phase.state == "open" and not phase.released  # preview: the moderator reviews
    if not held:  # a held phase's id and deadline are the moderator's until RELEASE
        reply.phase, reply.deadline = phase.phase_id, phase.deadline
    if help_only:
        _answer_help(sc, section, game, reply)
        return reply
    if list_only:
        CommandRunner.list_game(sc, reply, game)
        return reply
    if section.signon is None and any(isinstance(x, c.Join) for x in section.commands):
        for cmd in section.commands:
            if isinstance(cmd, c.Join):
                CommandRunner.ask_to_join(sc, reply, game, cmd.power)
        return reply
    if section.signon is None and any(isinstance(x, c.Observe) for x in section.commands):
        CommandRunner.ask_to_observe(sc, reply, game)
        return reply
    if section.signon is None and any(isinstance(x, c.SendPassword) for x in section.commands):
        for cmd in section.commands:
            if isinstance(cmd, c.SendPassword):
                CommandRunner.send_password(sc, reply, game, cmd.power)
        return reply
    fatal = [e for e in section.errors if e.fatal]
    if fatal:
        reply.rejected = msg(fatal[0].problem.value)
        _list_unread(sc, section, game, reply, fatal[0].problem is Problem.NO_PASSWORD)
        return reply
    signon = check_signon(sc.ctx, sc.session, game, section, sc.mail.from_addr, sc.inbound_id)
    if not signon.ok:
        reply.rejected = signon.problem
        return reply
    seat = signon.seat
    if seat is not None:
        reply.power, reply.timezone, reply.seat_id = seat.power, seat.timezone, seat.id
        reply.power_name = module_of(game).power_name(seat.power)
        sc.signed_on[int(seat.id or 0)] = seat
        _mailbox_works(sc, game, seat)
        if seat.address and seat.address.lower() != sc.mail.reply_address.lower():
            reply.copy_to = seat.address
    else:
        reply.power = "moderator"
        reply.language = moderator_language(game)  # the game's moderator_language setting
        sc.after.phases_may_change = True
        reply.phase, reply.deadline = phase.phase_id, phase.deadline
    if held and seat is not None:
        reply.rejected = msg("the moderator is reviewing the last adjudication before the "
                             "reports go out; send this again once your new report has "
                             "arrived: nothing in this section was carried out")
        return reply
    if section.phase and section.phase.lower() != phase.phase_id:
        reply.rejected = msg("your PHASE line says {written} but the phase now open is {phase}; "
                             "nothing in this section was carried out", written=section.phase,
                             phase=phase.phase_id)
        return reply
    # A phase nobody orders in (a die roll) is never "too late" for anyone: once due it is
    # closed before mail is handled (gm.schedule.sweep.close_due_without_orders). Nor is
    # the moderator ever: RESUME after a pause, RELEASE after a review, EXTEND or a fix
    # of a held game come after a deadline that passed unclosed (orders.md §9).
    owed = bool(phase_info(phase).owing)
    late = (seat is not None and phase.state == "open" and owed
            and lateness(game.settings, phase.deadline, sc.arrived) is Lateness.TOO_LATE)
    if seat is not None and game.hold_reason and (late or not owed):
        reply.rejected = msg("game {game} is waiting for its moderator: {phase} could not be "
                             "closed yet; nothing in this section was carried out. Send it again "
                             "when the next report arrives", game=game.id, phase=phase.phase_id)
        return reply
    if late:
        reply.rejected = msg("too late for {phase}: its deadline has passed", phase=phase.phase_id)
        return reply
    missed = _late_for_a_closed_phase(sc, game, phase, seat.power) if seat is not None else None
    if missed is not None:
        reply.rejected = msg("too late for {phase}: its deadline has passed", phase=missed.phase_id)
        return reply
    _carry_out(sc, game, seat, section, reply)
    return reply


def _late_for_a_closed_phase(sc: SectionContext, game: Game, phase: Phase,
                             power: str) -> Phase | None:
    """The phase this mail came in, if it came after that phase's deadline (plus grace),
    the phase has closed since, and ``power`` could order in it: the mail was too late for
    it, and is never carried out in the phase open now, which its sender had not seen
    (docs/scheduling.md, "Mail that arrived in time": a mail read after the close, two
    instances). A mail that came in time for a phase closed since (every power READY, the
    moderator's ADJUDICATE NOW) is read as before, in the phase open now; one that came in
    a die-rolling step (Pax Baltica's action roll) is meant for the phase after it. One
    query, only for a mail that surely arrived before the open phase opened (a server dates
    a mail to the second: one dated in the second the phase opened may have come after)."""
    if sc.arrived + RESOLUTION > utc(phase.opens_at):  # it may have come after it opened
        return None
    then = sc.session.exec(
        select(Phase).where(Phase.game_id == phase.game_id, Phase.state == "done",
                            col(Phase.seq) < phase.seq, col(Phase.opens_at) <= sc.arrived)
        .order_by(col(Phase.seq).desc()).limit(1)).first()
    if then is None or power not in phase_info(then).allowed():
        return None
    late = lateness(game.settings, then.deadline, sc.arrived) is Lateness.TOO_LATE
    return then if late else None


def _mailbox_works(sc: SectionContext, game: Game, seat: Seat) -> None:
    """A mail from the seat's own address, signed on as the seat: the mailbox works, so a
    mark of it as bouncing is taken off (gm.service.bouncing); a later bounce is told."""
    sent_from = {a.lower() for a in (sc.mail.from_addr, sc.mail.reply_address) if a}
    if bouncing(seat) is None or seat.address.lower() not in sent_from:
        return  # the common case: the seat row is left untouched (nothing to flush)
    clear_bouncing(seat)
    sc.session.add(seat)
    log.info("%s in %s wrote from %s, marked as bouncing: the mark is cleared", seat.power,
             game.id, seat.address)


def _help_asked(sc: SectionContext, section: Section, game: Game | None) -> tuple[c.Help, str]:
    """The HELP of a section without sign-on and the language to answer it in: that of the
    sender's seat in ``game`` (orders.md §8), the game's ``moderator_language`` when the
    sender is its moderator, else the command's ("AIDE": French)."""
    cmd = next(x for x in section.commands if isinstance(x, c.Help))
    sender = sc.mail.from_addr.lower()
    held = [s.language for s in seats(sc.session, game.id)
            if (s.address or "").lower() == sender] if game is not None else []
    if not held and game is not None and (game.moderator_address or "").lower() == sender:
        held = [moderator_language(game)]
    return cmd, held[0] if held else cmd.language


def _answer_help(sc: SectionContext, section: Section, game: Game, reply: SectionReply) -> None:
    """HELP [topic] after GAME without a sign-on: the game's help on that topic, in
    :func:`_help_asked`'s language (it was the whole list, in English)."""
    cmd, language = _help_asked(sc, section, game)
    reply.language = language
    CommandRunner.game_help(reply, game, cmd.topic, language)


def _forming_section(sc: SectionContext, section: Section, game: Game, reply: SectionReply, *,
                     help_only: bool, list_only: bool) -> None:
    """A section for a game that has not started (gm.service.forming): HELP, LIST, JOIN,
    the moderator's APPROVE, DECLINE, SHOW GAME and SHOW MAILS; anything else is refused
    with the open seats."""
    from gm.service.forming import open_seats

    if help_only:
        _answer_help(sc, section, game, reply)
        return
    if list_only:
        CommandRunner.list_game(sc, reply, game)
        return
    joins = [x for x in section.commands if isinstance(x, c.Join)]
    if section.signon is None and joins:
        for cmd in joins:
            CommandRunner.ask_to_join(sc, reply, game, cmd.power, cmd.language)
        return
    if isinstance(section.signon, c.ModeratorSignOn):
        signon = check_signon(sc.ctx, sc.session, game, section, sc.mail.from_addr, sc.inbound_id)
        if not signon.ok:
            reply.rejected = signon.problem
            return
        reply.power = "moderator"
        reply.language = moderator_language(game)
        approvals = [x for x in section.items if isinstance(x, CommandLine)
                     and isinstance(x.command, c.ApproveJoin | c.DeclineJoin | c.ShowGame
                                    | c.ShowMails)]
        if approvals:
            runner = CommandRunner(sc, game, None, reply)
            for item in approvals:
                runner.run(item.line, item.command, None)
            return
    free = open_seats(sc.session, game)
    reply.rejected = plural("game {game} has not started: it is forming and starts when its "
                            "last seat is filled (open: {open}); JOIN {game} <power> takes it",
                            "game {game} has not started: it is forming and starts when its "
                            "last seat is filled ({n} open: {open}); JOIN {game} <power> takes one",
                            len(free), game=game.id, open=", ".join(free))


def running_games(session: Session) -> list[str]:
    from sqlmodel import col, select

    return list(session.exec(select(Game.id).where(Game.status != "ended").order_by(col(Game.id))))


_ANSWERED_IN_CHECK = (c.Game, c.PowerSignOn, c.Phase, c.For, c.Check, c.Add, c.Status,
                      c.History, c.Orders, c.Help, c.List)
"""The commands a ``CHECK`` section carries out: those that only read (orders.md §1:
"validate and echo everything, store nothing"). Any other (READY, WAIT, PRESS, PASSWORD,
SET, ABSENT, a moderator's act) is answered "not carried out": a READY kept while the
orders it vouches for were not could close the phase early without them."""


def _carry_out(sc: SectionContext, game: Game, seat: Seat | None, section: Section,
               reply: SectionReply) -> None:
    runner = CommandRunner(sc, game, seat, reply)
    acting = seat.power if seat else None
    pending: dict[str, list] = {}  # power -> order lines, in order
    inline: set[str] = set()  # seats whose lines hold a FOR the game's parser reads
    through: dict[str, str] = {}  # a power ordered through a seat's lines -> that seat
    readies: list[tuple[SourceLine, c.Ready, str | None]] = []
    for item in section.items:
        if isinstance(item, OrderLine):
            power = item.power or acting or ""
            pending.setdefault(through.get(power, power), []).append(item.line)
        elif isinstance(item, CommandLine):
            cmd = item.command
            if isinstance(cmd, c.For):
                holder = _for_in_orders(sc, game, seat, cmd.power, inline)
                if holder is not None:  # the game's parser switches the acting power
                    pending.setdefault(holder, []).append(item.line)
                    through[cmd.power] = acting = holder
                    continue
            if isinstance(cmd, c.PowerSignOn | c.For):
                acting = cmd.power
            if section.check_only and not isinstance(cmd, _ANSWERED_IN_CHECK):
                reply.ignored(item.line, msg("CHECK: not carried out"))
                continue
            if isinstance(cmd, c.Ready) and cmd.ready:
                readies.append((item.line, cmd, acting))  # weighed once the orders are judged
                continue
            runner.run(item.line, cmd, acting)
    for power, lines in pending.items():
        _submit(sc, game, seat, power, lines, section, reply)
    for line, cmd, who in readies:
        _ready(sc, game, runner, reply, line, cmd, who)


def _ready(sc: SectionContext, game: Game, runner: CommandRunner, reply: SectionReply,
           line: SourceLine, cmd: c.Ready, acting: str | None) -> None:
    """READY, carried out after the section's orders were judged: in a section some of
    whose lines were refused it is not taken (docs/orders.md, "READY with refused lines"):
    the player said "my orders are final" of orders gm did not take, and an early close
    would run the phase without them. A READY from an earlier mail is withdrawn too, so
    the phase closes at its deadline. Its entry goes where the line stood."""
    refused = sum(1 for e in reply.entries if e.kind in ("refused", "error") and e.line is not None)
    before = len(reply.entries)
    if refused and runner._may_act(acting):
        _withdraw_ready(sc, game, acting or (runner.seat.power if runner.seat else None))
        reply.error(line, plural(
            "READY not taken: {n} line for {power} in game {game} was refused; send it again "
            "corrected (with READY), or the phase closes at its deadline with the orders "
            "accepted",
            "READY not taken: {n} lines for {power} in game {game} were refused; send them "
            "again corrected (with READY), or the phase closes at its deadline with the orders "
            "accepted", refused, power=_signed_on_as(game, runner, acting), game=game.id))
    else:
        runner.run(line, cmd, acting)
    added = reply.entries[before:]
    del reply.entries[before:]
    at = next((i for i, e in enumerate(reply.entries)
               if e.line is None or e.line > line.number), len(reply.entries))
    reply.entries[at:at] = added


def _signed_on_as(game: Game, runner: CommandRunner, acting: str | None) -> Name | str:
    """Whose lines a READY vouches for, as the reply names them: the power the section is
    signed on as (or the moderator acts as); its refused lines are those counted, not the
    other sections' of the mail (another game, another power)."""
    power = acting or (runner.seat.power if runner.seat else None)
    return module_of(game).power_name(power, "the") if power else "moderator"


def _for_in_orders(sc: SectionContext, game: Game, seat: Seat | None, written: str,
                   inline: set[str]) -> str | None:
    """The seat power whose order lines a ``FOR`` line joins, when the game orders the power
    through that seat (Pax Britannica: Germany's seat gives Austria-Hungary's orders, which
    the game's parser reads after ``FOR austria-hungary``, orders.md §6); None when ``FOR``
    switches to a power that orders in this phase in its own name (or may not be used)."""
    from gm.pipeline.signon import may_act_for, resolve_power

    if seat is None:
        return None
    target = may_act_for(sc.session, game, seat, written)
    if target is None:
        return None
    if target == seat.power:  # "FOR germany" after "FOR austria-hungary"
        return seat.power if seat.power in inline else None
    info = phase_info(current_phase(sc.session, game.id))
    if target in info.owing or target in info.may_order or resolve_power(
            sc.session, game, written) is not None:
        return None
    inline.add(seat.power)
    return seat.power


def _submit(sc: SectionContext, game: Game, seat: Seat | None, written: str, lines: list,
            section: Section, reply: SectionReply) -> None:
    power = _own_power(sc, game, seat, written)
    if power is None:
        for line in lines:
            reply.error(line, msg("you may not give orders for {power!r}", power=written or "?") if seat
                        else msg("you may not give orders for {power!r}: the moderator must say "
                                 "POWER <name> first", power=written or "?"))
        return
    try:
        sub = submit_orders(sc.ctx, sc.session, game, power, lines, add=section.add,
                            check=section.check_only, source="mail" if seat else "moderator",
                            inbound_id=sc.inbound_id)
    except ServiceError as exc:
        for line in lines:
            reply.error(line, exc.message)
        return
    name = module_of(game).power_name(power)  # as the reader says it ("États-Unis")
    if power != reply.power:
        reply.note(msg("orders for {power}:", power=name))
    reply.add_submission(sub)
    if section.check_only:
        reply.note(msg("CHECK: nothing was stored"))
    elif sub.stored is None:
        _nothing_stored(sc, game, power, name, sub.phase.seq, reply)
    else:
        n = len(sub.accepted)
        reply.note(plural("{power}: {n} order stored (added to the earlier ones)",
                          "{power}: {n} orders stored (added to the earlier ones)",
                          n, power=name) if section.add
                   else plural("{power}: {n} order stored (it replaces any earlier orders "
                               "for this phase)",
                               "{power}: {n} orders stored (they replace any earlier orders "
                               "for this phase)", n, power=name))
        if seat is None:
            _tell_power(sc, game, power)


def _nothing_stored(sc: SectionContext, game: Game, power: str, name: str, seq: int,
                    reply: SectionReply) -> None:
    """A section none of whose orders was accepted changes nothing: say what stands, the
    orders of an earlier mail or none at all (a player who reads "your earlier orders
    stand" after a first mail believes something was kept)."""
    if power in current_orders(sc.session, game.id, seq):
        reply.note(msg("{power}: no order was accepted, so your earlier orders stand", power=name))
    else:
        reply.note(msg("{power}: no order was accepted; you have no orders for this phase yet",
                       power=name))


def _withdraw_ready(sc: SectionContext, game: Game, power: str | None) -> None:
    """A READY ``power`` said in an earlier mail taken back (one not taken now must not close
    the phase on the orders it replaced); nothing stored when there was none."""
    phase = current_phase(sc.session, game.id)
    row = current_orders(sc.session, game.id, phase.seq).get(power or "")
    if row is not None and row.ready:
        set_flags(sc.ctx, sc.session, game, row.power, ready=False)


def _own_power(sc: SectionContext, game: Game, seat: Seat | None, written: str) -> str | None:
    """The power ``written`` if this sign-on may order for it."""
    from gm.pipeline.signon import may_act_for

    return may_act_for(sc.session, game, seat, written)


def _tell_power(sc: SectionContext, game: Game, power: str) -> None:
    from gm.service.outbox import queue_mail

    owner = seat_for_power(sc.session, game.id, power)
    if owner is None or not owner.address:
        return
    lang = owner.language
    queue_mail(sc.ctx, sc.session, game_id=game.id, kind="notice", to=[owner.address],
               subject=f"[{game.id}] " + translate(
                   msg("the moderator gave orders for {power}", power=power), lang),
               text=f"==== gm notice {game.id} ====\n" + translate(
                   msg("The moderator gave orders for {power} in game {game}. Send STATUS to "
                       "see the position.", power=power, game=game.id), lang) + "\n",
               key=f"moderator-orders:{sc.inbound_id}:{power}")


def _list_unread(sc: SectionContext, section: Section, game: Game, reply: SectionReply,
                 no_password: bool) -> None:
    """The lines of a section refused for want of a sign-on, listed as not read; one that
    reads as a mistyped sign-on named (gm.pipeline.unsigned). Its commands too (``CHECK``
    after a second GAME line): every line gets an answer (orders.md §2)."""
    lines = sorted((i.line for i in section.items), key=lambda line: line.number)
    if not lines:
        return
    held = seats(sc.session, game.id)
    entries, more = unread(lines, [s.power for s in held], no_password)
    sender = sc.mail.from_addr.lower()  # a seat's own address: its language (orders.md §8)
    reply.language = next((s.language for s in held if (s.address or "").lower() == sender),
                          reply.language)
    reply.entries.extend(entries)
    if more:
        reply.entries.append(Entry("note", plural("and {num} more line, not read",
                                                  "and {num} more lines, not read", more, num=more)))

