"""Pax Britannica's HELP is true to its grammar: every syntax line and every example of every
order topic (orders_grammar/britannica.topics.toml), in English and in French, as HELP shows
it, reads as that topic's order.

Pax Britannica's order syntax is written by hand (its grammar reads keywords as regular
expressions, so help.py cannot generate it): nothing else ties it to the parser. Each
syntax line is filled with names from the 1880 scenario (a seat, an area it holds a marker
in, a sea zone its merchants sail, one of its units' strength) in the language of the
HELP, and read through the module's ``parse_orders`` with that scenario's state in a phase
where the order is taken; a line that does not read, or reads as another order, is listed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from gm.games.britannica import orders as o
from gm.games.britannica.data import load
from gm.games.britannica.module import ORDERS_OF_STEP, Britannica
from gm.games.britannica.parser import command_keywords
from gm.games.britannica.view import words
from gm.i18n import msg, translate
from gm.orders.help import help_text, load_topics, topics_of
from gm.orders.model import ParsedOrder, SourceLine
from gm.orders.names import fold
from gm.resources import grammar_root

TOPIC_ORDERS: dict[str, tuple[type, ...]] = {
    "conditions": (o.Conditional,), "buy": (o.Buy,), "place": (o.Place,),
    "upgrade": (o.Upgrade,), "downgrade": (o.Downgrade,), "move": (o.Move,),
    "merchant": (o.Merchant,), "canal": (o.Canal,), "garrison": (o.Garrison,),
    "transfer": (o.Transfer,), "for": (o.SwitchPower, o.Place), "congress": (o.CallCongress,),
    "attend": (o.Attend,), "propose": (o.Propose,), "vote": (o.Vote,), "defy": (o.Defy,),
    "declare": (o.Declare,), "support": (o.Support,), "treaty": (o.TreatyText, o.Sign),
    "breach": (o.Breach,), "attack": (o.Attack,), "retreat": (o.Retreat,), "peace": (o.Peace,),
    "volunteer": (o.Volunteer,), "deny": (o.Deny,), "object": (o.Object,),
}
"""The order each Pax Britannica topic is about (the ``for`` topic's example has an order
under its FOR line)."""

TOPICS = [k for k in topics_of("britannica") if k in TOPIC_ORDERS]
SEAT = "germany"  # Germany's seat gives Austria-Hungary's orders too (FOR austria-hungary)


def test_every_order_topic_is_checked() -> None:
    """A topic added to britannica.topics.toml is checked here too."""
    assert set(load_topics(grammar_root() / "britannica.topics.toml")) == set(TOPIC_ORDERS)


def _state() -> dict:  # type: ignore[type-arg]
    return Britannica().setup("1880", {})


def _names(language: str) -> dict[str, str]:
    """The placeholders of a syntax line, English and French, filled from the 1880 scenario
    in ``language``: a rival power, an area that holds a marker (one named otherwise in
    French), a sea its merchants
    sail, a unit's strength."""
    d, state = load(), _state()
    said = words(d, language)
    area = next(a for a in state["markers"]  # one whose French name is its own: "Égypte"
                if d.raw_map["areas"][a].get("words", {}).get("fr", {}).get("name") not in (
                    None, d.raw_map["areas"][a]["name"]))
    sea = state["merchants"][SEAT][0]
    strength = next(u["strength"] for u in state["units"] if u["power"] == SEAT)
    power = "france"

    def place(raw: dict) -> str:  # type: ignore[type-arg]
        return str(raw.get("words", {}).get(language, {}).get("name") or raw["name"])

    area_name, sea_name = place(d.raw_map["areas"][area]), place(d.raw_map["sea_zones"][sea])
    power_name = str(said["power"][power]["name"]) if language != "en" else power
    kind = translate(msg("protectorate"), language)
    filled = {"AREA": area_name, "SEA": sea_name, "POWER": power_name, "SITE": power_name,
              "KIND": kind, "STRENGTH": str(strength), "AMOUNT": "5", "N": "1",
              "CB-N": "CB-3", "TITLE": "Entente", "NAME": "Entente", "TEXT": "no war in Africa",
              "PASSAGE": "Suez"}
    french = {"ZONE": "AREA", "MER": "SEA", "PUISSANCE": "POWER", "TYPE": "KIND",
              "FORCE": "STRENGTH", "MONTANT": "AMOUNT", "TITRE": "TITLE", "NOM": "NAME",
              "TEXTE": "TEXT"}
    return filled | {fr: filled[en] for fr, en in french.items()}


def _shown(language: str, topic: str) -> tuple[list[str], list[str]]:
    """The syntax lines and the examples ``HELP <topic>`` shows (as a player reads them)."""
    text = help_text(language=language, game_name="britannica", topic=topic)
    lines = text.splitlines()
    syntax = [lines[i].strip() for i in range(1, len(lines) - 1)
              if re.match(r"  \S", lines[i]) and lines[i + 1].startswith("      ")]
    heading = translate(msg("Examples:"), language)
    examples = (lines[lines.index(heading) + 1:] if heading in lines else [])
    return syntax, [x.strip() for x in examples if x.strip()]


def _forms(syntax: str) -> Iterator[str]:
    """Every line a syntax line stands for: each of its forms (``A  |  B``), with and without
    each optional part (``[via SEA, ...]``), each word of an alternative (``army|fleet``)."""
    syntax = re.sub(r"«\s*(\w+)\s*»", r"«\1»", syntax)  # « TITRE » one word, as "TITLE" is
    for form in re.split(r"\s+\|\s+", syntax):
        yield from _expanded(form.replace(", ...", "").replace(" ; ...", "").replace("; ...", ""))


def _expanded(form: str) -> Iterator[str]:
    optional = re.search(r"\[([^\[\]]*)\]", form)
    if optional:
        for inner in (optional.group(1), ""):
            yield from _expanded(form[:optional.start()] + inner + form[optional.end():])
        return
    choice = re.search(r"[^\s|]+(?:\|[^\s|]+)+", form)
    if choice:
        head, tail = re.match(r"([^|]*)(.*)", choice.group(0)).groups()  # type: ignore[union-attr]
        ending = re.search(r"[:;,]$", tail)
        options = choice.group(0)[:len(choice.group(0)) - (1 if ending else 0)].split("|")
        for option in options:
            yield from _expanded(form[:choice.start()] + option + (ending.group(0) if ending else "")
                                 + form[choice.end():])
        return
    yield re.sub(r"\s+", " ", form).strip()


def _filled(form: str, names: dict[str, str]) -> str:
    out = re.sub(r"«(\w+)»", r"« \1 »", form)
    for key in sorted(names, key=len, reverse=True):
        out = re.sub(rf"(?<![\w-]){re.escape(key)}(?![\w-])", names[key], out)
    return out


def _step_of(kinds: tuple[type, ...]) -> str:
    return next(step for step, taken in ORDERS_OF_STEP.items() if set(kinds) & set(taken)
                ) if kinds != (o.Conditional,) else "movement"


def _unread(language: str, topic: str, lines: list[str]) -> list[str]:
    """The lines that do not read through the module's parse as the topic's order, each with
    what was read instead."""
    state = _state()
    kinds = TOPIC_ORDERS[topic]
    state["step"] = _step_of(kinds)
    out = []
    for line in lines:
        read = Britannica().parse_orders(state, SEAT, [SourceLine(1, line)]).lines
        if not read or not all(isinstance(r, ParsedOrder) for r in read):
            out.append(f"{language} HELP {topic}: {line!r} -> {[getattr(r, 'reason', r) for r in read]}")
        elif not all(isinstance(r.order, kinds) for r in read if isinstance(r, ParsedOrder)):
            out.append(f"{language} HELP {topic}: {line!r} read as {read!r}")
    return out


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_syntax_line_of_every_topic_reads_as_its_order(language: str) -> None:
    names = _names(language)
    unread = []
    for topic in TOPICS:
        syntax, _ = _shown(language, topic)
        if topic != "conditions":
            assert syntax, f"{language} HELP {topic} shows no syntax"
        unread += _unread(language, topic, [_filled(f, names) for s in syntax for f in _forms(s)])
    assert unread == [], "\n".join(unread)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_example_of_every_topic_reads_as_its_order(language: str) -> None:
    unread = []
    for topic in TOPICS:
        _, examples = _shown(language, topic)
        assert examples, f"{language} HELP {topic} shows no example"
        unread += _unread(language, topic, examples)
    assert unread == [], "\n".join(unread)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_condition_the_conditions_topic_lists_reads(language: str) -> None:
    """HELP conditions lists the conditions Pax Britannica knows (``POWER places KIND in
    AREA     POWER moves into AREA ...``): each, filled, reads after an order."""
    text = help_text(language=language, game_name="britannica", topic="conditions")
    listed = [c for line in text.splitlines() if re.match(r"  \S", line)
              for c in re.split(r"\s{3,}", line.strip())]
    examples = _shown(language, "conditions")[1]
    listed = [c for c in listed if c not in examples]
    assert len(listed) >= 5, text
    order = translate(msg("buy {unit} {strength}", unit=msg("army"), strength=3), language)
    cond = translate(msg("{order} if {condition}", order="", condition=""), language).strip()
    names = _names(language)
    lines = [f"{order} {cond} {_filled(c, names)}" for c in listed]
    assert _unread(language, "conditions", lines) == []


def test_the_french_help_writes_its_orders_with_french_keywords() -> None:
    """AIDE shows the French keyword of each order (``acheter``, not ``buy``), in its syntax
    and in its examples: a French player copies what is shown."""
    english = {fold(w) for w in command_keywords().english} - {fold(w) for w in command_keywords().other}
    english -= {"for"}  # FOR POWER is POUR's English twin: "POUR" is shown
    found = []
    for topic in TOPICS:
        syntax, examples = _shown("fr", topic)
        for line in (*syntax, *examples):
            first = fold(line.split(" ", 1)[0])
            if first in english or re.search(r"\b(if|unless|then|and|or)\b", line):
                found.append(f"AIDE {topic}: {line}")
    assert found == [], "\n".join(found)


def test_the_english_help_shows_english_examples() -> None:
    """HELP in English shows examples in English (the French ones are AIDE's)."""
    french = {fold(w) for w in command_keywords().other} - {fold(w) for w in command_keywords().english}
    found = [f"HELP {topic}: {x}" for topic in TOPICS for x in _shown("en", topic)[1]
             if fold(x.split(" ", 1)[0]) in french]
    assert found == [], "\n".join(found)
