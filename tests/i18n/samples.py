"""Contexts to render every mail template with, in any language (tests/i18n).

One entry per document of templates/mail; each gives the variants that take
the template through its branches. Values that gm says in the reader's
language before they reach a template (a duration, a message built in code)
are made here in that language too; the rest (ids, names, addresses) are
language-neutral.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace as NS
from typing import Any

from gm.i18n import msg, plural, translate
from gm.l10n import duration

WHEN = datetime(2026, 1, 7, 12, 0, tzinfo=UTC)
Sample = Callable[[str], list[dict[str, Any]]]


def _base() -> dict[str, Any]:
    return {"game_id": "g1", "phase": "turn-3", "game_title": "Pax Baltica", "power": "sweden",
            "deadline": WHEN, "timezone": "Europe/Paris", "calendar": "g1-turn-3.ics",
            "commitment": "9f2c", "address": "gm@example.org"}


def welcome(lang: str) -> list[dict[str, Any]]:
    b = {**_base(), "scenario": "12.1", "others": "russia, denmark", "moderator": "mod@example.org",
         "password": "pw1", "no_orders": False, "turn_of": "", "next_phase": "", "latest": None,
         "game_module": "baltica"}
    return [b, {**b, "no_orders": True}, {**b, "turn_of": "russia", "timezone": "UTC"},
            {**b, "turn_of": "russia", "next_phase": "turn-4", "latest": WHEN}]


def reply(lang: str) -> list[dict[str, Any]]:
    entries = [NS(kind="order", line=3, echo="Skane to Halland", text="skane halland", reason=""),
               NS(kind="refused", line=4, echo="recon Livland",
                  reason=translate(msg(
                   "not your action phase: yours is over this turn; in this one you may "
                   "send pin and discontent (4.3, 12.4) and the battle decisions (hits "
                   "prefer, retreat, regroup, battle order)"), lang)),
               NS(kind="error", line=5, text="recon Livlandd",
                  reason=translate(msg("unknown {slot} {text!r}", slot=msg("territory"),
                                       text="Livlandd"), lang), suggestions=["Livland"]),
               NS(kind="ignored", line=6, text="Cheers", reason="prose"),
               NS(kind="done", line=7, text="READY", reason=translate(msg("your orders are final"), lang)),
               NS(kind="note", line=None, text="--", reason="")]
    section = NS(game_id="g1", power="sweden", power_name="Sweden", phase="turn-3", rejected="", deadline=WHEN,
                 timezone="Europe/Paris", entries=entries)
    rejected = NS(game_id="g1", power="", power_name="", phase="", rejected=translate(
        msg("orders without a sign-on (POWER name password)"), lang), deadline=None,
        timezone="UTC", entries=[])
    base = {"reply": NS(notes=[], preamble=[], preamble_more=0, preamble_note=""),
            "sender": "someone@example.org", "game_id": "g1", "phase": "turn-3", "copy": False}
    before = [NS(kind="ignored", line=1, text="Hej Boris", reason=""),
              NS(kind="ignored", line=2, text="recon Livland", reason=translate(
                  msg("it looks like an order, but it came before the sign-on"), lang)),
              NS(kind="ignored", line=3, text="READY", reason=translate(
                  msg("it looks like a command, but it came before the sign-on"), lang))]
    note = translate(plural("Line {lines} came before the sign-on: nothing before the first GAME "
                            "or POWER line is read. Send it again below the POWER line.",
                            "Lines {lines} came before the sign-on: nothing before the first GAME "
                            "or POWER line is read. Send them again below the POWER line.",
                            2, lines="2, 3"), lang)
    preamble = NS(notes=[], preamble=before, preamble_more=4, preamble_note=note)
    return [{**base, "sections": [section, rejected]}, {**base, "sections": [section], "copy": True},
            {**base, "sections": []}, {**base, "reply": preamble, "sections": [section]}]


def reminder(lang: str) -> list[dict[str, Any]]:
    b = {**_base(), "left": duration(timedelta(hours=2), lang), "has_orders": False,
         "game_module": "baltica"}
    return [b, {**b, "has_orders": True}]


def deadline(lang: str) -> list[dict[str, Any]]:
    b = _base()
    return [{**b, "reason": ""}, {**b, "reason": "x"}]


def report(lang: str) -> list[dict[str, Any]]:
    rolls = [NS(purpose=msg("number of random events"), values=[3], source="seed", numbers="#4"),
             NS(purpose=msg("number of random events"), values=[5], source="supplied", numbers="")]
    b = {**_base(), "power_name": "", "closed_phase": "turn-2", "ended": False, "history": "", "defaulted": ["denmark"],
         "rulings": ["x"], "map_cid": "map1", "map_src": "cid:map1", "body": None,
         "body_html": None, "events": [NS(type="moved", data={"x": 1})],
         "view": {"sweden": {"Skane": 3}}, "rolls": rolls, "page": {}}
    bouncing = [{"power": "sweden", "address": "s@example.org",
                 "since": datetime(2026, 1, 5, 9, 30, tzinfo=UTC),
                 "said": "5.1.1 550 5.1.1 User unknown"}]
    return [b, {**b, "ended": True, "history": "history.html", "power": "", "bouncing": bouncing}]


def archive_extra(lang: str) -> list[dict[str, Any]]:
    return [{"press": [("sweden", "x")]}]


def archive_index(lang: str) -> list[dict[str, Any]]:
    phases = [{"file": "phase-1.html", "phase": "turn-1", "state": "done", "adjudicated": WHEN,
               "rulings": ["x"], "press": 2},
              {"file": "phase-2.html", "phase": "turn-2", "state": "open", "adjudicated": None,
               "rulings": [], "press": 1}]
    return [{**_base(), "scenario": "12.1", "powers": ["sweden", "russia"], "ended": True,
             "phases": phases}]


def archive_reveal(lang: str) -> list[dict[str, Any]]:
    reveal = [{"seq": 1, "phase": "turn-1", "reports": [("sweden", "x")],
               "rolls": [{"index": 1, "value": 4, "purpose": msg("number of random events"),
                          "source": "supplied", "audience": "sweden"}]}]
    b = {**_base(), "seed": "00ff", "seed_ok": True, "reveal": reveal}
    return [b, {**b, "seed_ok": False}]


def calendar(lang: str) -> list[dict[str, Any]]:
    b = _base()
    return [b, {**b, "power": ""}]


def map_words(lang: str) -> list[dict[str, Any]]:
    b = {**_base(), "ended": False}
    return [b, {**b, "ended": True, "power": ""}]


def missing_summary(lang: str) -> list[dict[str, Any]]:
    rows = [{"power": "sweden", "has_orders": False, "address": "s@example.org", "missed_in_row": 1,
             "bouncing": {"since": datetime(2026, 1, 5, 9, 30, tzinfo=UTC),
                          "said": "5.1.1 550 5.1.1 User unknown", "count": 2}},
            {"power": "russia", "has_orders": True, "address": "", "missed_in_row": 3}]
    b = {**_base(), "left": duration(timedelta(hours=24), lang), "missing": rows}
    return [b, {**b, "missing": []}]


MAIL: dict[str, Sample] = {
    "welcome": welcome, "reply": reply, "reminder": reminder, "deadline": deadline,
    "report": report, "archive_extra": archive_extra, "archive_index": archive_index,
    "archive_reveal": archive_reveal, "calendar": calendar, "map_words": map_words,
    "missing_summary": missing_summary,
}
"""Every document of templates/mail, with the contexts that render it."""
