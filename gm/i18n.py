"""Messages built in code, said in the seat's language (orders.md §8).

Templates carry most of what players read; the rest (a refusal's reason, a
command's confirmation, a parse error) is built in code. Such a message is
written in English with :func:`msg`, which returns a :class:`Text`: a ``str``
holding the English sentence, so code and logs use it as any string, that also
remembers its template and parameters. When a reply is rendered,
:func:`translate` says it again in the reader's language from the catalogue
``gm/locale/<language>.toml``, which maps each English template to its
translation with the same ``{placeholders}``::

    >>> t = msg("language {language!r} is not offered", language="de")
    >>> str(t)
    "language 'de' is not offered"
    >>> translate(t, "fr")
    "la langue 'de' n'est pas proposée"

A message missing from a catalogue stays in English (tests/pipeline/test_reply_language.py keeps
the French catalogue complete). Parameters that are themselves :class:`Text`
are translated too; anything else (a territory, a power, a line a player
wrote) is left as it is.
"""

from __future__ import annotations

import tomllib
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

LOCALE_DIR = Path(__file__).parent / "locale"

E = TypeVar("E", bound=type[Enum])
_VOCABULARIES: list[type[Enum]] = []


def vocabulary(cls: E) -> E:
    """Mark an Enum whose values are English messages (a game's closed list of
    refusal reasons, say): each value needs its entry in every catalogue, like
    a :func:`msg` literal."""
    _VOCABULARIES.append(cls)
    return cls


def vocabularies() -> tuple[type[Enum], ...]:
    """Every Enum marked with :func:`vocabulary` so far (import a module to register its own)."""
    return tuple(_VOCABULARIES)


class Text(str):
    """An English message that can be said again in another language."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Text:
        obj = super().__new__(cls, template.format(**params) if params else template)
        obj.template = template
        obj.params = params
        return obj


class Name(Text):
    """A name from a game's data (a nation, a power) with its forms in other languages
    (issue 20: "Russia" is "Russie" for a French seat): a :class:`Text` that
    :func:`translate` says from its own forms, not from the catalogue."""

    forms: dict[str, str]

    def __new__(cls, english: str, /, **forms: str) -> Name:
        obj = super().__new__(cls, "{name}", name=english)
        obj.forms = forms
        return obj


def name(english: str, /, **forms: str) -> Name:
    """``english`` as a :class:`Name` said as ``forms[language]`` where it has one."""
    return Name(english, **forms)


def msg(template: str, /, **params: Any) -> Text:
    """The message ``template`` with ``params``, in English until translated."""
    return Text(template, **params)


@cache
def catalogue(language: str) -> dict[str, str]:
    """English template -> translation, for ``language`` (empty for English or unknown)."""
    path = LOCALE_DIR / f"{language}.toml"
    if language == "en" or not path.is_file():
        return {}
    with path.open("rb") as f:
        return dict(tomllib.load(f).get("messages", {}))


def translate(text: Any, language: str) -> str:
    """``text`` in ``language`` when it is a :class:`Text` the catalogue knows; else as written."""
    if not isinstance(text, Text):
        return "" if text is None else str(text)
    if isinstance(text, Name):
        return text.forms.get(language, str(text))
    template = catalogue(language).get(text.template)
    if template is None:
        return str(text)
    params = {k: translate(v, language) if isinstance(v, Text) else v for k, v in text.params.items()}
    return template.format(**params)


def as_data(text: Any) -> Any:
    """A message as JSON data, for what is stored (an event's reason): ``{"msg":
    template, "params": {...}}``; anything else as it is. :func:`say` takes it back."""
    if not isinstance(text, Text):
        return text
    if isinstance(text, Name):
        return {"name": str(text), "forms": dict(text.forms)}
    return {"msg": text.template, "params": {k: as_data(v) for k, v in text.params.items()}}


def from_data(data: Any) -> Any:
    """The :class:`Text` that :func:`as_data` stored (anything else as it is)."""
    if isinstance(data, dict) and "name" in data and "forms" in data:
        return Name(str(data["name"]), **data["forms"])
    if isinstance(data, dict) and "msg" in data:
        return Text(data["msg"], **{k: from_data(v) for k, v in data.get("params", {}).items()})
    return data


def say(english: Any, language: str) -> str:
    """A fixed English message (no placeholders), or a message stored with
    :func:`as_data`, in ``language``; the Jinja filter ``say``."""
    if isinstance(english, dict):
        return translate(from_data(english), language)
    if isinstance(english, Text):
        return translate(english, language)
    return translate(msg(str(english)), language)
