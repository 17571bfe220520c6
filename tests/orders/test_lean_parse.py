"""The lean LALR run (gm.orders.lalr, issue 21) answers every line as Lark did before it.

Each game's real order lines (the benchmark's Pax Baltica and Pax Britannica mails, Pax
Viking's phrases, in English and French, with prose, typos, unknown names, quotes and
accents), then each of them cut short at every word, with a word dropped and with a full
stop, are parsed twice: with the lean run, and with it switched off (Lark's inline parser,
then its tree parser, as before). Every result must be the same: the order and its echo,
each error's kind, reason and suggestions, each ignored line. A line the lean run accepts
must also give what Lark's tree and the game's transformer give; the faster accent folding
and quote straightening must give what the letter-by-letter ones gave.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from lark import Lark

from gm.dice import Dice
from gm.games.baltica import module as baltica_module
from gm.games.baltica import parsing as baltica
from gm.games.britannica import parser as britannica
from gm.games.britannica.module import ORDERS_OF_STEP
from gm.games.viking import module as viking_module
from gm.games.viking import parsing as viking
from gm.orders import grammar
from gm.orders.lalr import Fallback, LeanLALR
from gm.orders.model import ParseResult, SourceLine
from gm.orders.names import _strip_char, strip_accents
from gm.orders.text import _DOUBLE_QUOTES, _SINGLE_QUOTED, straighten_quotes

BALTICA = """\
move from Västergötland: Elfsborg to Småland
move from Estland: Estländska, Vellinck to Livland
move from Skåne: Dalregementet, Karl XII, Södra Skånska to Västergötland
hits prefer Södra Skånska
move from Skane: Dalregementet, Karl 12 to Smaland
move from Västergötland: Elfsborg to Svealand via Småland force
move from Skåne: Karl XII to Småland; Dalregementet to Halland
siege Estland with Estländska, Vellinck
recon Livland
main attack Livland from Estland
politics Denmark target Russia, Saxony
reinforce Karl XII
pin Karl XII in Skåne
replace Karl XII to 3
retreat Karl XII to Småland
battle order Skåne, Livland
build Sweden: draw 2 strength 3; deploy Skåne, Svealand
reform Karl XII
cede Livland to Russia
truce offer Russia
solidarity truce
reroll actions below 3
winter campaign: move from Skåne: Karl XII to Småland
move from Skåne: Karl XII to Småland if Russia moves into Livland
if round >= 2 then move from Skåne: Karl XII to Småland
move from Skåne: Karl XII to Småland unless enemy blocks in Småland > 3 and not strength of Karl XII <= 2
déplacer de Skåne : Karl XII vers Småland
pertes d'abord Karl XII
siège Estland avec Vellinck
reconnaitre Livland
move from Skåne: Karl XII to Småland.
hits prefer Karl XII!
move from Skne: Karl XII to Småland
move from Skåne: Karl XIII to Småland
move from S: Karl XII to Småland
move Karl XII to Livland
siege Estland
mvoe from Skåne: Karl XII to Småland
hits prefer “Karl XII”
hits prefer 'Karl XII'
Hello GM,
Thanks,
Thanks for the game, see you next turn.
Cheers
I move my army next turn
P.S. the weather is fine
-
""
"""

BRITANNICA = """\
place influence in Serbia
place protectorate in New Zealand
place protectorate in Cuba
buy army 1
buy fleet 3
buy army 2
move army 1 from home to Egypt
move fleet 3 from home to Caribbean via North Atlantic, Caribbean Sea
FOR germany
FOR Austria
upgrade Egypt to protectorate
downgrade Egypt to interest
merchant from North Atlantic to Caribbean
merchant new in Indian Ocean
canal Panama
garrison Egypt with army 1
garrison Egypt with fleet 1
transfer 10 to France
sign treaty "Entente"
sign treaty “Entente d’Afrique”
signer le traité « Entente »
treaty "Entente" secret between France, Russia: we share Africa
volunteer coaling Aden to Britain
deny Suez to Germany
congress in Germany about CB-1, CB-2
attend
stay away
propose "Peace": France takes Egypt; Britain keeps Aden
propose 2: France influence in Egypt
vote "Peace" yes
vote 2: abstain
defy "Peace"
declare war on Germany
déclarer la guerre à l'Allemagne
support France
attack army in Egypt
retreat army 1 from Egypt to Sudan
peace
breach "Entente" by Germany
object to Germany
place influence in Egypt if Britain places no protectorate in Egypt
place influence in Egypt unless funds < 10
if Britain moves into Egypt then place interest in Sudan
placer influence en Égypte
acheter armée 1
place influence in Rio de Oro
place protectorate in Persia.
place influence in Egyp
place influence in Nowhere
place control in Egypt
buy army 4
place influence Egypt
plcae influence in Egypt
Hello GM,
Thanks,
Cheers
Buy low, sell high, as they say.
"""

VIKING = """\
invest draw
investir piocher
journey from home to Gotaland, Baltic Sea
voyager de foyer vers Gotaland, Mer Baltique
parley Damascus
parlementer Damas
parley Birka challenge blue
parlementer Birka défier blue
jarldom from Ladoga to Svir
jarlat de Ladoga vers Svir
theocracy Normandy
théocratie Normandie
voter oui
counter: give nothing for 2 silfr
contreproposer : donner rien contre 2 silfr
parley Miklagrad
invest
pass
Hello GM,
Thanks,
"""


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def variants(lines: Sequence[str]) -> Iterator[str]:
    """Each line, cut short at every word, with each word dropped, with a full stop."""
    for line in lines:
        yield line
        words = line.split(" ")
        for i in range(1, len(words)):
            yield " ".join(words[:i])
            yield " ".join(words[:i - 1] + words[i:])
        yield line + "."
        yield " ".join(words[1:])


def _seen(result: ParseResult) -> list[tuple[str, str]]:
    """Each line's result as the reply would use it, its type and every field."""
    return [(type(r).__name__, repr(r)) for r in result.lines]


def _both(monkeypatch: pytest.MonkeyPatch, parse: Any, *args: Any) -> tuple[Any, Any]:
    """``parse(*args)`` with the lean run, then as before (the lean run switched off)."""
    new = parse(*args)
    with monkeypatch.context() as m:
        m.setattr(grammar, "_lean_of", lambda parser: None)
        old = parse(*args)
    return new, old


def _mails(lines: list[str], seed: int) -> list[list[SourceLine]]:
    """The lines in mails of 1 to 6 lines (a line after prose is read as such)."""
    rng = random.Random(seed)
    out, i = [], 0
    while i < len(lines):
        n = rng.randint(1, 6)
        out.append([SourceLine(k + 1, t) for k, t in enumerate(lines[i:i + n])])
        i += n
    return out


def baltica_state() -> dict[str, Any]:
    state = baltica_module.setup("12.1", {})
    state["step"] = "actions-first"
    return state


def test_pax_baltica_lines_are_answered_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    state = baltica_state()
    board = baltica_module.board_of(state)
    lines = list(variants(_lines(BALTICA)))
    for mail in _mails(lines, 1):
        for power, language in (("sweden", "en"), ("coalition", "fr")):
            new, old = _both(monkeypatch, baltica.parse_lines, board, state, power, mail, language)
            assert _seen(new) == _seen(old), mail
    assert len(lines) > 500


def test_pax_britannica_lines_are_answered_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = list(variants(_lines(BRITANNICA)))
    for mail in _mails(lines, 2):
        for power, kinds in (("britain", ORDERS_OF_STEP["movement"]), ("france", ())):
            new, old = _both(monkeypatch, britannica.parse_lines, mail, power, kinds)
            assert _seen(new) == _seen(old), mail
    assert len(lines) > 500


def test_pax_viking_lines_are_answered_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    state = viking_module.adjudicate(viking_module.setup("3p", {}), {},
                                     Dice(seed=b"\x05" * 32, game_id="c", phase_id="setup")).state
    me = state["powers"][0]
    for mail in _mails(list(variants(_lines(VIKING))), 3):
        new, old = _both(monkeypatch, viking.parse_lines, viking_module.data, state, me, mail)
        assert _seen(new) == _seen(old), mail


def _outcome(run: Any, *args: Any) -> Any:
    """What ``run(*args)`` gives, or the type and text of what it raises (inside a tree
    walk's VisitError: what the transformer raised)."""
    try:
        return run(*args)
    except Fallback:
        raise
    except Exception as e:  # noqa: BLE001 - compared by the caller
        inner = getattr(e, "orig_exc", e)
        return (type(inner).__name__, str(inner))


def _lean_outcome(lean: LeanLALR, transformer: Any, text: str) -> Any:
    grammar._LINE.transformer = transformer
    try:
        return _outcome(lean.parse, text)
    finally:
        grammar._LINE.transformer = None


@pytest.mark.parametrize("game", ["baltica", "viking"])
def test_a_line_the_lean_run_reads_gives_what_the_tree_gives(game: str) -> None:
    """Independent of the inline callbacks: the order a lean run builds is what the game's
    transformer gives on Lark's tree of the line. (A name or refusal it stops at may come
    before a syntax error further on: parse_line then reads the line with the tree, which
    the tests above compare.)"""
    if game == "baltica":
        gram, lines = baltica.GRAMMAR, BALTICA
        state = baltica_state()
        context = baltica.context_for(baltica_module.board_of(state), state, "sweden")
    else:
        gram, lines = viking.GRAMMAR, VIKING
        state = viking_module.adjudicate(viking_module.setup("3p", {}), {},
                                         Dice(seed=b"\x05" * 32, game_id="c", phase_id="setup")).state
        context = viking.context_for(viking_module.data, state, state["powers"][0])
    lean = grammar._lean_of(grammar.load_inline_parser(gram.grammar_path))
    assert lean is not None
    read = 0
    for line in variants(_lines(lines)):
        text = straighten_quotes(line)
        folded = strip_accents(text)
        try:
            got = _lean_outcome(lean, gram.transformer(context, text), folded)
        except Fallback:
            continue
        if isinstance(got, tuple) and isinstance(got[0], str):  # raised: see the docstring
            continue
        read += 1
        tree = _outcome(gram.parser().parse, folded)
        assert got == _outcome(gram.transformer(context, text).transform, tree), line
    assert read > (100 if game == "baltica" else 20)


def test_pax_britannica_lean_run_reads_what_the_tree_reads() -> None:
    n = britannica.names()
    lean = grammar._lean_of(britannica._inline_parser())
    assert lean is not None
    read = 0
    for line in variants(_lines(BRITANNICA)):
        prepared = n.printed.join(britannica._prepare(line))
        try:
            got = _lean_outcome(lean, britannica._Build(n, "britain"), prepared)
        except Fallback:
            continue
        if isinstance(got, tuple) and isinstance(got[0], str):  # as above
            continue
        read += 1
        tree = _outcome(britannica._parser().parse, prepared)
        assert got == _outcome(britannica._Build(n, "britain").transform, tree), line
    assert read > 100


def test_the_lean_run_leaves_lines_it_cannot_read_to_lark() -> None:
    """A newline, a character no terminal takes, a token out of place: Lark answers."""
    lean = grammar._lean_of(grammar.load_inline_parser(baltica.GRAMMAR.grammar_path))
    assert lean is not None
    grammar._LINE.transformer = baltica.BalticaTransformer(grammar.ParseContext())
    try:
        assert lean.parse("recon Livland") == baltica.Recon("Livland")
        for text in ("recon Livland\nrecon Estland", "recon Livland %", "recon :", "recon", ""):
            with pytest.raises(Fallback):
                lean.parse(text)
    finally:
        grammar._LINE.transformer = None


def test_the_lean_run_needs_the_contextual_lexer() -> None:
    with pytest.raises(TypeError):
        LeanLALR(Lark("start: \"a\"", parser="lalr", lexer="basic"))


def test_accents_and_quotes_fold_as_they_did_letter_by_letter() -> None:
    for line in [*_lines(BALTICA), *_lines(BRITANNICA), *_lines(VIKING),
                 "Sjælland Małopolska Groß þing ǅ ﬁ e\u0301 日本 ‘Entente d’Afrique’ „x‟ ＂y＂"]:
        assert strip_accents(line) == "".join(ch if ch.isascii() else _strip_char(ch) for ch in line)
        before = _SINGLE_QUOTED.sub(lambda m: f'"{m.group(1)}"', line.translate(_DOUBLE_QUOTES))
        assert straighten_quotes(line) == before
    assert re.fullmatch(r"[\x00-\x7f]*", strip_accents("Västergötland Skåne"))


def test_britannica_lines_are_prepared_the_same_length_names_joined_as_printed() -> None:
    """The line the grammar reads keeps the length of the written line (its French
    elisions written out: gm.orders.elision), so positions are those of the source, a
    name read as printed made one word ("rio_de_oro"), a line holding none left as it is."""
    n = britannica.names()
    for line in [*variants(_lines(BRITANNICA)), "place interest in rio de oro", "ile maurice",
                 "move fleet 1 from home to Mer du Nord", "attack in New Guinea"]:
        source = britannica._source(line, n)
        assert source == n.printed.elisions.read(straighten_quotes(line))
        plain = britannica._prepare(source)
        assert plain == strip_accents(source).replace("’", "'").replace("ʼ", "'")
        joined = n.printed.join(plain)
        assert len(joined) == len(source), line
        assert joined.replace("_", " ").lower() == plain.lower() or "_" not in joined, line
    assert n.printed.join("place interest in rio de oro") == "place interest in rio_de_oro"
    assert n.printed.join("attack in New Guinea") == "attack in New_Guinea"


def test_a_name_is_read_as_written_token_by_token() -> None:
    """``name`` reads each token's text from the line as ``_as_written`` does."""
    state = baltica_state()
    context = baltica.context_for(baltica_module.board_of(state), state, "sweden")
    parser = baltica.GRAMMAR.parser()
    seen = 0
    for line in variants(_lines(BALTICA)):
        text = straighten_quotes(line)
        try:
            tree = parser.parse(strip_accents(text))
        except Exception:  # noqa: BLE001, S112 - only the names of lines that parse
            continue
        for transformer in (baltica.BalticaTransformer(context, text),
                            baltica.BalticaTransformer(context)):
            for node in tree.iter_subtrees():
                if str(node.data).endswith("name"):
                    words = [transformer._as_written(t) for t in node.children]
                    single = len(words) == 1 and words[0].startswith('"')
                    assert transformer.name(node.children) == (
                        words[0][1:-1].strip() if single else " ".join(words)), line
                    seen += 1
    assert seen > 100
