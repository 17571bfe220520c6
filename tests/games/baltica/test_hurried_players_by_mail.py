"""Pax Baltica by mail as two hurried players play it (12.1, Sweden in English, the
Coalition in French), through the real pipeline: what cost a player a round of mail."""

from __future__ import annotations

import pytest

from gm.db.engine import session_scope
from gm.service.adjudicate import settle
from gm.service.games import SeatSpec, create_game
from tests.games.baltica.bymail import close_and_settle, phase_of, reply_to
from tests.pipeline.conftest import deliver, mail, outbox

SWEDEN, COALITION, MOD = "karl@example.org", "pyotr@example.org", "mod@example.org"
SEATS = [SeatSpec("sweden", SWEDEN, password="sw"),
         SeatSpec("coalition", COALITION, password="co", language="fr")]
SW = "game g1\npower sweden sw\n"
CO = "partie g1\npuissance coalition co\n"


@pytest.fixture
def g1(ctx):  # type: ignore[no-untyped-def]
    """12.1 with the action roll given by the moderator: Sweden 5, the Coalition 2."""
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="g1", module_name="baltica", scenario="12.1", seats=SEATS,
                    moderator_address=MOD, moderator_password="m", seed=b"\x07" * 32)
    deliver(ctx, mail("GAME g1\nMODERATOR m\nDICE 5 2\n", sender=MOD))
    settle(ctx, "g1", by="test")
    assert phase_now(ctx)[0] == "1700-autumn-actions-sweden"
    return ctx


def phase_now(ctx) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    return phase_of(ctx, "g1")


def close(ctx) -> None:  # type: ignore[no-untyped-def]
    close_and_settle(ctx, "g1")


def test_7_3_a_hits_prefer_sent_in_the_battles_phase_holds_for_the_forage(g1) -> None:  # type: ignore[no-untyped-def]
    """7.3: the first forage loss "must always be taken from the strongest block (owner
    chooses if tied)"; docs/baltica.md: the battle decisions "are kept for the season's
    battles and forage". The Coalition wrote "pertes d'abord" in the battles phase; the
    forage phase then waited for its orders all the same, and its report read "Pas
    d'ordres reçus de : la Coalition": the decision was dropped and a mail asked again."""
    reply = reply_to(g1, SWEDEN, SW + "move estland: vellinck, estlandska -> ingermanland\nREADY\n")
    assert "OK  move from Estland: Vellinck, Estländska to Ingermanland" in reply
    close(g1)  # the Coalition's action phase: it sends nothing
    assert phase_now(g1)[0] == "1700-autumn-battles"
    reply = reply_to(g1, COALITION, CO + "pertes d'abord kazanski, schnwentz\n")
    assert "OK  pertes d'abord Kazanski, Schnwentz" in reply
    close(g1)  # the battle of Ingermanland; then the Coalition's forage in Ingermanland
    fr = outbox(g1, kind="report", to=COALITION)[-1][1]
    assert "Fourrage en Ingermanland :" in fr
    assert "Pas d'ordres reçus de : la Coalition" not in fr
    assert phase_now(g1)[0] == "1700-winter-actions-sweden"  # not 1700-autumn-forage


def test_7_1_the_forage_report_says_where_the_blocks_go_short_and_what_to_order(g1) -> None:  # type: ignore[no-untyped-def]
    """7.1: "A group of blocks loses one step per unmet FP required in a territory"; 7.3:
    the first loss "from the strongest block (owner chooses if tied)". The forage phase
    waits for the player short of forage, and its report said only "(ordres attendus de
    Coalition)": not where the blocks go short nor what to send, so the player wrote to
    ask. Now it says, to that player only (the other side learns its losses afterwards)."""
    reply_to(g1, SWEDEN, SW + "move estland: vellinck, estlandska -> ingermanland\nREADY\n")
    close(g1)  # the Coalition's actions: none
    close(g1)  # the battle of Ingermanland
    assert phase_now(g1)[0] == "1700-autumn-forage"
    fr = outbox(g1, kind="report", to=COALITION)[-1][1]
    assert ("Fourrage insuffisant (7.1) : Ingermanland, Livland. Chaque PF manquant y coûte un pas à "
            "vos blocs, le premier au plus fort (7.3). Vous pouvez ordonner : pertes d'abord "
            "BLOCS (qui perd un pas en premier à force égale, 5.5, 7.3)") in fr
    en = outbox(g1, kind="report", to=SWEDEN)[-1][1]
    assert "Short of forage" not in en  # Sweden is not short; the Coalition's shortfall is its own
    reply = reply_to(g1, COALITION, CO + "pertes d'abord kazanski\n")
    assert "OK  pertes d'abord Kazanski" in reply


def test_3_1_the_first_player_late_with_actions_reads_what_he_may_still_send(g1) -> None:  # type: ignore[no-untyped-def]
    """3.1: "The First Player performs all their actions (or resolves their event), and
    then the Second Player performs all of theirs"; the First Player may then only answer: pins (4.3: "The enemy player chooses which
    blocks are pinned"), discontent (12.4) and his battle decisions. Sweden, late, sent its
    actions in the Coalition's phase and read only "refused: not your action phase"."""
    close(g1)  # Sweden's actions: it sent none in time
    assert phase_now(g1)[0] == "1700-autumn-actions-coalition"
    reply = reply_to(g1, SWEDEN, SW + "recon ingermanland\nhits prefer elfsborg\n")
    assert ("REFUSED  recon Ingermanland: refused: not your action phase: yours is over this "
            "turn; in this one you may send pin and discontent (4.3, 12.4) and the battle "
            "decisions (hits prefer, retreat, regroup, battle order)") in reply
    assert "OK  hits prefer Elfsborg" in reply


def test_8_jusqua_without_its_apostrophe_reads_as_jusqu_a(g1) -> None:  # type: ignore[no-untyped-def]
    """orders.md §8: "Every keyword has a French form, accents optional". A hurried French
    player types "jusqua" for "jusqu'à" (no accent, no apostrophe); the line read
    "remplacer flemming jusqua 4 : bloc introuvable : 'flemming jusqua 4'", the keyword
    taken as part of the block's name, and said nothing of how to write it."""
    close(g1)  # Sweden's actions
    reply = reply_to(g1, COALITION, CO + "remplacer flemming jusqua 4\n")
    assert "remplacer Flemming jusqu’à 4" in reply
    assert "introuvable" not in reply


def to_interphase(ctx) -> None:  # type: ignore[no-untyped-def]
    for _ in range(12):
        if phase_now(ctx)[0] == "1701-interphase":
            return
        close(ctx)
    assert phase_now(ctx)[0] == "1701-interphase"


def test_8_7_a_build_deploying_where_no_new_block_may_says_so_and_where_they_may(g1) -> None:  # type: ignore[no-untyped-def]
    """8.7: "New blocks cannot be deployed into enemy-occupied or enemy-garrisoned
    territories"; new Swedish blocks deploy in Sweden proper (11.1). Sweden wrote "build
    sweden: draw 1; deploy estland", read "OK", and found the block built in Svealand at
    the next report, with no word why: the place is now told with the mail, and where
    the blocks may go."""
    to_interphase(g1)
    reply = reply_to(g1, SWEDEN, SW + "build sweden: draw 1 strength 2; deploy estland\n")
    assert ("OK  build Sweden: draw 1 strength 2; deploy Estland   (accepted with a warning: "
            "no new block of Sweden may deploy in Estland now (8.7); each goes to the first "
            "place listed that is open to it, else the capital; open now: Skåne, Småland, ") in reply
    reply = reply_to(g1, COALITION, CO + "construire russie : tirer 1 ; deployer svealand\n")
    assert ("aucun nouveau bloc de Russie ne peut se déployer en Svealand maintenant (8.7) ; "
            "chacun va au premier lieu cité qui lui est ouvert, sinon dans la capitale ; "
            "ouverts maintenant : ") in reply
    reply = reply_to(g1, SWEDEN, SW + "build sweden: draw 1; deploy smaland\n")
    assert "OK  build Sweden: draw 1; deploy Småland\n" in reply


def test_9_2_an_embark_where_the_fleet_is_not_says_which_sea_the_port_opens_on(g1) -> None:  # type: ignore[no-untyped-def]
    """9.2: loading "can only be done from a territory with a friendly port into the sea
    zone the port lies on". Sweden embarked Elfsborg at Västergötland onto Wattrang, which
    stands in the Southern Baltic, and read only "the fleet is not at sea off that port":
    which sea the fleet must be in was left to the map."""
    reply = reply_to(g1, SWEDEN, SW + "embark karl xii from skane onto wachtmeister\n"
                     "embark elfsborg from vastergotland onto wattrang\n")
    assert "OK  embark Karl XII from Skåne onto Wachtmeister" in reply
    assert ("REFUSED  embark Elfsborg from Västergötland onto Wattrang: refused: the fleet is "
            "not at sea off that port: Västergötland opens on Kattegat (9.2)") in reply


def test_1_orders_written_below_the_quoted_report_are_read(g1) -> None:  # type: ignore[no-untyped-def]
    """orders.md §1: quoted text is dropped, not what the player wrote under it. Sweden
    answered the report below its quote ("On ... wrote:", the quoted lines, then the
    orders), as many mail clients do: everything after the attribution was cut as a
    top-posted quote, and the reply said "No orders were found in your mail"."""
    reply = reply_to(g1, SWEDEN,
                     "On Mon, 5 Jan 2026 at 12:00, gm <gm@example.org> wrote:\n"
                     "> Phase now: 1700-autumn-actions-sweden (orders due from Sweden)\n"
                     "> Your blocks:\n>   Skåne: Karl XII A3 4/4\n\n"
                     + SW + "Recon Ingermanland.\nmove skane: karl xii -> smaland\n\n"
                     "thanks, Karl\n")
    assert "No orders were found" not in reply
    assert "OK  recon Ingermanland" in reply
    assert "OK  move from Skåne: Karl XII to Småland" in reply
    assert "Sweden: 2 orders stored" in reply


def test_6_1_a_siege_without_its_blocks_is_answered_with_how_it_is_written(g1) -> None:  # type: ignore[no-untyped-def]
    """6.1: "a siege attempt may be declared in a territory by any and all unpinned blocks
    that have not moved this turn": the order names them (`siege T with B`). "siege
    estland" was answered "a siege needs 'with' and the
    besieging blocks", with neither the order's form nor an example to copy."""
    reply = reply_to(g1, SWEDEN, SW + "siege estland\n")
    assert ("siege estland: a siege needs 'with' and the besieging blocks: 'siege TERRITORY "
            "with BLOCKS', e.g. 'siege Estland with Vellinck, Estländska'") in reply
    close(g1)
    reply = reply_to(g1, COALITION, CO + "siege livland\n")
    assert ("un siège demande 'avec' et les blocs assiégeants : 'siège TERRITOIRE avec "
            "BLOCS', par ex. 'siège Estland avec Vellinck, Estländska'") in reply


def test_4_3_a_pin_naming_an_enemy_block_says_a_pin_names_your_own(g1) -> None:  # type: ignore[no-untyped-def]
    """4.3: "The enemy player chooses which blocks are pinned": the Coalition's pin names
    its own blocks. A French player pinning Sweden's Vellinck read "bloc introuvable :
    'vellinck'" and could not tell why; a Swedish block in the replacement pool was
    "unknown" to its own player too. Nothing of where an enemy block stands is told."""
    reply = reply_to(g1, COALITION, CO + "fixer vellinck en ingermanland\n"
                     "fixer kazanski en ingermanland\n")
    assert ("fixer vellinck en ingermanland : Vellinck n'est pas un de vos blocs : les ordres "
            "et leurs conditions ne nomment que vos propres blocs (fixer aussi : ceux des "
            "vôtres que le mouvement ennemi fixe, 4.3)") in reply
    assert "OK  fixer Kazanski en Ingermanland" in reply
    # docs/baltica.md: "A condition naming a block the power cannot see does not parse"
    reply = reply_to(g1, COALITION, CO + "si force de vellinck <= 2 alors pertes d'abord kazanski\n")
    assert "Vellinck n'est pas un de vos blocs : les ordres et leurs conditions" in reply
    reply = reply_to(g1, SWEDEN, SW + "move from skane: rehnskiold to smaland\n"
                     "move from skane: karl xi to smaland\n")
    assert ("Rehnskiöld is not on the map: an order names your blocks on the map (an "
            "eliminated block comes back only through a build's draw, 8.6)") in reply
    assert "unknown block 'karl xi': did you mean Karl XII?" in reply  # a typo stays a typo


def test_3_4_a_winter_campaign_written_without_its_colon_is_read(g1) -> None:  # type: ignore[no-untyped-def]
    """3.4: "If the turn just completed was a Winter turn, Sweden has the option of a
    winter campaign". Written "winter campaign move from ..." (no colon, as one writes in
    a hurry), the order was refused ("not understood at 'move'"), and the phase's one
    chance of the year could pass before the second mail."""
    for _ in range(10):
        if phase_now(g1)[0] == "1700-winter-campaign":
            break
        close(g1)
    assert phase_now(g1)[0] == "1700-winter-campaign"
    reply = reply_to(g1, SWEDEN, SW + "winter campaign move from skane: karl xii, "
                     "dalregementet to smaland\n")
    assert "OK  winter campaign: move from Skåne: Karl XII, Dalregementet to Småland" in reply
    reply = reply_to(g1, SWEDEN, SW + "campagne d'hiver deplacer de skane : karl xii vers smaland\n")
    assert "OK  winter campaign: move from Skåne: Karl XII to Småland" in reply


def test_5_an_order_of_another_phase_says_what_this_phase_takes(g1) -> None:  # type: ignore[no-untyped-def]
    """orders.md §5: "Orders of another phase are refused"; 0.3: the battles come after
    both action phases. A move sent in the battles phase read only "not allowed in this
    phase": which orders the phase does take was left to HELP. Each is named as HELP
    names it, in the reader's language."""
    reply_to(g1, SWEDEN, SW + "move estland: vellinck, estlandska -> ingermanland\nREADY\n")
    close(g1)  # the Coalition's actions
    assert phase_now(g1)[0] == "1700-autumn-battles"
    reply = reply_to(g1, SWEDEN, SW + "move from skane: karl xii to smaland\n")
    assert ("REFUSED  move from Skåne: Karl XII to Småland: refused: not allowed in this "
            "phase: it takes battle order, hits prefer, retreat, regroup") in reply
    reply = reply_to(g1, COALITION, CO + "construire russie : tirer 1\n")
    assert ("refusé : pas permis dans cette phase : elle prend ordre de bataille, pertes "
            "d’abord, retraite, regrouper") in reply
