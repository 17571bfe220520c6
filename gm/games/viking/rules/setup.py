"""Set-up (Set-up A-I) for 1-6 players.

:func:`initial_state` is what ``setup()`` returns: players and options only,
waiting in the ``setup`` step, which owes no orders. Its adjudication,
:func:`deal`, does everything random with the game's logged dice: the start
player, the jarlboards, the victory cards, the saga pile and the starting
venture posts. The rolls that fix the order of the saga pile are shown to no
player (the moderator sees them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gm.dice import Dice
from gm.games.base import GameError
from gm.games.viking.data import Data
from gm.games.viking.table import Table
from gm.i18n import languages, msg, name, translate

DECKS = ("starter", "random", "custom")


def options_from(data: Data, n: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The game settings this module reads, checked (docs/viking.md, settings)."""
    levels = data.rule("difficulties")
    difficulty = str(options.get("difficulty", "standard")).lower()
    if difficulty not in levels:
        raise GameError(f"difficulty must be one of {', '.join(levels)}")
    cards = [str(c).lower() for c in options.get("cards") or [difficulty] * 4]
    if len(cards) != data.rule("victory_cards") or any(c not in levels for c in cards):
        raise GameError("cards: give 4 difficulty levels (handicap draw, Set-up D)")
    deck = str(options.get("deck", "starter"))
    if deck not in DECKS:
        raise GameError(f"deck must be one of {', '.join(DECKS)}")
    tilesets = list(options.get("tilesets") or ["starter"])
    unknown = [s for s in tilesets if not data.tileset(s)]
    if unknown:
        raise GameError(f"no tile set {', '.join(unknown)} in data/tiles")
    return {"difficulty": difficulty, "cards": cards, "deck": deck, "tilesets": tilesets,
            "bragi": bool(options.get("bragi", False)),
            "open_information": bool(options.get("open_information", False)),
            "player_levels": dict(options.get("player_levels") or {})}


def check_player_levels(levels: Mapping[str, str], powers: list[str], cards: list[str]) -> None:
    """Set-up D, handicap: "let less advanced players reach the easier conditions to
    win while more advanced players have to reach the more difficult conditions".
    A player given a level may win only by the cards of that level, so the level
    must be one of the cards drawn, or that player could never win."""
    for power, level in levels.items():
        if power not in powers:
            raise GameError(f"player_levels: {power!r} is not a player of this game "
                            f"({', '.join(powers)})")
        if level not in cards:
            raise GameError(f"player_levels: {power} plays at {level!r} but the cards are "
                            f"{', '.join(cards)}: no card of that level would be drawn")


def initial_state(data: Data, powers: list[str], options: Mapping[str, Any]) -> dict[str, Any]:
    n = len(powers)
    opts = options_from(data, n, options)
    check_player_levels(opts["player_levels"], powers, opts["cards"])
    return {
        "game": "viking", "powers": list(powers), "options": opts,
        "step": "setup", "round": 0, "current": 0, "turn": {},
        "players": {}, "ships": [], "allies": [], "posts": {}, "influence": {},
        "pile": [], "track": [], "discard": [], "removed": [],
        "victory": {"cards": [], "faceup": []}, "althing": None, "trade": None,
        "winners": [], "ended": False, "end_reason": "",
    }


def pick(dice: Dice, n: int, purpose: str, visible_to: Any = None) -> int:
    """A uniform index below ``n`` from d6 rolls (base-6 digits, rejection sampling)."""
    if n <= 1:
        return 0
    digits, span = 1, 6
    while span < n:
        digits, span = digits + 1, span * 6
    limit = span - span % n
    while True:
        value = 0
        for d in dice.roll(digits, purpose, visible_to):
            value = value * 6 + (d - 1)
        if value < limit:
            return value % n


def shuffle(dice: Dice, items: list[Any], purpose: str, visible_to: Any = None) -> list[Any]:
    """Fisher-Yates with :func:`pick`."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = pick(dice, i + 1, purpose, visible_to)
        out[i], out[j] = out[j], out[i]
    return out


def deal(t: Table, dice: Dice) -> None:
    """Set-up A-I with the game's dice; afterwards the first turn waits."""
    data, s, opts = t.data, t.s, t.s["options"]
    n = len(s["powers"])
    # I. Start player: a random player starts; the others follow clockwise (seating order).
    start = pick(dice, n, msg("start player"))
    s["powers"] = s["powers"][start:] + s["powers"][:start]
    # H. Jarlboards at random, with their homes.
    jarls = shuffle(dice, sorted(data.jarls), msg("jarlboards"))
    silfr = data.rule("starting_silfr")
    for i, p in enumerate(s["powers"]):
        jarl = data.jarls[jarls[i]]
        s["players"][p] = {"jarl": jarl.id, "silfr": silfr[i] + jarl.start_silfr,
                           "hand": [], "advocates": [], "gods": []}
    # B. Ally longships on their printed spots; C. influence markers on the board.
    s["allies"] = [{"fleet": f, "at": spec["at"], "exhausted": False}
                   for f, spec in data.fleets.items() for _ in range(spec["count"])]
    s["influence"] = {ftype: None for ftype in data.rule("follower_types")}
    s["posts"] = {pid: {"venture": None, "owner": None, "followers": 0} for pid in data.posts}
    # D. Victory condition cards by difficulty (face down under Bragi's Variant).
    chosen: list[str] = []
    for level in opts["cards"]:
        pool = sorted(c for c in data.cards
                      if data.cards[c].difficulty == level and c not in chosen)
        chosen.append(pool[pick(dice, len(pool), msg("victory cards"))])
    s["victory"] = {"cards": chosen, "faceup": [not opts["bragi"]] * len(chosen)}
    # E. The saga pile and the saga track.
    tiles = [x for name in opts["tilesets"] for x in data.tileset(name)]
    pile = _pile(dice, tiles, n, opts["deck"], data.rule("tiles_per_player"),
                 data.rule("custom_starter"))
    s["pile"] = shuffle(dice, pile, msg("saga pile"), visible_to=[])
    s["track"] = [s["pile"].pop(0) if s["pile"] else None
                  for _ in data.rule("track_costs")]
    # F. Starting venture posts from the tiles not in the pile, one per region.
    ventures = shuffle(dice, [x.id for x in tiles if x.type == "venture" and x.id not in pile],
                       msg("starting ventures"))
    wanted = data.rule("starting_ventures")[str(n)]
    placed: list[str] = []
    for tid in ventures:
        if len(placed) >= wanted:
            break
        region = data.tiles[tid].location
        if any(data.tiles[x].location == region for x in placed):
            continue
        post = next(x.id for x in data.posts_in(region) if x.kind == "empty")
        s["posts"][post]["venture"] = tid
        placed.append(tid)
    s["step"], s["round"], s["current"] = "turn", 1, 0
    s["turn"] = new_turn()
    t.emit("setup", order=list(s["powers"]),
           jarls={p: data.jarls[s["players"][p]["jarl"]].name for p in s["powers"]},
           silfr={p: s["players"][p]["silfr"] for p in s["powers"]},
           cards=[data.cards[c].name if up else None
                  for c, up in zip(chosen, s["victory"]["faceup"], strict=True)],
           ventures=[{"tile": data.tiles[x].name, "region": data.regions[data.tiles[x].location].name}
                     for x in placed],
           pile=len(s["pile"]))


def _pile(dice: Dice, tiles: list[Any], n: int, deck: str, per: int,
          custom: Mapping[str, int]) -> list[str]:
    """Set-up E: the starter deck (marks up to the player count, 2p for 1 player), 12
    random tiles per player, or the custom starter deck by type."""
    if deck == "starter":
        marked = [x.id for x in tiles if x.starter is not None and x.starter <= max(2, n)]
        if marked:
            return marked
    if deck == "custom":
        out: list[str] = []
        for typ, count in custom.items():
            kind = name(typ, **{lang: translate(msg(typ), lang) for lang in languages()[1:]})
            # the type by its word ("tuiles choisies (entreprise)"); the logged purpose keeps the id
            pool = shuffle(dice, [x.id for x in tiles if x.type == typ], msg("custom {kind}s", kind=kind))
            out += pool[:count * n]
        return out
    return shuffle(dice, [x.id for x in tiles], msg("saga tiles"))[:per * n]


def new_turn() -> dict[str, Any]:
    return {"actions": 0, "influence_used": [], "pending": [], "keep": [], "trades": 0,
            "althings": 0, "journey": {}, "once": [],
            "trade_results": [], "althing_results": [], "started": False}
