"""Jinja rendering of replies and reports, per game and per language.

A document has one template, translated through the gettext catalogue with
Jinja's i18n extension (``{% trans %}``, ``_()``): each language has its own
environment, with that language's translations installed (gm/i18n.py).

Template ``name`` is ``templates/<game>/<name>.txt.j2``, the game's own, else
``templates/mail/<name>.txt.j2`` (issue 20: no copy per language any more).
Text templates are not HTML-escaped; HTML templates (``.html.j2``, found the
same way by :func:`render_html`) always are.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Mapping, MutableMapping
from datetime import datetime
from functools import cache, lru_cache
from types import FunctionType
from typing import Any

import jinja2
from jinja2 import (
    Environment,
    FileSystemBytecodeCache,
    FileSystemLoader,
    StrictUndefined,
    TemplateNotFound,
    pass_eval_context,
    select_autoescape,
)
from jinja2.bccache import Bucket
from jinja2.nodes import EvalContext
from jinja2.runtime import Context, Macro
from jinja2.utils import _PassArg
from markupsafe import Markup

from gm.i18n import SOURCE_LANGUAGE, elided_template, languages, say, translations
from gm.l10n import ELIDED, duration, moment, money, number
from gm.resources import templates_root


def fmt_time(dt: datetime | None, tz: str = "UTC", lang: str = SOURCE_LANGUAGE) -> str:
    """A deadline in zone ``tz`` as ``lang`` writes it (gm/l10n.py); the filter ``time``."""
    return moment(dt, tz, lang)


log = logging.getLogger(__name__)

_OPTIONS: dict[str, Any] = dict(extensions=["jinja2.ext.i18n"], trim_blocks=True,
                                lstrip_blocks=True, keep_trailing_newline=True)
"""The environment's options that shape the compiled code (the cache files are tagged
with them and Jinja's version)."""


class _CompiledTemplates(FileSystemBytecodeCache):
    """Compiled templates kept on disk between processes (issue 21: compiling the report
    templates was 1.6 of the 2 s of CPU a fresh daemon's first close took, paid again in
    each language's environment). Jinja keys a file by the template's path and checks the
    source's checksum, so an edited template is compiled again. A cache that cannot be
    read or written is passed over: templates are then compiled, as without it."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # a damaged file: compile instead
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError as exc:
            log.debug("compiled template not kept: %s", exc)


@cache
def _template_cache() -> _CompiledTemplates | None:
    """The compiled-template cache: ``GM_TEMPLATE_CACHE`` names its directory, or ``off``;
    by default Jinja's per-user directory in the system's temporary directory."""
    where = os.environ.get("GM_TEMPLATE_CACHE", "")
    if where.lower() == "off":
        return None
    shape = (jinja2.__version__, sorted(_OPTIONS.items()), "newstyle gettext", "autoescape html.j2")
    tag = hashlib.sha256(repr(shape).encode()).hexdigest()[:12]
    try:
        if where:
            os.makedirs(where, mode=0o700, exist_ok=True)
        return _CompiledTemplates(where or None, f"__gm_{tag}_%s.cache")
    except (OSError, RuntimeError) as exc:  # no safe directory: compile in each process
        log.debug("no compiled-template cache: %s", exc)
        return None


@cache
def environment(lang: str = SOURCE_LANGUAGE) -> Environment:
    """The Jinja environment that renders in ``lang`` (its catalogue installed)."""
    return make_environment(lang)


_DICT_ATTRIBUTES = frozenset(name for name in dir(dict) if hasattr({}, name))
"""What ``getattr`` finds on a plain dict (its methods and the object's): a dict has no
attributes of its own."""


class _Context(Context):
    """Jinja's template context, its calls of macros and plain functions made directly.

    Jinja makes every call in a template (``_()``, a macro, a filter-like global) through
    :meth:`Context.call`, which asks the callable, then its ``__call__``, whether it is to
    be passed the context, the evaluation context or the environment: four look-ups a call,
    hundreds a report, ~7% of a deadline's close and a tenth of rendering a reply (issue 21).
    A :class:`~jinja2.runtime.Macro` is passed nothing; a plain function is passed what its
    own ``jinja_pass_arg`` says (its ``__call__`` says nothing): both are answered here as
    Jinja would, the arguments given as Jinja gives them. Anything else, and a function that
    takes the whole context (it may need the loop's variables), goes through Jinja's call."""

    def call(__self, __obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        kind = type(__obj)
        if kind is FunctionType:
            pass_arg = getattr(__obj, "jinja_pass_arg", None)
            if pass_arg is _PassArg.eval_context:
                args = (__self.eval_ctx, *args)
            elif pass_arg is _PassArg.environment:
                args = (__self.environment, *args)
            elif pass_arg is not None:
                return super().call(__obj, *args, **kwargs)
        elif kind is not Macro:
            return super().call(__obj, *args, **kwargs)
        kwargs.pop("_block_vars", None)
        kwargs.pop("_loop_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception")


class _Environment(Environment):
    """Jinja's environment, ``x.name`` on a plain dict read without raising.

    Jinja tries the attribute first, then the item; on a dict (every view, event and block
    a report shows) that is an AttributeError raised and caught for each ``b.where``,
    ``view.phase``...: hundreds a report, a third of rendering one (issue 21). A plain
    dict's attributes are its class's (:data:`_DICT_ATTRIBUTES`), so a name that is not
    one of them is its item or nothing: the same answer without the exception.

    Anything else (a reply's entries, the style module) is read as Jinja reads it, the
    attribute first, in this one call (issue 21: calling Jinja's from here was a second
    Python call for each of the ~150 look-ups of a reply); when it has no such attribute,
    Jinja's look-up answers."""

    context_class = _Context

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            if attribute not in _DICT_ATTRIBUTES:
                try:
                    return obj[attribute]
                except KeyError:
                    return self.undefined(obj=obj, name=attribute)
        else:
            try:
                return getattr(obj, attribute)
            except AttributeError:
                pass
        return super().getattr(obj, attribute)


    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as a plain dict: the environment's (all set when it is made,
        :func:`make_environment`, before any template is loaded), then the template's own.

        Jinja's ChainMap is read at every render (copied into the context, its keys compared
        with the importing context's at each ``{% import %}``), each read through Python
        calls: a seventh of rendering a reply (issue 21). The dict holds the same names."""
        return {**self.globals, **(d or {})}


def make_environment(lang: str, *, stock: bool = False) -> Environment:
    """A new environment for ``lang``; ``stock=True``: with Jinja's own attribute look-up and
    gettext functions (:class:`_Environment`, :func:`_direct_gettext`;
    tests/service/test_render_gettext.py renders every document both ways)."""
    env = (Environment if stock else _Environment)(
        loader=FileSystemLoader(str(templates_root())),
        autoescape=select_autoescape(enabled_extensions=("html.j2",), default=False),
        undefined=StrictUndefined,
        auto_reload=False,  # a template is compiled once per process, not stat()ed per render
        bytecode_cache=_template_cache(),
        **_OPTIONS,
    )
    env.filters["time"] = lambda dt, tz="UTC": _moment(dt, tz, lang)
    env.filters["duration"] = lambda delta: duration(delta, lang)
    env.filters["number"] = lambda value: number(value, lang)
    env.filters["money"] = lambda value: money(value, lang)
    env.filters["say"] = lambda english, language=lang: say(english, language)
    env.filters["folded"] = folded
    env.install_gettext_translations(_Eliding(translations(lang), lang), newstyle=True)  # type: ignore[attr-defined]
    if not stock:
        _direct_gettext(env, translations(lang), lang)
    env.globals["lang"] = lang
    env.globals["words"] = game_words
    env.globals["say_power"] = lambda game, power, form="name": power_said(game, power, form, lang)
    return env


class _Template(str):
    """A translated ``%``-format string that elides, when ``%`` gives it its values, the word
    before each value as its language does (:func:`gm.i18n.elided_template`)."""

    language: str

    def __mod__(self, variables: Any) -> str:
        if not isinstance(variables, Mapping):
            return str.__mod__(self, variables)
        return str.__mod__(elided_template(str(self), variables, self.language), variables)


class _Eliding:
    """``catalogue`` whose sentences elide when a template gives them their values: what
    Jinja's own ``gettext`` (the ``stock`` environment) is given, so that it says French
    as :func:`_direct_gettext` does. (Its HTML is not elided: Jinja makes a sentence
    :class:`~markupsafe.Markup` before ``%``, a plain ``str`` again.)"""

    def __init__(self, catalogue: Any, language: str) -> None:
        self.catalogue, self.language = catalogue, language

    def _template(self, text: str) -> _Template:
        out = _Template(text)
        out.language = self.language
        return out

    def gettext(self, string: str) -> str:
        return self._template(self.catalogue.gettext(string))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._template(self.catalogue.ngettext(singular, plural, n))


def _direct_gettext(env: Environment, catalogue: Any, language: str) -> None:
    """Jinja's newstyle ``gettext``/``ngettext`` and ``_``, each one call deep, eliding.

    Jinja's own pass the template's context and call the catalogue through it, and its ``_``
    calls ``gettext`` through the context again: three ``Context.call`` for each sentence
    of a report, a tenth of rendering one (issue 21). These do what Jinja's do (translate,
    mark safe where the template autoescapes, then ``%`` the variables, always) with the
    catalogue's own methods, which take no context. Same text, same escaping; before the
    ``%``, the word ahead of each value is elided where ``language`` does so (French "de
    %(place)s" with Islande says "d'Islande", :func:`gm.i18n.elided_template`)."""
    get, nget = catalogue.gettext, catalogue.ngettext
    if language not in ELIDED:  # English: no word to elide, no call to ask (issue 21)
        _plain_gettext(env, get, nget)
        return

    @pass_eval_context
    def gettext(eval_ctx: EvalContext, string: str, /, **variables: Any) -> str:
        rv = elided_template(get(string), variables, language)
        if eval_ctx.autoescape:
            rv = Markup(rv)
        return rv % variables

    @pass_eval_context
    def ngettext(eval_ctx: EvalContext, singular: str, plural: str, num: int, /,
                 **variables: Any) -> str:
        variables.setdefault("num", num)
        rv = elided_template(nget(singular, plural, num), variables, language)
        if eval_ctx.autoescape:
            rv = Markup(rv)
        return rv % variables

    env.globals.update(gettext=gettext, ngettext=ngettext, _=gettext)


def _plain_gettext(env: Environment, get: Callable[[str], str],
                   nget: Callable[[str, str, int], str]) -> None:
    """:func:`_direct_gettext` for a language that elides nothing: the same, without the
    elision's look at each sentence (a storm's close renders some 260 a game)."""

    @pass_eval_context
    def gettext(eval_ctx: EvalContext, string: str, /, **variables: Any) -> str:
        rv = get(string)
        return (Markup(rv) if eval_ctx.autoescape else rv) % variables

    @pass_eval_context
    def ngettext(eval_ctx: EvalContext, singular: str, plural: str, num: int, /,
                 **variables: Any) -> str:
        variables.setdefault("num", num)
        rv = nget(singular, plural, num)
        return (Markup(rv) if eval_ctx.autoescape else rv) % variables

    env.globals.update(gettext=gettext, ngettext=ngettext, _=gettext)


@lru_cache(maxsize=1024)
def _moment_once(dt: datetime | None, tz: str, lang: str) -> str:
    return moment(dt, tz, lang)


def _moment(dt: datetime | None, tz: str, lang: str) -> str:
    """:func:`gm.l10n.moment`, remembered: a report writes its deadline five times, each
    through Babel (a fifth of a report's frame, issue 21). Aware datetimes equal as
    instants are written alike in ``tz``, so one answer serves them all."""
    try:
        return _moment_once(dt, tz, lang)
    except TypeError:  # something unhashable: as it is
        return moment(dt, tz, lang)


def folded(text: Any) -> str:
    """``text`` but for case, accents and spaces, the filter ``folded``: a reply shows
    the line a player wrote under its echo only when they differ otherwise
    ("reconnaitre Estland" is "reconnaître Estland", "Livland:" is "Livland :").

    Remembered (the last 4,096 texts): a reply's text and HTML both fold each order's line
    and echo, and a player's lines come back each turn (issue 21)."""
    return _folded(str(text))


@lru_cache(maxsize=4096)
def _folded(text: str) -> str:
    from gm.orders.names import strip_accents

    return "".join(strip_accents(text).lower().split())


@lru_cache(maxsize=64)
def game_words(game: str, language: str) -> Mapping[str, Any]:
    """A game's names in ``language`` for its templates (:meth:`GameModule.words`), made
    once per game and language (they come from the game's data; a report asked for them
    several times, issue 21)."""
    from gm.games.registry import get

    return get(game).words(language)


def power_said(game: str, power: str, form: str, language: str) -> str:
    """A power's name as a player reads it in ``language`` (:meth:`GameModule.power_name`);
    templates call it as ``say_power(game, power, form)``."""
    from gm.games.registry import get

    return get(game).power_said(power, language, form)


def render(name: str, lang: str = "en", game: str | None = None, *, game_only: bool = False,
           kind: str = "txt", **context: Any) -> str:
    """Render ``name``; ``game_only`` looks only among the game's own templates."""
    language = lang if lang in languages() else SOURCE_LANGUAGE
    env = environment(language)
    candidates = []
    folders = ([game] if game else []) + ([] if game_only else ["mail"])
    for folder in folders:
        candidates.append(f"{folder}/{name}.{kind}.j2")
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
