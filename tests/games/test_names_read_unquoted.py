"""Every printed name and alias of the three games reads unquoted in an order (orders.md §3).

Players type names as their map prints them, without quotes. A name holding a keyword of
its game's grammar ("Bremen and Verden", "Rio de Oro", "North Sea and Baltic") or a
character that ends a word ("S:t Petersburg") is read as printed (gm.orders.printed),
through each game's own parse (``module.parse_orders`` on a real scenario state). Each
name the game reads (every name and alias of every slot: places, seas, blocks, nations,
powers, tiles, posts; English and French) is written unquoted in an ordinary order and
must read as the same order as its quoted or id form, so a name added to the data with
odd punctuation or a keyword is caught here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gm.games import registry
from gm.games.baltica import parsing as baltica
from gm.games.britannica import parser as britannica
from gm.games.viking import parsing as viking
from gm.i18n import translate
from gm.orders.grammar import printed_names
from gm.orders.model import ParsedOrder, SourceLine


def _read(module: Any, state: dict[str, Any], power: str, line: str) -> Any:
    """The order ``power``'s line is read as, or why not (the reply's reason, in English)."""
    [result] = module.parse_orders(state, power, [SourceLine(1, line)]).lines
    if isinstance(result, ParsedOrder):
        return result.order
    return f"{line!r}: {translate(getattr(result, 'reason', 'ignored as prose'), 'en')}"


def _unread(module: Any, state: dict[str, Any], power: str,
            cases: Iterator[tuple[str, str]], line: Callable[[str], str]) -> list[str]:
    """The (spelling, reference) pairs whose unquoted line does not read as the reference's."""
    out = []
    for spelling, reference in cases:
        want = _read(module, state, power, line(reference))
        assert not isinstance(want, str), want  # the reference form itself reads
        got = _read(module, state, power, line(spelling))
        if got != want:
            out.append(str(got))
    return out


def _quoted(index: Any) -> Iterator[tuple[str, str]]:
    """Each spelling of a name index with its canonical name quoted, the reference."""
    for canonical in index.names:
        for spelling in index.spellings_of(canonical):
            yield spelling, f'"{canonical}"'


@pytest.mark.parametrize("ruleset", ["gmt-2012", "3cg-1.1"])
def test_every_pax_baltica_name_reads_unquoted(ruleset: str) -> None:
    """Territories, sea zones (with the harbors as waters), nations and every block of
    both sides, each spelling in aliases.toml, map.toml and the ruleset."""
    module = registry.get("baltica")
    state = module.setup("12.1", {"ruleset": ruleset})
    board = module.board_of(state)
    unread = []
    for power in ("sweden", "coalition"):
        names = baltica.context_for(board, state, power).names
        unread += _unread(module, state, power, _quoted(names["army"]), lambda n: f"reform {n}")
    names = baltica.context_for(board, state, "sweden").names
    for slot, line in (("territory", "recon {}"), ("waters", "retreat Karl XII to {}"),
                       ("nation", "politics {}")):
        unread += _unread(module, state, "sweden", _quoted(names[slot]), line.format)
    assert unread == []


def test_every_pax_viking_name_reads_unquoted() -> None:
    """Tiles (every tile known: the discard pile holds them all), posts, places (regions,
    posts, the home box; English and French, aliases.toml) and the players' colours."""
    module = registry.get("viking")
    state = module.setup("2p", {})
    state["discard"] = list(module.data.tiles)
    names = viking.context_for(module.data, state, "red").names
    unread = []
    for slot, line in (("tile", "buy {}"), ("post", "activate {}"),
                       ("place", "journey from {0} to {0}"),
                       ("power", "offer {}: give 1 silfr for 1 silfr")):
        unread += _unread(module, state, "red", _quoted(names[slot]), line.format)
    assert unread == []


def test_every_pax_britannica_name_reads_unquoted() -> None:
    """Areas, sea and Cape zones and powers, English and French (map.toml ``words``,
    aliases.toml), each read as the order naming the same place by its id."""
    module = registry.get("britannica")
    state = module.setup("1880", {})
    n = britannica.names()

    def by_id(index: Any, ident: Callable[[str], str]) -> Iterator[tuple[str, str]]:
        for canonical in index.names:
            for spelling in index.spellings_of(canonical):
                yield spelling, ident(canonical)

    unread = []
    for index, line, ident in ((n.areas, "place interest in {}", n.by_name.__getitem__),
                               (n.seas, "move fleet 1 from {0} to {0}", n.by_name.__getitem__),
                               (n.powers, "declare war on {}", str)):
        unread += _unread(module, state, "britain", by_id(index, ident), line.format)
    assert unread == []


def test_the_names_read_as_printed_are_those_the_grammar_cannot_read_as_plain_words() -> None:
    """What the tests above are about: the spellings joined before a line is parsed."""
    module = registry.get("baltica")
    state = module.setup("12.1", {})
    context = baltica.context_for(module.board_of(state), state, "sweden")
    joined = printed_names(context, baltica.GRAMMAR.parser()).spellings
    assert "Bremen and Verden" in joined and "S:t Petersburg" in joined
    assert "Skane" not in joined and "St. Peterburg" not in joined  # read as plain words
    assert "Rio de Oro" in britannica.names().printed.spellings


def test_a_close_miss_of_a_pax_britannica_name_read_as_printed_is_answered_did_you_mean() -> None:
    """"North Sea and Baltc" was "not understood": the name is offered instead."""
    module = registry.get("britannica")
    got = _read(module, module.setup("1880", {}), "britain",
                "move fleet 1 from North Sea and Baltc to Indian Ocean")
    assert got.endswith("unknown sea zone 'North Sea and Baltc': did you mean North Sea and Baltic?")
