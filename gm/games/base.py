"""The interface every game module implements (docs/game-modules.md).

The service knows nothing of blocks or markers: it stores a module's state as
JSON, asks the module which phase is open and who owes orders, hands it the
parsed orders, and renders what ``view`` returns. Engines are pure: no I/O,
no clock, no database; dice come in as :class:`gm.dice.Dice`.

Exceptions raised to the service (drawn once here, httpx-style)::

    GameError                 a user-facing problem with a game or its data
    ├── UnknownScenario
    └── DataError             a data file fails its schema

Adjudication returns results; it raises only on programmer errors (and
:class:`gm.dice.DiceExhausted`, which stops an adjudication cleanly).
"""

from __future__ import annotations

import marshal
import pickle
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, ClassVar, TypeVar, cast

from gm.dice import Dice
from gm.i18n import Name, languages, vocabulary
from gm.orders.model import ParseResult, SourceLine

SPECTATOR = "spectator"

FULL_STATE = "state"
"""The key under which the moderator's view (``view(state, None)``) may carry the whole
state, for the moderator's eyes. No map is drawn from it (:func:`map_view`)."""


def map_view(view: Mapping[str, Any]) -> dict[str, Any]:
    """What a map is drawn from: ``view`` without :data:`FULL_STATE` (issue 21: the
    moderator's report carried the whole state in its map source, half of it)."""
    return {k: v for k, v in view.items() if k != FULL_STATE}

_T = TypeVar("_T")


def copy_state(state: _T) -> _T:
    """A deep copy of a game's state (plain data: dicts, lists, strings, numbers).

    A JSON tree (a dict) goes through :mod:`marshal`, a third faster again than pickle
    for such data (issue 21: the copies a Pax Britannica mail's validation makes were a
    third of it); marshal keeps the exact types of dicts, lists, strings, numbers, True,
    False and None, and refuses a subclass, an enum or an object, which then goes through
    pickle, three to four times faster than ``copy.deepcopy`` (a bytearray would come
    back as bytes: a state is JSON, which has none)."""
    if type(state) is dict:
        try:
            return cast(_T, marshal.loads(marshal.dumps(cast(Any, state))))
        except ValueError:  # not plain data: pickle copies it with its types
            pass
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))  # noqa: S301 - our own bytes
"""The power name :meth:`GameModule.public_view` asks ``view`` about: a seat of nobody."""

_LAYOUTS: dict[type, Path | None] = {}  # GameModule.map_layout's default, per module class

State = dict[str, Any]
"""A game's whole state, JSON-compatible; the module owns its shape.

Moderator ``SET path = value`` edits it by dotted path, so keep it a tree of
dicts and lists with stable keys.
"""


class GameError(Exception):
    """A user-facing problem with a game, its scenario or its data."""


class UnknownScenario(GameError):
    pass


class DataError(GameError):
    pass


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    powers: tuple[str, ...]
    description: str = ""


@dataclass(frozen=True)
class PhaseInfo:
    """The phase a state is waiting in.

    ``id`` follows orders.md §1 (lowercase words joined by hyphens, e.g.
    ``1701-summer-actions-sweden``); ``kind`` keys the deadline settings
    (``actions``, ``battle``, ``movement``...). ``owing`` are the powers whose
    orders (or defaults) the adjudication needs; ``may_order`` those allowed to
    send orders now (usually the same). ``ended`` marks a finished game.
    """

    id: str
    kind: str
    owing: tuple[str, ...]
    may_order: tuple[str, ...] = ()
    simultaneous: bool = True
    ended: bool = False

    def allowed(self) -> tuple[str, ...]:
        return self.may_order or self.owing


@dataclass(frozen=True)
class Event:
    """Something that happened, as typed data; templates turn it into words.

    ``visible_to`` is ``None`` when every power may know it, else the set of
    powers that may (the moderator sees every event). A module emits one event
    per audience when the audiences must learn different things.
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    visible_to: frozenset[str] | None = None

    def visible(self, power: str | None) -> bool:
        return power is None or self.visible_to is None or power in self.visible_to

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "data": dict(self.data),
            "visible_to": sorted(self.visible_to) if self.visible_to is not None else None,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Event:
        vis = d.get("visible_to")
        return cls(d["type"], d.get("data", {}), frozenset(vis) if vis is not None else None)


@vocabulary
class Verdict(Enum):
    """What validation says of one order when the mail arrives (orders.md §2)."""

    ACCEPTED = "accepted"
    TO_CHECK = "to be checked at adjudication"  # depends on others' orders or dice
    WARNING = "accepted with a warning"
    REFUSED = "refused"  # the power's own position forbids it; not stored


@dataclass(frozen=True)
class Validation:
    verdict: Verdict
    reason: str = ""

    @property
    def stored(self) -> bool:
        return self.verdict is not Verdict.REFUSED


@dataclass
class Outcome:
    """What an adjudication returns: the next state and what happened."""

    state: State
    events: list[Event] = field(default_factory=list)


class GameModule(ABC):
    """One game, plugged in through the ``gm.games`` entry-point group."""

    name: ClassVar[str]  # "baltica"
    title: ClassVar[str]  # "Pax Baltica"

    @abstractmethod
    def scenarios(self) -> list[Scenario]:
        """The scenarios a game may be created from."""

    @abstractmethod
    def setup(self, scenario: str, options: Mapping[str, Any]) -> State:
        """The initial state of ``scenario`` (raise :class:`UnknownScenario`)."""

    @abstractmethod
    def phase(self, state: State) -> PhaseInfo:
        """The phase ``state`` waits in."""

    @abstractmethod
    def parse_orders(self, state: State, power: str, lines: Sequence[SourceLine]) -> ParseResult:
        """Parse one section's order lines for ``power``: one result per line.

        ``lines`` come from :func:`gm.orders.text.clean_body` via the envelope
        (greetings, quotes, commands already taken out). English and French
        keywords are both accepted whatever the seat's language (orders.md §8).
        Names are looked up only among what ``power`` may know in ``state``.
        """

    @abstractmethod
    def validate(self, state: State, power: str, orders: Sequence[Any]) -> list[Validation]:
        """Judge each order against what can be known now (one result per order)."""

    def position_of_phase(self, state: State, phase_id: str) -> list[tuple[str, Any]]:
        """The state keys (dotted path, value) that put ``state`` in phase ``phase_id``, for
        a moderator's ``SET phase = ID``; a game that cannot say raises :class:`GameError`."""
        raise GameError("this game cannot be set by phase id; set its state keys instead "
                        "(the paths of gm state)")

    def next_phase_for(self, state: State, power: str) -> str | None:
        """The id of the next phase in which ``power`` will order, when the game can tell
        it from ``state`` (a refusal of early orders names it); None: unknown."""
        return None

    def turns_before(self, state: State, power: str) -> tuple[str, ...]:
        """The powers whose turns come before ``power`` orders again, the one ordering now
        first (sequential turns: Pax Viking); a refusal of early orders names them when
        there are several, since ``power``'s phase does not open when the open one closes.
        () by default: unknown, or the next phase follows the open one."""
        return ()

    @abstractmethod
    def default_orders(self, state: State, power: str) -> list[Any]:
        """The orders of a power that sent none (documented per decision)."""

    @abstractmethod
    def adjudicate(self, state: State, orders: Mapping[str, Sequence[Any]], dice: Dice) -> Outcome:
        """Close the phase: pure function of state, orders and dice."""

    @abstractmethod
    def view(self, state: State, power: str | None) -> dict[str, Any]:
        """What ``power`` may know (``None``: the moderator's full view)."""

    @abstractmethod
    def order_to_json(self, order: Any) -> dict[str, Any]:
        """Serialise one parsed order for storage."""

    @abstractmethod
    def order_from_json(self, data: Mapping[str, Any]) -> Any:
        """Rebuild a stored order."""

    def templates_dir(self) -> Path:
        """Where this game's report templates live (``templates/<name>/``)."""
        from gm.resources import templates_root

        return templates_root() / self.name

    def order_grammar(self) -> Any:
        """The game's :class:`gm.orders.grammar.GameGrammar`, if it uses the shared machinery."""
        return None

    def order_words(self) -> tuple[str, ...]:
        """The words an order of this game can begin with, English and French, accents
        dropped (from the grammar's keywords, as HELP lists them); none by default."""
        grammar = self.order_grammar()
        return tuple(grammar.command_words()) if grammar is not None else ()

    def parses_as_order(self, text: str) -> bool:
        """Whether ``text`` parses with this game's order grammar, read alone: its names are
        not looked up and no position is read, so the answer depends on nothing secret (a
        line before a mail's sign-on is told apart from a greeting, gm.pipeline.preamble).
        False by default."""
        grammar = self.order_grammar()
        if grammar is None:
            return False
        from lark.exceptions import LarkError

        from gm.orders.names import strip_accents
        from gm.orders.text import straighten_quotes

        try:
            grammar.parser().parse(strip_accents(straighten_quotes(text)))
        except LarkError:
            return False
        return True

    def help(self, language: str = "en", topic: str | None = None, moderator: bool = False) -> str:
        """HELP: the envelope commands and this game's orders, generated from the grammars;
        the moderator's commands for the ``moderator`` only (a player cannot use them)."""
        from gm.orders.help import help_text

        return help_text(self.order_grammar(), language, topic, game_name=self.name,
                         moderator=moderator)

    def words(self, language: str) -> Mapping[str, Any]:
        """The game's names in ``language`` as its templates write them (issue 20: a
        nation's French name with its article, its adjectives), read from its data files;
        the templates get them with ``words(game, language)``. Empty by default."""
        return {}

    def seat_name(self, power: str | None, language: str) -> str:
        """Who a report is for, in ``language`` (issue 20: "rapport pour la Suède", not
        "sweden"): the moderator (None), a spectator, or the seat's name with its
        article where the language wants one (:meth:`power_name`)."""
        from gm.i18n import msg, translate

        if power is None:
            return translate(msg("the moderator"), language)
        if power == SPECTATOR:
            return translate(msg("a spectator"), language)
        return self.seat_names(language).get(power, power)

    def seat_names(self, language: str) -> Mapping[str, str]:
        """The seats' names in ``language`` with their article ("la France", "the
        Coalition"): :meth:`power_forms`' ``the``."""
        return {p: f.get("the") or f.get("name") or p
                for p, f in self.power_forms(language).items()}

    def power_forms(self, language: str) -> Mapping[str, Mapping[str, str]]:
        """Where a game says what its powers are called: each power's names in
        ``language``, read from the game's data (docs/game-modules.md), ``name`` bare (a
        label: "France", "Coalition") and ``the`` with its article where the language
        wants one ("la France", "the Coalition"). A power the game does not name is
        said by its id. Empty by default."""
        return {}

    def power_name(self, power: str, form: str = "name") -> Name:
        """The one place a player-facing text gets a power's name: a :class:`gm.i18n.Name`
        that each reader's language says from :meth:`power_forms` ("usa" is "U.S.A." to
        an English seat, "États-Unis" to a French one; ``form="the"``: "les États-Unis").
        Ids stay ids in logged data and moderator tools; only what a player reads says
        names. A template calls it as ``say_power(game, power, form)``."""
        return _power_name(self, power, form)

    def power_list(self, powers: Sequence[str], form: str = "name") -> str:
        """Powers' names as one message (a :class:`gm.i18n.Text`), each said in the reader's
        language ("Grande-Bretagne, Allemagne"); "" for none."""
        from gm.i18n import msg

        out: str = ""
        for n, power in enumerate(powers):
            name = self.power_name(power, form)
            out = name if n == 0 else msg("{a}, {b}", a=out, b=name)
        return out

    def power_said(self, power: str, language: str, form: str = "name") -> str:
        """:meth:`power_name` said in ``language`` (for text built outside the catalogue)."""
        from gm.i18n import translate

        return translate(self.power_name(power, form), language)

    def controlled_powers(self, scenario: str) -> Mapping[str, tuple[str, ...]]:
        """Powers a seat always orders for besides its own, by seat (``FOR``, orders.md §1):
        Pax Britannica's Germany for Austria-Hungary. Given to the seats at creation."""
        return {}

    def data_check(self) -> list[str]:
        """Schema problems in this game's data files (empty when all is well)."""
        return []

    def powers(self, state: State) -> tuple[str, ...]:
        """The powers of a game in this state, in seating order."""
        return tuple(state.get("powers", ()))

    # -- presentation (docs/reports.md); every hook has a default ----------------

    def public_view(self, state: State) -> dict[str, Any]:
        """What anyone watching may know (the game archive, HISTORY).

        The default is ``view(state, SPECTATOR)``: a view function that treats a
        power it does not know as an outsider gives exactly the public picture.
        Override it when ``view`` cannot take an unknown power.
        """
        return self.view(state, SPECTATOR)

    def map_layout(self) -> Path | None:
        """The report map's layout (gm/maps/layout.py); None: the game has no map.

        Default: ``data/map_layout.toml`` beside the module's code, if present; looked for
        once per module class (issue 21: a close asked the file system at every report).
        """
        kind = type(self)
        if kind not in _LAYOUTS:
            import inspect

            path = Path(inspect.getfile(kind)).resolve().parent / "data" / "map_layout.toml"
            _LAYOUTS[kind] = path if path.exists() else None
        return _LAYOUTS[kind]

    def map_scene(self, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
                  words: Mapping[str, str]) -> Any:
        """What the report map shows (a :class:`gm.maps.scene.Scene`), built from ``view``
        and the events the power may see, never from the full state; None: no scene of
        the game's own.

        The maps depend on the games, never the reverse: the games shipped with gm
        have their scenes in gm/maps/<game>.py, which the map drawing uses when this
        hook returns None (the default). A third-party game overrides this hook.
        """
        return None


_NAMES: dict[tuple[type, str, str], Name] = {}


def _power_name(module: GameModule, power: str, form: str) -> Name:
    """:meth:`GameModule.power_name`, made once per game class, power and form (the forms
    come from the game's data files)."""
    key = (type(module), power, form)
    if key not in _NAMES:
        said = {}
        for language in languages():
            forms = module.power_forms(language).get(power, {})
            said[language] = forms.get(form) or forms.get("name") or power
        english = said.pop("en", power)
        _NAMES[key] = Name(english, **{k: v for k, v in said.items() if v != english})
    return _NAMES[key]
