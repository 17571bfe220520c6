"""Templates translate through gettext functions one call deep (gm.service.render
._direct_gettext) and read a dict's items without an exception (gm.service.render
._Environment.getattr), issue 21: every mail document, the games' report bodies and every
Pax Baltica event line, in every language, must render exactly as with Jinja's own
environment (translation, ``%`` formatting, the HTML templates' escaping, ``x.name``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from markupsafe import Markup

from gm.games.registry import get
from gm.i18n import languages
from gm.resources import templates_root
from gm.service.render import environment, make_environment
from tests.i18n.samples import MAIL


def documents() -> list[tuple[str, str]]:
    out = []
    for path in sorted((templates_root() / "mail").glob("*.j2")):
        match = re.fullmatch(r"(\w+)\.(txt|html)\.j2", path.name)
        if match and not path.name.startswith("_"):
            out.append((match[1], match[2]))
    return out


@pytest.mark.parametrize("lang", languages())
def test_every_mail_document_renders_as_with_jinjas_own_gettext(lang: str) -> None:
    ours, jinjas = environment(lang), make_environment(lang, stock=True)
    assert ours.globals["_"] is not jinjas.globals["_"]  # the two really differ
    compared = 0
    for name, kind in documents():
        for sample in MAIL[name](lang):
            template = f"mail/{name}.{kind}.j2"
            assert (ours.get_template(template).render(**sample)
                    == jinjas.get_template(template).render(**sample)), (template, sample)
            compared += 1
    assert compared >= 20


def _views() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for game, scenario in (("baltica", "12.1"), ("britannica", "1880"), ("viking", None)):
        module = get(game)
        state = module.setup(scenario or module.scenarios()[0].id, {})
        powers = list(module.scenarios()[0].powers)
        for power in [*powers[:2], None]:
            out.append((game, {"view": module.view(state, power), "events": [], "power": power}))
    return out


@pytest.mark.parametrize("lang", languages())
def test_the_games_report_bodies_render_as_with_jinjas_own_gettext(lang: str) -> None:
    ours, jinjas = environment(lang), make_environment(lang, stock=True)
    for game, context in _views():
        for kind in ("txt", "html"):
            template = f"{game}/report.{kind}.j2"
            if not (templates_root() / template).exists():
                continue
            assert (ours.get_template(template).render(**context)
                    == jinjas.get_template(template).render(**context)), (template, context["power"])


def test_html_templates_escape_what_the_sentence_is_given_and_not_the_sentence() -> None:
    env = make_environment("en")
    env.autoescape = True  # as in an .html.j2 template
    html = env.from_string("{{ _('<b>%(x)s</b>', x=x) }} {{ ngettext('%(num)d <a>', '%(num)d <b>', 2) }}")
    assert html.render(x="<i>") == Markup("<b>&lt;i&gt;</b> 2 <b>")


@pytest.mark.parametrize("lang", languages())
def test_every_baltica_event_line_renders_as_with_jinjas_own_environment(lang: str) -> None:
    from tests.games.baltica.test_event_templates import SAMPLES

    ours = environment(lang).get_template("baltica/_events.txt.j2").module
    jinjas = make_environment(lang, stock=True).get_template("baltica/_events.txt.j2").module
    for type_, data in [*SAMPLES.items(), ("no-such-event", {})]:
        event = {"type": type_, "data": data}
        assert ours.line(event) == jinjas.line(event), type_  # type: ignore[attr-defined]


def test_a_dicts_name_reads_as_jinja_reads_it() -> None:
    """The attribute first (a dict's own methods), then the item, else undefined (strict)."""
    from jinja2 import UndefinedError

    class Sub(dict):  # type: ignore[type-arg]
        name = "attribute"

    source = ("{{ d.name }} {{ d.items is callable }} {{ d.get('get') }} {{ d.keys is callable }}"
              " {{ s.name }} {{ d.__class__.__name__ }}")
    data = {"d": {"name": "item", "items": 3, "get": "got", "keys": 1}, "s": Sub(name="item")}
    ours, jinjas = environment("en"), make_environment("en", stock=True)
    assert (ours.from_string(source).render(**data) == jinjas.from_string(source).render(**data)
            == "item True got True attribute dict")
    for env in (ours, jinjas):
        with pytest.raises(UndefinedError, match="has no attribute 'missing'"):
            env.from_string("{{ d.missing }}").render(d={})
