"""One Pax Baltica season of the 12.1 Grand Campaign played by mail through the real pipeline.

Each mail goes through ``store_inbound`` + ``handle_inbound`` (what the daemon does),
phases close through ``gm.service.adjudicate``, and every assertion reads the mails
the players would receive, decoded from the outbox (issue 4: a full season by mail,
and the fog of war in the reports).
"""

from __future__ import annotations

import re

import pytest
from sqlmodel import select

from gm.db.engine import session_scope
from gm.db.models import OrderSet
from gm.games.baltica.module import BalticaModule
from gm.service.adjudicate import close_phase, settle
from gm.service.games import SeatSpec, create_game, current_phase, phase_info
from tests.pipeline.conftest import deliver, mail, outbox

SWEDEN, COALITION, MOD = "karl@example.org", "pyotr@example.org", "mod@example.org"
SEATS = [SeatSpec("sweden", SWEDEN, password="sw-secret"),
         SeatSpec("coalition", COALITION, password="co-secret", language="fr",
                  timezone="Europe/Paris")]
# Coalition blocks that Sweden never reconnoitres nor fights this season (12.1 set-up).
UNSEEN_BY_SWEDEN = ("Repnin", "August II", "Flemming")
# Swedish blocks the Coalition never reconnoitres nor fights this season.
UNSEEN_BY_COALITION = ("Karl XII", "Dalregementet", "Södra Skånska", "Wachtmeister", "Wattrang",
                       "Östgöta", "Pommerska", "Elfsborg", "Kronoberg")


def scenario_id() -> str:
    ids = [s.id for s in BalticaModule().scenarios()]
    assert "12.1" in ids
    return "12.1"


@pytest.fixture
def pb(ctx):  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pb1", module_name="baltica", scenario=scenario_id(),
                    seats=SEATS, moderator_address=MOD, moderator_password="mod-secret",
                    seed=b"\x03" * 32)
    return ctx


def phase_now(ctx) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        p = current_phase(s, "pb1")
        return p.phase_id, p.seq


def orders_of(ctx, power: str) -> list[str]:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        rows = s.exec(select(OrderSet).where(OrderSet.game_id == "pb1", OrderSet.power == power,
                                             OrderSet.current == True)).all()  # noqa: E712
        return [r.text for r in rows]


def last_reply(ctx, to: str) -> str:  # type: ignore[no-untyped-def]
    return outbox(ctx, kind="reply", to=to)[-1][1]


def reports(ctx, to: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [t for _, t in outbox(ctx, kind="report", to=to)]


def test_a_season_of_the_grand_campaign_by_mail(pb) -> None:  # type: ignore[no-untyped-def]
    """Action roll, Sweden's actions, the Coalition's, battles and forage (0.3), all by mail."""
    # The moderator supplies the action roll (3.1): Sweden 5, Coalition 2 -> Sweden first.
    deliver(pb, mail("GAME pb1\nMODERATOR mod-secret\nDICE 5 2\n", sender=MOD))
    assert "OK" in last_reply(pb, MOD)
    settle(pb, "pb1", by="test")
    assert phase_now(pb)[0] == "1700-autumn-actions-sweden"

    assert "Action rolls: Sweden 5, Coalition 2" in reports(pb, SWEDEN)[-1]

    # The Coalition may not order in Sweden's action phase; the reply names the open phase.
    deliver(pb, mail("GAME pb1\nPOWER coalition co-secret\nreconnaitre Estland\n", sender=COALITION))
    assert "1700-autumn-actions-sweden" in last_reply(pb, COALITION)
    assert orders_of(pb, "coalition") == []

    # A misspelt territory is answered with "did you mean" and stores nothing.
    deliver(pb, mail("GAME pb1\nPOWER sweden sw-secret\nrecon Ingremanland\n", sender=SWEDEN))
    assert "did you mean Ingermanland?" in last_reply(pb, SWEDEN)
    assert orders_of(pb, "sweden") == []  # nothing accepted: nothing replaced
    # nothing stood before either: the reply does not pretend earlier orders stand
    assert ("Sweden: no order was accepted; you have no orders for this phase yet"
            in last_reply(pb, SWEDEN))
    assert "earlier orders stand" not in last_reply(pb, SWEDEN)

    deliver(pb, mail("Orders for autumn.\n\nGAME pb1\nPOWER sweden sw-secret\n"
                     "recon Ingermanland\n"
                     "move from Estland: Vellinck, Estländska to Ingermanland\n"
                     "-- \nKarl\n", sender=SWEDEN))
    assert "OK  move from Estland: Vellinck, Estländska to Ingermanland" in last_reply(pb, SWEDEN)
    assert orders_of(pb, "sweden") == [
        "recon Ingermanland\nmove from Estland: Vellinck, Estländska to Ingermanland"]
    # a later mail none of whose orders reads leaves those orders standing, and says so
    deliver(pb, mail("GAME pb1\nPOWER sweden sw-secret\nrecon Ingremanland\n", sender=SWEDEN))
    assert ("Sweden: no order was accepted, so your earlier orders stand"
            in last_reply(pb, SWEDEN))
    assert orders_of(pb, "sweden") == [
        "recon Ingermanland\nmove from Estland: Vellinck, Estländska to Ingermanland"]
    assert close_phase(pb, "pb1", phase_now(pb)[1], by="test").closed
    assert phase_now(pb)[0] == "1700-autumn-actions-coalition"

    # Reconnaissance (3.3.1) shows Sweden the blocks in Ingermanland with their strengths;
    # the Coalition only learns that two Swedish blocks moved.
    sw = reports(pb, SWEDEN)[-1]
    assert "Reconnaissance of Ingermanland:" in sw and "Pyotr I (Russian, 4)" in sw
    assert "Ingermanland: Vellinck B2 4/4" in sw and "Skåne: Karl XII A3 4/4" in sw
    co = reports(pb, COALITION)[-1]
    assert "Vellinck" not in co and "Estländska" not in co
    assert "Ingermanland : 2 blocs suédois" in co  # issue 20: agreement, not "bloc(s)"

    # The Coalition orders in French; the reply echoes them in the canonical form, in the
    # seat's language (issue 20).
    deliver(pb, mail("GAME pb1\nPOWER coalition co-secret\n"
                     "deplacer de Livland: August II vers Estland\n"
                     "pertes d'abord Kazanski\n", sender=COALITION))
    reply = last_reply(pb, COALITION)
    assert "OK  déplacer de Livland : August II vers Estland" in reply
    assert "OK  pertes d'abord Kazanski" in reply  # as written: no "vous avez écrit"
    assert "vous avez écrit" not in reply
    assert "move from" not in reply and "hits prefer" not in reply
    assert close_phase(pb, "pb1", phase_now(pb)[1], by="test").closed
    assert phase_now(pb)[0] == "1700-autumn-battles"

    # The Coalition gave a standing decision (hits prefer) with its actions: only Sweden,
    # who gave none, still has a decision to make in the battles (orders.md §5).
    with session_scope(pb.engine) as s:
        assert phase_info(current_phase(s, "pb1")).owing == ("sweden",)

    # The moderator closes the battles by mail; battle blocks are revealed to both (5.1).
    # Nobody has a forage loss to decide, so the forage phase closes at once, and the next
    # action roll owes nothing and is rolled at once.
    before, co_before = len(reports(pb, SWEDEN)), len(reports(pb, COALITION))
    deliver(pb, mail("GAME pb1\nMODERATOR mod-secret\nADJUDICATE NOW: season test\n", sender=MOD))
    assert phase_now(pb)[0] == "1700-winter-actions-coalition"
    battle = next(t for t in reports(pb, SWEDEN)[before:] if "Battle of Ingermanland" in t)
    assert "Battle of Ingermanland over after" in battle
    coalition_battle = next(t for t in reports(pb, COALITION)[co_before:] if "Vellinck" in t)
    for text in (battle, coalition_battle):
        assert "Ingermanland" in text and "Pyotr I" in text and "Vellinck" in text
    assert "Livland : Flemming B2 4/4" in reports(pb, COALITION)[-1]
    assert "Novgorod: 1 Russian block" in reports(pb, SWEDEN)[-1]  # issue 20: a real plural

    # Fog: no mail to either player ever names an enemy block it neither reconnoitred
    # nor fought this season.
    to_sweden = [t for _, t in outbox(pb, to=SWEDEN)]
    to_coalition = [t for _, t in outbox(pb, to=COALITION)]
    # the start, the action roll, each action phase, and one for battles, forage and the
    # next action roll closed together (it was one mail each: docs/reports.md)
    assert len(reports(pb, SWEDEN)) == 5
    for name in UNSEEN_BY_SWEDEN:
        assert not [t for t in to_sweden if name in t], name
    for name in UNSEEN_BY_COALITION:
        assert not [t for t in to_coalition if name in t], name


def test_a_french_seat_reads_why_an_order_is_refused_in_french(pb) -> None:  # type: ignore[no-untyped-def]
    """Refusal reasons of the rules (Why) follow the seat's language, in replies and reports."""
    deliver(pb, mail("GAME pb1\nMODERATOR mod-secret\nDICE 2 5\n", sender=MOD))
    settle(pb, "pb1", by="test")
    assert phase_now(pb)[0] == "1700-autumn-actions-coalition"
    # Repnin is a Coalition block but not in Estland (12.1 set-up): refused at once, in French.
    deliver(pb, mail("GAME pb1\nPOWER coalition co-secret\nreconnaitre Estland\n"
                     "deplacer de Estland: Repnin vers Livland\n", sender=COALITION))
    reply = last_reply(pb, COALITION)
    assert "REFUSÉ  déplacer de Estland : Repnin vers Livland : refusé : pas dans ce territoire" in reply
    assert "not in that territory" not in reply
    # Sweden, in English, is told the same kind of refusal in English.
    deliver(pb, mail("GAME pb1\nPOWER sweden sw-secret\nrecon Estland\n", sender=SWEDEN))
    assert "REFUSED  recon Estland: refused: not your action phase" in last_reply(pb, SWEDEN)


def test_the_reply_echoes_accepted_orders_in_the_seats_language(pb) -> None:  # type: ignore[no-untyped-def]
    """Issue 20: the echo of an accepted order ("OK ...") reads in the seat's language,
    whichever language the player wrote it in: the French seat reads "déplacer ..." for
    "move ...", and the same seat set to English reads "move ..." for "déplacer ..."."""
    deliver(pb, mail("GAME pb1\nMODERATOR mod-secret\nDICE 2 5\n", sender=MOD))
    settle(pb, "pb1", by="test")
    assert phase_now(pb)[0] == "1700-autumn-actions-coalition"
    deliver(pb, mail("GAME pb1\nPOWER coalition co-secret\n"
                     "move from Livland: August II to Estland\n", sender=COALITION))
    reply = last_reply(pb, COALITION)
    assert "OK  déplacer de Livland : August II vers Estland" in reply
    assert "vous avez écrit : move from Livland: August II to Estland" in reply
    # written without accents nor the French space before the colon: the same line
    deliver(pb, mail("GAME pb1\nPOWER coalition co-secret\n"
                     "deplacer de Livland: August II vers Estland\n", sender=COALITION))
    reply = last_reply(pb, COALITION)
    assert "OK  déplacer de Livland : August II vers Estland" in reply
    assert "vous avez écrit" not in reply and "move from" not in reply
    deliver(pb, mail("GAME pb1\nPOWER coalition co-secret\nSET LANGUAGE en\n", sender=COALITION))
    deliver(pb, mail("GAME pb1\nPOWER coalition co-secret\n"
                     "déplacer de Livland : August II vers Estland\n", sender=COALITION))
    reply = last_reply(pb, COALITION)
    assert "OK  move from Livland: August II to Estland" in reply
    assert "you wrote: déplacer de Livland : August II vers Estland" in reply
    assert orders_of(pb, "coalition") == ["move from Livland: August II to Estland"]


def attachment_names(row) -> list[str]:  # type: ignore[no-untyped-def]
    import email
    from email import policy

    msg = email.message_from_bytes(row.raw, policy=policy.default)
    return [p.get_filename() for p in msg.iter_attachments()]


def test_the_last_army_by_mail_to_its_victory_report(ctx) -> None:  # type: ignore[no-untyped-def]
    """3CG 12.5 (Autumn 1718 - Summer 1719) played by mail to its end: the last report
    announces the result (0.4, the scenario's table) to both players in their language,
    shows every block, and carries the whole history (every report and roll)."""
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pb5", module_name="baltica", scenario="12.5",
                    seats=SEATS, moderator_address=MOD, moderator_password="mod-secret",
                    seed=b"\x05" * 32)
    sent_recon = False
    for _ in range(60):
        with session_scope(ctx.engine) as s:
            p = current_phase(s, "pb5")
            phase_id, seq, state = p.phase_id, p.seq, p.game_state or {}
        info = BalticaModule().phase(state)
        if info.ended:
            break
        if not info.owing:
            settle(ctx, "pb5", by="test")
            continue
        if "sweden" in info.owing and not sent_recon:
            deliver(ctx, mail("GAME pb5\nPOWER sweden sw-secret\nrecon Akershus\n", sender=SWEDEN))
            assert "OK  recon Åkershus" in outbox(ctx, kind="reply", to=SWEDEN)[-1][1]
            sent_recon = True
        assert close_phase(ctx, "pb5", seq, by="test").closed, phase_id
    assert info.ended and phase_id == "1719-summer-game-over" and sent_recon
    victory = state["victory"]
    assert victory["reason"] == "scenario_end" and victory["winner"] in ("sweden", "coalition")

    row_sw, sw = outbox(ctx, kind="report", to=SWEDEN)[-1]
    row_co, co = outbox(ctx, kind="report", to=COALITION)[-1]
    winner = {"sweden": "Sweden", "coalition": "the Coalition"}[victory["winner"]]
    assert f"GAME OVER: {victory['level'].title()} Victory for {winner}" in sw
    assert "FIN DE LA PARTIE : victoire" in co and "La partie est terminée." in co
    assert "The game has ended." in sw
    # Everything is revealed: each side sees the other's blocks by name.
    assert "Enemy blocks at the end:" in sw and "Tordenskiold" in sw
    assert "Blocs ennemis à la fin :" in co and "Karl XII" in co
    for row in (row_sw, row_co):
        assert "history.html" in attachment_names(row)
    assert "history.html" in sw
    import email
    from email import policy

    msg = email.message_from_bytes(row_sw.raw, policy=policy.default)
    page = next(p for p in msg.iter_attachments() if p.get_filename() == "history.html")
    html = page.get_content()
    assert "everything revealed" in html and "1718-autumn-actions-" in html
    assert "Report for the Coalition" in html and "Report for Sweden" in html
    # The French seat's copy is in French, its accents intact: the part declares its
    # charset (it once went out as bytes without one, read as US-ASCII).
    msg = email.message_from_bytes(row_co.raw, policy=policy.default)
    page = next(p for p in msg.iter_attachments() if p.get_filename() == "history.html")
    assert page.get_content_charset() == "utf-8"
    html = page.get_content()
    assert "tout est révélé" in html and "Rapport pour la Suède" in html and "Åkershus" in html


def test_an_interphase_by_mail(pb) -> None:  # type: ignore[no-untyped-def]
    """The 1701 Interphase (0.3) by mail: both players send spending orders (the Coalition in
    French), the phase closes at its deadline, each report says what the rules let its
    reader know: the owner the block drawn from the pool (8.6), the opponent only that a
    block was deployed and where; activation rolls (10.1) and RPs (8.2) to both."""
    # The moderator winds the game on to the last phase of 1700 (SET) and closes it.
    deliver(pb, mail("GAME pb1\nMODERATOR mod-secret\nSET season = winter\nSET step = forage\n"
                     "SET blocks.karl-xii.strength = 2\n", sender=MOD))
    assert "OK" in last_reply(pb, MOD)
    assert phase_now(pb)[0] == "1700-winter-forage"  # the phase is the one the state is in
    assert close_phase(pb, "pb1", phase_now(pb)[1], by="test").closed
    assert phase_now(pb)[0] == "1700-winter-campaign"  # 3.4: Sweden does not campaign
    assert close_phase(pb, "pb1", phase_now(pb)[1], by="test").closed
    assert phase_now(pb)[0] == "1701-interphase"

    deliver(pb, mail("GAME pb1\nPOWER sweden sw-secret\nreplace Karl XII\n"
                     "build Sweden: draw 1 strength 2; deploy Svealand\n", sender=SWEDEN))
    reply = last_reply(pb, SWEDEN)
    assert "OK  replace Karl XII" in reply
    assert "OK  build Sweden: draw 1 strength 2; deploy Svealand" in reply
    deliver(pb, mail("GAME pb1\nPOWER coalition co-secret\n"
                     "construire Saxe : tirer 1 ; déployer Lausitz\n"
                     "réformer Repnin\n", sender=COALITION))
    reply = last_reply(pb, COALITION)
    assert "OK  construire Saxe : tirer 1 ; déployer Lausitz" in reply
    assert "réformes militaires russes" not in reply  # refusals are in the reply's language
    assert "aucune armée russe perdue en bataille" in reply
    assert close_phase(pb, "pb1", phase_now(pb)[1], by="test").closed
    assert phase_now(pb)[0].startswith("1701-spring-")

    sw = next(t for t in reports(pb, SWEDEN) if "--- 1701-interphase ---" in t)
    co = next(t for t in reports(pb, COALITION) if "--- 1701-interphase ---" in t)
    assert "Karl XII receives a replacement step: strength 4" in sw
    assert "Sweden receives 40 RPs (RP level 40) (8.2)." in sw
    assert "La Suède reçoit 40 PR (niveau 40) (8.2)." in co
    built = re.search(r"^(.+) is built for Sweden in (.+) at strength (\d)", sw, re.M)
    assert built is not None and built.group(3) == "2"  # "strength 2" (8.6)
    assert "Jet d’activation pour le Danemark" in co and "Activation roll for Denmark" in sw
    assert f"La Suède déploie un nouveau bloc suédois en {built.group(2)}." in co
    assert "La Suède ajoute un pas de remplacement à un bloc en Skåne." in co
    # The block Sweden drew, and Karl XII's new strength, never reach the Coalition.
    to_coalition = [without_places(t) for _, t in outbox(pb, to=COALITION)]
    assert not [t for t in to_coalition if built.group(1) in t]
    assert not [t for t in to_coalition if "Karl XII" in t]
    # The Coalition's draw is as private: Sweden learns only that a new block stands there.
    drawn = re.search(r"^(.+) est construit pour la Saxe en (.+) avec", co, re.M)
    assert drawn is not None
    assert re.search(rf"^The Coalition deploys a new \w+ block in {drawn.group(2)}\.$", sw, re.M)
    assert not [t for _, t in outbox(pb, to=SWEDEN) if drawn.group(1) in without_places(t)]


def without_places(text: str) -> str:
    """A report without territory and sea names (a block may share its territory's name,
    as Savolax does)."""
    board = BalticaModule().board
    for place in [*board.territories.values(), *board.seas.values()]:
        text = text.replace(place.name, "")
    return text
