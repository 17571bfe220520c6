"""The Pax Viking engine: closing a phase (pure) and the sequence of play.

A game by mail is a chain of phases (docs/viking.md):

- ``setup``: owes nothing; set-up with the game's dice (:mod:`rules.setup`).
- ``round-R-PLAYER``: one player's turn (Sequence of Play). The influence
  phase ran when the turn opened, so the player orders knowing their influence
  markers; the orders are carried out in the order written, at most 4 actions;
  then the Winter Solstice. A player who sends nothing passes (no actions;
  the solstice still happens).
- ``round-R-PLAYER-althing-K``: every player votes on an Althing event; then
  the rest of the turn's orders are carried out.
- ``round-R-PLAYER-trade-K-C``: the rival answers a trade proposal; then the
  turn goes on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.dice import Dice
from gm.games.base import Outcome, copy_state
from gm.games.viking import conditions
from gm.games.viking.data import Data
from gm.games.viking.orders import (
    INFLUENCE_ACTIONS,
    Accept,
    Activate,
    Counter,
    InvestBuy,
    InvestDraw,
    JarldomAction,
    Journey,
    Keep,
    Offer,
    Order,
    Parley,
    Pass,
    Play,
    Refuse,
    RusAction,
    SwedenAction,
    TheocracyAction,
    order_from_json,
    order_to_json,
)
from gm.games.viking.rules import actions, althing, influence, journey, solstice, trade, victory
from gm.games.viking.rules.setup import deal, new_turn
from gm.games.viking.table import Refusal, Table
from gm.i18n import msg
from gm.orders.conditions import unwrap


def phase_id(state: dict[str, Any]) -> str:
    """The id of the phase ``state`` waits in (orders.md §1)."""
    step, r = state["step"], state["round"]
    if step == "setup":
        return "setup"
    if step == "ended":
        return f"round-{r}-end"
    p = state["powers"][state["current"]]
    if step == "althing":
        return f"round-{r}-{p}-althing-{state['turn']['althings']}"
    if step == "trade":
        return f"round-{r}-{p}-trade-{state['trade']['k']}-{state['trade']['counters']}"
    return f"round-{r}-{p}"


def owing(state: dict[str, Any]) -> tuple[str, ...]:
    step = state["step"]
    if step == "turn":
        return (state["powers"][state["current"]],)
    if step == "althing":
        cur = state["current"]
        return tuple(state["powers"][cur:] + state["powers"][:cur])
    if step == "trade":
        return (state["trade"]["to"],)
    return ()


def adjudicate(data: Data, state: dict[str, Any], orders: Mapping[str, Sequence[Any]],
               dice: Dice) -> Outcome:
    """Close the phase ``state`` waits in; pure."""
    s = copy_state(state)
    t = Table(data, s)
    step = s["step"]
    if step == "setup":
        deal(t, dice)
        begin_turn(t)
    elif step == "turn":
        p = s["powers"][s["current"]]
        mine = list(orders.get(p, ()))
        if not mine:
            t.emit("passed", power=p, defaulted=True)
        s["turn"]["keep"] = [n for o in mine if isinstance(o, Keep) for n in o.tiles]  # never conditional
        _go_on(t, p, mine)
    elif step == "althing":
        althing.resolve(t, althing.votes_from(dict(orders)))
        if not victory.check(t, t.in_turn_order(), novice=False):
            _resume(t)
        else:
            p = t.powers[t.s["current"]]
            _not_reached(t, p, [order_from_json(o) for o in s["turn"]["pending"]],
                         msg("the game ended before this order"))
            s["turn"]["pending"] = []
    elif step == "trade":
        who = s["trade"]["to"]
        answers = [o for o in orders.get(who, ()) if isinstance(o, (Accept, Refuse, Counter))]
        trade.answer(t, answers[-1] if answers else Refuse())
        if s["trade"] is None:
            s["step"] = "turn"
            _resume(t)
    return Outcome(s, t.events)


def _resume(t: Table) -> None:
    p = t.powers[t.s["current"]]
    pending = [order_from_json(o) for o in t.s["turn"]["pending"]]
    t.s["turn"]["pending"] = []
    t.s["step"] = "turn"
    _go_on(t, p, pending)


def _go_on(t: Table, p: str, orders: list[Order]) -> None:
    stop = carry_out(t, p, orders)
    if stop is None and not t.s["ended"]:
        finish_turn(t, p)


def carry_out(t: Table, p: str, orders: list[Order], results: list[Any] | None = None,
              *, until_hidden: bool = False) -> str | None:
    """Carry out ``p``'s orders in the order written (Action Phase).

    Returns None when the turn's orders are done, or why they stopped:
    ``althing`` / ``trade`` (the rest is kept as pending orders), ``ended``, or
    ``hidden`` (validation only: the next orders depend on a tile drawn).
    ``results`` receives ``(index, refusal reason or "")`` per order looked at.
    """
    turn = t.s["turn"]
    for i, written in enumerate(orders):
        order = unwrap(written)
        if isinstance(order, Keep):
            _note(results, i, "")
            continue
        if t.s["ended"]:
            _not_reached(t, p, orders[i:], msg("the game ended before this order"))
            return "ended"
        if until_hidden and t.hidden_drawn:
            return "hidden"
        if not isinstance(order, Offer):
            journey.finish(t, p)
        if not conditions.applies(t, p, written):
            _note(results, i, "")
            t.emit("skipped", visible_to=[p], power=p, order=written.echo(),
                   why=msg("its condition did not hold"))
            continue
        if isinstance(order, Pass):
            _note(results, i, "")
            t.emit("passed", power=p, defaulted=False)
            _not_reached(t, p, orders[i + 1:], msg("you passed before this order"))
            return None
        try:
            stop = _one(t, p, order)
        except Refusal as why:
            _note(results, i, why.reason)
            t.emit("refused", visible_to=[p], power=p, order=written.echo(), why=why.reason)
            continue
        _note(results, i, "")
        if stop == "event" and victory.check(t, t.in_turn_order(), novice=False):
            _not_reached(t, p, orders[i + 1:], msg("the game ended before this order"))
            return "ended"
        if stop in ("althing", "trade"):
            turn["pending"] = [order_to_json(o) for o in orders[i + 1:]]
            t.s["step"] = stop
            if stop == "althing":
                turn["althings"] += 1
                t.emit("althing_called", power=p,
                       tile=t.tile(t.s["althing"]["tile"]).name)
            return stop
        if victory.end_of_saga(t):
            _not_reached(t, p, orders[i + 1:], msg("the game ended before this order"))
            return "ended"
    journey.finish(t, p)
    return None


def _not_reached(t: Table, p: str, orders: Sequence[Order], why: Any) -> None:
    """Orders the turn never came to (a PASS above them, the end of the game): each is told
    to its player with the reason, like a refusal (a hand-limit KEEP is a standing rule of
    the Winter Solstice, not an action, and is left out)."""
    for written in orders:
        if not isinstance(unwrap(written), Keep):
            t.emit("refused", visible_to=[p], power=p, order=written.echo(), why=why)


def _note(results: list[Any] | None, i: int, why: str) -> None:
    if results is not None:
        results.append((i, why))


def _one(t: Table, p: str, order: Order) -> str | None:
    """One order: check the action budget, carry it out, spend the action."""
    turn = t.s["turn"]
    if isinstance(order, Offer):
        trade.propose(t, p, order.to, order.give, order.get, order.at)
        return "trade"
    if not order.action:
        raise Refusal(msg("not an order for your turn"))
    if turn["actions"] >= t.rule("max_actions"):
        raise Refusal(msg("you have no action left ({n} a turn)", n=t.rule("max_actions")))
    influence_type = next((k for k, cls in INFLUENCE_ACTIONS.items() if isinstance(order, cls)),
                          None)
    if influence_type:
        if t.s["influence"].get(influence_type) != p:
            raise Refusal(msg("you do not hold the {marker} influence marker",
                              marker=t.data.said(influence_type)))
        if influence_type in turn["influence_used"]:
            raise Refusal(msg("the {marker} action is taken once a turn",
                              marker=t.data.said(influence_type)))
    stop = None
    if isinstance(order, InvestDraw):
        actions.invest_draw(t, p)
    elif isinstance(order, InvestBuy):
        actions.invest_buy(t, p, order)
    elif isinstance(order, Journey):
        journey.start(t, p, order)
    elif isinstance(order, Play):
        stop = actions.play(t, p, order)
    elif isinstance(order, Activate):
        actions.activate(t, p, order)
    elif isinstance(order, Parley):
        actions.parley(t, p, order)
    elif isinstance(order, JarldomAction):
        influence.jarldom(t, p, order)
    elif isinstance(order, SwedenAction):
        influence.sweden(t, p)
    elif isinstance(order, TheocracyAction):
        influence.theocracy(t, p, order)
    elif isinstance(order, RusAction):
        influence.rus(t, p, order)
    else:  # pragma: no cover - every turn order is listed above
        raise Refusal(msg("not an order for your turn"))
    turn["actions"] += 1
    if influence_type:
        turn["influence_used"].append(influence_type)
    return stop


def finish_turn(t: Table, p: str) -> None:
    """WINTER SOLSTICE (income, refresh, hand limit), the novice victory check, the
    end of the saga, then the next player's turn opens with their influence phase."""
    solstice.income(t, p)
    solstice.refresh(t, p)
    solstice.hand_limit(t, p, t.s["turn"].get("keep", []))
    if victory.check(t, [p], novice=True) or victory.end_of_saga(t):
        return
    s = t.s
    s["current"] = (s["current"] + 1) % len(s["powers"])
    if s["current"] == 0:
        s["round"] += 1
    begin_turn(t)


def begin_turn(t: Table) -> None:
    t.s["turn"] = new_turn()
    t.s["step"] = "turn"
    p = t.powers[t.s["current"]]
    influence.influence_phase(t, p)
    t.emit("turn_begins", power=p, round=t.s["round"],
           influence=[k for k, v in t.s["influence"].items() if v == p])
