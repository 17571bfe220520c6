"""Compiled templates kept on disk between processes (issue 21): a fresh process loads them
instead of compiling, an edited template is compiled again, and a cache that cannot be used
changes nothing but the time."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from jinja2 import Environment

from gm.service import render


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A process's first render, with its cache in ``tmp_path/cache``: ``reload()`` drops
    the environments and the cache object, as a new process would start without them."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("GM_TEMPLATE_CACHE", str(cache))
    render.environment.cache_clear()
    render._template_cache.cache_clear()
    yield cache
    render.environment.cache_clear()
    render._template_cache.cache_clear()


def reload() -> None:
    render.environment.cache_clear()
    render._template_cache.cache_clear()


NAME = "mail/report.txt.j2"


def refuse_to_compile(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    compiled: list[str] = []
    original = Environment.compile

    def counting(self, source, name=None, filename=None, *a, **kw):  # type: ignore[no-untyped-def]
        compiled.append(name)
        return original(self, source, name, filename, *a, **kw)

    monkeypatch.setattr(Environment, "compile", counting)
    return compiled


def test_a_second_process_loads_the_compiled_template_and_a_second_language_too(
        fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = refuse_to_compile(monkeypatch)
    first = render.environment("en").get_template(NAME)
    assert compiled == [NAME] and list(fresh.iterdir())
    reload()
    again = render.environment("en").get_template(NAME)
    french = render.environment("fr").get_template(NAME)
    assert compiled == [NAME], "loaded from the cache, not compiled again"
    assert again.root_render_func.__code__.co_code == first.root_render_func.__code__.co_code
    assert french is not again


def test_an_edited_template_is_compiled_again(fresh: Path, monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    root = tmp_path / "templates"
    (root / "mail").mkdir(parents=True)
    (root / "mail" / "x.txt.j2").write_text("one {{ n }}\n")
    monkeypatch.setattr(render, "templates_root", lambda: root)
    assert render.render("x", n=1) == "one 1\n"
    reload()
    (root / "mail" / "x.txt.j2").write_text("two {{ n }}\n")
    assert render.render("x", n=2) == "two 2\n"


def test_a_damaged_or_unusable_cache_only_costs_a_compile(fresh: Path, monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    render.environment("en").get_template(NAME)
    for f in fresh.iterdir():
        f.write_bytes(b"j2 not a template")
    reload()
    compiled = refuse_to_compile(monkeypatch)
    assert render.environment("en").get_template(NAME).render is not None
    assert compiled == [NAME]  # the damaged file was passed over
    reload()

    def full(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("jinja2.bccache.tempfile.NamedTemporaryFile", full)
    for f in fresh.iterdir():
        f.unlink()
    assert render.environment("en").get_template(NAME) is not None  # not kept, still rendered
    reload()
    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("")
    monkeypatch.setenv("GM_TEMPLATE_CACHE", str(not_a_directory))
    assert render._template_cache() is None
    assert render.environment("en").get_template(NAME) is not None
    monkeypatch.setenv("GM_TEMPLATE_CACHE", "off")
    render._template_cache.cache_clear()
    assert render._template_cache() is None
