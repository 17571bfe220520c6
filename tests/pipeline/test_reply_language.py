"""Messages built in code are said in the seat's language (orders.md §8).

The French catalogue (gm/locale/fr/LC_MESSAGES/gm.po) is kept complete by
tests/i18n/test_catalogues.py; here, the messages reach the reader in French.
"""

from __future__ import annotations

from gm.i18n import msg, plural, translate
from tests.pipeline.conftest import deliver, mail, outbox


def test_a_message_is_english_until_translated_and_translates_its_nested_messages() -> None:
    text = msg("unknown {slot} {text!r}", slot=msg("territory"), text="Skone")
    assert text == "unknown territory 'Skone'"
    assert translate(text, "fr") == "territoire introuvable : 'Skone'"
    assert translate(text, "en") == "unknown territory 'Skone'"
    assert translate("a line the player wrote", "fr") == "a line the player wrote"


def test_a_count_takes_the_plural_form_of_the_readers_language() -> None:
    """French counts 0 and 1 as singular; English only 1."""
    def stored(n: int) -> object:
        return plural("{power}: {n} order stored (added to the earlier ones)",
                      "{power}: {n} orders stored (added to the earlier ones)", n, power="south")

    assert [str(stored(n)) for n in (0, 1, 2)] == [
        "south: 0 orders stored (added to the earlier ones)",
        "south: 1 order stored (added to the earlier ones)",
        "south: 2 orders stored (added to the earlier ones)"]
    assert [translate(stored(n), "fr") for n in (0, 1, 2)] == [
        "south : 0 ordre enregistré (ajouté aux précédents)",
        "south : 1 ordre enregistré (ajouté aux précédents)",
        "south : 2 ordres enregistrés (ajoutés aux précédents)"]


def test_a_french_seat_is_told_in_french_what_was_refused(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER south s-secret\nSET TIMEZONE Mars/Olympus\nadvance 2\n",
                       sender="south@example.org"))
    deliver(race, mail("GAME race1\nPOWER south s-secret\nPHASE turn-9\nadvance 1\n",
                       sender="south@example.org"))
    first, second = (text for _, text in outbox(race, kind="reply"))
    assert "'Mars/Olympus' n'est pas un fuseau horaire" in first
    assert "south : 1 ordre enregistré" in first
    assert "votre ligne PHASE indique turn-9 mais la phase ouverte est turn-1" in second
    assert "is not a time zone" not in first + second and "PHASE line" not in second


def test_an_english_seat_still_reads_english(race) -> None:  # type: ignore[no-untyped-def]
    deliver(race, mail("GAME race1\nPOWER north n-secret\nSET TIMEZONE Mars/Olympus\n"))
    [(_, text)] = outbox(race, kind="reply")
    assert "'Mars/Olympus' is not a time zone" in text


def test_a_line_the_grammar_does_not_understand_is_explained_in_french() -> None:
    from gm.games.registry import get as get_module
    from gm.orders.model import LineError, SourceLine

    module = get_module("baltica")
    state = module.setup("12.1", {})
    result = module.parse_orders(state, "sweden", [SourceLine(1, "voler Livland"),
                                                   SourceLine(2, "recon Livlandd")])
    reasons = [translate(r.reason, "fr") for r in result.lines if isinstance(r, LineError)]
    assert reasons[0].startswith("commande inconnue 'voler'"), reasons
    assert reasons[1].startswith("territoire introuvable : 'Livlandd'"), reasons


def test_a_pax_viking_refusal_is_said_in_french() -> None:
    """Viking's validation reasons and name slots come from the same catalogue."""
    from gm.dice import Dice
    from gm.games.registry import get as get_module
    from gm.orders.model import SourceLine

    module = get_module("viking")
    state = module.setup("3p", {})
    state = module.adjudicate(state, {}, Dice(seed=b"\x02" * 32, game_id="t",
                                              phase_id="setup")).state
    p = state["powers"][0]
    result = module.parse_orders(state, p, [SourceLine(1, "parley Birka"),
                                            SourceLine(2, "jouer Tuilez")])
    [v] = module.validate(state, p, [result.lines[0].order])
    assert translate(v.reason, "fr") == "vous n'avez aucun drakkar sur Birka"
    # issue 20: "tuile inconnu" did not agree; "introuvable" agrees with any slot's gender
    assert translate(result.lines[1].reason, "fr").startswith("tuile introuvable : 'Tuilez'")
