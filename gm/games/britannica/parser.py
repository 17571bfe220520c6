"""Parse Pax Britannica order lines (orders.md §6, French §8) into typed orders.

One Lark LALR grammar (``orders_grammar/britannica.lark``), cached; each line
becomes a :class:`ParsedOrder`, a :class:`LineError` or an :class:`Ignored`.
Names are resolved in the slot they stand in (areas, seas, powers) with
:class:`gm.orders.names.NameIndex`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import LarkError, UnexpectedInput, VisitError

from gm.games.britannica import orders as o
from gm.games.britannica.data import BritanniaData, load
from gm.games.britannica.data import aliases as data_aliases
from gm.i18n import Echo, Name, Text, languages, msg
from gm.orders.conditions import all_of, any_of
from gm.orders.grammar import (
    Keywords,
    inline_rules,
    parse_inline,
    unknown_command,
    without_full_stop,
)
from gm.orders.help import find_topic, topic_name, topics_of
from gm.orders.lalr import RefusedAtFirstWord
from gm.orders.model import ErrorKind, Ignored, LineError, ParsedOrder, ParseResult, SourceLine
from gm.orders.names import (
    NameIndex,
    NameNotResolved,
    edit_distance,
    fold,
    listed,
    query_keys,
    strip_accents,
)
from gm.orders.printed import PrintedNames, name_words
from gm.orders.text import straighten_quotes
from gm.resources import grammar_root

KIND_WORDS = {
    "interest": "interest", "interet": "interest", "influence": "influence",
    "protectorate": "protectorate", "protectorat": "protectorate", "possession": "possession",
    "dominion": "dominion", "state": "dominion", "etat": "dominion", "control": "control",
    "controle": "control", "any": "any", "tout": "any", "none": "none", "aucun": "none",
    "aucune": "none",
}
UNIT_WORDS = {"army": "army", "armee": "army", "fleet": "fleet", "flotte": "fleet"}
POWER_ALIASES = {
    "britain": ["Great Britain", "England", "UK", "Grande-Bretagne", "Angleterre"],
    "france": [], "germany": ["Allemagne"], "austria-hungary": ["Austria", "Autriche-Hongrie", "Autriche"],
    "italy": ["Italie"], "japan": ["Japon"], "russia": ["Russie"],
    "usa": ["U.S.A.", "US", "United States", "America", "Etats-Unis"],
    "belgium": ["Belgique"], "netherlands": ["Holland", "Pays-Bas"], "spain": ["Espagne"],
    "ottoman": ["Ottoman Empire", "Ottomans", "Turkey", "Turquie", "Empire ottoman"],
}
_ARTICLE = re.compile(r"^(?:l['’]\s*|(?:la|le|les)\s+)", re.IGNORECASE)
_NAME_ARTICLE = re.compile(r"^(?:the\s+|l['’]\s*|(?:la|le|les)\s+)", re.IGNORECASE)
"""An article before a place's or a power's name: "the Sudan", "la Perse", "the USA"."""
HOME_WORDS = ("home", "patrie", "foyer", "metropole", "pays")
"""What names the home box in an order (folded: "métropole", "la métropole", "au pays" as
a French report says it: ``_is_home``)."""
_HOME_KEYS = frozenset(fold(w) for w in HOME_WORDS)
HOME_ECHO = Name("home", fr="métropole")
"""The home box in an order's echo: "métropole" for a French seat, a word the grammar reads."""


def _is_home(text: str) -> bool:
    """Whether ``text`` names the home box: "home", "métropole", "la métropole", "pays"...
    (accents, an article and "au"/"en" as a French report writes it ignored)."""
    key = fold(_ARTICLE.sub("", text))
    return key in _HOME_KEYS or (key[:2] in ("au", "en") and key[2:] in _HOME_KEYS)


class _Refused(Exception):
    def __init__(self, kind: ErrorKind, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


@dataclass(frozen=True)
class Names:
    """The name slots of one game."""

    areas: NameIndex
    seas: NameIndex
    powers: NameIndex
    by_name: dict[str, str]
    printed: PrintedNames
    """The names read only as printed ("Rio de Oro", "North Sea and Baltic": gm.orders.printed)."""


PASSAGE_WORDS = {"suez": "egypt", "suez_canal": "egypt", "bosporus": "anatolia", "straits": "anatolia",
                 "the_straits": "anatolia", "dardanelles": "anatolia", "detroits": "anatolia",
                 "panama_canal": "panama", "canal_de_suez": "egypt"}


@cache
def _parser() -> Lark:
    text = (grammar_root() / "britannica.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr")  # no propagated rule positions: nothing reads them (issue 21)


@cache
def _inline_parser() -> Lark:
    """:func:`_parser`'s inline twin: no tree for the lines that parse (issue 21)."""
    text = (grammar_root() / "britannica.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", transformer=inline_rules(_parser()))


@cache
def names(data: BritanniaData | None = None) -> Names:
    """The name indexes (areas, seas, powers) of the data set."""
    d = data or load()
    more = data_aliases()
    by_name: dict[str, str] = {}
    area_names: dict[str, list[str]] = {}
    for a in d.areas.values():
        if a.type == "home":
            continue
        area_names[a.name] = [a.id.replace("_", " "), a.id, *more["areas"].get(a.id, ())]
        by_name[a.name] = a.id
    sea_names: dict[str, list[str]] = {}
    for s in d.seas.values():
        short = s.name.replace(" Ocean", "").replace(" Sea", "")
        sea_names[s.name] = [s.id, s.id.replace("_", " "), short, *more["seas"].get(s.id, ())]
        by_name[s.name] = s.id
    for cid, cape in d.raw_map.get("cape_zones", {}).items():
        sea_names[cape["name"]] = [cid, cid.replace("_", " "), *more["seas"].get(cid, ())]
        by_name[cape["name"]] = cid
    _add_local_names(area_names, {a.name: d.raw_map["areas"][a.id] for a in d.areas.values()
                                  if a.type != "home"})
    _add_local_names(sea_names, {s.name: d.raw_map["sea_zones"][s.id] for s in d.seas.values()})
    power_names = {p: POWER_ALIASES.get(p, []) + [d.rules["powers"][p]["name"]]
                   for p in d.great_powers}
    power_names |= {p: POWER_ALIASES.get(p, []) + [d.rules["minor_powers"][p]["name"]]
                    for p in d.minor_powers}
    power_names["ottoman"] = POWER_ALIASES["ottoman"]
    areas, seas = NameIndex(area_names, "area"), NameIndex(sea_names, "sea zone")
    powers = NameIndex(power_names, "power", shown=offered_power)
    printed = PrintedNames((*areas.spellings, *seas.spellings, *powers.spellings),
                           name_words(_parser()))
    return Names(areas, seas, powers, by_name, printed)


def _add_local_names(slot: dict[str, list[str]], raw: dict[str, dict[str, Any]]) -> None:
    """Add to ``slot`` (canonical name -> aliases) each place's name in every other language
    (map.toml ``words.<language>.name``: "Perse", "Indes néerlandaises", "océan Indien"), so
    an order may name a place as a report says it, in any seat language (issue 20). A name
    that folds like another place's English name or alias would take that name from it: it
    is left out (none does in map.toml; tests/games/britannica/test_britannica_french_places.py)."""
    taken = {key: canonical for canonical, spellings in slot.items()
             for spelling in (canonical, *spellings) for key in query_keys(spelling)}
    for canonical, entry in raw.items():
        for forms in entry.get("words", {}).values():
            name = forms.get("name")
            if not name or any(taken.get(k, canonical) != canonical for k in query_keys(name)):
                continue
            if name not in slot[canonical]:
                slot[canonical].append(name)


class _Build(Transformer[Token, o.AnyOrder]):  # transform() gives the line's order
    """Tree -> typed order; names resolved in their slot."""

    def __init__(self, n: Names, actor: str, written: str = "", prepared: str = "",
                 source: str = "") -> None:
        super().__init__()
        self.n = n
        self.actor = actor
        self.written = written  # the line as the player wrote it (a treaty's text, verbatim)
        self.prepared = prepared  # the line the grammar reads (accents removed)
        self.source = source or written  # ``prepared`` with its accents ("d'Égypte": "de Égypte")

    def _verbatim(self, rest: Token) -> str:
        """A free text (a treaty's terms) as the player wrote it, accents and all: the grammar
        reads the line without accents; the text is the written line's part after as many
        colons as the read line has before it."""
        text = str(rest).strip()
        if not self.written or not self.prepared or rest.start_pos is None:
            return text
        k = self.prepared[:rest.start_pos].count(":")
        parts = self.written.split(":", k)
        return parts[k].strip() if len(parts) == k + 1 else text

    # -- names ----------------------------------------------------------------
    def name(self, items: list[Token]) -> str:
        return " ".join(self._written(t) for t in items)

    def _written(self, token: Token) -> str:
        """A name's word; one joined from a printed name's words ("Rio_de_Oro") as written."""
        text = str(token)
        start, end = token.start_pos, token.end_pos
        if "_" in text and start is not None and end is not None \
                and len(self.source) == len(self.prepared):
            return self.source[start:end]
        return text

    def _unarticled(self, text: str) -> str:
        """``text`` without its article ("the Sudan", "the Mediterranean", "la Perse") unless
        the name is a place with it: players write them so, and the refusal cost a mail (a
        misspelt name is then looked up bare, for the names it is near: "the Sudn")."""
        bare = _NAME_ARTICLE.sub("", text)
        if bare == text or not bare:
            return text

        def known(t: str) -> bool:
            return isinstance(self.n.areas.lookup(t), str) or isinstance(self.n.seas.lookup(t), str)
        return text if known(text) else bare

    def _area(self, text: str, home_ok: bool = False) -> str:
        if home_ok and _is_home(text):
            return "home"
        return self.n.by_name[self.n.areas.resolve(self._unarticled(text))]

    def _sea(self, text: str) -> str:
        """A sea zone; a name near none of them is answered with the list of the sea zones
        (few, and the printed map is not in the player's hands: "Red Sea" is none)."""
        found = self.n.seas.lookup(self._unarticled(text))
        if isinstance(found, str):
            return self.n.by_name[found]
        if found.candidates:
            raise NameNotResolved(found)
        zones = listed(_nm(self.n.by_name[z]) for z in self.n.seas.names if self.n.by_name[z] in load().seas)
        raise _Refused(ErrorKind.UNKNOWN_NAME, msg("unknown sea zone {text!r}: the sea zones are {zones}",
                                                   text=found.text, zones=zones))

    def _place(self, text: str) -> str:
        """An area or a sea zone (paths and ``via``)."""
        if _is_home(text):
            return "home"
        text = self._unarticled(text)
        if self.n.seas.is_exact(text) and not self.n.areas.is_exact(text):
            return self._sea(text)  # "Caribbean" is the sea, not the start of "Caribbean Islands"
        found = self.n.areas.lookup(text)
        if isinstance(found, str):
            return self.n.by_name[found]
        sea = self.n.seas.lookup(text)
        if isinstance(sea, str):
            return self.n.by_name[sea]
        # a name near no sea zone is answered as an area ("unknown area 'Annam'"), the places
        # moves name most; it was "unknown sea zone"
        raise NameNotResolved(sea if sea.candidates and not found.candidates else found)

    def _power(self, text: str) -> str:
        """A power; an article before it is dropped (``à la France``, ``contre l'Allemagne``,
        ``object to the USA``) when the name is not found as written."""
        try:
            return self.n.powers.resolve(text)
        except NameNotResolved:
            bare = _NAME_ARTICLE.sub("", text)
            if bare == text:
                raise
            return self.n.powers.resolve(bare)

    @staticmethod
    def _kind(tok: Token) -> str:
        return KIND_WORDS[strip_accents(str(tok)).lower()]

    @staticmethod
    def _unit(tok: Token) -> str:
        return UNIT_WORDS[strip_accents(str(tok)).lower()]

    @staticmethod
    def _strength(tok: Token) -> int:
        v = int(tok)
        if v not in (1, 3, 10):
            raise _Refused(ErrorKind.INVALID, msg("units come in strengths 1, 3 and 10, not {strength}",
                                                  strength=v))
        return v

    def _marker(self, tok: Token) -> str:
        k = self._kind(tok)
        if k in ("control", "any", "none"):
            raise _Refused(ErrorKind.INVALID, msg("{word!r} is not a marker one can place", word=tok))
        return k

    # -- orders ---------------------------------------------------------------
    def buy(self, c: list) -> o.Buy:
        """``buy army 3``; also ``acheter une armée de 3``."""
        unit = next(x for x in c if isinstance(x, Token) and x.type == "UNIT")
        return o.Buy(self.actor, self._unit(unit), self._strength(c[-1]))

    def place(self, c: list) -> o.Place:
        return o.Place(self.actor, self._marker(c[1]), self._area(c[3]))

    def upgrade(self, c: list) -> o.Upgrade:
        return o.Upgrade(self.actor, self._area(c[1]), self._marker(c[3]))

    def downgrade(self, c: list) -> o.Downgrade:
        k = self._kind(c[3])
        if k not in ("interest", "none"):
            raise _Refused(ErrorKind.INVALID, msg("downgrade to interest or to none"))
        return o.Downgrade(self.actor, self._area(c[1]), k)

    def move(self, c: list) -> o.Move:
        via = tuple(self._place(x) for x in c[8:] if isinstance(x, str) and not isinstance(x, Token))
        return o.Move(self.actor, self._unit(c[1]), self._strength(c[2]),
                      self._place(c[4]), self._place(c[6]), via)

    def merchant(self, c: list) -> o.Merchant:
        return o.Merchant(self.actor, self._sea(c[2]), self._sea(c[4]))

    def merchant_new(self, c: list) -> o.Merchant:
        return o.Merchant(self.actor, None, self._sea(c[3]))

    def canal(self, c: list) -> o.Canal:
        return o.Canal(self.actor, self._area(c[1]))

    def garrison(self, c: list) -> o.Garrison:
        if self._unit(c[3]) != "army":
            raise _Refused(ErrorKind.INVALID, msg("garrisons are army units"))
        return o.Garrison(self.actor, self._area(c[1]), self._strength(c[4]))

    def transfer(self, c: list) -> o.Transfer:
        return o.Transfer(self.actor, int(c[1]), self._power(c[3]))

    def for_power(self, c: list) -> o.SwitchPower:
        return o.SwitchPower(self.actor, self._power(c[1]))

    def sign(self, c: list) -> o.Sign:
        """``sign treaty "Entente"``; also ``sign Entente``, ``signer le traité « Entente »``."""
        return o.Sign(self.actor, str(c[-1]).strip('" '))

    def treaty(self, c: list) -> o.TreatyText:
        parties = tuple(self._power(x) for x in c[4:] if not isinstance(x, Token))
        rest = [x for x in c[4:] if isinstance(x, Token) and x.type == "REST"]
        return o.TreatyText(self.actor, str(c[1]).strip('" '), str(c[2]).lower() == "public",
                            parties, self._verbatim(rest[0]) if rest else "")

    def volunteer(self, c: list) -> o.Volunteer:
        names_ = [x for x in c if not isinstance(x, Token)]
        return o.Volunteer(self.actor, self._area(names_[0]), self._power(names_[1]))

    def deny(self, c: list) -> o.Deny:
        names_ = [x for x in c if not isinstance(x, Token)]
        passage = PASSAGE_WORDS.get(strip_accents(str(names_[0])).lower().replace(" ", "_"))
        return o.Deny(self.actor, passage or self._area(names_[0]), self._power(names_[1]))

    def not_yet(self, c: list) -> o.NotYet:
        return o.NotYet(self.actor, strip_accents(str(c[0])).lower(),
                        " ".join(str(x) for x in c).strip())

    def congress(self, c: list) -> o.CallCongress:
        about = tuple(int(str(x).lower().lstrip("cb-")) for x in c
                      if isinstance(x, Token) and x.type == "CBREF")
        return o.CallCongress(self.actor, self._power(c[2]), about)

    def attend(self, c: list) -> o.Attend:
        return o.Attend(self.actor, True)

    def stay_away(self, c: list) -> o.Attend:
        return o.Attend(self.actor, False)

    def clause(self, c: list) -> tuple[str, str, str]:
        kind = self._kind(c[1])
        if kind in ("control", "any"):
            raise _Refused(ErrorKind.INVALID, msg("{word!r} is not a marker a resolution can give",
                                                  word=c[1]))
        return (self._power(c[0]), kind, self._area(c[3]))

    def clause_verb(self, c: list) -> tuple[str, str, str]:
        verb = strip_accents(str(c[1])).lower()
        return (self._power(c[0]), "keeps" if verb in ("keeps", "garde") else "takes", self._area(c[2]))

    def propose(self, c: list) -> o.Propose:
        clauses = tuple(x for x in c if isinstance(x, tuple))
        return o.Propose(self.actor, str(c[1]).strip('" '), clauses)

    def vote(self, c: list) -> o.Vote:
        word = str(c[2]).lower()
        choice = {"oui": "yes", "non": "no", "abstention": "abstain"}.get(word, word)
        return o.Vote(self.actor, str(c[1]).strip('" '), choice)

    def vote_first(self, c: list) -> o.Vote:
        """``vote yes on 1``: the choice before the proposal."""
        return self.vote([c[0], c[-1], c[1]])

    def defy(self, c: list) -> o.Defy:
        return o.Defy(self.actor, str(c[1]).strip('" '))

    def declare(self, c: list) -> o.Declare:
        return o.Declare(self.actor, self._power(c[-1]))

    def support(self, c: list) -> o.Support:
        return o.Support(self.actor, self._power(c[1]))

    def _unit_or_army(self, c: list) -> str:
        units = [x for x in c if isinstance(x, Token) and x.type == "UNIT"]
        return self._unit(units[0]) if units else "army"

    def attack(self, c: list) -> o.Attack:
        return o.Attack(self.actor, self._unit_or_army(c), self._place(c[-1]))

    def retreat(self, c: list) -> o.Retreat:
        names_ = [x for x in c if not isinstance(x, Token)]
        ints = [x for x in c if isinstance(x, Token) and x.type == "INT"]
        return o.Retreat(self.actor, self._unit_or_army(c), self._place(names_[0]),
                         self._place(names_[1]), self._strength(ints[0]) if ints else None)

    def peace(self, c: list) -> o.Peace:
        return o.Peace(self.actor)

    def breach(self, c: list) -> o.Breach:
        return o.Breach(self.actor, str(c[1]).strip('" '), self._power(c[3]))

    def object(self, c: list) -> o.Object:
        return o.Object(self.actor, self._power(c[-1]))

    # -- conditions -----------------------------------------------------------
    def places(self, c: list) -> o.Places:
        negated = any(isinstance(x, Token) and x.type in ("NO", "NE") for x in c)
        kind_tok = next(x for x in c if isinstance(x, Token) and x.type == "KIND")
        kind = self._kind(kind_tok)
        if kind == "none":
            kind, negated = "any", True
        return o.Places(self._power(c[0]), kind, self._area(c[-1]), negated)

    def moves_into(self, c: list) -> o.MovesInto:
        return o.MovesInto(self._power(c[0]), self._area(c[3]))

    def buys(self, c: list) -> o.BuysFleet:
        if self._unit(c[-1]) != "fleet":
            raise _Refused(ErrorKind.INVALID, msg("only 'buys fleet' is a condition"))
        return o.BuysFleet(self._power(c[0]))

    def funds(self, c: list) -> o.Comparison:
        return o.Comparison(o.Quantity("funds"), o.Op.parse(str(c[1])), int(c[2]))

    def negation(self, c: list) -> o.Not:
        return o.Not(c[1])

    def conj(self, c: list) -> o.Cond:
        return all_of([x for x in c if not isinstance(x, Token)])

    def disj(self, c: list) -> o.Cond:
        return any_of([x for x in c if not isinstance(x, Token)])

    def cond_if(self, c: list) -> tuple[o.Form, o.Cond]:
        return (o.Form.IF, c[1])

    def cond_unless(self, c: list) -> tuple[o.Form, o.Cond]:
        return (o.Form.UNLESS, c[1])

    def if_then(self, c: list) -> o.Conditional:
        return o.Conditional(c[3], c[1], o.Form.THEN)

    def start(self, c: list) -> o.AnyOrder:
        if len(c) == 2:
            form, cond = c[1]
            return o.Conditional(c[0], cond, form)
        return c[0]


def _source(text: str, n: Names) -> str:
    """The line as the grammar reads it, accents kept: quotes straight, the same length, and
    its French elisions written out ("d'Égypte": "de Égypte", gm.orders.elision), the
    names that hold one kept ("Mer d'Arabie")."""
    return n.printed.elisions.read(straighten_quotes(text))


def _prepare(source: str) -> str:
    """:func:`_source` as the grammar reads it, the same length: accents stripped, one
    apostrophe for all (a treaty "Entente d’Afrique" is signed as "Entente d'Afrique")."""
    return strip_accents(source).replace("’", "'").replace("ʼ", "'")


_ORDER_STARTS = ("BUY", "PLACE", "UPGRADE", "DOWNGRADE", "MOVE", "MERCHANT", "CANAL", "GARRISON",
                 "TRANSFER", "FOR", "SIGN", "TREATY", "VOLUNTEER", "DENY", "CONGRESS", "ATTEND",
                 "STAY", "PROPOSE", "VOTE", "DEFY", "DECLARE", "SUPPORT", "ATTACK", "RETREAT",
                 "PEACE", "BREACH", "OBJECT", "IF")


START_OF: dict[type, tuple[str, ...]] = {
    o.Buy: ("BUY",), o.Place: ("PLACE",), o.Upgrade: ("UPGRADE",), o.Downgrade: ("DOWNGRADE",),
    o.Move: ("MOVE",), o.Merchant: ("MERCHANT",), o.Canal: ("CANAL",), o.Garrison: ("GARRISON",),
    o.Transfer: ("TRANSFER",), o.SwitchPower: ("FOR",), o.TreatyText: ("TREATY",),
    o.Sign: ("SIGN",), o.Breach: ("BREACH",), o.CallCongress: ("CONGRESS",),
    o.Attend: ("ATTEND", "STAY"), o.Object: ("OBJECT",), o.Propose: ("PROPOSE",),
    o.Vote: ("VOTE",), o.Defy: ("DEFY",), o.Declare: ("DECLARE",), o.Support: ("SUPPORT",),
    o.Volunteer: ("VOLUNTEER",), o.Deny: ("DENY",), o.Attack: ("ATTACK",),
    o.Retreat: ("RETREAT",), o.Peace: ("PEACE",),
}
"""The keyword each order starts with (for the commands of a phase, issue 17)."""


@cache
def command_words(kinds: tuple[type, ...] = ()) -> tuple[str, ...]:
    """The words an order can start with, English then French, from the grammar's keywords;
    of the orders ``kinds`` only when given (the orders of one phase)."""
    patterns = {t.name: t.pattern.value for t in _parser().terminals}
    starts = [t for k in kinds for t in START_OF.get(k, ())] + ["IF"] if kinds else _ORDER_STARTS
    words: list[str] = []
    for name in starts:
        found = re.match(r"\(([^()]*)\)", patterns[name])
        words += [w for w in (found.group(1).split("|") if found else ()) if w not in words]
    return tuple(words)


@cache
def command_keywords() -> Keywords:
    """The words an order can start with by language: each keyword's first spelling is the
    English one (``(buy|acheter)``), the others French; one alone (``canal``) is both."""
    patterns = {t.name: t.pattern.value for t in _parser().terminals}
    english: set[str] = set()
    other: set[str] = set()
    for name in _ORDER_STARTS:
        found = re.match(r"\(([^()]*)\)", patterns[name])
        words = found.group(1).split("|") if found else []
        english.update(words[:1])
        other.update(words[1:] or words)
    return Keywords(frozenset(english), frozenset(other))


@cache
def _folded_command_words() -> frozenset[str]:
    """:func:`command_words` as matching keys, folded once (not once per refused line)."""
    return frozenset(fold(w) for w in command_words())


def parses(text: str) -> bool:
    """Whether ``text`` parses with the grammar, its names not looked up (a line before a
    mail's sign-on told apart from a greeting: GameModule.parses_as_order): as one order,
    or as :func:`parse_lines` reads it too, without a full stop or a courtesy ("paix svp")
    or as orders joined by commas ("vote 1 yes, vote 2 no", as HELP vote shows it)."""
    if _parses_alone(text):
        return True
    pieces = [p.strip() for p in re.split(r"[,;]", text)]
    return len(pieces) >= 2 and all(
        p and fold(p.split(" ", 1)[0].split(":", 1)[0]) in _folded_command_words() and _parses_alone(p)
        for p in pieces)


def _parses_alone(text: str) -> bool:
    """Whether ``text`` parses as one order, as written or without a full stop or courtesy."""
    if _parses_one(text):
        return True
    bare = _COURTESY.sub("", without_full_stop(text)).strip()
    return bool(bare) and bare != text.strip() and _parses_one(bare)


def _parses_one(text: str) -> bool:
    """Whether ``text`` parses with the grammar as one order."""
    plain = _prepare(_source(text, names()))
    for prepared in dict.fromkeys((names().printed.join(plain), plain)):
        try:
            _parser().parse(prepared)
        except LarkError:
            continue
        return True
    return False


def parse_line(line: SourceLine, actor: str, n: Names | None = None,
               after_prose: str | None = None,
               commands: tuple[str, ...] = ()) -> ParsedOrder | LineError | Ignored:
    """Parse one order line for ``actor``; ``after_prose``: the line before, if it was
    prose (a line that is no order and reads as prose is ignored, orders.md §2). A name
    is read as printed (gm.orders.printed: "North Sea and Baltic"), where the line reads
    so; else the line is read with its words as they come ("... and ..." of a condition)."""
    n = n or names()
    source = _source(line.text, n)
    plain = _prepare(source)
    joined = n.printed.join(plain)
    read = _read(line, actor, n, joined, plain, source)
    if joined != plain and not isinstance(read, ParsedOrder):
        words = _read(line, actor, n, plain, plain, source)
        if isinstance(words, ParsedOrder) or read is None:
            read = words
    if read is None and joined == plain:
        read = _near_miss(line, actor, n, plain, source)
    if read is not None:
        return read
    return (_without_full_stop(line, actor, n, after_prose, commands)
            or _without_courtesy(line, actor, n, commands)
            or _not_an_order(line, commands, after_prose, actor, n))


def _near_miss(line: SourceLine, actor: str, n: Names, plain: str, source: str
               ) -> ParsedOrder | LineError | None:
    """A line that does not read, read again with the shape of a name read as printed taken
    as one name ("North Sea and Baltc"): its order where that name is a prefix of one, its
    "did you mean" where it is a close miss, else None."""
    near = n.printed.join_near(plain)
    if near == plain:
        return None
    read = _read(line, actor, n, near, plain, source)
    if isinstance(read, LineError) and not (read.suggestions and read.kind is ErrorKind.UNKNOWN_NAME):
        return None
    return read


def _read(line: SourceLine, actor: str, n: Names, prepared: str, plain: str, source: str
          ) -> ParsedOrder | LineError | None:
    """The order ``prepared`` (the line as the grammar reads it) stands for, the refusal of
    its names or rules, or None when the grammar does not read it."""
    try:
        order = parse_inline(_inline_parser(), _Build(n, actor, line.text, plain, source), prepared,
                             refused_at_first_word=True)
    except (UnexpectedInput, RefusedAtFirstWord):  # the same grammar: the tree parser refuses it too
        return None
    except Exception:  # noqa: S110 - refused: read again below, for the very same answer
        pass
    else:
        return ParsedOrder(line, order, echo(order))
    try:
        tree: Tree[Token] = _parser().parse(prepared)
        order = _Build(n, actor, line.text, plain, source).transform(tree)
    except VisitError as exc:
        inner = exc.orig_exc
        if isinstance(inner, NameNotResolved):
            return inner.failure.to_error(line)
        if isinstance(inner, _Refused):
            return LineError(line, inner.kind, inner.reason)
        raise
    except LarkError:
        return None
    return ParsedOrder(line, order, echo(order))


_COND_WORD = re.compile(r"\s(?:if|si|unless|sauf\s+si)\s", re.IGNORECASE)
_THEN_WORD = re.compile(r"\s(?:then|alors)\s", re.IGNORECASE)


def _condition_unread(line: SourceLine, actor: str, n: Names) -> bool:
    """Whether the line is an order that reads with a condition that does not (``ORDER if
    C``, ``ORDER unless C``, ``if C then ORDER``): the order's own syntax would not help."""
    text = line.text.strip()
    starts = re.match(r"(?:if|si)\s", text, re.IGNORECASE)
    found = _THEN_WORD.search(text) if starts else _COND_WORD.search(text)
    if not found:
        return False
    order = text[found.end():] if starts else text[:found.start()]
    return isinstance(parse_line(SourceLine(line.number, order), actor, n), ParsedOrder)


def _without_full_stop(line: SourceLine, actor: str, n: Names, after_prose: str | None,
                       commands: tuple[str, ...]) -> ParsedOrder | None:
    """The order read once more without a sentence's full stop ("buy army 3.", issue 17)."""
    bare = without_full_stop(line.text)
    if bare == line.text or not bare.strip():
        return None
    again = parse_line(SourceLine(line.number, bare), actor, n, after_prose, commands)
    return ParsedOrder(line, again.order, again.echo) if isinstance(again, ParsedOrder) else None


_COURTESY = re.compile(r"^\s*(?:please|pls|svp)\s+|[\s,]+(?:please|pls|thanks|thank\s+you|svp|"
                       r"s'il\s+(?:vous|te)\s+pla[iî]t|merci)[\s.!]*$", re.IGNORECASE)
_COMMENT = re.compile(r"\s*\(([^()]*)\)[\s.!]*$")
_CONDITION_WORDS = frozenset(("if", "unless", "only", "when", "except", "but", "and", "or", "not",
                              "then", "si", "sauf", "seulement", "quand", "mais", "et", "ou",
                              "non", "alors"))
"""Words that make a parenthesis part of the order, never a comment to drop: "(only if Italy
agrees)" is a condition, and a conditional order is never carried out without it (§1)."""


def _without_courtesy(line: SourceLine, actor: str, n: Names,
                      commands: tuple[str, ...]) -> ParsedOrder | None:
    """The order read once more without a courtesy ("attend please", "please attend", "paix
    svp") or a trailing comment in parentheses ("buy army 3 (for the colonies)"), where the
    rest reads as an order: such lines were refused, costing a round of mail. A parenthesis
    holding a condition's word is never dropped. The reply says what was read (the echo)
    under what was written."""
    bare = line.text
    found = _COMMENT.search(bare)
    if found and not _CONDITION_WORDS & set(
            re.findall(r"\w+", strip_accents(found.group(1)).lower())):
        bare = bare[:found.start()]
    bare = _COURTESY.sub("", bare).strip()
    if bare == line.text.strip() or not bare:
        return None
    again = parse_line(SourceLine(line.number, bare), actor, n, None, commands)
    return ParsedOrder(line, again.order, again.echo) if isinstance(again, ParsedOrder) else None


def _not_an_order(line: SourceLine, commands: tuple[str, ...], after_prose: str | None,
                  actor: str, n: Names) -> LineError | Ignored:
    word = line.text.split(" ", 1)[0].split(":", 1)[0]
    if fold(word) not in _folded_command_words():
        return unknown_command(line, commands or command_words(), after_prose,
                               keywords=command_keywords())
    if _condition_unread(line, actor, n):
        return LineError(line, ErrorKind.INVALID, msg(
            "not understood: the order reads, its condition does not; a condition is written "
            "POWER places [no] KIND in AREA, POWER moves into AREA, POWER buys fleet or "
            "funds >= N (HELP conditions)"))
    typo = _misspelt_keyword(line.text, n)
    if typo is not None:
        return LineError(line, ErrorKind.INVALID, msg("{why}; {written!r}: did you mean {word}?",
                                                      why=how_written(word), written=typo[0],
                                                      word=typo[1]))
    return LineError(line, ErrorKind.INVALID, how_written(word))


def _misspelt_keyword(text: str, n: Names) -> tuple[str, str] | None:
    """A word of the line one or two letters from a marker's or a unit's word ("influnce",
    "protectorat" is French and reads): the order's syntax alone did not show what was
    wrong ("place KIND in AREA"). The word is suggested as the reader's language writes it
    ("armée", "intérêt": the grammar reads it without its accent, a player writes it with)."""
    keywords = {strip_accents(k) for k in (*KIND_WORDS, *UNIT_WORDS)}
    for written in text.split()[1:]:
        key = strip_accents(written).lower().strip(".,;:")
        if len(key) < 5 or key in keywords or any(
                isinstance(index.lookup(written), str) for index in (n.areas, n.seas, n.powers)):
            continue  # a keyword, or a place's or a power's name ("Straits" is not "state")
        near = sorted((edit_distance(key, k), k) for k in keywords if abs(len(k) - len(key)) <= 2)
        if near and near[0][0] <= 2:
            return written, _word((KIND_WORDS | UNIT_WORDS)[near[0][1]])
    return None


@cache
def how_written(word: str) -> Text:
    """Why a line that begins with an order's word (``word``, as written) did not read as
    that order: the order's syntax from its HELP topic (britannica.topics.toml), said in
    the reader's language, so that the player can write it again without asking HELP."""
    found = find_topic(topics_of("britannica"), word)
    syntax = found[1].get("syntax") if found else None
    if found is None or not isinstance(syntax, Mapping) or "en" not in syntax:
        return msg("not understood (HELP lists the orders of Pax Britannica)")
    return msg("not understood: it is written {syntax} (HELP {topic})",
               syntax=Text(str(syntax["en"])), topic=topic_name(*found))


def parse_lines(lines: Sequence[SourceLine], power: str,
                kinds: tuple[type, ...] = ()) -> ParseResult:
    """Parse a section; ``FOR`` lines switch the acting power for the lines below. ``kinds``:
    the orders of this phase, whose words alone are suggested for an unknown command."""
    commands = command_words(kinds) if kinds else ()
    n = names()
    result = ParseResult()
    actor = power
    taken: set[int] = set()  # lines read with the line above them (a wrapped order)
    for k, line in enumerate(lines):
        if k in taken:
            continue
        if not line.text.strip():
            result.lines.append(Ignored(line, "blank"))
            continue
        before = result.lines[-1] if result.lines else None
        r = parse_line(line, actor, n, before.line.text if isinstance(before, Ignored) else None,
                       commands)
        read: list[ParsedOrder | LineError | Ignored] = [r]
        if isinstance(r, LineError):
            read = _joined_orders(line, r, actor, n, commands)
            wrapped = _wrapped(line, lines[k + 1] if k + 1 < len(lines) else None, actor, n)
            if read == [r] and wrapped is not None:
                read = [wrapped]
                taken.add(k + 1)
        for one in read:
            if isinstance(one, ParsedOrder) and isinstance(one.order, o.SwitchPower):
                actor = one.order.to
            result.lines.append(one)
    return result


def _wrapped(line: SourceLine, below: SourceLine | None, actor: str, n: Names) -> ParsedOrder | None:
    """A line split mid-order by the mail client ("move army 3 from home to" above
    "bulgaria"): the line that does not read, read with the line right below it as one order,
    where that reads and the line below alone does not (orders.md §1 "Long lines" joins only
    lines that open with a continuation word; docs/orders.md says what this extension adds).
    The order keeps the first line's number; what was read is said under it: both lines as
    written, "lines 5 and 6, read as one order". None: any other pair of lines."""
    if below is None or below.number != line.number + 1 or not below.text.strip():
        return None
    if isinstance(parse_line(below, actor, n), ParsedOrder):
        return None
    one = parse_line(SourceLine(line.number, f"{line.text.rstrip()} {below.text.strip()}"), actor, n)
    if not isinstance(one, ParsedOrder):
        return None
    said = msg("{first} / {second} (lines {a} and {b}, read as one order)", first=line.text.strip(),
               second=below.text.strip(), a=line.number, b=below.number)
    return ParsedOrder(SourceLine(line.number, said), one.order, one.echo)


def _joined_orders(line: SourceLine, refused: LineError, actor: str, n: Names,
                   commands: tuple[str, ...]) -> list[ParsedOrder | LineError | Ignored]:
    """A line that does not read as one order but as several joined by commas or semicolons,
    each opening with an order's word ("vote 1 yes, vote 2 no", "upgrade Eritrea to
    protectorate, move army 1 from home to Eritrea"): each read as its own line, under the
    line's number (it was refused whole, with the syntax of an order it follows). Any other
    line stays refused as it was."""
    pieces = [p.strip() for p in re.split(r"[,;]", line.text)]
    if len(pieces) < 2 or not all(
            p and fold(p.split(" ", 1)[0].split(":", 1)[0]) in _folded_command_words() for p in pieces):
        return [refused]
    out: list[ParsedOrder | LineError | Ignored] = []
    for piece in pieces:
        one = parse_line(SourceLine(line.number, piece), actor, n, None, commands)
        if isinstance(one, ParsedOrder) and isinstance(one.order, o.SwitchPower):
            actor = one.order.to
        out.append(one)
    return out


# -- canonical echo (re-parses to the same order) ------------------------------
def _nm(ident: str) -> str:
    """A place in an echo: its English name, said in French with the data's French name
    where the grammar reads that name back as the same place (orders.md §8)."""
    if ident == "home":
        return HOME_ECHO
    english = o._area_name(ident)
    return _said_place(ident, english)


def said_place(ident: str) -> str:
    """A place as an echo says it in the reader's language (:func:`_nm`)."""
    return _nm(ident)


@cache
def said_power(ident: str) -> str:
    """A power as an echo says it: its id, said in French with its French name ("Italie",
    rules.toml ``words``) where the grammar reads that name back as the same power."""
    from gm.games.britannica.view import words

    forms = {}
    for lang in languages()[1:]:
        said = str(words(load(), lang)["power"].get(ident, {}).get("name", ""))
        try:
            if said and names().powers.resolve(said) == ident:
                forms[lang] = said
        except NameNotResolved:
            pass
    return Name(ident, **forms) if forms else ident


@cache
def offered_power(ident: str) -> str:
    """A power a reply offers ("did you mean"): its name in the reader's language where the
    grammar reads that name back as the same power ("U.S.A.", "États-Unis"), else its id."""
    from gm.games.britannica.view import words

    said = said_power(ident)
    forms = dict(getattr(said, "forms", {}))
    english = str(words(load(), "en")["power"].get(ident, {}).get("name", ""))
    try:
        if not english or names().powers.resolve(english) != ident:
            english = ident
    except NameNotResolved:
        english = ident
    return Name(english, **forms)


def said_word(word: str) -> str:
    """A keyword of an echo (a unit, a marker kind) in the reader's language."""
    return _word(word)


@cache
def _said_place(ident: str, english: str) -> str:
    d = load()
    raw = d.raw_map["areas"].get(ident) or d.raw_map["sea_zones"].get(ident) or {}
    forms = {lang: str(w["name"]) for lang, w in raw.get("words", {}).items()
             if lang != "en" and "name" in w}
    index = names().areas if ident in d.areas else names().seas
    kept = {lang: n for lang, n in forms.items() if index.lookup(n) == english}
    return Name(english, **kept) if kept else english


def _pname(name: str) -> str:
    """A proposal's name as written: a number bare, a title in quotes."""
    return name if name.isdigit() else f'"{name}"'


#: The words an order's echo carries as parameters, each its own message so the reply
#: says them in the seat's language ("armée", "protectorat": words the grammar reads).
#: "dominion" stays as written: it is a French keyword too, and the catalogue's French
#: for the report ("État/dominion") would not parse.
_WORDS = {"army": msg("army"), "fleet": msg("fleet"), "interest": msg("interest"),
          "influence": msg("influence"), "protectorate": msg("protectorate"),
          "possession": msg("possession"), "none": msg("none"), "yes": msg("yes"),
          "no": msg("no"), "abstain": msg("abstain"), "control": msg("control"),
          "any": msg("any")}


def _word(word: str) -> str:
    return _WORDS.get(word, word)


def _joined(parts: Sequence[str], listed: bool = False) -> str:
    """``a; b; c`` as one message (the French puts a space before the semicolon), or with
    ``listed`` ``a, b, c``; each part said in the reader's language."""
    out = parts[0]
    for part in parts[1:]:
        out = msg("{a}, {b}", a=out, b=part) if listed else msg("{a}; {b}", a=out, b=part)
    return out


def _clause(power: str, kind: str, area: str) -> Text:
    if kind == "keeps":
        return msg("{power} keeps {area}", power=said_power(power), area=_nm(area))
    if kind == "takes":
        return msg("{power} takes {area}", power=said_power(power), area=_nm(area))
    return msg("{power} {kind} in {area}", power=said_power(power), kind=_word(kind), area=_nm(area))


def echo(order: o.AnyOrder) -> Echo:
    """Canonical text of an order: a :class:`gm.i18n.Text` holding the English, which a
    reply says again in the seat's language through the catalogue (whose French uses the
    grammar's French words, so it parses again: orders.md §8), never elided
    (:class:`gm.i18n.Echo`: "déplacer armée 2 de Egypte", as the grammar reads it)."""
    return Echo(_canonical(order))


def _canonical(order: o.AnyOrder) -> str:  # noqa: C901 - one line per order type
    """:func:`echo`'s text."""
    if isinstance(order, o.Conditional):
        if order.form is o.Form.THEN:
            return msg("if {condition} then {order}", condition=order.cond.echo(),
                       order=_canonical(order.order))
        if order.form is o.Form.UNLESS:
            return msg("{order} unless {condition}", order=_canonical(order.order),
                       condition=order.cond.echo())
        return msg("{order} if {condition}", order=_canonical(order.order), condition=order.cond.echo())
    match order:
        case o.Buy(_, unit, s):
            return msg("buy {unit} {strength}", unit=_word(unit), strength=s)
        case o.Place(_, kind, area):
            return msg("place {kind} in {area}", kind=_word(kind), area=_nm(area))
        case o.Upgrade(_, area, kind):
            return msg("upgrade {area} to {kind}", area=_nm(area), kind=_word(kind))
        case o.Downgrade(_, area, kind):
            return msg("downgrade {area} to {kind}", area=_nm(area), kind=_word(kind))
        case o.Move(_, unit, s, origin, dest, via):
            if via:
                return msg("move {unit} {strength} from {origin} to {dest} via {via}",
                           unit=_word(unit), strength=s, origin=_nm(origin), dest=_nm(dest),
                           via=_joined([_nm(v) for v in via], listed=True))
            return msg("move {unit} {strength} from {origin} to {dest}", unit=_word(unit),
                       strength=s, origin=_nm(origin), dest=_nm(dest))
        case o.Merchant(_, None, dest):
            return msg("merchant new in {area}", area=_nm(dest))
        case o.Merchant(_, origin, dest):
            return msg("merchant from {origin} to {dest}", origin=_nm(origin or ""), dest=_nm(dest))
        case o.Canal(_, area):
            return msg("canal {area}", area=_nm(area))
        case o.Garrison(_, area, s):
            return msg("garrison {area} with army {strength}", area=_nm(area), strength=s)
        case o.Transfer(_, amount, to):
            return msg("transfer {amount} to {power}", amount=amount, power=said_power(to))
        case o.SwitchPower(_, to):
            return msg("FOR {power}", power=to)
        case o.Sign(_, name):
            return msg('sign treaty "{name}"', name=name)
        case o.TreatyText(_, name, public, parties, text):
            return msg('treaty "{name}" {visibility} between {parties}: {text}', name=name,
                       visibility="public" if public else "secret",
                       parties=_joined([said_power(p) for p in parties], listed=True), text=text)
        case o.NotYet(_, _, text):
            return text
        case o.Volunteer(_, area, to):
            return msg("volunteer coaling {area} to {power}", area=area, power=said_power(to))
        case o.Deny(_, area, to):
            return msg("deny {area} to {power}", area=area, power=said_power(to))
        case o.CallCongress(_, site, about):
            if about:
                return msg("congress in {site} about {cbs}", site=said_power(site),
                           cbs=", ".join(f"CB-{n}" for n in about))
            return msg("congress in {site}", site=said_power(site))
        case o.Attend(_, True):
            return msg("attend")
        case o.Attend(_, False):
            return msg("stay away")
        case o.Propose(_, name, clauses):
            return msg("propose {name}: {clauses}", name=_pname(name),
                       clauses=_joined([_clause(p, k, a) for p, k, a in clauses]))
        case o.Vote(_, name, choice):
            return msg("vote {name} {choice}", name=_pname(name), choice=_word(choice))
        case o.Defy(_, name):
            return msg("defy {name}", name=_pname(name))
        case o.Declare(_, target):
            return msg("declare war on {power}", power=said_power(target))
        case o.Support(_, ally):
            return msg("support {power}", power=said_power(ally))
        case o.Attack(_, unit, where):
            return msg("attack {unit} in {area}", unit=_word(unit), area=_nm(where))
        case o.Retreat(_, unit, origin, dest, strength):
            if strength:
                return msg("retreat {unit} {strength} from {origin} to {dest}", unit=_word(unit),
                           strength=strength, origin=_nm(origin), dest=_nm(dest))
            return msg("retreat {unit} from {origin} to {dest}", unit=_word(unit),
                       origin=_nm(origin), dest=_nm(dest))
        case o.Peace(_):
            return msg("peace")
        case o.Breach(_, name, violator):
            return msg('breach "{name}" by {power}', name=name, power=said_power(violator))
        case o.Object(_, power):
            return msg("object to {power}", power=said_power(power))
    raise TypeError(order)
