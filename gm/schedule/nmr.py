"""Missing orders in a row (NMR): after N, the moderator is told.

``close_phase`` fills in each module's default orders and counts
``Seat.missed_in_row``; the report says which powers defaulted. Here, after a
phase closes, every defaulted seat that has now missed ``nmr_warn_after``
phases in a row (or more) is named to the moderator, who may ``REPLACE`` it
(Pax Britannica PBEM rules, "Rules to cover for drop-outs": "The GM will
make every effort to find a replacement as a first priority").
"""

from __future__ import annotations

from collections.abc import Sequence

from gm.db.engine import session_scope
from gm.i18n import msg, plural
from gm.service.context import ServiceContext
from gm.service.deadlines import policy
from gm.service.games import get_game, seat_for_power
from gm.service.notify import notify_moderator


def warn_missed(ctx: ServiceContext, game_id: str, seq: int, phase_id: str,
                defaulted: Sequence[str]) -> list[str]:
    """Tell the moderator of each defaulted power at or past the NMR limit; return them."""
    if not defaulted:
        return []
    warned = []
    with session_scope(ctx.engine) as session:
        game = get_game(session, game_id)
        limit = policy(game.settings).nmr_warn_after
        for power in defaulted:
            seat = seat_for_power(session, game_id, power)
            if seat is None or limit <= 0 or seat.missed_in_row < limit:
                continue
            n = seat.missed_in_row
            notify_moderator(
                ctx, session, game, plural("{power} missed {n} phase in a row",
                                           "{power} missed {n} phases in a row", n, power=power), [
                    plural("{power} ({address}) sent no orders for {phase} and has now missed {n} "
                           "phase in a row; it got its default orders.",
                           "{power} ({address}) sent no orders for {phase} and has now missed {n} "
                           "phases in a row; it got its default orders.", n, power=power,
                           address=seat.address or msg("no address"), phase=phase_id),
                    msg("To hand the seat to a new player: REPLACE POWER {power} WITH address",
                        power=power)],
                key=f"nmr:{game_id}:{seq}:{power}")
            warned.append(power)
    return warned
