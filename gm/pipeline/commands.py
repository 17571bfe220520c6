"""The non-order commands of a mail (orders.md §1, §9), carried out by their owners.

One method per command, dispatched by the command's type; each writes one
line into the section's reply. Moderator commands require the moderator's
sign-on (the envelope already refuses them otherwise).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlmodel import col, select

from gm.clock import utc
from gm.db.models import Game, Report, Seat
from gm.i18n import Text, languages, msg, plural, translate, when
from gm.orders import commands as c
from gm.orders.model import SourceLine
from gm.pipeline.reply import SectionReply
from gm.service import moderator as mod
from gm.service.bouncing import clear as clear_bouncing
from gm.service.errors import ServiceError
from gm.service.games import current_phase, module_of, phase_info, seat_for_power
from gm.service.games import seats as seats_of
from gm.service.orders import set_flags
from gm.service.outbox import queue_mail
from gm.service.passwords import hash_password
from gm.service.views import status_said

if TYPE_CHECKING:
    from gm.pipeline.section import SectionContext


class CommandRunner:
    def __init__(self, sc: SectionContext, game: Game, seat: Seat | None, reply: SectionReply) -> None:
        self.sc, self.game, self.seat, self.reply = sc, game, seat, reply
        self.actor = f"moderator <{sc.mail.from_addr}>"

    def run(self, line: SourceLine, cmd: Any, acting: str | None) -> None:
        method = getattr(self, f"do_{type(cmd).__name__.lower()}", None)
        if method is None:
            return  # envelope-only lines (Game, Phase, Check, Add) need no action here
        if not self._may_act(acting) and not isinstance(cmd, c.PowerSignOn):
            self.reply.error(line, msg("you may not act for {power}", power=acting))
            return
        try:
            method(line, cmd, acting)
        except ServiceError as exc:
            self.reply.error(line, exc.message)
        except ValueError as exc:  # bad values inside a command (dates, zones)
            self.reply.error(line, str(exc))

    def _may_act(self, acting: str | None) -> bool:
        """A player acts only as its own power or one it controls; the moderator as anyone."""
        from gm.pipeline.signon import may_act_for

        if self.seat is None or acting is None:
            return True
        return may_act_for(self.sc.session, self.game, self.seat, acting) is not None

    # -- player commands -------------------------------------------------

    def do_powersignon(self, line: SourceLine, cmd: c.PowerSignOn, acting: str | None) -> None:
        if self.seat is None:  # the moderator acting as a power: one the game has
            self._seat_named(cmd.power)
        self.reply.done(line, msg("acting as {power}", power=cmd.power))

    def do_for(self, line: SourceLine, cmd: c.For, acting: str | None) -> None:
        self.reply.done(line, msg("the following orders are for {power}", power=cmd.power))

    def _power(self, acting: str | None) -> str:
        power = acting or (self.seat.power if self.seat else None)
        if power is None:
            raise ServiceError(msg("say POWER <name> first"))
        return power

    def do_ready(self, line: SourceLine, cmd: c.Ready, acting: str | None) -> None:
        power = self._power(acting)
        info = phase_info(current_phase(self.sc.session, self.game.id))
        if cmd.ready and power in info.allowed() and power not in info.owing:
            # a power that may order here but is not waited for (the Coalition's standing
            # orders in Sweden's action phase): "your orders are final" told it something of
            # its own was now settled (orders.md §1: READY says one's own orders are final).
            # A power that may not order at all is told so by set_flags, with when its turn comes.
            self.reply.done(line, msg("{power} owes no orders in this phase: READY changes nothing",
                                      power=module_of(self.game).power_name(power)))
            return
        set_flags(self.sc.ctx, self.sc.session, self.game, power, ready=cmd.ready)
        if not cmd.ready:
            self.reply.done(line, msg("not ready any more"))
            return
        self.reply.done(line, msg("your orders are final") if self._closes_early() else msg(
            "your orders are final; this game closes its phases at the deadline, even when "
            "every player is READY"))
        self.sc.after.ready_check.add(self.game.id)

    def _closes_early(self) -> bool:
        """Whether READY can close the open phase before its deadline (orders.md §1: "and
        the game allows it"): ``deadlines.early``, or a sequential phase waiting for one
        power (gm.schedule.ready). A player told only "final" expected an early close."""
        from gm.schedule.ready import alone
        from gm.service.deadlines import policy

        rules = policy(self.game.settings)
        return rules.early or (rules.early_alone
                               and alone(current_phase(self.sc.session, self.game.id)))

    def do_wait(self, line: SourceLine, cmd: c.Wait, acting: str | None) -> None:
        set_flags(self.sc.ctx, self.sc.session, self.game, self._power(acting), wait=cmd.wait)
        self.reply.done(line, msg("the game waits for the deadline") if cmd.wait else msg("no longer waiting"))
        if not cmd.wait:  # NO WAIT may leave every power READY: close early at once (issue 17)
            self.sc.after.ready_check.add(self.game.id)

    def do_status(self, line: SourceLine, cmd: c.Status, acting: str | None) -> None:
        """STATUS: the current (fog-filtered) report, in this very reply (one mail)."""
        from gm.service.reports import current_report

        power = self._power(acting) if self.seat else acting
        phase = current_phase(self.sc.session, self.game.id)
        seat = seat_for_power(self.sc.session, self.game.id, power) if power else None
        self.reply.appendix.append(current_report(self.sc.ctx, self.sc.session, self.game, phase,
                                                  power, seat))
        self.reply.done(line, msg("your current report follows this reply"))
        self._on_file(power)

    def do_orders(self, line: SourceLine, cmd: c.Orders, acting: str | None) -> None:
        """ORDERS: what the power has on file for the phase now open (the moderator without
        a POWER line: every power)."""
        power = self._power(acting) if self.seat else acting
        self.reply.done(line, msg("your orders on file follow"))
        self._on_file(power)

    def _on_file(self, power: str | None) -> None:
        """One note per power: its orders on file for the open phase, READY and WAIT."""
        from gm.service.games import current_orders, phase_info

        phase = current_phase(self.sc.session, self.game.id)
        on_file = current_orders(self.sc.session, self.game.id, phase.seq)
        info = phase_info(phase)
        powers = [power] if power else list(dict.fromkeys(info.owing + info.may_order + tuple(on_file)))
        module = module_of(self.game)
        for p in powers:
            row = on_file.get(p)
            lines = [x for x in (row.text.splitlines() if row else []) if x.strip()]
            flags = [w for w, on in (("READY", row and row.ready), ("WAIT", row and row.wait)) if on]
            self.reply.note(msg("{power} has on file for {phase}: {orders}{flags}",
                                power=module.power_name(p),
                                phase=phase.phase_id, orders="; ".join(lines) or msg("no orders"),
                                flags=f" [{', '.join(flags)}]" if flags else ""))

    def do_history(self, line: SourceLine, cmd: c.History, acting: str | None) -> None:
        power = self._power(acting) if self.seat else ""
        q = select(Report).where(Report.game_id == self.game.id, Report.power == (power or ""))
        if cmd.phase:
            q = q.where(Report.phase_id == cmd.phase.lower())
        rows = list(self.sc.session.exec(q.order_by(col(Report.phase_seq))))
        if not rows and cmd.phase:  # closed in a chain: told in the chain's one report
            from gm.service.reports import chain_report_of

            told = chain_report_of(self.sc.session, self.game, power or "", cmd.phase.lower())
            rows = [told] if told is not None else []
        if not rows:
            raise ServiceError(msg("no report of {phase} for you yet", phase=cmd.phase) if cmd.phase
                               else msg("no report for you yet"))
        from gm.service.archive import queue_history

        queue_history(self.sc.ctx, self.sc.session, self.game, to=self._own_address(),
                      language=self.seat.language if self.seat else "en",
                      reports=rows if cmd.phase else rows[-1:],
                      subject=f"[{self.game.id}] history {cmd.phase or rows[-1].phase_id}",
                      key=f"history:{self.sc.inbound_id}:{power}:{cmd.phase}")
        sent = len(rows) if cmd.phase else 1
        self.reply.done(line, plural("the report is on its way in a separate mail",
                                     "the {n} reports are on their way in a separate mail", sent))

    def do_absent(self, line: SourceLine, cmd: c.Absent, acting: str | None) -> None:
        from gm.schedule.absences import record_absence

        record_absence(self.sc.session, self.game.id, self._power(acting), cmd.start, cmd.end,
                       at=self.sc.ctx.clock.now(), inbound_id=self.sc.inbound_id)
        self.reply.done(line, msg("absence from {start} to {end} recorded; the game's policy and the moderator "
                                  "decide what it changes", start=cmd.start, end=cmd.end))

    def do_password(self, line: SourceLine, cmd: c.Password, acting: str | None) -> None:
        """PASSWORD: answered to the registered address only (orders.md §1): a sender from
        another address is told only where the answer went."""
        seat = self._own_seat()
        seat.password_hash = hash_password(cmd.new)
        self.sc.session.add(seat)
        own = bool(seat.address) and seat.address.lower() == self.sc.mail.reply_address.lower()
        self.reply.entries.append(_masked(line, msg("password changed") if own else msg(
            "answered to the registered address only")))
        if seat.address and not own:
            queue_mail(self.sc.ctx, self.sc.session, game_id=self.game.id, kind="notice",
                       to=[seat.address], subject=f"[{self.game.id}] " + translate(msg(
                           "password changed for {power}", power=seat.power), seat.language),
                       text=f"==== gm notice {self.game.id} ====\n" + translate(msg(
                           "The password of {power} was changed by a mail from {sender}.",
                           power=seat.power, sender=self.sc.mail.from_addr), seat.language) + "\n",
                       key=f"password:{self.sc.inbound_id}")

    def do_setlanguage(self, line: SourceLine, cmd: c.SetLanguage, acting: str | None) -> None:
        lang = cmd.language.lower()[:2]
        if lang not in languages():
            raise ServiceError(msg("language {language!r} is not offered (choose {choices})",
                                   language=cmd.language, choices=", ".join(languages())))
        seat = self._own_seat()
        seat.language = lang
        self.sc.session.add(seat)
        self.reply.done(line, msg("replies and reports now in {language!r}", language=lang))

    def do_settimezone(self, line: SourceLine, cmd: c.SetTimezone, acting: str | None) -> None:
        try:
            ZoneInfo(cmd.timezone)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ServiceError(msg("{zone!r} is not a time zone (e.g. Europe/Paris)", zone=cmd.timezone)) from exc
        seat = self._own_seat()
        seat.timezone = cmd.timezone
        self.sc.session.add(seat)
        self.reply.timezone = cmd.timezone
        self.reply.done(line, msg("times now shown in {zone} as well as UTC", zone=cmd.timezone))

    def do_setaddress(self, line: SourceLine, cmd: c.SetAddress, acting: str | None) -> None:
        if self.seat is None:  # the moderator, acting as a power (POWER south, no password)
            seat = self._seat_named(self._power(acting))
            mod.move_address(self.sc.ctx, self.sc.session, self.game, actor=self.actor,
                             power=seat.power, address=cmd.address)
            self.reply.done(line, msg("mail for {power} now goes to {address}; both addresses "
                                      "were told, nobody else (a private act)",
                                      power=seat.power, address=cmd.address))
            return
        seat = self._own_seat()
        old, seat.address = seat.address, cmd.address
        clear_bouncing(seat)  # a new address: whether it bounces is not known yet
        self.sc.session.add(seat)
        text = translate(msg("From now on, mail for {power} in game {game} goes to {address} (it "
                             "went to {old}).", power=seat.power, game=self.game.id,
                             address=cmd.address, old=old), seat.language)
        queue_mail(self.sc.ctx, self.sc.session, game_id=self.game.id, kind="notice",
                   to=[cmd.address, old], subject=f"[{self.game.id}] " + translate(msg(
                       "new address for {power}", power=seat.power), seat.language),
                   text=f"==== gm notice {self.game.id} ====\n{text}\n",
                   key=f"address:{self.sc.inbound_id}")
        self.reply.done(line, msg("mail now goes to {address}; both addresses were told", address=cmd.address))

    def do_press(self, line: SourceLine, cmd: c.Press, acting: str | None) -> None:
        from gm.pipeline.press import forward_press

        sent_to = forward_press(self.sc.ctx, self.sc.session, self.game, acting or "moderator",
                                cmd, key=f"press:{self.sc.inbound_id}:{line.number}",
                                moderator=self.seat is None)
        # the powers as the reader's reports name them ("l'Italie"), else by their ids
        module = module_of(self.game)
        powers = ", ".join(p if p == "moderator" else module.power_said(
            p, self.seat.language if self.seat else "en", "the") for p in sent_to)
        if (self.game.settings or {}).get("press_held") and self.seat is not None:
            self.reply.done(line, msg("press to {powers} will go out with the next reports",
                                      powers=powers))
        else:
            self.reply.done(line, msg("press sent to {powers}", powers=powers))

    def do_help(self, line: SourceLine, cmd: c.Help, acting: str | None) -> None:
        """HELP: in the seat's language; the moderator's in the game's moderator_language,
        as every other reply and notice to him."""
        from gm.service.notify import moderator_language

        self.game_help(self.reply, self.game, cmd.topic, self.seat.language if self.seat
                       else moderator_language(self.game), moderator=self.seat is None)

    @staticmethod
    def game_help(reply: SectionReply, game: Game, topic: str | None = None,
                  language: str = "en", moderator: bool = False) -> None:
        """The game's HELP; its moderator's commands only to the moderator signed on."""
        from gm.service.games import module_of

        reply.note(module_of(game).help(language, topic, moderator=moderator))

    def do_list(self, line: SourceLine, cmd: c.List, acting: str | None) -> None:
        """LIST from a signed-on section: the roll call of this game."""
        CommandRunner.list_game(self.sc, self.reply, self.game)
        self.reply.done(line, msg("the list follows"))

    def do_sendpassword(self, line: SourceLine, cmd: c.SendPassword, acting: str | None) -> None:
        CommandRunner.send_password(self.sc, self.reply, self.game, cmd.power)

    def do_observe(self, line: SourceLine, cmd: c.Observe, acting: str | None) -> None:
        CommandRunner.ask_to_observe(self.sc, self.reply, self.game)

    @staticmethod
    def ask_to_observe(sc: SectionContext, reply: SectionReply, game: Game) -> None:
        """OBSERVE game: the moderator is asked (with the command that adds the observer);
        nothing is sent to the address before the moderator agrees (gm.service.observers)."""
        from gm.service.notify import notify_moderator
        from gm.service.observers import observers

        address = sc.mail.reply_address
        if address.lower() in (a.lower() for a in observers(game)):
            reply.note(msg("You already receive the public reports of game {game}.", game=game.id))
            return
        notify_moderator(sc.ctx, sc.session, game,
                         msg("{address} asks to observe {game}", address=address, game=game.id), [
                             msg("{address} asks to receive the public reports of game {game}.",
                                 address=address, game=game.id),
                             msg("To agree: gm game observe {game} {address}, or by mail "
                                 "ADD OBSERVER {address} after the lines GAME {game} and "
                                 "MODERATOR <password>", game=game.id, address=address)],
                         key=f"observe-request:{sc.inbound_id}")
        reply.note(msg("The moderator of game {game} has been asked to send you its public "
                       "reports.", game=game.id))

    def do_join(self, line: SourceLine, cmd: c.Join, acting: str | None) -> None:
        CommandRunner.ask_to_join(self.sc, self.reply, self.game, cmd.power, cmd.language)

    def do_approvejoin(self, line: SourceLine, cmd: c.ApproveJoin, acting: str | None) -> None:
        from gm.service.forming import approve

        answer = approve(self.sc.ctx, self.sc.session, self.game, cmd.address, cmd.power,
                         actor=self.actor)
        self.reply.done(line, msg("{address} now plays {power}", address=cmd.address,
                                  power=answer.seated))
        if answer.started:
            self.reply.note(msg("Every seat of game {game} is filled: the game has started.",
                                game=self.game.id))

    @staticmethod
    def ask_to_join(sc: SectionContext, reply: SectionReply, game: Game, written: str,
                    language: str = "en") -> None:
        """JOIN game power|any. A forming game: an open seat, a request to its moderator or
        a refusal (gm.service.forming). A running game: the sender goes on the waiting list
        and the moderator is told how to give them a seat (REPLACE POWER)."""
        from gm.pipeline.signon import resolve_power
        from gm.service.observers import add_waiting

        reply.language = language
        if game.status == "forming":
            from gm.service.forming import join

            answer = join(sc.ctx, sc.session, game, sc.mail.reply_address, written,
                          language=language, inbound_id=sc.inbound_id)
            if answer.refused:
                reply.rejected = answer.text
            else:
                reply.note(answer.text)
            return
        if written != c.ANY_POWER:
            seat = resolve_power(sc.session, game, written)
            if seat is None:
                names = ", ".join(s.power for s in seats_of(sc.session, game.id))
                reply.rejected = msg("game {game} has no power {power!r} (powers: {names})",
                                     game=game.id, power=written, names=names)
                return
            written = seat.power
        address = sc.mail.reply_address
        if add_waiting(sc.ctx, sc.session, game, address, written):
            from gm.service.notify import notify_moderator

            notify_moderator(sc.ctx, sc.session, game, msg(
                "{address} asks to play {power} in {game}", address=address, power=written,
                game=game.id), [
                msg("{address} asks to play {power} in game {game} and is on its waiting list "
                    "(gm game show {game}; by mail: SHOW GAME).", address=address,
                    power=written, game=game.id),
                msg("To give them a seat, by mail: REPLACE POWER <power> WITH {address}",
                    address=address)], key=f"join-request:{sc.inbound_id}")
        reply.note(msg("You are on the waiting list of game {game} for {power}; its moderator "
                       "decides and will write to you.", game=game.id, power=written))

    @staticmethod
    def send_password(sc: SectionContext, reply: SectionReply, game: Game, written: str) -> None:
        """SEND PASSWORD power: a new password to the seat's registered address only; the
        sender's answer is the same whatever happened (gm.service.recovery)."""
        from gm.pipeline.signon import resolve_power
        from gm.service.recovery import send_new_password

        seat = resolve_power(sc.session, game, written)
        send_new_password(sc.ctx, sc.session, game, seat, sc.mail.from_addr)
        reply.note(msg("If {power} is a seat of game {game}, a new password is on its way to "
                       "the seat's registered address (at most once a day).", power=written,
                       game=game.id))

    @staticmethod
    def list_games(sc: SectionContext, reply: SectionReply) -> None:
        """LIST without a game (orders.md §1): every game here not ended, with its phase and
        deadline; answered to anyone."""
        from gm.service.roll import game_lines

        rows = game_lines(sc.session)
        if not rows:
            reply.note(msg("No game is running here."))
            return
        reply.note(msg("Games here (game, module, scenario, phase, deadline):"))
        for r in rows:
            reply.note(f"{r.game_id:<16} {r.module:<10} {r.scenario:<12} "
                       f"{r.phase or '(under review)':<28} {_when(r.deadline)}"
                       + (f" ({r.status})" if r.status != "running" else ""))
        reply.note(msg("Send LIST <game> for one game's phase, deadline and who has orders in."))
        if any(r.status == "forming" for r in rows):
            reply.note(msg("A forming game starts when its seats are filled: JOIN <game> <power> "
                           "(or any) takes an open one."))

    @staticmethod
    def list_game(sc: SectionContext, reply: SectionReply, game: Game) -> None:
        """LIST game (orders.md §1): its phase, deadline, who has orders in and who is READY.
        Powers only: never an order, an address or a password, since anyone may ask."""
        from gm.service.roll import roll_call

        if game.status == "forming":
            from gm.service.forming import needs_approval, open_seats

            free = open_seats(sc.session, game)
            reply.note(msg("Game {game}: {module}, scenario {scenario}, forming: it starts when "
                           "its last seat is filled.", game=game.id, module=module_of(game).title,
                           scenario=game.scenario))
            reply.note(msg("Open seats: {names}", names=", ".join(free) or "-"))
            reply.note(msg("To take one: JOIN {game} <power> (or JOIN {game} any); the "
                           "moderator approves each request.", game=game.id) if needs_approval(game)
                       else msg("To take one: JOIN {game} <power> (or JOIN {game} any).", game=game.id))
            return
        roll = roll_call(sc.session, game, sc.ctx.clock.now())
        module = module_of(game)
        status = "held" if game.hold_reason else game.status
        reply.note(msg("Game {game}: {module}, scenario {scenario}, {status}.", game=game.id,
                       module=module.title, scenario=game.scenario,
                       status=status_said(status)))
        if roll.held:
            reply.note(msg("The moderator is reviewing the last adjudication."))
            return
        none = "-"
        reply.note(msg("Phase {phase}, deadline {deadline}.", phase=roll.phase,
                       deadline=_when(roll.deadline)))
        reply.note(msg("Orders in: {names}", names=module.power_list(roll.names("submitted")) or none))
        reply.note(msg("READY: {names}", names=module.power_list(roll.names("ready")) or none))
        reply.note(msg("Waiting for: {names}", names=module.power_list(roll.names("waiting")) or none))

    @staticmethod
    def general_help(reply: SectionReply, games: list[str], language: str = "en") -> None:
        from gm.orders.help import help_text

        reply.note(msg("Games running here: {listing}. To take an open seat of a forming game, "
                       "send JOIN <game> <power> (or any; LIST shows the open seats); to order, "
                       "start your mail with GAME <game> and POWER <power> <password>.",
                       listing=", ".join(games) or msg("none yet")))
        reply.note(help_text(None, language, None))

    # -- moderator commands (§9) ----------------------------------------

    def _mod(self, cmd: Any) -> dict[str, Any]:
        return {"actor": self.actor, "reason": cmd.reason or "", "private": cmd.private}

    def do_extend(self, line: SourceLine, cmd: c.Extend, acting: str | None) -> None:
        phase = mod.extend(self.sc.ctx, self.sc.session, self.game, by=cmd.by, to=cmd.to, **self._mod(cmd))
        if not phase.released:  # under review: the act waits for RELEASE (mod.extend)
            self.reply.done(line, msg(
                "the clock of {phase} has not started: RELEASE starts it and sets its deadline "
                "to {deadline}; no player was told", phase=phase.phase_id,
                deadline=when(utc(cmd.to)) if cmd.to else msg(
                    "the one counted from the release, moved by this EXTEND")))
            return
        self.reply.deadline = phase.deadline
        self.reply.done(line, msg("deadline now {deadline}", deadline=when(phase.deadline))
                        if phase.deadline else msg("no deadline"))

    def do_adjudicatenow(self, line: SourceLine, cmd: c.AdjudicateNow, acting: str | None) -> None:
        phase = current_phase(self.sc.session, self.game.id)
        mod.record_act(self.sc.ctx, self.sc.session, self.game, command="adjudicate",
                       args={"phase_id": phase.phase_id}, **self._mod(cmd))
        self.sc.after.close.append((self.game.id, phase.seq, self.actor, "ADJUDICATE NOW"))
        self.reply.done(line, f"{phase.phase_id} will be adjudicated as soon as this mail is stored")

    def do_ruling(self, line: SourceLine, cmd: c.Ruling, acting: str | None) -> None:
        mod.ruling(self.sc.ctx, self.sc.session, self.game, actor=self.actor, text=cmd.text,
                   private=cmd.private)
        self.reply.done(line, "ruling recorded; it is published with the next report"
                        if not cmd.private else "private ruling recorded")

    def do_replacepower(self, line: SourceLine, cmd: c.ReplacePower, acting: str | None) -> None:
        mod.replace_power(self.sc.ctx, self.sc.session, self.game, power=cmd.power,
                          address=cmd.address, **self._mod(cmd))
        held = not current_phase(self.sc.session, self.game.id).released
        self.reply.done(line, f"{cmd.power} now played by {cmd.address}; password mailed, "
                        + ("report held until RELEASE" if held else "report mailed"))

    def do_rollback(self, line: SourceLine, cmd: c.Rollback, acting: str | None) -> None:
        phase = mod.rollback(self.sc.ctx, self.sc.session, self.game, phase_id=cmd.phase.lower(),
                             fresh_dice=cmd.fresh_dice, **self._mod(cmd))
        self.reply.phase, self.reply.deadline = phase.phase_id, phase.deadline
        self.reply.done(line, f"back at {phase.phase_id}; everyone was told")

    def do_setstate(self, line: SourceLine, cmd: c.SetState, acting: str | None) -> None:
        value = mod.set_path(self.sc.ctx, self.sc.session, self.game, path=cmd.path,
                             value=cmd.value, **self._mod(cmd))
        self.reply.done(line, f"{cmd.path} = {value!r}")

    def do_pause(self, line: SourceLine, cmd: c.Pause, acting: str | None) -> None:
        mod.pause(self.sc.ctx, self.sc.session, self.game, **self._mod(cmd))
        self.reply.done(line, "the game is paused")

    def do_resume(self, line: SourceLine, cmd: c.Resume, acting: str | None) -> None:
        phase = mod.resume(self.sc.ctx, self.sc.session, self.game, deadline=cmd.deadline, **self._mod(cmd))
        self.reply.deadline = phase.deadline
        self.reply.done(line, "the game runs again")

    def do_dicerolls(self, line: SourceLine, cmd: c.DiceRolls, acting: str | None) -> None:
        mod.supply_dice(self.sc.ctx, self.sc.session, self.game, rolls=list(cmd.rolls),
                        then_seed=cmd.then_seed, **self._mod(cmd))
        self.reply.done(line, f"{len(cmd.rolls)} rolls will be used first in the next adjudication")

    def do_release(self, line: SourceLine, cmd: c.Release, acting: str | None) -> None:
        n = mod.release(self.sc.ctx, self.sc.session, self.game, actor=self.actor, reason=cmd.reason or "")
        self.reply.deadline = current_phase(self.sc.session, self.game.id).deadline
        self.reply.done(line, f"{n} held reports released")

    def do_unbounce(self, line: SourceLine, cmd: c.Unbounce, acting: str | None) -> None:
        seat = self._seat_named(cmd.power)
        mark = mod.unbounce(self.sc.ctx, self.sc.session, self.game, actor=self.actor,
                            power=seat.power, reason=cmd.reason or "")
        self.reply.done(line, msg("{address} of {power} is no longer marked as bouncing; the "
                                  "next mail to it that bounces is told to you again (a private "
                                  "act)", address=mark.address, power=seat.power))

    def do_sendreport(self, line: SourceLine, cmd: c.SendReport, acting: str | None) -> None:
        seat = mod.send_report(self.sc.ctx, self.sc.session, self.game,
                               power=self._seat_named(cmd.power).power, **self._mod(cmd))
        self.reply.done(line, msg("the current report of {phase} is on its way to {power} at "
                                  "{address}", phase=current_phase(self.sc.session,
                                                                   self.game.id).phase_id,
                                  power=seat.power, address=seat.address))

    def do_requeue(self, line: SourceLine, cmd: c.Requeue, acting: str | None) -> None:
        from gm.service.undelivered import requeue, sentences

        done = requeue(self.sc.ctx, self.sc.session, cmd.mail, actor=self.actor,
                       game=self.game, reason=cmd.reason or "")
        said = [msg("mail {mail} is queued again as mail {copy}, to {to} (the address it "
                    "failed at; a private act)", mail=done.mail, copy=one.copy, to=one.new)
                if one.new.lower() == one.old.lower() else
                msg("mail {mail} is queued again as mail {copy}, to {to} (it failed at {old}; "
                    "a private act)", mail=done.mail, copy=one.copy, to=one.new, old=one.old)
                for one in done.copies]
        self.reply.done(line, sentences(said))

    def do_unhold(self, line: SourceLine, cmd: c.Unhold, acting: str | None) -> None:
        """UNHOLD (``gm mod unhold``): the hold of a game whose adjudication raised is lifted
        now; its phase is closed again once this mail is stored (unless KEEP OPEN)."""
        from gm.service.adjudicate import lift_hold

        phase = current_phase(self.sc.session, self.game.id).phase_id
        seq = lift_hold(self.sc.ctx, self.sc.session, self.game, actor=self.actor,
                        reason=cmd.reason or "")
        if cmd.keep_open or seq is None:
            self.reply.done(line, msg("the hold of game {game} is lifted; {phase} stays open "
                                      "until its deadline (ADJUDICATE NOW closes it now; a "
                                      "private act)", game=self.game.id, phase=phase))
            return
        self.sc.after.close.append((self.game.id, seq, self.actor, cmd.reason or "hold lifted"))
        self.reply.done(line, msg("the hold of game {game} is lifted; {phase} is adjudicated "
                                  "again as soon as this mail is stored: if it raises again, "
                                  "the game is held again and you are told (a private act)",
                                  game=self.game.id, phase=phase))

    def do_retry(self, line: SourceLine, cmd: c.Retry, acting: str | None) -> None:
        """RETRY (``gm mod retry``): a mail of this game's players whose handling failed is
        handled again, once, after this mail is stored; its sender gets the answer."""
        from gm.service.inbox import retryable

        if any(mail == cmd.mail for _, mail, _ in self.sc.after.retry):
            raise ServiceError(msg("mail {mail} is handled again already, by a line above; "
                                   "nothing changed", mail=cmd.mail))
        retryable(self.sc.session, self.game, cmd.mail)
        self.sc.after.retry.append((self.game.id, cmd.mail, self.sc.inbound_id))
        self.reply.done(line, msg("mail {mail} is handled again, once, as soon as this mail is "
                                  "stored: its sender gets the answer, and you a notice if it "
                                  "fails again", mail=cmd.mail))

    def do_declinejoin(self, line: SourceLine, cmd: c.DeclineJoin, acting: str | None) -> None:
        """DECLINE (``gm mod decline``): an address turned away from a forming game."""
        from gm.service.forming import decline

        freed = decline(self.sc.ctx, self.sc.session, self.game, cmd.address, actor=self.actor)
        self.reply.done(line, msg("{address} has no seat in game {game} any more: {power} is "
                                  "open again; the address was told", address=cmd.address,
                                  game=self.game.id, power=freed) if freed else msg(
            "the request of {address} to join game {game} is dropped; the address was told",
            address=cmd.address, game=self.game.id))

    def do_setobserver(self, line: SourceLine, cmd: c.SetObserver, acting: str | None) -> None:
        """ADD OBSERVER / STOP OBSERVER (``gm game observe [--stop]``): a private act."""
        from gm.service.observers import observers, set_observer

        known = cmd.address.lower() in (a.lower() for a in observers(self.game))
        if known and not cmd.stop:
            raise ServiceError(msg("{address} observes game {game} already; nothing changed",
                                   address=cmd.address, game=self.game.id))
        if cmd.stop and not known:
            raise ServiceError(msg("{address} does not observe game {game}; nothing changed",
                                   address=cmd.address, game=self.game.id))
        after = set_observer(self.sc.ctx, self.sc.session, self.game, cmd.address,
                             actor=self.actor, stop=cmd.stop)
        listing = ", ".join(after) or msg("none")
        self.reply.done(line, msg("{address} no longer gets the public reports of game {game} "
                                  "(observers now: {listing}; a private act)",
                                  address=cmd.address, game=self.game.id, listing=listing)
                        if cmd.stop else msg(
            "{address} gets the public reports of game {game} from the next one on (observers "
            "now: {listing}; a private act); nothing was mailed to it now",
            address=cmd.address, game=self.game.id, listing=listing))

    def do_revealseed(self, line: SourceLine, cmd: c.RevealSeed, acting: str | None) -> None:
        """REVEAL SEED [FORCE] (``gm mod reveal [--force]``)."""
        if self.game.status != "ended" and not cmd.force:
            raise ServiceError(msg("game {game} is still running: once the seed is published, "
                                   "players can compute every future roll; REVEAL SEED FORCE "
                                   "reveals it anyway; nothing changed", game=self.game.id))
        seed = mod.reveal_seed(self.sc.ctx, self.sc.session, self.game, actor=self.actor,
                               reason=cmd.reason or "", force=cmd.force)
        self.reply.done(line, msg("the seed of game {game} is published: {seed}",
                                  game=self.game.id, seed=seed))

    # -- what the moderator looks at (gm game show, gm mod mails, gm history) -----------

    def _view(self, line: SourceLine, text: str) -> None:
        """A view, after the reply's lines, headed by the line that asked for it: the
        tables keep their columns (the reply's lines are wrapped)."""
        self.reply.appendix.append(f"==== {line.text.strip()} ====\n{text}")

    def _said(self) -> Any:
        from gm.service.notify import moderator_language
        from gm.service.views import Said

        return Said(moderator_language(self.game), by_mail=True)

    def do_showgame(self, line: SourceLine, cmd: c.ShowGame, acting: str | None) -> None:
        """SHOW GAME (``gm game show``): seats, addresses, flags, hold, waiting list."""
        from gm.service.views import game_text, game_view

        self._view(line, game_text(game_view(self.sc.ctx, self.sc.session, self.game),
                                   self._said()))
        self.reply.done(line, msg("game {game} as gm game show shows it follows this reply",
                                  game=self.game.id))

    def do_showmails(self, line: SourceLine, cmd: c.ShowMails, acting: str | None) -> None:
        """SHOW MAILS [UNDELIVERED] [n] (``gm mod mails GAME [--undelivered] --last n``)."""
        from gm.service.views import arrived_text, undelivered_text

        said, last = self._said(), max(1, cmd.last)
        if cmd.undelivered:
            from gm.service.undelivered import undelivered, waiting_for_retry

            rows = undelivered(self.sc.ctx, self.sc.session, self.game.id, last=last)
            retrying = waiting_for_retry(self.sc.session, self.game.id)
            self._view(line, undelivered_text(rows, self.game.id, said, retrying))
            self.reply.done(line, plural(
                "the latest mail of game {game} that could not be delivered follows this reply",
                "the latest {n} mails of game {game} that could not be delivered, at most, "
                "follow this reply", last, game=self.game.id))
            return
        from gm.service.inbox import arrived

        self._view(line, arrived_text(arrived(self.sc.session, self.game.id, last=last),
                                      self.game.id, said=said))
        self.reply.done(line, plural(
            "the latest mail that arrived for game {game} follows this reply",
            "the latest {n} mails that arrived for game {game}, at most, follow this reply",
            last, game=self.game.id))

    def do_showhistory(self, line: SourceLine, cmd: c.ShowHistory, acting: str | None) -> None:
        """SHOW HISTORY [n] (``gm history GAME --private --last n``)."""
        from gm.service.history import history_rows, history_text, last_phases

        rows = last_phases(history_rows(self.sc.session, self.game.id, private=True),
                           max(1, cmd.last))
        self._view(line, history_text(rows, self._said().language))
        self.reply.done(line, plural(
            "the history of the last phase of game {game}, private acts included, follows "
            "this reply", "the history of the last {n} phases of game {game}, private acts "
            "included, follows this reply", max(1, cmd.last), game=self.game.id))

    def do_showstate(self, line: SourceLine, cmd: c.ShowState, acting: str | None) -> None:
        """SHOW STATE [power] (``gm state GAME [--as power]``): the JSON the command line
        prints, as text after the reply's lines (docs/orders.md says why not attached)."""
        from gm.pipeline.signon import resolve_power
        from gm.service.views import state_text, state_view

        seat = resolve_power(self.sc.session, self.game, cmd.power) if cmd.power else None
        power = seat.power if seat is not None else cmd.power  # a power in any language
        self._view(line, state_text(state_view(self.sc.session, self.game, power)))
        self.reply.done(line, msg("what {power} may know of game {game}, as gm state --as "
                                  "{power} prints it, follows this reply", power=power,
                                  game=self.game.id) if power else msg(
            "the state of game {game}, as gm state prints it, follows this reply (its dotted "
            "keys are the paths SET takes)", game=self.game.id))

    # -- helpers ---------------------------------------------------------

    def _seat_named(self, written: str) -> Seat:
        """The seat of the power ``written`` (in any language the game knows), or a refusal
        naming the game's powers."""
        from gm.pipeline.signon import resolve_power

        seat = resolve_power(self.sc.session, self.game, written)
        if seat is None:
            names = ", ".join(s.power for s in seats_of(self.sc.session, self.game.id))
            raise ServiceError(msg("game {game} has no power {power!r} (powers: {names})",
                                   game=self.game.id, power=written, names=names))
        return seat

    def _own_seat(self) -> Seat:
        if self.seat is None:
            raise ServiceError(msg("only a player can change their own settings"))
        return self.seat

    def _own_address(self) -> str:
        return self.seat.address if self.seat and self.seat.address else self.sc.mail.reply_address



def _when(deadline: datetime | None) -> str:
    return when(utc(deadline)) if deadline else "-"


def _masked(line: SourceLine, text: Text) -> Any:
    """A reply entry for a PASSWORD line that never shows the password."""
    from gm.pipeline.reply import Entry

    return Entry("done", "PASSWORD ********", line.number, reason=text)
