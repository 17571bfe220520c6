"""Real games and real order mails for the benchmarks (issue 21), and how figures are printed.

* Pax Baltica 12.1 (two seats), brought to Sweden's first action phase by the
  moderator's action roll, as in tests/games/baltica/test_by_mail.py;
* Pax Britannica 1880 (seven seats), in its first Movement phase.

An order mail is what a player writes: a greeting, the sign-on, 3 to 10 order
lines for the phase that is open (moves, sieges, a battle preference; buys and
placements), a comment, a signature and the quoted end of the last report:
10 to 20 lines in all. Orders are drawn at random (seeded) from what the power
could order now, so some are refused at validation, as in real play.

Every benchmark prints ``bare``, ``gm`` and ``ratio`` lines, each the median of
``runs`` runs with the spread ``[min-max]`` (:func:`spread`).
"""

from __future__ import annotations

import random
import statistics
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from lark import Lark
from sqlalchemy import create_engine
from sqlalchemy import text as sql

from gm.db.engine import session_scope
from gm.mail.types import FetchedMail
from gm.orders.envelope import OrderLine, parse_envelope
from gm.orders.text import clean_body
from gm.pipeline.handle import handle_inbound
from gm.pipeline.ingest import store_inbound
from gm.resources import grammar_root
from gm.service.adjudicate import settle
from gm.service.context import ServiceContext
from gm.service.games import SeatSpec, create_game, current_phase

BALTICA_SEATS = (("sweden", "sw-secret", "en"), ("coalition", "co-secret", "fr"))
BRITANNICA_POWERS = ("britain", "france", "germany", "italy", "japan", "russia", "usa")
MODERATOR = ("mod@example.org", "mod-secret")


def address(game_id: str, power: str) -> str:
    return f"{power}.{game_id}@players.example"


def password(module: str, power: str) -> str:
    """The password of ``power``'s seat in a game made by :func:`new_baltica` or
    :func:`new_britannica` (``module``: "baltica" or "britannica")."""
    if module == "baltica":
        return next(pw for p, pw, _ in BALTICA_SEATS if p == power)
    return f"{power}-pw"


def new_baltica(ctx: ServiceContext, game_id: str, seed: bytes = b"\x03" * 32) -> None:
    """A 12.1 Grand Campaign game, its action roll supplied (Sweden 5, Coalition 2): the
    open phase is Sweden's first action phase."""
    seats = [SeatSpec(p, address(game_id, p), password=pw, language=lang)
             for p, pw, lang in BALTICA_SEATS]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id=game_id, module_name="baltica", scenario="12.1", seats=seats,
                    moderator_address=MODERATOR[0], moderator_password=MODERATOR[1], seed=seed)
    deliver(ctx, order_mail(f"GAME {game_id}\nMODERATOR {MODERATOR[1]}\nDICE 5 2\n",
                            MODERATOR[0], f"<dice-{game_id}@mod.example>"))
    settle(ctx, game_id, by="bench")


def new_britannica(ctx: ServiceContext, game_id: str, seed: bytes = b"\x05" * 32) -> None:
    """An 1880 game of seven seats, in its first Movement phase (the set-up's GM phases played
    out, as ``gm game new`` does)."""
    seats = [SeatSpec(p, address(game_id, p), password=password("britannica", p),
                      language="fr" if p == "france" else "en") for p in BRITANNICA_POWERS]
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id=game_id, module_name="britannica", scenario="1880", seats=seats,
                    moderator_address=MODERATOR[0], moderator_password=MODERATOR[1], seed=seed,
                    play_out=True)


def state_of(ctx: ServiceContext, game_id: str) -> dict[str, Any]:
    with session_scope(ctx.engine) as s:
        return dict(current_phase(s, game_id).game_state or {})


def baltica_orders(state: dict[str, Any], power: str, rng: random.Random) -> list[str]:
    """3 to 6 order lines Sweden could write in its action phase (moves, sieges, hits prefer)."""
    from bench.bench_baltica import random_orders
    from gm.games.baltica import module

    lines = [o.echo() for o in random_orders(state, power, rng)]
    board = module.board_of(state)
    own = sorted(board.blocks[b].name for b, bs in state["blocks"].items()
                 if board.blocks[b].nation == "sweden" and bs["location"] in board.territories)
    lines.append(f"hits prefer {rng.choice(own)}")
    if len(lines) < 3:
        lines.append(f"hits prefer {rng.choice(own)}")
    return lines


def britannica_orders(state: dict[str, Any], power: str, rng: random.Random) -> list[str]:
    """3 to 10 Movement-phase lines: buys, placements, army moves."""
    from bench.bench_britannica import random_lines

    lines = [x for x in random_lines(state, power, rng) if not x.startswith("FOR ")]
    while len(lines) < 3:
        lines += random_lines(state, power, rng)[1:]
    return lines[:10]


def mail_body(game_id: str, power: str, password: str, orders: Sequence[str], i: int) -> str:
    return "\n".join([
        "Hello GM,", "", f"my orders for this phase (draft {i}).", "",
        f"GAME {game_id}", f"POWER {power} {password}", *orders,
        "# the rest stays where it is", "", "Thanks,", "-- ", power.title(), "",
        "> ==== gm report", "> Phase now: the next one", "> Your blocks:",
    ]) + "\n"


def order_mail(body: str, sender: str, message_id: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "gm@example.org", "orders"
    msg["Message-ID"] = message_id
    msg.set_content(body)
    return bytes(msg)


def baltica_mails(ctx: ServiceContext, game_ids: Sequence[str], n: int, seed: int = 1) -> list[bytes]:
    """``n`` Swedish order mails, spread over ``game_ids`` (distinct Message-IDs)."""
    rng = random.Random(seed)
    states = {g: state_of(ctx, g) for g in game_ids}
    out = []
    for i in range(n):
        g = game_ids[i % len(game_ids)]
        body = mail_body(g, "sweden", "sw-secret", baltica_orders(states[g], "sweden", rng), i)
        out.append(order_mail(body, address(g, "sweden"), f"<pb-{seed}-{i}@players.example>"))
    return out


def britannica_mails(ctx: ServiceContext, game_ids: Sequence[str], n: int, seed: int = 1) -> list[bytes]:
    """``n`` Movement-phase mails of the seven powers, spread over ``game_ids``."""
    rng = random.Random(seed)
    states = {g: state_of(ctx, g) for g in game_ids}
    out = []
    for i in range(n):
        g, power = game_ids[i % len(game_ids)], BRITANNICA_POWERS[i % 7]
        body = mail_body(g, power, password("britannica", power), britannica_orders(states[g], power, rng), i)
        out.append(order_mail(body, address(g, power), f"<pax-{seed}-{i}@players.example>"))
    return out


def deliver(ctx: ServiceContext, raw: bytes) -> int:
    stored = store_inbound(ctx, FetchedMail(raw, "bench:inbox", None, None))
    handle_inbound(ctx, stored.inbound_id)
    return stored.inbound_id


# -- the bare Lark reference ------------------------------------------------------------

@dataclass(frozen=True)
class SplitLines:
    """A mail's cleaned lines as gm splits them: envelope lines and the game's order lines."""

    envelope: list[str]
    orders: list[str]


def split_lines(raw: bytes) -> SplitLines:
    from gm.mail.mime import decode

    lines = clean_body(decode(raw).text)
    env = parse_envelope(lines)
    orders = [item.line.text for sec in env.sections for item in sec.items if isinstance(item, OrderLine)]
    envelope = [sec.start.text for sec in env.sections if sec.start is not None]
    return SplitLines(envelope, orders)


def bare_parser(game: str) -> Lark:
    """Lark LALR, contextual lexer, on gm's own grammar file, nothing else."""
    return Lark.open(str(grammar_root() / f"{game}.lark"), parser="lalr", lexer="contextual",
                     import_paths=[str(grammar_root())])


def bare_parse(game: Lark, envelope: Lark, mails: Sequence[SplitLines]) -> int:
    """Parse every envelope line and order line of ``mails``; the number of lines."""
    count = 0
    for m in mails:
        for text in m.envelope:
            envelope.parse(text)
            count += 1
        for text in m.orders:
            try:
                game.parse(text)
            except Exception:  # a line gm would refuse costs the bare parser its error too
                pass
            count += 1
    return count


# -- figures ----------------------------------------------------------------------------

def spread(values: Sequence[float], fmt: str = "{:,.1f}") -> str:
    """``median [min-max]``."""
    return f"{fmt.format(statistics.median(values))} [{fmt.format(min(values))}-{fmt.format(max(values))}]"


def report(name: str, unit: str, bare: Sequence[float], ours: Sequence[float], target: str,
           ratio: Callable[[float, float], float] | None = None, bare_name: str = "bare",
           fmt: str = "{:,.1f}") -> None:
    """Print the bare reference, gm's figure and their ratio, each as median [min-max]."""
    ratio = ratio or (lambda o, b: o / b)
    ratios = [ratio(o, b) for o, b in zip(ours, bare, strict=True)]
    print(f"{name}: {bare_name}: {spread(bare, fmt)} {unit}")
    print(f"{name}: gm: {spread(ours, fmt)} {unit}")
    print(f"{name}: ratio: {spread(ratios, '{:.3f}')} (target {target}; {len(ratios)} runs)")


ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@contextmanager
def pg_databases(server_url: str) -> Iterator[Callable[[str | None], str]]:
    """Yields ``new(template=None) -> url``: a fresh database in that PostgreSQL server (a copy
    of ``template``'s database when given); every one is dropped at the end."""
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    made: list[str] = []

    def new(template: str | None = None) -> str:
        name = f"gm_bench_{uuid.uuid4().hex[:10]}"
        copy = f' TEMPLATE "{template.rsplit("/", 1)[1]}"' if template else ""
        with admin.connect() as conn:
            conn.execute(sql(f'CREATE DATABASE "{name}"{copy}'))
        made.append(name)
        return f"{server_url.rsplit('/', 1)[0]}/{name}"

    try:
        yield new
    finally:
        with admin.connect() as conn:
            for name in reversed(made):
                conn.execute(sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
