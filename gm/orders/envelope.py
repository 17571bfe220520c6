"""Sections, sign-on and commands of an order mail (orders.md §1, §8, §9).

:func:`parse_envelope` takes the cleaned lines (:func:`gm.orders.text.clean_body`)
and returns an :class:`Envelope`: text before the first envelope line
(``GAME``, ``POWER``/``SIGNON``, ``MODERATOR``, ``HELP``) is ignored (kept as the
envelope's ``preamble``, which the reply lists); each
``GAME`` line starts a section and resets the sign-on, each ``POWER`` or
``MODERATOR`` line starts a section in the same game. In a section, command
lines become typed commands (:mod:`gm.orders.commands`) and the other lines
are kept as :class:`OrderLine` for the game's grammar, tagged with the power
they are for (``FOR`` switches). Envelope problems are typed
:class:`EnvelopeError` values on the section; those marked ``fatal`` reject
the section. Which game, which password and which phase are right is the
service's to decide (it has the database).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from enum import Enum
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput, VisitError

from gm.i18n import vocabulary
from gm.kept import Kept
from gm.orders import commands as c
from gm.orders.model import ProseLine, SourceLine
from gm.orders.names import strip_accents
from gm.orders.prose import PRONOUNS, PROSE_WORDS, prose_signal
from gm.resources import grammar_root

ENVELOPE_WORDS = frozenset({"game", "partie", "power", "signon", "puissance", "moderator",
                            "moderateur", "help", "aide", "list", "liste", "send", "envoyer", "observe", "observer", "join", "rejoindre"})
"""The words that open an envelope line (orders.md §1)."""

COMMAND_WORDS = frozenset(
    {"phase", "for", "pour", "check", "verifier", "add", "ajouter", "status", "etat", "ready",
     "pret", "not", "pas", "wait", "attendre", "no", "ne", "press", "presse", "endpress",
     "finpresse", "history", "historique", "absent", "password", "motdepasse", "set", "definir",
     "extend", "prolonger", "adjudicate", "arbitrer", "ruling", "decision", "replace",
     "remplacer", "rollback", "retour", "pause", "resume", "reprendre", "dice", "des",
     "release", "liberer", "list", "liste", "orders", "ordres", "send", "envoyer", "observe", "observer", "join", "rejoindre",
     "approve", "approuver", "unbounce", "retablir", "requeue", "renvoyer",
     "unhold", "debloquer", "retry", "reessayer", "decline", "decliner", "stop", "retirer",
     "reveal", "reveler", "show", "montrer"}
)
"""The first words of command lines; a line so starting is parsed as a command."""

PLAYER_COMMANDS_EN = ("READY", "WAIT", "ADD", "CHECK", "STATUS", "HELP", "HISTORY", "ABSENT",
                      "PASSWORD", "PRESS", "ENDPRESS")
PLAYER_COMMANDS_FR = ("PRET", "ATTENDRE", "AJOUTER", "VERIFIER", "ETAT", "AIDE", "HISTORIQUE",
                      "PRESSE", "FINPRESSE", "MOTDEPASSE", "ABSENT")
"""The same commands in each language: a seat is offered those of its own language first."""
PLAYER_COMMANDS = tuple(dict.fromkeys(PLAYER_COMMANDS_EN + PLAYER_COMMANDS_FR))
"""The one-word commands a player writes on a line of its own, as HELP writes them: offered
when an order line's unknown first word is one edit or so from one (``READYY``: did you mean
READY?).
Not the moderator's, nor the words that are a command only with another (``NOT READY``)."""

_NEEDS_SECOND = {"replace": {"power"}, "remplacer": {"puissance"}, "not": {"ready"},
                 "pas": {"pret"}, "no": {"wait"}, "ne": {"pas"}, "send": {"password", "report"},
                 "envoyer": {"motdepasse", "rapport"}, "stop": {"observer"},
                 "retirer": {"observateur"}, "reveal": {"seed"}, "reveler": {"graine"},
                 "show": {"game", "mails", "history", "state"},
                 "montrer": {"partie", "mails", "historique", "etat"}}
_AT_MOST = {"orders": 1, "ordres": 1, "list": 2, "liste": 2, "observe": 2, "observer": 2,
            "join": 3, "rejoindre": 3, "approve": 3, "approuver": 3,
            "decline": 2, "decliner": 2}
"""Words that are a command only in a line of at most this many words and no colon
(``Orders:`` or ``List of my moves`` head a player's own lines)."""
"""Words that open an order too (``replace Karl XII``): a command only with this second word."""


@vocabulary
class Problem(Enum):
    """What can be wrong with the envelope of a section."""

    NO_SIGNON = "orders without a sign-on (POWER name password)"
    NO_PASSWORD = "POWER needs a password"
    BAD_COMMAND = "command not understood"
    MODERATOR_ONLY = "only the moderator may use this command"
    UNCLOSED_PRESS = ("PRESS without ENDPRESS: the message was not sent (ENDPRESS goes on a line of"
                      " its own after it); the lines below it were read as orders")
    STRAY_ENDPRESS = "ENDPRESS without PRESS"
    BAD_DATE = "not a valid date (write 2026-12-20)"

    @property
    def fatal(self) -> bool:
        """Whether the problem rejects the whole section."""
        return self in (Problem.NO_SIGNON, Problem.NO_PASSWORD)


@dataclass(frozen=True)
class EnvelopeError:
    line: SourceLine | None
    problem: Problem
    detail: str = ""

    @property
    def fatal(self) -> bool:
        return self.problem.fatal


@dataclass(frozen=True)
class CommandLine:
    line: SourceLine
    command: Any  # one of gm.orders.commands.Command


@dataclass(frozen=True)
class OrderLine:
    """A line for the game's grammar; ``power`` is who it is for (after FOR)."""

    line: SourceLine
    power: str | None


@dataclass
class Section:
    """One sign-on's worth of a mail."""

    game: str | None = None
    signon: c.SignOn | None = None
    start: SourceLine | None = None
    items: list[CommandLine | OrderLine] = field(default_factory=list)
    errors: list[EnvelopeError] = field(default_factory=list)

    @property
    def commands(self) -> list[Any]:
        return [i.command for i in self.items if isinstance(i, CommandLine)]

    @property
    def orders(self) -> list[OrderLine]:
        return [i for i in self.items if isinstance(i, OrderLine)]

    def orders_for(self, power: str) -> list[SourceLine]:
        """The order lines meant for ``power``, in order."""
        return [o.line for o in self.orders if o.power == power]

    @property
    def phase(self) -> str | None:
        """The ``PHASE`` guard, if given (the last one)."""
        found = [x.phase for x in self.commands if isinstance(x, c.Phase)]
        return found[-1] if found else None

    @property
    def check_only(self) -> bool:
        return any(isinstance(x, c.Check) for x in self.commands)

    @property
    def add(self) -> bool:
        return any(isinstance(x, c.Add) for x in self.commands)

    @property
    def moderator(self) -> bool:
        return isinstance(self.signon, c.ModeratorSignOn)

    @property
    def rejected(self) -> bool:
        return any(e.fatal for e in self.errors)


@dataclass
class Envelope:
    """A mail's sections; ``ignored``: the lines read as prose outside a signed-on section,
    ``preamble`` among them: the lines before the first envelope line, which are never read
    (orders.md §1; the reply lists them, gm.pipeline.preamble)."""

    ignored: list[SourceLine] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    preamble: list[SourceLine] = field(default_factory=list)


@cache
def envelope_parser() -> Lark:
    """The cached LALR parser of envelope.lark."""
    return Lark.open(
        str(grammar_root() / "envelope.lark"), parser="lalr", lexer="contextual",
    )


_TAIL = re.compile(r"(?:\s*(?:[.!;,]+|[:;]-?[)(DPp]|<3))+\s*$")
"""Sentence punctuation and smileys after a command (``READY!``, ``READY.``, ``Ready :)``,
``SET ADDRESS x@example.org.``): not part of it (issue 17)."""
_POLITE = re.compile(r"[\s,;:-]*\b(?:please|pls|thanks|thank you|thx|merci|svp|stp|"
                     r"s'il (?:vous|te) pla[iî]t|bitte|danke|tack)[\s.!,;]*$", re.IGNORECASE)
"""A courtesy after a command (``STATUS, please``, ``READY, merci``)."""
_QUESTION = re.compile(r"(?:\?|\.\.\.|…)\s*$")
"""A command word in a question or trailing off (``Ready?``, ``Wait...``): prose."""
_VERBATIM = frozenset({"power", "signon", "puissance", "moderator", "moderateur", "password",
                       "motdepasse", "ruling", "decision"})
"""Commands whose last word is a password, or whose rest is free text: kept as written."""
NOT_AN_ARGUMENT = PRONOUNS | PROSE_WORDS | frozenset(
    """yourself yourselves myself ourselves the a an it this that on over off up out
    in of to with for me him her them there what""".split())
"""Words that make the rest of a line after a command word prose, not its argument
("Help yourself to the coffee.", "Join us", "Game over")."""
HELP_TOPIC_WORDS = 3
"""A HELP topic is at most this many words (``HELP battle order``)."""


class ProseAfterCommand(ValueError):
    """A command word opening a sentence: the rest of the line is not its argument."""


def without_tail(text: str) -> str:
    """``text`` without the sentence punctuation or smiley after a command; passwords and
    free texts (RULING) as written."""
    words = strip_accents(text).lower().split(maxsplit=1)
    if not words or words[0] in _VERBATIM:
        return text
    return _TAIL.sub("", _POLITE.sub("", _TAIL.sub("", text))) or text


_OPENING_WORDS = COMMAND_WORDS | ENVELOPE_WORDS
_OPENING_PREFIX = re.compile("|".join(map(re.escape, sorted(_OPENING_WORDS))))
"""Matches a first word that begins with a command word."""


def is_command_line(text: str) -> bool:
    """Whether ``text`` opens with a command word (and is not an order that shares it).

    The words are read once the tail is dropped (:func:`without_tail`, a trailing question
    mark), which only ever cuts the line short: the first word read is then the start of
    the line's own first word, so a line whose first word begins with no command word is
    no command, known without the tail's three patterns (issue 21: most lines of an order
    mail are orders)."""
    first = strip_accents(text).lower().split(maxsplit=1)
    if not first or not _OPENING_PREFIX.match(first[0]):
        return False
    text = _QUESTION.sub("", without_tail(text)) or text
    # "RELEASE: reason", "PAUSE: holiday", "ADJUDICATE NOW: ..." (orders.md §9, issue 17)
    words = [w.rstrip(":,;") for w in strip_accents(text).lower().split(maxsplit=2)]
    if not words or words[0] not in _OPENING_WORDS:
        return False
    if words[0] in _AT_MOST:
        return ":" not in text and len(text.split()) <= _AT_MOST[words[0]]
    need = _NEEDS_SECOND.get(words[0])
    return need is None or (len(words) > 1 and words[1] in need)


_REMEMBERED = (c.Game, c.Phase, c.For, c.Check, c.Add, c.Status, c.Ready)
"""Commands :func:`parse_command` keeps by their line: immutable, of plain values, and
nothing a player keeps secret (no password, no press)."""
_remembered: Kept[str, Any] = Kept(1024)


def parse_command(text: str) -> Any:
    """One command line to a typed command; raises ValueError when not understood, and
    :class:`ProseAfterCommand` when the line is a sentence opening with a command word.

    The command is a function of the line: the last lines read as :data:`_REMEMBERED`
    commands are kept (issue 21: ``GAME b1`` heads each mail of a game, and its Lark parse
    was a third of reading an envelope)."""
    cmd = _remembered.get(text)
    if cmd is not None:
        return cmd
    cmd = _parse_command(text)
    if type(cmd) in _REMEMBERED:
        _remembered.put(text, cmd)
    return cmd


def _parse_command(text: str) -> Any:
    if _QUESTION.search(text):
        raise ProseAfterCommand("a question, not a command")
    text = without_tail(text)
    written = text
    try:
        try:
            tree = envelope_parser().parse(strip_accents(text))
        except UnexpectedInput:
            relaxed = _without_colons(text)
            if relaxed == text:
                raise
            text = relaxed
            tree = envelope_parser().parse(strip_accents(text))
        cmd = _Commands(text).transform(tree)
    except UnexpectedInput as e:
        if _heading_a_sentence(written):
            raise ProseAfterCommand("a command word heading a sentence") from None
        raise ValueError(f"not understood at column {e.column}") from None
    except VisitError as e:
        raise ValueError(str(e.orig_exc)) from None
    if _prose_argument(cmd):
        raise ProseAfterCommand("the rest of the line is not the command's argument")
    return cmd


_KEYWORD_COLON = re.compile(r"^(\s*(?:[^\W\d]+\s+){0,2}?[^\W\d]+)\s*:\s*(?=\S)")


_ABSENT_FROM = re.compile(r"^(\s*absent)\s+(?:from|du)\s+", re.IGNORECASE)


def _without_colons(text: str) -> str:
    """A command written with a colon after its words (``PHASE: 1701-spring-...``,
    ``GAME: baltica42``, ``PRESS TO coalition:``) or as a sentence would say it (``ABSENT
    from 2026-12-20 to 2027-01-03``): the command as HELP writes it, for a second try when
    the line does not parse as written (issue 17)."""
    text = _ABSENT_FROM.sub(r"\1 ", text)
    return _KEYWORD_COLON.sub(r"\1 ", text).rstrip().removesuffix(":").rstrip()


_HEADING = re.compile(r"^\s*(?:[^\W\d]+\s+){0,2}?[^\W\d]+\s*:\s*(?P<rest>.*\S)\s*$")


HEADING_WORDS = frozenset({"status", "etat", "ready", "pret", "not", "pas", "wait", "attendre",
                           "no", "ne", "history", "historique", "orders", "ordres", "game",
                           "partie", "phase", "help", "aide", "list", "liste", "password",
                           "motdepasse", "for", "pour"})
"""A player's commands that may head a sentence before a colon. Not ``PRESS`` (a message
must never vanish as prose), ``ABSENT`` (dates written wrong are answered), ``ADD`` and
``CHECK`` (``ADD: these two`` means ADD: storing the orders otherwise is answered as an
error) nor the moderator's commands (a failed act is always answered)."""


def _heading_a_sentence(text: str) -> bool:
    """A command word (or two) before a colon, then at least two words that do not parse
    as its argument and hold no digit (``Status: all fine here``, ``Wait: I need to
    think``, ``Game: what a game``): a heading over a sentence, prose (orders.md §2, issue
    17 class 2). ``STATUS`` or ``Status:`` alone stays the command, as do the commands that
    take a reason after the colon (``PAUSE: holiday``), which parse; one word or a digit
    after the colon (``Ready: yes``, ``Phase: 1701 spring``) is a command written wrong,
    answered as an error."""
    m = _HEADING.match(text)
    if m is None or strip_accents(text).lower().split()[0].rstrip(":") not in HEADING_WORDS:
        return False
    rest = m.group("rest")
    return len(rest.split()) >= 2 and not any(ch.isdigit() for ch in rest)


_LIST_HEADS = frozenset({"orders", "ordres", "list", "liste"})
_POINTING = frozenset("see below above follow follows following attached voir dessous ci-dessous "
                      "suivent suivants".split())


def _list_heading(text: str) -> bool:
    """``Orders:`` or ``List:`` heading a player's own lines (not the commands, which take no
    colon), alone or over a sentence (``Orders: see below``): prose, listed as ignored. An
    order after the colon (``Orders: recon Livland``) is left to the game's parser."""
    head, colon, rest = strip_accents(text).lower().partition(":")
    if not colon or head.strip() not in _LIST_HEADS:
        return False
    words = [w.strip(",.!;") for w in rest.split()]
    return not words or (len(words) >= 2 and not any(ch.isdigit() for ch in rest)
                         and any(w in NOT_AN_ARGUMENT or w in _POINTING for w in words))


def _prose_argument(cmd: Any) -> bool:
    """Whether a command's free words read as a sentence rather than its argument: a HELP
    topic longer than a topic, or an argument that is a word only sentences use."""
    if isinstance(cmd, c.Help):
        words = [w.lower() for w in (cmd.topic or "").split()]
        return len(words) > HELP_TOPIC_WORDS or (
            len(words) > 1 and any(w in NOT_AN_ARGUMENT for w in words))
    values = {c.Game: "game", c.For: "power", c.Phase: "phase", c.History: "phase",
              c.List: "game", c.Observe: "game", c.Join: "game", c.SendPassword: "power"}
    field_ = values.get(type(cmd))
    value = getattr(cmd, field_, None) if field_ else None
    return isinstance(value, str) and strip_accents(value).lower() in NOT_AN_ARGUMENT


class _Commands(Transformer):
    """Tree to command; values are cut from the original line (accents, case kept)."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.src = source

    def _v(self, tok: Token) -> str:
        return self.src[tok.start_pos : tok.end_pos]

    def _mod(self, kids: list[Any]) -> tuple[list[Token], dict[str, Any]]:
        toks = [k for k in kids if isinstance(k, Token) and k.type != "PRIVATE"]
        flags = [k for k in kids if not isinstance(k, Token)]
        private = any(isinstance(k, Token) and k.type == "PRIVATE" for k in kids)
        reasons = [k[1] for k in flags if isinstance(k, tuple) and k[0] == "reason"]
        opts = {"private": private, "reason": reasons[0] if reasons else None}
        return toks, opts

    def start(self, k: list[Any]) -> Any:
        return k[0]

    def fresh(self, k: list[Any]) -> str:
        return "fresh"

    def then_seed(self, k: list[Any]) -> str:
        return "then_seed"

    def keep_open(self, k: list[Any]) -> str:
        return "keep_open"

    def force(self, k: list[Any]) -> str:
        return "force"

    def reason(self, k: list[Token]) -> tuple[str, str | None]:
        return ("reason", self._v(k[0]).strip() if k else None)

    def game(self, k: list[Token]) -> c.Game:
        return c.Game(self._v(k[0]).lower())

    def power(self, k: list[Token]) -> c.PowerSignOn:
        return c.PowerSignOn(self._v(k[0]).lower(), self._v(k[1]) if len(k) > 1 else None)

    def moderator(self, k: list[Token]) -> c.ModeratorSignOn:
        return c.ModeratorSignOn(self._v(k[0]))

    def phase(self, k: list[Token]) -> c.Phase:
        return c.Phase(self._v(k[0]).lower())

    def for_(self, k: list[Token]) -> c.For:
        return c.For(self._v(k[0]).lower())

    def check(self, k: list[Any]) -> c.Check:
        return c.Check()

    def add(self, k: list[Any]) -> c.Add:
        return c.Add()

    def status(self, k: list[Any]) -> c.Status:
        return c.Status()

    def ready(self, k: list[Any]) -> c.Ready:
        return c.Ready(True)

    def not_ready(self, k: list[Any]) -> c.Ready:
        return c.Ready(False)

    def wait(self, k: list[Any]) -> c.Wait:
        return c.Wait(True)

    def no_wait(self, k: list[Any]) -> c.Wait:
        return c.Wait(False)

    def press_name(self, k: list[Token]) -> str:
        return " ".join(self._v(t) for t in k)

    def press(self, k: list[str]) -> c.Press:
        to = tuple(name.lower() for name in k)
        if c.ALL_POWERS in to or "tous" in to:
            to = (c.ALL_POWERS,)
        return c.Press(to, "")

    def endpress(self, k: list[Any]) -> str:
        return "endpress"

    def history(self, k: list[Token]) -> c.History:
        return c.History(self._v(k[0]).lower() if k else None)

    def absent(self, k: list[Token]) -> c.Absent:
        try:
            return c.Absent(date.fromisoformat(k[0]), date.fromisoformat(k[1]))
        except ValueError:
            raise ValueError(f"not a valid date: {k[0]} or {k[1]}") from None

    def password(self, k: list[Token]) -> c.Password:
        return c.Password(self._v(k[0]))

    def set_language(self, k: list[Token]) -> c.SetLanguage:
        return c.SetLanguage(self._v(k[0]).lower())

    def set_timezone(self, k: list[Token]) -> c.SetTimezone:
        return c.SetTimezone(self._v(k[0]))

    def set_address(self, k: list[Token]) -> c.SetAddress:
        return c.SetAddress(self._v(k[0]))

    def observe(self, k: list[Token]) -> c.Observe:
        return c.Observe(self._v(k[0]).lower() if k else None)

    def join(self, k: list[Token]) -> c.Join:
        return c.Join(self._v(k[0]).lower(), self._v(k[1]).lower() if len(k) > 1 else c.ANY_POWER)

    def join_fr(self, k: list[Token]) -> c.Join:
        """REJOINDRE: ``libre`` is the French ``any`` (a free seat, the French HELP's word)."""
        joined = self.join(k)
        power = c.ANY_POWER if joined.power in ("libre", "n'importe") else joined.power
        return c.Join(joined.game, power, language="fr")

    def approve(self, k: list[Token]) -> c.ApproveJoin:
        return c.ApproveJoin(address=self._v(k[0]), power=self._v(k[1]).lower() if len(k) > 1 else None)

    def orders(self, k: list[Any]) -> c.Orders:
        return c.Orders()

    def send_password(self, k: list[Token]) -> c.SendPassword:
        return c.SendPassword(self._v(k[0]).lower())

    def list_(self, k: list[Token]) -> c.List:
        return c.List(self._v(k[0]).lower() if k else None)

    def help(self, k: list[Token]) -> c.Help:
        topic = self._v(k[0]).strip().lstrip(":").strip().lower() if k else None
        return c.Help(topic or None)  # "HELP: move" as "HELP move"

    def help_fr(self, k: list[Token]) -> c.Help:
        return c.Help(self.help(k).topic, language="fr")

    def extend(self, k: list[Any]) -> c.Extend:
        toks, opts = self._mod(k)
        if toks[0].type == "DURATION":
            return c.Extend(by=_duration(toks[0]), **opts)
        return c.Extend(to=_when(toks), **opts)

    def adjudicate(self, k: list[Any]) -> c.AdjudicateNow:
        return c.AdjudicateNow(**self._mod(k)[1])

    def ruling(self, k: list[Token]) -> c.Ruling:
        toks, opts = self._mod(k)  # PRIVATE is the grammar's, as in every moderator command
        return c.Ruling(text=self._v(toks[0]).strip(), private=opts["private"])

    def replace(self, k: list[Any]) -> c.ReplacePower:
        toks, opts = self._mod(k)
        return c.ReplacePower(power=self._v(toks[0]).lower(), address=self._v(toks[1]), **opts)

    def rollback(self, k: list[Any]) -> c.Rollback:
        toks, opts = self._mod(k)
        return c.Rollback(phase=self._v(toks[0]).lower(), fresh_dice="fresh" in k, **opts)

    def set_state(self, k: list[Any]) -> c.SetState:
        toks, opts = self._mod(k)
        return c.SetState(path=self._v(toks[0]), value=self._v(toks[1]).strip(), **opts)

    def pause(self, k: list[Any]) -> c.Pause:
        return c.Pause(**self._mod(k)[1])

    def resume(self, k: list[Any]) -> c.Resume:
        toks, opts = self._mod(k)
        return c.Resume(deadline=_when(toks) if toks else None, **opts)

    def dice(self, k: list[Any]) -> c.DiceRolls:
        toks, opts = self._mod(k)
        return c.DiceRolls(rolls=tuple(int(t) for t in toks), then_seed="then_seed" in k, **opts)

    def release(self, k: list[Any]) -> c.Release:
        return c.Release(**self._mod(k)[1])

    def unbounce(self, k: list[Any]) -> c.Unbounce:
        toks, opts = self._mod(k)
        return c.Unbounce(power=self._v(toks[0]).lower(), **opts)

    def send_report(self, k: list[Any]) -> c.SendReport:
        toks, opts = self._mod(k)
        return c.SendReport(power=self._v(toks[0]).lower(), **opts)

    def requeue(self, k: list[Any]) -> c.Requeue:
        toks, opts = self._mod(k)
        return c.Requeue(mail=int(toks[0]), **opts)

    def unhold(self, k: list[Any]) -> c.Unhold:
        return c.Unhold(keep_open="keep_open" in k, **self._mod(k)[1])

    def retry(self, k: list[Any]) -> c.Retry:
        toks, opts = self._mod(k)
        return c.Retry(mail=int(toks[0]), **opts)

    def decline(self, k: list[Token]) -> c.DeclineJoin:
        return c.DeclineJoin(address=self._v(k[0]))

    def observer_add(self, k: list[Token]) -> c.SetObserver:
        return c.SetObserver(address=self._v(k[0]))

    def observer_stop(self, k: list[Token]) -> c.SetObserver:
        return c.SetObserver(address=self._v(k[0]), stop=True)

    def reveal(self, k: list[Any]) -> c.RevealSeed:
        return c.RevealSeed(force="force" in k, **self._mod(k)[1])

    def undelivered(self, k: list[Any]) -> str:
        return "undelivered"

    def show_game(self, k: list[Any]) -> c.ShowGame:
        return c.ShowGame()

    def show_mails(self, k: list[Any]) -> c.ShowMails:
        counts = [int(t) for t in k if isinstance(t, Token)]
        return c.ShowMails(undelivered="undelivered" in k,
                           last=counts[0] if counts else c.MAILS_SHOWN)

    def show_history(self, k: list[Any]) -> c.ShowHistory:
        return c.ShowHistory(last=int(k[0]) if k else c.PHASES_SHOWN)

    def show_state(self, k: list[Token]) -> c.ShowState:
        return c.ShowState(power=self._v(k[0]).lower() if k else None)


def _duration(tok: Token) -> timedelta:
    number = int("".join(ch for ch in tok if ch.isdigit()))
    unit = tok.lstrip("0123456789 ").lower()
    return timedelta(days=number) if unit[0] in "dj" else timedelta(hours=number)


def _when(toks: Sequence[Token]) -> datetime:
    day = date.fromisoformat(toks[0])
    at = time.fromisoformat(toks[1].zfill(5)) if len(toks) > 1 else time(0, 0)
    return datetime.combine(day, at)


def parse_envelope(lines: Sequence[SourceLine]) -> Envelope:
    """Split cleaned lines into sections of typed commands and order lines (§1)."""
    env = Envelope()
    builder = _Builder(env)
    for line in lines:
        builder.feed(line)
    builder.finish()
    return env


@dataclass
class _Press:
    line: SourceLine
    press: c.Press
    inline: str = ""  # the text after the colon of ``PRESS TO france: text``
    lines: list[SourceLine] = field(default_factory=list)


_PRESS_INLINE = re.compile(r"^\s*((?:press|presse)\s+(?:to|a|à)\s+[^:]*[^:\s])\s*:\s*(\S.*?)\s*$", re.IGNORECASE)
"""``PRESS TO france: text``: the command and the message's first line (orders.md §1)."""


def _press_inline(text: str) -> tuple[c.Press, str] | None:
    """The press and its first line when ``text`` is ``PRESS TO powers: text``, else None."""
    m = _PRESS_INLINE.match(text)
    if m is None:
        return None
    cmd = parse_command_safe(m.group(1))
    return (cmd, m.group(2)) if isinstance(cmd, c.Press) else None


class _Builder:
    def __init__(self, env: Envelope) -> None:
        self.env = env
        self.section: Section | None = None
        self.power: str | None = None
        self.press: _Press | None = None

    def feed(self, line: SourceLine) -> None:
        if self.press is not None:
            self._feed_press(line)
        elif self.section is None:  # before the envelope: its first command opens it
            opening = _envelope_opening(line.text)
            if opening is None:
                self.env.ignored.append(line)
                self.env.preamble.append(line)
            else:
                self._command(line, opening)
        elif is_command_line(line.text):
            self._command(line)
        elif _list_heading(line.text):
            self._prose(line)
        else:
            self._order(line)

    def _prose(self, line: SourceLine) -> None:
        """A line read as prose by the envelope: listed as ignored (issue 17 class 2)."""
        if self.section is not None and self.section.signon is not None:
            self._order(ProseLine(line.number, line.text))
        else:
            self.env.ignored.append(line)

    def finish(self) -> None:
        """A press left open: ``PRESS TO france: text`` is the one line's message, any other
        is not sent; either way the lines after it are read again as the mail's orders and
        commands, never lost in a message nobody gets (a one-line press swallowed the orders
        below it)."""
        while self.press is not None and self.section is not None:
            left, self.press = self.press, None
            if left.inline:
                self.section.items.append(CommandLine(left.line, c.Press(left.press.to, left.inline)))
            else:
                self.section.errors.append(EnvelopeError(left.line, Problem.UNCLOSED_PRESS))
            for line in left.lines:
                self.feed(line)

    def _feed_press(self, line: SourceLine) -> None:
        assert self.press is not None and self.section is not None
        if is_command_line(line.text) and parse_command_safe(line.text) == "endpress":
            text = [self.press.inline] if self.press.inline else []
            text += [x.text for x in self.press.lines]
            press = c.Press(self.press.press.to, "\n".join(text).strip("\n"))
            self.section.items.append(CommandLine(self.press.line, press))
            self.press = None
        else:
            self.press.lines.append(line)

    def _command(self, line: SourceLine, parsed: Any = None) -> None:
        """A command line; ``parsed``: its command, when :func:`_envelope_opening` read it."""
        inline = _press_inline(line.text) if parsed is None else None
        if inline is not None:
            self._ensure_section(line)
            self.press = _Press(line, inline[0], inline[1])
            return
        try:
            cmd = parse_command(line.text) if parsed is None else parsed
        except ValueError as e:
            words = line.text.split()
            if isinstance(e, ProseAfterCommand) or (
                    len(words) >= 3 and prose_signal(line.text) == "strong") or (
                    len(words) >= 2 and words[0].endswith(",")):  # "Wait, where was I"
                # "Ready when you are!", "Wait for me, I am on holiday": plainly prose, never
                # an error (issue 17); listed as ignored. Sentence punctuation after a
                # command ("READY!", "ABSENT 2026-12-20 TO 2027-01-03.") is not a slip.
                self._prose(line)
                return
            self._error(line, Problem.BAD_DATE if "date" in str(e) else Problem.BAD_COMMAND, str(e))
            return
        if isinstance(cmd, c.Game):
            self._new_section(line, game=cmd.game)
        elif isinstance(cmd, c.PowerSignOn):
            self._power(line, cmd)
        elif isinstance(cmd, c.ModeratorSignOn):
            self._new_section(line, signon=cmd)
        elif isinstance(cmd, c.Help) and self.section is None:
            self._new_section(line)
            self._add(line, cmd)
        elif isinstance(cmd, c.List | c.Observe | c.Join) and self.section is None:
            self._new_section(line, game=cmd.game)
            self._add(line, cmd)
        elif isinstance(cmd, c.SendPassword) and self.section is None:
            self._new_section(line)
            self._add(line, cmd)
        elif cmd == "endpress":
            self._error(line, Problem.STRAY_ENDPRESS)
        elif isinstance(cmd, c.Press):
            self._ensure_section(line)
            self.press = _Press(line, cmd)
        elif isinstance(cmd, c.ModeratorCommand) and not self._moderator():
            self._error(line, Problem.MODERATOR_ONLY)
        else:
            if isinstance(cmd, c.For):
                self.power = cmd.power
            self._add(line, cmd)

    def _power(self, line: SourceLine, cmd: c.PowerSignOn) -> None:
        if self._moderator() and cmd.password is None:
            self.power = cmd.power  # the moderator acts as this power (§9)
            self._add(line, cmd)
            return
        self._new_section(line, signon=cmd)
        self.power = cmd.power
        if cmd.password is None:
            self._error(line, Problem.NO_PASSWORD)

    def _order(self, line: SourceLine) -> None:
        self._ensure_section(line)
        assert self.section is not None
        if self.section.signon is None and not any(
            e.problem is Problem.NO_SIGNON for e in self.section.errors
        ):
            self._error(line, Problem.NO_SIGNON)
        self.section.items.append(OrderLine(line, self.power))

    def _new_section(self, line: SourceLine, game: str | None = None,
                     signon: c.SignOn | None = None) -> None:
        current = self.section
        if game is None and current is not None and current.signon is None and not (
            current.items or current.errors
        ):  # GAME then POWER: one section
            current.signon = signon
            self.power = None
            return
        keep_game = current.game if current and game is None else game
        self.section = Section(game=keep_game, signon=signon, start=line)
        self.power = None
        self.env.sections.append(self.section)

    def _ensure_section(self, line: SourceLine) -> None:
        if self.section is None:
            self._new_section(line)

    def _moderator(self) -> bool:
        return self.section is not None and self.section.moderator

    def _add(self, line: SourceLine, cmd: Any) -> None:
        self._ensure_section(line)
        assert self.section is not None
        self.section.items.append(CommandLine(line, cmd))

    def _error(self, line: SourceLine, problem: Problem, detail: str = "") -> None:
        self._ensure_section(line)
        assert self.section is not None
        self.section.errors.append(EnvelopeError(line, problem, detail))


def parse_command_safe(text: str) -> Any:
    """:func:`parse_command`, or ``None`` when the line is not a command."""
    try:
        return parse_command(text)
    except ValueError:
        return None


def _envelope_opening(text: str) -> Any:
    """The command of a line that opens the envelope (GAME, POWER...), None for any other:
    parsed here once and handed on (issue 21: the opening line of each mail was parsed
    twice, a Lark parse of 3 a mail)."""
    words = strip_accents(text).lower().split(maxsplit=1)
    if not (words and words[0].rstrip(":") in ENVELOPE_WORDS and is_command_line(text)):
        return None
    return parse_command_safe(text)
