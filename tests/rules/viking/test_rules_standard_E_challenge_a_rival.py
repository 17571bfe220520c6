"""Standard Actions E, PARLEY, and its Challenge: the player challenges one rival.

"You may PARLEY as long as a Longship you control is Alone in the Post or you
have more Longships, including special abilities, in the Post than a Rival."
"Challenge: ... compare to those of your Rival. You need to have more Longships
than that Rival in order to perform a Challenge." Rosetta Stone, CHALLENGE:
"Choose a RIVAL in the same POST who has fewer Longships."
"""

from __future__ import annotations

from viking_tables import event, hold, orders, send, ship, ships_at, table, tid, types

from gm.games.base import Verdict
from gm.games.viking import module
from gm.i18n import translate


def _crowded(red: int, blue: int, green: int) -> dict:  # type: ignore[type-arg]
    """Birka (blue's trade center) with red, blue and green longships."""
    state = table()
    ship(state, "red", "birka", red)
    ship(state, "blue", "birka", blue)
    ship(state, "green", "birka", green)
    hold(state, "birka", "blue")
    return state


def test_rule_e_challenge_that_rival_only_its_longships_are_compared() -> None:
    """"You need to have more Longships than that Rival": red's 2 longships beat
    blue's 1 though green has 3; blue's longship returns, green's stay, and red,
    not alone, establishes nothing yet."""
    state = _crowded(2, 1, 3)
    out = send(state, {"red": "parley Birka challenge blue"})
    assert event(out, "challenged") == {"power": "red", "rival": "blue", "post": "Birka",
                                        "returned": 1, "moved": 0, "to": "Svealand",
                                        "followers": 0, "remaining": ["green"]}
    s = out.state
    assert ships_at(s, "birka") == {"red": 2, "green": 3}
    assert "established" not in types(out) and s["posts"]["birka"]["owner"] == "blue"
    assert "refused" not in types(out)


def test_rule_e_challenge_each_rival_in_turn_then_establish() -> None:
    """One rival per challenge: red challenges blue, then green, and establishes on
    Birka once no rival longship is left, paying its cost."""
    state = _crowded(3, 2, 1)
    out = send(state, {"red": "parley Birka challenge blue\nparley Birka challenge green"})
    s = out.state
    assert [e.data["rival"] for e in out.events if e.type == "viking.challenged"] == ["blue",
                                                                                    "green"]
    assert ships_at(s, "birka") == {"red": 3} and ships_at(s, "svealand") == {"blue": 1}
    assert s["posts"]["birka"]["owner"] == "red" and event(out, "established")["cost"] == 2


def test_rule_e_challenge_a_stronger_named_rival_is_refused() -> None:
    """Green counts 3 against red's 2: red cannot challenge green, whoever else is there."""
    out = send(_crowded(2, 1, 3), {"red": "parley Birka challenge green"})
    assert "green counts 3 longships on Birka; you count 2" in event(out, "refused")["why"]


def test_rule_e_challenge_several_rivals_and_none_named_is_refused_when_the_mail_arrives() -> None:
    """Whom to challenge is the player's choice: with blue and green on Birka and no
    rival named, the order is refused at once, saying how to name one, in English
    and in French; with a single rival there, that rival is challenged."""
    state = _crowded(3, 1, 1)
    [v] = module.validate(state, "red", orders(state, "red", "parley Birka"))
    assert v.verdict is Verdict.REFUSED
    assert v.reason == ("several rivals are on Birka (blue, green): name the one you challenge, "
                        "e.g. 'parley Birka challenge blue'")
    assert "nommez celui que vous défiez" in translate(v.reason, "fr")
    only = table()
    ship(only, "red", "birka", 2)
    ship(only, "blue", "birka", 1)
    assert event(send(only, {"red": "parley Birka"}), "challenged")["rival"] == "blue"


def test_rule_e_challenge_names_a_rival_on_the_post() -> None:
    """The rival named must have longships (or followers acting as longships) on the
    post, and be a rival."""
    state = _crowded(3, 1, 0)
    why = event(send(state, {"red": "parley Birka challenge green"}), "refused")["why"]
    assert why == "green has no longship on Birka to challenge"
    why = event(send(state, {"red": "parley Birka challenge red"}), "refused")["why"]
    assert why == "red is not a rival"


def test_rule_e_challenge_only_that_rivals_abilities_count() -> None:
    """"compare to those of your Rival": green's Odin (+1 longship in PARLEY) counts
    when green is challenged, not when blue is."""
    state = _crowded(3, 2, 2)
    state["players"]["green"]["gods"] = [tid("Odin")]
    out = send(state, {"red": "parley Birka challenge blue\nparley Birka challenge green"})
    assert [e.data["rival"] for e in out.events if e.type == "viking.challenged"] == ["blue"]
    assert "green counts 3 longships on Birka; you count 3" in event(out, "refused")["why"]
