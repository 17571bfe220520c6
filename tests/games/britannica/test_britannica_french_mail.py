"""A French seat of Pax Britannica writes as a French player does (orders.md §8: "Every
keyword has a French form ... A French order is accepted from any seat")."""

from __future__ import annotations

from gm.db.engine import session_scope
from gm.service.games import current_orders
from tests.games.britannica.test_britannica_by_mail import (  # noqa: F401
    ADDR,
    MOD,
    close,
    pax,
    phase_now,
    report,
    send,
)
from tests.pipeline.conftest import deliver, mail, outbox


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


def test_conditions_read_as_french_players_write_them_and_are_said_back_in_french(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """orders.md §8: "si ... alors (if ... then), sauf si (unless), et, ou, non; the Pax
    Britannica ... verbs likewise": a French player writes the seed's Tunis condition as
    French is written ("si l'Italie ne place pas de contrôle à Tunis"), and the reply says
    the condition back in French, in words the grammar reads again (it was "puissance
    introuvable : 'Italie ne'", "incompris" for "pénètre en" and "achète une flotte", and the
    conditions it read were echoed in English: "sauf si germany buys fleet")."""
    reply = send(pax, "france", "VERIFIER",
                 "placer influence au Maroc si l'Italie ne place pas de contrôle au Maroc",
                 "placer intérêt en Perse sauf si la Russie pénètre en Perse",
                 "acheter armée 3 sauf si l'Allemagne achète une flotte",
                 "acheter armée 1 si la Russie place un marqueur influence en Perse")
    assert "??" not in reply, reply
    assert "si Italie ne place aucun marqueur contrôle dans Maroc" in reply, reply
    assert "sauf si Russie pénètre dans Perse" in reply
    assert "sauf si Allemagne achète une flotte" in reply
    assert "si Russie place un marqueur influence dans Perse" in reply
    for english in ("places", "moves into", "buys fleet", "italy", "germany"):
        assert english not in reply, english


def test_an_order_whose_condition_does_not_read_is_told_how_a_condition_is_written(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """orders.md §2: each line not accepted comes "with the reason". The order part of
    "acheter armée 3 si la Russie construit une flotte" is right; the reply gives the
    condition's syntax, not the order's ("il s'écrit acheter armée|flotte FORCE" sent the
    player to fix what was not wrong)."""
    reply = send(pax, "france", "VERIFIER", "acheter armée 3 si la Russie construit une flotte")
    assert "l'ordre se lit, sa condition non" in reply, reply
    assert "PUISSANCE achète une flotte" in reply and "(AIDE conditions)" in reply
    assert "acheter armée|flotte FORCE" not in reply
    english = send(pax, "britain", "CHECK", "buy army 3 unless russia builds a fleet")
    assert "the order reads, its condition does not" in english, english


def test_help_canal_names_the_two_canals_a_player_may_build(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Seed, Canals and Straits: "any player can construct a Caribbean - South Pacific Canal
    through Panama or Central America"; Suez is Egypt's strait, never built. HELP canal
    said "(Panama, Suez)"."""
    for power, line, expected in (("britain", "HELP canal", "(Panama, Central America)"),
                                  ("france", "AIDE canal", "(Panama, Amérique centrale)")):
        reply = send(pax, power, line)
        assert expected in reply and "Suez" not in reply, reply


def test_a_second_marker_is_refused_with_the_order_to_write_instead(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """orders.md §2: a refused order says why and, in the reader's language, what to write:
    France has Influence in Madagascar; "placer intérêt à Madagascar" is refused with the
    upgrade order in French (it said "utilisez la promotion", a word no order has)."""
    reply = send(pax, "france", "VERIFIER", "placer intérêt à Madagascar")
    assert "écrivez « améliorer ZONE vers TYPE »" in reply, reply


def test_a_refused_placement_and_move_say_which_rule_in_french(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """orders.md §2: what the power's own position forbids is refused "and said why". Seed,
    Status Change: "You can place a Protectorate or Possession marker... In any Unorganized or
    Chinese Vassal Area... In any Area in Unrest"; Army Units: an army ends its move in an
    area in unrest or with the player's Control marker. France upgrading its Influence in
    Tunis (Independent, calm) and moving an army there was told "les règles de statut
    interdisent ce marqueur" and "aucun chemin permis", which named neither rule."""
    reply = send(pax, "france", "VERIFIER", "améliorer Tunis en protectorat",
                 "déplacer armée 3 de métropole à Tunis par Méditerranée")
    assert ("un protectorat ou une possession ne se place que dans une région inorganisée ou "
            "vassale de la Chine, ou dans une région en troubles") in reply, reply
    assert ("une armée ne termine son mouvement qu'au pays, là où vous avez un marqueur de "
            "contrôle, ou dans une région en troubles sans marqueur de contrôle d'une autre "
            "puissance : placez-en un plus haut dans vos ordres") in reply


def test_a_treaty_keeps_its_terms_as_written_and_is_said_back_in_french(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Seed, Treaties: "Treaties must be written in order to avoid disputes over what the
    signers of a Treaty really meant": the terms are kept as the player wrote them, accents
    and all (they were stored and echoed without accents: "soutien mutuel en Mediterranee"),
    and a French seat's reply says the treaty back in French (it said "treaty ... secret
    between france, britain")."""
    assert close(pax) == "1880-negotiation"
    reply = send(pax, "france", "traité « Entente » secret entre France, Grande-Bretagne : "
                 "soutien mutuel en Méditerranée, à 10:30 précises")
    assert ("OK  traité « Entente » secret entre France, Grande-Bretagne : soutien mutuel en "
            "Méditerranée, à 10:30 précises") in reply, reply
    with session_scope(pax.engine) as s:
        [row] = [r for r in current_orders(s, "pax1", phase_now(pax)[1]).values()]
        assert "soutien mutuel en Méditerranée, à 10:30 précises" in str(row.orders)


def test_the_money_lines_are_french_for_a_french_seat(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """orders.md §2 (warnings: "money that will run out") in the reader's language, as the
    French reports write money and powers ("21 £", "la France"): the reply said "£10 :
    france a dépensé £10 sur £21" and "il reste £1 des £21 de france"."""
    deliver(pax, mail("GAME pax1\nMODERATOR mod-secret\nSET treasury.france = 21\n", sender=MOD))
    reply = send(pax, "france", "VERIFIER", "acheter armée 3", "acheter armée 10")
    assert "(10 £ : la France a dépensé 10 £ sur 21 £)" in reply, reply
    assert "il reste 11 £ des 21 £ de la France ;" in reply


def test_an_order_not_carried_out_is_quoted_in_french_in_a_french_report(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """docs/britannica.md: "Orders not carried out are always told to their owner, with the
    reason", in the reader's language (orders.md §8): France's conditional purchase, not
    carried out because Germany buys a fleet, is quoted as the reply said it, in French (the
    report quoted it in English: « buy army 3 unless germany buys fleet »)."""
    send(pax, "france", "acheter armée 3 sauf si l'Allemagne achète une flotte")
    send(pax, "germany", "buy fleet 1")
    assert close(pax) == "1880-negotiation"
    text = report(pax, "france")
    assert ("Non exécuté : ordre 1 de la France « acheter armée 3 sauf si Allemagne achète une "
            "flotte » : sa condition n'était pas remplie.") in text, text


def test_an_elided_de_reads_as_de(pax) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """orders.md §8: every keyword has a French form; French writes "de" as "d'" before a
    vowel, and a French report says "d'Alger". "déplacer armée 3 d’Alger vers métropole" was
    "incompris", a round of mail lost; it reads as with "de", and the echo keeps "de"."""
    reply = send(pax, "france", "VERIFIER", "déplacer armée 3 d’Alger vers métropole")
    assert "OK  déplacer armée 3 de Alger vers métropole" in reply, reply
    assert "vous avez écrit : déplacer armée 3 d’Alger vers métropole" in reply
