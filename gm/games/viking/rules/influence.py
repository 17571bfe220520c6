"""The Influence Phase and the four influence actions (Sequence of Play; Influence Actions F-I)."""

from __future__ import annotations

from gm.games.viking.orders import JarldomAction, RusAction, TheocracyAction
from gm.games.viking.rules.actions import requirement_posts
from gm.games.viking.rules.establish import establish, establish_check, place_venture
from gm.games.viking.table import HOME, Refusal, Table
from gm.i18n import msg


def influence_phase(t: Table, p: str) -> None:
    """INFLUENCE PHASE: "determine if you alone have more Established followers for any
    of the 4 Follower types ... than your Rivals". If so take that influence marker
    (from whoever held it); if you no longer have more than all rivals for a marker
    you held, return it to the board. Ties are not friendly; a solo player needs
    at least one follower of the type (reconstructed)."""
    mine = t.established(p)
    for ftype in t.rule("follower_types"):
        best_rival = max((t.established(q)[ftype] for q in t.rivals(p)), default=0)
        leads = mine[ftype] > best_rival and mine[ftype] > 0
        holder = t.s["influence"].get(ftype)
        if leads and holder != p:
            t.s["influence"][ftype] = p
            t.emit("influence_taken", power=p, follower=ftype, previous=holder)
        elif not leads and holder == p:
            t.s["influence"][ftype] = None
            t.emit("influence_returned", power=p, follower=ftype)


def jarldom(t: Table, p: str, order: JarldomAction) -> None:
    """Jarldom Action (F): "Move 1 of your Longships 1 step to a Post ... where you may
    remove 1 Rival's Longship (if there are any). If you are now the only player who
    has a Longship(s) on this Post, Establish by placing your indicated Follower and
    returning any Rival Follower present." The removed longship is the first rival
    in turn order's (their exhausted one first); establishing is skipped, not
    refused, when the post is empty, already yours or unaffordable."""
    start, pid = t.node(order.start), t.post_id(order.post)
    if start == HOME:
        if pid not in t.home_entries(p):
            raise Refusal(msg("{place} is not next to one of your homes", place=t.name(pid)))
        ship = t.launch(p, pid)
    else:
        mine = sorted(t.ships_of(p, start), key=lambda sh: (sh["exhausted"], "fleet" in sh))
        if not mine:
            raise Refusal(msg("you have no longship {at}", at=t.at(start)))
        if pid not in t.data.adjacent[start]:
            raise Refusal(msg("{place} is not one step from {start}", place=t.name(pid),
                                  start=t.name(start)))
        ship = mine[0]
        ship["at"] = pid
    t.emit("jarldom_move", power=p, start=t.name(start), post=t.name(pid))
    for rival in t.rivals(p):
        theirs = sorted(t.ships_of(rival, pid), key=lambda sh: not sh["exhausted"])
        if theirs:
            t.return_ship(theirs[0])
            t.emit("longship_removed", power=p, rival=rival, at=t.name(pid))
            break
    if t.alone(p, pid):
        try:
            establish_check(t, p, pid)
        except Refusal as why:
            t.emit("no_effect", power=p, what="establish", why=why.reason)
        else:
            establish(t, p, pid)
    t.action_bonus(p, "jarldom")


def sweden(t: Table, p: str) -> None:
    """Sweden Action (G): "Draw a Saga Tile from the Saga Pile into your hand. If it is
    a Venture tile, place a Longship on a Post in the location listed on the tile.
    If there are no Rival Longships present, Establish the tile by placing your
    Follower on the Venture Post."

    The post, a decision taken at the table, is chosen by this standing rule
    (examples 1-5): a post where a longship of yours already stands alone and no
    longship is left on the jarlboard (ex. 5 otherwise fails); else an empty
    post, then a rival's venture post, then one of your own venture posts, with
    no longship on it (ex. 4, 3, 2); else any empty or venture post (ex. 1: the
    longship is placed, the venture cannot be played). Pre-printed posts cannot
    take a venture.

    With the saga pile empty there is no tile to draw, so the action is refused (when
    the mail arrives and again when carried out) and the action is not spent: the
    action is the draw ("Draw a Saga Tile from the Saga Pile into your hand", and
    DRAW: "Draw a tile from the top of the SAGA PILE"), as INVEST's draw is refused
    (docs/viking.md, "Sweden action").
    """
    if not t.s["pile"]:
        raise Refusal(msg("the saga pile is empty: the sweden action draws from it"))
    tid = t.draw(p, "sweden")
    t.action_bonus(p, "sweden")
    if tid is None or t.tile(tid).type != "venture":
        return
    tile = t.tile(tid)
    posts = [x.id for x in t.data.posts_in(tile.location) if x.kind == "empty"]

    def rank(pid: str) -> tuple[int, int]:
        st = t.s["posts"][pid]
        kind = 0 if not st.get("venture") else 1 if st.get("owner") != p else 2
        rivals = [q for q in t.count_at(pid) if q != p]
        return (1 if rivals else 0, kind)

    if t.ship_supply(p) > 0:
        pid = sorted(posts, key=rank)[0] if posts else None
        if pid is None:
            return
        t.launch(p, pid)
        t.emit("longship_placed", power=p, at=t.name(pid))
    else:
        mine = [x for x in requirement_posts(t, p, tile.location) if x in posts]
        if not mine:
            t.emit("no_effect", power=p, what="sweden",
                   why=msg("no longship on the jarlboard and none alone in the tile's location"))
            return
        pid = sorted(mine, key=rank)[0]
    if not t.alone(p, pid):
        t.emit("no_effect", power=p, what="sweden", why=msg("rival longships on {place}", place=t.name(pid)))
        return
    try:
        place_venture(t, p, tid, pid)
    except Refusal as why:
        t.emit("no_effect", power=p, what="sweden", why=why.reason)


def theocracy(t: Table, p: str, order: TheocracyAction) -> None:
    """Theocracy Action (H): "Establish a Theocracy Venture or Powerful Ally Post
    anywhere on the map by (Re)placing with your Theocracy Follower and paying any
    cost listed at the bottom of the Post." No longship is needed."""
    pid = t.post_id(order.post)
    ftype, _, _ = t.follower_type(pid)
    kind = "venture" if t.s["posts"][pid].get("venture") else t.post(pid).kind
    if kind not in ("venture", "ally") or ftype != "theocracy":
        raise Refusal(msg("{place} is not a theocracy venture or powerful ally post",
                          place=t.name(pid)))
    establish(t, p, pid)
    t.action_bonus(p, "theocracy")


def rus(t: Table, p: str, order: RusAction) -> None:
    """Rus Action (I): "Take a Rival's Advocate from their Jarlboard, as long as you have
    a Longship Alone on a Post in the location listed on the Advocate you steal."
    It replaces your oldest advocate when your circles are full (default)."""
    for rival in t.rivals(p):
        tid = t.tile_named(order.tile, t.player(rival)["advocates"])
        if tid is not None:
            break
    else:
        raise Refusal(msg("no rival has the advocate {tile}", tile=t.data.said(order.tile)))
    tile = t.tile(tid)
    if not requirement_posts(t, p, tile.location):
        raise Refusal(msg("you need a longship alone on a post in the advocate's location"))
    if t.supply(p, tile.follower) < 1:
        raise Refusal(msg("no {follower} follower left on your jarlboard", follower=tile.follower))
    t.player(rival)["advocates"].remove(tid)
    board = t.player(p)["advocates"]
    if len(board) >= t.rule("advocate_slots"):
        old = board.pop(0)
        t.s["discard"].append(old)
        t.emit("replaced", power=p, tile=t.tile(old).name)
    board.append(tid)
    t.emit("advocate_taken", power=p, rival=rival, tile=tile.name)
    t.action_bonus(p, "rus")
