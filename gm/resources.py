"""Where the non-Python parts of gm live (templates, grammars).

They sit at the top of the repository (design card layout); an editable
install finds them there.
"""

from __future__ import annotations

from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent


def project_root() -> Path:
    return _ROOT


def templates_root() -> Path:
    return _ROOT / "templates"


def grammar_root() -> Path:
    return _ROOT / "orders_grammar"
