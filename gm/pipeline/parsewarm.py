"""The order mail's parsers built when the daemon starts, not on its first mail (issue 21).

Reading a mail needs the envelope's parser and, for each game, its module's order parsers
(Lark LALR tables built from ``orders_grammar/``, the inline twin of each, gm.orders.grammar).
They are built once per process, on first use: after a start, the first Pax Baltica mail
took 0.4 s and the first Pax Britannica mail 0.14 s more than the next ones (CPU, after the
reports' warm-up, gm.service.reports.warm_up), inside that mail's handling. The daemon
builds them beside the reports' warm-up, before it freezes what its start loaded
(gm.daemon.settle_heap): the parse tables then also stay out of every later collection.
"""

from __future__ import annotations

import logging

from sqlmodel import col, func, select

from gm.db.engine import session_scope
from gm.db.models import Game
from gm.orders.envelope import parse_envelope
from gm.orders.model import SourceLine
from gm.orders.text import clean_body
from gm.service.context import ServiceContext
from gm.service.games import current_phase, get_game, module_of, phase_info, seats

log = logging.getLogger(__name__)

SAMPLE_ENVELOPE = "GAME warm-up\nPOWER warm-up warm-up\nmove from a to b\n"
"""A sign-on and an order line, read as a mail's body is read: every parser the envelope
uses is built."""
SAMPLE_ORDER = SourceLine(1, "move from a to b")
"""An order line no game accepts as it stands (its names are no one's): read, it builds the
module's parsers, the tree parser too, which reads again a line the inline one refused."""


def warm_up(ctx: ServiceContext) -> int:
    """Build the envelope's parser and the order parsers of each game module the running
    games use, by reading a sample as a mail is read (one game of each module, at its current
    phase, for a power of its seats). How many modules were warmed. Reads only; a module
    whose parsers cannot be built is logged and passed over."""
    parse_envelope(clean_body(SAMPLE_ENVELOPE))
    warmed = 0
    with session_scope(ctx.engine) as session:
        # one running game of each module (a host with a thousand games reads a handful)
        first = list(session.exec(select(func.min(Game.id)).where(Game.status == "running")
                                  .group_by(col(Game.module))))
        for game_id in first:
            game = get_game(session, game_id)
            try:
                phase = current_phase(session, game.id)
                info = phase_info(phase)
                powers = [*info.owing, *info.may_order] or [s.power for s in seats(session, game.id)]
                if powers:
                    module_of(game).parse_orders(phase.game_state or {}, powers[0], [SAMPLE_ORDER])
            except Exception:  # a head start only: that module's first mail builds them
                log.warning("the order parsers of %s (game %s) were not built ahead",
                            game.module, game.id, exc_info=True)
                continue
            warmed += 1
        session.rollback()
    return warmed
