"""Pax Viking as a gm game module (gm.games.base.GameModule); docs/viking.md.

Documented defaults: a player who sends nothing in their turn passes (no
actions; the Winter Solstice still happens); the hand limit keeps the tiles
named by ``keep``, else the tiles held longest; an Althing vote not sent is
"no", except for the player who played the event ("yes"); a trade proposal
not answered is refused. Decisions taken at the table mid-action (which post
the Sweden action uses, which rival longship a challenge returns, where an
effect applies) follow standing rules given in the rules' docstrings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

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
from gm.games.viking import engine, fog, parsing
from gm.games.viking.data import Data, load
from gm.games.viking.orders import (
    TURN_ORDERS,
    Accept,
    Counter,
    Keep,
    Order,
    Refuse,
    Vote,
    order_from_json,
    order_to_json,
)
from gm.games.viking.rules.setup import initial_state
from gm.games.viking.table import Table
from gm.i18n import N_, msg, translate
from gm.orders.conditions import Conditional, unwrap
from gm.orders.model import ParsedOrder, ParseResult, SourceLine

PHASE_ORDERS: Mapping[str, tuple[type[Order], ...]] = {
    "turn": TURN_ORDERS,
    "althing": (Vote,),
    "trade": (Accept, Refuse, Counter),
}
"""Which orders each kind of phase takes; others are refused."""


DATA_WORDS = (N_("advocate"), N_("event"), N_("god"), N_("venture"),  # tile types
              N_("activate"), N_("althing"), N_("immediate"), N_("persistent"),  # triggers
              N_("novice"), N_("standard"), N_("advanced"), N_("eklundian"))  # card difficulties
"""Words of the data a report shows as they are stored (``| say`` in the template)."""


class VikingModule(GameModule):
    """Pax Viking (comprehensive rule book), sequential turns by mail."""

    name: ClassVar[str] = "viking"
    title: ClassVar[str] = "Pax Viking"

    def __init__(self, data: Data | None = None) -> None:
        self._data = data

    @property
    def data(self) -> Data:
        if self._data is None:
            self._data = load()
        return self._data

    def words(self, language: str) -> Mapping[str, Any]:
        """The players' colours and the follower types in ``language`` (rules.toml
        ``colors`` and ``follower_types``, ``display_<language>``; the ids otherwise); the
        winds (board.toml ``name_<language>``) and, as ``place_name``, the regions, posts,
        homes and ally fleets (board.toml ``name_fr``: "Norvège"), by the English name a
        view and an event carry; as ``tile_name``, the saga tiles and victory cards
        (``name_fr``: "Chantier naval") likewise; as ``place_after``, a place named after « vers »
        (a sea with its article: « le Golfe de Finlande », :meth:`Data.the_said`); and ``place``, each region, post and home by id with its
        ``name`` in ``language``, for the map (gm.service.mapwords)."""
        def said(key: str) -> dict[str, str]:
            entry = self.data.rules[key]
            shown = entry.get(f"display_{language}") or entry["value"]
            return dict(zip(entry["value"], shown, strict=True))

        d = self.data
        return {"color": said("colors"), "follower": said("follower_types"),
                "wind": {w["name"]: d.wind_name(w["id"], language) for w in d.winds.values()},
                "place_name": d.place_names(language), "tile_name": d.tile_names(language),
                "place_after": d.place_names_after(language),
                "place": {node: {"name": translate(d.place_said(node), language)}
                          for table in (d.regions, d.posts, d.homes) for node in table}}

    def power_forms(self, language: str) -> Mapping[str, Mapping[str, str]]:
        """A seat is its colour (rules.toml ``colors``, ``display_<language>``)."""
        return {p: {"name": c, "the": c} for p, c in self.words(language)["color"].items()}

    def data_check(self) -> list[str]:
        from gm.games.viking.datacheck import check_all

        return check_all()

    def order_grammar(self) -> Any:
        return parsing.GRAMMAR

    def scenarios(self) -> list[Scenario]:
        """One scenario per player count (1-6): ``1p`` ... ``6p``; powers are colors."""
        colors = self.data.rule("colors")
        return [Scenario(f"{n}p", f"{n} player{'s' if n > 1 else ''}", tuple(colors[:n]),
                         "Pax Viking, set-up A-I; settings in docs/viking.md")
                for n in range(1, 7)]

    def setup(self, scenario: str, options: Mapping[str, Any]) -> State:
        for s in self.scenarios():
            if s.id == scenario:
                return initial_state(self.data, list(s.powers), options)
        raise UnknownScenario(f"no Pax Viking scenario {scenario!r} (1p ... 6p)")

    def phase(self, state: State) -> PhaseInfo:
        step = state["step"]
        kind: str = step  # the step is the phase's kind (setup and ended too)
        return PhaseInfo(engine.phase_id(state), kind, engine.owing(state),
                         simultaneous=step == "althing", ended=bool(state["ended"]))

    def parse_orders(self, state: State, power: str, lines: Sequence[SourceLine]) -> ParseResult:
        return parsing.parse_lines(self.data, state, power, lines)

    def validate(self, state: State, power: str, orders: Sequence[Any]) -> list[Validation]:
        """Refuse what cannot be done now; in a turn, the orders are tried in sequence
        on a copy of the position. Orders after a tile is drawn from the saga pile,
        a trade offer or an Althing event are "to be checked at adjudication": the
        reply must not tell what the pile holds."""
        plain = [_plain(o) for o in orders]
        step = state["step"]
        allowed = PHASE_ORDERS.get(step, ())
        info = self.phase(state)
        out: list[Validation | None] = [None] * len(plain)
        for i, o in enumerate(plain):
            if isinstance(o, Conditional) and step != "turn":
                out[i] = Validation(Verdict.REFUSED, msg(
                    "a vote or a trade answer is not conditional: the votes are secret until "
                    "the Althing closes and nothing changes while an offer waits"))
            elif isinstance(o, Conditional) and isinstance(o.order, Keep):
                out[i] = Validation(Verdict.REFUSED, msg(
                    "keep is a standing rule for the winter solstice: it is not conditional"))
            elif power not in info.owing:
                out[i] = Validation(Verdict.REFUSED, msg(
                    "not your phase: {owing} owes orders now",
                    owing=", ".join(info.owing) or msg("nobody")))
            elif not isinstance(unwrap(o), allowed):
                out[i] = Validation(Verdict.REFUSED, msg("not an order for a {step} phase",
                                                         step=step))
        if step == "turn":
            self._simulate(state, power, plain, out)
        return [v or Validation(Verdict.ACCEPTED) for v in out]

    def _simulate(self, state: State, power: str, orders: list[Order],
                  out: list[Validation | None]) -> None:
        s = copy_state(state)
        t = Table(self.data, s)
        index = [i for i, v in enumerate(out) if v is None]
        results: list[tuple[int, str]] = []
        engine.carry_out(t, power, [orders[i] for i in index], results, until_hidden=True)
        done = set()
        for j, why in results:
            done.add(j)
            if why:
                out[index[j]] = Validation(Verdict.REFUSED, why)
            elif isinstance(orders[index[j]], Conditional):
                out[index[j]] = Validation(Verdict.TO_CHECK,
                                           msg("condition checked when carried out"))
            else:
                out[index[j]] = Validation(Verdict.ACCEPTED)
        for j, i in enumerate(index):
            if j not in done:
                out[i] = Validation(Verdict.TO_CHECK, msg(
                    "carried out after an earlier order whose outcome is not known yet"))

    def turns_before(self, state: State, power: str) -> tuple[str, ...]:
        """The player ordering now (their turn, its Althing or trade), then each player
        seated between them and ``power`` in turn order (Sequence of Play: "an Influence
        Phase, an Action Phase, and a Winter Solstice for each player in clockwise order")."""
        order = list(state.get("powers", ()))
        if (state.get("step") not in ("turn", "althing", "trade") or state.get("ended")
                or power not in order):
            return ()
        cur = int(state["current"])
        if order[cur] == power:
            return ()
        out = []
        i = cur
        while order[i] != power:
            out.append(order[i])
            i = (i + 1) % len(order)
        return tuple(out)

    def default_orders(self, state: State, power: str) -> list[Any]:
        """No orders: a turn passes; a vote is the default vote; a trade is refused."""
        if state["step"] == "althing":
            return [Vote(power == state["althing"]["power"])]
        if state["step"] == "trade":
            return [Refuse()]
        return []

    def adjudicate(self, state: State, orders: Mapping[str, Sequence[Any]], dice: Dice) -> Outcome:
        plain = {p: [_plain(o) for o in os] for p, os in orders.items()}
        return engine.adjudicate(self.data, state, plain, dice)

    def view(self, state: State, power: str | None) -> dict[str, Any]:
        return fog.view(self.data, state, power)

    def order_to_json(self, order: Any) -> dict[str, Any]:
        return order_to_json(_plain(order))

    def order_from_json(self, data: Mapping[str, Any]) -> Any:
        return order_from_json(dict(data))


def _plain(order: Any) -> Any:
    return order.order if isinstance(order, ParsedOrder) else order
