"""Pax Baltica orders as hurried players write them, answered so that the next mail is right.

orders.md §2: "each line not accepted, with the reason"; and where the contract leaves a
choice, gm chooses what saves the player a round of mail (docs/orders.md, "Choices"):

* ``move BLOCKS from TERRITORY to TERRITORY`` is read as the one group of ``move from
  TERRITORY: BLOCKS to TERRITORY``: it is how Pax Britannica's moves and this game's own
  ``sail``, ``embark`` and ``land`` are written, and players wrote it (the reply said only
  "a move needs 'from TERRITORY:' then ...");
* a line that starts as an order and does not read is answered with how that order is
  written, in the language of the word it starts with ("not understood at 'to', column 19"
  sent the player to HELP for another round);
* a line whose order reads and whose condition does not is answered about its condition;
* the reasons are said in the seat's language (they were English for a French seat).
"""

from __future__ import annotations

from typing import Any

from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import OrderSet
from gm.service.adjudicate import close_phase
from gm.service.games import SeatSpec, create_game, current_phase
from tests.pipeline.conftest import deliver, mail, outbox

SWEDEN, COALITION, MOD = "anna@example.se", "boris@example.ru", "mod@example.org"


def _baltica(ctx: Any, language: str = "en") -> None:
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="b1", module_name="baltica", scenario="12.1",
                    seats=[SeatSpec("sweden", SWEDEN, password="sw-pw", language=language),
                           SeatSpec("coalition", COALITION, password="co-pw")],
                    moderator_address=MOD, moderator_password="mod-pw", seed=b"\x42" * 32)
    deliver(ctx, mail("GAME b1\nMODERATOR mod-pw\nDICE 5 2\n", sender=MOD))
    with session_scope(ctx.engine) as s:
        seq = current_phase(s, "b1").seq
    assert close_phase(ctx, "b1", seq, by="test").closed
    with session_scope(ctx.engine) as s:
        assert current_phase(s, "b1").phase_id == "1700-autumn-actions-sweden"


def _send(ctx: Any, body: str) -> str:
    deliver(ctx, mail("GAME b1\nPOWER sweden sw-pw\n" + body, sender=SWEDEN))
    return outbox(ctx, kind="reply", to=SWEDEN)[-1][1]


def _stored(ctx: Any) -> list[str]:
    with session_scope(ctx.engine) as s:
        return [o.text for o in s.exec(select(OrderSet).where(
            OrderSet.game_id == "b1", OrderSet.power == "sweden", OrderSet.current)).all()]


def test_orders_md_5_move_blocks_from_territory_to_territory_is_the_move_of_one_group(ctx: Any) -> None:
    """"move from Skåne: Karl XII, Dalregementet to Småland" (orders.md §5), written the way
    Pax Britannica and this game's sail/embark/land are: read as that move, echoed in its
    own form so that the player learns it, and stored."""
    _baltica(ctx)
    reply = _send(ctx, "move Karl XII, Dalregementet from Skane to Smaland\n")
    assert "OK  move from Skåne: Karl XII, Dalregementet to Småland" in reply, reply
    assert "you wrote: move Karl XII, Dalregementet from Skane to Smaland" in reply
    assert "??" not in reply
    assert any("move from Skåne: Karl XII, Dalregementet to Småland" in t for t in _stored(ctx))


def test_orders_md_8_deplacer_blocs_de_territoire_vers_territoire_with_via_and_force(ctx: Any) -> None:
    """The French form of the same order, with 'par' and 'forcée' (orders.md §8)."""
    _baltica(ctx, "fr")
    reply = _send(ctx, "déplacer Karl XII de Skåne vers Småland par Östergötland forcée\n")
    assert "OK  déplacer de Skåne : Karl XII vers Småland par Östergötland forcée" in reply, reply
    assert "??" not in reply


def test_orders_md_2_an_order_that_does_not_read_is_answered_with_how_it_is_written(ctx: Any) -> None:
    """"each line not accepted, with the reason": a sail without 'from', an embark without
    its territory, a land without its sea get the order's syntax as HELP shows it."""
    _baltica(ctx)
    reply = _send(ctx, "sail Wachtmeister to Gulf of Finland\n"
                       "embark Karl XII onto Wachtmeister\n"
                       "if round >= 2 then siege Ingermanland Vellinck\n")
    assert ("sail Wachtmeister to Gulf of Finland: not understood at 'to', column 19; "
            "it is written sail <blocks> from <waters> to <waters> (HELP sail)") in reply, reply
    assert "it is written embark <blocks> from <territory> onto <blocks> (HELP embark)" in reply
    # the order of "if CONDITION then ORDER" is the one after 'then'
    assert "it is written siege <territory> with <blocks> (HELP siege)" in reply


def test_orders_md_2_a_french_word_is_answered_with_the_french_form(ctx: Any) -> None:
    _baltica(ctx, "fr")
    reply = _send(ctx, "naviguer Wachtmeister vers Golfe de Finlande\n")
    assert "il s'écrit naviguer" in reply, reply
    assert "vers" in reply.split("il s'écrit", 1)[1]
    # the topic named as the French reader asks for it, and with the French command
    assert "(AIDE naviguer)" in reply and "HELP" not in reply


def test_orders_md_4_a_condition_that_does_not_read_is_named_as_the_condition(ctx: Any) -> None:
    """orders.md §4 lists the conditions; "if Karl XII arrives" is none of them. The order
    before it reads: the reply says the condition is what to write again, not the order's
    syntax."""
    _baltica(ctx)
    reply = _send(ctx, "move from Estland: Vellinck to Ingermanland if Karl XII arrives\n"
                       "if Karl XII arrives then siege Ingermanland with Vellinck\n")
    assert reply.count("in its condition (HELP conditions)") == 2, reply
    assert "it is written" not in reply


def test_orders_md_2_the_reasons_of_a_move_that_does_not_read_in_the_seats_language(ctx: Any) -> None:
    """A French seat read "a move needs 'from TERRITORY:' then 'BLOCKS to TERRITORY'" in
    English."""
    _baltica(ctx, "fr")
    reply = _send(ctx, "déplacer Karl XII vers Livland\nsiège Estland\n")
    assert "un déplacement s'écrit 'déplacer de TERRITOIRE : BLOCS vers TERRITOIRE'" in reply, reply
    assert "un siège demande 'avec' et les blocs assiégeants" in reply
    assert "needs" not in reply


def test_help_move_shows_the_move_from_form_first_and_the_other_in_its_doc(ctx: Any) -> None:
    _baltica(ctx)
    reply = _send(ctx, "HELP move\n")
    assert "move [from] <territory>: <group>" in reply, reply  # "from" may be left out
    assert "move Karl XII, Dalregementet from Skåne to Småland" in reply


def test_rule_4_4_and_9_2_a_move_without_a_path_says_why(ctx: Any) -> None:
    """"no legal path" answered three different mistakes. Sjælland lies far around the
    Baltic by land from Skåne (4.4: "too far even force-marching"); Portsmouth has no land
    route at all (9.2: blocks cross the sea with embark, sail and land)."""
    _baltica(ctx)
    reply = _send(ctx, "CHECK\nmove from Skåne: Karl XII to Sjælland\n"
                       "move from Skåne: Dalregementet to Portsmouth\n")
    assert "move from Skåne: Karl XII to Sjælland: refused: too far even force-marching (4.4)" in reply, reply
    assert ("move from Skåne: Dalregementet to Portsmouth: refused: no land route there: "
            "blocks cross the sea with embark, sail and land (9.2)") in reply
    assert "no legal path" not in reply


def test_rule_4_5_a_move_barred_within_reach_names_where_and_the_rule(ctx: Any) -> None:
    """4.5: an inactive nation's territories are prohibited. A move within reach that the
    rules bar names the place and the rule, not "no legal path"."""
    _baltica(ctx)
    reply = _send(ctx, "CHECK\nmove from Pommern: Östgöta to Brandenburg\n")
    assert "(4.5)" in reply, reply
    assert "refused: no legal path: the shortest way by land is barred at Brandenburg: " in reply
    assert "no legal path\n" not in reply


def test_rule_9_2_a_move_too_far_by_land_names_the_embark_sail_and_land_that_go_by_sea(ctx: Any) -> None:
    """9.2: "Sea transport involves loading (or unloading) army or regiment blocks onto
    fleets at sea, and works like regular movement ... Loading blocks ... can only be done
    from a territory with a friendly port into the sea zone the port lies on. You may
    unload blocks at sea into a territory through a bordering port". In the 12.1 set-up
    Karl XII stands in Skåne (the port of Malmö, Southern Baltic Sea) with Wachtmeister
    and Wattrang at sea off it; Estland (Reval, Gulf of Finland) is round the Baltic by
    land. The reply said only "too far even force-marching (4.4)"; it now gives the orders
    that go by sea, landing the next turn ("A given block may not be both loaded and
    unloaded during the same game turn"). Pommern's port lies on the same sea: no sail.
    Sjælland is Danish and Denmark is out of the war (4.5): not by sea either."""
    _baltica(ctx)
    reply = _send(ctx, "CHECK\nmove from Skåne: Karl XII to Estland\n"
                       "move from Skåne: Dalregementet, Södra Skånska to Pommern\n"
                       "move from Skåne: Karl XII to Sjælland\n")
    assert ("move from Skåne: Karl XII to Estland: refused: too far even force-marching (4.4); "
            "by sea: embark Karl XII from Skåne onto Wachtmeister, sail Wachtmeister from "
            "Southern Baltic Sea to Gulf of Finland, then next turn land Karl XII from Gulf of "
            "Finland to Estland (9.2)") in reply, reply
    assert ("to Pommern: refused: too far even force-marching (4.4); by sea: embark "
            "Dalregementet, Södra Skånska from Skåne onto Wachtmeister, then next turn land "
            "Dalregementet, Södra Skånska from Southern Baltic Sea to Pommern (9.2)") in reply
    assert ("to Sjælland: refused: too far even force-marching (4.4); nor by sea: territory "
            "of an inactive nation (4.5)") in reply
    # the embark and sail as the reply words them are orders that pass this very phase
    suggested = reply.split("by sea: ", 1)[1].split(", then next turn", 1)[0]
    embark, sail = suggested.split(", sail ")
    again = _send(ctx, f"CHECK\n{embark}\nsail {sail}\n")
    assert f"OK  {embark}" in again and f"OK  sail {sail}" in again, again
    assert "REFUSED" not in again


def test_rule_9_2_the_sea_route_in_french_names_the_french_seas_and_reads_back_as_written(ctx: Any) -> None:
    """The same answer to a French seat: embarquer, naviguer, débarquer, as it writes them,
    and the seas by the names its report gives them. It said "naviguer Wachtmeister de
    Southern Baltic Sea vers Gulf of Finland"; and the French names could not be sent back,
    "Golfe de Finlande" read as "Golfe" then the keyword "de" ("non compris à 'de'"). Sent
    back as written, the three orders are read: the embark and the sail pass this phase,
    the landing is refused for what it is, this turn ("A given block may not be both
    loaded and unloaded during the same game turn", 9.2: Karl XII was loaded this turn)."""
    _baltica(ctx, "fr")
    reply = _send(ctx, "VERIFIER\ndéplacer de Skåne : Karl XII vers Estland\n")
    assert ("refusé : trop loin même en marche forcée (4.4) ; par mer : embarquer Karl XII de "
            "Skåne sur Wachtmeister, naviguer Wachtmeister de Baltique méridionale vers Golfe "
            "de Finlande, puis au tour suivant débarquer Karl XII de Golfe de Finlande vers "
            "Estland (9.2)") in reply, reply
    assert "by sea" not in reply and "next turn" not in reply
    assert "Southern Baltic" not in reply and "Gulf of" not in reply
    suggested = reply.split("par mer : ", 1)[1].split(" (9.2)", 1)[0]
    embark, rest = suggested.split(", naviguer ")
    sail, land = rest.split(", puis au tour suivant ")
    again = _send(ctx, f"VERIFIER\n{embark}\nnaviguer {sail}\n{land}\n")
    assert f"OK  {embark}" in again and f"OK  naviguer {sail}" in again, again
    assert (f"REFUSÉ  {land} : refusé : embarqué ce tour-ci : un bloc ne peut pas être "
            "embarqué et débarqué au cours du même tour de jeu (9.2) ; débarquez-le au tour "
            "suivant") in again, again
    assert "non compris" not in again and "Gulf of" not in again


def test_rule_9_1_a_french_seat_sails_to_golfe_de_finlande_as_its_report_names_it(ctx: Any) -> None:
    """9.1 "sail": the French seat writes the seas as its report names them, unquoted, any
    case, accents optional; it was refused "non compris à 'de', colonne 58". The echo names
    them in French, and a misspelt sea is offered by its French name."""
    _baltica(ctx, "fr")
    reply = _send(ctx, "VERIFIER\nnaviguer Wachtmeister de Baltique méridionale vers Golfe de Finlande\n"
                       "naviguer Wachtmeister de baltique meridionale vers GOLFE DE RIGA\n"
                       "naviguer Wachtmeister de Baltique méridionale vers Golfe de Finlnde\n")
    assert "OK  naviguer Wachtmeister de Baltique méridionale vers Golfe de Finlande" in reply, reply
    assert "naviguer Wachtmeister de Baltique méridionale vers Golfe de Riga" in reply, reply
    assert ("lieu introuvable : 'Golfe de Finlnde' ; vouliez-vous dire Golfe de Finlande ?"
            in reply), reply
    assert "non compris" not in reply and "Gulf of" not in reply and "Southern Baltic" not in reply

