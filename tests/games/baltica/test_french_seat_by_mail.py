"""Pax Baltica by mail from a French seat (orders.md §2, §5, §8), through the real pipeline.

12.5 The Last Army with Sweden played in French: what a French player types from a phone
or a mail client, and what the replies and reports say back, each in the reader's language
and without a second round of mail.
"""

from __future__ import annotations

import pytest

from gm.db.engine import session_scope
from gm.service.adjudicate import settle
from gm.service.games import SeatSpec, create_game
from tests.games.baltica.bymail import close_and_settle, phase_of, reply_to
from tests.pipeline.conftest import deliver, mail, outbox

SWEDEN, COALITION, MOD = "karl@example.org", "fredrik@example.org", "mod@example.org"
SEATS = [SeatSpec("sweden", SWEDEN, password="sw-secret", language="fr"),
         SeatSpec("coalition", COALITION, password="co-secret")]
SIGNON_SE = "PARTIE lb1\nPUISSANCE sweden sw-secret\n"
SIGNON_CO = "GAME lb1\nPOWER coalition co-secret\n"


@pytest.fixture
def lb(ctx):  # type: ignore[no-untyped-def]
    """12.5 with the action roll given by the moderator: Sweden 5, the Coalition 2, so
    Sweden (3 actions) orders first, in 1718-autumn-actions-sweden."""
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="lb1", module_name="baltica", scenario="12.5",
                    seats=SEATS, moderator_address=MOD, moderator_password="mod-secret",
                    seed=b"\x05" * 32)
    deliver(ctx, mail("GAME lb1\nMODERATOR mod-secret\nDICE 5 2\n", sender=MOD))
    settle(ctx, "lb1", by="test")
    assert phase_now(ctx)[0] == "1718-autumn-actions-sweden"
    return ctx


def phase_now(ctx) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    return phase_of(ctx, "lb1")


def close(ctx) -> None:  # type: ignore[no-untyped-def]
    close_and_settle(ctx, "lb1")


def test_8_a_french_apostrophe_typed_by_a_phone_is_an_apostrophe(lb) -> None:  # type: ignore[no-untyped-def]
    """§8: "Every keyword has a French form, accents optional". Phones and mail clients
    type ’ for ': "pertes d’abord" and "campagne d’hiver" are the keywords a French
    player writes; they used to be refused ("non compris à 'd’abord'"), costing a mail."""
    reply = reply_to(lb, SWEDEN, SIGNON_SE + "pertes d’abord Savolax, Elfsborg\n")
    assert "OK  pertes d'abord Savolax, Elfsborg" in reply
    assert "non compris" not in reply


def test_5_the_path_the_engine_picks_is_shown_in_the_readers_language(lb) -> None:  # type: ignore[no-untyped-def]
    """§5: "Without via, the engine picks a shortest legal path and the reply shows it";
    §8: "the seat's language chooses the reply's language". A French seat read
    "(Karl XII by Åkershus)": the notes of a move lost their translation when joined."""
    reply = reply_to(lb, SWEDEN, SIGNON_SE
                     + "déplacer de Jamtland : Elfsborg vers Trondhjem ; Savolax vers Vasternorrland\n"
                     + "déplacer de Vastergotland : Karl XII vers Akershus\n")
    assert "(Elfsborg par Trondhjem ; Savolax par Västernorrland)" in reply
    assert "(Karl XII par Åkershus)" in reply
    assert " by " not in reply


def test_5_a_standing_order_says_which_earlier_one_it_replaces(lb) -> None:  # type: ignore[no-untyped-def]
    """§5: standing orders are "stored, and used when the battles ... come, unless the
    player replaces them in a later sub-phase" (here: a kind given later replaces that
    kind). Sweden gave a retreat for Karl XII with its actions, then a retreat for Elfsborg
    in the Coalition's phase; the reply said only "kept as a standing order", and Karl
    XII's retreat was gone without a word. The reply now names what it replaces."""
    reply = reply_to(lb, SWEDEN, SIGNON_SE
                     + "retraite Karl XII vers Vastergotland si tour >= 2 et force de Karl XII <= 1\n")
    assert "remplace ce que" not in reply
    close(lb)
    assert phase_now(lb)[0] == "1718-autumn-actions-coalition"
    reply = reply_to(lb, SWEDEN, SIGNON_SE + "retraite Elfsborg vers Jamtland si tour >= 2\n")
    assert ("OK  retraite Elfsborg vers Jämtland si round >= 2   (gardé comme ordre permanent "
            "pour les batailles de cette saison ; il remplace ce que vous avez donné plus tôt "
            "dans la saison : retraite Karl XII vers Västergötland si round >= 2 et force de "
            "Karl XII <= 1)") in reply
    # Another kind replaces nothing.
    reply = reply_to(lb, SWEDEN, SIGNON_SE + "pertes d'abord Savolax\n")
    assert "OK  pertes d'abord Savolax   (gardé comme ordre permanent pour les batailles de cette saison)" in reply


def test_6_3_the_garrison_that_fires_back_is_named_in_the_readers_language(lb) -> None:  # type: ignore[no-untyped-def]
    """6.3: "Garrisons fight back against siege attempts"; §8: the report in the seat's
    language. The French report read "round 1 : garrison Christiansand (C1) lance ...":
    the garrison's line was written in English in the engine."""
    deliver(lb, mail("GAME lb1\nMODERATOR mod-secret\n"
                     "SET blocks.karl-xii.location = christiansand: test set-up\n", sender=MOD))
    assert "OK" in outbox(lb, kind="reply", to=MOD)[-1][1]
    reply = reply_to(lb, SWEDEN, SIGNON_SE + "siège Christiansand avec Karl XII\n")
    assert "OK  siège Christiansand avec Karl XII" in reply
    close(lb)  # Sweden's actions
    close(lb)  # the Coalition's: then the sieges (6.3) in the battles sub-phase
    fr = "\n".join(t for _, t in outbox(lb, kind="report", to=SWEDEN))
    en = "\n".join(t for _, t in outbox(lb, kind="report", to=COALITION))
    assert "round 1 : la garnison de Christiansand (C1) lance" in fr
    assert "garrison" not in fr
    assert "round 1: the garrison of Christiansand (C1) rolls" in en


def test_8_1_the_interphase_report_gives_the_rp_levels_builds_are_paid_from(lb) -> None:  # type: ignore[no-untyped-def]
    """8.1-8.2: in the Interphase each nation at war spends the RPs of its RP level; the
    players order their replacements and builds (docs/baltica.md, "The Interphase") from
    the report that opens it. That report gave neither the RP levels nor the nations at
    war: a player had to ask the moderator before ordering."""
    for _ in range(12):
        if phase_now(lb)[0] == "1719-interphase":
            break
        close(lb)
    assert phase_now(lb)[0] == "1719-interphase"
    fr = outbox(lb, kind="report", to=SWEDEN)[-1][1]
    en = outbox(lb, kind="report", to=COALITION)[-1][1]
    assert ("Niveaux de PR (8.1) : Suède 40, Russie 24, Saxe 16, Danemark 16, Empire ottoman 8 ; "
            "en guerre : Suède, Danemark.") in fr
    assert ("RP levels (8.1): Sweden 40, Russia 24, Saxony 16, Denmark 16, Ottoman Empire 8; "
            "at war: Sweden, Denmark.") in en


def test_the_report_names_the_seat_that_sent_no_orders_in_the_readers_language(lb) -> None:  # type: ignore[no-untyped-def]
    """§8: "the seat's language chooses the reply's language" (issue 20: "rapport pour la
    Suède", not "sweden"). The French report said "Pas d'ordres reçus de : sweden"."""
    close(lb)  # Sweden sends nothing for its action phase: it passes
    fr = outbox(lb, kind="report", to=SWEDEN)[-1][1]
    en = outbox(lb, kind="report", to=COALITION)[-1][1]
    assert "Pas d'ordres reçus de : la Suède (ordres par défaut appliqués)." in fr
    assert "No orders received from: Sweden (defaults applied)." in en


def test_8_an_elided_de_reads_as_de(lb) -> None:  # type: ignore[no-untyped-def]
    """§8: "Every keyword has a French form"; French writes "de" as "d'" before a vowel,
    with ' or the ’ a phone types. "si force d’Elfsborg >= 1" was refused ("non compris"),
    costing a mail; the reply's echo keeps "de", the form the grammar reads back."""
    reply = reply_to(lb, SWEDEN, SIGNON_SE
                     + "déplacer de Jamtland : Elfsborg vers Trondhjem si force d’Elfsborg >= 1\n")
    assert ("OK  déplacer de Jämtland : Elfsborg vers Trondhjem si force de Elfsborg >= 1"
            in reply), reply
    assert "vous avez écrit : déplacer de Jamtland : Elfsborg vers Trondhjem si force d’Elfsborg" in reply
    assert "non compris" not in reply
