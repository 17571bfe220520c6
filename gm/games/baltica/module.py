"""Pax Baltica as a gm game module (gm.games.base.GameModule).

Documented defaults (docs/baltica.md): a power that sends no actions passes;
no main attack given: the border first used to attack; no battle order: the
battles in territory-id order; tied hits and forage losses: the owner's
``hits prefer`` list, else a regiment before an army, a non-royal block before
a royal one; pinned blocks: those that already moved, then the weakest; no
retreat; no regroup; pinned blocks: the defender's `pin` list first. Events and National
Politics choices: see docs/baltica.md.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar

from gm.dice import Dice
from gm.games.baltica import fog, parsing, standing
from gm.games.baltica.board import DEFAULT_RULESET, RULESETS, Board, load_board, player_words
from gm.games.baltica.conditions import unwrap
from gm.games.baltica.engine import adjudicate
from gm.games.baltica.orders import (
    ACTION_TYPES,
    NOT_YET_IMPLEMENTED,
    OPPONENT_ORDERS,
    BattleOrder,
    Build,
    Cede,
    Discontent,
    Embark,
    HitsPrefer,
    Land,
    MainAttack,
    Move,
    OrderType,
    Pin,
    Politics,
    Recon,
    Reform,
    Regroup,
    Reinforce,
    Replace,
    Reroll,
    Retreat,
    Sail,
    Siege,
    Solidarity,
    TruceOffer,
    WinterCampaign,
    joined,
    order_from_json,
    order_to_json,
    place,
)
from gm.games.baltica.rules import (
    actions,
    builds,
    fleets,
    limits,
    movement,
    nations,
    politics,
    truce,
)
from gm.games.baltica.rules import winter_campaign as winter
from gm.games.baltica.rules.reforms import reform_problem
from gm.games.baltica.rules.replacements import replacement_problem
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.sequence import acting_power, owing, phase_id, step_row
from gm.games.baltica.standing import STANDING_TYPES
from gm.games.baltica.state import POOL, POWERS, REMOVED, BlockState, GameState, Turn
from gm.games.base import (
    GameError,
    GameModule,
    Outcome,
    PhaseInfo,
    Scenario,
    State,
    UnknownScenario,
    Validation,
    Verdict,
)
from gm.i18n import Text, msg
from gm.l10n import elide
from gm.orders.conditions import Conditional
from gm.orders.model import ParsedOrder, ParseResult, SourceLine

PHASE_ORDERS: Mapping[str, tuple[OrderType, ...]] = {
    "actions": ACTION_TYPES + (MainAttack, Reinforce, Pin, Discontent) + STANDING_TYPES,
    "battle": (BattleOrder, HitsPrefer, Retreat, Regroup),
    "forage": (HitsPrefer,),
    "interphase": (TruceOffer, Solidarity, Build, Replace, Reform),
    "winter-campaign": (WinterCampaign, Siege, BattleOrder, HitsPrefer, Retreat, Regroup, Pin),
}
"""Which orders each kind of phase takes (orders.md §5); others are refused."""



def place_forms(name: str, language: str, of: str | None = None) -> dict[str, str]:
    """A place's forms when the data gives only its name (issue 20): ``the`` and ``name``
    the name itself, ``in``, ``of`` and ``from`` with their preposition, "de" elided
    before a vowel by French's one rule (gm.l10n.elide: "de Livland", "d'Estland",
    "d'Östergötland"); French "from" is its "of" ("débarque d'Estland").
    ``of``: the data's own "of" form, when it has one."""
    if language == "fr":
        of = of or elide("de ", name, language) + name
        return {"name": name, "the": name, "in": f"en {name}", "of": of, "from": of}
    return {"name": name, "the": name, "in": f"in {name}", "of": of or f"of {name}",
            "from": f"from {name}"}

class BalticaModule(GameModule):
    """Pax Baltica (GMT 2012 rules, 3CG scenarios)."""

    name: ClassVar[str] = "baltica"
    title: ClassVar[str] = "Pax Baltica"

    def __init__(self, board: Board | None = None) -> None:
        self._board = board

    @cached_property
    def board(self) -> Board:
        """The default ruleset's board (loaded on first use unless given)."""
        return self._board or load_board()

    def board_of(self, state: Mapping[str, Any]) -> Board:
        """The board of the state's ruleset (``load_board`` keeps one per ruleset); a
        board given to the constructor (tests) serves every state."""
        if self._board is not None:
            return self._board
        return load_board(str(state.get("ruleset") or DEFAULT_RULESET))

    def power_forms(self, language: str) -> Mapping[str, Mapping[str, str]]:
        """Sweden by its nation's names (nations.toml ``[nation.sweden]`` ``words``), the
        Coalition as the rules call it (nations.toml ``[player.coalition]`` ``words``)."""
        sweden = self.words(language)["nation"]["sweden"]
        return {"sweden": {"name": sweden["name"], "the": sweden["the"]},
                **player_words(language)}

    def words(self, language: str) -> Mapping[str, Any]:
        """The names in ``language`` (the English form where the language gives none):
        ``{"nation": {id: {"name", "the", ...}}}`` (nations.toml ``words``) and ``{"place":
        {English name: {"name", "the", "in", "of", "from"}}}`` for territories and sea zones
        (events carry the English name): a sea's from map.toml ``words``, a territory's by
        :func:`place_forms`."""
        nations: dict[str, Mapping[str, str]] = {}
        for key, n in self.board.nations.items():
            en = {"name": n.name, "the": n.name, "of": n.name, "to": n.name, "adjective": n.name,
                  **n.words.get("en", {})}
            for form in ("adjective_f", "adjectives", "adjectives_f"):
                en.setdefault(form, en["adjective"])
            nations[key] = {**en, **n.words.get(language, {})}
        place = {t.name: place_forms(t.name, language) for t in self.board.territories.values()}
        for z in self.board.seas.values():
            place[z.name] = {**place_forms(z.name, "en"), **z.words.get(language, {})}
            place[z.name]["from"] = place_forms(z.name, language, place[z.name]["of"])["from"]
        return {"nation": nations, "place": place}

    # -- games -----------------------------------------------------------------
    def data_check(self) -> list[str]:
        """Schema problems in the shipped data, for every ruleset (``gm data check``)."""
        from gm.games.baltica.datacheck import check_all

        return check_all()

    def order_grammar(self) -> Any:
        from gm.games.baltica.parsing import GRAMMAR

        return GRAMMAR

    def scenarios(self) -> list[Scenario]:
        """The 3CG scenarios 12.1-12.5 found in the data."""
        return [Scenario(s.id, s.title, ("sweden", "coalition"), s.notes)
                for s in self.board.scenarios.values()]

    def setup(self, scenario: str, options: Mapping[str, Any]) -> State:
        """The set-up of ``scenario``: placements, garrison markers, RP levels, actives.

        ``options``: ``ruleset`` ("gmt-2012", the default, or "3cg-1.1") and, in the 3CG
        ruleset, ``optional`` (3CG 13.x optional rules, e.g. "13.1,13.3")."""
        ruleset, optional = game_options(options)
        board = self._board or load_board(ruleset)
        if scenario not in board.scenarios:
            raise UnknownScenario(f"no Pax Baltica scenario {scenario!r}")
        sc = board.scenarios[scenario]
        blocks = {b: BlockState(POOL, 0) for b in board.blocks}
        for b in sc.out_of_play:
            blocks[b] = BlockState(REMOVED, 0)
        for p in sc.placements:
            blocks[p.block] = BlockState(p.location, p.strength)
        active = list(sc.active) or [n for n, v in board.nations.items()
                                     if v.active_at_start]
        rp = {n: v.rp_level for n, v in board.nations.items() if v.rp_level is not None}
        rp.update(sc.rp_levels)
        gs = GameState(scenario=scenario, ruleset=board.ruleset, year=sc.start_year,
                       season=sc.start_season.value, step="action-roll",
                       end_year=sc.end_year, end_season=sc.end_season.value, blocks=blocks,
                       control=dict(sc.controlled), active=active, rp=rp, turn=Turn(),
                       first_turn_actions=dict(sc.first_turn_actions), optional=optional,
                       defected=[n for n, side in sc.allegiance.items()
                                 if board.nations[n].side.value != side])
        if sc.special.get("sankt_peterburg_built"):  # 3CG 12.3-12.5: "Nyen is now S:t Petersburg"
            gs.upgraded = [t for t, v in board.territories.items() if v.upgrade is not None]
        return gs.to_json()

    def phase(self, state: State) -> PhaseInfo:
        """The phase ``state`` waits in (ids in docs/baltica.md)."""
        gs = GameState.from_json(state)
        acting = acting_power(gs)
        due = owing(gs)
        if gs.step in ("battles", "forage") and not gs.ended:  # orders.md §5: only while
            world = World(self.board_of(state), gs, Dice.scripted([]))  # a decision is left
            due = standing.deciding_powers(world, gs.step)
        return PhaseInfo(phase_id(gs), step_row(gs.step).kind, due,
                         may_order=POWERS if (acting is not None or gs.step in (
                             "winter-campaign", "battles", "forage")) and not gs.ended else (),
                         simultaneous=gs.step in ("battles", "forage", "interphase"), ended=gs.ended)

    # -- orders ----------------------------------------------------------------
    def parse_orders(self, state: State, power: str, lines: Sequence[SourceLine]) -> ParseResult:
        """Parse one section (English or French), names within ``power``'s knowledge."""
        return parsing.parse_lines(self.board_of(state), state, power, lines)

    def validate(self, state: State, power: str, orders: Sequence[Any]) -> list[Validation]:
        """Refuse what ``power``'s own position forbids now; the rest is accepted or
        "to be checked at adjudication" (conditions, sieges, anything others' moves or
        dice may change). More actions than rolled: a warning."""
        gs = GameState.from_json(state)
        world = World(self.board_of(state), gs, Dice.scripted([]))
        kind = step_row(gs.step).kind
        out: list[Validation] = []
        tally = _ActionTally(world, power, gs.turn.actions.get(power, 0),
                             kind == "actions" and acting_power(gs) == power)
        event_nation = power in gs.turn.events_due
        joining: dict[str, set[str]] = {}  # 11.10: where earlier orders send which nations
        for o in orders:
            inner, cond = unwrap(_plain(o))
            v = self._judge(world, gs, power, kind, inner, joining)
            if event_nation and isinstance(inner, Politics):
                event_nation = False  # 12.1 #6: names the nation for the event, no action
                if v.verdict is Verdict.REFUSED and v.reason != Why.NOT_MAJOR.value:
                    v = Validation(Verdict.ACCEPTED)
                if v.verdict is not Verdict.REFUSED:
                    out.append(v)
                    continue
            if v.verdict is not Verdict.REFUSED:
                v = tally.judge(inner, v, conditional=cond is not None)
            if v.verdict is Verdict.ACCEPTED and cond is not None and not v.reason:
                v = Validation(Verdict.TO_CHECK, msg("condition checked when carried out"))
            out.append(v)
        out = self._standing_where_they_stand(world, gs, power, kind, tally, orders, out)
        return _tell_replaced(world, power, orders, out)

    def _standing_where_they_stand(self, world: World, gs: GameState, power: str, kind: str,
                                   tally: _ActionTally, orders: Sequence[Any],
                                   judged: list[Validation]) -> list[Validation]:
        """Retreats and regroups given in advance (with the actions, or in Sweden's winter
        campaign) are judged from where their blocks will stand when the battles come, when
        the mail already tells it (orders.md §2, issue 17 class 4): a regroup to a territory
        not adjacent, a retreat beyond the block's movement rating, is refused with the
        reason (5.6, 5.7). Where the blocks stand: after the mail's own unconditional moves
        (rehearsed by the engine's functions); a block a conditional or uncounted move may
        have moved, one moved by Sweden's winter campaign, or the blocks of a power whose
        own action phase of the season is still to come, are left to the adjudication."""
        if kind == "actions" and acting_power(gs) == power:
            where, unsure = tally.rehearsal, tally.unsure
        elif kind == "winter-campaign" or (
                kind == "actions" and self.next_phase_for(gs.to_json(), power) is None):
            where, unsure = world, set()
            for o in orders:
                inner, _ = unwrap(_plain(o))
                if isinstance(inner, WinterCampaign):
                    unsure |= {world.bid_block(b) for g in inner.move.groups for b in g.blocks}
        else:
            return judged
        out = list(judged)
        for i, o in enumerate(orders):
            inner, _ = unwrap(_plain(o))
            if not isinstance(inner, (Retreat, Regroup)) or out[i].verdict is Verdict.REFUSED:
                continue
            why = _battle_decision_problem(where, inner, battles=None, unsure=unsure)
            if why is not None:
                out[i] = Validation(Verdict.REFUSED, msg(why.value))
        return out

    def _judge(self, world: World, gs: GameState, power: str, kind: str,
               order: Any, joining: dict[str, set[str]]) -> Validation:
        if isinstance(order, NOT_YET_IMPLEMENTED):
            return Validation(Verdict.REFUSED, msg(Why.NOT_YET_IMPLEMENTED.value))
        if isinstance(order, Cede):  # 11.1: "at any time", carried out first
            why = (Why.SWEDEN_CEDES if power != "sweden" else nations.cede_problem(
                world, world.bid_territory(order.territory), world.bid_nation(order.to)))
            return Validation(Verdict.REFUSED, msg(why.value)) if why else Validation(
                Verdict.ACCEPTED)
        if isinstance(order, Reroll):  # 3CG 13.2/13.3: standing, in any phase you order in
            why = actions.reroll_problem(world, power, order.below)
            return Validation(Verdict.REFUSED, msg(why.value)) if why else Validation(
                Verdict.ACCEPTED)
        if kind not in PHASE_ORDERS or not isinstance(order, PHASE_ORDERS[kind]):
            return _not_in_this_phase(kind)
        if kind == "winter-campaign":
            return self._judge_winter(world, power, order, joining)
        if isinstance(order, BattleOrder) and power != (gs.turn.first or gs.powers[0]):
            return Validation(Verdict.REFUSED, msg(Why.FIRST_PLAYER_ONLY.value))
        if kind == "actions" and isinstance(order, STANDING_TYPES):
            return Validation(Verdict.ACCEPTED, msg(
                "kept as a standing order for this season's battles"))
        acting = kind == "actions" and acting_power(gs) == power
        if kind == "actions" and isinstance(order, OPPONENT_ORDERS):
            if acting:
                return Validation(Verdict.REFUSED, msg(Why.OPPONENT_ONLY.value))
            return Validation(Verdict.TO_CHECK, msg("used if the other player's actions call for it"))
        if kind == "actions" and not acting:
            later = self.next_phase_for(gs.to_json(), power)
            if later is None:  # 3.3: the First Player's actions are over for this turn
                return Validation(Verdict.REFUSED, msg(
                    "not your action phase: yours is over this turn; in this one you may "
                    "send pin and discontent (4.3, 12.4) and the battle decisions (hits "
                    "prefer, retreat, regroup, battle order)"))
            return Validation(Verdict.REFUSED, msg(
                "not your action phase: yours, {phase}, opens when this one closes (by the "
                "deadline below at the latest); send these orders then", phase=later))
        why = None
        if isinstance(order, Move):
            origin = world.bid_territory(order.origin)
            for g in order.groups:
                why = why or movement.group_problem(
                    world, power, origin, [world.bid_block(b) for b in g.blocks])
            why = why or movement.order_limits_problem(world, power, order, joining)
            if why is None:
                return _move_paths(world, power, origin, order)
        elif isinstance(order, Recon):
            why = actions.recon_problem(world, power, world.bid_territory(order.territory))
        elif isinstance(order, Replace):
            if kind == "actions" and order.strength is not None:
                why = Why.STRENGTH_IN_INTERPHASE
            else:
                why = replacement_problem(world, world.bid_block(order.block))
        elif isinstance(order, Build):
            nation = world.bid_nation(order.nation)
            pool = world.board.nations[nation].pool if nation is not None else None
            if pool is None or pool not in gs.rp or world.power_of_nation(pool) != power:
                why = Why.NO_POOL
            elif pool not in gs.active:
                if not _may_enter_the_war(world, pool):
                    why = Why.NOT_ACTIVE
                else:
                    return Validation(Verdict.TO_CHECK, msg(
                        "used if the nation enters the war in this Interphase (10.1)"))
            else:
                return _deploy_places_named(world, pool, order.deploy)
        elif isinstance(order, Reform):
            why = reform_problem(world, power, world.bid_block(order.block))
        elif isinstance(order, Politics):
            why = politics.politics_problem(world, power, world.bid_nation(order.nation))
        elif isinstance(order, Solidarity):
            nation = world.bid_nation(order.reactivate) if order.reactivate else None
            why = nations.solidarity_problem(world, power, nation)
            if why is None and not nations.solidarity_under_truce(world):
                return Validation(Verdict.TO_CHECK, msg(
                    "used if the choice is in question in the Interphase"))
        elif isinstance(order, TruceOffer):
            why = truce.truce_offer_problem(world, power, world.bid_nation(order.nation))
        elif isinstance(order, (Siege, Land)):  # 11.3-11.7: where these blocks may go
            blocks = [world.bid_block(b) for b in order.blocks]
            where = world.bid_territory(order.to if isinstance(order, Land) else order.territory)
            why = (limits.entry_problem(world, blocks, where) if isinstance(order, Land)
                   else limits.attack_place_problem(world, blocks, where))
            if why is None:
                return Validation(Verdict.TO_CHECK)
        elif isinstance(order, (Retreat, Regroup)) and gs.step == "battles":
            from gm.games.baltica.rules.battle import battle_territories

            why = _battle_decision_problem(world, order, set(battle_territories(world)))
            if why is None:
                return Validation(Verdict.TO_CHECK)
        elif isinstance(order, (Retreat, Regroup, Embark, Sail)):
            return Validation(Verdict.TO_CHECK)
        if why is not None:
            return Validation(Verdict.REFUSED, msg(why.value))
        return Validation(Verdict.ACCEPTED)

    def _judge_winter(self, world: World, power: str, order: Any,
                      joining: dict[str, set[str]]) -> Validation:
        """3.4: Sweden's campaign (the move, sieges, battle order); the Coalition's
        standing orders for the battles it may cause (pins, hits, retreats)."""
        if isinstance(order, Pin):
            if power == "sweden":
                return Validation(Verdict.REFUSED, msg(Why.OPPONENT_ONLY.value))
            return Validation(Verdict.TO_CHECK, msg("used if the other player's actions call for it"))
        if isinstance(order, (WinterCampaign, Siege, BattleOrder)) and power != "sweden":
            return Validation(Verdict.REFUSED, msg(Why.SWEDEN_ONLY.value))
        if isinstance(order, WinterCampaign):
            why = winter.campaign_problem(world, order.move, ())
            if why is None:
                origin = world.bid_territory(order.move.origin)
                for g in order.move.groups:
                    why = why or movement.group_problem(
                        world, power, origin, [world.bid_block(b) for b in g.blocks])
                why = why or movement.order_limits_problem(world, power, order.move, joining)
            if why is not None:
                return Validation(Verdict.REFUSED, msg(why.value))
            return Validation(Verdict.ACCEPTED)
        return Validation(Verdict.TO_CHECK)

    def position_of_phase(self, state: State, phase_id: str) -> list[tuple[str, Any]]:
        """``1701-summer-actions-coalition``, ``1701-autumn-battles``, ``1702-interphase``...
        (the ids of docs/baltica.md) as year, season and step; an action phase of the
        power that is not the First Player is the second action phase (0.3)."""
        import re

        gs = GameState.from_json(state)
        m = re.fullmatch(r"(\d{4})-(interphase|winter-campaign)", phase_id.strip().lower())
        if m:
            season = "winter" if m.group(2) == "winter-campaign" else "spring"
            return [("year", int(m.group(1))), ("season", season), ("step", m.group(2))]
        m = re.fullmatch(r"(\d{4})-(spring|summer|autumn|winter)-(action-roll|battles|forage|"
                         r"actions-(sweden|coalition))", phase_id.strip().lower())
        if not m:
            raise GameError(f"{phase_id!r} is not a Pax Baltica phase id (e.g. "
                            "1701-summer-actions-coalition, 1701-autumn-battles, 1702-interphase)")
        step = m.group(3)
        if m.group(4):
            first = gs.turn.first or gs.powers[0]
            step = "actions-first" if m.group(4) == first else "actions-second"
        return [("year", int(m.group(1))), ("season", m.group(2)), ("step", step)]

    def next_phase_for(self, state: State, power: str) -> str | None:
        """0.3: the Second Player orders in the action phase after the First Player's."""
        gs = GameState.from_json(state)
        if gs.step == "actions-first" and acting_power(gs) != power:
            gs.step = "actions-second"
            return phase_id(gs)
        return None

    def default_orders(self, state: State, power: str) -> list[Any]:
        """No orders: the power passes its actions and takes every standing default."""
        return []

    # -- adjudication and views ------------------------------------------------
    def adjudicate(self, state: State, orders: Mapping[str, Sequence[Any]], dice: Dice) -> Outcome:
        """Close the current phase (pure)."""
        plain = {p: [_plain(o) for o in os] for p, os in orders.items()}
        return adjudicate(self.board_of(state), state, plain, dice)

    def view(self, state: State, power: str | None) -> dict[str, Any]:
        """What ``power`` may know (None: the moderator's full view)."""
        return fog.view(self.board_of(state), state, power)

    def order_to_json(self, order: Any) -> dict[str, Any]:
        """Plain orders by field; conditional ones by their canonical text too."""
        order = _plain(order)
        if isinstance(order, Conditional):
            return {"type": "conditional", "text": order.echo(),
                    "order": order_to_json(order.order)}
        return order_to_json(order)

    def order_from_json(self, data: Mapping[str, Any]) -> Any:
        """Rebuild a stored order (a conditional one by re-parsing its text)."""
        if data.get("type") == "conditional":
            return parsing.reparse(data["text"])
        return order_from_json(data)


OPTIONAL_RULES = ("13.1", "13.2", "13.3")
"""3CG 13.0 Optional Play Balance: the rules a 3cg-1.1 game may switch on."""
OPTIONAL_NOT_YET: tuple[str, ...] = ()
"""Optional rules known but not implemented yet: refused at set-up."""


def game_options(options: Mapping[str, Any]) -> tuple[str, list[str]]:
    """The ruleset and the 3CG optional rules (13.x) of a new game's options, checked.

    ``optional`` may be a string ("13.1,13.3"), a number (``--set optional=13.1`` reads
    JSON) or a list. An unknown ruleset or rule, or optional rules outside the 3CG
    ruleset, raise :class:`GameError` with the choices."""
    ruleset = str(options.get("ruleset") or DEFAULT_RULESET)
    if ruleset not in RULESETS:
        raise GameError(f"unknown Pax Baltica ruleset {ruleset!r} (known: {', '.join(RULESETS)})")
    raw = options.get("optional") or []
    items = raw if isinstance(raw, (list, tuple)) else str(raw).replace(" ", ",").split(",")
    optional = sorted({str(i).strip() for i in items if str(i).strip()})
    unknown = [o for o in optional if o not in OPTIONAL_RULES]
    if unknown:
        raise GameError(f"unknown Pax Baltica optional rule {', '.join(unknown)} "
                        f"(known: {', '.join(OPTIONAL_RULES)}, ruleset 3cg-1.1)")
    later = [o for o in optional if o in OPTIONAL_NOT_YET]
    if later:
        raise GameError(f"Pax Baltica optional rule {', '.join(later)} is not yet implemented")
    if optional and ruleset != "3cg-1.1":
        raise GameError("the optional rules 13.x belong to the 3CG ruleset: "
                        "add ruleset=3cg-1.1")
    return ruleset, optional


def _not_in_this_phase(kind: str) -> Validation:
    """An order of another phase (orders.md §5): refused with the orders this phase takes
    (:data:`PHASE_ORDERS`), each named as HELP names it in the reader's language."""
    from gm.orders.help import topic_name, topics_of

    topics = topics_of("baltica")
    listed: Text | str = ""
    for kind_ in dict.fromkeys(t.kind for t in PHASE_ORDERS.get(kind, ())):
        name = topic_name(kind_, topics.get(kind_, {}))
        listed = name if not listed else msg("{a}, {b}", a=listed, b=name)
    return Validation(Verdict.REFUSED, msg("not allowed in this phase: it takes {orders}",
                                           orders=listed))


def _deploy_places_named(world: World, pool: str, named: Sequence[str]) -> Validation:
    """8.7: "New blocks cannot be deployed into enemy-occupied or enemy-garrisoned
    territories", and a nation's blocks deploy only in its own places (nations.toml,
    blocks.toml ``deploy``): a ``deploy`` place no block of the pool may use now is told
    at once with the places open, as the build would put the block elsewhere."""
    open_now = builds.open_to_builds(world, pool)
    closed = [world.tname(t) for t in (world.bid_territory(n) for n in named)
              if t not in open_now]
    if not closed:
        return Validation(Verdict.ACCEPTED)
    return Validation(Verdict.WARNING, msg(
        "no new block of {nation} may deploy in {closed} now (8.7); each goes to the first "
        "place listed that is open to it, else the capital; open now: {open}",
        nation=world.said(pool), closed=", ".join(closed),
        open=", ".join(world.tname(t) for t in open_now)))


def _battle_decision_problem(world: World, order: Retreat | Regroup,
                             battles: set[str] | None = None,
                             unsure: Collection[str] = ()) -> Why | None:
    """In the battles phase the blocks stand where they fight (5.6, 5.7): a retreat or
    regroup of a block in a land territory with no battle, a retreat farther than the
    block's movement rating, a regroup to a territory not adjacent, is refused (issue 17,
    class 4). What the battles decide (who is left, enemy blocks, border room) waits.
    ``battles``: the battle territories (None: not known yet, a standing order given in
    advance); ``unsure``: blocks whose place at the battles the mail does not tell."""
    blocks = [order.block] if isinstance(order, Retreat) else list(order.blocks)
    to = world.bid_territory(order.to)
    for name in blocks:
        b = world.bid_block(name)
        if b in unsure:
            continue
        where = world.state.blocks[b].location if b in world.state.blocks else None
        if where is None or where not in world.board.territories:
            continue  # at sea, in the pool: the adjudication judges it
        if battles is not None and where not in battles:
            return Why.NOT_IN_BATTLE
        if isinstance(order, Regroup):
            if to not in world.board.neighbours(where):
                return Why.REGROUP_ADJACENT
        elif to in world.board.territories and to not in _within(
                world, where, world.spec(b).movement):
            return Why.TOO_FAR_TO_RETREAT
    return None


def _may_enter_the_war(world: World, nation: str) -> bool:
    """Whether an inactive nation may become active in this Interphase before the builds
    (0.3, 10.1): an activation due (12.4 #3), a roll either player makes for it (a nation
    under truce from its cube's year, 10.3), Christian solidarity (Russia or Saxony under
    truce, 11.6), or a 3CG entry date reached (9.7, 9.9)."""
    from gm.games.baltica.rules import activation

    gs = world.state
    if any(item.get("what") == "activate" and item.get("nation") == nation
           for item in gs.interphase_due):
        return True
    if nation in gs.truces and nation in ("russia", "saxony"):
        return True
    if any(activation.may_roll(world, nation, p) for p in gs.powers):
        return True
    auto = world.board.nations[nation].activation.get("automatic_from_year")
    return auto is not None and gs.year >= int(auto)


def _tell_replaced(world: World, power: str, orders: Sequence[Any],
                   judged: list[Validation]) -> list[Validation]:
    """orders.md §5: standing decisions are used "unless the player replaces them in a
    later sub-phase"; a kind given later replaces that kind given earlier in the season
    (standing.py). The first accepted order of a kind says which earlier ones it replaces:
    a player who adds a retreat for another block must not believe the first still
    stands."""
    stored = [o for o, v in zip(orders, judged, strict=True)
              if v.stored and standing.is_standing(_plain(o))]
    earlier = standing.given_earlier(world, power, [_plain(o) for o in stored])
    out = list(judged)
    for i, o in enumerate(orders):
        kind = type(unwrap(_plain(o))[0])
        if not out[i].stored or kind not in earlier:
            continue
        note = msg("it replaces what you gave earlier this season: {orders}",
                   orders=joined([e.echo() for e in earlier.pop(kind)]))
        v = out[i]
        out[i] = Validation(v.verdict, msg("{a}; {b}", a=v.reason, b=note) if v.reason else note)
    return out


def _within(world: World, start: str, steps: int) -> set[str]:
    """The territories at most ``steps`` borders from ``start`` (whoever holds them)."""
    seen, edge = {start}, {start}
    for _ in range(steps):
        edge = {n for t in edge for n in world.board.neighbours(t)} - seen
        seen |= edge
    return seen


def _move_paths(world: World, power: str, origin: str, order: Move) -> Validation:
    """What the board already tells of a move (orders.md §5, 4.1, 4.4): the path the engine
    picks for a group without ``via`` (shown in the reply); a path longer than the blocks'
    rating without ``force``: a warning (the engine never force-marches by itself); no
    legal path even force-marching: refused. Section 11's limits are judged by the caller,
    with the mail's earlier moves."""
    notes: list[Text] = []
    verdict = Verdict.ACCEPTED
    for g in order.groups:
        blocks = [world.bid_block(b) for b in g.blocks]
        plan = movement.plan_group(world, power, origin, g, blocks)
        if plan.why is Why.NO_PATH and plan.barred is not None:
            return Validation(Verdict.REFUSED, msg(
                "no legal path: the shortest way by land is barred at {place}: {why}",
                place=world.tname(plan.at), why=msg(plan.barred.value)))
        if plan.why in (Why.TOO_FAR, Why.BY_SEA):
            return Validation(Verdict.REFUSED, _by_sea(world, plan, blocks, world.bid_territory(g.to)))
        if plan.why is Why.NO_PATH:
            return Validation(Verdict.REFUSED, msg(plan.why.value))
        if plan.why is Why.FORCE_NEEDED:
            verdict = Verdict.WARNING
            rating = min(world.spec(b).movement for b in blocks)
            notes.append(msg("{blocks}: the path is longer than the movement rating {rating}; "
                             "without force they will not move (4.4)",
                             blocks=", ".join(g.blocks), rating=rating))
        elif plan.why is not None:
            continue  # section 11's limits: judged above with the mail's earlier moves
        elif not g.via:
            notes.append(msg("{blocks} by {path}", blocks=", ".join(g.blocks),
                             path=" → ".join(world.tname(t) for t in plan.path)))
    return Validation(verdict, joined(notes) if notes else "")  # each note in the reader's language


def _by_sea(world: World, plan: movement.PathCheck, blocks: Sequence[str], to: str) -> Text:
    """A move the land will not carry (no land route, or too far even force-marching,
    4.4) answered with the sea (9.2: "Sea transport involves loading (or unloading) army
    or regiment blocks onto fleets at sea, and works like regular movement"): the embark,
    sail and land orders that take the blocks there now, in the reader's words; or why
    they may not land there either (4.5, 11.x); or, for a destination with a port, that
    blocks cross the sea that way. Landing waits for the next turn: "A given block may not
    be both loaded and unloaded during the same game turn" (9.2, design note)."""
    why = msg("no land route there") if plan.why is Why.BY_SEA else msg(Why.TOO_FAR.value)
    route = plan.sea
    if route is not None:
        names = tuple(world.name(b) for b in blocks)
        embark = Embark(names, world.tname(route.port), tuple(world.name(f) for f in route.fleets))
        land = Land(names, world.tname(route.landing_sea), world.tname(route.to))
        if not route.path:
            return msg("{why}; by sea: {embark}, then next turn {land} (9.2)",
                       why=why, embark=embark.text(), land=land.text())
        sail = Sail(embark.fleets, world.tname(route.sea), world.tname(route.landing_sea))
        return msg("{why}; by sea: {embark}, {sail}, then next turn {land} (9.2)",
                   why=why, embark=embark.text(), sail=sail.text(), land=land.text())
    if plan.closed is not None:
        return msg("{why}; nor by sea: {closed}", why=why, closed=msg(plan.closed.value))
    t = world.board.territories.get(to)
    if plan.why is Why.TOO_FAR and t is not None and t.port and not t.box:
        return msg("too far even force-marching (4.4); "
                   "blocks cross the sea with embark, sail and land (9.2)")
    return msg(plan.why.value if plan.why is not None else Why.NO_PATH.value)


class _ActionTally:
    """The actions an order list spends as the engine will count them (3.3): movement
    orders from one territory share one action (3.3.2), a siege by blocks that end their
    move there this phase is free (6.1); beyond the roll, a warning. Also what the list
    itself decides: the movement orders (move, embark, sail, land) are rehearsed in the
    mail's order on a copy of the board, by the engine's own functions, so an ``embark``,
    ``sail`` or ``land`` that the power's own position forbids (no friendly port, fleet
    not at sea off the port, no room aboard, not a harbor, too far, blocks not aboard, 9.1,
    9.2) is refused with the reason, after the moves above it (orders.md §2, issue 17)."""

    def __init__(self, world: World, power: str, roll: int, counting: bool) -> None:
        self.world, self.power, self.roll, self.counting = world, power, roll, counting
        self.spent = 0
        self.origins: set[str] = set()
        self.arriving: dict[str, set[str]] = {}  # territory -> blocks moved there above
        self._rehearsal: World | None = None
        self.unsure: set[str] = set()  # blocks a conditional order above may have moved

    @property
    def rehearsal(self) -> World:
        """The copy of the board the movement orders are rehearsed on, made when first
        needed (issue 21: a list that moves nothing, or one not counted, needs none)."""
        if self._rehearsal is None:
            self._rehearsal = World(self.world.board, self.world.state.copy(), Dice.scripted([]))
        return self._rehearsal

    def _siege_problem(self, territory: str, blocks: set[str]) -> Why | None:
        """6.1/6.2 as far as the board and the mail tell: blocks already in the territory
        are judged by the siege rules themselves; blocks that an earlier move of the mail
        brings there only by what does not depend on where they stand."""
        w = self.world
        if any(b not in w.state.blocks for b in blocks):
            return None
        arriving = blocks & self.arriving.get(territory, set())
        if not arriving:
            why = actions.siege_problem(w, self.power, territory, sorted(blocks))
        elif not w.enemy_controlled(territory, self.power):
            why = Why.NOT_ENEMY_GARRISON
        else:
            why = None
        if why is None and not actions.siege_eligible(w, territory, sorted(blocks)):
            why = Why.REGIMENTS_EXCLUDED
        return why

    def _pieces(self, order: Move | Embark | Sail | Land) -> set[str]:
        """The blocks a movement order moves (a fleet's cargo with it)."""
        r = self.rehearsal
        names = ([b for g in order.groups for b in g.blocks] if isinstance(order, Move)
                 else [*order.blocks] if isinstance(order, Land)
                 else [*order.fleets] if isinstance(order, Sail)
                 else [*order.blocks, *order.fleets])
        out = {r.bid_block(n) for n in names}
        return out | {c for f in out for c in fleets.cargo_of(r, f)}

    def _rehearse(self, order: Any, conditional: bool) -> Validation | None:
        """Carry a movement order out on the rehearsal board; the refusal when the power's
        own position (with the orders above) forbids an ``embark``, ``sail`` or ``land``.
        Orders that touch blocks a conditional order may have moved are left to the
        adjudication, as are the conditional orders themselves."""
        if not isinstance(order, (Move, Embark, Sail, Land)):
            return None
        r = self.rehearsal
        pieces = self._pieces(order)
        if conditional or pieces & self.unsure or any(b not in r.state.blocks for b in pieces):
            self.unsure |= pieces
            return None
        if isinstance(order, Move):
            movement.carry_out_move(r, self.power, order)
            return None
        why = (fleets.embark(r, self.power, order) if isinstance(order, Embark)
               else fleets.sail(r, self.power, order) if isinstance(order, Sail)
               else fleets.land(r, self.power, order))
        if why is None:
            return Validation(Verdict.ACCEPTED)
        if why is Why.NOT_ABOARD and isinstance(order, Land):  # only a landing answers it
            stray = [n for n in order.blocks if r.state.blocks[r.bid_block(n)].aboard is None
                     or r.state.blocks[r.bid_block(n)].location != r.bid_territory(order.origin)]
            return Validation(Verdict.REFUSED, msg("{block}: {why}", block=", ".join(stray),
                                                   why=msg(why.value)))
        if why is Why.NO_FLEET_THERE and isinstance(order, Embark):  # 9.2: where the port opens
            port = r.bid_territory(order.origin)
            sea = r.board.territories[port].sea
            if sea is not None:
                return Validation(Verdict.REFUSED, msg(
                    "{why}: {port} opens on {sea} (9.2)", why=msg(why.value),
                    port=r.tname(port), sea=place(r.tname(sea))))
        return Validation(Verdict.REFUSED, msg(why.value))

    def judge(self, order: Any, v: Validation, conditional: bool = False) -> Validation:
        w = self.world
        if self.counting:
            rehearsed = self._rehearse(order, conditional)
            if rehearsed is not None and rehearsed.verdict is Verdict.REFUSED:
                return rehearsed
            if rehearsed is not None and v.verdict is Verdict.TO_CHECK and not v.reason:
                v = rehearsed
        cost = 1 if isinstance(order, ACTION_TYPES) else 0
        if isinstance(order, (Move, Embark, Sail, Land)):
            origin = w.bid_territory(order.origin)
            cost = 0 if origin in self.origins else 1
            self.origins.add(origin)
        if isinstance(order, Move):
            for g in order.groups:
                self.arriving.setdefault(w.bid_territory(g.to), set()).update(
                    w.bid_block(b) for b in g.blocks)
        elif isinstance(order, Siege) and self.counting:
            t = w.bid_territory(order.territory)
            blocks = {w.bid_block(b) for b in order.blocks}
            why = self._siege_problem(t, blocks)
            if why is not None:  # what the power's own position already forbids (6.1, 6.2)
                return Validation(Verdict.REFUSED, msg(why.value))
            moved = {b for b in blocks if b in w.state.blocks and w.state.blocks[b].moved
                     and w.state.blocks[b].location == t}
            if blocks <= self.arriving.get(t, set()) | moved and not w.enemy_blocks(self.power, t):
                cost = 0
                v = Validation(v.verdict, msg(
                    "free: the besiegers end their move here this phase (6.1)"))
        if not self.counting or not cost:
            return v
        self.spent += cost
        if self.spent > self.roll:
            if isinstance(order, (Move, Embark, Sail, Land)):
                self.unsure |= self._pieces(order)  # carried out only if an action above fails
            return Validation(Verdict.WARNING, msg(
                "more actions than this turn's roll ({spent} of {roll}): skipped unless an "
                "action above it fails", spent=self.spent, roll=self.roll))
        return v


def _plain(order: Any) -> Any:
    """The order inside a ParsedOrder (the service may pass either)."""
    return order.order if isinstance(order, ParsedOrder) else order
