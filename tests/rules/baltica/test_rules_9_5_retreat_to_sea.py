"""Pax Baltica 9.5 retreating to sea (GMT 2012), on the shipped board and the 12.1 set-up."""

from __future__ import annotations

from gm.dice import Dice
from gm.games.baltica.engine import battle_phase
from gm.games.baltica.module import BalticaModule
from gm.games.baltica.orders import Retreat
from gm.games.baltica.rules.world import World
from gm.games.baltica.state import GameState

MODULE = BalticaModule()


def narva(control: str = "sweden", enemy_fleet: bool = False) -> World:
    """9.2/9.5 example: Karl XII and two regiments landed in Ingermanland, where Pyotr I
    and his army stand; the two Swedish fleets at sea in the Gulf of Finland."""
    gs = GameState.from_json(MODULE.setup("12.1", {}))
    gs.step, gs.turn.first = "battles", "sweden"
    for b in ("karl-xii", "dalregementet", "ostgota"):
        gs.blocks[b].location = "ingermanland"
        gs.blocks[b].moved = True
    gs.turn.entries["ingermanland"] = [["sweden", "gulf-of-finland", 1]]
    gs.turn.defenders["ingermanland"] = "coalition"
    for f in ("wachtmeister", "wattrang"):
        gs.blocks[f].location = "gulf-of-finland"
    gs.control["ingermanland"] = control
    if enemy_fleet:
        gs.blocks["pyotr-i"].location = "pool"  # keep the test about the sea
    # The attack goes badly: every Swedish die misses, every Russian one hits.
    return World(MODULE.board, gs, Dice.scripted([], then_seed=True))


def retreats(*blocks: str, to: str = "Gulf of Finland") -> dict:  # type: ignore[type-arg]
    return {"sweden": [Retreat(b, to) for b in blocks], "coalition": []}


def test_rule_9_5_example_karl_retreats_onto_the_fleets_off_narva() -> None:
    """9.5: "if the attack in Ingermanland goes badly, Karl XII and the two regiments may
    retreat to the fleets at sea in the Gulf of Finland, since the port of Narva is still
    under Swedish control." One fleet carries an army or two regiments (9.2)."""
    w = narva()
    battle_phase(w, retreats("Karl XII", "Dalregementet", "Östgöta"))
    bs = w.state.blocks
    assert {bs[b].location for b in ("karl-xii", "dalregementet", "ostgota")} == {
        "gulf-of-finland"}
    assert bs["dalregementet"].aboard == bs["ostgota"].aboard != bs["karl-xii"].aboard
    assert {bs["karl-xii"].aboard, bs["ostgota"].aboard} == {"wachtmeister", "wattrang"}
    to_sea = [e for e in w.events if e.type == "retreated"]
    assert {e.data["to"] for e in to_sea} == {"Gulf of Finland"}


def test_rule_9_5_only_from_a_friendly_port() -> None:
    """9.5: "Sea retreats can only be conducted from a territory with a friendly port."
    Design note: "You can't sea retreat from a territory unless you control the port"."""
    w = narva(control="russia")
    battle_phase(w, retreats("Karl XII"))
    assert w.state.blocks["karl-xii"].aboard is None
    assert not [e for e in w.events if e.type == "retreated" and e.data["to"] == "Gulf of Finland"]


def test_rule_9_5_room_aboard_is_the_sea_transport_limit() -> None:
    """9.2: "Each fleet block can transport one army block or two regiment blocks": with
    one fleet, the regiment that retreats first (Dalregementet, A2 before Karl XII's turn)
    takes the room an army would need: Karl XII stays to fight."""
    w = narva()
    w.state.blocks["wattrang"].location = "pool"
    battle_phase(w, retreats("Karl XII", "Dalregementet"))
    assert w.state.blocks["dalregementet"].aboard == "wachtmeister"
    assert w.state.blocks["karl-xii"].aboard is None


def test_rule_9_5_never_onto_anchored_fleets() -> None:
    """9.5: "Blocks may not sea retreat onto anchored fleets." """
    w = narva()
    for f in ("wachtmeister", "wattrang"):
        w.state.blocks[f].location = "ingermanland"  # (a harbor would anchor them)
    battle_phase(w, retreats("Karl XII"))
    assert w.state.blocks["karl-xii"].aboard is None


def test_rule_9_5_the_order_names_the_sea_zone() -> None:
    """By mail: ``retreat Karl XII to Gulf of Finland`` (French ``retraite ... vers ...``)."""
    from gm.games.baltica.conditions import unwrap
    from gm.orders.model import SourceLine

    state = narva().state.to_json()
    res = MODULE.parse_orders(state, "sweden", [
        SourceLine(1, "retraite Karl XII vers Gulf of Finland"),
        SourceLine(2, "retreat Karl XII to Gulf of Finland")])
    orders = [unwrap(o.order)[0] for o in res.orders]
    assert len(orders) == 2 and orders[-1] == Retreat("Karl XII", "Gulf of Finland")
