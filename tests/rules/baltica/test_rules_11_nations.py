"""Pax Baltica section 11 rules that fire on triggers (GMT 2012 11.1, 11.5, 11.6, 11.8,
11.9, 11.11), on the shipped map and the 3CG set-ups."""

from __future__ import annotations

from gm.dice import Dice
from gm.games.baltica.board import load_board
from gm.games.baltica.conditions import unwrap
from gm.games.baltica.engine import end_of_phase
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.rules import activation, nations
from gm.games.baltica.rules.losses import eliminate
from gm.games.baltica.rules.results import Why
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import ASIDE, POOL, GameState
from gm.games.base import Verdict
from gm.i18n import msg
from gm.orders.model import SourceLine

MODULE = BalticaModule()
BOARD = load_board()


def world_of(scenario: str = "12.1", rolls: list[int] | None = None, step: str = "battles") -> World:
    gs = GameState.from_json(MODULE.setup(scenario, {}))
    gs.step, gs.turn.first = step, "sweden"
    return World(BOARD, gs, Dice.scripted(rolls or []))


def test_rule_11_1_concessions() -> None:
    """11.1: "The Swedish player may at any time cede the territories of Bremen-Verden to
    Hannover and/or Pommern to Prussia. Each territory ceded reduces Sweden's RP level by
    4, but renders the receiving nation permanently inactive." Blocks in it leave (10.2
    by analogy); it is prohibited (4.5)."""
    w = world_of()
    gs = w.state
    rp = gs.rp["sweden"]
    assert nations.cede(w, "pommern", "hannover") is Why.NOT_A_CESSION
    assert nations.cede(w, "pommern", "prussia") is None
    assert gs.rp["sweden"] == rp - 4 and "prussia" in gs.permanently_inactive
    assert w.controller("pommern") == "prussia" and w.prohibited("pommern")
    assert {gs.blocks[b].location for b in ("pommerska", "ostgota")} != {"pommern"}
    assert nations.cede(w, "pommern", "prussia") is Why.NOT_A_CESSION, "once"
    gs.year += 1
    assert not activation.may_roll(w, "prussia", "coalition")


def test_rule_11_1_cede_by_mail_in_the_coalition_action_phase() -> None:
    """"at any time": Sweden's ``cede`` in the Coalition's action phase is carried out
    first; the Coalition may not cede."""
    gs = GameState.from_json(MODULE.setup("12.1", {}))
    gs.step, gs.turn.first = "actions-first", "coalition"
    state = gs.to_json()

    def parsed(power: str, text: str) -> list:  # type: ignore[type-arg]
        return [unwrap(o.order)[0] for o in MODULE.parse_orders(
            state, power, [SourceLine(1, text)]).orders]

    cede = parsed("sweden", "céder Bremen-Verden à Hanovre")
    assert MODULE.validate(state, "sweden", cede)[0].verdict is Verdict.ACCEPTED
    refused = MODULE.validate(state, "coalition", parsed("coalition", "cede Pommern to Prussia"))
    assert refused[0].verdict is Verdict.REFUSED
    out = MODULE.adjudicate(state, {"coalition": [], "sweden": cede}, Dice.scripted([]))
    after = GameState.from_json(out.state)
    assert after.ceded == {"bremen-verden": "hannover"} and after.rp["sweden"] == gs.rp["sweden"] - 4
    assert [e.type for e in out.events][:2] == ["phase", "ceded"]


def test_rule_11_5_both_polish_capitals_lost_and_regained() -> None:
    """11.5: "If at any time both capitals are lost, reduce Saxony's RP level by 4 and
    return any Polish blocks on the map to the Saxon replacement pool ... If Saxony regains
    both capitals, restore the lost RP level." """
    w = world_of("12.4")
    gs = w.state
    rp = gs.rp["saxony"]
    gs.control["mazowsze"] = "sweden"
    end_of_phase(w)
    assert gs.rp["saxony"] == rp and not gs.polish_capitals_lost, "one capital is not both"
    gs.control["malopolska"] = "sweden"
    end_of_phase(w)
    assert gs.rp["saxony"] == rp - 4 and gs.blocks["lubomirski"].location == POOL
    end_of_phase(w)
    assert gs.rp["saxony"] == rp - 4, "once"
    gs.control.update({"mazowsze": "saxony", "malopolska": "saxony"})
    end_of_phase(w)
    assert gs.rp["saxony"] == rp and not gs.polish_capitals_lost


def test_rule_11_6_christian_solidarity() -> None:
    """11.6: "If the Ottomans invade Poland, Russia and Saxony are immediately activated if
    not already active." """
    w = world_of("12.3")
    gs = w.state
    assert "saxony" not in gs.active
    gs.active.append("ottoman")
    gs.blocks["ottoman-1"].location, gs.blocks["ottoman-1"].strength = "ukraiyina", 4
    end_of_phase(w)
    assert "saxony" in gs.active


def test_rule_11_6_the_austro_turkish_war() -> None:
    """11.6: "While the Ottomans are active, roll each following Interphase for the start
    of the Austro-Turkish War, which occurs on a 6. If it occurs, a truce is imposed on the
    Ottomans immediately (10.2)." """
    w = world_of("12.4", [5, 6])
    gs = w.state
    nations.austro_turkish_war(w)
    assert not [e for e in w.events if e.type == "austro_turkish_war"], "not at war: no roll"
    gs.active.append("ottoman")
    nations.austro_turkish_war(w)
    assert "ottoman" in gs.active
    nations.austro_turkish_war(w)
    assert "ottoman" not in gs.active and gs.truces["ottoman"] == gs.year + 4


def test_rule_11_8_pacification_when_mazepa_is_eliminated() -> None:
    """11.8: "Ukraine rejoins Russia at the end of the phase when the Mazepa block is
    eliminated ... Russia regains its lost 8 RPs and the Mazepa block is set aside." """
    w = world_of("12.1")
    gs = w.state
    activation.activate(w, "ukraine", "10.1")
    rp = gs.rp["russia"]
    gs.blocks["mazepa"].location, gs.blocks["mazepa"].strength = "sivershchyna", 1
    eliminate(w, "mazepa")
    assert "ukraine" in gs.active, "at the end of the phase"
    end_of_phase(w)
    assert "ukraine" not in gs.active and gs.rp["russia"] == rp + 8
    assert gs.blocks["mazepa"].location == ASIDE
    assert "ukraine" not in gs.truces


def test_rule_11_9_hannover_joins_when_the_coalition_invades_holstein_gottorp() -> None:
    """11.9: Hannover "automatically becomes a Swedish ally if the Coalition invades
    Holstein-Gottorp; immediately place the Hannoverian block in Hannover." """
    w = world_of("12.4")
    gs = w.state
    end_of_phase(w)
    assert "hannover" not in gs.active
    gs.blocks["rantzau"].location = "holstein-gottorp"
    end_of_phase(w)
    assert "hannover" not in gs.active, "standing there is not invading"
    gs.blocks["rantzau"].moved = True
    w = World(BOARD, gs, Dice.scripted([]))
    end_of_phase(w)
    assert "hannover" in gs.active and gs.blocks["hannover"].location == "hannover"
    assert gs.blocks["hannover"].strength == BOARD.blocks["hannover"].max_strength


def test_rule_11_11_the_british_fleet() -> None:
    """11.11: the British fleet activates "immediately when the Coalition invades Sweden
    proper" (in Portsmouth at full strength), and in the Interphase "if the Coalition
    player has more fleet blocks at sea than Sweden"; it is removed "if, during the
    Interphase, the Swedish player has more fleet blocks (including the British fleet) at
    sea than the Coalition and there are no Coalition blocks in Sweden proper"."""
    w = world_of("12.4")
    gs = w.state
    end_of_phase(w)
    assert "britain" not in gs.active, "the Danes in Skåne since the set-up do not invade"
    gs.blocks["rantzau"].location, gs.blocks["rantzau"].moved = "smaland", True
    end_of_phase(w)
    assert "britain" in gs.active and gs.blocks["british-fleet"].location == "portsmouth"
    gs.blocks["juel"].location = "pool"  # Sweden has more fleets at sea, but ...
    nations.british_fleet_interphase(w)
    assert "britain" in gs.active, "Coalition blocks in Sweden proper"
    for b in ("rantzau", "reventlov", "fynske"):
        gs.blocks[b].location = "jylland"
    for f in ("tordenskiold", "juel"):
        gs.blocks[f].location = "pool"
    nations.british_fleet_interphase(w)
    assert "britain" not in gs.active and gs.blocks["british-fleet"].location == POOL
    gs.blocks["wachtmeister"].location = gs.blocks["wattrang"].location = "svealand"
    gs.blocks["tordenskiold"].location = "kattegat"
    nations.british_fleet_interphase(w)
    assert "britain" in gs.active, "more Coalition fleets at sea"


def test_rule_11_11_as_many_coalition_fleets_at_sea_bring_no_british_fleet() -> None:
    """11.11: the British fleet activates "during the Interphase, the Coalition player has
    more fleet blocks at sea than Sweden". 12.4: two Danish fleets in the Kattegat, two
    Swedish in the Southern Baltic: no more, so no British fleet; one Swedish fleet in
    harbor (Svealand), and it comes."""
    w = world_of("12.4", step="interphase")
    gs = w.state
    assert nations.fleets_at_sea(w, "sweden") == nations.fleets_at_sea(w, "coalition") == 2
    nations.british_fleet_interphase(w)
    assert "britain" not in gs.active
    gs.blocks["wattrang"].location = "svealand"
    nations.british_fleet_interphase(w)
    assert "britain" in gs.active and gs.blocks["british-fleet"].location == "portsmouth"


def test_rule_11_8_ukraine_activated_its_garrison_markers_are_removed() -> None:
    """11.8: "Reduce Russia's RP level by 8 and remove all garrisons in Ukrainian
    territory when Ukraine is activated." An Ottoman marker on Kremenchuk (12.2 #3,
    Cossack betrayal) and a Russian one on Poltava are removed: Ukraine holds its own."""
    w = world_of()
    gs = w.state
    gs.control.update({"kremenchuk": "ottoman", "poltava": "russia"})
    russia = gs.rp["russia"]
    activation.activate(w, "ukraine", "10.1")
    assert "ukraine" in gs.active and gs.rp["russia"] == russia - 8
    assert "kremenchuk" not in gs.control and "poltava" not in gs.control
    assert w.controller("kremenchuk") == w.controller("poltava") == "ukraine"


def solidarity_world(step: str = "interphase") -> World:
    """Ottoman blocks in Ukraiyina (Poland) while Saxony is under truce."""
    w = world_of(step=step)
    gs = w.state
    gs.active = [n for n in gs.active if n != "saxony"] + ["ottoman"]
    gs.truces["saxony"] = gs.year + 1
    gs.blocks["ottoman-1"].location, gs.blocks["ottoman-1"].strength = "ukraiyina", 3
    return w


def test_rule_11_6_christian_solidarity_interphase_choice() -> None:
    """11.6: "During the Interphase, if Ottoman blocks are in Poland while Saxony or Russia
    are under truce, the Swedish player must choose either to impose truce on the
    Ottomans as well, or allow Saxony or Russia to reactivate immediately." By mail
    (``solidarity reactivate Saxony`` / ``solidarité trêve``); default: the truce."""
    from gm.games.baltica.orders import Solidarity
    from gm.games.baltica.rules import interphase

    assert [s.id for s in interphase.INTERPHASE_STEPS].index("christian-solidarity") < [
        s.id for s in interphase.INTERPHASE_STEPS].index("activation")
    w = solidarity_world()
    interphase.christian_solidarity(w, {"sweden": [Solidarity("Saxony")]})
    assert "saxony" in w.state.active and "saxony" not in w.state.truces
    assert "ottoman" in w.state.active

    w = solidarity_world()
    interphase.christian_solidarity(w, {"sweden": [Solidarity("Russia")]})  # not under truce
    assert "ottoman" in w.state.truces and "saxony" in w.state.truces
    assert w.state.blocks["ottoman-1"].location == POOL
    assert [e.data for e in w.events if e.type == "christian_solidarity"] == [
        {"choice": "truce", "nation": "ottoman", "default": True}]

    w = solidarity_world()
    interphase.christian_solidarity(w, {})
    assert "ottoman" in w.state.truces, "default: the truce on the Ottomans"

    w = solidarity_world()
    w.state.truces.pop("saxony")
    w.state.active.append("saxony")
    interphase.christian_solidarity(w, {})
    assert "ottoman" in w.state.active, "not in question: nothing happens"


def test_rule_11_6_christian_solidarity_by_mail() -> None:
    """The Interphase order: Sweden's only, reactivating only Russia or Saxony."""
    state = solidarity_world().state.to_json()

    def judged(power: str, text: str) -> list[tuple[Verdict, str | None]]:
        orders = [unwrap(o.order)[0] for o in MODULE.parse_orders(
            state, power, [SourceLine(1, text)]).orders]
        return [(v.verdict, v.reason) for v in MODULE.validate(state, power, orders)]

    assert judged("sweden", "solidarité réactiver Saxe")[0][0] is Verdict.ACCEPTED
    assert judged("sweden", "solidarity truce")[0][0] is Verdict.ACCEPTED
    assert judged("sweden", "solidarity reactivate Denmark")[0][1] == msg(
        Why.NOT_SOLIDARITY_NATION.value)
    assert judged("coalition", "solidarity reactivate Saxony")[0][1] == msg(
        Why.SWEDEN_CHOOSES_SOLIDARITY.value)
    out = MODULE.adjudicate(state, {"coalition": [], "sweden": [
        unwrap(o.order)[0] for o in MODULE.parse_orders(
            state, "sweden", [SourceLine(1, "solidarity reactivate Saxony")]).orders]},
        Dice.scripted([1] * 40))
    after = GameState.from_json(out.state)
    assert "saxony" in after.active and "ottoman" not in after.truces



def test_rule_11_8_an_inactive_ukraine_is_part_of_russia() -> None:
    """11.8: "Ukraine begins the game inactive, as part of Russia." 1.1: "Ukraine is
    considered part of Russia, but may revolt and become a Swedish ally (11.8)." (3CG 4.8:
    "it belongs to Russia until activated".) Until it revolts its garrisons are Russia's:
    Sweden may besiege Poltava and Russia may not; a Swedish block there has no friendly
    garrison (8.3: replacements cost double); the Cossacks may deploy there (11.2: "within
    Russia or (if friendly) Ukraine"). Once Ukraine is activated its garrisons are its own,
    a Swedish ally's. Under the 3CG rules the Turks may take such a garrison, which costs
    Russia 8 RP levels (3CG 10.2)."""
    from gm.games.baltica.rules.actions import siege_problem
    from gm.games.baltica.rules.builds import deploy_places
    from gm.games.baltica.rules.replacements import step_cost
    from gm.games.baltica.rules.siege import capture
    from gm.games.baltica.state import SiegeState

    w = world_of(step="actions-first")
    gs = w.state
    assert "ukraine" not in gs.active and "russia" in gs.active
    gs.blocks["vellinck"].location, gs.blocks["vellinck"].strength = "poltava", 3
    assert w.controlled_by("poltava", "coalition") and w.enemy_controlled("poltava", "sweden")
    assert step_cost(w, "vellinck") == 4
    assert siege_problem(w, "sweden", "poltava", ["vellinck"]) is None
    gs.blocks["repnin"].location = "mala-rus"
    assert siege_problem(w, "coalition", "mala-rus", ["repnin"]) is Why.NOT_ENEMY_GARRISON
    assert {"kremenchuk", "mala-rus", "sivershchyna"} <= set(deploy_places(w, "cossacks"))
    capture(w, SiegeState("poltava", "sweden", ["vellinck"]))
    assert w.controlled_by("poltava", "sweden") and step_cost(w, "vellinck") == 2
    activation.activate(w, "ukraine", "10.1")
    assert "poltava" not in gs.control
    assert w.controlled_by("mala-rus", "sweden") and w.enemy_controlled("mala-rus", "coalition")
    # 3CG 10.2: "Russia loses 8 RP's for the first Russian (or Ukraine if they are not
    # activated) territory lost to the Turk due to a siege."
    gs3 = GameState.from_json(MODULE.setup("12.1", {"ruleset": "3cg-1.1"}))
    gs3.active.append("ottoman")
    w3 = World(load_board("3cg-1.1"), gs3, Dice.scripted([]))
    assert "ukraine" not in gs3.active and w3.controlled_by("poltava", "coalition")
    turk = next(b for b, s in w3.board.blocks.items() if s.nation == "ottoman")
    gs3.blocks[turk].location, gs3.blocks[turk].strength = "kremenchuk", 3
    assert siege_problem(w3, "sweden", "kremenchuk", [turk]) is None
    russia = gs3.rp["russia"]
    capture(w3, SiegeState("kremenchuk", "sweden", [turk]))
    assert gs3.control["kremenchuk"] == "ottoman" and gs3.rp["russia"] == russia - 8
