"""Victory conditions, the end of the saga and the tie breaker (Victory; Set-up D).

Novice cards are checked for the player in their Winter Solstice; standard,
advanced and Eklundian cards for every player each time an event is played
(resolved, or voted on at the Althing). Only face-up cards count (Bragi's
Variant). With a handicap (``player_levels``) a player may win only by the
cards of their own difficulty.
"""

from __future__ import annotations

from typing import Any

from gm.games.viking.table import Table


def measure(t: Table, p: str, kind: str, req: dict[str, Any]) -> int:
    """The quantity a victory card requirement counts (docs/viking.md, card kinds)."""
    est = t.established(p)
    posts = t.owned_posts(p)
    if kind == "followers":
        return est[req["type"]]
    if kind == "total_followers":
        return sum(est.values())
    if kind == "trade_centers":
        return sum(1 for x in posts if t.post(x).kind == "trade_center"
                   and not t.s["posts"][x].get("venture"))
    if kind == "key_trade_centers":
        return sum(1 for x in posts if t.post(x).key)
    if kind == "allies":
        return sum(1 for x in posts if t.post(x).kind == "ally")
    if kind == "duchies":
        return len(t.duchies(p))
    if kind == "winds":
        return len({t.data.wind_of(x) for x in posts})
    if kind == "influence":
        return sum(1 for holder in t.s["influence"].values() if holder == p)
    if kind == "silfr":
        return t.silfr(p)
    if kind == "jarlboard_tiles":
        return len(t.player(p)["advocates"]) + len(t.player(p)["gods"])
    raise ValueError(kind)


def meets(t: Table, p: str, card_id: str) -> bool:
    card = t.data.cards[card_id]
    return all(measure(t, p, r["kind"], r) >= int(r["count"]) for r in card.requires)


def eligible_cards(t: Table, p: str, novice: bool) -> list[str]:
    v = t.s["victory"]
    level = (t.s["options"].get("player_levels") or {}).get(p)
    out = []
    for cid, up in zip(v["cards"], v["faceup"], strict=True):
        card = t.data.cards[cid]
        if not up or (card.difficulty == "novice") != novice:
            continue
        if level and card.difficulty != level:
            continue
        out.append(cid)
    return out


def check(t: Table, players: list[str], *, novice: bool) -> bool:
    """Victory check for ``players``; ends the game when someone meets a card."""
    met = {p: [t.data.cards[c].name for c in eligible_cards(t, p, novice) if meets(t, p, c)]
           for p in players}
    winners = [p for p, cards in met.items() if cards]
    if winners:
        end_game(t, tie_break(t, winners), "victory", met)
        return True
    return False


def end_of_saga(t: Table) -> bool:
    """The End of the Saga: "When the last Saga Tile from the Saga Track is taken, at
    such time that the Saga Pile and the Saga Track are empty, then the game ends."
    Every card is checked for every player; if none is met, the tie breaker picks
    among all players (solo: no card met is a loss, reconstructed)."""
    if t.s["pile"] or any(x is not None for x in t.s["track"]):
        return False
    met = {p: [t.data.cards[c].name for c in eligible_cards(t, p, True)
               + eligible_cards(t, p, False) if meets(t, p, c)] for p in t.powers}
    winners = [p for p, cards in met.items() if cards]
    if not winners and len(t.powers) == 1:
        end_game(t, [], "end_of_saga", met)
        return True
    end_game(t, tie_break(t, winners or t.powers), "end_of_saga", met)
    return True


def tie_break(t: Table, tied: list[str]) -> list[str]:
    """Tie Breaker: most established followers, then most silfr; else a shared crown."""
    if len(tied) <= 1:
        return tied
    followers = {p: sum(t.established(p).values()) for p in tied}
    best = max(followers.values())
    tied = [p for p in tied if followers[p] == best]
    silfr = {p: t.silfr(p) for p in tied}
    best = max(silfr.values())
    return [p for p in tied if silfr[p] == best]


def end_game(t: Table, winners: list[str], reason: str, met: dict[str, list[str]]) -> None:
    t.s["winners"], t.s["ended"], t.s["step"] = winners, True, "ended"
    t.s["end_reason"] = reason
    t.emit("game_over", winners=winners, reason=reason,
           met={p: c for p, c in met.items() if c},
           followers={p: sum(t.established(p).values()) for p in t.powers},
           silfr={p: t.silfr(p) for p in t.powers})
