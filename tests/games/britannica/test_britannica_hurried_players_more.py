"""Pax Britannica orders as seven hurried players wrote them, the next round of fixes.

Like test_britannica_hurried_players.py: each test sends a mail through the real pipeline
the way a player wrote it from the outside, and asserts the reply (or report) that player
reads. Each line here had cost a round of mail: an order split over two lines by the mail
client, a "please" or a comment after an order, "acheter une armée de 3", "transfer 5
pounds", a declaration of war sent with a defiance of the Congress, a war move with
``via``, and a CHECK line in a section with no sign-on.
"""

from __future__ import annotations

from tests.games.britannica.test_britannica_by_mail import ADDR, MOD, close, pax, report  # noqa: F401
from tests.games.britannica.test_britannica_hurried_players import (
    _to_the_congress,
    _to_the_signing,
    _to_the_war_round,
    send,
)
from tests.pipeline.conftest import deliver, mail, outbox


def test_an_order_split_over_two_lines_by_the_mail_client_is_read_as_one(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """orders.md §1, Long lines: only a line opening with a continuation word continues the
    line above. A mail client that wrapped "move army 3 from home to" / "the West Indies" left an
    order that does not read above a line that does not read alone: the reply explained
    both, and the order was lost for the turn. They are now read as one order, and the
    reply says so; a line below that reads alone is never taken into the line above."""
    reply = send(pax, "britain", "move army 3 from home to\nthe West Indies\nbuy army 3\n"
                                 "place interest in\nbuy fleet 1\n")
    assert "    3  OK  move army 3 from home to West Indies" in reply, reply
    assert ("you wrote: move army 3 from home to / the West Indies (lines 3 and 4, read as one "
            "order)") in reply, reply
    assert "the West Indies: not understood" not in reply, reply
    assert "OK  buy army 3" in reply and "OK  buy fleet 1" in reply, reply
    assert "place interest in: not understood" in reply, reply
    reply = send(pax, "france", "déplacer armée 3 de métropole vers\nAlger\n")
    assert "    3  OK  déplacer armée 3 de métropole vers Alger" in reply, reply
    assert "(lignes 3 et 4, lues comme un seul ordre)" in reply, reply


def test_a_please_or_a_comment_in_parentheses_after_an_order_is_left_out(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """"buy army 3 (for the colonies)", "attend please" and "vote yes on 1" were refused
    with the order's syntax, which the player had followed. The order is read without the
    courtesy or the comment, and the reply shows what was read above what was written; a
    parenthesis holding a condition is never dropped (a conditional order is never carried
    out without its condition, orders.md §1)."""
    reply = send(pax, "britain", "buy army 3 (for the colonies)\nbuy fleet 1 (only if italy agrees)\n")
    assert "    3  OK  buy army 3" in reply and "you wrote: buy army 3 (for the colonies)" in reply, reply
    assert "buy fleet 1 (only if italy agrees): not understood" in reply, reply
    _to_the_congress(pax)
    send(pax, "britain", "propose 1: italy none in Eritrea\n")
    reply = send(pax, "germany", "attend please\n")
    assert "    3  OK  attend" in reply and "you wrote: attend please" in reply, reply
    assert close(pax) == "1880-congress-vote"
    reply = send(pax, "germany", "vote yes on 1\n")
    assert "    3  OK  vote 1 yes" in reply and "you wrote: vote yes on 1" in reply, reply
    reply = send(pax, "russia", "voter oui pour 1 merci\n")
    assert "    3  OK  vote 1 yes" in reply and "you wrote: voter oui pour 1 merci" in reply, reply


def test_war_phase_war_can_be_declared_during_the_congress_if_a_disputant_refuses_to_sign(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Seed, War Phase: "War can be declared at the outset of the War Phase or during the
    Congress of Europe, if a disputant refuses to sign a Treaty or tires of the
    proceedings." Italy's "defy 1" with "declare war on britain" had the declaration
    refused "not an order of this phase": it is now read in the War phase that follows,
    with that phase's declarations, and Italy need not send it again."""
    _to_the_signing(pax)
    reply = send(pax, "italy", "defy 1\ndeclare war on britain\n")
    assert ("OK  declare war on britain   (read in the War phase that follows the Congress, "
            "with its declarations)") in reply, reply
    assert close(pax) == "1880-war"
    assert close(pax).startswith("1880-war-1-round-1"), report(pax, "italy")
    assert "Italy declares war on Britain" in report(pax, "italy"), report(pax, "italy")


def test_army_unit_movement_a_war_move_with_via_names_the_steps_it_may_take(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Seed, War, Army Unit Movement: "each Army Unit belonging to your Alliance can move into
    one of the following: Any adjacent Sea Zone ...": one step a war round. A move written
    with ``via`` was refused "one step only" alone, where a move not adjacent names the
    steps; the next mail had to guess them, and a war round is a round of mail."""
    _to_the_war_round(pax)
    reply = send(pax, "britain", "move fleet 10 from home to mediterranean via north atlantic\n")
    assert ("move fleet 10 from home to Mediterranean Sea via North Atlantic Ocean: refused: one "
            "step only: one step from home reaches North Atlantic Ocean, North Sea and Baltic") in reply, reply


def test_acheter_une_armee_de_3_as_french_players_write_it(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """"acheter une armée de 3" (as French says "an army of 3") was refused with the syntax of
    ``acheter``, and a misspelt "armées" was answered "did you mean armee?", a word no French
    player writes: the hint now gives the keyword as the reader's language writes it."""
    reply = send(pax, "france", "acheter une armée de 3\nacheter une flotte de 10\nacheter une armées de 3\n")
    assert "    3  OK  acheter armée 3" in reply and "    4  OK  acheter flotte 10" in reply, reply
    assert "'armées' : vouliez-vous dire armée ?" in reply, reply
    reply = send(pax, "britain", "buy armmy 3\n")
    assert "'armmy': did you mean army?" in reply, reply


def test_austria_hungary_the_german_player_can_transfer_pounds_written_in_words(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Seed, Austria-Hungary: "The German player can transfer £'s from the German treasury to
    Austria-Hungary". "transfer £5" read, "transfer 5 pounds" was refused: money is read in
    words too, "pounds" and the French "livres"."""
    reply = send(pax, "germany", "transfer 5 pounds to austria-hungary\n"
                                 "buy army 1 if funds >= 3 pounds\n")
    assert "    3  OK  transfer 5 to austria-hungary" in reply, reply
    assert "you wrote: transfer 5 pounds to austria-hungary" in reply, reply
    assert "    4  OK  buy army 1 if funds >= 3" in reply, reply
    reply = send(pax, "germany", "transférer 2 livres à l'Autriche-Hongrie\n")
    assert "    3  OK  transfer 2 to austria-hungary" in reply, reply
    assert close(pax) == "1880-negotiation"
    assert "Germany transfers £2 to Austria-Hungary." in report(pax, "germany"), report(pax, "germany")


def test_a_check_line_after_a_second_game_line_is_answered(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """orders.md §1, Sections: "each GAME line starts a new section and resets the sign-on",
    and §2: the reply holds "each line not accepted, with the reason". A second GAME line
    with no POWER below it opens a section with no sign-on: its orders were listed as not
    read, but its CHECK line was not listed at all, and the player took it for done."""
    deliver(pax, mail("GAME pax1\nPOWER britain britain-pw\nbuy army 3\n"
                      "GAME pax1\nCHECK\nbuy army 1\nPASSWORD newsecret\n", sender=ADDR["britain"]))
    reply = outbox(pax, kind="reply", to=ADDR["britain"])[-1][1]
    assert "    3  OK  buy army 3" in reply, reply
    assert "    5  --  CHECK (ignored: this section has no sign-on)" in reply, reply
    assert "    6  --  buy army 1 (ignored: this section has no sign-on)" in reply, reply
    assert "    7  --  PASSWORD ******** (ignored: this section has no sign-on)" in reply, reply
    assert "newsecret" not in reply, reply
