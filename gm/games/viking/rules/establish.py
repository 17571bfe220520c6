"""ESTABLISH, (RE)PLACE and CHALLENGE: putting followers on posts (Rosetta Stone; PARLEY).

ESTABLISH: "(Re)place follower(s) on the indicated follower icon(s), pay the
cost at the bottom of the post if necessary. There can never be more than one
color follower on a tile." A rival's follower returns to its jarlboard;
follower supplies are derived, so returning is just changing the owner.
"""

from __future__ import annotations

from gm.games.viking.rules.effects import run_effects
from gm.games.viking.table import Refusal, Table
from gm.i18n import msg, plural


def establish_check(t: Table, p: str, pid: str, *, venture: str | None = None,
                    free: bool = False) -> tuple[str, int, int]:
    """Why ``p`` cannot establish on ``pid`` now (raises :class:`Refusal`), else
    (follower type, followers, cost to pay).

    Component Limits: a follower must be in the supply. Economy Limits: the cost
    must be paid in full ("you must have enough to pay the cost").
    """
    st = t.s["posts"][pid]
    if venture is not None:
        ftype, n = t.tile(venture).follower, 1
    else:
        ftype, n, _ = t.follower_type(pid)
        if not ftype:
            raise Refusal(msg("{place} is an empty post: nothing to establish on", place=t.name(pid)))
        if st.get("owner") == p:
            raise Refusal(msg("your followers are already on {place}", place=t.name(pid)))
    cost = max(0, price(t, pid, venture=venture, free=free)
               - t.modifier(p, "establish", "discount"))
    if t.supply(p, ftype) < n:
        raise Refusal(msg("no {follower} follower left on your jarlboard (6 of each)",
                          follower=ftype))
    if t.silfr(p) < cost:
        raise Refusal(msg("establishing on {place} costs {cost} silfr and you have {have}",
                          place=t.name(pid), cost=cost, have=t.silfr(p)))
    return ftype, n, cost


def price(t: Table, pid: str, *, venture: str | None = None, free: bool = False) -> int:
    """What establishing on ``pid`` costs before any discount: the cost at the bottom of
    the post, or the venture tile's (Rosetta Stone, ESTABLISH: "pay the cost at the bottom
    of the post if necessary"); 0 when an effect establishes for free."""
    if free:
        return 0
    return t.tile(venture).cost if venture is not None else t.follower_type(pid)[2]


def establish(t: Table, p: str, pid: str, *, free: bool = False) -> None:
    """ESTABLISH ``p`` on post ``pid`` (its venture, trade center or powerful ally).

    Powerful allies trigger their gains at once and hand over their ally
    longships (Posts 4); a trade center's persistent ability follows the
    follower (Posts 3). Duchies are announced when formed (Key Concepts).
    """
    ftype, n, cost = establish_check(t, p, pid, free=free)
    _put(t, p, pid, ftype, n, cost, price(t, pid, free=free))


def place_venture(t: Table, p: str, tid: str, pid: str) -> None:
    """PLAY a venture: place it on an empty post or replace a venture post, then
    establish it (PLAY, Ventures). A replaced venture is discarded and its
    follower returns; pre-printed posts cannot be replaced."""
    post = t.post(pid)
    if post.kind != "empty":
        raise Refusal(msg("{place} is pre-printed: a venture cannot replace it", place=t.name(post.id)))
    ftype, n, cost = establish_check(t, p, pid, venture=tid)
    st = t.s["posts"][pid]
    if st.get("owner") and st["owner"] != p:
        t.emit("follower_returned", power=st["owner"], post=t.name(post.id))
    if st.get("venture"):
        t.s["discard"].append(st["venture"])
        t.emit("venture_replaced", power=p, post=t.name(pid), old=t.tile(st["venture"]).name,
               owner=st.get("owner"))
    st.update({"venture": tid, "owner": None, "followers": 0})
    t.player(p)["hand"].remove(tid)
    t.emit("venture_placed", power=p, post=post.name, tile=t.tile(tid).name)
    _put(t, p, pid, ftype, n, cost, price(t, pid, venture=tid))
    tile = t.tile(tid)
    if tile.trigger == "immediate":
        run_effects(t, p, tile.effects, tid, pid, [])


def _put(t: Table, p: str, pid: str, ftype: str, n: int, cost: int, full: int) -> None:
    """Establish, paying ``cost`` (``full`` less the discounts, which the report names)."""
    st = t.s["posts"][pid]
    discounts = t.discounts(p, "establish") if full else []
    before = set(t.duchies(p))
    previous = st.get("owner")
    if cost:
        t.pay(p, cost, msg("establishing on {place}", place=t.name(pid)))
    if cost < t.follower_type(pid)[2]:
        t.modifier(p, "establish", "discount", use=True)  # a ONCE discount is used up
    st["owner"], st["followers"] = p, n
    if previous and previous != p:
        t.emit("follower_returned", power=previous, post=t.name(pid))
    t.emit("established", power=p, post=t.name(pid), follower=ftype, count=n, cost=cost,
           price=full, discounts=discounts)
    for region in sorted(set(t.duchies(p)) - before):
        t.emit("duchy", power=p, region=t.name(region))
    post = t.post(pid)
    if post.kind == "ally" and not st.get("venture"):
        if post.ally_ships:
            t.emit("ally_ships", power=p, fleet=t.data.fleets[post.ally_ships]["name"],
                   count=sum(1 for sh in t.s["allies"] if sh["fleet"] == post.ally_ships))
        run_effects(t, p, post.gains, None, pid, [])


def acting_followers(t: Table, q: str, pid: str) -> int:
    """How many of ``q``'s followers on ``pid`` act as longships there: a persistent
    ``follower_longships`` modifier on PARLEY lets up to ``amount`` of them
    (Rosetta Stone, CHALLENGE: "Rival Followers acting as Longships")."""
    st = t.s["posts"][pid]
    if st.get("owner") != q:
        return 0
    return min(int(st.get("followers", 1)), t.modifier(q, "parley", "follower_longships"))


def strength(t: Table, q: str, pid: str) -> int:
    """``q``'s longships on ``pid`` for a CHALLENGE: its longships, its followers
    acting as longships, and its persistent ``longships`` modifiers on PARLEY
    (PARLEY: "more Longships, including special abilities"); a player with
    nothing on the post counts 0, whatever its modifiers."""
    present = t.count_at(pid)[q] + acting_followers(t, q, pid)
    return present + t.modifier(q, "parley", "longships") if present else 0


def rivals_present(t: Table, p: str, pid: str) -> list[str]:
    """Rivals with longships (or followers acting as longships) on ``pid``: ``p`` is
    not ALONE there and must CHALLENGE them to PARLEY."""
    return [q for q in t.rivals(p) if t.count_at(pid)[q] or acting_followers(t, q, pid)]


def challenged_rival(t: Table, p: str, pid: str, named: str) -> str:
    """The rival ``p`` challenges on ``pid`` (Rosetta Stone, CHALLENGE: "Choose a
    RIVAL in the same POST"): the one the order names, else the only rival there.
    With several rivals there and none named, the order is refused: whom to
    challenge is the player's choice, and gm does not make it for them."""
    rivals = rivals_present(t, p, pid)
    if named:
        if named == p or named not in t.rivals(p):
            raise Refusal(msg("{rival} is not a rival", rival=t.who(named)))
        if named not in rivals:
            raise Refusal(msg("{rival} has no longship on {place} to challenge",
                              rival=t.who(named), place=t.name(pid)))
        return named
    if len(rivals) > 1:
        raise Refusal(msg("several rivals are on {place} ({rivals}): name the one you challenge, "
                          "e.g. 'parley {place} challenge {rival}'", place=t.name(pid),
                          rivals=t.data.said_all(rivals), rival=t.who(rivals[0])))
    return rivals[0]


def challenge(t: Table, p: str, pid: str, rival: str) -> None:
    """CHALLENGE ``rival`` on ``pid`` (PARLEY, Challenge; Rosetta Stone, CHALLENGE).

    "Add any potential modifications from persistent abilities ... to your total
    Longships on this Post and compare to those of your Rival. You need to have
    more Longships than that Rival." Both sides count their modifiers and their
    followers acting as longships (:func:`strength`); other rivals on the post
    do not count. Effect (Rosetta Stone): "RETURN RIVAL'S first Longship and move
    every other RIVAL Longship to the nearest REGION" (the region the post is
    entered from); "RETURN all RIVAL Followers acting as Longships" (to the
    rival's jarlboard). Default for the rival's choice: an exhausted longship
    first, an ally longship last.
    """
    mine, theirs_n = strength(t, p, pid), strength(t, rival, pid)
    if theirs_n >= mine:
        raise Refusal(plural("{rival} counts {n} longship on {place}; you count {mine}: "
                             "you need more to challenge",
                             "{rival} counts {n} longships on {place}; you count {mine}: "
                             "you need more to challenge", theirs_n, rival=t.who(rival),
                             place=t.name(pid), mine=mine))
    for q in (p, rival):  # the abilities counted are used (ONCE)
        t.modifier(q, "parley", "longships", use=True)
        t.modifier(q, "parley", "follower_longships", use=True)
    acting = acting_followers(t, rival, pid)
    theirs = sorted(t.ships_of(rival, pid), key=lambda sh: (not sh["exhausted"], "fleet" in sh))
    if theirs:
        t.return_ship(theirs[0])
    for sh in theirs[1:]:
        sh["at"] = t.region_of(pid)
    if acting:
        t.s["posts"][pid].update(owner=None, followers=0)
    t.emit("challenged", power=p, rival=rival, post=t.name(pid), returned=min(1, len(theirs)),
           moved=max(0, len(theirs) - 1), to=t.name(t.region_of(pid)), followers=acting,
           remaining=rivals_present(t, p, pid))
