"""Play a whole seven-power Pax Britannica game with seeded random orders.

Some seats stay silent all game (drop-out bots: the GM's defaults, then the drop-out rules),
the others send random orders of every phase through the real parser and validation, some of
them conditional. Every phase's reports are rendered for every seat, the moderator and a
spectator, in English and French, exactly as the service does (fog view + visible events).
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from gm.dice import Dice
from gm.games.base import SPECTATOR, Event
from gm.games.britannica import module, war
from gm.games.britannica.data import BritanniaData, load
from gm.orders.model import SourceLine
from gm.service.render import render
from tests.support.language_scan import data_names, english_lines, french_lines

LANGUAGES = ("en", "fr")
NAMES = data_names("britannica")  # issue 20: a French report has no other English
MAX_PHASES = 400


@dataclass
class Played:
    """What a long game did, for the tests to check."""

    state: dict[str, Any]
    phases: list[str] = field(default_factory=list)
    events: Counter[str] = field(default_factory=Counter)
    reports: int = 0
    lines_sent: int = 0
    report_texts: dict[str, list[str]] = field(default_factory=dict)


def _name(d: BritanniaData, place: str) -> str:
    if place in d.areas:
        return d.areas[place].name
    if place in d.seas:
        return d.seas[place].name
    return "home"


def _movement_lines(d: BritanniaData, s: dict[str, Any], power: str, rng: random.Random,
                    conditional: bool) -> list[str]:
    areas = sorted(a for a in d.areas if d.areas[a].type != "home")
    seas = sorted(d.seas)
    lines: list[str] = []
    own_home = [u for u in s["units"] if u["power"] == power and u["at"] == "home"
                and u["type"] == "army"]
    own_markers = sorted(a for a, ms in s["markers"].items() if any(m["power"] == power for m in ms))
    near = sorted({n for a in own_markers for n in d.neighbours(a)
                   if n in d.areas and d.areas[n].type != "home"})
    for _ in range(rng.randint(1, 5)):
        roll = rng.random()
        area = _name(d, rng.choice(near if near and rng.random() < 0.7 else areas))
        if roll < 0.15:
            lines.append(f"buy {rng.choice(['army', 'army', 'fleet'])} {rng.choice([1, 3, 10])}")
        elif roll < 0.4:
            lines.append(f"place {rng.choice(['interest', 'influence', 'protectorate', 'possession'])} in {area}")
        elif roll < 0.55 and own_home:
            u = rng.choice(own_home)
            lines.append(f"move army {u['strength']} from home to {area}")
        elif roll < 0.65 and own_markers:
            lines.append(f"upgrade {_name(d, rng.choice(own_markers))} to "
                         f"{rng.choice(['influence', 'protectorate', 'possession'])}")
        elif roll < 0.72 and own_markers:
            lines.append(f"garrison {_name(d, rng.choice(own_markers))} with army 1")
        elif roll < 0.78:
            lines.append(f"merchant new in {_name(d, rng.choice(seas))}")
        elif roll < 0.82 and own_markers:
            lines.append(f"downgrade {_name(d, rng.choice(own_markers))} to interest")
        else:
            lines.append(f"place influence in {area}")
    if conditional:
        other = rng.choice([p for p in d.great_powers if p != power])
        area = _name(d, rng.choice(areas))
        lines += rng.sample([
            f"place protectorate in {area} if {other} places no control in {area}",
            "buy army 1 unless funds >= 40",
            f"if {other} moves into {area} then place interest in {area}",
            f"place influence in {area} if not ({other} buys fleet or {other} places any in {area})",
            "buy army 3 if funds >= 1000",
        ], 2)
    return lines


def _war_round_lines(d: BritanniaData, s: dict[str, Any], seat: str, rng: random.Random) -> list[str]:
    lines: list[str] = []
    w = s["wars"][0]
    for p in [p for p in d.great_powers if d.seat_of(p) == seat]:
        if war.side_of(w, p) is None:
            continue
        lines.append(f"FOR {p}")
        for u in [u for u in s["units"] if u["power"] == p][:6]:
            here = u["at"]
            near = sorted(war.adjacent(d, s, p, here))
            roll = rng.random()
            if roll < 0.3 and near:
                lines.append(f"move {u['type']} {u['strength']} from {_name(d, here)} to {_name(d, rng.choice(near))}")
            elif roll < 0.7 and here != "home":
                lines.append(f"attack {u['type']} in {_name(d, here)}")
            elif near and here != "home":
                lines.append(f"retreat {u['type']} from {_name(d, here)} to {_name(d, rng.choice(near))}")
    if rng.random() < 0.15:
        lines.append("peace")
    return lines


def orders_for(d: BritanniaData, s: dict[str, Any], seat: str, rng: random.Random,
               conditional: bool) -> tuple[list[Any], int]:
    """A seat's random orders for the phase the state waits in, as the service would store
    them (parsed, validated, refused ones dropped); and how many lines were sent."""
    step = s["step"]
    mine = [p for p in d.great_powers if d.seat_of(p) == seat]
    lines: list[str] = []
    if step == "movement":
        for p in mine:
            if p != seat:
                lines.append(f"FOR {p}")
            lines += _movement_lines(d, s, p, rng, conditional)
    elif step == "negotiation":
        cbs = [i for i, cb in enumerate(s["casus_belli"], 1) if cb["holder"] in mine]
        if cbs and rng.random() < 0.5:
            lines.append(f"congress at {_name(d, rng.choice(['russia', 'germany', 'france']))}")
        if rng.random() < 0.2:
            lines.append(f'treaty "Pact {seat}" public between {rng.choice(d.seats)}: peace')
    elif step == "congress":
        lines = [rng.choice(["attend", "stay away"])]
        if rng.random() < 0.5 and s["casus_belli"]:
            cb = rng.choice(s["casus_belli"])
            if cb.get("area"):
                lines.append(f"propose {d.seats.index(seat) + 1}: {cb['holder']} takes {_name(d, cb['area'])}")
    elif step in ("congress-vote", "congress-runoff"):
        props = s["congress"]["proposals"]
        if props:
            lines = [f"vote {rng.choice(props)['name']} {rng.choice(['yes', 'no', 'abstain'])}"]
    elif step == "congress-sign":
        lines = [f"defy {s['congress']['adopted']}"] if rng.random() < 0.3 else []
    elif step == "war":
        lines = [f"declare war on {cb['against']}" for cb in s["casus_belli"]
                 if cb["holder"] in mine and rng.random() < 0.4]
        if rng.random() < 0.1:
            lines.append(f"support {rng.choice(d.seats)}")
    elif step.startswith("war-"):
        lines = _war_round_lines(d, s, seat, rng)
    result = module.parse_orders(s, seat, [SourceLine(i, t) for i, t in enumerate(lines, 1)])
    orders = [p.order for p in result.orders]
    keep = module.validate(s, seat, orders)
    return [o for o, v in zip(orders, keep, strict=True) if v.stored], len(lines)


def assert_every_order_told(s: dict[str, Any], orders: dict[str, list[Any]],
                            events: list[Event]) -> None:
    """Movement: each order a seat sent is either carried out (``*_done``) or told to its
    owner as not carried out, with the reason (issue 18: the player never has to guess)."""
    from gm.games.britannica import orders as o

    for seat, own in orders.items():
        sent = [x for x in own if not isinstance(o.base(x), o.NoOrders | o.SwitchPower)]
        for actor in {o.actor_of(x) for x in sent} - set(s.get("abandoned", [])):
            n = sum(1 for x in sent if o.actor_of(x) == actor)
            told = [e for e in events if e.data.get("power") == actor
                    and (e.type.endswith("_done") or e.type == "order_not_carried_out")]
            assert len(told) == n, (s["year"], actor, n, [e.type for e in told])
            assert all(e.visible(seat) for e in told)


def render_all(s: dict[str, Any], events: list[Event]) -> tuple[int, dict[str, str]]:
    """Every report of the phase, en and fr: each seat, the moderator, a spectator."""
    count, texts = 0, {}
    for who in [*s["powers"], None, SPECTATOR]:
        view = module.public_view(s) if who == SPECTATOR else module.view(s, who)
        shown = [{"type": e.type, "data": dict(e.data)} for e in events if e.visible(who)]
        for lang in LANGUAGES:
            text = render("report", lang, "britannica", game_only=True, view=view, events=shown,
                          power=who)
            assert "[event " not in text, text
            other = (english_lines if lang == "fr" else french_lines)(text, NAMES)
            assert not other, (lang, other)  # issue 20: each report in its reader's language
            count += 1
            texts[f"{who}:{lang}"] = text
    return count, texts


def play_game(seed: int, silent: frozenset[str], conditional: frozenset[str],
              keep_texts: bool = False, eti: int | None = None) -> Played:
    """Play from the 1880 set-up to the end of the game; any phase that cannot be adjudicated
    or reported raises (a phase that cannot close). ``eti``: start the European Tensions
    Index there (near 100 the game ends in a Great War)."""
    d = load()
    rng = random.Random(seed)
    s = module.setup("1880", {})
    if eti is not None:
        s["eti"] = eti
    played = Played(s)
    for n in range(MAX_PHASES):
        info = module.phase(s)
        if info.ended:
            break
        assert info.id not in played.phases, f"phase {info.id} opened twice"
        played.phases.append(info.id)
        orders: dict[str, list[Any]] = {}
        for seat in info.allowed():
            if seat in silent:
                continue
            got, sent = orders_for(d, s, seat, rng, seat in conditional)
            played.lines_sent += sent
            if got or seat in info.owing:
                orders[seat] = got
        for seat in info.owing:
            if seat not in orders:
                orders[seat] = module.default_orders(s, seat)
        tag = f"long{seed}-{n}"
        dice = Dice(seed=hashlib.sha256(tag.encode()).digest(), game_id="long", phase_id=info.id)
        out = module.adjudicate(s, orders, dice)
        if s["step"] == "movement":
            assert_every_order_told(s, orders, list(out.events))
        s = out.state
        played.state = s
        played.events.update(e.type for e in out.events)
        count, texts = render_all(s, list(out.events))
        played.reports += count
        if keep_texts:
            for k, v in texts.items():
                played.report_texts.setdefault(k, []).append(v)
    else:
        raise AssertionError(f"the game did not end within {MAX_PHASES} phases")
    return played
