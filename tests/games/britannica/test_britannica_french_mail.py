"""A French seat of Pax Britannica writes as a French player does (orders.md §8: "Every
keyword has a French form ... A French order is accepted from any seat")."""

from __future__ import annotations

from tests.games.britannica.test_britannica_by_mail import ADDR, pax, send  # noqa: F401
from tests.pipeline.conftest import outbox


def test_press_names_the_powers_as_french_players_write_them(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """orders.md §1: "PRESS TO france, russia ... a message forwarded to those powers". A
    French player names them in French, as every French report does ("l'Italie", "la
    Grande-Bretagne"): the press goes out, and the reply names them so (it was refused,
    "message à 'italie' : pas de telle puissance", and nothing was sent)."""
    reply = send(pax, "france", "PRESSE A italie, la Grande-Bretagne",
                 "La Tunisie est française.", "FINPRESSE")
    assert "message envoyé à l'Italie, la Grande-Bretagne" in reply, reply
    for power in ("italy", "britain"):
        [(_, body)] = outbox(pax, kind="press", to=ADDR[power])
        assert "La Tunisie est française." in body
    assert not outbox(pax, kind="press", to=ADDR["germany"])
