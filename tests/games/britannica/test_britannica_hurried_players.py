"""Pax Britannica orders as seven hurried players write them, through the real pipeline.

Each test sends a mail the way a player played the game from the outside wrote it, and
asserts the reply, press mail or report that player reads: a line that cost a round of mail
before (an order swallowed by a one-line press, "the Sudan", "du pays", orders joined by
commas, "FOR Austria-Hungary:", a declaration of war mailed in the Movement phase, a support
with no treaty, a war move not adjacent) now reads, or says how to write it and when.
"""

from __future__ import annotations

from tests.games.britannica.test_britannica_by_mail import ADDR, MOD, close, pax, report  # noqa: F401
from tests.pipeline.conftest import deliver, mail, outbox


def send(ctx, power: str, body: str) -> str:  # type: ignore[no-untyped-def]
    deliver(ctx, mail(f"GAME pax1\nPOWER {power} {power}-pw\n{body}", sender=ADDR[power]))
    return outbox(ctx, kind="reply", to=ADDR[power])[-1][1]


def press_to(ctx, power: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [text for _, text in outbox(ctx, kind="press", to=ADDR[power])]


def test_a_one_line_press_is_sent_and_the_orders_below_it_are_carried_out(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """orders.md §1 "PRESS TO france, russia ... ENDPRESS": written on one line, ``press to
    france: meet me in Egypt`` took every line below it as the message, and with no
    ENDPRESS sent nothing: the orders after it were lost without a word (and were not
    cleaned as orders: a list marker, a # comment)."""
    reply = send(pax, "britain", "press to france: meet me in Egypt\n  * buy army 3   # cheap\n"
                                 "press to france: shall we meet at the congress?\nbuy army 1\n")
    assert "OK  buy army 3" in reply and "OK  buy army 1" in reply, reply
    assert "press sent to France" in reply and "ENDPRESS" not in reply, reply
    (first, second) = press_to(pax, "france")
    assert "meet me in Egypt" in first and "buy army" not in first, first
    assert "shall we meet at the congress?" in second, second


def test_a_press_left_open_is_not_sent_and_says_so_but_the_orders_below_it_are_read(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """orders.md §1: "the text up to ENDPRESS is passed on verbatim"; without ENDPRESS the
    message is not sent, and the reply says where ENDPRESS goes instead of dropping the
    lines after PRESS."""
    reply = send(pax, "france", "PRESSE A italie\nBonjour l'Italie.\nacheter armee 3\n")
    assert ("PRESSE sans FINPRESSE : le message n'a pas été envoyé (FINPRESSE se met seul sur "
            "une ligne après lui) ; les lignes qui suivent ont été lues comme des ordres") in reply, reply
    assert "OK  acheter armée 3" in reply, reply
    assert press_to(pax, "italy") == []


def test_the_before_a_place_name_is_read_as_the_place(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """"place interest in the Sudan", "to the West Indies" (as English writes them) were
    refused as unknown areas; a misspelt one is looked up without its article."""
    reply = send(pax, "britain", "place interest in the Sudan\n"
                                 "move army 3 from home to the West Indies\nplace interest in the Sudn\n")
    assert "OK  place interest in Sudan" in reply, reply
    assert "you wrote: place interest in the Sudan" in reply, reply
    assert "OK  move army 3 from home to West Indies" in reply, reply
    assert "unknown area 'Sudn': did you mean Sudan" in reply, reply


def test_a_sea_zone_near_none_is_answered_with_the_sea_zones(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The printed map is not in the players' hands: "merchant new in the Red Sea" was
    answered "unknown sea zone 'Red Sea'" with no name to write instead; a misspelt area in a
    move was called an unknown sea zone."""
    reply = send(pax, "britain", "merchant new in the Red Sea\nmove army 3 from home to Annam\n")
    assert ("unknown sea zone 'Red Sea': the sea zones are North Atlantic Ocean, Caribbean Sea, "
            "South Atlantic Ocean, Mediterranean Sea, Black Sea, Indian Ocean") in reply, reply
    assert "unknown area 'Annam'" in reply, reply
    reply = send(pax, "france", "marchande nouvelle dans mer Rouge\n")
    assert ("zone maritime introuvable : 'mer Rouge' ; les zones maritimes sont : Atlantique Nord, "
            "mer des Caraïbes, Atlantique Sud, Méditerranée") in reply, reply


def test_deplacer_du_pays_as_the_french_report_says_au_pays(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The French report lists "armée 3 au pays"; "déplacer armée 3 du pays vers Alger" ("du"
    = "de le") was not understood."""
    reply = send(pax, "france", "deplacer armee 3 du pays vers Alger\n")
    assert "OK  déplacer armée 3 de métropole vers Alger" in reply, reply


def test_war_phase_any_player_declares_war_mailed_in_the_movement_phase_names_the_war_phase(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Seed, Sequence of Play, War Phase: "If a Chinese Rebellion occurs, the Ottoman Empire
    declares war, or any player declares war, players proceed to the War sequence." A
    declaration mailed in the Movement phase is refused, saying when to send it (it said
    "not an order of this phase" only)."""
    reply = send(pax, "russia", "declare war on britain\nsign treaty Entente\n")
    assert ("declare war on britain: refused: not an order of this phase: it is taken in "
            "the War phase or the war rounds") in reply, reply
    assert ("not an order of this phase: it is taken in the Negotiation phase or the Congress "
            "of Europe or the War phase") in reply, reply
    reply = send(pax, "france", "déclarer la guerre à la Grande-Bretagne\n")
    assert ("refusé : pas un ordre de cette phase : il se donne dans la phase de guerre ou "
            "les tours de guerre") in reply, reply


def test_orders_joined_on_one_line_by_commas_are_each_read(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """"buy army 1, buy fleet 1" was refused whole with the syntax of buy, which the player
    had followed: each order of the line is now read (and refused) on its own."""
    reply = send(pax, "britain", "buy army 1, buy fleet 1\nupgrade egpyt to protectorate; buy army 3\n"
                                 "buy army 3, army 1\n")
    assert "    3  OK  buy army 1" in reply and "    3  OK  buy fleet 1" in reply, reply
    assert "unknown area 'egpyt': did you mean Egypt?" in reply and "    4  OK  buy army 3" in reply, reply
    assert "buy army 3, army 1: not understood: it is written buy army|fleet STRENGTH" in reply, reply


def _to_the_congress(ctx) -> None:  # type: ignore[no-untyped-def]
    """Britain's Protectorate over Italy's Influence in Eritrea gives Italy a Casus Belli;
    Italy calls a Congress in Russia (as test_britannica_by_mail)."""
    send(ctx, "britain", "place protectorate in Eritrea\nmove army 3 from home to Eritrea\n")
    deliver(ctx, mail("GAME pax1\nMODERATOR mod-secret\nDICE 6\n", sender=MOD))
    assert close(ctx) == "1880-negotiation"
    send(ctx, "italy", "congress in Russia\n")
    assert close(ctx) == "1880-congress"


def _to_the_signing(ctx) -> None:  # type: ignore[no-untyped-def]
    """The Congress, Britain's proposal 1 voted: the Treaty waits to be signed."""
    _to_the_congress(ctx)
    send(ctx, "britain", "propose 1: italy none in Eritrea\n")
    assert close(ctx) == "1880-congress-vote"
    send(ctx, "britain", "vote 1 yes\n")
    assert close(ctx) == "1880-congress-sign"


def _to_the_war_round(ctx) -> None:  # type: ignore[no-untyped-def]
    """Italy defies the Treaty and Britain declares war on Italy: the first war round."""
    _to_the_signing(ctx)
    send(ctx, "italy", "defy 1\n")
    assert close(ctx) == "1880-war"
    send(ctx, "britain", "declare war on Italy\n")
    assert close(ctx) == "1880-war-1-round-1-first"


def test_congress_proposals_one_vote_per_proposal_written_as_players_write_them(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Seed, Congress of Europe: "There is no limit to the number of proposals one can put
    forward" and "Each player has one vote per proposal". A proposal's clauses separated by
    commas, "object to the USA" and two votes on one line were each refused, and the
    second ballot's report was headed "congress-runoff"."""
    _to_the_congress(pax)
    reply = send(pax, "britain", "propose 1: britain protectorate in Eritrea, italy interest in Eritrea\n")
    assert 'OK  propose 1: britain protectorate in Eritrea; italy interest in Eritrea' in reply, reply
    send(pax, "italy", "propose 2: britain none in Eritrea\n")
    assert "OK  object to usa" in send(pax, "germany", "attend\nobject to the USA\n")
    send(pax, "usa", "attend\n")
    assert close(pax) == "1880-congress-vote"
    assert "U.S.A. may not attend the Congress" in report(pax, "usa")
    reply = send(pax, "germany", "vote 1 yes, vote 2 yes\n")
    assert "OK  vote 1 yes" in reply and "OK  vote 2 yes" in reply, reply
    send(pax, "russia", "vote 1 yes\nvote 2 yes\n")
    assert close(pax) == "1880-congress-runoff"
    assert "Pax Britannica, 1880: Congress of Europe (second ballot), report for Japan" in report(pax, "japan")
    assert "Congrès européen (second tour de scrutin), rapport pour la France" in report(pax, "france")


def test_declarations_of_war_treaties_in_force_a_support_without_one_is_refused_on_arrival(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Seed, Declarations of War: "When War is declared, the players should consult their
    Treaties in force to determine whether or not other Powers are obligated to come to one
    of the warring Powers' aid." A support of a power with no treaty in force nor drafted
    was answered OK and refused at adjudication, too late to sign one."""
    _to_the_congress(pax)
    send(pax, "britain", "propose 1: italy none in Eritrea\n")
    send(pax, "germany", "attend\n")
    assert close(pax) == "1880-congress-vote"
    for p in ("britain", "russia"):
        send(pax, p, "vote 1 yes\n")
    assert close(pax) == "1880-congress-sign"
    send(pax, "italy", "defy 1\n")
    assert close(pax) == "1880-war"
    send(pax, "britain", "declare war on Italy\n")
    reply = send(pax, "france", "soutenir la Grande-Bretagne\n")
    assert ("REFUSÉ  soutenir Grande-Bretagne : refusé : un soutien exige un traité ratifié avec "
            "cette puissance (ou une guerre ottomane)") in reply, reply
    # a treaty drafted in the mail may be ratified in the phase: the support waits for it
    reply = send(pax, "france", 'traité "Alliance" secret entre france, grande-bretagne : aide\n'
                                "soutenir la Grande-Bretagne\n")
    assert "OK  soutenir Grande-Bretagne" in reply, reply


def test_austria_hungary_is_always_controlled_by_germany_for_written_as_a_heading(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Seed, Austria-Hungary: "Austria-Hungary is always controlled by Germany" and "The German
    player can transfer £'s from the German treasury to Austria-Hungary". "FOR
    Austria-Hungary:" written as a heading was not understood, so the orders below it were
    Germany's own (Germany bought Austria-Hungary's army); "transfer £5" was not understood."""
    reply = send(pax, "germany", "FOR Austria-Hungary:\nbuy army 1\nFOR germany\n"
                                 "transfer £5 to austria-hungary\nbuy army 1 if funds >= 5 £\n")
    assert "OK  FOR austria-hungary" in reply, reply
    assert "OK  buy army 1   (£3: austria-hungary has spent £3 of £" in reply, reply
    assert "OK  transfer 5 to austria-hungary" in reply, reply
    assert "OK  buy army 1 if funds >= 5" in reply, reply
    assert close(pax) == "1880-negotiation"
    r = report(pax, "germany")
    assert "Austria-Hungary buys an army of strength 1." in r and "Germany transfers £5 to Austria-Hungary." in r, r


def test_army_unit_movement_a_move_not_adjacent_names_the_steps_it_may_take(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Seed, War, Army Unit Movement: "each Army Unit belonging to your Alliance can move into
    one of the following: Any adjacent Sea Zone containing one of your own Merchant Fleets
    ...". A war move to a place not adjacent was refused "not adjacent" alone: the next mail
    had to guess the step; a war round is a round of mail."""
    _to_the_war_round(pax)
    reply = send(pax, "britain", "move fleet 10 from home to mediterranean\nmove army 1 from aden to eritrea\n")
    assert ("move fleet 10 from home to Mediterranean Sea: refused: not adjacent: one step from "
            "home reaches North Atlantic Ocean, North Sea and Baltic") in reply, reply
    assert ("move army 1 from Aden to Eritrea: refused: not adjacent: one step from Aden reaches "
            "Indian Ocean") in reply, reply


def test_a_misspelt_marker_word_is_named_beside_the_syntax(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """"place influnce in korea" was answered "it is written place KIND in AREA", which the
    line seemed to follow: the misspelt word is now named with the word meant."""
    reply = send(pax, "japan", "place influnce in korea\n")
    assert ("place influnce in korea: not understood: it is written place KIND in AREA (HELP place); "
            "'influnce': did you mean influence?") in reply, reply
    reply = send(pax, "france", "acheter armmee 3\n")
    assert ("incompris : il s'écrit acheter armée|flotte FORCE (AIDE acheter) ; 'armmee' : "
            "vouliez-vous dire armée ?") in reply, reply
