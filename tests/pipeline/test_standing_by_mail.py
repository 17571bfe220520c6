"""Issue 17, classes 3 and 4 by mail, on the corpus game (Pax Baltica 12.1, Sweden to act
with 3 actions in 1700-autumn-actions-sweden, the Coalition second).

Class 3 (orders.md §5): battle decisions sent with the actions (or with ADD) are stored,
used when the battles come unless replaced in the battle phase, and a battles phase
with no decision left closes at once. Class 4 (orders.md §2): what the mail already
tells is said in the reply (actions beyond the roll across ADD, the path chosen,
force-march, landing blocks not aboard, free sieges).
"""

from __future__ import annotations

from sqlmodel import col, select

from gm.db.engine import session_scope
from gm.db.models import EventLog, OrderSet
from gm.service.adjudicate import close_phase
from gm.service.context import ServiceContext
from gm.service.games import current_phase, phase_info
from tests.e2e.corpus_game import GAME, SEATS
from tests.pipeline.conftest import deliver, mail, outbox

SWEDEN, COALITION = SEATS["sweden"][0], SEATS["coalition"][0]



def send(ctx: ServiceContext, power: str, body: str) -> str:
    """Mail ``body`` signed on as ``power``; the reply's text."""
    address, password = SEATS[power]
    deliver(ctx, mail(f"GAME {GAME}\nPOWER {power} {password}\n{body}", sender=address,
                      to="gm@pbem.example"))
    return outbox(ctx, kind="reply", to=address)[-1][1]


def phase(ctx: ServiceContext) -> tuple[str, int, tuple[str, ...]]:
    with session_scope(ctx.engine) as s:
        p = current_phase(s, GAME)
        return p.phase_id, p.seq, phase_info(p).owing


def close(ctx: ServiceContext) -> None:
    assert close_phase(ctx, GAME, phase(ctx)[1], by="test").closed


def events(ctx: ServiceContext, type_: str) -> list[dict]:  # type: ignore[type-arg]
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(EventLog).where(EventLog.type == type_)
                      .order_by(col(EventLog.seq))).all()
        return [dict(r.data) for r in rows]


ATTACK = "move from Estland: Vellinck, Estländska to Ingermanland\n"


def test_standing_decisions_sent_with_the_actions_are_used_and_the_battles_close_at_once(
        game: ServiceContext) -> None:
    """Spec 5: "a season in which both players gave their standing orders costs no extra
    round of mail"."""
    reply = send(game, "sweden", ATTACK + "battle order Ingermanland\n"
                 "retreat Vellinck to Estland if round >= 1\nhits prefer Estländska\n")
    assert "OK  battle order Ingermanland   (kept as a standing order" in reply
    assert "OK  retreat Vellinck to Estland if round >= 1   (kept as a standing order" in reply
    close(game)
    assert phase(game)[0] == "1700-autumn-actions-coalition"
    assert "OK  hits prefer Pyotr I" in send(game, "coalition", "hits prefer Pyotr I\n")
    close(game)
    # the battles (and the forage, nobody short of food) closed at once: winter's actions
    assert phase(game)[0] == "1700-winter-actions-coalition"
    assert {"block": "Vellinck", "territory": "Ingermanland", "round": 1, "to": "Estland",
            "forced": False} in events(game, "retreated")


def test_a_decision_given_in_the_battle_phase_replaces_the_standing_one(
        game: ServiceContext) -> None:
    send(game, "sweden", ATTACK + "retreat Vellinck to Estland if round >= 1\n")
    close(game)
    close(game)  # the Coalition's actions: none; it gave no decision, so the battles wait
    phase_id, _, owing = phase(game)
    assert (phase_id, owing) == ("1700-autumn-battles", ("coalition",))
    reply = send(game, "sweden", "retreat Vellinck to Estland if round >= 9\n")
    assert "OK  retreat Vellinck to Estland if round >= 9" in reply, reply[200:900]
    close(game)
    assert not [e for e in events(game, "retreated") if e["block"] == "Vellinck"
                and not e["forced"]]


def test_battle_order_is_the_first_players_and_regroup_takes_several_blocks(
        game: ServiceContext) -> None:
    reply = send(game, "coalition", "battle order Ingermanland\nhits prefer Pyotr I\n")
    assert "REFUSED  battle order Ingermanland: refused: first player only" in reply
    reply = send(game, "sweden", ATTACK + "regroup Vellinck, Estländska to Estland\n")
    assert "OK  regroup Vellinck, Estländska to Estland" in reply
    reply = send(game, "sweden", "ADD\nhits prefer Estländska\n")
    assert "OK  hits prefer Estländska" in reply
    with session_scope(game.engine) as s:
        row = s.exec(select(OrderSet).where(OrderSet.power == "sweden",
                                            OrderSet.current == True)).one()  # noqa: E712
        assert row.text.splitlines() == [ATTACK.strip(), "regroup Vellinck, Estländska to Estland",
                                         "hits prefer Estländska"]


def test_actions_beyond_the_roll_are_counted_across_add(game: ServiceContext) -> None:
    reply = send(game, "sweden", "recon Livland\nrecon Ingermanland\n" + ATTACK)
    assert "more actions than this turn's roll" not in reply
    reply = send(game, "sweden", "ADD\nmove from Skåne: Karl XII to Jämtland force\n")
    assert "more actions than this turn's roll (4 of 3)" in reply


def test_the_reply_shows_paths_force_marches_landings_and_free_sieges(
        game: ServiceContext) -> None:
    reply = send(game, "sweden",
                 "move from Västergötland: Elfsborg to Jämtland\n"
                 "move from Skåne: Karl XII to Jämtland\n"
                 "land Dalregementet from Southern Baltic to Pommern\n"
                 "move from Pommern: Östgöta to Płock\n"
                 "siege Płock with Östgöta\n"
                 "siege Estland with Vellinck\n")
    assert "Elfsborg by Kopparberg → Jämtland" in reply
    assert ("Karl XII: the path is longer than the movement rating 2; without force they "
            "will not move (4.4)") in reply
    assert "REFUSED  land Dalregementet from Southern Baltic Sea to Pommern: refused: " \
           "Dalregementet: not aboard a fleet in that sea zone" in reply
    assert "OK  siege Płock with Östgöta   (to be checked at adjudication: free: the " \
           "besiegers end their move here this phase (6.1))" in reply
    assert "REFUSED  siege Estland with Vellinck: refused: the garrison is not the enemy's" \
           in reply  # Estland is Sweden's own: the position forbids it
    assert "more actions than this turn's roll" not in reply  # 3 moves, the siege is free


def test_fleet_orders_the_position_forbids_are_refused_on_arrival_after_the_orders_above(
        game: ServiceContext) -> None:
    """Issue 17 class 4: "everything the power's own position already forbids is refused
    with the reason, not accepted 'to be checked at adjudication'": embark and sail are
    rehearsed on the board as the orders above leave it (9.1, 9.2)."""
    reply = send(game, "sweden",
                 "embark Karl XII, Dalregementet from Skåne onto Wachtmeister\n"
                 "embark Vellinck from Estland onto Wattrang\n"
                 "sail Wachtmeister from Baltic Sea to Gulf of Riga\n"
                 "embark Karl XII from Skåne onto Wachtmeister\n"
                 "sail Wattrang from Southern Baltic to Gulf of Finland\n"
                 "embark Vellinck from Estland onto Wattrang\n"
                 "sail Wachtmeister from Southern Baltic to Gulf of Finland\n"
                 "land Karl XII from Gulf of Finland to Ingermanland\n")
    assert ("REFUSED  embark Karl XII, Dalregementet from Skåne onto Wachtmeister: "
            "refused: a fleet carries one army or two regiments (9.2)") in reply
    assert ("REFUSED  embark Vellinck from Estland onto Wattrang: refused: the fleet is not "
            "at sea off that port") in reply  # line 4: Wattrang has not sailed yet
    assert ("REFUSED  sail Wachtmeister from Baltic Sea to Gulf of Riga: refused: "
            "not in that territory") in reply
    assert "OK  embark Karl XII from Skåne onto Wachtmeister\n" in reply
    assert "OK  sail Wattrang from Southern Baltic Sea to Gulf of Finland\n" in reply
    assert "OK  embark Vellinck from Estland onto Wattrang\n" in reply  # after the sail above
    assert "OK  sail Wachtmeister from Southern Baltic Sea to Gulf of Finland\n" in reply
    assert ("REFUSED  land Karl XII from Gulf of Finland to Ingermanland: refused: loaded "
            "this turn: a block may not be both loaded and unloaded during the same game "
            "turn (9.2); land it next turn") in reply
    assert "to be checked at adjudication" not in reply
    assert "Sweden: 4 orders stored" in reply


def test_fleet_orders_after_a_conditional_one_wait_for_the_adjudication(
        game: ServiceContext) -> None:
    reply = send(game, "sweden",
                 "sail Wattrang from Southern Baltic to Gulf of Finland unless enemy blocks "
                 "in Estland > 3\n"
                 "embark Vellinck from Estland onto Wattrang\n")
    assert "OK  embark Vellinck from Estland onto Wattrang   (to be checked at adjudication)" \
        in reply


def test_in_the_battles_phase_what_the_battle_sites_forbid_is_refused(game: ServiceContext) -> None:
    """Issue 17 class 4: in the battles phase the blocks stand where they fight, so a
    retreat or regroup of a block with no battle, a regroup to a territory not adjacent, a
    retreat beyond the movement rating are refused with the reason (5.6, 5.7)."""
    send(game, "sweden", ATTACK)
    close(game)
    close(game)
    assert phase(game)[0] == "1700-autumn-battles"
    reply = send(game, "sweden", "retreat Karl XII to Småland\nregroup Vellinck to Skåne\n"
                 "retreat Vellinck to Skåne\nregroup Vellinck, Estländska to Estland\n")
    assert "REFUSED  retreat Karl XII to Småland: refused: not in a battle" in reply
    assert ("REFUSED  regroup Vellinck to Skåne: refused: a regroup goes to an adjacent "
            "territory (5.7)") in reply
    assert ("REFUSED  retreat Vellinck to Skåne: refused: beyond the block's movement rating "
            "(5.6)") in reply
    assert "OK  regroup Vellinck, Estländska to Estland   (to be checked at adjudication)" in reply


def test_retreats_and_regroups_sent_with_the_actions_are_judged_where_the_blocks_will_stand(
        game: ServiceContext) -> None:
    """Issue 17 class 4 (orders.md §2): a standing retreat or regroup is judged from where
    the mail's own moves leave its blocks (5.6, 5.7); a block a conditional move may move
    waits for the adjudication."""
    reply = send(game, "sweden", ATTACK +
                 "regroup Vellinck to Skåne\n"  # from Ingermanland, after the move above
                 "retreat Estländska to Skåne\n"
                 "regroup Estländska to Estland\n"
                 "retreat Karl XII to Småland\n"
                 "move from Västergötland: Elfsborg to Jämtland if round >= 1\n"
                 "regroup Elfsborg to Skåne\n")
    assert ("REFUSED  regroup Vellinck to Skåne: refused: a regroup goes to an adjacent "
            "territory (5.7)") in reply
    assert ("REFUSED  retreat Estländska to Skåne: refused: beyond the block's movement rating "
            "(5.6)") in reply
    assert "OK  regroup Estländska to Estland   (kept as a standing order" in reply
    assert "OK  retreat Karl XII to Småland   (kept as a standing order" in reply
    assert "OK  regroup Elfsborg to Skåne   (kept as a standing order" in reply


def test_the_second_player_s_standing_orders_wait_for_its_own_moves(game: ServiceContext) -> None:
    """The Coalition orders its actions after Sweden: in Sweden's phase its blocks may still
    move, so its standing orders are kept unjudged; in its own phase they are judged."""
    reply = send(game, "coalition", "regroup Pyotr I to Skåne\n")
    assert "OK  regroup Pyotr I to Skåne   (kept as a standing order" in reply
    close(game)
    reply = send(game, "coalition", "regroup Pyotr I to Skåne\n")
    assert ("REFUSED  regroup Pyotr I to Skåne: refused: a regroup goes to an adjacent "
            "territory (5.7)") in reply


def test_in_the_winter_campaign_standing_orders_are_judged_where_the_blocks_stand(
        game: ServiceContext) -> None:
    """3.4: the Coalition's blocks stand still in Sweden's winter campaign; Sweden's blocks
    that the campaign moves wait for the adjudication."""
    from tests.pipeline.test_who_gets_what import moderate

    reply = moderate(game, 'SET season = "winter"\nSET step = "winter-campaign"\n')
    assert "REFUSED" not in reply and "??" not in reply, reply
    reply = send(game, "coalition", "regroup Pyotr I to Skåne\nhits prefer Pyotr I\n")
    assert ("REFUSED  regroup Pyotr I to Skåne: refused: a regroup goes to an adjacent "
            "territory (5.7)") in reply
    reply = send(game, "sweden", "winter campaign: move from Skåne: Karl XII to Småland\n"
                 "regroup Karl XII to Pommern\nretreat Vellinck to Skåne\n")
    assert "REFUSED  regroup Karl XII" not in reply
    assert ("REFUSED  retreat Vellinck to Skåne: refused: beyond the block's movement rating "
            "(5.6)") in reply


def test_a_build_for_a_nation_that_cannot_enter_the_war_this_interphase_is_refused(
        game: ServiceContext) -> None:
    """10.1, 10.3: Denmark under truce until 1705 rolls for no activation in 1701's
    Interphase, so its builds are refused on arrival; the Ottomans may still enter the war
    on Sweden's roll, so theirs wait for it."""
    from tests.pipeline.test_who_gets_what import moderate

    reply = moderate(game, 'SET step = "interphase"\nSET truces.denmark = 1705\n')
    assert "REFUSED" not in reply and "??" not in reply, reply
    reply = send(game, "coalition", "build denmark: draw 1\n")
    assert "REFUSED  build Denmark: draw 1: refused: the nation is not at war (10.1)" in reply
    reply = send(game, "sweden", "build ottoman: draw 1\n")
    assert ("OK  build Ottoman Empire: draw 1   (to be checked at adjudication: used if the "
            "nation enters the war in this Interphase (10.1))") in reply
