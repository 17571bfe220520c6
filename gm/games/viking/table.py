"""The table: one Pax Viking position (a JSON state) with the data and the events of an adjudication.

Rules are functions of a :class:`Table`; it answers the questions every rule
asks (who has longships where, how many followers of a type a player has
established, which homes a player launches from, which persistent modifiers
apply) and records what happened as :class:`gm.games.base.Event`. The state
stores only what cannot be derived: follower supplies, longship supplies,
duchies, trade center markers and ally longship owners are computed (Key
Concepts: Component Limits, Duchies; Posts 3 and 4).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from gm.games.base import Event
from gm.games.viking.data import Data, Post, Tile
from gm.i18n import N_, Name, Text, as_data, from_data, msg
from gm.orders.names import fold

HOME = "home"



ACTION_WORDS = (N_("journey"), N_("invest"), N_("play"), N_("activate"), N_("parley"),
                N_("jarldom"), N_("sweden"), N_("theocracy"), N_("rus"))
"""The actions a silfr bonus names (:meth:`Table.action_bonus`), said in the reader's
language."""

class Refusal(Exception):
    """An order that cannot be carried out now; the action is not spent."""

    @property
    def reason(self) -> Text:
        """Why, as a message said in the reader's language (``msg``)."""
        why = self.args[0] if self.args else ""
        return why if isinstance(why, Text) else msg(str(why))


class Table:
    def __init__(self, data: Data, state: dict[str, Any]) -> None:
        self.data = data
        self.s = state
        self.events: list[Event] = []
        self.hidden_drawn = False  # a tile came from the saga pile (validation stops here)
        names: dict[str, str] = {}
        for table in (data.regions, data.posts):
            for ident, item in table.items():
                names[fold(item.name)] = ident
                if item.name_fr:
                    names[fold(item.name_fr)] = ident
        self._node_names = names

    # -- events ---------------------------------------------------------------
    def emit(self, type_: str, visible_to: Any = None, **data: Any) -> None:
        """Record an event; a message built with ``msg`` (a reason) is kept in English
        under its key and as data under ``KEY_msg``, so a report says it in the
        reader's language (templates: ``d.get("why_msg", d.why) | say(lang)``); a list of
        such messages likewise, item by item. A place (:meth:`name`, a
        :class:`gm.i18n.Name`) is kept as its English name: the templates say it in the
        reader's language from the data (``VikingModule.words``, ``place_name``)."""
        vis = frozenset(visible_to) if visible_to is not None else None
        for key, value in list(data.items()):
            if isinstance(value, Name):
                data[key] = str(value)
            elif isinstance(value, list) and value and all(isinstance(v, Name) for v in value):
                data[key] = [str(v) for v in value]
            elif isinstance(value, Text):
                data[key], data[f"{key}_msg"] = str(value), as_data(value)
            elif isinstance(value, list) and value and all(isinstance(v, Text) for v in value):
                # a list of messages (a trade's items) likewise: d.get("give_msg", d.give)
                data[key], data[f"{key}_msg"] = [str(v) for v in value], [as_data(v) for v in value]
        self.events.append(Event(f"viking.{type_}", data, vis))

    # -- players --------------------------------------------------------------
    @property
    def powers(self) -> list[str]:
        return list(self.s["powers"])

    def player(self, p: str) -> dict[str, Any]:
        return self.s["players"][p]

    def rivals(self, p: str) -> list[str]:
        """Rivals in clockwise order starting after ``p`` (Key Concepts, Order)."""
        order = self.powers
        i = order.index(p)
        return [q for q in order[i + 1:] + order[:i]]

    def in_turn_order(self) -> list[str]:
        """Every player, clockwise from the player whose turn it is (Key Concepts, Order)."""
        cur = self.powers[self.s["current"]]
        return [cur, *self.rivals(cur)]

    def rule(self, key: str) -> Any:
        return self.data.rule(key)

    def silfr(self, p: str) -> int:
        return int(self.player(p)["silfr"])

    def gain(self, p: str, n: int, why: str) -> None:
        if n > 0:
            self.player(p)["silfr"] += n
            self.emit("silfr", power=p, amount=n, why=why)

    def pay(self, p: str, n: int, why: str, *, forced: bool = False) -> int:
        """Pay ``n`` to the supply; forced payments take what there is (Economy Limits)."""
        have = self.silfr(p)
        if n > have and not forced:
            raise Refusal(msg("{what} costs {n} silfr and you have {have}", what=why, n=n, have=have))
        paid = min(n, have)
        self.player(p)["silfr"] -= paid
        if paid:
            self.emit("silfr", power=p, amount=-paid, why=why)
        return paid

    # -- names ----------------------------------------------------------------
    def node(self, name: str) -> str:
        """A region or post id (or ``home``) from its name."""
        if fold(name) in (HOME, "jarlboard", "foyer", "plateau"):
            return HOME
        ident = self._node_names.get(fold(name))
        if ident is None:
            raise Refusal(msg("there is no place called {name}", name=name))
        return ident

    def post_id(self, name: str) -> str:
        ident = self.node(name)
        if ident not in self.data.posts:
            # a venture post may be named by its venture tile
            for pid, st in self.s["posts"].items():
                if st.get("venture") and fold(self.tile(st["venture"]).name) == fold(name):
                    return pid
            raise Refusal(msg("{name} is not a post", name=name))
        return ident

    def tile(self, tid: str) -> Tile:
        return self.data.tiles[tid]

    def tile_named(self, name: str, among: list[str]) -> str | None:
        key = fold(name)
        return next((t for t in among if fold(self.tile(t).name) == key), None)

    def name(self, node: str) -> str:
        """A node as a message names it: ``home``, or the place's :class:`gm.i18n.Name`,
        said in the reader's language ("Norvège" to a French seat, board.toml ``name_fr``)."""
        return "home" if node == HOME else self.data.place_said(node)

    def at(self, node: str) -> Name:
        """"at PLACE" as a refusal says where (:meth:`Data.at_said`: « à Birka », « en
        Svealand » to a French seat); ``home`` is "at home", « au foyer »."""
        return Name("at home", fr="au foyer") if node == HOME else self.data.at_said(node)

    def who(self, power: str) -> str:
        """A player as a message names them: their colour in the reader's language ("Vert"
        to a French seat, rules.toml ``colors``, as the report's ``who`` names them)."""
        return self.data.said(power)

    def names(self, nodes: Any) -> str:
        """``A, B, C``: places as one message, each said in the reader's language."""
        return self.data.said_all(self.name(n) for n in nodes)

    # -- followers ------------------------------------------------------------
    def follower_type(self, post_id: str) -> tuple[str, int, int]:
        """(type, how many, cost) a post asks to establish, or ("", 0, 0) for an empty post."""
        post = self.data.posts[post_id]
        venture = self.s["posts"][post_id].get("venture")
        if venture:
            t = self.tile(venture)
            return t.follower, 1, t.cost
        if post.kind == "empty":
            return "", 0, 0
        return post.follower, post.followers, post.cost

    def established(self, p: str) -> Counter[str]:
        """Followers of ``p`` on the board and jarlboard, by type (Influence Phase)."""
        out: Counter[str] = Counter()
        for pid, st in self.s["posts"].items():
            if st.get("owner") == p:
                ftype, _, _ = self.follower_type(pid)
                out[ftype] += st.get("followers", 1)
        for tid in self.player(p)["advocates"] + self.player(p)["gods"]:
            out[self.tile(tid).follower] += 1
        return out

    def supply(self, p: str, ftype: str) -> int:
        """Followers of ``ftype`` still on the jarlboard (Component Limits: 6 each)."""
        return self.rule("followers_per_type") - self.established(p)[ftype]

    def owned_posts(self, p: str, kind: str | None = None) -> list[str]:
        out = []
        for pid, st in self.s["posts"].items():
            if st.get("owner") != p:
                continue
            post = self.data.posts[pid]
            k = "venture" if st.get("venture") else post.kind
            if kind is None or k == kind:
                out.append(pid)
        return out

    def duchies(self, p: str) -> list[str]:
        """Regions where ``p`` has followers on 2 venture posts (Key Concepts, Duchies)."""
        regions = Counter(self.data.posts[pid].region for pid in self.owned_posts(p, "venture"))
        return sorted(r for r, n in regions.items() if n >= 2)

    # -- longships ------------------------------------------------------------
    def ships(self) -> list[dict[str, Any]]:
        """Every longship on the map (the stored dicts): player ships ``{owner, at,
        exhausted}``, ally ships ``{fleet, at, exhausted}`` controlled by whoever
        holds their ally post (Posts 4)."""
        return [*self.s["ships"], *self.s["allies"]]

    def controller(self, ship: dict[str, Any]) -> str | None:
        if "fleet" in ship:
            return self.ally_owner(ship["fleet"])
        return ship["owner"]

    def ally_owner(self, fleet: str) -> str | None:
        for pid, post in self.data.posts.items():
            if post.ally_ships == fleet:
                return self.s["posts"][pid].get("owner")
        return None

    def ships_of(self, p: str, at: str | None = None) -> list[dict[str, Any]]:
        return [sh for sh in self.ships()
                if self.controller(sh) == p and (at is None or sh["at"] == at)]

    def ship_supply(self, p: str) -> int:
        return self.rule("longships") - sum(1 for sh in self.s["ships"] if sh["owner"] == p)

    def count_at(self, node: str) -> Counter[str]:
        return Counter(c for sh in self.ships() if sh["at"] == node
                       and (c := self.controller(sh)) is not None)

    def alone(self, p: str, post_id: str) -> bool:
        """ALONE: only ``p``'s longship(s) in the post (Rosetta Stone)."""
        counts = self.count_at(post_id)
        return counts[p] > 0 and all(q == p for q in counts)

    def launch(self, p: str, node: str) -> dict[str, Any]:
        """A new longship of ``p`` from the jarlboard onto ``node``."""
        if self.ship_supply(p) <= 0:
            raise Refusal(msg("no longship left on your jarlboard"))
        ship = {"owner": p, "at": node, "exhausted": False}
        self.s["ships"].append(ship)
        return ship

    def exhaust(self, ship: dict[str, Any], by: Text) -> None:
        """EXHAUST ``ship`` (a JOURNEY's end, an ACTIVATE), noting in the turn which order
        did, where the ship stands: a later order of the same turn refused for want of an
        unexhausted longship there names it (:meth:`no_unexhausted`)."""
        ship["exhausted"] = True
        self.s["turn"].setdefault("exhausted", []).append({"at": ship["at"], "by": as_data(by)})

    def no_unexhausted(self, node: str, why: Text) -> Refusal:
        """The refusal (``why``) of an order that needs an unexhausted longship on ``node``
        and finds none: when an earlier order of this turn exhausted one there, the reason
        says which, as the player wrote it ("the order 'journey from home to Birka' above
        exhausted it"): the player sees their own mail did it."""
        by = [e["by"] for e in self.s["turn"].get("exhausted", []) if e["at"] == node]
        if by:
            why = msg("{why}: the order \"{order}\" above exhausted it", why=why,
                      order=from_data(by[-1]))
        return Refusal(why)

    def return_ship(self, ship: dict[str, Any]) -> None:
        """RETURN: a player ship to its jarlboard, an ally ship to its printed spot."""
        if "fleet" in ship:
            ship["at"] = self.data.fleets[ship["fleet"]]["at"]
            ship["exhausted"] = False
        else:
            self.s["ships"].remove(ship)

    def region_of(self, node: str) -> str:
        """The region a longship at ``node`` is in for COLOCATED (a post's entry region)."""
        return self.data.posts[node].access if node in self.data.posts else node

    def colocated_rivals(self, p: str, node: str) -> set[str]:
        """Rivals COLOCATED with ``p``'s longship at ``node`` (Rosetta Stone, COLOCATED).

        A rival longship in the same region, posts within the region included; a
        harbor post counts in the sea region it opens on. A rival's follower on
        such a post also counts (Trade examples, Extortion: Ingvar's ships in the
        German Ocean are "Colocated with Harald's Post in Normandy").
        """
        region = self.region_of(node)
        out = {c for sh in self.ships() if (c := self.controller(sh)) and c != p
               and self.region_of(sh["at"]) == region}
        out |= {st["owner"] for pid, st in self.s["posts"].items()
                if st.get("owner") not in (None, p) and self.post(pid).access == region}
        return out

    # -- homes ----------------------------------------------------------------
    def home_entries(self, p: str) -> set[str]:
        """Where a longship leaving the jarlboard takes its first step (Home Locations).

        The printed home of the jarl; each duchy (its region and posts); each ally
        longship ``p`` controls (its home marker, Posts 4). At most 12 home
        markers (Component Limits).
        """
        jarl = self.data.jarls[self.player(p)["jarl"]]
        entries = set(self.data.homes[jarl.home].adjacent)
        markers = self.rule("home_markers") - 1
        for region in self.duchies(p):
            if markers <= 0:
                break
            markers -= 1
            entries.add(region)
            entries.update(x.id for x in self.data.posts.values() if x.access == region)
        for sh in self.ships_of(p):
            if "fleet" in sh and markers > 0:
                markers -= 1
                entries.add(sh["at"])
        return entries

    # -- modifiers --------------------------------------------------------------
    def modifier(self, p: str, action: str, kind: str, *, use: bool = False) -> int:
        """Sum of the persistent modifiers of ``p`` on ``action`` (∞ abilities).

        From the jarl, established gods and advocates, persistent venture posts
        and trade centers (and powerful allies) where ``p`` has followers. A tile
        marked ONCE ("Ability applies only once per any player's turn", Rosetta
        Stone) counts until it has been used this turn; ``use`` says the modifier
        is applied now, which uses up such tiles.
        """
        total = 0
        for tid, _, m in self._modifiers(p, action, kind):
            total += int(m["amount"])
            if use and tid is not None:
                self.use_once(tid)
        return total

    def discounts(self, p: str, action: str) -> list[dict[str, Any]]:
        """Where ``p``'s discount on ``action`` (``invest``, ``establish``) comes from, one
        entry per source, as a report names it: ``{"source": "jarl" | "tile" |
        "trade_center" | "ally", "name": English name, "amount": n}`` (the sources
        :meth:`modifier` sums)."""
        return [{**source, "amount": int(m["amount"])}
                for _, source, m in self._modifiers(p, action, "discount")]

    def _modifiers(self, p: str, action: str, kind: str
                   ) -> list[tuple[str | None, dict[str, str], dict[str, Any]]]:
        """``p``'s persistent modifiers of ``kind`` on ``action`` that apply now: (the ONCE
        tile's id or None, the source as :meth:`discounts` names it, the modifier)."""
        jarl = self.data.jarls[self.player(p)["jarl"]]
        mods: list[tuple[str | None, dict[str, str], dict[str, Any]]] = [
            (None, {"source": "jarl", "name": jarl.name}, m) for m in jarl.modifiers]
        tiles = list(self.player(p)["advocates"] + self.player(p)["gods"])
        for pid in self.owned_posts(p):
            venture = self.s["posts"][pid].get("venture")
            if venture:
                tiles.append(venture)
            else:
                post = self.data.posts[pid]
                mods += [(None, {"source": post.kind, "name": post.name}, m)
                         for m in post.modifiers]
        for tid in tiles:
            if self.tile(tid).trigger == "persistent" and not self.once_used(tid):
                mods += [(tid, {"source": "tile", "name": self.tile(tid).name}, m)
                         for m in self.tile(tid).modifiers]
        return [(tid, source, m) for tid, source, m in mods
                if m["action"] == action and m["kind"] == kind and int(m["amount"])]

    def once_used(self, tid: str) -> bool:
        """A ONCE tile already used this turn (Rosetta Stone, ONCE)."""
        return self.tile(tid).once and tid in self.s["turn"].get("once", [])

    def use_once(self, tid: str) -> None:
        """Record that a ONCE tile's ability was used this turn."""
        if self.tile(tid).once and tid not in self.s["turn"].setdefault("once", []):
            self.s["turn"]["once"].append(tid)

    def action_bonus(self, p: str, action: str) -> None:
        """Silfr modifiers on a named action (e.g. Chang'an: +1 silfr on INVEST)."""
        said = msg(action) if action in ACTION_WORDS else action
        self.gain(p, self.modifier(p, action, "silfr", use=True), msg("{action} bonus", action=said))

    # -- saga tiles -------------------------------------------------------------
    def draw(self, p: str, why: str) -> str | None:
        """DRAW the top of the saga pile into ``p``'s hand (private to ``p``)."""
        if not self.s["pile"]:
            self.emit("pile_empty", power=p)
            return None
        tid = self.s["pile"].pop(0)
        self.hidden_drawn = True
        self.player(p)["hand"].append(tid)
        self.emit("drew", power=p, why=why)
        self.emit("drew_tile", visible_to=self.hand_viewers(p), power=p, tile=self.tile(tid).name)
        return tid

    def hand_viewers(self, p: str) -> list[str] | None:
        """Who may see ``p``'s hand: ``p`` only, or everyone when information is public."""
        return None if self.s["options"].get("open_information") else [p]

    def post(self, pid: str) -> Post:
        return self.data.posts[pid]
