"""Press: messages between powers (orders.md §1), under the game's press rule.

``Game.settings["press"]``: ``allowed`` (default; signed with the sending
power's name; the judges' word ``open`` too), ``anonymous`` (signed "anonymous";
``grey``/``gray`` too), ``moderator-only`` (only to and from the moderator),
``none``. Any other value sends nothing (refused with a clear answer, never
signed by mistake). A sender's address is never shown.

Two more settings (issue 19, DPjudge habits): ``press_copy = true`` sends the
moderator a copy of every press, naming the real sender even when anonymous;
``press_held = true`` holds press until results: it is stored as held and goes
out when the phase's reports go out (gm.service.reports.release_held_press;
with ``preview``, when the moderator releases them).

Anonymous press to all reaches every power, the sender included, each copy
built alike (same subject, body and date; a Message-ID keyed with the
instance's secret), so no player can name the sender by who did not get it.
"""

from __future__ import annotations

from sqlmodel import Session

from gm.db.models import Game
from gm.i18n import languages, msg, translate
from gm.orders import commands as c
from gm.orders.names import fold
from gm.service.context import ServiceContext
from gm.service.errors import Forbidden, NotFound
from gm.service.games import module_of, seats
from gm.service.notify import moderator_address, moderator_language
from gm.service.outbox import queue_mail
from gm.service.pressmail import press_header

RULES = ("allowed", "anonymous", "moderator-only", "none")
ALIASES = {"open": "allowed", "grey": "anonymous", "gray": "anonymous"}


def press_rule(game: Game) -> str:
    """The game's press rule, its judge aliases resolved."""
    raw = str((game.settings or {}).get("press", "allowed")).strip().lower()
    return ALIASES.get(raw, raw)


_ARTICLES = ("l'", "la ", "le ", "les ", "the ")


def _local_names(game: Game) -> dict[str, str]:
    """Each seat's name in every language gm speaks, folded, to the seat's power: a French
    player writes ``PRESSE A italie, Grande-Bretagne`` (the game's ``seat_names``, "l'Italie",
    with and without the article)."""
    module = module_of(game)
    out: dict[str, str] = {}
    for language in languages():
        for power, name in module.seat_names(language).items():
            low = name.strip().lower()
            bare = next((low[len(a):] for a in _ARTICLES if low.startswith(a)), low)
            for form in (low, bare):
                out.setdefault(fold(form), fold(power))
    return out


def forward_press(ctx: ServiceContext, session: Session, game: Game, sender: str, cmd: c.Press,
                  *, key: str, moderator: bool = False) -> list[str]:
    """Queue the press to each named power; return their names."""
    settings = game.settings or {}
    rule = press_rule(game)
    if rule not in RULES:
        raise Forbidden(msg("game {game} has a press setting gm does not know ({rule!r}); "
                            "the press was not sent: tell the moderator", game=game.id, rule=rule))
    if rule == "none" and not moderator:
        raise Forbidden(msg("game {game} allows no press", game=game.id))
    held = bool(settings.get("press_held")) and not moderator
    table = {fold(s.power): s for s in seats(session, game.id) if s.active}
    table |= {k: table[p] for k, p in _local_names(game).items() if p in table and k not in table}
    anonymous = rule == "anonymous" and not moderator
    everyone = list({id(p): p for p in table.values()}.values())  # each seat once, not per name
    wanted = [p for p in everyone if anonymous or p.power != sender] if cmd.broadcast else []
    for name in () if cmd.broadcast else cmd.to:
        if fold(name) == "moderator":
            continue
        seat = table.get(fold(name))
        if seat is None:
            raise NotFound(msg("press to {name!r}: no such power in {game}", name=name, game=game.id))
        wanted.append(seat)
    to_moderator = any(fold(n) == "moderator" for n in cmd.to) or rule == "moderator-only"
    if rule == "moderator-only" and not moderator:
        wanted = []
    signature = "anonymous" if anonymous else sender
    # "to all" only when it goes to all: under moderator-only it reaches the moderator
    # alone, and the archive publishes press "to all" (gm.service.archive.public_press)
    audience = "all" if cmd.broadcast and wanted else ", ".join(s.power for s in wanted)
    module = module_of(game)
    header = press_header(game.id, signature, audience or "moderator")

    def said(language: str) -> tuple[str, str]:
        """The press's subject and body as a reader of ``language`` gets them: who it is
        from and to by the powers' names (GameModule.power_name), under the header line
        that keeps the ids (gm.service.history and the archive read it)."""
        who = msg("anonymous") if anonymous else module.power_name(sender, "the")
        line = (msg("Press from {sender} to all:", sender=who) if audience == "all"
                else msg("Press from {sender} to {powers}:", sender=who,
                         powers=module.power_list([s.power for s in wanted], "the"))
                if audience else msg("Press from {sender} to the moderator:", sender=who))
        return (f"[{game.id}] " + translate(msg("press from {sender}", sender=who), language),
                f"{header}\n{translate(line, language)}\n\n{cmd.text}\n")

    body = said("en")[1]
    names = []
    for seat in wanted:
        if seat.address:
            subject, text = said(seat.language)
            queue_mail(ctx, session, game_id=game.id, kind="press", to=[seat.address],
                       subject=subject, text=text, key=f"{key}:{seat.power}", held=held)
        names.append(seat.power)
    mod = moderator_address(ctx, game)
    if to_moderator and mod:
        queue_mail(ctx, session, game_id=game.id, kind="press", to=[mod],
                   subject=f"[{game.id}] press from {sender}", text=body, key=f"{key}:moderator")
        names.append("moderator")
    elif mod and settings.get("press_copy") and not moderator:
        language = moderator_language(game)  # the copy's own words; the press as written
        notes = [msg(" (signed anonymous)")] * anonymous + [msg(" (held until the next reports)")] * held
        queue_mail(ctx, session, game_id=game.id, kind="press-copy", to=[mod],
                   subject=f"[{game.id}] " + translate(msg("copy of press from {sender}",
                                                           sender=sender), language),
                   text=f"==== gm press copy {game.id} ====\n" + translate(msg(
                       "Sent by {sender}{notes}:", sender=sender,
                       notes="".join(translate(n, language) for n in notes)), language)
                        + f"\n\n{body}",
                   key=f"{key}:copy")
    return names

