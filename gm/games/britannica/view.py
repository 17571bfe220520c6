"""Fog: what each power may know (seed, Deadlines and Adjudication reports; Treaties).

Public: the map (markers, units, merchant fleets, unrest), the indices, VP and
treasuries (the GM publishes them). Private: secret treaties (parties only) and
treaty drafts not yet ratified. The moderator (``None``) sees everything.
"""

from __future__ import annotations

from typing import Any

from gm.games.base import copy_state
from gm.games.britannica.data import PLACE_FORMS, WORD_FORMS, BritanniaData, load


def words(d: BritanniaData, language: str = "en") -> dict[str, Any]:
    """The names the report templates write in ``language`` (issue 20; the English ones
    where the data gives none): ``power`` (great, minor and non-player powers, by id, each
    with its :data:`~gm.games.britannica.data.WORD_FORMS` and ``plural``, rules.toml
    ``words``), ``place`` (areas, sea zones and the home box, by id, each with its
    :data:`~gm.games.britannica.data.PLACE_FORMS` from map.toml ``words``, and ``from``:
    "from Persia" in English, the ``of`` form elsewhere, "de la Perse") and ``event``
    (random events by key, charts.toml ``name_<language>``)."""
    r = d.rules
    power: dict[str, dict[str, Any]] = {}
    for key, t in {**r["powers"], **r["minor_powers"], **r["non_players"]}.items():
        said = t.get("words", {})
        name = str(t["name"])
        en = {"name": name, "the": name, "of": f"of {name}", "to": f"to {name}", "plural": False}
        power[key] = en | said.get("en", {}) | {
            f: v for f, v in said.get(language, {}).items() if f in (*WORD_FORMS, "plural")}
    place = {k: _place(t, language)
             for group in ("areas", "sea_zones") for k, t in d.raw_map[group].items()}
    place["home"] = _place(r["home_box"] | {"words": {
        "en": {"in": "at home"}, **r["home_box"].get("words", {})}}, language)
    event = {k: str(t.get(f"name_{language}") or t["name"])
             for k, t in d.charts["random_events"]["table"].items()}
    return {"power": power, "place": place, "event": event}


def _place(t: dict[str, Any], language: str) -> dict[str, str]:
    """One place's :data:`~gm.games.britannica.data.PLACE_FORMS` in ``language`` and its
    ``from`` form (see :func:`words`)."""
    said = t.get("words", {})
    name = str(t["name"])
    en = {"name": name, "the": name, "in": f"in {name}", "of": f"of {name}"} | said.get("en", {})
    forms = en | {f: str(v) for f, v in said.get(language, {}).items() if f in PLACE_FORMS}
    return forms | {"from": f"from {name}" if language == "en" else forms["of"]}


def view(state: dict[str, Any], power: str | None) -> dict[str, Any]:
    """The state as ``power`` (a seat) may know it."""
    out = copy_state(state)
    d = load()
    if power is None:
        return out
    mine = {p for p in d.great_powers if d.seat_of(p) == power}
    out["treaties"] = [t for t in state["treaties"]
                       if (t["public"] and t["ratified"]) or mine & set(t["parties"])]
    out["me"] = power
    out["my_powers"] = sorted(mine)
    return out
