"""Coverage-guided fuzzing with atheris (libFuzzer) of the MIME layer, the envelope and the grammars.

Not part of the test run (atheris is optional: ``.venv/bin/pip install atheris``):

    .venv/bin/python tests/fuzz/atheris_targets.py -max_total_time=300 [corpus_dir]

One input drives every target: decode + classify of the bytes as a mail, then
its text through clean_body, the envelope and each game's parse_orders. A crash
(any exception) or a hang (-timeout, default 10 s per input) stops the run
with the input saved as crash-*/timeout-*.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from gm.games.registry import get
    from gm.mail.classify import classify_with_reason
    from gm.mail.mime import decode
    from gm.orders.envelope import parse_envelope
    from gm.orders.model import SourceLine
    from gm.orders.text import clean_body

GAMES = []
for name in ("baltica", "britannica", "viking"):
    module = get(name)
    scenario = module.scenarios()[0]
    GAMES.append((module, module.setup(scenario.id, {}), scenario.powers[0]))


def one_input(data: bytes) -> None:
    mail = decode(data)
    classify_with_reason(mail)
    text = mail.text or data.decode("utf-8", "replace")
    lines = clean_body(text)
    parse_envelope(lines)
    order_lines = [SourceLine(i + 1, ln.text[:500]) for i, ln in enumerate(lines[:50])]
    for module, state, power in GAMES:
        module.parse_orders(state, power, order_lines)


if __name__ == "__main__":
    atheris.Setup(sys.argv + ["-timeout=10", "-rss_limit_mb=4096"], one_input)
    atheris.Fuzz()
