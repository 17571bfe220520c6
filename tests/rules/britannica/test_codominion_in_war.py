"""Seed 003, Movement during an Alliance Manoeuvre Phase: co-dominions held with a neutral."""

from __future__ import annotations

from britannica_helpers import of_type, play, set_up

from gm.games.britannica import module, war
from gm.games.britannica import orders as o
from gm.games.britannica.data import load
from gm.orders.model import SourceLine


def _german_landing() -> tuple[dict, list]:
    """Germany at war with Britain (Germany first); a German army in the Caribbean moves into
    Guiana, the 1880 co-dominion of Britain, France and the Netherlands."""
    s = set_up()
    s["step"] = "war"
    s["casus_belli"] = [{"holder": "germany", "against": "britain", "area": "", "cause": "x"}]
    s["next_unit"] += 1
    s["units"].append({"id": s["next_unit"], "power": "germany", "type": "army", "strength": 1,
                       "at": "caribbean"})
    s["merchants"]["germany"] = [*s["merchants"]["germany"], "caribbean"]
    s, _ = play(s, {"germany": "declare war on Britain"}, lead=[6, 1])
    assert s["step"] == "war-first" and s["wars"][0]["sides"] == [["germany"], ["britain"]]
    return play(s, {"germany": "move army 1 from Caribbean to Guiana"})


def test_rule_codominion_example_german_unit_in_guiana_gives_france_a_casus_belli() -> None:
    s, events = _german_landing()
    assert of_type(events, "war_move")
    cbs = [cb for cb in of_type(events, "casus_belli") if cb["cause"] == "codominion_entered"]
    # France has a Casus Belli; the Netherlands too by the rules, but minors never use it.
    assert cbs == [{"holder": "france", "against": "germany", "area": "guiana", "cause": "codominion_entered"}]
    assert "france" in module.phase(s).allowed() and "france" not in module.phase(s).owing
    s, events = play(s, {"france": "declare war on Germany"})
    assert [d["by"] for d in of_type(events, "war_declared")] == ["france"]
    assert any(t["cause"] == "declaration of war" and t["by"] == ["france"] for t in of_type(events, "tension"))
    # France joined Britain's alliance (the German army, out of supply, surrendered: Britain
    # and France win at once).
    assert of_type(events, "war_ended")[0]["winners"] == ["britain", "france"]


def test_rule_codominion_the_neutral_declares_at_once_or_never() -> None:
    s, _ = _german_landing()
    d, current = load(), s["wars"][0]
    # The war phase after the entry passes without France declaring: the Casus Belli lapses.
    war.declare_mid_war(d, s, current, {})
    assert not [cb for cb in s["casus_belli"] if cb["cause"] == "codominion_entered"]
    events = war.declare_mid_war(d, s, current, {"france": [o.Declare("france", "germany")]})
    assert of_type(events, "order_not_carried_out")[0]["power"] == "france"
    assert "france" not in current["sides"][0] + current["sides"][1]


def test_rule_codominion_a_neutral_may_declare_but_not_move_in_the_war() -> None:
    s, _ = _german_landing()
    lines = [SourceLine(1, "move army 1 from Guiana to Caribbean"), SourceLine(2, "declare war on Germany")]
    parsed = module.parse_orders(s, "france", lines)
    verdicts = module.validate(s, "france", [p.order for p in parsed.orders])
    assert [v.stored is False for v in verdicts] == [True, False]
    assert "not in this war" in verdicts[0].reason
