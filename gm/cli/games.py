"""``gm game``, ``gm state``, ``gm history``, ``gm replay``, ``gm adjudicate``."""

from __future__ import annotations

import json
from typing import Any

import click

from gm.cli.app import App, counted, emit, json_option, pass_app, when


@click.group()
def game() -> None:
    """Create games and look at them."""


@game.command("new")
@click.argument("game_id")
@click.option("--module", "module_name", required=True, help="The game: baltica, britannica, ...")
@click.option("--scenario", required=True, help="A scenario of that game (see `gm game scenarios`).")
@click.option("--seat", "seat_specs", multiple=True, metavar="POWER=ADDRESS[:PASSWORD]",
              help="A player: power, mail address and optionally the password (default: a "
                   "new one, shown once). Repeat for each power.")
@click.option("--language", "languages", multiple=True, metavar="POWER=LANG",
              help="A seat's language (en, fr; default en). Repeatable.")
@click.option("--timezone", "timezones", multiple=True, metavar="POWER=ZONE",
              help="A seat's time zone, e.g. coalition=Europe/Moscow (default UTC). Repeatable.")
@click.option("--moderator", default="", help="The moderator's mail address.")
@click.option("--moderator-password", default=None,
              help="The moderator's password (default: a new one, shown once).")
@click.option("--seed", default=None,
              help="Seed in hex, an even number of digits (default: a fresh secret one).")
@click.option("--set", "options", multiple=True, metavar="KEY=VALUE",
              help="A game setting, e.g. preview=true, ruleset=3cg-1.1 (value read as JSON if it can be).")
@click.option("--forming", is_flag=True,
              help="Players join by mail: every power without --seat is an open seat (JOIN "
                   "game power|any); the game starts when the last one is filled.")
@click.option("--approve", "approve_joins", is_flag=True,
              help="With --forming: each JOIN waits for the moderator (gm mod approve).")
@json_option
@pass_app
def game_new(app: App, game_id: str, module_name: str, scenario: str, seat_specs: tuple[str, ...],
             languages: tuple[str, ...], timezones: tuple[str, ...], moderator: str,
             moderator_password: str | None, seed: str | None, options: tuple[str, ...],
             forming: bool, approve_joins: bool, as_json: bool) -> None:
    """Create GAME_ID and open its first phase. Prints each seat's password once.

    Example: ``--seat sweden=karl@example.org:hunter2 --language sweden=fr
    --timezone sweden=Europe/Stockholm``. With ``--forming`` nothing opens yet: players
    take the open seats by mail and the game starts, with its first deadline counted
    from then, when the last one is filled (passwords are mailed then, not printed)."""
    from gm.db.engine import session_scope
    from gm.service.games import create_game, current_phase

    specs = seat_specs_of(seat_specs, languages, timezones)
    seed_bytes = seed_of(seed)
    settings = {}
    for opt in options:
        key, sep, value = opt.partition("=")
        if not sep:
            raise click.BadParameter(f"'{opt}' is not KEY=VALUE", param_hint="--set")
        try:
            settings[key.strip()] = json.loads(value)
        except ValueError:
            settings[key.strip()] = value
    if approve_joins and not forming:
        raise click.UsageError("--approve goes with --forming")
    if forming:
        settings["forming"] = {"approve": approve_joins}
    ctx = app.context()
    with session_scope(ctx.engine) as session:
        made = create_game(ctx, session, game_id=game_id, module_name=module_name,
                           scenario=scenario, seats=specs, moderator_address=moderator,
                           moderator_password=moderator_password, settings=settings,
                           seed=seed_bytes, forming=forming, play_out=True)
        if forming:
            from gm.service.forming import open_seats

            free = open_seats(session, made.game)
            data = {"game": game_id, "status": "forming", "open": free,
                    "approve": approve_joins, "moderator_password": made.moderator_password,
                    "commitment": made.game.commitment}
    if forming:
        emit(data, as_json, "\n".join([
            f"game {game_id} created, forming: open seats {', '.join(free)}",
            f"  players join by mail: JOIN {game_id} <power> (or any)"
            + ("; you approve each with gm mod approve" if approve_joins else ""),
            "  it starts, and its first deadline is set, when the last seat is filled",
            f"  moderator password: {made.moderator_password}", "(shown once)"]))
        return
    with session_scope(ctx.engine) as session:
        phase = current_phase(session, game_id)
        data = {"game": game_id, "phase": phase.phase_id, "deadline": phase.deadline,
                "passwords": made.passwords, "moderator_password": made.moderator_password,
                "commitment": made.game.commitment}
    from gm.service.adjudicate import settle

    settle(ctx, game_id, by="gm")  # nothing left to do: create_game played the opening out
    text = [f"game {game_id} created; first phase {phase.phase_id}, deadline {when(phase.deadline)}"]
    text += [f"  {p}: password {pw}" for p, pw in made.passwords.items()]
    text.append(f"  moderator password: {made.moderator_password}")
    text.append("(shown once; each player was mailed theirs)")
    emit(data, as_json, "\n".join(text))


def seat_specs_of(seat_specs: tuple[str, ...], languages: tuple[str, ...],
                  timezones: tuple[str, ...]) -> list[Any]:
    """The seats of ``--seat POWER=ADDRESS[:PASSWORD]``, ``--language POWER=LANG`` and
    ``--timezone POWER=ZONE``; a mistake is a :class:`click.BadParameter`."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    from gm.i18n import languages as offered
    from gm.service.games import SeatSpec

    lang = _per_power(languages, "--language", "POWER=LANG")
    zone = _per_power(timezones, "--timezone", "POWER=ZONE")
    specs: list[SeatSpec] = []
    for spec in seat_specs:
        power, sep, rest = spec.partition("=")
        address, _, password = rest.partition(":")
        power, address = power.strip().lower(), address.strip()
        if not sep or not power or "@" not in address:
            raise click.BadParameter(f"'{spec}' is not POWER=ADDRESS[:PASSWORD]",
                                     param_hint="--seat")
        language = lang.pop(power, "en")
        if language not in offered():
            raise click.BadParameter(f"language {language!r} is not offered "
                                     f"(choose from {', '.join(offered())})",
                                     param_hint="--language")
        timezone = zone.pop(power, "UTC")
        try:
            ZoneInfo(timezone)
        except (ZoneInfoNotFoundError, ValueError):
            raise click.BadParameter(f"unknown time zone {timezone!r} (e.g. Europe/Paris)",
                                     param_hint="--timezone") from None
        specs.append(SeatSpec(power=power, address=address, password=password or None,
                              language=language, timezone=timezone))
    for left, hint in ((lang, "--language"), (zone, "--timezone")):
        if left:
            raise click.BadParameter(f"no --seat for {', '.join(sorted(left))}", param_hint=hint)
    return specs


def _per_power(items: tuple[str, ...], hint: str, form: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        power, sep, value = item.partition("=")
        if not sep or not power.strip() or not value.strip():
            raise click.BadParameter(f"'{item}' is not {form}", param_hint=hint)
        out[power.strip().lower()] = value.strip()
    return out


def seed_of(seed: str | None) -> bytes | None:
    """The bytes of ``--seed`` (hex); a mistake is a :class:`click.BadParameter`."""
    if not seed:
        return None
    try:
        return bytes.fromhex(seed.strip())
    except ValueError:
        raise click.BadParameter(f"{seed!r} is not hex with an even number of digits "
                                 "(e.g. 07 or 2a7f)", param_hint="--seed") from None


@game.command("list")
@json_option
@pass_app
def game_list(app: App, as_json: bool) -> None:
    """List every game with its current phase and deadline."""
    from sqlmodel import col, select

    from gm.db.engine import session_scope
    from gm.db.models import Game
    from gm.service.games import current_phase

    ctx = app.context()
    rows: list[dict[str, Any]] = []
    with session_scope(ctx.engine) as session:
        for g in session.exec(select(Game).order_by(col(Game.id))):
            if g.status == "forming":  # no phase until its seats are filled
                from gm.service.forming import open_seats

                rows.append({"game": g.id, "module": g.module, "scenario": g.scenario,
                             "status": "forming", "open": open_seats(session, g),
                             "phase": "open: " + ", ".join(open_seats(session, g)),
                             "deadline": None, "hold": None})
                continue
            phase = current_phase(session, g.id)
            rows.append({"game": g.id, "module": g.module, "scenario": g.scenario,
                         "status": "held" if g.hold_reason else g.status, "phase": phase.phase_id,
                         "deadline": phase.deadline, "hold": g.hold_reason or None})

    def line(r: dict[str, Any]) -> str:
        out = f"{r['game']:<16} {r['module']:<11} {r['status']:<8} {r['phase']}"
        if r["deadline"]:
            out = f"{out:<74} {r['deadline']:%Y-%m-%d %H:%M}"
        return out + (f"\n{'':<16} held: {r['hold']}" if r["hold"] else "")

    text = "\n".join(line(r) for r in rows) or "no games yet: create one with `gm game new`"
    emit(rows, as_json, text)


@game.command("show")
@click.argument("game_id")
@json_option
@pass_app
def game_show(app: App, game_id: str, as_json: bool) -> None:
    """Show a game's seats, phase, deadline and settings (never passwords); by mail SHOW
    GAME (gm.service.views)."""
    from gm.db.engine import session_scope
    from gm.service.games import get_game
    from gm.service.views import game_text, game_view

    ctx = app.context()
    with session_scope(ctx.engine) as session:
        data = game_view(ctx, session, get_game(session, game_id))
    emit(data, as_json, game_text(data))


@game.command("observe")
@click.argument("game_id")
@click.argument("address")
@click.option("--stop", is_flag=True, help="Stop sending this address the public reports.")
@json_option
@pass_app
def game_observe(app: App, game_id: str, address: str, stop: bool, as_json: bool) -> None:
    """Send ADDRESS the game's public reports (an observer), or stop with --stop."""
    from gm.db.engine import session_scope
    from gm.service.games import get_game
    from gm.service.observers import set_observer

    ctx = app.context()
    with session_scope(ctx.engine) as session:
        after = set_observer(ctx, session, get_game(session, game_id), address, actor="moderator (cli)",
                             stop=stop)
    emit({"game": game_id, "observers": after}, as_json,
         f"{game_id} observers: {', '.join(after) or 'none'}")


@game.command("moderator")
@click.argument("game_id")
@click.option("--address", default=None, help="The moderator's new mail address (notices go there; "
              "MODERATOR sign-ons are checked against it).")
@click.option("--language", default=None, help="The language of the moderator's notices and "
              "replies (en, fr): the game's moderator_language.")
@click.option("--new-password", "fresh_password", is_flag=True,
              help="A new moderator password, shown once (the old one stops working).")
@click.option("--actor", default="moderator (cli)", help="Who acts (recorded).")
@pass_app
def game_moderator(app: App, game_id: str, address: str | None, language: str | None,
                   fresh_password: bool, actor: str) -> None:
    """Change GAME_ID's moderator after its creation: another address, the language of
    the moderator's mail, a new password. Nothing changes unless every value given is
    good; a private act (`gm history GAME --private`). Nobody is mailed."""
    from gm.db.engine import session_scope
    from gm.service.games import get_game
    from gm.service.moderator import set_moderator

    if address is None and language is None and not fresh_password:
        raise click.UsageError("give --address, --language or --new-password")
    ctx = app.context()
    with session_scope(ctx.engine) as session:
        g = get_game(session, game_id)
        password = set_moderator(ctx, session, g, actor=actor, address=address,
                                 language=language, fresh_password=fresh_password)
        now = (g.moderator_address or "-", (g.settings or {}).get("moderator_language", "en"))
    click.echo(f"{game_id}: moderator {now[0]}, language {now[1]}")
    if password:
        click.echo(f"  moderator password: {password}\n(shown once; the old one no longer works)")


@game.command("scenarios")
@click.argument("module_name")
@json_option
def game_scenarios(module_name: str, as_json: bool) -> None:
    """List the scenarios of a game module and their powers."""
    from gm.games import registry

    rows = [{"id": s.id, "title": s.title, "powers": list(s.powers)}
            for s in registry.get(module_name).scenarios()]
    emit(rows, as_json, "\n".join(f"{r['id']:<10} {r['title']} ({', '.join(r['powers'])})" for r in rows))


@click.command()
@click.argument("game_id")
@click.option("--as", "power", default=None, help="Show only what this power may know.")
@pass_app
def state(app: App, game_id: str, power: str | None) -> None:
    """The current state as JSON: the full state for the moderator, or a power's fog view.

    Its dotted keys are the paths of `gm mod set`. By mail, the moderator's SHOW STATE [P]
    (the same JSON, after the reply's lines).
    """
    from gm.db.engine import session_scope
    from gm.service.games import get_game
    from gm.service.views import state_text, state_view

    ctx = app.context()
    with session_scope(ctx.engine) as session:
        view = state_view(session, get_game(session, game_id), power)
    # The view is a tree either way; JSON is its clearest text form too (by mail: SHOW STATE).
    click.echo(state_text(view))


@click.command()
@click.argument("game_id")
@click.option("--private", "show_private", is_flag=True,
              help="Include private moderator acts and the mails that bounced.")
@click.option("--last", default=None, type=click.IntRange(min=1),
              help="Only the last N phases (default: all).")
@json_option
@pass_app
def history(app: App, game_id: str, show_private: bool, last: int | None, as_json: bool) -> None:
    """The game's history: phases, moderator acts, rulings, orders once revealed, press
    (with --private: private acts, and each mail that bounced after it was sent). By mail,
    the moderator's SHOW HISTORY [n] (private acts included, the last 5 phases unless n)."""
    from gm.db.engine import session_scope
    from gm.service.games import get_game
    from gm.service.history import history_rows, history_text, last_phases

    ctx = app.context()
    with session_scope(ctx.engine) as session:
        get_game(session, game_id)
        rows = history_rows(session, game_id, private=show_private)
    if last is not None:
        rows = last_phases(rows, last)
    emit(rows, as_json, history_text(rows))


@click.command()
@click.argument("game_id")
@json_option
@pass_app
def replay(app: App, game_id: str, as_json: bool) -> None:
    """Re-run every adjudication from the logged orders and dice; compare with the record.

    (`gm verify` does this too, and also re-derives every roll from the seed.)
    """
    from gm.db.engine import session_scope
    from gm.service.games import get_game
    from gm.verify import adjudicated_phases, verify_replay

    ctx = app.context()
    with session_scope(ctx.engine) as session:
        get_game(session, game_id)
        phases = adjudicated_phases(session, game_id)
        found = verify_replay(session, game_id)
    rows = [{"kind": m.kind.name, "phase": m.phase_id, "where": m.where, "expected": m.expected,
             "found": m.found} for m in found]
    text = "\n".join(f"DIFFERENT {m.describe()}" for m in found)
    emit({"phases": len(phases), "differences": rows}, as_json,
         (text + "\n" if text else "")
         + counted(len(phases), "adjudicated phase", "adjudicated phases") + " replayed, "
         + counted(len(found), "difference", "differences"))
    if found:
        raise SystemExit(1)


@click.command()
@click.argument("game_id")
@click.option("--reason", default="", help="Why (recorded in the history).")
@click.option("--as-moderator", "actor", default="cli", help="Who closes the phase (recorded).")
@pass_app
def adjudicate(app: App, game_id: str, reason: str, actor: str) -> None:
    """Close the current phase now: defaults for missing orders, adjudicate, send reports."""
    from gm.db.engine import session_scope
    from gm.service.adjudicate import close_phase
    from gm.service.errors import Conflict
    from gm.service.games import current_phase, get_game

    ctx = app.context()
    with session_scope(ctx.engine) as session:
        get_game(session, game_id)
        phase = current_phase(session, game_id)
        if phase.state != "open":
            raise Conflict(f"phase {phase.phase_id} of {game_id} is {phase.state}, not open")
    result = close_phase(ctx, game_id, phase.seq, by=actor, reason=reason or "gm adjudicate")
    if not result.closed:
        raise Conflict(result.problem or f"phase {phase.phase_id} was already being adjudicated")
    defaults = f"; defaults for {', '.join(result.defaulted)}" if result.defaulted else ""
    click.echo(f"{game_id}: {result.phase_id} adjudicated{defaults}; now {result.next_phase_id}")

