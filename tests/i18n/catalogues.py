"""Reading gm's catalogues and extracting its messages in-process, for the tests.

:func:`extracted` runs Babel's extraction (babel.cfg, the keywords of
gm/i18n_extract.py) over the code and the templates, as ``scripts/i18n extract``
does; :func:`entries` reads one language's ``gm.po``.
"""

from __future__ import annotations

import re
import string
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from gm.i18n import LOCALE_DIR
from gm.i18n_extract import KEYWORDS
from gm.resources import project_root

MsgId = str | tuple[str, ...]


@cache
def extracted() -> Catalog:
    """Every message of the code and the templates, as ``pybabel extract`` finds it."""
    root = project_root()
    with (root / "babel.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    catalog = Catalog(project="gm")
    for filename, lineno, message, comments, context in extract_from_dir(
            str(root), method_map, options_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def po_path(language: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / language / "LC_MESSAGES" / "gm.po"


def entries(language: str, locale_dir: Path = LOCALE_DIR) -> Catalog:
    """The ``gm.po`` of ``language`` as Babel reads it (obsolete entries in ``.obsolete``)."""
    with po_path(language, locale_dir).open("rb") as f:
        return read_po(f, locale=language)


def key(message: Message) -> str:
    """The singular msgid of a message."""
    return message.id[0] if isinstance(message.id, tuple | list) else message.id


def forms(message: Message) -> tuple[str, ...]:
    """The msgstr of a message, as a tuple of its plural forms (one for a singular)."""
    return tuple(message.string) if isinstance(message.string, tuple | list) else (message.string or "",)


_PERCENT = re.compile(r"%\((\w+)\)[sd]")


def placeholders(text: str) -> set[str]:
    """The ``{brace}`` fields of a message of the code, or the ``%(name)s`` of a template's."""
    found = set(_PERCENT.findall(text))
    try:
        found |= {f for _, f, _, _ in string.Formatter().parse(text) if f}
    except ValueError:  # a template message with a literal brace
        pass
    return found
