"""Benchmark: lines parsed per second for a realistic 30-line order mail.

Compares, in one run over the same text:
  * gm's full path (clean_body -> parse_envelope -> parse_order_lines, LALR),
  * the same order lines through an Earley parser built from the same grammar,
  * a plain regex line splitter (the floor: split, strip comments, match a verb).

Run:  .venv/bin/python bench/bench_parse.py
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

from lark import Lark

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm.orders.envelope import parse_envelope  # noqa: E402
from gm.orders.grammar import parse_order_lines  # noqa: E402
from gm.orders.names import strip_accents  # noqa: E402
from gm.orders.text import clean_body  # noqa: E402
from gm.resources import grammar_root  # noqa: E402
from tests.orders.paxtest import GRAMMAR, context  # noqa: E402

MAIL = """Hi all, my orders for this turn.

GAME brit1
POWER britain hunter2
PHASE 1880-movement
buy army 3
buy fleet 10
place protectorate in Tunis if italy places no control in Tunis and italy places no influence in Tunis
place influence in Egypt
upgrade Egypt to protectorate
place interest in Morocco unless france places control in Morocco
transfer 20 to france
if round >= 2 then buy army 3
place possession in Kongo if funds >= 40
retreat Karl XII to Livland if round >= 2 and strength of Karl XII <= 2
move from Estland: Vellinck to Ingermanland unless enemy blocks in Ingermanland > 3
if russia moves into Livland then siege Estland
siege Grodno
buy army 1
place interest in Serbia
place influence in Tripoli if not (italy places any in Tripoli or funds < 20)
1. buy fleet 3
2. place interest in Tunis
- move from Skåne: Karl XII, Dalregementet to Småland
recn Livland
place protectorate in Tunsi
upgrade Morocco to influence
transfer 5 to germany
Thanks, see you next turn!
-- \nBoris
"""

LINE = re.compile(r"^\s*(?:\d+[.)]|[-*•])?\s*(\w+)\b(.*)$")


def regex_split(text: str) -> list[tuple[str, str]]:
    out = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line == "--":
            break
        m = LINE.match(line)
        if m:
            out.append((m.group(1).lower(), m.group(2)))
    return out


def gm_full(text: str) -> int:
    env = parse_envelope(clean_body(text))
    n = 0
    for section in env.sections:
        lines = [o.line for o in section.orders]
        n += len(parse_order_lines(GRAMMAR, lines, context()).lines)
    return n


def rate(fn, arg, seconds: float = 1.0) -> tuple[float, int]:
    n, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        fn(arg)
        n += 1
    return n / elapsed, n


def main() -> None:
    lines = [x for x in MAIL.splitlines() if x.strip()]
    order_lines = [line.text for s in parse_envelope(clean_body(MAIL)).sections for line in
                   (o.line for o in s.orders)]
    lalr = GRAMMAR.parser()
    earley = Lark.open(str(GRAMMAR.grammar_path), parser="earley", lexer="dynamic",
                       import_paths=[str(grammar_root())])
    t0 = time.perf_counter()
    Lark.open(str(GRAMMAR.grammar_path), parser="lalr", lexer="contextual",
              import_paths=[str(grammar_root())])
    build = time.perf_counter() - t0

    def raw(parser: Lark):
        def go(texts: list[str]) -> None:
            for t in texts:
                try:
                    parser.parse(strip_accents(t))
                except Exception:
                    pass
        return go

    full, _ = rate(gm_full, MAIL)
    rx, _ = rate(regex_split, MAIL)
    lalr_rate, _ = rate(raw(lalr), order_lines)
    earley_rate, _ = rate(raw(earley), order_lines)
    n = len(lines)
    print(f"mail: {n} non-blank lines, {len(order_lines)} order lines")
    print(f"regex splitter        {rx * n:12.0f} lines/s")
    print(f"gm full path (LALR)   {full * n:12.0f} lines/s   ({rx / full:.0f}x slower than regex)")
    print(f"LALR parse only       {lalr_rate * len(order_lines):12.0f} lines/s")
    print(f"Earley parse only     {earley_rate * len(order_lines):12.0f} lines/s   "
          f"(LALR {lalr_rate / earley_rate:.1f}x faster)")
    print(f"LALR parser build     {build * 1000:12.1f} ms (once per process, cached)")


if __name__ == "__main__":
    main()
