"""Pax Britannica's HELP by mail, through the real pipeline: a player's ``HELP vote`` or
``AIDE voter`` in, the reply's text out, showing the forms the parser reads ("vote yes on
1", "voter oui pour 1"); and an example copied from the reply to the orders is read
(tests/orders/test_britannica_help.py reads every syntax line and example of every topic)."""

from __future__ import annotations

from tests.games.britannica.test_britannica_by_mail import ADDR, pax  # noqa: F401
from tests.pipeline.conftest import deliver, mail, outbox


def send(ctx, power: str, body: str) -> str:  # type: ignore[no-untyped-def]
    deliver(ctx, mail(f"GAME pax1\nPOWER {power} {power}-pw\n{body}", sender=ADDR[power]))
    return outbox(ctx, kind="reply", to=ADDR[power])[-1][1]


def examples(reply: str, heading: str) -> list[str]:
    """The examples a HELP reply lists under its heading ("Examples:", "Exemples :")."""
    lines = reply.splitlines()
    out = []
    for line in lines[lines.index(heading) + 1:]:
        if not line.startswith("  ") or not line.strip():
            break
        out.append(line.strip())
    return out


def test_help_vote_shows_both_ways_of_voting(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """``vote yes on 1`` reads (the choice first, as players write it): HELP vote says so."""
    reply = send(pax, "britain", "HELP vote\n")
    assert 'vote N|"TITLE" yes|no|abstain  |  vote yes|no|abstain on N|"TITLE"' in reply, reply
    assert examples(reply, "Examples:") == [
        "vote 1 yes", "vote yes on 1", 'vote "Eritrea" no', "vote 1 yes, vote 2 no"], reply


def test_aide_voter_answers_a_french_seat_in_french(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """France's seat is French: AIDE voter shows the French form and French examples only."""
    reply = send(pax, "france", "AIDE voter\n")
    assert ("voter N|« TITRE » oui|non|abstention  |  voter oui|non|abstention pour N|« TITRE »"
            in reply), reply
    assert examples(reply, "Exemples :") == [
        "voter 1 oui", "voter oui pour 1", "voter « Eritrea » non", "voter 1 oui, voter 2 non"], reply


def test_an_example_copied_from_aide_acheter_is_read(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Each example of AIDE acheter, copied into the orders of the Movement phase, is read."""
    shown = examples(send(pax, "france", "AIDE acheter\n"), "Exemples :")
    assert "acheter une armée de 3" in shown, shown
    reply = send(pax, "france", "\n".join(shown) + "\n")
    assert "OK  acheter armée 3" in reply and "OK  acheter flotte 10" in reply, reply
    assert "incompris" not in reply, reply


def test_an_example_copied_from_help_transfer_is_read(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Germany gives Austria-Hungary money: HELP transfer's examples, pounds and all, read."""
    reply = send(pax, "germany", "HELP transfer\n")
    assert "transfer AMOUNT [pounds] to POWER" in reply, reply
    shown = examples(reply, "Examples:")
    assert "transfer 5 pounds to austria-hungary" in shown, shown
    reply = send(pax, "germany", shown[-1] + "\n")
    assert "OK  transfer 5 to austria-hungary" in reply, reply


def test_orders_as_help_shows_them_above_the_sign_on_are_named_as_orders(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """HELP vote shows "vote 1 yes, vote 2 no", HELP peace "peace please"; written above the
    POWER line as a sentence (a full stop), such a line was listed as a greeting, for it
    parsed only as one order: it is named as an order, as the orders below the sign-on read it."""
    deliver(pax, mail("vote 1 yes, vote 2 no.\npeace please.\nGAME pax1\nPOWER britain britain-pw\n"
                      "buy army 3\n", sender=ADDR["britain"]))
    reply = outbox(pax, kind="reply", to=ADDR["britain"])[-1][1]
    for line in ("vote 1 yes, vote 2 no.", "peace please."):
        assert f"{line} (ignored: it looks like an order, but it came before the sign-on)" in reply, reply
