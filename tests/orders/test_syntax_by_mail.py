"""Issue 17 class 6: the syntax the contract promises, by mail through the real pipeline.

French keywords with English connectors on one line, treaty names in curly or angle
quotes and with apostrophes, ``FOR`` for a power a seat may act for, ``propose`` in the
Congress, ``RELEASE: reason`` as HELP shows it, and ``NO WAIT`` closing an all-READY
phase at once.
"""

from __future__ import annotations

from typing import Any

import pytest

from gm.db.engine import session_scope
from gm.service.adjudicate import close_phase
from gm.service.games import SeatSpec, create_game, current_phase
from tests.pipeline.conftest import deliver, mail, outbox

SWEDEN, COALITION, MOD = "anna@example.se", "boris@example.ru", "mod@example.org"
POWERS = ("britain", "france", "germany", "italy", "japan", "russia", "usa")


def _phase(ctx: Any, game: str) -> tuple[str, int]:
    with session_scope(ctx.engine) as s:
        p = current_phase(s, game)
        return p.phase_id, p.seq


def _baltica(ctx: Any, **settings: Any) -> None:
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="b1", module_name="baltica", scenario="12.1",
                    seats=[SeatSpec("sweden", SWEDEN, password="sw-pw"),
                           SeatSpec("coalition", COALITION, password="co-pw")],
                    moderator_address=MOD, moderator_password="mod-pw", seed=b"\x42" * 32,
                    settings=settings)
    deliver(ctx, mail("GAME b1\nMODERATOR mod-pw\nDICE 5 2\n", sender=MOD))
    assert close_phase(ctx, "b1", _phase(ctx, "b1")[1], by="test").closed
    assert _phase(ctx, "b1")[0] == "1700-autumn-actions-sweden"


def _send(ctx: Any, sender: str, body: str) -> str:
    deliver(ctx, mail(body, sender=sender))
    return outbox(ctx, kind="reply", to=sender)[-1][1]


def test_french_keywords_with_english_connectors_and_the_reverse(ctx: Any) -> None:
    _baltica(ctx)
    reply = _send(ctx, SWEDEN, "GAME b1\nPOWER sweden sw-pw\n"
                  "déplacer de Skåne : Karl XII to Småland via Östergötland force\n"
                  "move from Skåne: Dalregementet vers Småland\n"
                  "reconnaître Livland if round >= 1\n"
                  "recon Livland si round >= 1\n")
    assert "OK  move from Skåne: Karl XII to Småland via Östergötland force" in reply
    assert "OK  move from Skåne: Dalregementet to Småland" in reply
    assert reply.count("OK  recon Livland if round >= 1") == 2
    assert "??" not in reply


def test_a_condition_wrapped_onto_its_own_line_is_never_left_behind(ctx: Any) -> None:
    """§1: "A line that begins with `unless`, `and`, `or`, `then`, `via`, `with`, `force` or
    `;` continues the line before it (no order starts with those words). A conditional
    order is never carried out without its condition." The reply echoes the order with its
    condition, on the order's line number."""
    _baltica(ctx)
    reply = _send(ctx, SWEDEN, "GAME b1\nPOWER sweden sw-pw\n"
                  "move from Skåne: Karl XII to Småland\nunless round >= 3\n"
                  "recon Livland\nif round >= 1\n")
    assert "3  OK  move from Skåne: Karl XII to Småland unless round >= 3" in reply, reply
    assert "5  OK  recon Livland if round >= 1" in reply
    assert "??" not in reply


def test_a_misspelt_name_is_answered_with_the_nearest_names(ctx: Any) -> None:
    """§2: "each line not accepted, with the reason and, where a name was misspelt, the
    nearest names ("did you mean Skåne?")"; §3: names match "after transliteration to
    ASCII" and "A unique prefix of at least 3 letters is accepted"."""
    _baltica(ctx)
    reply = _send(ctx, SWEDEN, "GAME b1\nPOWER sweden sw-pw\nrecon Livlnd\n"
                  "move from Skane: Karl 12 to Smal\n")
    assert "3  ??  recon Livlnd: unknown territory 'Livlnd': did you mean Livland?" in reply, reply
    assert "4  OK  move from Skåne: Karl XII to Småland" in reply


def test_no_wait_closes_an_all_ready_phase_at_once(ctx: Any) -> None:
    _baltica(ctx, deadlines={"early": True})
    _send(ctx, SWEDEN, "GAME b1\nPOWER sweden sw-pw\nrecon Livland\nREADY\nWAIT\n")
    assert _phase(ctx, "b1")[0] == "1700-autumn-actions-sweden"  # WAIT holds the game
    reply = _send(ctx, SWEDEN, "GAME b1\nPOWER sweden sw-pw\nNO WAIT\n")
    assert "no longer waiting" in reply
    assert _phase(ctx, "b1")[0] == "1700-autumn-actions-coalition"


def test_release_with_a_reason_as_help_shows_it(ctx: Any) -> None:
    _baltica(ctx, preview=True)
    assert "RELEASE [PRIVATE] [: reason]" in _send(ctx, MOD, "GAME b1\nMODERATOR mod-pw\nHELP release\n")
    deliver(ctx, mail("GAME b1\nPOWER sweden sw-pw\nrecon Livland\n", sender=SWEDEN))
    assert close_phase(ctx, "b1", _phase(ctx, "b1")[1], by="test").closed
    reply = _send(ctx, MOD, "GAME b1\nMODERATOR mod-pw\nRELEASE: checked the battle\n")
    assert "held reports released" in reply and "??" not in reply
    assert outbox(ctx, kind="report", to=COALITION)


@pytest.fixture
def pax(ctx: Any) -> Any:
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pax1", module_name="britannica", scenario="1880",
                    seats=[SeatSpec(p, f"{p}@example.org", password=f"{p}-pw") for p in POWERS],
                    moderator_address=MOD, moderator_password="mod-pw", seed=b"\x05" * 32,
                    play_out=True)  # the 1880 set-up's GM phases, as gm game new
    return ctx


def _pax(ctx: Any, power: str, *lines: str) -> str:
    return _send(ctx, f"{power}@example.org",
                 "GAME pax1\nPOWER {} {}-pw\n{}\n".format(power, power, "\n".join(lines)))


def test_germany_orders_for_austria_hungary_with_for(pax: Any) -> None:
    reply = _pax(pax, "germany", "FOR austria-hungary", "place influence in Rumania",
                 "FOR germany", "buy army 1")
    assert "OK  place influence in Rumania" in reply and "OK  buy army 1" in reply, reply
    assert "REFUSED" not in reply and "??" not in reply


def test_transfer_goes_from_germany_to_austria_hungary_only(pax: Any) -> None:
    """orders.md §6: "`transfer 20 to austria-hungary` # Germany's treasury to
    Austria-Hungary only": to any other power, or back from Austria-Hungary, refused."""
    reply = _pax(pax, "germany", "transfer 5 to italy", "transfer 5 to austria-hungary",
                 "FOR austria-hungary", "transfer 2 to germany")
    only = "refused: only Germany may transfer money, and only to Austria-Hungary"
    assert f"3  REFUSED  transfer 5 to italy: {only}" in reply, reply
    assert "4  OK  transfer 5 to austria-hungary" in reply
    assert f"6  REFUSED  transfer 2 to germany: {only}" in reply


def test_treaties_in_curly_and_angle_quotes_with_apostrophes(pax: Any) -> None:
    assert close_phase(pax, "pax1", _phase(pax, "pax1")[1], by="test").closed  # to negotiation
    reply = _pax(pax, "britain",
                 "treaty ‘Entente d’Afrique’ public between britain, france: France takes Tunis",
                 "sign treaty “Entente d’Afrique”")
    assert 'OK  treaty "Entente d\'Afrique" public between britain, france' in reply, reply
    assert 'OK  sign treaty "Entente d\'Afrique"' in reply
    reply = _pax(pax, "france", "signer traité « Entente d'Afrique »")
    assert 'OK  sign treaty "Entente d\'Afrique"' in reply, reply
    assert close_phase(pax, "pax1", _phase(pax, "pax1")[1], by="test").closed
    assert "Entente d'Afrique" in outbox(pax, kind="report", to="france@example.org")[-1][1]


def test_propose_and_attend_with_the_call_for_a_congress(pax: Any) -> None:
    """A proposal given in the Negotiation phase, with the call, is put to the Congress: no
    extra round of mail (the Congress rules allow a proposal once a Congress is called)."""
    _pax(pax, "britain", "place protectorate in Eritrea", "move army 3 from home to Eritrea")
    assert close_phase(pax, "pax1", _phase(pax, "pax1")[1], by="test").closed
    reply = _pax(pax, "italy", "congress in Russia", 'propose "Eritrea free": italy keeps Eritrea')
    assert 'OK  propose "Eritrea free": italy keeps Eritrea' in reply, reply
    reply = _pax(pax, "germany", "attend")
    assert "OK  attend" in reply, reply
    assert close_phase(pax, "pax1", _phase(pax, "pax1")[1], by="test").closed
    assert _phase(pax, "pax1")[0] == "1880-congress"
    assert close_phase(pax, "pax1", _phase(pax, "pax1")[1], by="test").closed  # nobody writes
    assert _phase(pax, "pax1")[0] == "1880-congress-vote"
    report = outbox(pax, kind="report", to="usa@example.org")[-1][1]
    assert '"Eritrea free"' in report and "members Britain, Germany, Italy, Russia" in report, report


def test_a_proposal_without_a_congress_is_told_it_lapsed(pax: Any) -> None:
    _pax(pax, "britain", "place protectorate in Eritrea", "move army 3 from home to Eritrea")
    assert close_phase(pax, "pax1", _phase(pax, "pax1")[1], by="test").closed
    assert "OK  propose" in _pax(pax, "italy", 'propose "Peace": italy keeps Eritrea')
    # issue 17 class 4: an area no Casus Belli is about can never be settled: refused at once
    assert "refused: a resolution may only settle the areas in dispute" in _pax(
        pax, "italy", 'ADD\npropose "Egypt": italy keeps Egypt')
    assert close_phase(pax, "pax1", _phase(pax, "pax1")[1], by="test").closed
    assert "no Congress of Europe was called" in outbox(pax, kind="report",
                                                       to="italy@example.org")[-1][1]


def test_propose_in_the_congress(pax: Any) -> None:
    _pax(pax, "britain", "place protectorate in Eritrea", "move army 3 from home to Eritrea")
    assert close_phase(pax, "pax1", _phase(pax, "pax1")[1], by="test").closed
    _pax(pax, "italy", "congress in Russia")
    assert close_phase(pax, "pax1", _phase(pax, "pax1")[1], by="test").closed
    assert _phase(pax, "pax1")[0] == "1880-congress"
    reply = _pax(pax, "britain", "propose 1: Britain keeps Eritrea; Italy takes Eritrea")
    assert "OK  propose 1: britain keeps Eritrea; italy takes Eritrea" in reply, reply
    reply = _pax(pax, "britain", "propose 2: France takes Tunis")  # Tunis: no dispute
    assert "refused: a resolution may only settle the areas in dispute" in reply, reply
    reply = _pax(pax, "russia", "proposer « Paix » : italy none in Eritrea")
    assert 'OK  propose "Paix": italy none in Eritrea' in reply, reply


def test_a_vote_is_never_conditional(pax: Any) -> None:
    """orders.md §6: "`vote 1 yes` # votes are secret until the deadline and never
    conditional": a conditional vote is refused when the mail arrives, a plain one kept."""
    _pax(pax, "britain", "place protectorate in Eritrea", "move army 3 from home to Eritrea")
    assert close_phase(pax, "pax1", _phase(pax, "pax1")[1], by="test").closed
    _pax(pax, "italy", "congress in Russia", 'propose "Eritrea free": italy keeps Eritrea')
    _pax(pax, "germany", "attend")
    for _ in ("negotiation", "congress"):
        assert close_phase(pax, "pax1", _phase(pax, "pax1")[1], by="test").closed
    assert _phase(pax, "pax1")[0] == "1880-congress-vote"
    reply = _pax(pax, "italy", 'vote "Eritrea free" yes if funds >= 1',
                 'vote "Eritrea free" yes unless funds >= 1000')
    assert '3  REFUSED  vote "Eritrea free" yes if funds >= 1: refused:' in reply, reply
    assert '4  REFUSED  vote "Eritrea free" yes unless funds >= 1000: refused:' in reply
    assert "no order was accepted" in reply
    assert 'OK  vote "Eritrea free" yes' in _pax(pax, "italy", 'vote "Eritrea free" yes')


TOPICS = ("conditions", "move", "press", "absent")


@pytest.mark.parametrize("topic", TOPICS)
def test_help_topic_for_baltica_by_mail(ctx: Any, topic: str) -> None:
    _baltica(ctx)
    reply = _send(ctx, SWEDEN, f"GAME b1\nPOWER sweden sw-pw\nHELP {topic}\n")
    assert f"HELP {topic}" in reply and "Examples:" in reply, reply
    assert {"conditions": "strength of Karl XII", "move": "move from Skåne: Karl XII",
            "press": "ENDPRESS", "absent": "ABSENT 2026-12-20 TO 2027-01-03"}[topic] in reply


@pytest.mark.parametrize("topic", TOPICS)
def test_help_topic_for_britannica_by_mail(pax: Any, topic: str) -> None:
    reply = _pax(pax, "germany", f"HELP {topic}")
    assert f"HELP {topic}" in reply and "Examples:" in reply, reply
    assert {"conditions": "italy places no control in Tunis",
            "move": "move army 3 from home to Tunis via Mediterranean",
            "press": "ENDPRESS", "absent": "ABSENT 2026-12-20 TO 2027-01-03"}[topic] in reply


def test_britannica_help_lists_every_order_with_its_syntax(pax: Any) -> None:
    reply = _pax(pax, "germany", "HELP")
    for syntax in ("buy army|fleet STRENGTH", "place KIND in AREA", "congress in|at SITE",
                   "propose N|\"TITLE\"", "declare war on POWER", "FOR POWER"):
        assert syntax in reply, syntax
    assert "HELP <topic>" in reply


def test_help_in_french_for_each_order_of_viking() -> None:
    from gm.games.viking.module import VikingModule

    for order in ("journey", "voyager", "play", "jouer", "invest", "parley", "conditions"):
        text = VikingModule().help("fr", order)
        assert text.startswith("AIDE ") and "Exemples :" in text, (order, text)


def test_every_order_of_every_game_has_a_help_topic_with_examples() -> None:
    from gm.games.baltica.parsing import GRAMMAR as BALTICA_GRAMMAR
    from gm.games.britannica.parser import command_words
    from gm.games.viking.parsing import GRAMMAR as VIKING_GRAMMAR
    from gm.orders.help import commands_of, find_topic, topics_of

    for grammar in (BALTICA_GRAMMAR, VIKING_GRAMMAR):
        topics = topics_of(grammar.name)
        for rule in commands_of(grammar.parser(), "order"):
            found = find_topic(topics, rule)
            assert found is not None and found[1].get("examples"), (grammar.name, rule)
    topics = topics_of("britannica")
    for word in command_words():
        if word in ("if", "si", "stay", "rester", "s'opposer", "sign", "signer", "marchande"):
            continue
        assert find_topic(topics, word) is not None, word


def test_orders_md_2_a_command_with_letters_after_it_is_an_unknown_command_with_the_nearest(
        ctx: Any) -> None:
    """orders.md §2: "each line not accepted, with the reason and, where a name was
    misspelt, the nearest names". A plural or a noun made of a command ("recons", "moves",
    "reconnaissance") was read as the command and a name made of the rest ("unknown
    territory 's Livland'"); it is the command that was misspelt."""
    _baltica(ctx)
    reply = _send(ctx, SWEDEN, "GAME b1\nPOWER sweden sw-pw\n"
                  "recons Livland\n"
                  "moves from Skåne: Karl XII to Småland\n"
                  "reconnaissance en Livland\n"
                  "recon Livland\n")
    assert "recons Livland: unknown command 'recons': did you mean recon?" in reply
    assert "moves from Skåne: Karl XII to Småland: unknown command 'moves': did you mean move?" in reply
    assert "reconnaissance en Livland: unknown command 'reconnaissance': did you mean recon?" in reply
    assert "unknown territory" not in reply and "a move needs" not in reply
    assert "OK  recon Livland" in reply, "the lines around them are read as before"


def test_orders_md_2_a_misspelt_command_of_the_mail_names_the_command(ctx: Any) -> None:
    """orders.md §2: "where a name was misspelt, the nearest names". A misspelt READY or
    ATTENDRE on a line of its own was answered with the phase's orders to look up in HELP,
    the command itself unnamed; prose beside it stays ignored."""
    _baltica(ctx)
    reply = _send(ctx, SWEDEN, "GAME b1\nPOWER sweden sw-pw\nrecon Livland\n"
                  "READYY\nATTENDR\nReady when you are!\nMovement is slow this year, I know.\n")
    assert "READYY: unknown command 'READYY': did you mean READY?" in reply
    assert "ATTENDR: unknown command 'ATTENDR': did you mean ATTENDRE?" in reply
    assert "--  Ready when you are! (ignored)" in reply
    assert "--  Movement is slow this year, I know. (ignored)" in reply
    assert "OK  recon Livland" in reply
