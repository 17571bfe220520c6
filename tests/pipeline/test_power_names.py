"""A player reads the powers by their names, in the seat's language, never by their ids.

Every player-facing text that names a power gets its name from one place,
``GameModule.power_name`` (the games' data: Pax Britannica's rules.toml ``words``, Pax
Baltica's nations.toml, Pax Viking's rules.toml ``colors``). A French seat read "Vous
jouez france", "En attente de : britain, ...", "vouliez-vous dire germany ?", "congrès à
germany", "Vous jouez désormais france", "Press from france to britain:"; an English seat
"You play usa", "Waiting for: ..., usa". The sign-on lines (POWER france ...) keep the ids:
they are what the player types.
"""

from __future__ import annotations

import pytest

from gm.db.engine import session_scope
from gm.service.adjudicate import close_phase
from gm.service.games import SeatSpec, create_game, current_phase
from gm.service.history import history_rows, history_text
from tests.games.viking.conftest import start_pv
from tests.games.viking.test_viking_by_mail import ADDR as PV_ADDR
from tests.games.viking.test_viking_by_mail import SEATS as PV_SEATS
from tests.pipeline.conftest import deliver, mail, outbox

POWERS = ("britain", "france", "germany", "italy", "japan", "russia", "usa")
ADDR = {p: f"{p}@example.org" for p in POWERS}
FRENCH = ("france", "usa")
MOD = "mod@example.org"


@pytest.fixture
def pax(ctx):  # type: ignore[no-untyped-def]
    """Pax Britannica 1880, France and the USA played in French, the others in English."""
    seats = [SeatSpec(p, ADDR[p], password=f"{p}-pw", language="fr" if p in FRENCH else "en")
             for p in POWERS]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pax1", module_name="britannica", scenario="1880",
                    seats=seats, moderator_address=MOD, moderator_password="mod-secret",
                    seed=b"\x05" * 32, play_out=True)
    return ctx


def _send(ctx, power: str, *lines: str) -> str:  # type: ignore[no-untyped-def]
    deliver(ctx, mail("GAME pax1\nPOWER {0} {0}-pw\n{1}\n".format(power, "\n".join(lines)),
                      sender=ADDR[power]))
    return outbox(ctx, kind="reply", to=ADDR[power])[-1][1]


def _mails(ctx, kind: str, power: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [text for _, text in outbox(ctx, kind=kind, to=ADDR[power])]


def test_the_welcome_names_the_seat_and_the_others_by_their_names(pax) -> None:  # type: ignore[no-untyped-def]
    """It said "Vous jouez france." and "Les autres sièges : britain, germany, ..."."""
    [fr] = _mails(pax, "welcome", "france")
    assert "Bienvenue dans la partie pax1. Vous jouez la France." in fr, fr
    assert "Les autres sièges : Grande-Bretagne, Allemagne, Italie, Japon, Russie, États-Unis." in fr
    assert "POWER france france-pw" in fr  # the sign-on keeps the id the player types
    [usa] = _mails(pax, "welcome", "usa")
    assert "Vous jouez les États-Unis." in usa
    [en] = _mails(pax, "welcome", "britain")
    assert "Welcome to game pax1. You play Britain." in en
    assert "The other seats: France, Germany, Italy, Japan, Russia, U.S.A." in en
    [(row, _)] = outbox(pax, kind="welcome", to=ADDR["usa"])
    assert row.subject == "[pax1] bienvenue : vous jouez les États-Unis"


def test_status_and_list_name_the_powers(pax) -> None:  # type: ignore[no-untyped-def]
    """STATUS/ORDERS and LIST said "puissance france", "france a pour ...", "En attente de :
    britain, france, ..., usa"."""
    fr = _send(pax, "france", "ORDRES", "LISTE")
    assert "Partie pax1, puissance France, phase 1880-movement" in fr, fr
    assert "France a pour 1880-movement : aucun ordre" in fr
    assert ("En attente de : Grande-Bretagne, France, Allemagne, Italie, Japon, Russie, "
            "États-Unis") in fr
    assert "Partie pax1 : Pax Britannica, scénario 1880" in fr
    en = _send(pax, "usa", "acheter armée 1") and _send(pax, "britain", "ORDERS", "LIST")
    assert "Game pax1, power Britain, phase 1880-movement" in en, en
    assert "Britain has on file for 1880-movement: no orders" in en
    assert "Orders in: U.S.A." in en
    assert "Waiting for: Britain, France, Germany, Italy, Japan, Russia, U.S.A.\n" in en


def test_orders_stored_are_counted_under_the_powers_name(pax) -> None:  # type: ignore[no-untyped-def]
    fr = _send(pax, "usa", "acheter armée 1")
    assert "États-Unis : 1 ordre enregistré" in fr, fr
    assert "Britain: 1 order stored" in _send(pax, "britain", "buy army 1")


def test_press_says_who_it_is_from_and_to_in_the_readers_language(pax) -> None:  # type: ignore[no-untyped-def]
    """The press mail said "Press from britain to france:" to a French seat; each recipient
    now reads it in its language with the powers' names. The game's history still reads
    the ids from the header line."""
    _send(pax, "britain", "PRESS TO france, usa", "The Channel is ours.", "ENDPRESS")
    [fr] = _mails(pax, "press", "france")
    assert "Message de la part de : la Grande-Bretagne ; destinataires : la France, les États-Unis" in fr
    assert "The Channel is ours." in fr
    [(row, _)] = outbox(pax, kind="press", to=ADDR["usa"])
    assert row.subject == "[pax1] message de la part de : la Grande-Bretagne"
    _send(pax, "france", "PRESSE A tous", "Vive la République.", "FINPRESSE")
    [en] = _mails(pax, "press", "britain")
    assert "Press from France to all:" in en, en
    reply = outbox(pax, kind="reply", to=ADDR["france"])[-1][1]
    assert ("message envoyé à la Grande-Bretagne, l'Allemagne, l'Italie, le Japon, la Russie, "
            "les États-Unis\n") in reply, reply  # each power once
    with session_scope(pax.engine) as s:
        text = history_text(history_rows(s, "pax1"))
    assert "press from britain to france, usa: The Channel is ours." in text, text
    assert "press from france to all: Vive la République." in text


def test_a_misspelt_power_is_offered_by_its_name(pax) -> None:  # type: ignore[no-untyped-def]
    """It said "vouliez-vous dire germany ?"."""
    with session_scope(pax.engine) as s:
        seq = current_phase(s, "pax1").seq
    assert close_phase(pax, "pax1", seq, by="test").closed  # to 1880-negotiation
    fr = _send(pax, "france", "congrès en Allmagne")
    assert "vouliez-vous dire Allemagne ?" in fr, fr
    assert "did you mean Russia or U.S.A.?" in _send(pax, "britain", "congress in Rusia")


def test_an_order_naming_a_power_is_said_back_with_its_french_name(pax) -> None:  # type: ignore[no-untyped-def]
    """Pax Britannica's echo said "congrès à germany", "déclarer la guerre à russia"; the
    French name it now says reads back as the same power (the reply's line re-parses)."""
    with session_scope(pax.engine) as s:
        seq = current_phase(s, "pax1").seq
    assert close_phase(pax, "pax1", seq, by="test").closed  # to 1880-negotiation
    fr = _send(pax, "france", "congres en Allemagne")  # refused (no Casus Belli), said back
    assert "REFUSÉ  congrès à Allemagne : refusé" in fr, fr
    again = _send(pax, "france", "congrès à Allemagne")
    assert "REFUSÉ  congrès à Allemagne : refusé" in again and "??" not in again


def test_replace_tells_everyone_by_the_powers_name(pax) -> None:  # type: ignore[no-untyped-def]
    """REPLACE said "Vous jouez désormais france", "france is now played by a new player"."""
    deliver(pax, mail("GAME pax1\nMODERATOR mod-secret\nREPLACE POWER usa WITH sam@example.org\n",
                      sender=MOD))
    [(row, new)] = outbox(pax, kind="welcome", to="sam@example.org")
    assert "Vous jouez désormais les États-Unis dans la partie pax1." in new, new
    assert "POWER usa " in new
    [fr] = _mails(pax, "notice", "france")
    assert "Un nouveau joueur joue désormais les États-Unis dans la partie pax1." in fr, fr
    [en] = _mails(pax, "notice", "britain")
    assert "A new player now plays U.S.A. in game pax1." in en, en
    [gone] = _mails(pax, "notice", "usa")
    assert "Vous ne jouez plus les États-Unis dans la partie pax1" in gone


def test_pax_baltica_names_sweden_and_the_coalition(ctx) -> None:  # type: ignore[no-untyped-def]
    """Pax Baltica: "Vous jouez sweden.", "Les autres sièges : coalition."."""
    seats = [SeatSpec("sweden", "karl@example.org", password="sw", language="fr"),
             SeatSpec("coalition", "peter@example.org", password="co")]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="lb1", module_name="baltica", scenario="12.5", seats=seats,
                    moderator_address=MOD, moderator_password="mod-secret", seed=b"\x05" * 32)
    [(_, fr)] = outbox(ctx, kind="welcome", to="karl@example.org")
    assert "Vous jouez la Suède." in fr and "Les autres sièges : Coalition." in fr, fr
    [(_, en)] = outbox(ctx, kind="welcome", to="peter@example.org")
    assert "You play the Coalition." in en and "The other seats: Sweden." in en, en
    deliver(ctx, mail("PARTIE lb1\nPUISSANCE sweden sw\nPRESSE A coalition\nHej.\nFINPRESSE\n",
                      sender="karl@example.org"))
    [(_, press)] = outbox(ctx, kind="press", to="peter@example.org")
    assert "Press from Sweden to the Coalition:" in press, press


def test_pax_viking_names_the_players_by_the_colour_the_reader_sees(ctx) -> None:  # type: ignore[no-untyped-def]
    """Pax Viking: "Vous jouez blue.", "Les autres sièges : red, green.", "vouliez-vous dire
    green ?" to the French seat (blue)."""
    start_pv(ctx, PV_SEATS)
    [(_, fr)] = outbox(ctx, kind="welcome", to=PV_ADDR["blue"])
    assert "Vous jouez Bleu." in fr and "Les autres sièges : Rouge, Vert." in fr, fr
    [(_, en)] = outbox(ctx, kind="welcome", to=PV_ADDR["red"])
    assert "You play red." in en and "The other seats: blue, green." in en
    deliver(ctx, mail("GAME pv1\nPOWER blue blue-pw\nLISTE\n", sender=PV_ADDR["blue"]))
    reply = outbox(ctx, kind="reply", to=PV_ADDR["blue"])[-1][1]
    assert "Partie pv1, puissance Bleu" in reply and "En attente de : Rouge" in reply, reply


def test_a_reminder_names_the_power(ctx) -> None:  # type: ignore[no-untyped-def]
    """The reminder said "Rappel : sweden n'a pas d'ordres" and "If no orders arrive by
    then, coalition gets the game's default orders"."""
    from datetime import timedelta

    from gm.schedule.sweep import sweep

    seats = [SeatSpec("sweden", "karl@example.org", password="sw", language="fr"),
             SeatSpec("coalition", "peter@example.org", password="co")]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="lb1", module_name="baltica", scenario="12.5", seats=seats,
                    moderator_address=MOD, moderator_password="mod-secret", seed=b"\x05" * 32,
                    settings={"deadlines": {"default": "72h", "reminders": ["24h"]}})
    deliver(ctx, mail("GAME lb1\nMODERATOR mod-secret\nDICE 5 2\n", sender=MOD))  # Sweden first
    from gm.service.adjudicate import settle

    settle(ctx, "lb1", by="test")
    with session_scope(ctx.engine) as s:
        deadline = current_phase(s, "lb1").deadline
    assert deadline is not None
    ctx.clock.set(deadline - timedelta(hours=24))
    assert sweep(ctx).reminders
    [(_, fr)] = outbox(ctx, kind="reminder", to="karl@example.org")
    assert "Rappel : la Suède n'a pas d'ordres pour" in fr, fr
    assert "PUISSANCE sweden" in fr  # what the player types: the id, after the French keyword
