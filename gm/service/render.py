"""Jinja rendering of replies and reports, per game and per language.

Lookup order for template ``name`` in language ``lang``:
``templates/<game>/<name>.<lang>.txt.j2``, ``templates/mail/<name>.<lang>.txt.j2``,
then the same with ``en``. Text templates are not HTML-escaped; HTML
templates (``.html.j2``, found the same way by :func:`render_html`) always are.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

from jinja2 import (
    Environment,
    FileSystemLoader,
    StrictUndefined,
    TemplateNotFound,
    select_autoescape,
)

from gm.i18n import say
from gm.resources import templates_root

LANGUAGES = ("en", "fr")


def fmt_time(dt: datetime | None, tz: str = "UTC") -> str:
    if dt is None:
        return "-"
    try:
        zone = ZoneInfo(tz)
    except Exception:  # a bad zone name must not stop a report
        zone = ZoneInfo("UTC")
    local = dt.astimezone(zone)
    return local.strftime("%Y-%m-%d %H:%M ") + (local.tzname() or tz)


@cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(templates_root())),
        autoescape=select_autoescape(enabled_extensions=("html.j2",), default=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["time"] = fmt_time
    env.filters["say"] = say
    env.globals["words"] = game_words
    return env


def game_words(game: str, language: str) -> Mapping[str, Any]:
    """A game's names in ``language`` for its templates (:meth:`GameModule.words`)."""
    from gm.games.registry import get

    return get(game).words(language)


def render(name: str, lang: str = "en", game: str | None = None, *, game_only: bool = False,
           kind: str = "txt", **context: Any) -> str:
    """Render ``name``; ``game_only`` looks only among the game's own templates."""
    env = environment()
    candidates = []
    for language in dict.fromkeys((lang if lang in LANGUAGES else "en", "en")):
        if game:
            candidates.append(f"{game}/{name}.{language}.{kind}.j2")
        if not game_only:
            candidates.append(f"mail/{name}.{language}.{kind}.j2")
    for candidate in candidates:
        try:
            template = env.get_template(candidate)
        except TemplateNotFound:
            continue
        return template.render(**context)
    raise TemplateNotFound(f"no template for {name} ({', '.join(candidates)})")


def render_html(name: str, lang: str = "en", game: str | None = None, *, game_only: bool = False,
                **context: Any) -> str:
    """Render the HTML (autoescaped) version of ``name``, found like :func:`render`."""
    return render(name, lang, game, game_only=game_only, kind="html", **context)
