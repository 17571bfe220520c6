"""Messages built in code, said in the seat's language (orders.md §8).

Templates carry most of what players read; the rest (a refusal's reason, a
command's confirmation, a parse error) is built in code. Such a message is
written in English with :func:`msg` (or :func:`plural` when it counts
something), which returns a :class:`Text`: a ``str`` holding the English
sentence, so code and logs use it as any string, that also remembers its
template and parameters. When a reply is rendered, :func:`translate` says it
again in the reader's language through the gettext catalogue
``gm/locale/<language>/LC_MESSAGES/gm.po`` (managed with Babel, see
docs/architecture.md, "Adding a language"), whose msgid is the English template
and whose msgstr keeps the same ``{placeholders}``::

    >>> t = msg("{zone!r} is not a time zone (e.g. Europe/Paris)", zone="Mars/Olympus")
    >>> str(t)
    "'Mars/Olympus' is not a time zone (e.g. Europe/Paris)"
    >>> translate(t, "fr")
    "'Mars/Olympus' n'est pas un fuseau horaire (par exemple Europe/Paris)"
    >>> n = plural("{power}: {n} order stored (added to the earlier ones)",
    ...            "{power}: {n} orders stored (added to the earlier ones)", 3, power="south")
    >>> translate(n, "fr")
    'south : 3 ordres enregistrés (ajoutés aux précédents)'

A message missing from a catalogue stays in English (tests/i18n/test_catalogues.py
keeps the French catalogue complete). Parameters that are themselves :class:`Text` are
translated too; anything else (a territory, a power, a line a player wrote) is
left as it is. The word a translation writes right before a value is elided where its
language elides it before the value's vowel (gm.l10n.ELIDED, :func:`elided_template` for
the templates' sentences), except in an order's echo (:class:`Echo`)::

    >>> translate(msg("buying {tile}", tile="Envoy"), "fr")
    "l'achat d'Envoy"

The compiled ``gm.mo`` is made at install (scripts/install runs ``pybabel
compile``); when it is missing or older than its ``.po`` (an editable install,
a translator at work), the ``.po`` is read directly.
"""

from __future__ import annotations

import gettext
import io
import os
import re
import string
from collections.abc import Iterator, Mapping
from datetime import datetime
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any, Self, TypeVar

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from gm.l10n import babel_locale, elided_literals, may_elide, moment

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "gm"
SOURCE_LANGUAGE = "en"
#: Extra locale directories (``os.pathsep``-separated), searched before gm's own:
#: a translator tries a new ``<dir>/<lang>/LC_MESSAGES/gm.po`` without touching gm.
LOCALE_PATH_ENV = "GM_LOCALE_PATH"

E = TypeVar("E", bound=type[Enum])
_VOCABULARIES: list[type[Enum]] = []


def vocabulary(cls: E) -> E:
    """Mark an Enum whose values are English messages (a game's closed list of
    refusal reasons, say): each value needs its entry in every catalogue, like
    a :func:`msg` literal (the extractor in gm/i18n_extract.py finds them)."""
    _VOCABULARIES.append(cls)
    return cls


def vocabularies() -> tuple[type[Enum], ...]:
    """Every Enum marked with :func:`vocabulary` so far (import a module to register its own)."""
    return tuple(_VOCABULARIES)


def N_(english: str) -> str:
    """Mark ``english`` for the catalogue without translating it here (gettext's
    ``gettext_noop``): for words kept in data and said later with :func:`msg`."""
    return english


class Text(str):
    """An English message that can be said again in another language."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Self:  # a Name is built through it
        obj = super().__new__(cls, template.format(**params) if params else template)
        obj.template = template
        obj.params = params
        return obj

    def said(self, translations: gettext.NullTranslations) -> str:
        """The template in the language of ``translations`` (English if it has none)."""
        return translations.gettext(self.template)


class Plural(Text):
    """A message that counts: ``singular`` or ``plural`` by ``n`` in English, and
    the plural form the reader's language wants (gettext ``ngettext``)."""

    plural: str
    n: int

    def __new__(cls, singular: str, plural: str, n: int, /, **params: Any) -> Plural:
        params = {"n": n, **params}
        chosen = singular if n == 1 else plural
        obj = str.__new__(cls, chosen.format(**params))
        obj.template = singular
        obj.plural = plural
        obj.n = n
        obj.params = params
        return obj

    def said(self, translations: gettext.NullTranslations) -> str:
        return translations.ngettext(self.template, self.plural, self.n)


class Name(Text):
    """A name from a game's data (a nation, a power) with its forms in other languages
    (issue 20: "Russia" is "Russie" for a French seat): a :class:`Text` that
    :func:`translate` says from its own forms, not from the catalogue."""

    forms: dict[str, str]

    def __new__(cls, english: str, /, **forms: str) -> Name:
        obj = super().__new__(cls, "{name}", name=english)
        obj.forms = forms
        return obj


class Moment(Text):
    """A date and time, said as the reader's locale writes it, with its zone (gm/l10n.py):
    ``msg("the deadline is now {deadline}", deadline=when(dt))``."""

    at: datetime
    zone: str

    def __new__(cls, at: datetime, zone: str = "UTC") -> Moment:
        obj = super().__new__(cls, "{at}", at=moment(at, zone, SOURCE_LANGUAGE))
        obj.at = at
        obj.zone = zone
        return obj


class Echo(Text):
    """An order's canonical text (orders.md §2, "the echo"), said in the reader's language
    word for word as the grammar reads it back: never elided. A French seat reads
    "voyager de Islande vers Norvège" under its order, as it may write it again (the
    grammar reads "de", not "d'"), where a report's sentence says "d'Islande"."""

    order: Any

    def __new__(cls, order: Any) -> Echo:
        obj = super().__new__(cls, "{order}", order=order)
        obj.order = order
        return obj

    def said(self, translations: gettext.NullTranslations) -> str:
        return self.template


def when(at: datetime, zone: str = "UTC") -> Moment:
    """``at`` in ``zone`` as a :class:`Moment` (UTC unless told)."""
    return Moment(at, zone)


def name(english: str, /, **forms: str) -> Name:
    """``english`` as a :class:`Name` said as ``forms[language]`` where it has one."""
    return Name(english, **forms)


def msg(template: str, /, **params: Any) -> Text:
    """The message ``template`` with ``params``, in English until translated."""
    return Text(template, **params)


def plural(singular: str, plural: str, n: int, /, **params: Any) -> Plural:
    """``singular`` or ``plural`` by the count ``n`` (also available as ``{n}``)::

        plural("{n} order stored", "{n} orders stored", len(orders))
    """
    return Plural(singular, plural, n, **params)


# -- catalogues --------------------------------------------------------------

def locale_dirs() -> tuple[Path, ...]:
    """Where catalogues are looked for: ``$GM_LOCALE_PATH`` entries, then gm's own."""
    extra = [Path(p) for p in os.environ.get(LOCALE_PATH_ENV, "").split(os.pathsep) if p]
    return (*extra, LOCALE_DIR)


def _po_files(language: str) -> Iterator[Path]:
    for directory in locale_dirs():
        po = directory / language / "LC_MESSAGES" / f"{DOMAIN}.po"
        if po.is_file() or po.with_suffix(".mo").is_file():
            yield po


@cache
def languages() -> tuple[str, ...]:
    """English, then every language that has a catalogue, in name order."""
    found = {p.name for d in locale_dirs() if d.is_dir() for p in d.iterdir()
             if (p / "LC_MESSAGES" / f"{DOMAIN}.po").is_file()
             or (p / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file()}
    return (SOURCE_LANGUAGE, *sorted(found - {SOURCE_LANGUAGE}))


def _load(po: Path, language: str) -> gettext.NullTranslations:
    mo = po.with_suffix(".mo")
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return Translations(f, domain=DOMAIN)
    # No compiled catalogue, or an older one: compile the .po in memory (fuzzy
    # entries left out, as pybabel compile does).
    with po.open("rb") as f:
        catalog = read_po(f, locale=language, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The gettext translations of ``language`` (English words for English or an
    unknown language). A catalogue in ``$GM_LOCALE_PATH`` comes first and falls
    back to gm's own for what it does not say."""
    chain: gettext.NullTranslations | None = None
    for po in _po_files(language):
        t = _load(po, language)
        if chain is None:
            chain = t
        else:
            chain.add_fallback(t)
    return chain if chain is not None else gettext.NullTranslations()


def reset() -> None:
    """Forget loaded catalogues (after a .po changed, or ``$GM_LOCALE_PATH``)."""
    translations.cache_clear()
    babel_locale.cache_clear()
    languages.cache_clear()


def catalogue(language: str) -> dict[str, str]:
    """English template -> translation of ``language``'s own catalogue (empty for
    English or unknown); a plural's entry maps the singular to its first form."""
    result: dict[str, str] = {}
    for po in _po_files(language):
        if not po.is_file():
            continue
        with po.open("rb") as f:
            for m in read_po(f, locale=language, domain=DOMAIN):
                if not m.id or m.fuzzy:
                    continue
                key = m.id[0] if isinstance(m.id, tuple | list) else m.id
                value = m.string[0] if isinstance(m.string, tuple | list) else m.string
                if value:
                    result.setdefault(key, value)
    return result


def translate(text: Any, language: str) -> str:
    """``text`` in ``language`` when it is a :class:`Text` the catalogue knows; else as written."""
    return _translated(text, language, elides=True)


def _translated(text: Any, language: str, elides: bool) -> str:
    """:func:`translate`; ``elides`` False inside an :class:`Echo` (and all it holds)."""
    if not isinstance(text, Text):
        return "" if text is None else str(text)
    if isinstance(text, Name):
        return text.forms.get(language, str(text))
    if isinstance(text, Moment):
        return moment(text.at, text.zone, language)
    if language == SOURCE_LANGUAGE and not _said_otherwise(text):
        return str(text)
    elides = elides and not isinstance(text, Echo)
    template = text.said(translations(language))
    params = {k: _translated(v, language, elides) if isinstance(v, Text) else v
              for k, v in text.params.items()}
    try:
        return _formatted(template, params, language, elides)
    except (KeyError, IndexError, ValueError, AttributeError):  # a broken placeholder
        return str(text)


def _formatted(template: str, params: dict[str, Any], language: str, elides: bool) -> str:
    """``template.format(**params)``, the word before each value elided where ``language``
    elides it before the value's vowel (gm.l10n.elided_literals: "l'achat de {tile}" with
    Envoy is "l'achat d'Envoy"); as written where ``elides`` is False (an :class:`Echo`)."""
    if not elides or not may_elide(template, language):
        return template.format(**params)
    formatter = string.Formatter()
    literals, values = [], []
    for literal, field, spec, conversion in formatter.parse(template):
        literals.append(literal)
        if field is None:
            values.append("")
            continue
        value, _ = formatter.get_field(field, (), params)
        values.append(formatter.format_field(formatter.convert_field(value, conversion), spec or ""))
    literals = elided_literals(zip(literals, values, strict=True), language)
    return "".join(literal + value for literal, value in zip(literals, values, strict=True))


_PERCENT = re.compile(r"%%|%\((\w+)\)[#0 +-]*\d*(?:\.\d+)?([a-zA-Z])")


def elided_template(template: str, variables: Mapping[str, Any], language: str) -> str:
    """A template's ``%``-format string (Jinja's ``_()``, ``ngettext``, ``{% trans %}``), the
    word before each ``%(x)s`` elided where ``language`` elides it before the value of ``x``
    ("de %(place)s" with Islande is "d'%(place)s"; gm.l10n.elided_literals); the values are
    formatted after, by ``%``, as Jinja does (escaped in HTML)."""
    if not may_elide(template, language):
        return template
    literals, values, placeholders, last = [], [], [], 0
    for found in _PERCENT.finditer(template):
        if found[1] is None:  # "%%": a literal percent sign
            continue
        literals.append(template[last:found.start()])
        value = variables.get(found[1], "") if found[2] in "sr" else ""
        values.append(str(value))
        placeholders.append(found[0])
        last = found.end()
    literals = elided_literals(zip(literals, values, strict=True), language)
    return "".join(a + b for a, b in zip(literals, placeholders, strict=True)) + template[last:]


def _said_otherwise(text: Text) -> bool:
    """Whether ``text`` holds a :class:`Name` with an English form of its own: an id kept
    as written where it is logged and said by its name to a reader, English too (a dice
    purpose: "action roll sweden" is logged, gm verify compares it; "action roll Sweden"
    is read)."""
    return any(SOURCE_LANGUAGE in v.forms if isinstance(v, Name)
               else isinstance(v, Text) and _said_otherwise(v) for v in text.params.values())


def as_data(text: Any) -> Any:
    """A message as JSON data, for what is stored (an event's reason): ``{"msg":
    template, "params": {...}}`` (and ``"plural"``, ``"n"`` for a :class:`Plural`;
    ``{"echo": ...}`` around an :class:`Echo`); anything else as it is. :func:`say` takes it back."""
    if not isinstance(text, Text):
        return text
    if isinstance(text, Name):
        return {"name": str(text), "forms": dict(text.forms)}
    if isinstance(text, Moment):
        return {"moment": text.at.isoformat(), "zone": text.zone}
    if isinstance(text, Echo):
        return {"echo": as_data(text.order)}
    data: dict[str, Any] = {"msg": text.template}
    params = {k: as_data(v) for k, v in text.params.items()}
    if isinstance(text, Plural):
        data.update(plural=text.plural, n=text.n)
        params.pop("n", None)
    data["params"] = params
    return data


def from_data(data: Any) -> Any:
    """The :class:`Text` that :func:`as_data` stored (anything else as it is)."""
    if isinstance(data, dict) and "name" in data and "forms" in data:
        return Name(str(data["name"]), **data["forms"])
    if isinstance(data, dict) and set(data) == {"echo"}:
        return Echo(from_data(data["echo"]))
    if isinstance(data, dict) and "moment" in data:
        return Moment(datetime.fromisoformat(str(data["moment"])), str(data.get("zone", "UTC")))
    if isinstance(data, dict) and "msg" in data:
        params = {k: from_data(v) for k, v in data.get("params", {}).items()}
        if "plural" in data:
            return Plural(data["msg"], data["plural"], data["n"], **params)
        return Text(data["msg"], **params)
    return data


def say(english: Any, language: str) -> str:
    """A fixed English message (no placeholders), or a message stored with
    :func:`as_data`, in ``language``; the Jinja filter ``say``."""
    if isinstance(english, dict):
        return translate(from_data(english), language)
    if isinstance(english, Text):
        return translate(english, language)
    return translate(msg(str(english)), language)
