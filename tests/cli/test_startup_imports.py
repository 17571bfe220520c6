"""`gm --help` and `gm --version` start without the database, the games or the service (issue 21:
every command imported everything, and `gm --version` took seconds). Measured in bench/bench_startup.py."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys

import gm

HEAVY = ("sqlalchemy", "sqlmodel", "alembic", "lark", "jinja2", "psycopg", "gm.db", "gm.games",
         "gm.service", "gm.pipeline", "gm.maps", "gm.verify")

PROBE = """
import json, sys
from gm.cli.main import cli
try:
    cli([{flag!r}], prog_name="gm")
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {roots!r} or m.startswith({heavy!r}))))
"""


def loaded_after(flag: str) -> tuple[list[str], str]:
    roots = sorted({h for h in HEAVY if "." not in h})
    done = subprocess.run([sys.executable, "-c", PROBE.format(flag=flag, roots=roots, heavy=HEAVY)],
                          capture_output=True, text=True, check=True)
    *printed, modules = done.stdout.strip().splitlines()
    return json.loads(modules), "\n".join(printed)


def test_help_lists_every_command_without_loading_the_service() -> None:
    modules, text = loaded_after("--help")
    assert modules == []
    for command in ("serve", "game", "mod", "orders", "verify", "archive", "db", "state", "adjudicate"):
        assert f"  {command} " in text


def test_version_loads_nothing_heavy_and_is_the_installed_version() -> None:
    modules, text = loaded_after("--version")
    assert modules == []
    assert text == f"gm, version {gm.__version__}"
    assert gm.__version__ == importlib.metadata.version("gm")
