"""Parsing to typed, name-resolved orders (issue 21) against bare Lark on the same lines.

Real order mails of 10-20 lines for Pax Baltica (Sweden's action phase of 12.1) and Pax
Britannica (the 1880 Movement phase, seven powers) are split once as gm splits them; then,
on exactly the same order lines:

* bare: Lark LALR (contextual lexer) built from gm's own grammar file, ``parse`` per line,
  nothing else (a line it refuses costs it its error, as it costs gm);
* gm: ``GameModule.parse_orders(state, power, lines)`` per mail: accents folded, the tree
  transformed to typed orders, every name resolved among what the power may name, every
  bad line explained.

Prints lines/s for both, the ratio gm/bare (target >= 0.80), median [min-max] of the runs;
the two sides are timed mail by mail in turn, so a shared machine's load falls on both.

Run: ``.venv/bin/python -m bench.bench_parse [--mails 200] [--runs 5]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import realgames as rg
from gm.clock import FakeClock
from gm.db.engine import make_engine, sqlite_url
from gm.db.migrate import upgrade
from gm.games import registry
from gm.mail.mime import decode
from gm.orders.envelope import OrderLine, parse_envelope
from gm.orders.model import SourceLine
from gm.orders.text import clean_body
from gm.service.context import ServiceContext


def order_lines(raw: bytes) -> tuple[str, list[SourceLine]]:
    """The power signed on and the section's order lines, as gm hands them to the game."""
    env = parse_envelope(clean_body(decode(raw).text))
    section = env.sections[0]
    assert section.signon is not None
    lines = [item.line for item in section.items if isinstance(item, OrderLine)]
    return section.signon.power, lines


def measure(game: str, state: dict[str, Any], mails: list[tuple[str, list[SourceLine]]],
            runs: int) -> None:
    module = registry.get(game)
    bare_parser = rg.bare_parser(game)
    count = sum(len(lines) for _, lines in mails)
    module.parse_orders(state, mails[0][0], mails[0][1])  # build the parser once, both sides
    bare, ours = [], []
    for _ in range(runs):
        # Mail by mail, bare then gm, so that both sides see the same moments of a shared
        # machine's load (timing all of one side, then all of the other, let a busy second
        # fall on one side only: ratios of 0.4 to 1.9 in one run).
        spent_bare = spent_ours = 0.0
        n = parsed = 0
        for power, lines in mails:
            t = time.perf_counter()
            for line in lines:
                try:
                    bare_parser.parse(line.text)
                except Exception:  # noqa: S110 - refused lines are part of the work
                    pass
                n += 1
            t2 = time.perf_counter()
            parsed += len(module.parse_orders(state, power, lines).lines)
            spent_ours += time.perf_counter() - t2
            spent_bare += t2 - t
        bare.append(n / spent_bare)
        ours.append(parsed / spent_ours)
        assert parsed == n == count
    print(f"parse {game}: {len(mails)} mails, {count} order lines")
    rg.report(f"parse {game}", "lines/s", bare, ours, ">= 0.80", bare_name="bare Lark LALR")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(sqlite_url(Path(tmp) / "gm.db"))
        upgrade(engine)
        ctx = ServiceContext(engine=engine, clock=FakeClock(), instance="bench",
                             settings={"address": "gm@example.org"})
        rg.new_baltica(ctx, "pb1")
        rg.new_britannica(ctx, "pax1")
        cases = [("baltica", rg.state_of(ctx, "pb1"), rg.baltica_mails(ctx, ["pb1"], args.mails)),
                 ("britannica", rg.state_of(ctx, "pax1"), rg.britannica_mails(ctx, ["pax1"], args.mails))]
        engine.dispose()
    for game, state, raws in cases:
        measure(game, state, [order_lines(r) for r in raws], args.runs)


if __name__ == "__main__":
    main()
