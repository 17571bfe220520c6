"""``gm orders submit``: the same path as an order mail, from a file."""

from __future__ import annotations

from typing import IO, Any

import click

from gm.cli.app import App, emit, json_option, pass_app


@click.group()
def orders() -> None:
    """Orders given from the command line (by the moderator, or for testing)."""


@orders.command("submit")
@click.argument("game_id")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option("--as", "power", required=True, help="The power whose orders these are.")
@click.option("--add", is_flag=True, help="Append to the power's orders instead of replacing them.")
@click.option("--check", is_flag=True, help="Parse and validate only; store nothing.")
@json_option
@pass_app
def submit(app: App, game_id: str, file: IO[str], power: str, add: bool, check: bool,
           as_json: bool) -> None:
    """Submit the orders in FILE (one per line, '-' for stdin) for a power of GAME_ID."""
    from gm.db.engine import session_scope
    from gm.orders.model import Ignored, LineError
    from gm.orders.text import clean_body
    from gm.service.games import get_game
    from gm.service.orders import submit_orders

    ctx = app.context()
    with session_scope(ctx.engine) as session:
        game = get_game(session, game_id)
        sub = submit_orders(ctx, session, game, power, clean_body(file.read()),
                            add=add, check=check, source="cli")
        rows: list[dict[str, Any]] = []  # JSON lines of the answer
        for j in sub.judged:
            rows.append({"line": j.parsed.line.number, "order": j.parsed.echo,
                         "verdict": j.validation.verdict.value, "reason": j.validation.reason})
        for r in sub.parse.lines:
            if isinstance(r, LineError):
                rows.append({"line": r.line.number, "text": r.line.text, "error": r.reason,
                             "suggestions": list(r.suggestions)})
            elif isinstance(r, Ignored):
                rows.append({"line": r.line.number, "text": r.line.text, "ignored": r.reason})
        rows.sort(key=lambda r: r["line"])
        text = "\n".join(_line(r) for r in rows)
        stored = "checked only, nothing stored" if check else f"stored as version {sub.stored.version}" if sub.stored else "nothing stored"
        emit({"phase": sub.phase.phase_id, "lines": rows, "stored": bool(sub.stored)}, as_json,
             f"{text}\n{power} in {sub.phase.phase_id}: {stored}")


def _line(r: dict[str, Any]) -> str:
    if "order" in r:
        extra = f" ({r['verdict']}{': ' + r['reason'] if r['reason'] else ''})"
        return f"{r['line']:>3}  {r['order']}{extra}"
    if "error" in r:
        hint = f" (did you mean {', '.join(r['suggestions'])}?)" if r["suggestions"] else ""
        return f"{r['line']:>3}  ! {r['text']}: {r['error']}{hint}"
    return f"{r['line']:>3}  - {r['text']} (ignored: {r['ignored']})"
