"""Dates, times, durations and numbers in the reader's locale (Babel's CLDR data).

A deadline is said with its weekday, in the reader's words and order, and
always with its zone, so UTC stays explicit::

    >>> from collections.abc import Iterable
from datetime import datetime, timedelta, timezone
    >>> when = datetime(2026, 1, 7, 12, 0, tzinfo=timezone.utc)
    >>> moment(when, "UTC", "en"), moment(when, "Europe/Paris", "fr")
    ('Wed, Jan 7, 2026, 12:00 UTC', 'mer. 7 janv. 2026, 13:00 CET')
    >>> duration(timedelta(hours=26), "fr"), duration(timedelta(minutes=40), "en")
    ('1 jour et 2 heures', '40 minutes')

Times are on the 24-hour clock in every language (a deadline is read once and
must not be misread as morning or evening). CLDR's no-break spaces are said as
plain spaces, as the rest of gm's text writes them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import cache, lru_cache
from zoneinfo import ZoneInfo

from babel.core import Locale, UnknownLocaleError
from babel.dates import format_skeleton, format_time
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.units import format_unit

__all__ = ["duration", "elide", "elided_literals", "may_elide", "moment", "money", "number"]


@cache
def babel_locale(language: str) -> Locale:
    """The CLDR locale of ``language``, for dates and numbers (English, the language
    of gm's messages, if unknown)."""
    try:
        return Locale.parse(language)
    except (UnknownLocaleError, ValueError, TypeError):
        return Locale.parse("en")


_PLAIN = str.maketrans({"\u00a0": " ", "\u202f": " "})


def _zone(tz: str) -> ZoneInfo:
    try:
        return ZoneInfo(tz)
    except Exception:  # a bad zone name must not stop a report
        return ZoneInfo("UTC")


def moment(dt: datetime | None, tz: str = "UTC", language: str = "en") -> str:
    """``dt`` in zone ``tz`` as ``language`` writes a date and a time, with the zone's
    abbreviation (``-`` for no time at all)."""
    if dt is None:
        return "-"
    zone = _zone(tz)
    local = dt.astimezone(zone)
    locale = babel_locale(language)
    day = format_skeleton("yMMMEd", local, locale=locale)
    clock = format_time(local, "HH:mm", tzinfo=zone, locale=locale)
    both = str(locale.datetime_formats.get("medium", "{1} {0}"))
    return (both.format(clock, day) + " " + (local.tzname() or tz)).translate(_PLAIN)


_UNITS = (("duration-day", 86400), ("duration-hour", 3600), ("duration-minute", 60))


def duration(delta: timedelta, language: str = "en") -> str:
    """``delta`` in days, hours and minutes, as ``language`` says them
    ("1 day, 2 hours"; "1 jour et 2 heures"); under a minute, "0 minutes"."""
    locale = babel_locale(language)
    seconds = max(0, int(delta.total_seconds()))
    parts = []
    for unit, size in _UNITS:
        if seconds >= size:
            parts.append(format_unit(seconds // size, unit, length="long", locale=locale))
            seconds %= size
    if not parts:
        parts.append(format_unit(0, "duration-minute", length="long", locale=locale))
    return format_list(parts, style="unit", locale=locale).translate(_PLAIN)


def number(value: float, language: str = "en") -> str:
    """``value`` with the grouping and decimal sign of ``language`` (1,234.5; 1 234,5)."""
    return format_decimal(value, locale=babel_locale(language)).translate(_PLAIN)


def money(value: float, language: str = "en", symbol: str = "£") -> str:
    """An amount of the games' pounds as ``language`` writes money, in whole pounds
    (CLDR's currency pattern, its decimals dropped): "£1,234", "1 234 £"."""
    pattern = babel_locale(language).currency_formats["standard"].pattern
    pattern = re.sub(r"\.0+", "", pattern.split(";")[0]).replace("¤", f"'{symbol}'")
    return format_decimal(value, format=pattern, locale=babel_locale(language)).translate(_PLAIN)


ELIDED: dict[str, dict[str, str]] = {"fr": {"de": "d'", "que": "qu'", "le": "l'", "la": "l'"}}
"""The words a language elides before a vowel, and their elided form (French "d'Islande").
Both of gm's formatters elide them before any value (:func:`elided_literals`); an order's
echo is said without (gm.i18n.Echo: the grammar reads "de")."""
_VOWEL = re.compile(r"[aeiouàâäåæéèêëîïôöøœùûü]", re.IGNORECASE)
"""A vowel begins the word (Åland, Œland too); not y, a consonant in Yaroslavl, nor h."""
_LAST_WORD = re.compile(r"(?:^|(?<=[\s(«\"]))(\w+) $")


def _elision(before: str, word: str, language: str) -> tuple[int, str] | None:
    """Where the last word of ``before`` starts and its elided form, when ``language``
    elides it before ``word``; None otherwise."""
    rules = ELIDED.get(language, {})
    found = _LAST_WORD.search(before) if rules and _VOWEL.match(word) else None
    if found is None or found.group(1).lower() not in rules:
        return None
    elided = rules[found.group(1).lower()]
    if found.group(1)[0].isupper():
        elided = elided[0].upper() + elided[1:]
    return found.start(1), elided


def elide(before: str, word: str, language: str = "en") -> str:
    """``before`` as it is written ahead of ``word``: its last word elided where ``language``
    elides it before a vowel (``elide("l'achat de ", "Envoy", "fr")`` is ``"l'achat d'"``);
    as it is otherwise. An h is left alone: gm cannot tell a mute h from an aspirate one;
    a digit too ("de 3")."""
    found = _elision(before, word, language)
    return before if found is None else before[:found[0]] + found[1]


@lru_cache(maxsize=4096)
def may_elide(template: str, language: str) -> bool:
    """Whether ``template`` writes one of the words ``language`` elides right before a
    placeholder (``de {x}``, ``de %(x)s``): most sentences do not, and are formatted as
    they are, at no cost (a report says hundreds, issue 21)."""
    words = ELIDED.get(language)
    if not words:
        return False
    return _before_value(tuple(words)).search(template) is not None


@cache
def _before_value(words: tuple[str, ...]) -> re.Pattern[str]:
    """The elided words right before a placeholder, as a pattern."""
    return re.compile(r"\b(?:" + "|".join(words) + r") (?:\{|%\()", re.IGNORECASE)


def elided_literals(pieces: Iterable[tuple[str, str]], language: str) -> list[str]:
    """The literal texts of a template, each given with the value written right after it
    (``("le drakkar de ", "Islande")``), the last word of each elided before its value as
    :func:`elide` says (``"le drakkar d'"``): the one rule of gm's two formatters, a
    message's ``{x}`` (gm.i18n) and a template's ``%(x)s`` (its gettext, gm.service.render).
    Only a word the template itself writes, whole, right before the value: never a word
    that ends a value ("{a} {b}"), nor one glued to it ("{a}de {b}")."""
    out: list[str] = []
    previous = ""  # the character written before the literal: it may end a word
    for literal, value in pieces:
        found = _elision(previous + literal, value, language) if literal else None
        if found is not None and found[0] >= len(previous):
            literal = literal[:found[0] - len(previous)] + found[1]
        out.append(literal)
        previous = (literal + value)[-1:] or previous
    return out
