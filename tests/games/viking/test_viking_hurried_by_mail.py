"""What hurried players wrote by mail, read from their report alone, and what gm
answered (viking-explore): each test sends the mail a player sent and checks the reply
or the report says what happened and what to write, in the seat's language."""

from __future__ import annotations

import re

from test_viking_by_mail import DATA, MOD, now
from test_viking_explore_by_mail import pvfr, status  # noqa: F401  (pvfr: the fixture)
from test_viking_s7_by_mail import position, reply_to, ship, take_out, tile

from tests.pipeline.conftest import deliver, mail, outbox


def test_buy_tile_and_draw_are_read_without_invest(pv) -> None:  # type: ignore[no-untyped-def]
    """Rosetta Stone: "BUY Transfer the listed amount of silfr to the supply to add the
    tile to your hand", "DRAW Draw a tile from the top of the SAGA PILE"; Standard
    Actions A, INVEST: "Draw from the top of the Saga Pile ... or Buy from the Saga
    Track". A player wrote "buy Envoy" and "draw" and read "unknown command 'buy'"; the
    whole turn waited for a second mail."""
    _, state, _ = now(pv)
    first = DATA.tiles[state["track"][0]].name
    reply = reply_to(pv, "red", f"buy {first.lower()}\ndraw")
    assert "unknown command" not in reply, reply
    assert f"OK  invest buy {first}" in reply, reply
    assert "OK  invest draw" in reply, reply


def test_acheter_and_piocher_are_read_without_investir(pvfr) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """orders.md §8: "the Pax Britannica and Pax Viking verbs likewise (acheter, ...)"; the
    French seat wrote "acheter TUILE" and "piocher" and read "commande inconnue
    'acheter'"."""
    _, state, _ = now(pvfr)
    first = DATA.tiles[state["track"][0]]
    reply = reply_to(pvfr, "red", f"acheter {first.name}\npiocher")
    assert "commande inconnue" not in reply, reply
    assert f"OK  investir acheter {first.name_fr}" in reply, reply
    assert "OK  investir piocher" in reply, reply


def test_jarldom_is_read_without_from_as_a_journey_is(pv) -> None:  # type: ignore[no-untyped-def]
    """docs/viking.md: "journey from PLACE to PLACE" is read without "from"; "jarldom
    Sigtuna to Birka" was answered "not understood at 'sigtuna' ... it is written jarldom
    from PLACE to POST"."""
    reply = reply_to(pv, "red", "jarldom svealand to birka")
    assert "not understood" not in reply, reply
    assert "jarldom from Svealand to Birka" in reply, reply


def test_a_journey_into_a_harbor_region_names_its_posts_and_their_sea(pv) -> None:  # type: ignore[no-untyped-def]
    """Game Board Anatomy, D: "Harbor Regions (name in white text with a Harbor and no
    white borders) consist of Posts accessible by sea based Harbors"; Posts: "you can
    only move into and out of the Post from the Sea Region where the Harbor is located".
    The map draws Gotland like a place to sail to; "journey from Baltic Sea to Gotland,
    Paviken" was refused "Gotland is not one step from Baltic Sea", and with READY the
    player's turn went by without the journey. The refusal now says where to go."""
    position(pv, lambda st: st["ships"].append(ship("red", "baltic_sea")))
    reply = reply_to(pv, "red", "journey from baltic sea to gotland, paviken")
    assert ("Gotland is a harbor region: a longship does not enter it but one of its posts, "
            "Frojel, Paviken, from Baltic Sea") in reply, reply


def test_a_journey_into_a_harbor_region_is_explained_in_french(pvfr) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The same refusal to the French seat (orders.md §8), its places in French."""
    position(pvfr, lambda st: st["ships"].append(ship("red", "black_sea")))
    reply = reply_to(pvfr, "red", "voyager de mer noire vers crimee")
    assert ("Crimée est une région à port : un drakkar n'y entre pas, il entre dans l'un de "
            "ses postes, Chersonèse, Soudak, depuis Mer Noire") in reply, reply


def test_journey_from_the_home_the_report_names_leaves_the_jarlboard(pv) -> None:  # type: ignore[no-untyped-def]
    """Jarlboard Anatomy, D: "All Longships stored on your Jarlboard start their movement
    from your Home location(s)". The report says "red (Bjorn, home Truso)" and the map
    draws Truso; "journey from Truso to Baltic Sea" was answered "unknown place 'truso'"."""
    from gm.games.viking.table import Table
    _, state, _ = now(pv)
    printed = DATA.homes[DATA.jarls[state["players"]["red"]["jarl"]].home]
    entry = DATA.place_name(sorted(Table(DATA, state).home_entries("red"))[0])
    reply = reply_to(pv, "red", f"journey from {printed.name.lower()} to {entry}")
    assert "unknown place" not in reply, reply
    assert f"OK  journey from home to {entry}" in reply, reply


def test_the_report_says_each_jarls_special_ability(pv) -> None:  # type: ignore[no-untyped-def]
    """Jarlboard Anatomy, C: "Each Jarl has a unique special ability that should be noted
    and utilized to your advantage." By mail there is no jarlboard to read: Gunnhild's
    player read "red buys Shipyard from the saga track for 0 silfr" beside a track that
    said "(1 silfr)", and nowhere why. The report now says each jarl's ability."""
    def gunnhild(st):  # type: ignore[no-untyped-def]
        st["players"]["red"]["jarl"] = "gunnhild"
    position(pv, gunnhild)
    report = status(pv, "red")
    lines = report.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("  red (Gunnhild, home Aland):"))
    assert lines[at + 2] == "    jarl's ability: INVEST: buying costs 1 silfr less", report


def test_a_french_report_says_the_jarls_ability_in_french(pvfr) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The same line to the French seat (orders.md §8); Set-up I: "Add any additional
    money that may be listed on your Jarl's special ability" (Askold starts richer)."""
    def askold(st):  # type: ignore[no-untyped-def]
        st["players"]["red"]["jarl"] = "askold"
    position(pvfr, askold)
    report = status(pvfr, "red")
    assert "    capacité du jarl : 3 silfr de plus au départ" in report, report


def test_orders_out_of_turn_say_whose_turns_come_first(pv) -> None:  # type: ignore[no-untyped-def]
    """Sequence of Play: "Each round consists of an Influence Phase, an Action Phase, and
    a Winter Solstice for each player in clockwise order." Green, third in turn order,
    wrote during red's turn and read "green has no orders to give in phase round-1-red
    (waiting for: red); your next phase opens when it closes, at the latest ...": blue's
    turn comes first, so green's does not open then. The player next in turn order still
    reads when its turn opens, its rivals named in its language (orders.md §8)."""
    _, state, _ = now(pv)
    assert state["powers"] == ["red", "blue", "green"] and state["current"] == 0
    reply = reply_to(pv, "green", "draw")
    assert "green has no orders to give in phase round-1-red (waiting for: red), which " \
           "closes at the latest " in reply, reply
    assert ("; your turn opens after the turns of red, blue: send your orders when its "
            "report comes") in reply, reply
    assert "your next phase" not in reply, reply
    reply = reply_to(pv, "blue", "piocher")
    assert ("Bleu n'a pas d'ordres à donner dans la phase round-1-red (on attend : Rouge) ; "
            "votre prochaine phase s'ouvre quand elle se ferme, au plus tard") in reply, reply


def test_the_report_lists_the_printed_posts_with_what_they_ask_and_give(pv) -> None:  # type: ignore[no-untyped-def]
    """Game Board Anatomy, Posts 3: a Trade Center "provides a persistent ability ... once
    Established with a Follower (type and number shown)"; 4: a Powerful Ally "provides
    immediate gains ... costs the Silfr listed on the bottom of the Post". The report's
    "Posts held or printed" listed only ventures and held posts: a player after "Trade
    Network: 2 trade centers" could not tell from it where the trade centers are, which
    follower and how much silfr each asks, nor what an ally gives."""
    report = status(pv, "red")
    assert ("  Birka (Svealand): trade center, 1 sweden follower, cost 2 "
            "(INVEST: buying costs 1 silfr less)") in report, report
    assert ("  Dublin (Ireland): powerful ally, 1 jarldom follower, cost 3 "
            "(command the 3 Dublin longships)") in report, report
    assert "  Miklagard (Byzantium): key trade center, 2 theocracy followers, cost 6" in report


def test_a_french_report_lists_the_printed_posts_in_french(pvfr) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The same lines to the French seat (orders.md §8)."""
    report = status(pvfr, "red")
    assert ("  Birka (Svealand) : comptoir, 1 partisan Suède, coût 2 "
            "(INVESTIR : acheter coûte 1 silfr de moins)") in report, report
    assert ("  Dublin (Irlande) : allié puissant, 1 partisan jarlat, coût 3 "
            "(commander les 3 drakkars de Dublin)") in report, report


def test_a_venture_post_on_the_board_says_what_it_does(pv) -> None:  # type: ignore[no-untyped-def]
    """Game Board Anatomy, Posts 2: a Venture Post "provides the ability written on the
    tile when ACTIVATED". The report described the tiles of the hand and the track but
    named a venture on the board only ("Lodose (Gotaland): venture Gotaland Smithy"):
    whoever wanted to ACTIVATE or PARLEY there could not read what it gives or asks."""
    shipyard = tile("Shipyard")

    def on_sigtuna(st):  # type: ignore[no-untyped-def]
        take_out(st, shipyard)
        st["posts"]["sigtuna"]["venture"] = shipyard
    position(pv, on_sigtuna)
    assert ("  Sigtuna (Svealand): venture Shipyard (jarldom follower, activate: place a "
            "longship on this post)") in status(pv, "red")
    assert ("  Sigtuna (Svealand) : entreprise Chantier naval (partisan jarlat, activation : placer "
            "un drakkar sur ce poste)") in status(pv, "blue")


def test_ready_with_refused_lines_is_not_taken_and_the_turn_stays_open(pv) -> None:  # type: ignore[no-untyped-def]
    """orders.md §3: READY means "my orders are final". A player sent three mistyped order
    lines, one good one and READY; the turn ran at once with the one order and his turn
    was lost. READY in a mail with refused lines is now not taken, and the reply says why
    and what to do; READY alone then closes the turn as before."""
    turn, state, _ = now(pv)
    first = DATA.tiles[state["track"][0]].name
    reply = reply_to(pv, "red", f"buy {first.lower()}\nbyu envoy\njurney to birka\ndarw\nREADY")
    assert f"OK  invest buy {first}" in reply, reply
    assert ("READY not taken: 3 lines for red in game pv1 were refused; send them again corrected "
            "(with READY), or the phase closes at its deadline with the orders accepted") in reply, reply
    assert "your orders are final" not in reply, reply
    assert now(pv)[0] == turn  # the turn did not close on it
    reply = reply_to(pv, "red", "READY")
    assert "your orders are final" in reply and "READY not taken" not in reply, reply
    assert now(pv)[0] != turn


def test_pret_with_a_refused_line_is_not_taken_in_french(pvfr) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The same to the French seat, in French with the French keywords (orders.md §8)."""
    turn, _, _ = now(pvfr)
    reply = reply_to(pvfr, "red", "piocher\npiohcer\nPRET")
    assert ("PRÊT non pris en compte : 1 ligne pour Rouge dans la partie pv1 a été refusée"
            in reply), reply
    assert now(pvfr)[0] == turn


def test_ready_after_good_orders_and_prose_still_closes_the_turn(pv) -> None:  # type: ignore[no-untyped-def]
    """A mail whose order lines were all accepted, with a greeting the reply lists as
    ignored (prose is never a refusal): its READY closes the turn as before."""
    turn, _, _ = now(pv)
    reply = reply_to(pv, "red", "Hi all,\ndraw\nREADY\nCheers, Bjorn")
    assert "OK  invest draw" in reply and "your orders are final" in reply, reply
    assert now(pv)[0] != turn


MODERATOR_WORDS = ("MODERATOR ", "EXTEND ", "ADJUDICATE NOW", "ROLLBACK ", "REQUEUE ", "UNHOLD",
                   "RETRY ", "SHOW GAME", "SHOW MAILS", "REVEAL SEED", "SET [PRIVATE]")


def listed_commands(reply: str) -> list[str]:
    """The syntax lines a HELP reply lists (indented less than their explanation)."""
    return [x.strip() for x in reply.splitlines() if re.match(r"^ {2,4}\S", x)]


def test_a_players_help_lists_only_what_a_player_can_use(pv) -> None:  # type: ignore[no-untyped-def]
    """A player's HELP listed every moderator command (EXTEND, ROLLBACK, REQUEUE, UNHOLD,
    SHOW ...) before the game's orders, none of which a player may use. It now lists the
    player's commands and the orders; the moderator's HELP keeps them, and HELP MODERATOR
    gives them to anyone who asks."""
    reply = reply_to(pv, "red", "HELP")
    shown = listed_commands(reply)
    assert "READY" in shown and any(x.startswith("journey") for x in shown), reply
    assert [x for x in shown if x.startswith(MODERATOR_WORDS)] == [], reply
    deliver(pv, mail("GAME pv1\nMODERATOR mod-secret\nHELP\n", sender=MOD))
    mod = outbox(pv, kind="reply", to=MOD)[-1][1]
    assert "EXTEND [PRIVATE] <48h|2d> [: reason]" in mod and "ROLLBACK" in mod, mod
    reply = reply_to(pv, "red", "HELP MODERATOR")
    assert "Moderator commands:" in reply and "EXTEND [PRIVATE] <48h|2d> [: reason]" in reply, reply


def test_a_french_players_aide_lists_no_moderator_command(pvfr) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The same in French: AIDE leaves out PROLONGER and the others, AIDE MODERATEUR lists
    them."""
    reply = reply_to(pvfr, "red", "AIDE")
    assert "PRET" in reply and "PROLONGER" not in reply and "RETOUR" not in reply, reply
    reply = reply_to(pvfr, "red", "AIDE MODERATEUR")
    assert "Commandes du modérateur :" in reply and "PROLONGER [PRIVÉ]" in reply, reply
