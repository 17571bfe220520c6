"""The Pax Britannica game module (gm.games.base.GameModule)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from gm.dice import Dice
from gm.games.base import (
    GameModule,
    Outcome,
    PhaseInfo,
    Scenario,
    State,
    UnknownScenario,
    Validation,
    Verdict,
    copy_state,
)
from gm.games.britannica import congress, war
from gm.games.britannica import orders as o
from gm.games.britannica.data import check_data, load
from gm.games.britannica.parser import parse_lines
from gm.games.britannica.turn import adjudicate
from gm.games.britannica.view import view as fog_view
from gm.games.britannica.view import words as data_words
from gm.i18n import Name, Text, languages, msg
from gm.orders.conditions import Not, OrderPredicate
from gm.orders.model import ParseResult, SourceLine
from gm.orders.names import either

MOVEMENT_ORDERS = (o.Buy, o.Place, o.Upgrade, o.Downgrade, o.Move, o.Merchant, o.Canal,
                   o.Garrison, o.Transfer, o.SwitchPower)
NEGOTIATION_ORDERS = (o.TreatyText, o.Sign, o.Breach, o.SwitchPower)
ORDERS_OF_STEP: dict[str, tuple[type, ...]] = {
    "setup": (),  # the GM's 1880 phases: nobody orders
    "movement": MOVEMENT_ORDERS,
    # Attend and Propose in advance (issue 17): kept for the Congress if one is called
    "negotiation": (*NEGOTIATION_ORDERS, o.CallCongress, o.Downgrade, o.Attend, o.Propose),
    "congress": (*NEGOTIATION_ORDERS, o.Attend, o.Object, o.Propose, o.Downgrade),
    "congress-vote": (o.Vote, o.SwitchPower),
    "congress-runoff": (o.Vote, o.SwitchPower),
    # a declaration of war with the defiance (seed, War Phase: "War can be declared ... during
    # the Congress of Europe, if a disputant refuses to sign a Treaty"): put to the War phase
    "congress-sign": (o.Sign, o.Defy, o.Declare, o.SwitchPower),
    "war": (*NEGOTIATION_ORDERS, o.Declare, o.Support, o.Volunteer, o.Deny),
    "war-first": (o.Move, o.Attack, o.Retreat, o.Peace, o.Volunteer, o.Deny, o.Declare, o.SwitchPower),
    "war-second": (o.Move, o.Attack, o.Retreat, o.Peace, o.Volunteer, o.Deny, o.Declare, o.SwitchPower),
}
_TAKEN_IN = {"movement": msg("the Movement phase"), "negotiation": msg("the Negotiation phase"),
             "congress": msg("the Congress of Europe"), "war": msg("the War phase"),
             "war-first": msg("the war rounds")}
"""Where an order of another phase is taken, said to its writer (by the first step of each)."""
_SAME_PLACE = {"congress-vote": "congress", "congress-runoff": "congress", "congress-sign": "congress",
               "war-second": "war-first"}
KIND_OF_STEP = {"setup": "setup", "movement": "movement", "negotiation": "negotiation", "congress": "congress",
                "congress-vote": "congress", "congress-runoff": "congress", "congress-sign": "congress", "war": "war",
                "war-first": "war", "war-second": "war"}


@cache
def _words(language: str) -> Mapping[str, Any]:
    """:func:`gm.games.britannica.view.words`, read once per language."""
    return data_words(load(), language)


def _with_position(d: Any, state: State, seat: str, orders: Sequence[Any],
                   judged: list[Validation]) -> list[Validation]:
    """Movement phase (orders.md §2, issue 17 class 4): an order the power's own position
    forbids (no marker to upgrade, no such unit there, no link to the area, no counter
    left...) is refused with the reason, found by carrying out the orders on a copy of the
    board as the adjudication will; one refused only in some readings of the conditional
    orders above it stays to be checked at adjudication."""
    if state["step"] != "movement":
        return judged
    from gm.games.britannica.movement import UNSURE, Refusal, position_refusals

    kept = [i for i, v in enumerate(judged) if v.verdict is not Verdict.REFUSED]
    found = position_refusals(d, state, seat, [orders[i] for i in kept])
    out = list(judged)
    for n, i in enumerate(kept):
        why = found.get(n)
        if why == UNSURE:
            out[i] = Validation(Verdict.TO_CHECK, msg("depends on others' orders or on money"))
        elif isinstance(why, Refusal):
            out[i] = Validation(Verdict.REFUSED, msg(why.value))
    return out


def _with_money(d: Any, state: State, seat: str, orders: Sequence[Any],
                judged: list[Validation]) -> list[Validation]:
    """Movement phase (orders.md §2, §4): each order that costs money says what it costs and
    the running total against the treasury; where the money runs out, a warning (that
    order and the ones below it will be skipped)."""
    if state["step"] != "movement":
        return judged
    from gm.games.britannica.movement import spending

    kept = [i for i, v in enumerate(judged) if v.verdict is not Verdict.REFUSED]
    money = spending(d, state, seat, [orders[i] for i in kept])
    out = list(judged)
    unsure: set[str] = set()  # acting powers with a costly order conditional on others above
    for n, i in enumerate(kept):
        if n not in money:
            if _on_others(orders[i]) and isinstance(o.base(orders[i]), _PAID):
                unsure.add(o.actor_of(orders[i]))  # not carried out in the reading: it may be
            continue
        cost, spent, funds, short = money[n]
        actor = o.actor_of(orders[i])
        said = {"left": funds - spent, "actor": _said(actor, "of"), "funds": funds}
        if short and actor in unsure:
            out[i] = Validation(Verdict.WARNING, msg(
                "the money may run out here, as a conditional order above reads other powers' "
                "orders: £{left} of {actor}'s £{funds} left; if so, this order and those below "
                "it are skipped", **said))
            continue
        if short and _on_others(orders[i]):
            unsure.add(actor)
            out[i] = Validation(Verdict.WARNING, msg(
                "if this order is carried out (its condition reads other powers' orders), "
                "the money runs out here: £{left} of {actor}'s £{funds} left; it and those "
                "below it would then be skipped", **said))
            continue
        if short:
            out[i] = Validation(Verdict.WARNING, msg(
                "the money runs out here: £{left} of {actor}'s £{funds} left; this order and "
                "those below it will be skipped", **said))
            continue
        if _on_others(orders[i]) and isinstance(o.base(orders[i]), _PAID):
            unsure.add(actor)
        note = msg("£{cost}: {actor} has spent £{spent} of £{funds}", cost=cost,
                   actor=_said(actor, "the"), spent=spent, funds=funds)
        v = out[i]
        out[i] = Validation(v.verdict, msg("{a}; {b}", a=v.reason, b=note) if v.reason else note)
    return out


_PAID = (o.Buy, o.Place, o.Upgrade, o.Canal, o.Transfer)  # the orders that cost money


def _on_others(order: Any) -> bool:
    """Whether ``order`` is conditional on other powers' orders (orders.md §4: it "sees every
    order that power submitted"), which the mail's own money lines cannot know."""
    if not isinstance(order, o.Conditional):
        return False
    todo: list[Any] = [order.cond]
    while todo:
        c = todo.pop()
        if isinstance(c, OrderPredicate):
            return True
        todo += list(getattr(c, "items", ())) + ([c.item] if isinstance(c, Not) else [])
    return False


def _said(power: str, form: str) -> Name:
    """A power in a reply line: its id in English (as the replies always said it), in other
    languages its name in that ``form`` (rules.toml ``words``: "la France", "du Japon")."""
    forms = {lang: str(_words(lang)["power"][power][form]) for lang in languages()[1:]
             if power in _words(lang)["power"]}
    return Name(power, **forms)


def _seat_of_actor(d: Any, state: State, actor: str) -> str | None:
    """The seat giving ``actor``'s orders: its own, or, for a minor power in the war being
    fought, its controlling ally's (seed, Minor Power Movement)."""
    seat = d.rules["powers"].get(actor, {}).get("seat")
    if seat is None and state["step"] in ("war-first", "war-second") and state.get("wars"):
        ally = war.minor_controller(d, state["wars"][0], actor)
        seat = d.seat_of(ally) if ally else None
    return seat


def _not_this_phase(state: State, actor: str) -> bool:
    """A war round's first phase moves the First Alliance, the second the other one (seed,
    War Phase sequence): moves and attacks of the other alliance now would be ignored."""
    w = state["wars"][0]
    side = war.side_of(w, actor)
    first = w["first"]
    return side is not None and (side == first) != (state["step"] == "war-first")


def _wrong_phase(base: Any) -> Text:
    """"not an order of this phase", naming where it is taken ("the War phase or the war
    rounds"), so that the player sends it then rather than lose it. A declaration of war is
    also taken with a defiance of the Congress; that is not where a player sends it first."""
    where = list(dict.fromkeys(_SAME_PLACE.get(step, step) for step, kinds in ORDERS_OF_STEP.items()
                               if isinstance(base, kinds) and not isinstance(base, o.SwitchPower)
                               and not (step == "congress-sign" and isinstance(base, o.Declare))))
    if not where:
        return msg("not an order of this phase")
    return msg("not an order of this phase: it is taken in {phases}",
               phases=either(_TAKEN_IN[w] for w in where))


def _names_a_cape(d: Any, order: Any) -> bool:
    capes = set(d.raw_map.get("cape_zones", {}))
    values = [getattr(order, f, None) for f in ("origin", "dest", "where", "area")]
    return bool(capes & ({v for v in values if isinstance(v, str)} | set(getattr(order, "via", ()))))


class Britannica(GameModule):
    """Seven powers by mail, 1880-1916 (seed 003, Postal/Email rules 4th edition)."""

    name = "britannica"
    title = "Pax Britannica"

    def scenarios(self) -> list[Scenario]:
        d = load()
        return [Scenario("1880", "Pax Britannica, 1880", d.seats,
                         "The 1880 set-up, ten turns to 1916 (reconstructed data).")]

    def controlled_powers(self, scenario: str) -> Mapping[str, tuple[str, ...]]:
        """Great powers seated with another's player (seed, Austria-Hungary: "always
        controlled by Germany"; rules.toml ``seat``), so that seat may write ``FOR``."""
        out: dict[str, tuple[str, ...]] = {}
        for power, table in load().rules["powers"].items():
            if table.get("seat", power) != power:
                out[table["seat"]] = (*out.get(table["seat"], ()), power)
        return out

    def setup(self, scenario: str, options: Mapping[str, Any]) -> State:
        """The 1880 set-up, waiting in the ``setup`` phase: nobody orders in it, and its
        adjudication is the first turn's Random Events, Administration and Minor Powers
        phases with the game's dice (seed, Setting up the Game: the set-up "will also show
        the results of the Random Events Phase, Administration Phase and Minor Powers Phase
        conducted by the GM which will set the scene for the first Movement/Status Change
        phase"). The service plays it out as the game starts, so the first report players
        get shows those results and opens the 1880 Movement phase."""
        d = load()
        if scenario not in d.setups:
            raise UnknownScenario(scenario)
        s = d.setups[scenario]
        units = [{"id": i, "power": p, "type": k, "strength": st, "at": loc}
                 for i, (p, k, st, loc) in enumerate(s["units"], 1)]
        markers = {a: [{"power": p, "kind": k, "established": True} for p, k in sorted(ms)]
                   for a, ms in s["markers"].items()}
        first = d.turn_years()[0]
        return {
            "game": "britannica", "scenario": scenario, "year": first, "step": "setup",
            "powers": list(d.seats), "abandoned": [], "missed": {},
            "dropout_after": int(options.get("dropout_after") or d.rules["dropout"]["after_missed"]),
            "treasury": dict(s["treasury"]), "vp": {p: 0 for p in d.great_powers},
            "markers": markers, "units": units, "next_unit": len(units),
            "merchants": {p: list(z) for p, z in s["merchants"].items()},
            "merchants_due": {p: d.turn(first)["merchants"].count(p) for p in d.great_powers},
            "unrest": [], "annexed": [], "canals": [], "eti": s["eti"], "cri": s["cri"],
            "casus_belli": [], "treaties": [], "balkan_wars": 0,
            "congress": None, "wars": [], "great_war": None,
        }

    def phase(self, state: State) -> PhaseInfo:
        step = state["step"]
        if step == "ended":
            return PhaseInfo(f"{state['year']}-final-record", "ended", (), ended=True)
        d = load()
        seats: tuple[str, ...] = tuple(state["powers"])
        pid = f"{state['year']}-{step}"
        if step == "setup":  # the GM's phases: played out as the game starts
            return PhaseInfo(pid, KIND_OF_STEP[step], ())
        if step in ("congress-vote", "congress-runoff"):
            seats = tuple(s for s in seats if s in state["congress"]["members"])
        elif step == "congress-sign":
            due = {d.seat_of(p) for p in congress.signers_due(state) if p in d.great_powers}
            seats = tuple(s for s in seats if s in due)
        elif step in ("war-first", "war-second"):
            w = state["wars"][0]
            due = set(war.phase_seats(d, w, step.removeprefix("war-")))
            seats = tuple(s for s in seats if s in due)
            pid = f"{state['year']}-war-{w['id']}-round-{w['round']}-{step.removeprefix('war-')}"
            # Neutrals may deny passages, volunteer coaling or declare war in a war round.
            return PhaseInfo(pid, KIND_OF_STEP[step], seats, may_order=tuple(state["powers"]))
        return PhaseInfo(pid, KIND_OF_STEP[step], seats)

    def parse_orders(self, state: State, power: str, lines: Sequence[SourceLine]) -> ParseResult:
        return parse_lines(lines, power, ORDERS_OF_STEP.get(state["step"], ()))

    def order_words(self) -> tuple[str, ...]:
        from gm.games.britannica.parser import command_words

        return command_words()

    def parses_as_order(self, text: str) -> bool:
        from gm.games.britannica.parser import parses

        return parses(text)

    def validate(self, state: State, power: str, orders: Sequence[Any]) -> list[Validation]:
        """Refuse what the power's own position forbids now; the rest waits for adjudication."""
        d = load()
        allowed = ORDERS_OF_STEP.get(state["step"], ())
        out = []
        for order in orders:
            base = o.base(order)
            if _seat_of_actor(d, state, o.actor_of(order)) != power:
                out.append(Validation(Verdict.REFUSED, msg("your seat does not control that power")))
            elif isinstance(base, o.NotYet):
                out.append(Validation(Verdict.REFUSED, msg("'{verb}' is not yet implemented", verb=base.verb)))
            elif not isinstance(base, allowed):
                out.append(Validation(Verdict.REFUSED, _wrong_phase(base)))
            elif (isinstance(base, o.Move | o.Attack | o.Retreat | o.Peace) and state.get("wars")
                  and war.side_of(state["wars"][0], o.actor_of(order)) is None):
                out.append(Validation(Verdict.REFUSED, msg("your power is not in this war")))
            elif (isinstance(base, o.Move | o.Attack) and state["step"] in ("war-first", "war-second")
                  and _not_this_phase(state, o.actor_of(order))):
                out.append(Validation(Verdict.REFUSED, msg(
                    "your alliance moves and attacks in the other phase of the round")))
            elif state["step"] not in ("war-first", "war-second") and _names_a_cape(d, base):
                out.append(Validation(Verdict.REFUSED, msg("Cape zones are used only in the war rounds")))
            elif isinstance(base, o.Declare) and state["step"] == "congress-sign":
                out.append(Validation(Verdict.ACCEPTED, msg(
                    "read in the War phase that follows the Congress, with its declarations")))
            elif isinstance(order, o.Conditional) and state["step"] != "movement":
                out.append(Validation(Verdict.REFUSED, msg("conditions are taken in the Movement phase only")))
            elif isinstance(order, o.Conditional) or isinstance(base, o.Place | o.Upgrade):
                out.append(Validation(Verdict.TO_CHECK, msg("depends on others' orders or on money")))
            else:
                out.append(Validation(Verdict.ACCEPTED))
        if state["step"] != "movement":
            from gm.games.britannica.arrival import refusals

            refused = {i for i, v in enumerate(out) if v.verdict is Verdict.REFUSED}
            for i, why in refusals(d, state, orders, refused).items():
                out[i] = Validation(Verdict.REFUSED, why)
        return _with_money(d, state, power, orders, _with_position(d, state, power, orders, out))

    def next_phase_for(self, state: State, power: str) -> str | None:
        """Orders mailed while the GM plays the 1880 set-up out wait for the Movement phase."""
        return f"{state['year']}-movement" if state["step"] == "setup" else None

    def default_orders(self, state: State, power: str) -> list[Any]:
        """No orders received: the engine gives the phase's defaults (docs/britannica.md),
        or, once the seat has missed the drop-out threshold, the drop-out rules' orders."""
        return [o.NoOrders(power)]

    def adjudicate(self, state: State, orders: Mapping[str, Sequence[Any]], dice: Dice) -> Outcome:
        d = load()
        new, events = adjudicate(d, copy_state(state), orders, dice)
        return Outcome(new, events)

    def view(self, state: State, power: str | None) -> dict[str, Any]:
        return fog_view(state, power)

    def order_to_json(self, order: Any) -> dict[str, Any]:
        return o.to_json(order)

    def power_forms(self, language: str) -> Mapping[str, Mapping[str, str]]:
        """A power's names are its great power's (rules.toml ``[power.*]`` ``name`` and
        ``words``): "France", with its article "la France"."""
        return {p: {"name": str(w["name"]), "the": str(w["the"])}
                for p, w in self.words(language)["power"].items()}

    def words(self, language: str) -> Mapping[str, Any]:
        """The names of powers (with their forms), places and random events in
        ``language`` (gm/games/britannica/view.py :func:`words`)."""
        return _words(language)

    def order_from_json(self, data: Mapping[str, Any]) -> Any:
        return o.from_json(data)

    def data_check(self) -> list[str]:
        return check_data()
