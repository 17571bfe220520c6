"""A 3-player Pax Viking game played by mail through the real pipeline, to the victory check.

Each mail goes through ``store_inbound`` + ``handle_inbound`` (what the daemon
does); every player's turn is a phase of its own, closed early when its player
says READY (``deadlines.early``). The players follow a simple plan: launch a
longship, draw saga tiles while the pile lasts, then buy the cheapest tile
of the track; the saga ends when pile and track are empty and the tie breaker
crowns the winner (Victory: The End of the Saga; Tie Breaker). Fog: no mail
to a player and no ``gm state --as`` names a tile only a rival holds. Replay
(``gm replay``) re-adjudicates every phase to the same states and rolls.
"""

from __future__ import annotations

import json
import re
from typing import Any

from click.testing import CliRunner

from gm.cli.main import cli
from gm.db.engine import session_scope
from gm.games.viking import module
from gm.games.viking.table import Table
from gm.i18n import translate
from gm.service.games import SeatSpec, current_phase
from gm.verify import verify_replay
from tests.pipeline.conftest import deliver, mail, outbox

ADDR = {p: f"{p}@example.org" for p in ("red", "blue", "green")}
MOD = "mod@example.org"
LANG = {"red": "en", "blue": "fr", "green": "en"}
SEATS = [SeatSpec(p, ADDR[p], password=f"{p}-pw", language=LANG[p]) for p in ADDR]
SETTINGS = {"difficulty": "standard",
            "deadlines": {"early": True, "length": {"turn": "48h", "althing": "24h",
                                                    "trade": "24h"}}}
DATA = module.data


def now(ctx) -> tuple[str, dict[str, Any], tuple[str, ...]]:  # type: ignore[no-untyped-def]
    with session_scope(ctx.engine) as s:
        p = current_phase(s, "pv1")
        return p.phase_id, dict(p.game_state or {}), tuple((p.info or {}).get("owing", []))


def plan(state: dict[str, Any], p: str) -> list[str]:
    """This player's orders (English, or French for the French seat)."""
    fr = LANG[p] == "fr"
    lines: list[str] = []
    if not any(sh["owner"] == p for sh in state["ships"]):
        entry = DATA.place_name(sorted(Table(DATA, state).home_entries(p))[0])
        lines.append(f"{'voyager de foyer vers' if fr else 'journey from home to'} {entry}")
    if state["pile"]:
        lines += ["investir piocher" if fr else "invest draw"] * (4 - len(lines))
    else:
        costs = DATA.rule("track_costs")
        offers = sorted((c, t) for c, t in zip(costs, state["track"], strict=True) if t)
        if offers and offers[0][0] <= state["players"][p]["silfr"]:
            name = DATA.tiles[offers[0][1]].name
            lines.append(f"{'investir acheter' if fr else 'invest buy'} {name}")
        else:
            lines.append("passer" if fr else "pass")
    return lines


def secret_names(state: dict[str, Any], viewer: str) -> tuple[set[str], set[str]]:
    """(tiles only rivals hold, every tile name the viewer may see)."""
    public = [x for x in state["track"] if x] + state["discard"] + state["removed"]
    public += [st["venture"] for st in state["posts"].values() if st["venture"]]
    for pl in state["players"].values():
        public += pl["advocates"] + pl["gods"]
    public += state["players"][viewer]["hand"]
    rivals = {x for p, pl in state["players"].items() if p != viewer for x in pl["hand"]}
    names = {DATA.tiles[x].name for x in public}
    return {DATA.tiles[x].name for x in rivals} - names, names


def assert_fogged(text: str, state: dict[str, Any], viewer: str,
                  before: dict[str, Any] | None = None) -> None:
    """No tile only rivals hold is named (a tile bought from the track was public)."""
    secret, seen = secret_names(state, viewer)
    if before is not None:
        secret -= secret_names(before, viewer)[1]
    for name in sorted(seen, key=len, reverse=True):
        text = text.replace(name, "")
    leaks = [n for n in secret if re.search(rf"\b{re.escape(n)}\b", text)]
    assert not leaks, (viewer, leaks)


def test_a_three_player_game_by_mail_to_the_end_of_the_saga(pv, db_url) -> None:  # type: ignore[no-untyped-def]
    phase, state, owing = now(pv)
    assert phase == f"round-1-{state['powers'][0]}" and owing == (state["powers"][0],)
    first = state["powers"][0]

    # A player who is not due gets told whose turn it is; nothing is stored.
    other = state["powers"][1]
    deliver(pv, mail(f"GAME pv1\nPOWER {other} {other}-pw\ninvest draw\n", sender=ADDR[other]))
    assert phase in outbox(pv, kind="reply", to=ADDR[other])[-1][1]
    assert now(pv)[0] == phase

    turns = 0
    while True:
        phase, state, owing = now(pv)
        if state["ended"]:
            break
        assert state["step"] == "turn" and len(owing) == 1
        p = owing[0]
        lines = plan(state, p)
        deliver(pv, mail(f"GAME pv1\nPOWER {p} {p}-pw\n" + "\n".join(lines)
                         + ("\nPRET\n" if LANG[p] == "fr" else "\nREADY\n"), sender=ADDR[p]))
        new_phase, new_state, _ = now(pv)
        assert new_phase != phase, outbox(pv, kind="reply", to=ADDR[p])[-1][1]
        for viewer in new_state["powers"]:
            assert_fogged(outbox(pv, kind="report", to=ADDR[viewer])[-1][1], new_state, viewer,
                          state)
        turns += 1
        assert turns < 60

    # The saga ended with the tie breaker: followers, then silfr.
    assert state["end_reason"] == "end_of_saga" and state["winners"]
    best = max(state["players"][p]["silfr"] for p in state["powers"])
    assert {state["players"][w]["silfr"] for w in state["winners"]} == {best}
    last = outbox(pv, kind="report", to=ADDR["red"])[-1][1]
    assert "The saga ends (the saga track is empty)" in last and ("Winner:" in last or "Winners:" in last)
    assert "La saga s'achève" in outbox(pv, kind="report", to=ADDR["blue"])[-1][1]
    assert "OK  invest draw" in outbox(pv, kind="reply", to=ADDR[first])[0][1] or \
        "OK  journey from home" in outbox(pv, kind="reply", to=ADDR[first])[0][1]

    # gm state --as: a player's view holds their hand, never a rival's.
    for viewer in state["powers"]:
        out = CliRunner().invoke(cli, ["--db", db_url, "state", "pv1", "--as", viewer],
                                 catch_exceptions=False)
        view = json.loads(out.output)
        assert [t["name"] for t in view["hand"]] == [
            DATA.tiles[x].name for x in state["players"][viewer]["hand"]]
        assert "state" not in view and "pile" not in json.dumps(view.get("players"))
        assert_fogged(out.output, state, viewer)

    # Replay re-adjudicates every phase to the same result.
    with session_scope(pv.engine) as s:
        assert verify_replay(s, "pv1") == []


def test_a_french_seat_reads_the_parse_error_labels_in_french(pv) -> None:  # type: ignore[no-untyped-def]
    """A line not understood is named by the example it resembles ("a journey needs
    ..."); blue's seat is French, so blue's reply names it in French, and red's
    English reply in English."""
    bad = {"fr": "voyager Svealand\ninvestir\nparlementer Birka défier",
           "en": "journey Svealand\ninvest\nparley Birka challenge"}
    told: dict[str, str] = {}
    for _ in range(6):
        _, state, owing = now(pv)
        p = owing[0]
        if p in ("blue", "red") and p not in told:
            deliver(pv, mail(f"GAME pv1\nPOWER {p} {p}-pw\n{bad[LANG[p]]}\n", sender=ADDR[p]))
            told[p] = outbox(pv, kind="reply", to=ADDR[p])[-1][1]
        deliver(pv, mail(f"GAME pv1\nPOWER {p} {p}-pw\n" + "\n".join(plan(state, p))
                         + ("\nPRET\n" if LANG[p] == "fr" else "\nREADY\n"), sender=ADDR[p]))
        if len(told) == 2:
            break
    fr, en = told["blue"], told["red"]
    # "voyager Svealand" may open a journey written without "de" (orders.md: a
    # hurried player's journey), so the line is short rather than wrong at column 9.
    assert "un voyage s'écrit 'de LIEU vers LIEU, LIEU' (en fin de ligne" in fr
    assert "investir s'écrit 'piocher' ou 'acheter TUILE'" in fr
    assert "parlementer s'écrit 'POSTE' ou 'POSTE défier JOUEUR'" in fr
    assert "needs" not in fr
    assert "a journey needs 'from PLACE to PLACE, PLACE' (at the end of the line" in en
    assert "invest needs 'draw' or 'buy TILE'" in en
    assert "parley needs 'POST' or 'POST challenge PLAYER'" in en


def test_the_reply_echoes_accepted_orders_in_the_seats_language(pv) -> None:  # type: ignore[no-untyped-def]
    """Issue 20: the echo of an accepted order ("OK ...") reads in the seat's language,
    whichever language the player wrote it in; the French echo is the grammar's French
    ("voyager de foyer vers ..."), with the place's French name, so it parses again."""
    _, state, owing = now(pv)
    p = owing[0]
    node = sorted(Table(DATA, state).home_entries(p))[0]
    entry, french = DATA.place_name(node), translate(DATA.place_said(node), "fr")
    head = f"GAME pv1\nPOWER {p} {p}-pw\n"
    deliver(pv, mail(head + "SET LANGUAGE fr\n", sender=ADDR[p]))
    deliver(pv, mail(head + f"journey from home to {entry}\ninvest draw\n", sender=ADDR[p]))
    reply = outbox(pv, kind="reply", to=ADDR[p])[-1][1]
    assert f"OK  voyager de foyer vers {french}" in reply and "OK  investir piocher" in reply
    assert f"vous avez écrit : journey from home to {entry}" in reply
    deliver(pv, mail(head + f"voyager de foyer vers {french}\ninvestir piocher\n", sender=ADDR[p]))
    reply = outbox(pv, kind="reply", to=ADDR[p])[-1][1]
    assert f"OK  voyager de foyer vers {french}" in reply and "OK  investir piocher" in reply
    assert "vous avez écrit" not in reply and "journey" not in reply
    deliver(pv, mail(head + "SET LANGUAGE en\n", sender=ADDR[p]))
    deliver(pv, mail(head + f"voyager de foyer vers {french}\ninvestir piocher\n", sender=ADDR[p]))
    reply = outbox(pv, kind="reply", to=ADDR[p])[-1][1]
    assert f"OK  journey from home to {entry}" in reply and "OK  invest draw" in reply
    assert f"you wrote: voyager de foyer vers {french}" in reply
    assert now(pv)[1]["players"] == state["players"]  # nothing carried out yet (no READY)


def test_a_player_between_turns_is_told_when_the_turn_closes_grace_included(ctx) -> None:  # type: ignore[no-untyped-def]
    """A player who writes during another's turn is told that turn closes at the latest at
    its deadline plus the game's grace (docs/scheduling.md, `grace`: adjudication is at
    deadline + grace); it said the deadline, an hour early."""
    from datetime import timedelta

    from gm.l10n import moment
    from gm.service.adjudicate import settle
    from gm.service.games import create_game

    settings = {**SETTINGS, "deadlines": {**SETTINGS["deadlines"], "grace": "1h"}}
    with session_scope(ctx.engine) as s:
        create_game(ctx, s, game_id="pv1", module_name="viking", scenario="3p", seats=SEATS,
                    moderator_address=MOD, moderator_password="mod-secret",
                    settings=settings, seed=b"\x07" * 32)
    settle(ctx, "pv1", by="test")
    phase_id, _, owing = now(ctx)
    [waiting] = [p for p in ("red", "green") if p not in owing]
    with session_scope(ctx.engine) as s:
        deadline = current_phase(s, "pv1").deadline
    assert deadline is not None
    deliver(ctx, mail(f"GAME pv1\nPOWER {waiting} {waiting}-pw\nREADY\n", sender=ADDR[waiting]))
    [(_, text)] = outbox(ctx, kind="reply", to=ADDR[waiting])
    assert f"{waiting} has no orders to give in phase {phase_id}" in text, text
    assert f"at the latest {moment(deadline + timedelta(hours=1))}" in text, text
