"""Pax Baltica orders: canonical echo and JSON round trip (orders.md §5, §8)."""

from __future__ import annotations

import pytest

from gm.games.baltica.orders import (
    ORDER_TYPES,
    BattleOrder,
    Build,
    Cede,
    Discontent,
    Embark,
    HitsPrefer,
    Land,
    MainAttack,
    Move,
    MoveGroup,
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
    order_from_json,
    order_to_json,
)

MOVE = Move("Sandomierz", (MoveGroup(("Karl XII", "Dalregementet"), "Livland",
                                     ("Mazowsze", "Lietuva"), True),
                           MoveGroup(("Repnin",), "Smolensk")))
SAMPLES = [
    Recon("Livland"), MOVE, MainAttack("Estland", "Ingermanland"),
    Siege("Estland", ("Vellinck", "Estländska")), Politics("Sweden"), Replace("Karl XII"),
    Embark(("Karl XII",), "Livland", ("Wachtmeister",)),
    Sail(("Wachtmeister", "Wattrang"), "Southern Baltic", "Gulf of Finland"),
    Land(("Karl XII",), "Gulf of Finland", "Ingermanland"),
    BattleOrder(("Estland", "Livland")), HitsPrefer(("Dalregementet", "Karl XII")),
    Retreat("Karl XII", "Livland"), Regroup(("Karl XII",), "Livland"),
    Build("sweden", 3, ("Småland",)), Reform("Repnin"), Cede("Bremen-Verden", "Hannover"),
    TruceOffer("Denmark"),
    Solidarity(),
    Solidarity("Saxony"),
    Reroll(4),
    Reroll(),
    WinterCampaign(Move("Livland", (MoveGroup(("Karl XII",), "Ingermanland"),))),
    Politics("Russia", ("Denmark", "Prussia")), Reinforce(("Karl XII", "Dalregementet")),
    Pin(("Dalregementet", "Upplands"), "Livland"), Discontent(("Livland", "Kurland")),
]


def test_every_order_type_has_a_sample() -> None:
    assert {type(o) for o in SAMPLES} == set(ORDER_TYPES)


@pytest.mark.parametrize("order", SAMPLES, ids=lambda o: o.kind)
def test_json_round_trip(order: object) -> None:
    assert order_from_json(order_to_json(order)) == order  # type: ignore[arg-type]


def test_move_echo_matches_the_spec_example() -> None:
    assert MOVE.echo() == ("move from Sandomierz: Karl XII, Dalregementet to Livland via "
                           "Mazowsze, Lietuva force; Repnin to Smolensk")
    assert MOVE.echo("fr").startswith("déplacer de Sandomierz : Karl XII, Dalregementet vers "
                                      "Livland par Mazowsze, Lietuva forcée")
