"""Issue 17, class 4, Pax Britannica by mail: "everything the power's own position already
forbids is refused with the reason, not accepted 'to be checked at adjudication'" (orders.md
§2). Movement orders are carried out on a copy of the board when the mail arrives, as the
adjudication will; a conditional order above leaves what it could change to adjudication."""

from __future__ import annotations

from tests.games.britannica.test_britannica_by_mail import close, pax, report, send  # noqa: F401


def test_orders_the_position_forbids_are_refused_with_the_reason(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    reply = send(pax, "italy", "move army 10 from home to Tunis",
                 "downgrade Egypt to interest", "place influence in Tunis")
    assert "REFUSED  move army 10 from home to Tunis: refused: no such unit there" in reply
    assert ("REFUSED  downgrade Egypt to interest: refused: no marker of yours there to alter"
            in reply)
    assert ("REFUSED  place influence in Tunis: refused: you already have a marker there; "
            "use upgrade") in reply
    assert "Italy: no order was accepted; you have no orders for this phase yet" in reply


def test_an_order_after_one_that_makes_it_possible_is_accepted(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    reply = send(pax, "britain", "move army 3 from home to Eritrea")
    assert ("REFUSED  move army 3 from home to Eritrea: refused: an army ends its move only at "
            "home, where you have a Control marker, or in an area in unrest with no other "
            "power's Control marker: place one there above this order") in reply
    reply = send(pax, "britain", "place protectorate in Eritrea", "move army 3 from home to Eritrea")
    assert "OK  move army 3 from home to Eritrea\n" in reply  # the Protectorate above gives the path
    assert "REFUSED" not in reply


def test_after_a_conditional_order_what_it_may_change_waits_for_adjudication(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    reply = send(pax, "britain",
                 "place protectorate in Eritrea unless italy places protectorate in Eritrea",
                 "move army 3 from home to Eritrea", "move army 10 from home to Eritrea")
    assert ("OK  move army 3 from home to Eritrea   (to be checked at adjudication: depends on "
            "others' orders or on money)") in reply
    assert "REFUSED  move army 10 from home to Eritrea: refused: no such unit there" in reply
    # what the reply accepted is what the adjudication does, the condition holding
    close(pax)
    assert "Britain moves an army (3) from home to Eritrea." in report(pax, "britain")
