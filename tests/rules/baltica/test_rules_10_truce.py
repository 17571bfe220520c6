"""Pax Baltica 10.2 truce and 10.3 reactivation (GMT 2012), on the shipped map and the 3CG
scenario set-ups."""

from __future__ import annotations

from gm.dice import Dice
from gm.games.baltica.board import load_board
from gm.games.baltica.engine import end_of_phase
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.rules import activation
from gm.games.baltica.rules.losses import eliminate
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.truce import call_truce, impose_due_truces, offer_truce
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import POOL, GameState

MODULE = BalticaModule()
BOARD = load_board()


def world_of(scenario: str, rolls: list[int] | None = None) -> World:
    gs = GameState.from_json(MODULE.setup(scenario, {}))
    gs.step = "battles"
    return World(BOARD, gs, Dice.scripted(rolls or []))


def on_map(world: World, nation: str) -> list[str]:
    return [b for b, bs in world.state.blocks.items()
            if world.spec(b).nation == nation and world.state.on_map(b)]


def test_rule_10_2_a_royal_block_eliminated_imposes_a_truce_at_the_end_of_the_phase() -> None:
    """10.2: "A truce is imposed on a nation at the end of the current phase: when their
    royal block is eliminated (Coalition only)". All its blocks go to the pool, it becomes
    inactive, a cube goes on the Year Track four years ahead."""
    world = world_of("12.4")
    gs = world.state
    eliminate(world, "frederik-iv")
    assert "denmark" in gs.active, "not before the end of the phase"
    assert [e.data["reason"] for e in world.events if e.type == "truce_due"] == ["royal"]
    assert on_map(world, "denmark")
    end_of_phase(world)
    assert "denmark" not in gs.active and gs.truces["denmark"] == gs.year + 4
    assert on_map(world, "denmark") == []
    assert gs.blocks["rantzau"].location == POOL and gs.blocks["rantzau"].strength == 0
    truce = next(e for e in world.events if e.type == "truce")
    assert truce.visible_to is None and truce.data["until"] == 1714


def test_rule_10_2_a_swedish_royal_block_calls_no_truce() -> None:
    """10.2: royal block eliminated: "(Coalition only)"."""
    world = world_of("12.4")
    world.state.karl_exiled_once = True
    eliminate(world, "karl-xii")
    assert not [e for e in world.events if e.type == "truce_due"]


def test_rule_10_2_markers_are_lifted_both_ways() -> None:
    """10.2: "Remove all of the nation's garrison markers from captured territories. Also
    remove all enemy garrison markers from the nation's territories." The owners get back
    the RP levels the captures cost them (8.1; interpretation)."""
    world = world_of("12.4")
    gs = world.state
    gs.control.update({"skane": "denmark", "jylland": "sweden", "livland": "russia"})
    sweden, denmark = gs.rp["sweden"], gs.rp["denmark"]
    call_truce(world, "denmark", "capital")
    impose_due_truces(world)
    assert "skane" not in gs.control and "jylland" not in gs.control
    assert gs.control["livland"] == "russia", "other nations' markers stay"
    assert gs.rp["sweden"] == sweden + 4 and gs.rp["denmark"] == denmark + 4
    assert world.controller("skane") == "sweden" and world.controller("jylland") == "denmark"


def test_rule_10_2_foreign_blocks_leave_for_the_nearest_friendly_territory() -> None:
    """10.2: "Any blocks of another nation inside a nation under truce are immediately
    moved to the nearest friendly territory they are allowed to enter". The owner learns
    which blocks; the opponent how many went where."""
    world = world_of("12.4")
    gs = world.state
    gs.blocks["elfsborg"].location = "jylland"
    call_truce(world, "denmark", "offered")
    impose_due_truces(world)
    assert gs.blocks["elfsborg"].location == "holstein-gottorp"
    private = next(e for e in world.events if e.type == "evicted")
    public = next(e for e in world.events if e.type == "blocks_evicted")
    assert private.visible_to == frozenset({"sweden"}) and "Elfsborg" in private.data["blocks"]
    assert public.visible_to is None and public.data["count"] == 1
    assert "Elfsborg" not in str(public.data)


def test_rule_10_2_truce_pools_hidden_blocks_without_naming_them_to_the_enemy() -> None:
    world = world_of("12.4")
    call_truce(world, "denmark", "capital")
    impose_due_truces(world)
    for e in world.events:
        if e.visible_to is None or "sweden" in e.visible_to:
            assert "Rantzau" not in str(e.data), e


def test_rule_11_5_a_truce_on_saxony_pools_the_polish_blocks() -> None:
    """11.5: "Poland is never subject to truce. If a truce is imposed on Saxony, return
    Polish blocks on the map to the Saxon replacement pool"."""
    world = world_of("12.4")
    assert on_map(world, "poland")
    call_truce(world, "poland", "last_block")
    assert not world.truces_due, "Poland is never subject to truce"
    call_truce(world, "saxony", "royal")
    impose_due_truces(world)
    assert on_map(world, "poland") == [] and "poland" not in world.state.truces


def test_rule_10_2_the_last_block_eliminated() -> None:
    """10.2: "when their last block on the map is eliminated"."""
    world = world_of("12.4")
    gs = world.state
    eliminate(world, "august-ii")  # royal and Saxony's last block: one truce
    assert [e.data["reason"] for e in world.events if e.type == "truce_due"] == ["royal"]
    world = world_of("12.4")
    for b in on_map(world, "russia"):
        eliminate(world, b)
    gs = world.state
    assert [e.data["nation"] for e in world.events if e.type == "truce_due"] == ["russia"]
    end_of_phase(world)
    assert "russia" in gs.truces


def test_rule_10_2_rp_level_zero() -> None:
    """10.2: "when their RP level is reduced to zero"."""
    world = world_of("12.4")
    world.state.rp["russia"] = 0
    end_of_phase(world)
    assert world.state.truces.get("russia") == world.state.year + 4


def test_rule_11_6_ottoman_surrender() -> None:
    """11.6: "If enemy blocks solely occupy all Ottoman territories, a truce is imposed"."""
    world = world_of("12.4")
    gs = world.state
    gs.active.append("ottoman")
    gs.blocks["karl-xii"].location = "pool"
    gs.blocks["pyotr-i"].location = "besarabya"
    impose_due_truces(world)
    assert "ottoman" not in gs.truces, "Moldova is not occupied"
    gs.blocks["kazanski"].location = "moldova"
    impose_due_truces(world)
    assert "ottoman" in gs.truces


def test_rule_10_3_reactivation_example() -> None:
    """10.3: "Denmark is knocked out of the war during 1711. A red cube is placed on the
    Year Track in 1715. The Coalition player may start to roll for Denmark's activation in
    the 1715 Interphase, needing a 6 to activate."""
    world = world_of("12.4", [6])
    gs = world.state
    gs.year = 1711
    call_truce(world, "denmark", "royal")
    impose_due_truces(world)
    assert gs.truces["denmark"] == 1715
    for year in (1712, 1713, 1714):
        gs.year = year
        assert not activation.may_roll(world, "denmark", "coalition")
    gs.year = 1715
    assert activation.may_roll(world, "denmark", "coalition")
    assert not activation.may_roll(world, "denmark", "sweden")
    assert activation.activation_roll(world, "denmark")
    activation.activate(world, "denmark", "10.3")
    assert "denmark" in gs.active and "denmark" not in gs.truces


def test_rule_10_3_russia_rolls_to_reactivate_though_it_never_rolls_to_enter() -> None:
    world = world_of("12.1")
    gs = world.state
    call_truce(world, "russia", "capital")
    impose_due_truces(world)
    gs.year = gs.truces["russia"]
    assert activation.may_roll(world, "russia", "coalition")


def test_rule_10_2_offered_truce() -> None:
    """10.2: "Any nation (except Sweden, Ukraine, or Poland) may offer to submit to a truce
    during any Interphase. The offer must be accepted and goes into effect immediately."
    """
    world = world_of("12.4")
    gs = world.state
    assert offer_truce(world, "sweden", "sweden") is Why.NO_TRUCE_OFFER
    assert offer_truce(world, "coalition", "poland") is Why.NO_TRUCE_OFFER
    assert offer_truce(world, "sweden", "denmark") is Why.NOT_YOUR_NATION_AT_WAR
    assert offer_truce(world, "coalition", "denmark") is None
    assert "denmark" in gs.truces and on_map(world, "denmark") == []
    assert [e.data["reason"] for e in world.events if e.type == "truce"] == ["offered"]


def test_rule_10_2_a_truce_offered_by_mail_in_the_interphase() -> None:
    """The order ``truce offer N`` (French ``offre de trêve N``) in the Interphase: the
    nation submits before the activation rolls; a refused offer says why."""
    from gm.games.baltica.conditions import unwrap
    from gm.games.base import Verdict
    from gm.orders.model import SourceLine

    gs = GameState.from_json(MODULE.setup("12.4", {}))
    gs.year, gs.season, gs.step = 1711, "spring", "interphase"
    state = gs.to_json()

    def parsed(power: str, text: str) -> list:  # type: ignore[type-arg]
        res = MODULE.parse_orders(state, power, [SourceLine(1, text)])
        return [unwrap(o.order)[0] for o in res.orders]

    offer = parsed("coalition", "offre de trêve Danemark")
    assert offer and offer[0].echo() == "truce offer Denmark"
    assert [v.verdict for v in MODULE.validate(state, "coalition", offer)] == [Verdict.ACCEPTED]
    refused = MODULE.validate(state, "sweden", parsed("sweden", "truce offer Sweden"))
    assert refused[0].verdict is Verdict.REFUSED and "never offer a truce" in str(refused[0].reason)
    out = MODULE.adjudicate(state, {"coalition": offer, "sweden": []},
                            Dice.scripted([], then_seed=True))
    after = GameState.from_json(out.state)
    assert after.truces["denmark"] == 1715 and "denmark" not in after.active
    assert after.step == "action-roll"
    types = [e.type for e in out.events]
    assert types.index("truce_offered") < types.index("truce")
    assert not [e for e in out.events if e.type == "activation_roll"
                and e.data["nation"] == "denmark"]


def test_rule_10_2_the_offer_must_be_accepted_so_the_opponent_has_no_say() -> None:
    """10.2: "The offer must be accepted and goes into effect immediately" (French
    translation: "L'offre doit être acceptée et prend effet immédiatement"). "Must be
    accepted" binds the receiving player, and "immediately" leaves no time for an answer
    by mail: the truce takes effect in the same Interphase whatever the opponent orders,
    and there is no order to refuse it."""
    from gm.games.baltica.conditions import unwrap
    from gm.orders.model import SourceLine

    gs = GameState.from_json(MODULE.setup("12.4", {}))
    gs.year, gs.season, gs.step = 1711, "spring", "interphase"
    state = gs.to_json()
    for text in ("refuse truce Denmark", "truce refuse Denmark", "refuser trêve Danemark"):
        res = MODULE.parse_orders(state, "sweden", [SourceLine(1, text)])
        assert res.errors and not res.orders, text
    offer = [unwrap(o.order)[0] for o in MODULE.parse_orders(
        state, "coalition", [SourceLine(1, "truce offer Denmark")]).orders]
    out = MODULE.adjudicate(state, {"coalition": offer, "sweden": []},
                            Dice.scripted([], then_seed=True))
    after = GameState.from_json(out.state)
    assert "denmark" in after.truces and "denmark" not in after.active
    assert next(e for e in out.events if e.type == "truce").data["reason"] == "offered"
