"""``gm mod ...``: moderator acts from the command line, each recorded with who and why."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import IO, Any

import click

from gm.cli.app import App, emit, json_option, pass_app, when


def parse_duration(text: str) -> timedelta:
    """``48h``, ``2d``, ``90m``, ``1d12h`` (the deadline settings' syntax)."""
    from gm.service.deadlines import SettingsError
    from gm.service.deadlines import parse_duration as parse

    try:
        return parse(text, "amount")
    except SettingsError as exc:
        raise click.BadParameter(str(exc)) from exc


def parse_when(text: str) -> datetime:
    """``2026-12-01 20:00`` (UTC unless an offset is given)."""
    try:
        dt = datetime.fromisoformat(text.strip().replace(" ", "T", 1))
    except ValueError as exc:
        raise click.BadParameter(f"'{text}' is not a time like 2026-12-01 20:00") from exc
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


def _common(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option("--reason", default="", help="Why (recorded in the history).")(f)
    f = click.option("--private", is_flag=True, help="Keep this act out of the public history.")(f)
    f = click.option("--actor", default="moderator (cli)", help="Who acts (recorded).")(f)
    return f


@click.group()
def mod() -> None:
    """Moderator acts: each is recorded with who and why, and shown in the history unless --private."""


def _run(app: App, game_id: str, act: Callable[..., Any]) -> Any:
    from gm.db.engine import session_scope
    from gm.service.games import get_game

    ctx = app.context()
    with session_scope(ctx.engine) as session:
        game = get_game(session, game_id)
        return act(ctx, session, game)


@mod.command()
@click.argument("game_id")
@click.argument("amount", required=False)
@click.option("--to", "to", default=None, help="New deadline, e.g. '2026-12-01 20:00' (UTC).")
@_common
@pass_app
def extend(app: App, game_id: str, amount: str | None, to: str | None, reason: str,
           private: bool, actor: str) -> None:
    """Move the current deadline by AMOUNT (48h, 2d) or --to a time."""
    from gm.service import moderator as mod_service

    if not amount and not to:
        raise click.UsageError("give an amount (48h) or --to TIME")
    phase = _run(app, game_id, lambda c, s, g: mod_service.extend(
        c, s, g, actor=actor, by=parse_duration(amount) if amount else None,
        to=parse_when(to) if to else None, reason=reason, private=private))
    if not phase.released:  # under review: applied by RELEASE (gm.service.moderator.extend)
        click.echo(f"{game_id}: the clock of {phase.phase_id} has not started; this extension "
                   "applies to the deadline RELEASE sets, and no player was told")
        return
    click.echo(f"{game_id}: {phase.phase_id} deadline now {when(phase.deadline)}")


@mod.command()
@click.argument("game_id")
@click.argument("text")
@click.option("--private", is_flag=True, help="Record it but do not publish it.")
@click.option("--actor", default="moderator (cli)")
@pass_app
def ruling(app: App, game_id: str, text: str, private: bool, actor: str) -> None:
    """Record a ruling; it is published with the next report."""
    from gm.service import moderator as mod_service

    _run(app, game_id, lambda c, s, g: mod_service.ruling(c, s, g, actor=actor, text=text,
                                                           private=private))
    click.echo(f"{game_id}: ruling recorded")


@mod.command("set")
@click.argument("game_id")
@click.argument("path")
@click.argument("value")
@_common
@pass_app
def set_(app: App, game_id: str, path: str, value: str, reason: str, private: bool, actor: str) -> None:
    """Override the state at PATH (a dotted key of `gm state --json`) with VALUE (JSON or text)."""
    from gm.service import moderator as mod_service

    new = _run(app, game_id, lambda c, s, g: mod_service.set_path(
        c, s, g, actor=actor, path=path, value=value, reason=reason, private=private))
    click.echo(f"{game_id}: {path} = {new!r}")


@mod.command()
@click.argument("game_id")
@click.argument("phase_id")
@click.option("--fresh-dice", is_flag=True, help="Re-adjudicate with new dice (a new, logged branch).")
@_common
@pass_app
def rollback(app: App, game_id: str, phase_id: str, fresh_dice: bool, reason: str, private: bool,
             actor: str) -> None:
    """Go back to the start of PHASE_ID: later phases undone, its orders kept, everyone told."""
    from gm.service import moderator as mod_service

    phase = _run(app, game_id, lambda c, s, g: mod_service.rollback(
        c, s, g, actor=actor, phase_id=phase_id, fresh_dice=fresh_dice, reason=reason,
        private=private))
    click.echo(f"{game_id}: back at {phase.phase_id}, deadline {when(phase.deadline)}")


@mod.command()
@click.argument("game_id")
@click.argument("address")
@click.option("--power", default=None,
              help="The seat to give (default: the one ADDRESS asked for with JOIN).")
@click.option("--actor", default="moderator (cli)", help="Who acts (recorded).")
@pass_app
def approve(app: App, game_id: str, address: str, power: str | None, actor: str) -> None:
    """Seat ADDRESS in a forming game (its JOIN request, or --power); it is mailed the
    answer, and the game starts if that was its last open seat."""
    from gm.service.forming import approve as approve_join

    answer = _run(app, game_id, lambda c, s, g: approve_join(c, s, g, address, power, actor=actor))
    click.echo(f"{game_id}: {address} now plays {answer.seated}"
               + ("; every seat is filled: the game has started and the welcomes are queued"
                  if answer.started else ""))


@mod.command()
@click.argument("game_id")
@click.argument("address")
@click.option("--actor", default="moderator (cli)", help="Who acts (recorded).")
@pass_app
def decline(app: App, game_id: str, address: str, actor: str) -> None:
    """Turn ADDRESS away from a forming game: its JOIN request is dropped, or the seat it
    took is open again; it is mailed that."""
    from gm.service.forming import decline as decline_join

    freed = _run(app, game_id, lambda c, s, g: decline_join(c, s, g, address, actor=actor))
    click.echo(f"{game_id}: {address} declined; "
               + (f"{freed} is open again" if freed else "request dropped"))


@mod.command()
@click.argument("game_id")
@click.argument("power")
@click.argument("address")
@_common
@pass_app
def replace(app: App, game_id: str, power: str, address: str, reason: str, private: bool,
            actor: str) -> None:
    """Give POWER to a new player at ADDRESS: new password, the current report."""
    from gm.service import moderator as mod_service
    from gm.service.games import current_phase

    released = _run(app, game_id, lambda c, s, g: (mod_service.replace_power(
        c, s, g, actor=actor, power=power, address=address, reason=reason, private=private),
        current_phase(s, g.id).released)[1])
    click.echo(f"{game_id}: {power} now played by {address}; password mailed, "
               + ("report mailed" if released else "report held until RELEASE"))


@mod.command()
@click.argument("game_id")
@click.argument("power")
@click.option("--reason", default="", help="Why (recorded in the private history).")
@click.option("--actor", default="moderator (cli)", help="Who acts (recorded).")
@pass_app
def unbounce(app: App, game_id: str, power: str, reason: str, actor: str) -> None:
    """POWER's address works again (the mailbox was full and is fixed): take off its mark
    as bouncing for good (`gm game show`: BOUNCING), so that the next mail to it that
    bounces is told again. A private act (`gm history GAME --private`); nobody is mailed."""
    from gm.service import moderator as mod_service

    mark = _run(app, game_id, lambda c, s, g: mod_service.unbounce(
        c, s, g, actor=actor, power=power, reason=reason))
    click.echo(f"{game_id}: {mark.address} of {power} is no longer marked as bouncing "
               f"({mark.count} bounced since {when(mark.since)}); the next bounce is told again")


@mod.command()
@click.argument("game_id")
@click.argument("power")
@click.argument("address")
@click.option("--reason", default="", help="Why (recorded in the private history).")
@click.option("--actor", default="moderator (cli)", help="Who acts (recorded).")
@pass_app
def address(app: App, game_id: str, power: str, address: str, reason: str, actor: str) -> None:
    """Move POWER's mail to ADDRESS: the same player, a new mailbox (the old one is gone).
    The password stays and nobody else is told (unlike `gm mod replace`); both addresses
    get a notice saying how to get a new password (SEND PASSWORD). A private act."""
    from gm.service import moderator as mod_service

    old = _run(app, game_id, lambda c, s, g: mod_service.move_address(
        c, s, g, actor=actor, power=power, address=address, reason=reason))
    click.echo(f"{game_id}: mail for {power} now goes to {address} (it went to {old or '-'}); "
               "both addresses were told, nobody else")


@mod.command()
@click.argument("game_id")
@click.argument("power")
@_common
@pass_app
def resend(app: App, game_id: str, power: str, reason: str, private: bool, actor: str) -> None:
    """Mail POWER its current report again, to the seat's own address (a report the
    player says never came). Refused while the phase is under review (RELEASE sends it)."""
    from gm.service import moderator as mod_service

    address = _run(app, game_id, lambda c, s, g: mod_service.send_report(
        c, s, g, actor=actor, power=power, reason=reason, private=private).address)
    click.echo(f"{game_id}: the current report of {power} is on its way to {address}")


@mod.command()
@click.argument("game_id")
@_common
@pass_app
def pause(app: App, game_id: str, reason: str, private: bool, actor: str) -> None:
    """Stop the game's clock."""
    from gm.service import moderator as mod_service

    _run(app, game_id, lambda c, s, g: mod_service.pause(c, s, g, actor=actor, reason=reason,
                                                          private=private))
    click.echo(f"{game_id}: paused")


@mod.command()
@click.argument("game_id")
@click.option("--deadline", default=None, help="Set this deadline instead of moving it by the pause.")
@_common
@pass_app
def resume(app: App, game_id: str, deadline: str | None, reason: str, private: bool, actor: str) -> None:
    """Restart the clock; the deadline moves by the length of the pause."""
    from gm.service import moderator as mod_service

    phase = _run(app, game_id, lambda c, s, g: mod_service.resume(
        c, s, g, actor=actor, deadline=parse_when(deadline) if deadline else None,
        reason=reason, private=private))
    click.echo(f"{game_id}: running; deadline {when(phase.deadline)}")


@mod.command()
@click.argument("game_id")
@click.argument("rolls", nargs=-1, type=int)
@click.option("--file", "file", type=click.File("r"), help="Read the rolls from a file.")
@click.option("--then-seed", is_flag=True, help="When the rolls run out, let the seed take over.")
@_common
@pass_app
def dice(app: App, game_id: str, rolls: tuple[int, ...], file: IO[str] | None, then_seed: bool,
         reason: str, private: bool, actor: str) -> None:
    """Rolls to use, in order, in the next adjudication (from a table or a dice server)."""
    from gm.service import moderator as mod_service

    values = list(rolls) + ([int(x) for x in file.read().split()] if file else [])
    _run(app, game_id, lambda c, s, g: mod_service.supply_dice(
        c, s, g, actor=actor, rolls=values, then_seed=then_seed, reason=reason, private=private))
    click.echo(f"{game_id}: {len(values)} rolls supplied for the next adjudication")


@mod.command()
@click.argument("game_id")
@click.option("--reason", default="")
@click.option("--actor", default="moderator (cli)")
@pass_app
def release(app: App, game_id: str, reason: str, actor: str) -> None:
    """Send the held (preview) reports to the players; their deadline starts now."""
    from gm.service import moderator as mod_service

    n = _run(app, game_id, lambda c, s, g: mod_service.release(c, s, g, actor=actor, reason=reason))
    click.echo(f"{game_id}: {n} reports released")


@mod.command()
@click.argument("game_id")
@click.option("--reason", default="")
@click.option("--actor", default="moderator (cli)")
@click.option("--force", is_flag=True,
              help="Reveal while the game still runs (players can then compute every future roll).")
@pass_app
def reveal(app: App, game_id: str, reason: str, actor: str, force: bool) -> None:
    """Publish the game's dice seed so players can verify every roll (a running game
    needs --force: the seed gives away every future roll)."""
    from gm.service import moderator as mod_service

    seed = _run(app, game_id, lambda c, s, g: mod_service.reveal_seed(c, s, g, actor=actor,
                                                                         reason=reason, force=force))
    click.echo(f"{game_id}: seed {seed}")


@mod.command("adjudicate")
@click.argument("game_id")
@_common
@pass_app
def adjudicate_now(app: App, game_id: str, reason: str, private: bool, actor: str) -> None:
    """ADJUDICATE NOW: close the current phase (recorded as a moderator act)."""
    from gm.db.engine import session_scope
    from gm.service import moderator as mod_service
    from gm.service.adjudicate import close_phase
    from gm.service.errors import Conflict
    from gm.service.games import current_phase, get_game

    ctx = app.context()
    with session_scope(ctx.engine) as session:
        game = get_game(session, game_id)
        phase = current_phase(session, game_id)
        mod_service.record_act(ctx, session, game, actor=actor, command="adjudicate",
                               args={"phase_id": phase.phase_id}, reason=reason, private=private)
    result = close_phase(ctx, game_id, phase.seq, by=actor, reason=reason)
    if not result.closed:
        raise Conflict(result.problem or f"{phase.phase_id} is not open")
    click.echo(f"{game_id}: {result.phase_id} adjudicated; now {result.next_phase_id}")


@mod.command()
@click.argument("game_id")
@click.option("--keep-open", is_flag=True, help="Lift the hold without closing the phase again.")
@click.option("--reason", default="")
@click.option("--actor", default="moderator (cli)")
@pass_app
def unhold(app: App, game_id: str, keep_open: bool, reason: str, actor: str) -> None:
    """Lift the hold of a game whose phase raised while closing, and close that phase again.

    If it raises again, the game is held again (and you are told again).
    """
    from gm.service.adjudicate import unhold as lift
    from gm.service.errors import Conflict

    result = lift(app.context(), game_id, actor=actor, reason=reason, close=not keep_open)
    if result is None:
        click.echo(f"{game_id}: hold lifted")
    elif result.closed:
        click.echo(f"{game_id}: hold lifted; {result.phase_id} adjudicated; now {result.next_phase_id}")
    else:
        raise Conflict(f"{game_id}: hold lifted, but closing the phase failed again; "
                       f"held again: {result.problem}" if result.problem else
                       f"{game_id}: hold lifted; the phase was not closed")


@mod.command()
@click.argument("game_id")
@click.option("--from", "sender", default=None, metavar="ADDRESS",
              help="Only mails from this address (or part of it), also those gm could not "
                   "tie to any game.")
@click.option("--undelivered", is_flag=True,
              help="Instead: the mails gm sent for GAME_ID that did not reach some or all "
                   "of their addresses (refused by the mail server, or bounced), with those "
                   "addresses (sent to them again by `gm mod requeue`).")
@click.option("--last", default=20, show_default=True, help="How many, the latest.")
@json_option
@pass_app
def mails(app: App, game_id: str, sender: str | None, undelivered: bool, last: int,
          as_json: bool) -> None:
    """The mails that arrived for GAME_ID (the latest, oldest first): number, time,
    sender, subject, what gm made of it (handled, ignored and why, failed). For a player
    who swears he sent his orders; a failed one is handled again by `gm mod retry`.
    With --undelivered, the mails gm could not deliver to some or all of their addresses
    (see `gm mod requeue`). By mail: SHOW MAILS [UNDELIVERED] [n] (gm.service.views)."""
    from dataclasses import asdict

    from gm.db.engine import session_scope
    from gm.service.games import get_game
    from gm.service.inbox import arrived
    from gm.service.views import arrived_text

    if undelivered:
        if sender is not None:
            raise click.UsageError("--from goes with the mails that arrived, not --undelivered")
        _undelivered(app, game_id, last, as_json)
        return
    ctx = app.context()
    with session_scope(ctx.engine) as session:
        get_game(session, game_id)
        rows = arrived(session, game_id, sender=sender, last=last)
    emit([asdict(r) for r in rows], as_json, arrived_text(rows, game_id, sender))


def _undelivered(app: App, game_id: str, last: int, as_json: bool) -> None:
    """`gm mod mails GAME --undelivered`: one mail a line, the addresses that did not get
    it; under it its copies, if queued again, and who still waits for one."""
    from dataclasses import asdict

    from gm.db.engine import session_scope
    from gm.service.games import get_game
    from gm.service.undelivered import undelivered, waiting_for_retry
    from gm.service.views import undelivered_text

    ctx = app.context()
    with session_scope(ctx.engine) as session:
        get_game(session, game_id)
        rows = undelivered(ctx, session, game_id, last=last)
        retrying = waiting_for_retry(session, game_id)
    emit([asdict(r) | {"to": r.to, "powers": r.powers} for r in rows], as_json,
         undelivered_text(rows, game_id, retrying=retrying))


@mod.command()
@click.argument("mail_id", type=int)
@click.option("--reason", default="", help="Why (recorded in the private history).")
@click.option("--actor", default="moderator (cli)", help="Who acts (recorded).")
@pass_app
def requeue(app: App, mail_id: int, reason: str, actor: str) -> None:
    """Send again, once, mail MAIL_ID that could not be delivered to some or all of its
    addresses (refused by the mail server, or bounced; its number is in the moderator's
    notice and in `gm mod mails GAME --undelivered`), to the current address of each seat
    that did not get it, never to those that did: fix the address first (`gm mod
    address`). A private act."""
    from gm.db.engine import session_scope
    from gm.service.undelivered import requeue as queue_again

    ctx = app.context()
    with session_scope(ctx.engine) as session:
        done = queue_again(ctx, session, mail_id, actor=actor, reason=reason)
    for one in done.copies:
        where = ("the address it failed at" if one.new.lower() == one.old.lower()
                 else f"it failed at {one.old}")
        click.echo(f"mail {mail_id} ({done.kind} \"{done.subject}\") is queued again as mail "
                   f"{one.copy}, to {one.new} ({where})")


@mod.command()
@click.argument("mail_id", type=int)
@pass_app
def retry(app: App, mail_id: int) -> None:
    """Handle failed mail MAIL_ID (see `gm game show`, the moderator's notice) again, once."""
    from gm.db.engine import session_scope
    from gm.db.models import InboundMail
    from gm.pipeline.handle import handle_inbound
    from gm.service.errors import Conflict, NotFound

    ctx = app.context()
    with session_scope(ctx.engine) as session:
        row = session.get(InboundMail, mail_id)
        if row is None:
            raise NotFound(f"no mail {mail_id}")
        if row.status != "failed":
            raise Conflict(f"mail {mail_id} is {row.status}, not failed: nothing to retry")
    handle_inbound(ctx, mail_id, retry=True)
    with session_scope(ctx.engine) as session:
        row = session.get(InboundMail, mail_id)
        assert row is not None
        status, note = row.status, row.note
    if status == "failed":
        raise Conflict(f"mail {mail_id} failed again: {note}")
    click.echo(f"mail {mail_id}: {status}" + (f" ({note})" if note else ""))
