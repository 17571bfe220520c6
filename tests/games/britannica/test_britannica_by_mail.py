"""One full Pax Britannica game turn of seven powers played by mail through the real pipeline.

Movement, Negotiation, the three Congress of Europe phases, the War phase and a war
round, then the next turn's Random Events, Administration and Minor Powers: every mail
goes through ``store_inbound`` + ``handle_inbound``, phases close through
``gm.service.adjudicate``, and the assertions read the mails players would receive.
"""

from __future__ import annotations

import pytest

from gm.db.engine import session_scope
from gm.service.adjudicate import close_phase
from gm.service.games import SeatSpec, create_game, current_phase
from tests.pipeline.conftest import deliver, mail, outbox

POWERS = ("britain", "france", "germany", "italy", "japan", "russia", "usa")
ADDR = {p: f"{p}@example.org" for p in POWERS}
MOD = "mod@example.org"
SEATS = [SeatSpec(p, ADDR[p], password=f"{p}-pw", language="fr" if p == "france" else "en")
         for p in POWERS]


@pytest.fixture
def pax(ctx):  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pax1", module_name="britannica", scenario="1880", seats=SEATS,
                    moderator_address=MOD, moderator_password="mod-secret", seed=b"\x05" * 32,
                    play_out=True)  # the 1880 set-up's GM phases, as gm game new plays them
    return ctx


def phase_now(ctx) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        p = current_phase(s, "pax1")
        return p.phase_id, p.seq


def send(ctx, power: str, *lines: str) -> str:  # type: ignore[no-untyped-def]
    deliver(ctx, mail("GAME pax1\nPOWER {} {}-pw\n{}\n".format(power, power, "\n".join(lines)),
                      sender=ADDR[power]))
    return outbox(ctx, kind="reply", to=ADDR[power])[-1][1]


def close(ctx) -> str:  # type: ignore[no-untyped-def]
    assert close_phase(ctx, "pax1", phase_now(ctx)[1], by="test").closed
    return phase_now(ctx)[0]


def report(ctx, power: str) -> str:  # type: ignore[no-untyped-def]
    return outbox(ctx, kind="report", to=ADDR[power])[-1][1]


def test_a_full_game_turn_of_seven_powers_by_mail(pax) -> None:  # type: ignore[no-untyped-def]
    assert phase_now(pax)[0] == "1880-movement"
    # Movement / Status Change: Britain places a Protectorate over Italy's Influence in Eritrea.
    reply = send(pax, "britain", "place protectorate in Eritrea", "move army 3 from home to Eritrea")
    assert "OK  place protectorate in Eritrea" in reply
    assert "did you mean" in send(pax, "italy", "buy army 1", "place influence in Tunsi")
    send(pax, "france", "acheter armee 1")
    send(pax, "germany", "buy fleet 1", "FOR austria-hungary", "buy army 1")
    send(pax, "japan", "place interest in Korea unless russia places control in Korea")
    send(pax, "russia", "buy army 1")
    # The USA sends nothing: it buys and places nothing (default).
    deliver(pax, mail("GAME pax1\nMODERATOR mod-secret\nDICE 6\n", sender=MOD))  # colonial combat
    assert close(pax) == "1880-negotiation"
    for p in POWERS:
        r = report(pax, p)
        assert "==== gm report pax1 1880-negotiation" in r
        assert ("Casus Belli against Britain in Eritrea" in r
                or "casus belli contre la Grande-Bretagne en Érythrée" in r), r
    assert "Ce qui s'est passé" in report(pax, "france") and "acheter" not in report(pax, "france")
    assert "Britain, your units:" in report(pax, "britain") and "Britain, your units:" not in report(pax, "italy")
    assert "Germany buys a fleet of strength 1." in report(pax, "usa")

    # Negotiation: Italy calls a Congress of Europe in Russia.
    assert "OK  congress in russia" in send(pax, "italy", "congress in Russia")
    assert close(pax) == "1880-congress"
    assert "Italy calls a Congress of Europe; it meets in Russia" in report(pax, "japan")

    # Congress: Britain proposes; Germany attends and objects to the USA, which therefore
    # may not vote (not a party, not host, not invited unanimously).
    send(pax, "britain", 'propose "Eritrea to Britain": italy none in Eritrea')
    assert "OK  object to usa" in send(pax, "germany", "attend\nobject to USA")
    send(pax, "usa", "attend")
    assert close(pax) == "1880-congress-vote"
    r = report(pax, "usa")
    assert "members Britain, Germany, Italy, Russia" in r and '"Eritrea to Britain"' in r

    # Secret ballot: 2 for, 2 against, the host (Russia) voted for: passed (host's tie-break).
    for p, v in (("britain", "yes"), ("germany", "no"), ("italy", "no"), ("russia", "yes")):
        assert f'OK  vote "Eritrea to Britain" {v}' in send(pax, p, f'vote "Eritrea to Britain" {v}')
    refused = send(pax, "usa", 'vote "Eritrea to Britain" yes')
    assert "OK  vote" not in refused  # the USA may not vote (Germany objected)
    # the reply names who votes (public: the report names the members), never how
    assert not any(f"{p} {v}" in refused for p in ("Germany", "Britain", "Italy", "Russia")
                   for v in ("yes", "no"))
    assert not [t for _, t in outbox(pax, to=ADDR["japan"]) if "Germany no" in t]  # secret until the deadline
    assert close(pax) == "1880-congress-sign"
    for p in POWERS:
        assert "Ballot on \"Eritrea to Britain\": 2 for, 2 against" in report(pax, p) or \
            "Scrutin sur « Eritrea to Britain » : 2 pour, 2 contre" in report(pax, p)
    assert "Germany no" in report(pax, "japan") and "passed" in report(pax, "japan")

    # Italy defies Congress: the signers have a Casus Belli against Italy, tensions rise.
    send(pax, "italy", 'defy "Eritrea to Britain"')
    assert close(pax) == "1880-war"
    r = report(pax, "britain")
    assert "defied by Italy" in r and "Britain has a Casus Belli against Italy (defiance of Congress)" in r

    # War: Britain declares war on Italy; one round, then peace by both.
    assert "OK  declare war on italy" in send(pax, "britain", "declare war on Italy")
    phase = close(pax)
    assert phase.startswith("1880-war-1-round-1-")
    assert "Britain declares war on Italy (war 1)." in report(pax, "france") or \
        "La Grande-Bretagne entre en guerre contre l'Italie (guerre 1)." in report(pax, "france")
    if phase.endswith("-first"):
        phase = close(pax)
    assert phase == "1880-war-1-round-1-second"
    send(pax, "britain", "peace")
    send(pax, "italy", "peace")
    assert close(pax) == "1884-movement"
    r = report(pax, "italy")
    assert "War 1 ends: peace by agreement." in r and "The 1884 turn begins." in r
    assert "Administration of Italy" in r and "Administration of Britain" not in r
    assert "Italy buys" in r and "Movement / Status Change" in r
    assert "Administration de la France" in report(pax, "france")
    # Every seat received a report for each of the eight phases that closed.
    for p in POWERS:
        assert len(outbox(pax, kind="report", to=ADDR[p])) >= 8


def test_the_reply_echoes_accepted_orders_in_the_seats_language(pax) -> None:  # type: ignore[no-untyped-def]
    """Issue 20: the echo of an accepted order ("OK ...") reads in the seat's language,
    whichever language the player wrote it in; the French echo is the grammar's French, so
    it parses again."""
    reply = send(pax, "france", "buy army 1", "acheter flotte 1")
    assert "OK  acheter armée 1" in reply and "vous avez écrit : buy army 1" in reply
    assert "OK  acheter flotte 1" in reply
    assert "buy army" not in reply.replace("vous avez écrit : buy army 1", "")
    reply = send(pax, "britain", "acheter armee 1", "buy fleet 1")
    assert "OK  buy army 1" in reply and "you wrote: acheter armee 1" in reply
    assert "OK  buy fleet 1" in reply and "acheter" not in reply.replace("acheter armee 1", "")


def test_an_order_may_name_a_place_by_its_french_name(pax) -> None:  # type: ignore[no-untyped-def]
    """Issue 20: an order may name an area by its French name (map.toml words.fr.name), in
    any seat language, with or without accents: it stands for the same area as in English."""
    reply = send(pax, "italy", "place influence in Égypte")
    assert "OK  place influence in Egypt" in reply
    reply = send(pax, "britain", "place influence in Perse", "place influence in Indes neerlandaises")
    assert "REFUSED  place influence in Persia: refused: you already have a marker there" in reply
    assert "place influence in Dutch East Indies: refused: the status rules forbid" in reply
    reply = send(pax, "france", "placer influence en Baloutchistan")
    assert "placer influence dans Baloutchistan" in reply and "inconnu" not in reply
