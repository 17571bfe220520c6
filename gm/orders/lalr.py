"""A lean run of a Lark LALR parser (contextual lexer) over one order line (issue 21).

Lark's own loop spends most of a short line's time on its generality: a lexer thread and
a line counter per text, a generator per token, rule objects hashed at every reduction.
:class:`LeanLALR` runs the very tables, scanners and callbacks of an existing Lark parser
(the same regular expressions in the same order, the same keyword callbacks, the same
rule callbacks) in one tight loop, for a line that Lark would accept. Anything else (a
character no terminal matches, a token the state does not expect, a newline, a callback
that raises) raises :class:`Fallback` with nothing reported: the caller then hands the
line to Lark itself, which answers it exactly as before (its error, its position).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Lark, Token
from lark.lexer import BasicLexer, ContextualLexer
from lark.parsers.lalr_analysis import Shift


class Fallback(Exception):
    """The line is not one the lean run answers: parse it with Lark."""


class RefusedAtFirstWord(Fallback):
    """Lark refuses the line at its first token (no terminal of the start state matches at
    column 1, or the token there is not one the parser expects), with
    an error that :func:`gm.orders.grammar._at_first_word` names so: a caller that only
    needs that (a prose line's first word) need not ask Lark for the error itself."""


_Reduce = tuple[int, Callable[[list[Any]], Any], str]


class LeanLALR:
    """The tables of ``parser`` (LALR, contextual lexer, start rule ``start``) laid out for
    :meth:`parse`; built once per Lark parser."""

    def __init__(self, parser: Lark, start: str = "start") -> None:
        frontend = parser.parser
        lexer = frontend.lexer
        if not isinstance(lexer, ContextualLexer) or parser.options.postlex is not None:
            raise TypeError("a lean LALR run needs Lark's contextual lexer and no postlexer")
        table = frontend.parser.parser.parse_table
        callbacks = frontend.parser.parser.callbacks
        self.new_token: Callable[..., Token] = getattr(Token, "_future_new", Token)  # Token() calls it
        self.start_state = table.start_states[start]
        self.end_state = table.end_states[start]
        # names as plain str: Lark's are Tokens, whose __eq__ would run at every look-up
        self.token_callbacks = {str(k): v for k, v in callbacks.items() if isinstance(k, str)}
        # per state: token type -> the state shifted to (int) or the reduction (tuple)
        # (a rule's name is never a token's type: Lark keeps both in one row too)
        self.actions: dict[Any, dict[str, int | _Reduce]] = {}
        for state, row in table.states.items():
            acts: dict[str, int | _Reduce] = {}
            for key, (action, arg) in row.items():
                if action is Shift:
                    if arg.__class__ is not int:
                        raise TypeError("a lean LALR run needs integer states")
                    acts[str(key)] = arg
                else:
                    acts[str(key)] = (len(arg.expansion), callbacks[arg], str(arg.origin.name))
            self.actions[state] = acts
        # per state: the scanner's expressions, the ignored types, the token callbacks
        self.lexers: dict[Any, tuple[tuple[Any, ...], frozenset[str], dict[str, Any]]] = {}
        for state, basic in lexer.lexers.items():
            if not isinstance(basic, BasicLexer):
                raise TypeError("a lean LALR run needs Lark's basic lexers")
            scanner = basic.scanner  # built now (Lark builds it at the first use)
            if basic.ignore_types & set(basic.callback):
                raise TypeError("a lean LALR run keeps no ignored token")
            self.lexers[state] = (tuple(scanner._mres), frozenset(map(str, basic.ignore_types)),
                                  {str(k): v for k, v in basic.callback.items()})

    def parse(self, text: str) -> Any:
        """What Lark's ``parse(text)`` returns for a line it accepts; :class:`Fallback`
        for any other line (or one holding a newline: positions are line 1 here)."""
        if "\n" in text:
            raise Fallback
        actions, lexers = self.actions, self.lexers
        token_callbacks = self.token_callbacks
        end_state = self.end_state
        states = [self.start_state]
        values: list[Any] = []
        pos, size = 0, len(text)
        new_token = self.new_token
        while True:
            state = states[-1]
            # the next token, read with the lexer of this state (Lark's contextual lexer)
            mres, ignore, callback = lexers[state]
            token = None
            while pos < size:
                for mre in mres:
                    m = mre.match(text, pos)
                    if m:
                        break
                else:
                    raise RefusedAtFirstWord if pos == 0 else Fallback
                kind = m.lastgroup
                end = m.end()
                if kind in ignore:
                    pos = end
                    continue
                token = new_token(kind, m.group(0), pos, 1, pos + 1, 1, end + 1, end)
                pos = end
                if kind in callback:
                    token = callback[kind](token)
                break
            kind = "$END" if token is None else token.type
            # reduce as needed, then shift the token (or accept at the end)
            while True:
                act = actions[state].get(kind)
                if act is None:
                    raise RefusedAtFirstWord if token is not None and token.start_pos == 0 else Fallback
                if act.__class__ is int:
                    if token is None:
                        raise Fallback
                    states.append(act)
                    values.append(token if kind not in token_callbacks
                                  else token_callbacks[kind](token))
                    break
                n, reduce, origin = act  # type: ignore[misc]
                if n:
                    children = values[-n:]
                    del states[-n:]
                    del values[-n:]
                else:
                    children = []
                value = reduce(children)
                state = actions[states[-1]][origin]  # the goto: a state
                states.append(state)
                values.append(value)
                if token is None and state == end_state:
                    return value
