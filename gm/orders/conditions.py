"""Conditional orders, once for every game (orders.md §4).

The condition AST (:class:`All`, :class:`Any_`, :class:`Not`,
:class:`Comparison`, game :class:`Predicate` subclasses), the
:class:`Conditional` wrapper with its canonical echo in the three forms
(``ORDER if COND``, ``ORDER unless COND``, ``if COND then ORDER``),
:func:`evaluate` against a game's :class:`Facts`, and
:func:`execute_in_order` (top to bottom, skipping when money, actions or
units run out).

Simultaneous phases (Pax Britannica): a condition about another power's
orders is judged against *every* order that power submitted, conditional or
not (:class:`SubmittedOrders`), so two orders each conditional on the other's
absence both fail, as the email rules rule on Tunis (Pax Britannica
Postal/Email rules, Movement/Status Change), and the result never depends on
the order in which powers are looked at.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol, runtime_checkable

from gm.i18n import Echo, msg


class Op(Enum):
    """A comparison operator, written as players write it."""

    GE = ">="
    LE = "<="
    GT = ">"
    LT = "<"
    EQ = "="
    NE = "!="

    @classmethod
    def parse(cls, text: str) -> Op:
        """The operator for ``text`` (``==`` is ``=``)."""
        return cls("=" if text == "==" else text)

    def apply(self, left: int, right: int) -> bool:
        """``left OP right``."""
        return {
            Op.GE: left >= right,
            Op.LE: left <= right,
            Op.GT: left > right,
            Op.LT: left < right,
            Op.EQ: left == right,
            Op.NE: left != right,
        }[self]


QUANTITY_WORDS: Mapping[str, str] = {
    "round": "round",
    "funds": "funds",
    "strength": "strength of {0}",
    "enemy_blocks": "enemy blocks in {0}",
    "own_blocks": "my blocks in {0}",
    "actions_left": "actions left",
    "longships_at": "longships at {0}",
    "rival_longships_at": "rival longships at {0}",
}
"""The canonical English of each shared quantity (conditions.lark)."""


@dataclass(frozen=True)
class Quantity:
    """A number the game knows: ``round``, ``funds``, ``strength of Karl XII``..."""

    name: str
    args: tuple[str, ...] = ()

    def echo(self) -> str:
        """Canonical text, a message said again in the reader's language (orders.md §8)."""
        arg = self.args[0] if self.args else ""
        match self.name:
            case "round":
                return msg("round")
            case "funds":
                return msg("funds")
            case "strength":
                return msg("strength of {block}", block=arg)
            case "enemy_blocks":
                return msg("enemy blocks in {area}", area=arg)
            case "own_blocks":
                return msg("my blocks in {area}", area=arg)
            case "actions_left":
                return msg("actions left")
            case "longships_at":
                return msg("longships at {place}", place=arg)
            case "rival_longships_at":
                return msg("rival longships at {place}", place=arg)
        template = QUANTITY_WORDS.get(self.name)
        if template is None:
            return " ".join((self.name.replace("_", " "), *self.args))
        return template.format(*self.args)


@dataclass(frozen=True)
class Comparison:
    quantity: Quantity
    op: Op
    value: int

    def echo(self) -> str:
        """Canonical text, e.g. ``round >= 2``."""
        return msg("{quantity} {op} {value}", quantity=self.quantity.echo(), op=self.op.value,
                   value=self.value)


class Predicate:
    """A game's condition word (``italy places no control in Tunis``).

    Games subclass it as a frozen dataclass and implement :meth:`echo`.
    """

    def echo(self) -> str:
        """Canonical text that re-parses to this predicate."""
        raise NotImplementedError


class OrderPredicate(Predicate):
    """A predicate about the orders another power submitted (§4, simultaneous).

    Subclasses have fields ``power`` (whose orders) and ``negated`` ("places
    no ..."), and implement :meth:`matches` for one plain (unwrapped) order.
    """

    power: str
    negated: bool

    def matches(self, order: Any) -> bool:
        """Whether ``order`` is one this predicate speaks of (positive form)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Not:
    item: Condition

    def echo(self) -> str:
        """``not X``, with parentheses around a compound X."""
        inner = self.item.echo()
        if isinstance(self.item, (All, Any_)):
            return msg("not ({condition})", condition=inner)
        return msg("not {condition}", condition=inner)


@dataclass(frozen=True)
class All:
    """``A and B and ...`` (never nested in another All)."""

    items: tuple[Condition, ...]

    def echo(self) -> str:
        """Items joined by ``and``; an ``or`` inside is parenthesised."""
        parts = [msg("({condition})", condition=i.echo()) if isinstance(i, Any_) else i.echo()
                 for i in self.items]
        return _chain(parts, "and")


@dataclass(frozen=True)
class Any_:
    """``A or B or ...`` (never nested in another Any_)."""

    items: tuple[Condition, ...]

    def echo(self) -> str:
        """Items joined by ``or``."""
        return _chain([i.echo() for i in self.items], "or")


Condition = Comparison | Predicate | Not | All | Any_


def _chain(parts: Sequence[str], word: str) -> str:
    """``a and b and c`` (``word`` "and" or "or") as one message, said again in the
    reader's language with the condition grammar's words (``et``, ``ou``)."""
    out = parts[0]
    for part in parts[1:]:
        out = (msg("{a} and {b}", a=out, b=part) if word == "and"
               else msg("{a} or {b}", a=out, b=part))
    return out


def all_of(items: Sequence[Condition]) -> Condition:
    """An :class:`All`, flattened (so the echo re-parses to the same tree)."""
    flat: list[Condition] = []
    for item in items:
        flat.extend(item.items if isinstance(item, All) else (item,))
    return flat[0] if len(flat) == 1 else All(tuple(flat))


def any_of(items: Sequence[Condition]) -> Condition:
    """An :class:`Any_`, flattened."""
    flat: list[Condition] = []
    for item in items:
        flat.extend(item.items if isinstance(item, Any_) else (item,))
    return flat[0] if len(flat) == 1 else Any_(tuple(flat))


class Form(Enum):
    """The three written forms of a conditional order (§4)."""

    IF = "if"
    UNLESS = "unless"
    THEN = "if ... then"


@runtime_checkable
class Echoable(Protocol):
    def echo(self) -> str: ...


@dataclass(frozen=True)
class Conditional:
    """An order carried out only when its condition holds (``unless``: fails)."""

    order: Any
    cond: Condition
    form: Form = Form.IF

    def echo(self) -> str:
        """Canonical text in the form the player used, never elided (:class:`gm.i18n.Echo`)."""
        order, cond = self.order.echo(), self.cond.echo()
        if self.form is Form.UNLESS:
            return Echo(msg("{order} unless {condition}", order=order, condition=cond))
        if self.form is Form.THEN:
            return Echo(msg("if {condition} then {order}", condition=cond, order=order))
        return Echo(msg("{order} if {condition}", order=order, condition=cond))

    def applies(self, facts: Facts) -> bool:
        """Whether the order is to be carried out, given ``facts`` now."""
        held = evaluate(self.cond, facts)
        return not held if self.form is Form.UNLESS else held


def unwrap(order: Any) -> Any:
    """The plain order inside a :class:`Conditional` (or the order itself)."""
    return order.order if isinstance(order, Conditional) else order


class Facts(Protocol):
    """What a condition may ask of the game (its power's own view only)."""

    def quantity(self, q: Quantity) -> int:
        """The value of ``q`` now (``funds`` after the spending above)."""
        ...

    def holds(self, p: Predicate) -> bool:
        """Whether the game predicate ``p`` holds."""
        ...


def evaluate(cond: Condition, facts: Facts) -> bool:
    """The truth of ``cond`` given ``facts`` (§4: and, or, not, comparisons)."""
    if isinstance(cond, All):
        return all(evaluate(c, facts) for c in cond.items)
    if isinstance(cond, Any_):
        return any(evaluate(c, facts) for c in cond.items)
    if isinstance(cond, Not):
        return not evaluate(cond.item, facts)
    if isinstance(cond, Comparison):
        return cond.op.apply(facts.quantity(cond.quantity), cond.value)
    return facts.holds(cond)


@dataclass(frozen=True)
class SubmittedOrders:
    """Facts for a simultaneous phase: order predicates see *all* submitted orders.

    ``submitted`` maps each power to every order it submitted for the phase,
    conditional or not; whether those conditions hold is never asked, so
    mutual conditions cannot depend on evaluation order (§4, the Tunis ruling
    of the Pax Britannica email rules). Other questions go to ``board`` (the
    board at the start of the phase).
    """

    submitted: Mapping[str, Sequence[Any]]
    board: Facts | None = None

    def quantity(self, q: Quantity) -> int:
        """Delegated to the board."""
        if self.board is None:
            raise LookupError(f"no board facts for {q.echo()}")
        return self.board.quantity(q)

    def holds(self, p: Predicate) -> bool:
        """An :class:`OrderPredicate` against the submitted orders, else the board."""
        if isinstance(p, OrderPredicate):
            found = any(p.matches(unwrap(o)) for o in self.submitted.get(p.power, ()))
            return found != p.negated
        if self.board is None:
            raise LookupError(f"no board facts for {p.echo()}")
        return self.board.holds(p)


class Resource(Enum):
    """What can run out while orders are carried out (§4)."""

    MONEY = "money"
    ACTIONS = "actions"
    UNITS = "units"


@dataclass(frozen=True)
class Done:
    """The order was carried out; ``data`` is whatever the game reports."""

    data: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Failed:
    """The order could not be carried out (``code`` names why, for templates)."""

    code: str
    data: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class RanOut:
    """The order needs more of ``resource`` than is left."""

    resource: Resource


StepOutcome = Done | Failed | RanOut


class SkipReason(Enum):
    CONDITION = "its condition did not hold"
    RAN_OUT = "ran out"
    AFTER_RAN_OUT = "an order above ran out"


@dataclass(frozen=True)
class Carried:
    """One order of :func:`execute_in_order` and what carrying it out gave."""

    order: Any
    outcome: Done | Failed


@dataclass(frozen=True)
class Skipped:
    order: Any
    reason: SkipReason
    resource: Resource | None = None


Step = Carried | Skipped


def execute_in_order(
    orders: Sequence[Any],
    facts: Facts | Callable[[], Facts],
    carry_out: Callable[[Any], StepOutcome],
    stop_when_out: bool = True,
) -> list[Step]:
    """Carry out ``orders`` top to bottom (orders.md §4).

    Each conditional order's condition is evaluated when the order is reached
    (``facts`` may be a callable giving the facts of that moment; in a
    sequential phase the game updates its board between calls), so ``funds``
    is the money left after the orders above. ``carry_out`` gets the plain
    order and returns :class:`Done`, :class:`Failed` or :class:`RanOut`. When
    an order runs out of money, actions or units, it and (if
    ``stop_when_out``) every order below it are skipped with the reason; the
    result has one :class:`Step` per order, in order.
    """
    steps: list[Step] = []
    out_of: Resource | None = None
    for order in orders:
        if out_of is not None:
            steps.append(Skipped(order, SkipReason.AFTER_RAN_OUT, out_of))
            continue
        now = facts() if callable(facts) else facts
        if isinstance(order, Conditional) and not order.applies(now):
            steps.append(Skipped(order, SkipReason.CONDITION))
            continue
        outcome = carry_out(unwrap(order))
        if isinstance(outcome, RanOut):
            steps.append(Skipped(order, SkipReason.RAN_OUT, outcome.resource))
            out_of = outcome.resource if stop_when_out else None
        else:
            steps.append(Carried(order, outcome))
    return steps
