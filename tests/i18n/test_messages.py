"""Messages built in code keep what each reader's language needs until they are said."""

from __future__ import annotations

from datetime import UTC, datetime

from gm.i18n import as_data, from_data, msg, plural, translate, when


def test_a_date_in_a_message_is_written_as_the_readers_locale_writes_it() -> None:
    moved = msg("the deadline of {phase} is now {deadline}", phase="turn-3",
                deadline=when(datetime(2026, 1, 7, 12, 0, tzinfo=UTC)))
    assert str(moved) == "the deadline of turn-3 is now Wed, Jan 7, 2026, 12:00 UTC"
    assert translate(moved, "fr") == ("la date limite de turn-3 est désormais : "
                                      "mer. 7 janv. 2026, 12:00 UTC")
    assert translate(when(datetime(2026, 1, 7, 12, 0, tzinfo=UTC), "Europe/Paris"), "fr") == \
        "mer. 7 janv. 2026, 13:00 CET"


def test_a_stored_message_keeps_its_dates_and_counts() -> None:
    """An event's reason is stored as data and said later, in whoever reads it's language."""
    stored = as_data(msg("{a}; {b}", a=when(datetime(2026, 1, 7, 12, 0, tzinfo=UTC)),
                         b=plural("{power}: {n} order stored (added to the earlier ones)",
                                  "{power}: {n} orders stored (added to the earlier ones)", 2,
                                  power="south")))
    back = from_data(stored)
    assert translate(back, "fr") == ("mer. 7 janv. 2026, 12:00 UTC ; "
                                     "south : 2 ordres enregistrés (ajoutés aux précédents)")
    assert str(back) == ("Wed, Jan 7, 2026, 12:00 UTC; "
                         "south: 2 orders stored (added to the earlier ones)")


def test_money_is_written_as_the_readers_locale_writes_it() -> None:
    """The template filter ``money`` (Pax Britannica's pounds): CLDR's currency pattern of
    the reader's locale, in whole pounds, with plain spaces."""
    from gm.l10n import money

    assert [money(1234, "en"), money(1234, "fr"), money(-5, "fr")] == ["£1,234", "1 234 £", "-5 £"]
