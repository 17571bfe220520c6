"""Every benchmark of bench/ still runs (issue 21): each is started as a user would start it,
at tiny sizes, and must print its bare reference, gm's figure and the ratio with its spread.
No figure is judged here (no timed assertions); bench/README.md has the measured table."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.servers import dovecot_available

ROOT = Path(__file__).resolve().parents[2]
SPREAD = r"[\d,.]+ \[[\d,.]+-[\d,.]+\]"


def run(module: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", f"bench.{module}", *args], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def assert_figures(out: str, name: str, bare: str) -> None:
    """The three lines every benchmark prints for a target: bare, gm, ratio; each median [min-max]."""
    assert re.search(rf"^{re.escape(name)}: {re.escape(bare)}: {SPREAD} ", out, re.M), out
    assert re.search(rf"^{re.escape(name)}: gm: {SPREAD} ", out, re.M), out
    assert re.search(rf"^{re.escape(name)}: ratio: {SPREAD} \(target ", out, re.M), out


def test_bench_startup() -> None:
    out = run("bench_startup", "--runs", "1")
    assert_figures(out, "startup gm --help", "bare import click")
    assert_figures(out, "startup gm --version", "bare import click")


def test_bench_parse() -> None:
    out = run("bench_parse", "--mails", "6", "--runs", "1")
    for game in ("baltica", "britannica"):
        assert re.search(rf"^parse {game}: 6 mails, \d+ order lines$", out, re.M), out
        assert_figures(out, f"parse {game}", "bare Lark LALR")


@pytest.mark.imap
@pytest.mark.skipif(not dovecot_available(), reason="needs Dovecot (scripts/install --test) run as root")
def test_bench_ingest() -> None:
    pg = os.environ.get("GM_TEST_DATABASE_URL")
    out = run("bench_ingest", "--mails", "4", "--games", "1", "--runs", "1",
              "--rate", "20", "--latency-mails", "3",
              *(["--instances", "1", "2", "--pg", pg] if pg else []))
    assert_figures(out, "ingest", "bare Lark LALR")
    assert_figures(out, "ingest", "bare imapclient fetch")
    assert_figures(out, "ingest floor", "bare Lark LALR")
    assert_figures(out, "ingest cold", "bare Lark LALR")
    assert re.search(r"^ingest latency: 3 mails at 20/s .* p99 \d+ ms", out, re.M), out
    if pg:
        assert "every mail answered once" in out
        assert re.search(rf"^ingest x2: ratio to x1: {SPREAD} \(target", out, re.M), out
        assert re.search(rf"^ingest cold x2: ratio to x1: {SPREAD} \(print only", out, re.M), out


def test_bench_storm() -> None:
    pg = ["--pg", os.environ["GM_TEST_DATABASE_URL"]] if os.environ.get("GM_TEST_DATABASE_URL") else ["--no-pg"]
    out = run("bench_storm", "--games", "3", "--runs", "1", "--instances", "1", "2", *pg)
    for store in ("sqlite", "postgresql") if len(pg) == 2 else ("sqlite",):
        for k in (1, 2):
            assert_figures(out, f"storm {store} x{k}", "engine alone")
            assert re.search(rf"^storm {store} x{k}: .* instance \[[\d, ]+\], exactly once \(3 games adjudicated\), 0 reports left unsent$",
                             out, re.M), out
            assert re.search(rf"^storm {store} x{k}: every report handed to the sink .*: {SPREAD} s", out, re.M), out
        assert re.search(rf"^storm {store}: 2 instances / 1 instance, games/s to queued: {SPREAD}", out, re.M), out


def test_bench_memory() -> None:
    out = run("bench_memory", "--games", "4", "--mails", "2", "--runs", "1")
    assert_figures(out, "memory", "bare imports")
