"""The Babel extractors for gm's Python code and HELP files (``pybabel extract -F babel.cfg``).

It finds what Babel's own Python extractor finds (calls of the keywords given in
babel.cfg: ``msg``, ``plural``, ``N_``) and, besides, the values of Enums marked
with :func:`gm.i18n.vocabulary`: a game's closed list of reasons is written as
plain English values, which no keyword call shows. The HELP files of
orders_grammar/ (TOML) give their English texts the same way.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from babel.messages.extract import DEFAULT_KEYWORDS, extract_python


def _is_vocabulary(decorator: ast.expr) -> bool:
    return (isinstance(decorator, ast.Name) and decorator.id == "vocabulary") or (
        isinstance(decorator, ast.Attribute) and decorator.attr == "vocabulary")


def vocabulary_values(source: str) -> Iterator[tuple[int, str]]:
    """(line, English value) of every member of a ``@vocabulary`` Enum in ``source``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and any(map(_is_vocabulary, node.decorator_list)):
            for item in node.body:
                if (isinstance(item, ast.Assign) and isinstance(item.value, ast.Constant)
                        and isinstance(item.value.value, str)):
                    yield item.lineno, item.value.value


def extract_gm_python(fileobj: IO[bytes], keywords: Any, comment_tags: Collection[str],
                      options: Any) -> Iterator[tuple[Any, ...]]:
    """Babel extraction method: keyword calls, then vocabulary values."""
    source = fileobj.read()
    fileobj.seek(0)
    yield from extract_python(fileobj, keywords, comment_tags, options)
    text = source.decode(options.get("encoding", "utf-8")) if isinstance(source, bytes) else source
    for lineno, value in vocabulary_values(text):
        yield lineno, None, value, ["vocabulary"]


KEYWORDS: dict[str, Any] = {**DEFAULT_KEYWORDS, "msg": None, "plural": (1, 2), "N_": None}
"""The calls whose arguments are messages: gettext's defaults (templates use ``_``,
``gettext``, ``ngettext``) and gm's own; scripts/i18n passes the same to pybabel."""


def help_texts(data: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(where, English text) of a HELP file (``<grammar>.help.toml``, ``*.topics.toml``):
    each entry's ``en``, its ``syntax.en``, and the placeholder words of ``[_syntax.en]``."""
    for key, entry in data.items():
        if not isinstance(entry, Mapping):
            continue
        if key == "_syntax":
            for name, shown in entry.get("en", {}).items():
                yield f"HELP placeholder {name}", str(shown)
            continue
        if isinstance(entry.get("en"), str):
            yield f"HELP {key}", entry["en"]
        syntax = entry.get("syntax")
        if isinstance(syntax, Mapping) and isinstance(syntax.get("en"), str):
            yield f"HELP {key} (syntax)", syntax["en"]


def extract_help_toml(fileobj: IO[bytes], keywords: Any, comment_tags: Collection[str],
                      options: Any) -> Iterator[tuple[Any, ...]]:
    """Babel extraction method for the HELP files of orders_grammar/."""
    for where, text in help_texts(tomllib.load(fileobj)):
        yield 0, None, text, [where]
