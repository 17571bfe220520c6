"""A player's Pax Baltica report, rendered from the fog view and visible events only."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from gm.games.base import Event
from gm.resources import templates_root


def render_report(view: Mapping[str, Any], events: Iterable[Event], power: str | None,
                  language: str = "en") -> str:
    """The report body for ``power`` (None: moderator) in ``language`` ("en" or "fr").

    Only ``view`` (from :func:`gm.games.baltica.fog.view`) and the events ``power`` may
    see reach the template, so a template cannot leak what the view does not hold.
    """
    env = Environment(loader=FileSystemLoader(str(templates_root())), trim_blocks=True,
                      lstrip_blocks=True, undefined=StrictUndefined, autoescape=False)
    lang = language if language in ("en", "fr") else "en"
    shown = [{"type": e.type, "data": e.data} for e in events if e.visible(power)]
    return env.get_template(f"baltica/report.{lang}.txt.j2").render(view=view, events=shown)
