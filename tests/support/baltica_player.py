"""A scripted Pax Baltica player: reads its report mails, writes seeded random orders.

The player knows what a human player knows: the text of the reports it received
(the phase now, who owes orders, its own blocks and where they stand, the enemy
blocks it sees) and the printed map and block labels (the board data). It writes
orders as text in the order language of docs/orders.md and docs/baltica.md, the
French seat half the time with French keywords, never reading the game state.

Used by tests/e2e/test_baltica_scenarios_by_mail.py (issue 5).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from gm.games.baltica.board import BlockKind, Board, Side
from gm.games.baltica.orders import Move, MoveGroup, Recon, Replace, Siege

# a side as a report names it (English or French) -> its id
SIDE_NAMED = {"Suède": "sweden", "Sweden": "sweden", "Coalition": "coalition"}

# "==== gm report pb5 1718-autumn-battles ====" opens every report mail
MARKER = re.compile(r"^==== gm report (\S+) (\S+) ====$", re.M)
# "Phase now: 1718-autumn-battles (orders due from Sweden, Coalition)"
# "Phase en cours : 1718-autumn-battles (ordres attendus : Suède, Coalition)"
PHASE_EN = re.compile(r"^Phase now: (\S+)(?: \(orders due from ([^)]*)\))?$", re.M)
PHASE_FR = re.compile(r"^Phase en cours : (\S+)(?: \(ordres attendus : ([^)]*)\))?$", re.M)
# "  Jämtland: Elfsborg B2 3/3" / "  Åkershus : Bergenhus B1 3/3 (fixé)"
OWN_BLOCK = re.compile(r"^  (.+?) ?: (.+) ([A-D]\d) (\d)/(\d)( \((?:pinned|fixé)\))?$")
# "  Åkershus: 2 Denmark block(s)" / "  Jämtland : 2 bloc(s) suédois"
ENEMY = re.compile(r"^  (.+?) ?: (\d+) ")


@dataclass(frozen=True)
class OwnBlock:
    where: str
    name: str
    strength: int
    max: int
    pinned: bool


@dataclass
class ReadReport:
    """What a player reads off one report mail."""

    game_id: str
    phase: str
    owing: tuple[str, ...]
    ended: bool
    own: list[OwnBlock] = field(default_factory=list)
    enemies: dict[str, int] = field(default_factory=dict)


def read_report(text: str) -> ReadReport:
    """Decode a report as its reader would: the marker line, the phase line, the blocks."""
    marker = MARKER.search(text)
    assert marker is not None, text[:300]
    fr = PHASE_FR.search(text)
    found = fr or PHASE_EN.search(text)
    assert found is not None, text[:600]
    owing_text = found.group(2) or ""
    owing = tuple(SIDE_NAMED.get(w.strip(), w.strip()) for w in owing_text.split(",") if w.strip())
    ended = ("The game has ended." in text) or ("La partie est terminée." in text)
    report = ReadReport(marker.group(1), marker.group(2), owing, ended)
    section = ""
    for line in text.splitlines():
        if not line.startswith("  "):
            section = line.strip()
            continue
        if section in ("Your blocks:", "Vos blocs :"):
            m = OWN_BLOCK.match(line)
            if m:
                report.own.append(OwnBlock(m.group(1), m.group(2), int(m.group(4)),
                                           int(m.group(5)), bool(m.group(6))))
        elif section in ("Enemy blocks:", "Blocs ennemis :"):
            m = ENEMY.match(line)
            if m:
                report.enemies[m.group(1)] = report.enemies.get(m.group(1), 0) + int(m.group(2))
    # by name, as the blocks' ids run: the seeded choices hang on the game, not on the order
    # the report happens to list the blocks in (by place since the moderator-report change)
    report.own.sort(key=lambda b: b.name.casefold())
    return report


@dataclass
class ScriptedPlayer:
    """One seat: its power, address, password, language and its own dice for choices."""

    board: Board
    game_id: str
    power: str
    address: str
    password: str
    language: str = "en"
    seed: int = 0
    rng: random.Random = field(init=False)
    ordered: set[str] = field(default_factory=set)  # phases it already mailed for
    refused: list[str] = field(default_factory=list)  # order lines gm refused, as echoed

    def __post_init__(self) -> None:
        self.rng = random.Random(f"{self.seed}:{self.power}")
        self._territory = {t.name: t for t in self.board.territories.values()}
        self._block = {b.name: b for b in self.board.blocks.values()}

    # -- what to write -----------------------------------------------------
    def orders_for(self, report: ReadReport) -> list[str] | None:
        """The order lines for the phase the report announces, or None to let it default."""
        if report.ended or self.power not in report.owing:
            return None
        if report.phase in self.ordered:
            return None
        kind = self._kind(report.phase)
        chance = {"actions": 0.85, "interphase": 0.7, "battles": 0.25, "forage": 0.2,
                  "winter-campaign": 0.3}.get(kind, 0.0)
        if self.rng.random() >= chance:
            return None
        lang = "fr" if self.language == "fr" and self.rng.random() < 0.5 else "en"
        if kind == "actions":
            orders = self._actions(report, lang)
            if orders and self.rng.random() < 0.5:  # orders.md §5: decided in advance
                orders += self._hits_prefer(report, lang)
        elif kind == "interphase":
            orders = self._interphase(report, lang)
        elif kind in ("battles", "forage"):
            orders = self._hits_prefer(report, lang)
        elif kind == "winter-campaign":
            orders = self._winter(report, lang)
        else:
            orders = []
        if not orders:
            return None
        self.ordered.add(report.phase)
        return orders

    def read_reply(self, text: str) -> None:
        """Remember what gm refused, as a player would, so as not to send it again."""
        for line in text.splitlines():
            parts = line.split(None, 2)
            if len(parts) == 3 and parts[0].isdigit() and parts[1] in ("REFUSED", "REFUSÉ"):
                self.refused.append(parts[2])

    def _was_refused(self, origin: str, to: str) -> bool:
        """A move between these two territories was refused before (either language)."""
        return any(origin in line and to in line for line in self.refused)

    def mail_body(self, orders: list[str]) -> str:
        return (f"GAME {self.game_id}\nPOWER {self.power} {self.password}\n"
                + "\n".join(orders) + "\n")

    @staticmethod
    def _kind(phase: str) -> str:
        for kind in ("actions", "interphase", "battles", "forage", "winter-campaign"):
            if f"-{kind}" in phase:
                return kind
        return ""

    # -- helpers on the public map ----------------------------------------
    def _land(self, where: str) -> str | None:
        t = self._territory.get(where)
        return t.id if t is not None and not t.box else None

    def _ground(self, block: OwnBlock) -> bool:
        b = self._block.get(block.name)
        return b is not None and b.kind is not BlockKind.FLEET

    def _neutral(self, territory_id: str) -> bool:
        """The map prints the territory as a neutral nation's (4.8: prohibited until it joins)."""
        nation = self.board.territories[territory_id].nation
        return nation is not None and self.board.nations[nation].side is Side.NEUTRAL

    def _enemy_garrison(self, territory_id: str) -> bool:
        """The territory belongs to a nation of the other side (as printed on the map)."""
        t = self.board.territories[territory_id]
        if t.nation is None or t.garrison is None:
            return False
        side = self.board.nations[t.nation].side
        return side is not Side.NEUTRAL and side.value != self.power

    def _groups(self, report: ReadReport) -> dict[str, list[OwnBlock]]:
        groups: dict[str, list[OwnBlock]] = {}
        for b in report.own:
            if self._land(b.where) and self._ground(b) and not b.pinned:
                groups.setdefault(b.where, []).append(b)
        return groups

    # -- orders by phase ---------------------------------------------------
    def _actions(self, report: ReadReport, lang: str) -> list[str]:
        """Up to three actions: a recon, one-step group moves (a siege where the map says the
        garrison is the enemy's), a replacement step for a weakened block."""
        if not report.phase.endswith(f"-actions-{self.power}"):
            return []
        rng, out = self.rng, []
        groups = self._groups(report)
        origins = sorted(groups)
        rng.shuffle(origins)
        if origins and report.enemies and rng.random() < 0.3:
            origin = self._land(origins[0])
            seen = [n for n in self.board.neighbours(origin or "")
                    if self.board.territories[n].name in report.enemies]
            if seen:
                out.append(Recon(self.board.territories[rng.choice(sorted(seen))].name).echo(lang))
        for where in origins[: rng.randint(1, 3)]:
            origin = self._land(where)
            nbrs = sorted(self.board.neighbours(origin or ""))
            nbrs = [n for n in nbrs if not self.board.territories[n].box
                    and not self._neutral(n)
                    and not self._was_refused(where, self.board.territories[n].name)]
            if not nbrs:
                continue
            to = rng.choice(nbrs)
            movers = groups[where][: rng.randint(1, len(groups[where]))]
            names = tuple(b.name for b in movers)
            to_name = self.board.territories[to].name
            out.append(Move(where, (MoveGroup(names, to_name),)).echo(lang))
            if self._enemy_garrison(to) and to_name not in report.enemies:
                out.append(Siege(to_name, names).echo(lang))
        weak = [b for b in report.own if b.strength < b.max and self._land(b.where)]
        if weak and rng.random() < 0.3:
            out.append(Replace(rng.choice(weak).name).echo(lang))
        return out

    def _interphase(self, report: ReadReport, lang: str) -> list[str]:
        """Replacement steps for weakened blocks (8.3); the rest of the RPs by default."""
        weak = [b for b in report.own if b.strength < b.max and self._land(b.where)
                and b.where not in report.enemies]
        self.rng.shuffle(weak)
        return [Replace(b.name).echo(lang) for b in weak[:2]]

    def _hits_prefer(self, report: ReadReport, lang: str) -> list[str]:
        """``hits prefer`` the weakest of its blocks facing enemy blocks (5.5, 7.3)."""
        exposed = [b for b in report.own if b.where in report.enemies] or report.own
        if not exposed:
            return []
        pick = sorted(exposed, key=lambda b: (b.strength, b.name))[0]
        word = "pertes d'abord" if lang == "fr" else "hits prefer"
        return [f"{word} {pick.name}"]

    def _winter(self, report: ReadReport, lang: str) -> list[str]:
        """Karl XII's winter campaign (3.4), a step towards a neighbour, now and then."""
        if self.power != "sweden":
            return []
        karl = next((b for b in report.own if b.name == "Karl XII" and self._land(b.where)), None)
        if karl is None or karl.strength < 2 or self.rng.random() < 0.5:
            return []
        nbrs = sorted(self.board.neighbours(self._land(karl.where) or ""))
        if not nbrs:
            return []
        to = self.board.territories[self.rng.choice(nbrs)].name
        move = Move(karl.where, (MoveGroup(("Karl XII",), to),)).echo(lang)
        return [("campagne d'hiver : " if lang == "fr" else "winter campaign: ") + move]
