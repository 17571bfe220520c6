"""Pax Baltica National Politics (3.3.4, 12.4), events (12.0-12.3) and RPs spent at once
(8.2, 8.3), on the shipped board and the 12.1 set-up (GMT 2012 rule book)."""

from __future__ import annotations

from gm.dice import Dice
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.orders import Politics
from gm.games.baltica.rules.action_phase import run_action_phase
from gm.games.baltica.rules.event_effects import Choices, event_loss, side_event
from gm.games.baltica.rules.events import resolve_event
from gm.games.baltica.rules.politics import national_politics, politics_action
from gm.games.baltica.rules.replacements import spend_on_map, step_cost
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import ASIDE, POOL, GameState

MODULE = BalticaModule()


def world(dice: list[int], **changes: object) -> World:
    gs = GameState.from_json(MODULE.setup("12.1", {}))
    gs.step = "actions-first"
    gs.turn.first, gs.turn.actions = "sweden", {"sweden": 3, "coalition": 2}
    for k, v in changes.items():
        setattr(gs, k, v)
    return World(MODULE.board, gs, Dice.scripted(dice))


def types(w: World) -> list[str]:
    return [e.type for e in w.events]


def test_rule_3_3_national_politics_once_per_year_per_nation() -> None:
    """3.3.4: "For the cost of an action, you may choose one major nation you control and
    roll one die on the National Politics Table (12.4). IMPORTANT: This action may be
    chosen only once per Year per nation." """
    w = world([1, 1])
    run_action_phase(w, "sweden", [Politics("Sweden"), Politics("Sweden")])
    assert w.state.turn.actions["sweden"] == 2
    failed = [e.data["code"] for e in w.events if e.type == "order_failed"]
    assert failed == [Why.POLITICS_USED.name]
    assert politics_action(w, "sweden", "russia", Choices()) is Why.NOT_MAJOR
    assert politics_action(w, "coalition", "denmark", Choices()) is Why.NOT_ACTIVE
    w.state.year += 1
    assert politics_action(w, "sweden", "sweden", Choices()) is None


def test_rule_12_4_extravagance_halves_next_interphase_rps() -> None:
    """12.4 #1: "Receive only half RPs in the next Interphase." (8.8: temporary.)"""
    w = world([1])
    national_politics(w, "sweden", "sweden", Choices())
    assert w.state.interphase_due == [{"what": "rp_half", "nation": "sweden"}]
    assert w.state.rp["sweden"] == 40


def test_rule_12_4_discontent_opponents_choice_or_the_worst() -> None:
    """12.4 #2: "Each of your blocks in one non-national territory (opponent's choice)
    loses one step." Default: where most steps are lost; never eliminates (12.0)."""
    w = world([2])
    bs = w.state.blocks
    bs["karl-xii"].location = bs["dalregementet"].location = "kurland"
    bs["ostgota"].location, bs["ostgota"].strength = "lietuva", 2
    national_politics(w, "sweden", "sweden", Choices())
    assert (bs["karl-xii"].strength, bs["dalregementet"].strength) == (3, 2)
    assert bs["ostgota"].strength == 2
    w = world([2])
    bs = w.state.blocks
    bs["karl-xii"].location = bs["dalregementet"].location = "kurland"
    bs["ostgota"].location, bs["ostgota"].strength = "lietuva", 2
    national_politics(w, "sweden", "sweden", Choices(discontent=("lietuva",)))
    assert (bs["karl-xii"].strength, bs["ostgota"].strength) == (4, 1)


def test_rule_12_4_special_envoy_activates_an_ally_with_plus_one() -> None:
    """12.4 #3: "Attempt to activate one of your allies, with a +1 on the roll. If you
    succeed, the target nation enters the war during the next Interphase." Denmark
    needs a 6 (11.4): a 5 + 1 succeeds; Prussia (-1) would need the 6 itself."""
    w = world([3, 5])
    national_politics(w, "coalition", "russia", Choices())
    assert {"what": "activate", "nation": "denmark"} in w.state.interphase_due
    assert "denmark" not in w.state.active
    w = world([3, 5])
    national_politics(w, "coalition", "russia", Choices(targets=("prussia",)))
    [roll] = [e for e in w.events if e.type == "activation_roll"]
    assert roll.data["nation"] == "prussia" and not roll.data["success"]
    assert w.state.interphase_due == []


def test_rule_12_4_reinforcements_add_steps_now() -> None:
    """12.4 #4: "Roll one die and receive that many RPs to immediately add steps to any of
    your blocks (8.3)." 8.2: army 2 RPs a step, regiment 1."""
    w = world([4, 5])
    bs = w.state.blocks
    bs["karl-xii"].strength, bs["dalregementet"].strength = 2, 1
    national_politics(w, "sweden", "sweden", Choices(reinforce=("dalregementet",)))
    assert (bs["dalregementet"].strength, bs["karl-xii"].strength) == (3, 3)
    assert [e.data for e in w.events if e.type == "rp_spent"] == [
        {"power": "sweden", "cause": "reinforcements", "rp": 5, "left": 1}]


def test_rule_8_3_example_karl_xii_in_lietuva_pays_double() -> None:
    """8.3: "Karl XII is in Lietuva in Poland with a reduced strength of 2. The Swedish
    player expends 8 of his RPs and adds two steps to Karl XII (2 RPs for each step,
    doubled because there is no friendly garrison in Vilnius)." """
    w = world([])
    karl = w.state.blocks["karl-xii"]
    karl.location, karl.strength = "lietuva", 2
    assert step_cost(w, "karl-xii") == 4
    assert spend_on_map(w, "sweden", ["karl-xii"], 8) == 0
    assert karl.strength == 4


def test_rule_12_4_emergency_recruitment_rest_is_kept_for_building() -> None:
    """12.4 #5: "Roll two dice and receive that many RPs to be spent immediately in the
    same manner as the Interphase": on-map steps first (8.2), the rest for new blocks."""
    w = world([5, 6, 6])
    w.state.blocks["karl-xii"].strength = 3
    national_politics(w, "sweden", "sweden", Choices())
    assert w.state.blocks["karl-xii"].strength == 4
    assert w.state.interphase_due == [{"what": "build", "nation": "sweden", "rp": 10}]


def test_rule_12_0_events_never_eliminate_and_spare_fleets() -> None:
    """12.0: "No army or regiment block may be eliminated by losses due to events. Fleet
    blocks, and any blocks transported by them, ignore all losses due to events." """
    w = world([])
    bs = w.state.blocks
    fleets = [b for b, s in bs.items() if s.location == "southern-baltic"]
    assert fleets
    bs["dalregementet"].strength = 1
    event_loss(w, ["karl-xii", "dalregementet", *fleets], 2, "epidemic")
    assert (bs["karl-xii"].strength, bs["dalregementet"].strength) == (2, 1)
    assert all(bs[f].strength == MODULE.board.blocks[f].max_strength for f in fleets)
    [own] = [e for e in w.events if e.type == "event_losses"]
    assert own.visible_to == frozenset({"sweden"})


def test_rule_12_1_epidemic_strikes_one_region() -> None:
    """12.1 #2: "Epidemic. Roll a die for region. All blocks in that region lose one
    step. ... 4. Baltic (Estland, Livland, Ingermanland & Nyen)" """
    w = world([2, 4])
    resolve_event(w, "sweden", Choices())
    bs = w.state.blocks
    assert bs["pyotr-i"].strength == 3 and bs["sheremetev"].strength == 3
    assert bs["karl-xii"].strength == 4 and bs["repnin"].strength == 4


def test_rule_12_1_attrition_strikes_blocks_outside_their_national_territory() -> None:
    """12.1 #3: "Attrition. All blocks on the map not in their national territory lose one
    step." The Saxons in Livland and the Russians in Ingermanland (Swedish lands), and
    Vellinck in Velikaya (Russian, held by Sweden) lose a step; Karl XII in Skåne and Repnin
    in Novgorod do not; fleets never do (12.0)."""
    w = world([3])
    bs = w.state.blocks
    w.state.control["velikaya"] = "sweden"
    bs["vellinck"].location = "velikaya"
    resolve_event(w, "sweden", Choices())
    assert [bs[b].strength for b in ("august-ii", "flemming", "pyotr-i", "vellinck")] == [
        3, 3, 3, 3]
    assert [bs[b].strength for b in ("karl-xii", "repnin", "estlandska", "wachtmeister")] == [
        4, 4, 2, 4]


def test_rule_12_1_attrition_strikes_blocks_outside_friendly_territory() -> None:
    """12.1 #4: "Attrition. All blocks on the map not in a friendly territory lose one
    step." 1.5: "Transit territories are not considered friendly for events." The Saxons in
    Livland, the Russians in Ingermanland (Swedish garrisons) and Vellinck in Mecklenburg
    (transit) lose a step; Karl XII in Skåne, Repnin in Novgorod and Östgöta in Velikaya (a
    Russian territory whose garrison Sweden holds) do not."""
    w = world([4])
    bs = w.state.blocks
    w.state.control["velikaya"] = "sweden"
    bs["vellinck"].location = "mecklenburg"
    bs["ostgota"].location = "velikaya"
    resolve_event(w, "sweden", Choices())
    assert [bs[b].strength for b in ("august-ii", "flemming", "pyotr-i", "vellinck")] == [
        3, 3, 3, 3]
    assert [bs[b].strength for b in ("karl-xii", "repnin", "ostgota")] == [4, 4, 3]


def test_rule_12_1_polish_civil_war_swedish_win_returns_polish_blocks() -> None:
    """12.1 #1: "Swedish player wins: Return all on-map Polish blocks to the Saxon
    replacement pool." (+1 per Polish capital controlled.)"""
    w = world([1, 6, 1])
    polish = next(b for b, s in w.state.blocks.items() if MODULE.board.blocks[b].nation == "poland")
    w.state.blocks[polish].location, w.state.blocks[polish].strength = "mazowsze", 2
    resolve_event(w, "sweden", Choices())
    [war] = [e for e in w.events if e.type == "polish_civil_war"]
    assert war.data["totals"]["coalition"] == 1 + 2  # both capitals are Polish
    assert war.data["winner"] == "sweden"
    assert w.state.blocks[polish].location == POOL


def test_rule_12_1_event_6_uses_the_politics_order_without_an_action() -> None:
    """12.1 #6: "Choose a major nation under your control ... and roll on the National
    Politics Table (12.4)." The event is resolved before actions (3.1)."""
    w = world([6, 1])
    w.state.turn.events_due, w.state.turn.actions = ["coalition"], {"coalition": 0}
    run_action_phase(w, "coalition", [Politics("Saxony")])
    [rolled] = [e for e in w.events if e.type == "event_rolled" and e.data.get("nation")]
    assert rolled.data["nation"] == "saxony"
    assert "order_failed" not in types(w) and w.state.politics_used == {}


def test_rule_12_2_cossacks_go_home_until_ukraine_and_ottomans_are_inactive() -> None:
    """12.2 #4: "Remove the Russian Cossack block from play. If and when both Ukraine and
    the Ottoman Empire are inactive, return it to the Russian replacement pool (this may
    be immediate)." """
    w = world([4], active=["sweden", "russia", "saxony", "ottoman"])
    side_event(w, "sweden", Choices())
    assert w.state.blocks["cossacks"].location == ASIDE
    w.state.active.remove("ottoman")
    from gm.games.baltica.rules.event_effects import check_returns

    check_returns(w)
    assert w.state.blocks["cossacks"].location == POOL and w.state.aside == {}
    w = world([4])
    side_event(w, "sweden", Choices())
    assert w.state.blocks["cossacks"].location == POOL  # "this may be immediate"


def test_rule_12_2_denmark_loans_troops_draws_one_pool_block() -> None:
    """12.2 #1: "Denmark (active or not) must remove one block randomly from their
    replacement pool ... Return it to the pool if Sweden invades Denmark or Norway." """
    w = world([1, 1, 1])
    side_event(w, "sweden", Choices())
    [aside] = list(w.state.aside)
    assert MODULE.board.blocks[aside].nation == "denmark"
    [own] = [e for e in w.events if e.type == "set_aside"]
    assert own.visible_to == frozenset({"coalition"})
    w.state.blocks["karl-xii"].location = "sjaelland"
    from gm.games.baltica.rules.event_effects import check_returns

    check_returns(w)
    assert w.state.blocks[aside].location == POOL


def test_rule_12_2_coalition_mistrust_splits_colours() -> None:
    """12.2 #5: "For the remainder of the year, Coalition blocks of different colors may
    not move or attack together." """
    from gm.games.baltica.orders import Move, MoveGroup
    from gm.games.baltica.rules.movement import carry_out_move

    w = world([5])
    side_event(w, "sweden", Choices())
    assert w.state.mistrust_year == w.state.year
    saxon = next(b for b, s in w.state.blocks.items()
                 if MODULE.board.blocks[b].nation == "saxony" and s.location == "livland")
    w.state.blocks[saxon].location = "ingermanland"
    order = Move("Ingermanland", (MoveGroup(("Pyotr I", MODULE.board.blocks[saxon].name),
                                            "Novgorod"),))
    [(_, why)] = carry_out_move(w, "coalition", order)
    assert why is Why.MISTRUST


def test_rule_12_3_russian_nature_strikes_back() -> None:
    """12.3 #1: "Russian nature strikes back. Each block in Russia (including Ukraine) loses
    two steps. Russian and Ukrainian blocks are not affected." Karl XII in Novgorod and
    Vellinck in Poltava lose two steps each; Repnin beside Karl and the Swedes in Livland
    (not Russia) lose nothing."""
    w = world([1])
    bs = w.state.blocks
    bs["karl-xii"].location = "novgorod"
    bs["vellinck"].location = "poltava"
    bs["dalregementet"].location = "livland"
    side_event(w, "coalition", Choices())
    assert (bs["karl-xii"].strength, bs["vellinck"].strength) == (2, 2)
    assert (bs["repnin"].strength, bs["dalregementet"].strength) == (4, 3)


def test_rule_12_3_german_diplomacy_returns_holstein_gottorp() -> None:
    """12.3 #6: "Return the Holstein-Gottorp block (and Hannover block, if a Swedish ally)
    to the Swedish replacement pool." """
    w = world([6])
    hg = [b for b in w.state.blocks if MODULE.board.blocks[b].nation == "holstein-gottorp"]
    w.state.blocks[hg[0]].location, w.state.blocks[hg[0]].strength = "holstein-gottorp", 2
    side_event(w, "coalition", Choices())
    assert all(w.state.blocks[b].location == POOL for b in hg)


def test_every_table_row_runs_on_a_board_without_the_named_pieces() -> None:
    """Every row of the four tables, for both players, on a small board lacking the
    nations, blocks and territories the rows name: carried out or "no effect", never a
    crash."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from baltica_boards import make_board, make_state, make_world

    from gm.games.baltica.rules.event_effects import SIDE_EFFECTS, row
    from gm.games.baltica.rules.events import EFFECTS as EVENT_EFFECTS
    from gm.games.baltica.rules.politics import EFFECTS as POLITICS_EFFECTS

    board = make_board({"livland": ("sweden", 3, 2), "pskov": ("russia", 3, 2)},
                       [("livland", "pskov")],
                       {"karl-xii": ("sweden", "army", 4, "A3", 2, 1),
                        "repnin": ("russia", "army", 4, "B2", 2, 1)})
    for power, nation in (("sweden", "sweden"), ("coalition", "russia")):
        for table, effects in (("event_table", EVENT_EFFECTS),
                               ("swedish_event_table", SIDE_EFFECTS),
                               ("coalition_event_table", SIDE_EFFECTS),
                               ("national_politics_table", POLITICS_EFFECTS)):
            for face in range(1, 7):
                gs = make_state(board, {"karl-xii": ("pskov", 2), "repnin": ("livland", 2)})
                w = make_world(board, gs)
                w.dice = Dice.scripted([], then_seed=True)
                r = row(w, table, face)
                if table == "national_politics_table":
                    effects[r["id"]](w, power, nation, r, Choices())  # type: ignore[operator]
                else:
                    effects[r["id"]](w, power, r, Choices())  # type: ignore[operator]
