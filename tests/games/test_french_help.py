"""A French reader's HELP (AIDE) reads French: its placeholders, its topic names, and
every topic it lists is read back by ``AIDE <that word>`` (issue 20, orders.md §1)."""

from __future__ import annotations

import re

import pytest

from gm.games import registry
from tests.games.viking.conftest import start_pv
from tests.games.viking.test_viking_by_mail import ADDR
from tests.pipeline.conftest import deliver, mail, outbox

GAMES = ("baltica", "britannica", "viking")
ENGLISH_PLACEHOLDERS = ("<press_name>", "<address>", "<time>", "<path>", "<value>",
                        "<territory>", "<territories>", "<blocks>", "<block>", "<sea>",
                        "<waters>", "<group>", "<targets>", "<int>", "<move>")


def listed_topics(reply: str) -> list[str]:
    """The topic words a HELP reply lists on its "Plus : AIDE <sujet>, parmi : ..." line."""
    [line] = [x for x in reply.splitlines() if x.startswith(("Plus :", "More:"))]
    return [t.strip() for t in line.split(":", 2)[2].rstrip(".").split(",")]


@pytest.mark.parametrize("game", GAMES)
def test_the_french_help_shows_its_placeholders_in_french(game: str) -> None:
    text = registry.get(game).help("fr", moderator=True)  # the moderator's: PROLONGER too
    assert [p for p in ENGLISH_PLACEHOLDERS if p in text] == [], text
    assert "PRESSE A <puissance> [, <puissance> ...]" in text
    assert "PROLONGER [PRIVÉ] AU <date> [<heure>] [: raison]" in text  # the time is optional
    assert "demandé par JOIN" not in text
    if game == "baltica":
        assert "reconnaitre <territoire>" in text
        assert "naviguer <blocs> depuis <eaux> vers <eaux>" in text


@pytest.mark.parametrize("game", GAMES)
def test_the_french_help_lists_french_topic_names_each_read_back(game: str) -> None:
    module = registry.get(game)
    topics = listed_topics(module.help("fr"))
    assert "presse" in topics and "press" not in topics and "ready" not in topics
    assert all(t == t.strip() and t for t in topics), topics
    for topic in topics:
        reply = module.help("fr", topic)
        assert reply.startswith(f"AIDE {topic}\n"), (topic, reply)
        assert "Aucune commande ou sujet" not in reply
    # The English list is read back in English too.
    for topic in listed_topics(module.help("en")):
        assert module.help("en", topic).startswith(f"HELP {topic}\n"), topic


def test_the_french_topic_names_by_game() -> None:
    assert "ordre de bataille" in listed_topics(registry.get("baltica").help("fr"))
    assert "déplacer" in listed_topics(registry.get("britannica").help("fr"))
    viking = listed_topics(registry.get("viking").help("fr"))
    assert "passer" in viking and "pass " not in viking and "voyager" in viking


def test_aide_by_mail_answers_every_listed_topic_of_pax_viking(ctx) -> None:  # type: ignore[no-untyped-def]
    """Blue's seat is French: "AIDE" lists French topics, and "AIDE <topic>" sent by mail
    answers that topic, for each one listed."""
    pv = start_pv(ctx)
    head = "GAME pv1\nPOWER blue blue-pw\n"
    deliver(pv, mail(head + "AIDE\n", sender=ADDR["blue"]))
    reply = outbox(pv, kind="reply", to=ADDR["blue"])[-1][1]
    topics = listed_topics(reply)
    assert "voyager" in topics and "journey" not in topics
    for topic in topics:
        deliver(pv, mail(head + f"AIDE {topic}\n", sender=ADDR["blue"]))
        reply = outbox(pv, kind="reply", to=ADDR["blue"])[-1][1]
        assert re.search(rf"^ *AIDE {re.escape(topic)}$", reply, re.M), (topic, reply)
        assert "Aucune commande ou sujet" not in reply, topic


def test_aide_without_a_sign_on_answers_the_topic_in_the_seats_language(ctx) -> None:  # type: ignore[no-untyped-def]
    """"GAME pv1 / AIDE voyager" from blue's (French) address, without POWER: the journey's
    topic in French (it was the whole HELP, in English); a stranger's "AIDE" is French,
    their "HELP" English."""
    pv = start_pv(ctx)
    deliver(pv, mail("GAME pv1\nAIDE voyager\n", sender=ADDR["blue"]))
    reply = outbox(pv, kind="reply", to=ADDR["blue"])[-1][1]
    assert re.search(r"^ *AIDE voyager$", reply, re.M) and "Exemples :" in reply, reply
    assert "Commands (one per line" not in reply
    deliver(pv, mail("AIDE\n", sender="stranger@elsewhere.example"))
    reply = outbox(pv, kind="reply", to="stranger@elsewhere.example")[-1][1]
    assert "Parties en cours ici : pv1." in reply and "Commandes (une par ligne" in reply, reply
    assert "Games running here" not in reply
    deliver(pv, mail("HELP\n", sender="other@elsewhere.example"))
    reply = outbox(pv, kind="reply", to="other@elsewhere.example")[-1][1]
    assert "Games running here: pv1." in reply and "Commands (one per line" in reply


def test_list_says_the_games_status_in_french(ctx) -> None:  # type: ignore[no-untyped-def]
    """LISTE from a French seat: "Partie pv1 : Pax Viking, scénario 3p, en cours." (it said
    "running")."""
    pv = start_pv(ctx)
    deliver(pv, mail("GAME pv1\nPOWER blue blue-pw\nLISTE\n", sender=ADDR["blue"]))
    reply = outbox(pv, kind="reply", to=ADDR["blue"])[-1][1]
    assert "Partie pv1 : Pax Viking, scénario 3p, en cours." in reply, reply


def test_a_french_welcome_names_the_french_password_command(ctx) -> None:  # type: ignore[no-untyped-def]
    """Blue's welcome said « PASSWORD nouveausecret » among French sentences: the French
    command is MOTDEPASSE (envelope.lark)."""
    pv = start_pv(ctx)
    welcome = outbox(pv, kind="welcome", to=ADDR["blue"])[-1][1]
    assert "« MOTDEPASSE nouveausecret »" in welcome and "PASSWORD nouveausecret" not in welcome


@pytest.mark.parametrize("game", GAMES)
def test_the_french_help_gives_french_examples_that_read(game: str) -> None:
    """"AIDE voyager" showed "journey from home to Gotland, ..." and "AIDE pour" "GAME
    baltica42 / POWER sweden hunter2": each topic's French examples (``examples_fr``) are
    shown instead, and each reads: as an order of the game, or as the envelope commands
    it is (after a French sign-on)."""
    from gm.orders.envelope import OrderLine, parse_envelope
    from gm.orders.help import topics_of
    from gm.orders.model import SourceLine

    module = registry.get(game)
    for key, entry in topics_of(game).items():
        french = entry.get("examples_fr")
        assert french or not entry.get("examples"), (game, key)
        text = module.help("fr", key.replace("_", " "))
        shown = text.split("Exemples :\n", 1)[1].splitlines() if french else []
        assert [x.strip() for x in shown] == french, (key, text)
        for example in french or []:
            if module.parses_as_order(example):
                continue
            head = ["PARTIE g", "MODERATEUR pw" if key == "moderator" else "PUISSANCE p pw"]
            env = parse_envelope([SourceLine(i + 1, t) for i, t in enumerate(
                (head if key != "for" else []) + list(french))])
            assert not env.ignored and all(
                not s.errors and not any(isinstance(i, OrderLine) for i in s.items)
                for s in env.sections), (game, key, example)
