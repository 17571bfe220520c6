"""Rosetta Stone, ONCE: "Ability applies only once per any player's turn."

A tile marked ``once = true`` (data/tiles, docs/viking.md) is carried out at
most once in a turn: a second ACTIVATE of the venture is refused (the action
is not spent), a persistent modifier counts for the first action it applies
to only, and a COPY of it uses it too. The next turn it applies again.
"""

from __future__ import annotations

from viking_tables import event, send, ship, table, types, venture

from gm.games.viking import module


def test_once_venture_is_activated_once_a_turn() -> None:
    state = table()
    venture(state, "lyubsha", "Fur Traders", "red")  # ONCE: +2 silfr
    ship(state, "red", "lyubsha", 2)
    out = send(state, {"red": "activate Lyubsha\nactivate Lyubsha"})
    assert "once a turn (ONCE)" in event(out, "refused")["why"]
    assert types(out).count("activated") == 1
    assert out.state["players"]["red"]["silfr"] == 10 + 2 + 1  # and 1 income (rus)


def test_once_venture_applies_again_next_turn() -> None:
    state = table(n=2)
    venture(state, "lyubsha", "Fur Traders", "red")
    ship(state, "red", "lyubsha", 1)
    out = send(state, {"red": "activate Lyubsha"})
    out = send(out.state, {"blue": "pass"})
    out = send(out.state, {"red": "activate Lyubsha"})
    assert "refused" not in types(out) and "activated" in types(out)


def test_once_persistent_modifier_counts_for_the_first_action_only() -> None:
    """Jarl's Reeve (ONCE): +1 silfr when you ACTIVATE, for the first activation."""
    state = table()
    reeve = next(t.id for t in module.data.tileset("starter") if t.name == "Jarl's Reeve")
    state["players"]["red"]["advocates"] = [reeve]
    venture(state, "paviken", "Wax Market", "red")
    venture(state, "frojel", "Dnieper Rapids", "red")
    ship(state, "red", "paviken")
    ship(state, "red", "frojel")
    out = send(state, {"red": "activate Paviken\nactivate Frojel"})
    bonuses = [e.data["amount"] for e in out.events
               if e.type == "viking.silfr" and e.data["why"] == "activate bonus"]
    assert bonuses == [1]


def test_copy_of_a_once_ability_uses_it() -> None:
    """Gotaland Smithy copies a rival venture; Fur Traders (ONCE) already used by the
    copy cannot be copied again in the same turn."""
    state = table()
    venture(state, "lyubsha", "Fur Traders", "blue")
    smithy = next(x.id for x in module.data.posts_in("gotaland") if x.kind == "empty")
    venture(state, smithy, "Gotaland Smithy", "red")
    ship(state, "red", smithy, 2)
    out = send(state, {"red": f"activate {module.data.posts[smithy].name}\n"
                              f"activate {module.data.posts[smithy].name}"})
    assert event(out, "copied") == {"power": "red", "tile": "Fur Traders"}
    assert [(e.data["what"], e.data["why"]) for e in out.events
            if e.type == "viking.no_effect"] == [("copy", "no rival ability to copy")]
