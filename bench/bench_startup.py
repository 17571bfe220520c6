"""Start-up of the ``gm`` command (issue 21): ``gm --help`` and ``gm --version`` against a bare
``python -c "import click"``, each a fresh process, wall time.

Target: each within 3 times the bare start. Every command module imports the database, the
games and the service only inside the commands that use them.

Run: ``.venv/bin/python -m bench.bench_startup [--runs 7]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from bench.realgames import ROOT, report


def gm_command() -> list[str]:
    """The installed ``gm`` script next to this interpreter, else the same entry point by -c."""
    script = Path(sys.executable).parent / "gm"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from gm.cli.main import main; main()"]


def wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    bare_argv = [sys.executable, "-c", "import click"]
    wall(bare_argv), wall([*gm_command(), "--version"])  # warm the file cache
    for flag in ("--help", "--version"):
        bare, ours = [], []
        for _ in range(args.runs):  # interleaved, so that load on the machine hits both alike
            bare.append(wall(bare_argv))
            ours.append(wall([*gm_command(), flag]))
        report(f"startup gm {flag}", "s", bare, ours, "<= 3.0", bare_name="bare import click",
               fmt="{:.3f}")


if __name__ == "__main__":
    main()
