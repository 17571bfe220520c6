"""Winter Solstice: income, refresh, hand limit (Sequence of Play, 2 a-c)."""

from __future__ import annotations

from gm.games.viking.table import Table
from gm.i18n import msg


def income(t: Table, p: str) -> None:
    """a. Income: "Take 1 Silfr per Follower type you have placed, up to the 4 types
    ... (Max 4)", plus income modifiers (e.g. the Bulgar trade center)."""
    placed = sum(1 for n in t.established(p).values() if n > 0)
    amount = min(t.rule("income_max"), placed * t.rule("income_per_type"))
    t.gain(p, amount + t.modifier(p, "solstice", "income", use=True), msg("income"))


def refresh_track(t: Table) -> None:
    """REFRESH the saga track: slide the tiles down to the cheapest spots and fill the
    rest from the saga pile, newest on the most expensive (2 b)."""
    track = t.s["track"]
    kept = [x for x in track if x is not None]
    while len(kept) < len(track) and t.s["pile"]:
        kept.append(t.s["pile"].pop(0))
    track[:] = kept + [None] * (len(track) - len(kept))


def refresh(t: Table, p: str) -> None:
    """b. Refresh: "Any Exhausted components are returned to their Unexhausted state"
    (the longships ``p`` controls), then the saga track is refilled."""
    for ship in t.ships_of(p):
        ship["exhausted"] = False
    refresh_track(t)
    t.emit("refreshed", power=p)


def hand_limit(t: Table, p: str, keep: list[str]) -> None:
    """c. "Discard down to your Hand Limit of 4 (+/- any modifications)".

    A decision at the table, made by mail with the standing order ``keep``: the
    tiles named there are kept first; default: the tiles held longest are kept,
    the most recently gained discarded."""
    hand = t.player(p)["hand"]
    limit = t.rule("hand_limit") + t.modifier(p, "solstice", "hand_limit", use=True)
    if len(hand) <= limit:
        return
    wanted = [tid for name in keep if (tid := t.tile_named(name, hand))]
    order = list(dict.fromkeys(wanted + hand))
    kept, dropped = order[:limit], order[limit:]
    for name in keep:  # the standing order, where it could not be followed: told to the player
        tid = t.tile_named(name, hand)
        if tid is None:
            t.emit("refused", visible_to=[p], power=p, order=msg("keep {tiles}", tiles=t.data.said(name)),
                   why=msg("{tile} is not in your hand at the Winter Solstice",
                           tile=t.data.said(name)))
        elif tid in dropped:
            t.emit("refused", visible_to=[p], power=p, order=msg("keep {tiles}", tiles=t.data.said(name)),
                   why=msg("more tiles named than the hand limit of {n}", n=limit))
    hand[:] = [tid for tid in hand if tid in kept]
    t.s["discard"].extend(dropped)
    t.emit("hand_limit", power=p, count=len(dropped), limit=limit)
    t.emit("discarded", visible_to=t.hand_viewers(p) or None, power=p,
           tiles=[t.tile(x).name for x in dropped])
