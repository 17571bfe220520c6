"""Issue 17, class 4, Pax Britannica by mail: "money that will run out, with the running
total" (orders.md §2, §4) is said when the Movement orders arrive, as the engine will
count it, ADD included."""

from __future__ import annotations

import pytest

from tests.games.britannica.test_britannica_by_mail import MOD, close, pax, report, send  # noqa: F401
from tests.pipeline.conftest import deliver, mail


@pytest.fixture(autouse=True)
def britain_has_40(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Britain's 1880 money is what the set-up's Administration rolled; the moderator sets it
    to £40 so that the sums below are the ones written."""
    deliver(pax, mail("GAME pax1\nMODERATOR mod-secret\nSET treasury.britain = 40\n", sender=MOD))


def test_the_reply_gives_the_running_total_and_where_the_money_runs_out(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    reply = send(pax, "britain", "buy army 3", "buy fleet 10", "buy army 1", "move army 3 from home to Eritrea")
    assert "OK  buy army 3   (£10: britain has spent £10 of £40)" in reply
    assert "OK  buy fleet 10   (£30: britain has spent £40 of £40)" in reply
    assert ("buy army 1   (accepted with a warning: the money runs out here: £0 of britain's "
            "£40 left; this order and those below it will be skipped)") in reply
    assert "move army 3 from home to Eritrea   (accepted with a warning: the money runs out" in reply
    # what the reply announced is what the adjudication does
    close(pax)
    text = report(pax, "britain")
    lines = text.splitlines()
    assert any("buy army 1" in t and "not enough money" in t for t in lines), text
    assert any("move army 3 from home to Eritrea" in t and "money ran out" in t for t in lines)


def test_add_counts_the_money_of_the_orders_already_stored(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    send(pax, "britain", "buy fleet 10")
    reply = send(pax, "britain", "ADD", "buy army 3", "buy army 3")
    assert "(£10: britain has spent £40 of £40)" in reply
    assert "the money runs out here: £0 of britain's £40 left" in reply


def test_germany_s_transfer_pays_for_austria_hungary_s_orders_of_the_same_phase(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Seed, Austria-Hungary: "The German player can transfer £'s from the German treasury
    to Austria-Hungary" and "can ... build new military units and place status markers" for
    it. Germany's mail transfers £10, then places Austria-Hungary's Influence in Rumania
    (£10, with £9 of its own): the reply counts the transfer and the marker is placed (it used
    to warn that the money runs out, and the order was skipped for "not enough money" while
    the £10 arrived in the same phase)."""
    deliver(pax, mail("GAME pax1\nMODERATOR mod-secret\nSET treasury.austria-hungary = 9\n"
                      "SET treasury.germany = 35\n", sender=MOD))
    reply = send(pax, "germany", "transfer 10 to austria-hungary", "FOR austria-hungary",
                 "place influence in Rumania")
    assert "(£10: germany has spent £10 of £35)" in reply
    assert "£10: austria-hungary has spent £10 of £19)" in reply, reply
    assert "money runs out" not in reply
    close(pax)
    text = report(pax, "germany")
    assert "Austria-Hungary places influence in Rumania." in text, text
    assert "not enough money" not in text


def test_money_running_out_on_an_order_conditional_on_others_is_said_as_a_possibility(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """orders.md §4: a condition about another power "sees every order that power submitted",
    which the mail cannot know; seed, Movement/Status Change: "Players may 'overspend' with
    their orders if they suspect that some placements may not happen". Britain's £40 buys an
    army 3 (£10), a fleet 10 unless Germany buys a fleet (£30), then an army 10 (£30): the
    reply says the money may run out at the army 10, as the fleet above may not be bought
    (it said "this order and those below it will be skipped" as a certainty); Germany buys a
    fleet, and the army 10 is bought."""
    reply = send(pax, "britain", "buy army 3", "buy fleet 10 unless germany buys fleet",
                 "buy army 10")
    assert ("buy army 10   (accepted with a warning: the money may run out here, as a "
            "conditional order above reads other powers' orders: £0 of britain's £40 left; if "
            "so, this order and those below it are skipped)") in reply, reply
    send(pax, "germany", "buy fleet 1")
    close(pax)
    assert "Britain buys an army of strength 10." in report(pax, "britain")


def test_money_running_out_at_an_order_conditional_on_others_says_if_it_is_carried_out(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The same, where the conditional order itself cannot be paid: with £35, an army 3 (£10)
    leaves £25, short of "buy fleet 10 unless germany buys fleet" (£30): the reply says the
    money runs out there if it is carried out, and that the army 1 below may be skipped;
    Germany buys a fleet, so the fleet is not bought and the army 1 is."""
    deliver(pax, mail("GAME pax1\nMODERATOR mod-secret\nSET treasury.britain = 35\n", sender=MOD))
    reply = send(pax, "britain", "buy army 3", "buy fleet 10 unless germany buys fleet",
                 "buy army 1")
    assert ("buy fleet 10 unless germany buys fleet   (accepted with a warning: if this order is "
            "carried out (its condition reads other powers' orders), the money runs out here: "
            "£25 of britain's £35 left; it and those below it would then be skipped)") in reply, reply
    assert "buy army 1   (accepted with a warning: the money may run out here" in reply
    send(pax, "germany", "buy fleet 1")
    close(pax)
    assert "Britain buys an army of strength 1." in report(pax, "britain")
